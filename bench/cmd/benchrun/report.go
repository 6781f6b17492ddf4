package main

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// results[row][message][peer][unit] = samples
type results map[string]map[string]map[string]map[string][]float64

var procSuffix = regexp.MustCompile(`-\d+$`)

func parseBench(out string) (results, []string) {
	r := results{}
	var order []string // messages in first-seen order
	seen := map[string]bool{}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		parts := strings.Split(procSuffix.ReplaceAllString(strings.TrimPrefix(f[0], "Benchmark"), ""), "/")
		if len(parts) != 3 {
			continue
		}
		row, msg, peer := parts[0], parts[1], parts[2]
		if !seen[msg] {
			seen[msg] = true
			order = append(order, msg)
		}
		if r[row] == nil {
			r[row] = map[string]map[string]map[string][]float64{}
		}
		if r[row][msg] == nil {
			r[row][msg] = map[string]map[string][]float64{}
		}
		if r[row][msg][peer] == nil {
			r[row][msg][peer] = map[string][]float64{}
		}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			r[row][msg][peer][f[i+1]] = append(r[row][msg][peer][f[i+1]], v)
		}
	}
	return r, order
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func (r results) med(row, msg, peer, unit string) (float64, bool) {
	xs := r[row][msg][peer][unit]
	if len(xs) == 0 {
		return 0, false
	}
	return median(xs), true
}

// spread is "[min–max]" of a cell's ns/op samples, or "" for one sample.
func (r results) spread(row, msg, peer string) string {
	xs := r[row][msg][peer]["ns/op"]
	if len(xs) < 2 {
		return ""
	}
	lo, hi := xs[0], xs[0]
	for _, x := range xs {
		lo, hi = min(lo, x), max(hi, x)
	}
	return "[" + num(lo) + "–" + num(hi) + "]"
}

// loadLines are the load averages runBench recorded ("# round N load: ..."
// and "# end load: ...").
func loadLines(out string) []string {
	var ls []string
	for _, line := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(line, "# "); ok && strings.Contains(rest, "load: ") {
			ls = append(ls, strings.Replace(rest, " load: ", ": ", 1))
		}
	}
	return ls
}

func num(v float64) string {
	switch {
	case v == 0:
		return "0"
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

func ratio(pp, peer float64) string {
	if peer == 0 {
		if pp == 0 {
			return "="
		}
		return "∞"
	}
	return fmt.Sprintf("%.2f", pp/peer)
}

func printReport(w io.Writer, out string, e *Extra) {
	r, msgs := parseBench(out)
	pf := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	pf("\nRatios are protoplay / peer (protoplay opaque / peer in the opaque tables), medians of the rounds; below 1.00 means protoplay is faster or smaller.\n")
	pf("ns/op cells are median [min–max] over the rounds; each round ran every peer once, in rotated order.\n")
	pf("Rows: \"deserialize (fresh message, direct call)\" is new(T) then a direct Unmarshal call;\n")
	pf("\"deserialize (fresh heap message, through a func value)\" calls a package-level func([]byte) (any, error)\n")
	pf("that allocates the message and returns it as an interface, as a codec does.\n")
	pf("\"json marshal\" and \"json unmarshal\" (protoplay vs protoc-gen-go only) are generated MarshalJSON and\n")
	pf("UnmarshalJSON (into a fresh message) against google.golang.org/protobuf/encoding/protojson's Marshal and\n")
	pf("Unmarshal on protoc-gen-go's types; both read the same input, protojson's output for the recorded payload.\n")
	if loads := loadLines(out); len(loads) > 0 {
		pf("\nMachine load (/proc/loadavg 1/5/15 min) before each round: %s\n", strings.Join(loads, "; "))
	}
	for _, peer := range []Peer{PeerPPDrop, PeerPG, PeerVT, PeerHP} {
		printVersus(pf, r, msgs, PeerPP, peer)
	}
	// The opaque API's tables: protoplay's opaque code against its open
	// code and every peer (rows of messages the suite generated opaque
	// code for; none when the run had no opaque peer).
	for _, peer := range []Peer{PeerPP, PeerPGO, PeerPG, PeerVT, PeerHP} {
		printVersus(pf, r, msgs, PeerPPO, peer)
	}
	if e == nil {
		return
	}
	printInstructions(pf, e.Instr)
	if len(e.Init) > 0 {
		pf("\n### overhead: package init (GODEBUG=inittrace=1, a program importing every generated package)\n\n")
		pf("| peer | generated packages: bytes, allocs, ms | with their runtime (all non-std packages): bytes, allocs, ms |\n|---|---:|---:|\n")
		for _, p := range AllPeers {
			c, ok := e.Init[p.Dir]
			if !ok {
				continue
			}
			pf("| %s | %d B, %d allocs, %.3f ms | %d B, %d allocs, %.3f ms |\n", p.Name, c.GenBytes, c.GenAllocs, c.GenMs, c.AllBytes, c.AllAllocs, c.AllMs)
		}
		pf("\n### overhead: first call vs steady state (ns; first call in a fresh process, steady = median of the next 100; median of runs)\n\n")
		pf("Origin/flat/mixed messages are marshalled first, then unmarshalled; the recorded payloads are unmarshalled first.\n\n")
		pf("| message | peer | first Unmarshal | steady Unmarshal | first Marshal | steady Marshal |\n|---|---|---:|---:|---:|---:|\n")
		var keys []string
		for k := range e.FirstCall[PeerPP.Dir] {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return indexOf(msgs, keys[i]) < indexOf(msgs, keys[j]) })
		for _, k := range keys {
			for _, p := range AllPeers {
				v, ok := e.FirstCall[p.Dir][k]
				if !ok {
					continue
				}
				pf("| %s | %s | %d | %d | %d | %d |\n", k, p.Name, v[0], v[1], v[2], v[3])
			}
		}
	}
	if len(e.BinSize) > 0 {
		pf("\n### binary_size: stripped program (-trimpath -ldflags='-s -w') marshalling the origin's message\n\n")
		pf("| peer | bytes | protoplay bytes | protoplay − peer | ratio |\n|---|---:|---:|---:|---:|\n")
		ppb := e.BinSize[PeerPP.Dir]
		for _, name := range []string{"baseline", PeerPPDrop.Dir, PeerPG.Dir, PeerVT.Dir} {
			label := name
			for _, p := range AllPeers {
				if p.Dir == name {
					label = p.Name
				}
			}
			if name == "baseline" {
				label = "baseline (fmt only)"
			}
			v := e.BinSize[name]
			pf("| %s | %d | %d | %+d | %s |\n", label, v, ppb, ppb-v, ratio(float64(ppb), float64(v)))
		}
	}
	if len(e.Compiler) > 0 || e.CompilerNote != "" {
		pf("\n### compiler speed: ../shared/corpus/googleapis (%d files, -I googleapis -I protobuf), wall time\n\n", e.CompilerN)
		if e.CompilerNote != "" {
			pf("%s\n", e.CompilerNote)
		} else {
			a, b := e.Compiler["protoc+protoc-gen-go"], e.Compiler["protoplay"]
			pf("| protoc + protoc-gen-go s | protoplay gen s | ratio | runs (protoc / protoplay) |\n|---:|---:|---:|---|\n")
			pf("| %.2f | %.2f | **%s** | %s / %s |\n", median(a), median(b), ratio(median(b), median(a)), secs(a), secs(b))
		}
	}
	printVolume(pf, e)
	printScaling(pf, e)
	printNode(pf, e.Node)
	if e.Browser != nil {
		printBrowser(pf, e.Browser)
	}
}

// printVersus prints the tables of ref (protoplay, or protoplay opaque)
// against peer: a row per benchmark and message both ran, then the
// size_of table; nothing when they have no row in common.
func printVersus(pf func(string, ...any), r results, msgs []string, ref, peer Peer) {
	if !r.hasCommon(ref, peer) {
		return
	}
	pf("\n### %s vs %s\n\n", ref.Name, peer.Name)
	if peer.Kind == "hp" {
		pf("(hyperpb decodes only: a parser compiled at run time by hyperpb.CompileMessageDescriptor from the same .proto's descriptor, into read-only messages; reuse is one hyperpb.Shared freed after each decode.)\n\n")
	}
	if peer == PeerPGO {
		pf("(protoc-gen-go v1.36.12 with default_api_level=API_OPAQUE, from a copy of the .proto in package <package>.opaque, so that it registers beside the open code.)\n\n")
	}
	if peer.Kind == "vt" {
		pf("(instantiation, init_with_values, attribute access and setting and size_of are protoc-gen-go's: vtprotobuf adds methods to the same structs.)\n\n")
	}
	pf("| row | message | %s ns/op | %s ns/op | ratio | %s B/op, allocs | %s B/op, allocs | alloc ratio | MB/s %s / %s |\n", peer.Name, ref.Name, peer.Name, ref.Name, peer.Name, ref.Name)
	pf("|---|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, row := range Rows {
		if row.Func == "SizeOf" || (row.Typed && peer.Kind == "vt") {
			continue
		}
		for _, msg := range msgs {
			a, ok1 := r.med(row.Func, msg, peer.Dir, "ns/op")
			b, ok2 := r.med(row.Func, msg, ref.Dir, "ns/op")
			if !ok1 || !ok2 {
				continue
			}
			ab, _ := r.med(row.Func, msg, peer.Dir, "B/op")
			aa, _ := r.med(row.Func, msg, peer.Dir, "allocs/op")
			bb, _ := r.med(row.Func, msg, ref.Dir, "B/op")
			ba, _ := r.med(row.Func, msg, ref.Dir, "allocs/op")
			mbs := ""
			if am, ok := r.med(row.Func, msg, peer.Dir, "MB/s"); ok {
				bm, _ := r.med(row.Func, msg, ref.Dir, "MB/s")
				mbs = num(am) + " / " + num(bm)
			}
			pf("| %s | %s | %s | %s | **%s** | %s B, %s | %s B, %s | %s | %s |\n", row.Label, msg,
				num(a)+" "+r.spread(row.Func, msg, peer.Dir), num(b)+" "+r.spread(row.Func, msg, ref.Dir), ratio(b, a),
				num(ab), num(aa), num(bb), num(ba), ratio(ba, aa), mbs)
		}
	}
	if peer.Kind == "vt" || peer.Kind == "hp" || len(r["SizeOf"]) == 0 {
		return
	}
	hasSize := false
	for _, msg := range msgs {
		_, ok1 := r.med("SizeOf", msg, peer.Dir, "sizeof-B")
		_, ok2 := r.med("SizeOf", msg, ref.Dir, "sizeof-B")
		hasSize = hasSize || ok1 && ok2
	}
	if !hasSize {
		return
	}
	pf("\nsize_of: bytes per instance (unsafe.Sizeof of the struct; heap bytes of one populated instance, struct included)\n\n")
	pf("| message | %s sizeof | %s sizeof | ratio | %s heap | %s heap | ratio |\n|---|---:|---:|---:|---:|---:|---:|\n", peer.Name, ref.Name, peer.Name, ref.Name)
	for _, msg := range msgs {
		as, ok1 := r.med("SizeOf", msg, peer.Dir, "sizeof-B")
		bs, ok2 := r.med("SizeOf", msg, ref.Dir, "sizeof-B")
		if !ok1 || !ok2 {
			continue
		}
		ah, _ := r.med("SizeOf", msg, peer.Dir, "heap-B")
		bh, _ := r.med("SizeOf", msg, ref.Dir, "heap-B")
		pf("| %s | %s | %s | **%s** | %s | %s | **%s** |\n", msg, num(as), num(bs), ratio(bs, as), num(ah), num(bh), ratio(bh, ah))
	}
}

// hasCommon reports whether ref and peer both ran some benchmark on some
// message.
func (r results) hasCommon(ref, peer Peer) bool {
	for _, byMsg := range r {
		for _, byPeer := range byMsg {
			if byPeer[ref.Dir] != nil && byPeer[peer.Dir] != nil {
				return true
			}
		}
	}
	return false
}

func secs(xs []float64) string {
	var s []string
	for _, x := range xs {
		s = append(s, fmt.Sprintf("%.2f", x))
	}
	return strings.Join(s, " ")
}

func indexOf(xs []string, s string) int {
	for i, x := range xs {
		if x == s {
			return i
		}
	}
	return len(xs)
}

// printBrowser prints the playground's section: the wasm sizes, the load,
// the edit results with issue 14's targets (printEdits) and TestMeasure's
// report lines.
func printBrowser(pf func(string, ...any), b *Browser) {
	pf("\n### the playground in chromium: wasm sizes, compile latency and the checks of the generated Go (site/measure_test.go)\n\n")
	if b.Note != "" {
		pf("%s\n", b.Note)
		return
	}
	pf("| module | raw | gzip | brotli |\n|---|---:|---:|---:|\n| core (protoplay.wasm) | %d | %d | %d |\n", b.WasmRaw, b.WasmGzip, b.WasmBrotli)
	pf("| interpreter (interp.wasm, fetched after the first output) | %d | %d | %d |\n\n", b.InterpRaw, b.InterpGzip, b.InterpBrotli)
	if b.Load != "" {
		pf("Load average (1, 5, 15 min) before -> after: %s (2 cores).\n\n", b.Load)
	}
	printEdits(pf, b)
	for _, l := range b.Lines {
		pf("- %s\n", l)
	}
}

// volumeTarget is issue 29's bound on generated Go: at most twice the bytes
// of protoc-gen-go's and vtprotobuf's output together, on GoogleMessage2
// and googleapis.
const volumeTarget = 2.0

// printVolume prints the generated Go bytes of each input: protoplay with
// every method family against protoc-gen-go plus vtprotobuf.
func printVolume(pf func(string, ...any), e *Extra) {
	if len(e.Volume) == 0 && e.VolumeNote == "" {
		return
	}
	pf("\n### code volume: generated Go bytes, protoplay (features=all) vs protoc-gen-go + vtprotobuf (features=%s)\n\n", vtFeatures)
	pf("Generated files only, neither side's runtime library (protoplay's googleapis run uses runtime=import). protoplay's families: marshal, unmarshal, size, equal, clone, json, text; protoc-gen-go's ProtoJSON and text come from its runtime's reflection.\n\n")
	if len(e.Volume) > 0 {
		pf("| input | files | protoc-gen-go | vtprotobuf | together | protoplay | protoplay / together | protoplay / protoc-gen-go |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
		for _, v := range e.Volume {
			both := v.ProtocGoGo + v.VT
			r := ratio(float64(v.Protoplay), float64(both))
			if float64(v.Protoplay) <= volumeTarget*float64(both) {
				r = "**" + r + "**"
			}
			note := ""
			if v.Note != "" {
				note = " (" + v.Note + ")"
			}
			pf("| %s%s | %d | %d | %d | %d | %d | %s | %s |\n", v.Input, note, v.Files, v.ProtocGoGo, v.VT, both, v.Protoplay, r, ratio(float64(v.Protoplay), float64(v.ProtocGoGo)))
		}
		pf("\nBold: within issue 29's bound, at most %.0fx protoc-gen-go + vtprotobuf.\n", volumeTarget)
	}
	if e.VolumeNote != "" {
		pf("\n%s\n", e.VolumeNote)
	}
}
