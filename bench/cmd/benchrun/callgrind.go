package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Instruction counts: the wall-time medians of a shared machine move with
// its load, so the rows the issues set targets on are also counted under
// valgrind's callgrind, whose count of executed instructions (Ir) does not.
// A count covers the whole process, every thread: the garbage collector's
// work is in it, as it is in the wall time.
//
// One measurement is two runs of the suite binary under callgrind, with
// -test.benchtime Nx and 3Nx; (Ir(3N) − Ir(N)) / 2N is the count per op,
// so the process's start (TestMain, the payloads, hyperpb's compiled
// parsers) cancels out. N is about 30 ms of the op at the wall-time median,
// enough ops for the collector's cycles to average out.

// InstrRow is one witnessed row: the reference peer's and protoplay's
// instructions per op.
type InstrRow struct {
	Row, Msg  string // the suite's benchmark (Deserialize) and message key (gm2)
	Ref, PP   string // peer dirs: the reference (vt, hp, pp) and protoplay's (pp, ppo)
	RefIr     float64
	PPIr      float64
	Target    float64 // the bound on PPIr/RefIr; 0: none
	TargetFor string  // what the bound is, e.g. "issue 26: ≤ 0.7x hyperpb"
	Err       string
}

// instrTargets are the rows with targets in the issues, always counted.
var instrTargets = []InstrRow{
	{Row: "Deserialize", Msg: "gm2", Ref: "hp", PP: "ppo", Target: 0.7, TargetFor: "opaque GoogleMessage2 Unmarshal ≤ 0.7x hyperpb"},
	{Row: "DeserializeFunc", Msg: "gm2", Ref: "hp", PP: "ppo", Target: 0.7, TargetFor: "opaque GoogleMessage2 Unmarshal ≤ 0.7x hyperpb"},
	{Row: "Deserialize", Msg: "gm1_proto2", Ref: "vt", PP: "ppo", Target: 0.8, TargetFor: "opaque GoogleMessage1 proto2 Unmarshal ≤ 0.8x vtprotobuf"},
	{Row: "Deserialize", Msg: "gm1_proto3", Ref: "vt", PP: "pp", Target: 1, TargetFor: "open GoogleMessage1 Unmarshal ≤ 1.0x vtprotobuf"},
	{Row: "Deserialize", Msg: "gm1_proto2", Ref: "vt", PP: "pp", Target: 1, TargetFor: "open GoogleMessage1 Unmarshal ≤ 1.0x vtprotobuf"},
	{Row: "Serialize", Msg: "gm1_proto3", Ref: "vt", PP: "pp", Target: 1, TargetFor: "open GoogleMessage1 Marshal ≤ 1.0x vtprotobuf"},
	{Row: "Serialize", Msg: "gm1_proto2", Ref: "vt", PP: "pp", Target: 1, TargetFor: "open GoogleMessage1 Marshal ≤ 1.0x vtprotobuf"},
	{Row: "SerializeReuse", Msg: "gm1_proto3", Ref: "vt", PP: "pp", Target: 1, TargetFor: "open GoogleMessage1 Marshal ≤ 1.0x vtprotobuf"},
	{Row: "SerializeReuse", Msg: "gm1_proto2", Ref: "vt", PP: "pp", Target: 1, TargetFor: "open GoogleMessage1 Marshal ≤ 1.0x vtprotobuf"},
	{Row: "Size", Msg: "gm1_proto3", Ref: "vt", PP: "pp", Target: 1, TargetFor: "open GoogleMessage1 Size ≤ 1.0x vtprotobuf"},
	{Row: "Size", Msg: "gm1_proto2", Ref: "vt", PP: "pp", Target: 1, TargetFor: "open GoogleMessage1 Size ≤ 1.0x vtprotobuf"},
}

// opaqueSlowerBy is how much slower than open (wall-time medians) an
// opaque row must be for instrRows to count it: below 10% the medians of a
// quiet run of this suite already swing from one run to the next.
const opaqueSlowerBy = 1.10

// instrRows is instrTargets, then every opaque row whose wall-time median
// is more than opaqueSlowerBy times protoplay's open row on the same
// message (issue 26: no opaque row slower than open): the count says
// whether the gap is the code's or the machine's.
func instrRows(r results) []InstrRow {
	rows := append([]InstrRow(nil), instrTargets...)
	var extra []InstrRow
	for _, row := range Rows {
		if row.Func == "SizeOf" || row.JSON {
			continue // size_of is bytes, not time; JSON rows have no open/opaque pair
		}
		for msg := range r[row.Func] {
			open, ok1 := r.med(row.Func, msg, PeerPP.Dir, "ns/op")
			opaque, ok2 := r.med(row.Func, msg, PeerPPO.Dir, "ns/op")
			if ok1 && ok2 && opaque > open*opaqueSlowerBy {
				extra = append(extra, InstrRow{Row: row.Func, Msg: msg, Ref: PeerPP.Dir, PP: PeerPPO.Dir, Target: 1, TargetFor: "no opaque row slower than open"})
			}
		}
	}
	sort.Slice(extra, func(i, j int) bool {
		if extra[i].Row != extra[j].Row {
			return rowIndex(extra[i].Row) < rowIndex(extra[j].Row)
		}
		return extra[i].Msg < extra[j].Msg
	})
	return append(rows, extra...)
}

func rowIndex(fn string) int {
	for i, r := range Rows {
		if r.Func == fn {
			return i
		}
	}
	return len(Rows)
}

var collected = regexp.MustCompile(`Collected : (\d+)`)

// callgrindIr runs the suite binary under callgrind with -test.benchtime
// Nx on one benchmark (row/msg/peer) and returns the process's
// instruction count. GODEBUG: no asynchronous preemption (callgrind does
// not survive Go's SIGURG) and no RDTSCP (valgrind 3.19 cannot decode it);
// GOMAXPROCS=1 so no idle P spins.
func callgrindIr(bin, row, msg, peer string, n int) (float64, error) {
	cmd := exec.Command("valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
		bin, "-test.run", "^$", "-test.bench", "^Benchmark"+row+"$/^"+msg+"$/^"+peer+"$",
		"-test.benchtime", strconv.Itoa(n)+"x", "-test.count", "1")
	cmd.Dir = filepath.Join("gen", "suite")
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1", "GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("%s/%s/%s: %v: %s", row, msg, peer, err, lastLines(out.String(), 3))
	}
	if !strings.Contains(out.String(), "Benchmark"+row+"/"+msg+"/"+peer) {
		return 0, fmt.Errorf("%s/%s/%s: the benchmark did not run: %s", row, msg, peer, lastLines(out.String(), 3))
	}
	m := collected.FindStringSubmatch(out.String())
	if m == nil {
		return 0, fmt.Errorf("%s/%s/%s: no callgrind total in: %s", row, msg, peer, lastLines(out.String(), 3))
	}
	return strconv.ParseFloat(m[1], 64)
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(ls[max(0, len(ls)-n):], " | ")
}

// instrPerOp is one benchmark's instructions per op, from runs of n and
// 3n ops; n is 30 ms of the op at its wall-time median nsPerOp.
func instrPerOp(bin, row, msg, peer string, nsPerOp float64) (float64, error) {
	n := int(math.Round(30e6 / math.Max(nsPerOp, 1)))
	n = min(max(n, 10), 3_000_000)
	a, err := callgrindIr(bin, row, msg, peer, n)
	if err != nil {
		return 0, err
	}
	b, err := callgrindIr(bin, row, msg, peer, 3*n)
	if err != nil {
		return 0, err
	}
	return (b - a) / float64(2*n), nil
}

// measureInstructions counts the rows of instrRows, two valgrind processes
// at a time (callgrind runs one thread; this machine has two cores). A
// row whose runs fail keeps the error; without valgrind it returns nil.
func measureInstructions(out string, log func(string, ...any)) []InstrRow {
	if _, err := exec.LookPath("valgrind"); err != nil {
		log("instruction counts skipped: valgrind is not installed")
		return nil
	}
	bin, err := filepath.Abs(filepath.Join("gen", "suite.test"))
	if err != nil {
		return nil
	}
	r, _ := parseBench(out)
	rows := instrRows(r)
	type key struct{ row, msg, peer string }
	counts := map[key]float64{}
	errs := map[key]error{}
	var keys []key
	for _, x := range rows {
		for _, p := range []string{x.Ref, x.PP} {
			k := key{x.Row, x.Msg, p}
			if _, dup := counts[k]; !dup {
				counts[k] = 0
				keys = append(keys, k)
			}
		}
	}
	log("instruction counts: %d rows, %d benchmarks under callgrind", len(rows), len(keys))
	var mu sync.Mutex
	sem := make(chan struct{}, max(1, runtime.NumCPU()))
	var wg sync.WaitGroup
	for _, k := range keys {
		ns, ok := r.med(k.row, k.msg, k.peer, "ns/op")
		if !ok {
			errs[k] = fmt.Errorf("no wall-time row %s/%s/%s", k.row, k.msg, k.peer)
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			v, err := instrPerOp(bin, k.row, k.msg, k.peer, ns)
			mu.Lock()
			counts[k], errs[k] = v, err
			mu.Unlock()
			if err != nil {
				log("callgrind %s/%s/%s: %v", k.row, k.msg, k.peer, err)
			} else {
				log("callgrind %s/%s/%s: %.1f instructions/op", k.row, k.msg, k.peer, v)
			}
		}()
	}
	wg.Wait()
	for i := range rows {
		x := &rows[i]
		for _, e := range []error{errs[key{x.Row, x.Msg, x.Ref}], errs[key{x.Row, x.Msg, x.PP}]} {
			if e != nil && x.Err == "" {
				x.Err = e.Error()
			}
		}
		x.RefIr, x.PPIr = counts[key{x.Row, x.Msg, x.Ref}], counts[key{x.Row, x.Msg, x.PP}]
	}
	return rows
}

// printInstructions prints the counted rows: the targets first, then the
// opaque rows the wall time had slower than open.
func printInstructions(pf func(string, ...any), rows []InstrRow) {
	if len(rows) == 0 {
		return
	}
	pf("\n### instructions per op (valgrind callgrind): the rows with targets, and the opaque rows over 10%% slower than open in wall time\n\n")
	pf("Whole-process instruction counts (every thread, the garbage collector included), GOMAXPROCS=1; per op = (Ir(3N ops) − Ir(N ops)) / 2N,\n")
	pf("N about 30 ms of the op at its wall-time median. Counts do not move with the machine's load; they do not see cache misses or stalls,\n")
	pf("so they witness the wall-time tables above and do not replace them: the targets are wall-time targets, \"met\" here is the same bound on instructions.\n\n")
	pf("| row | message | reference | reference Ir/op | protoplay | protoplay Ir/op | ratio | target (wall time) | met in instructions |\n|---|---|---|---:|---|---:|---:|---|---|\n")
	for _, x := range rows {
		label := x.Row
		for _, r := range Rows {
			if r.Func == x.Row {
				label = r.Label
			}
		}
		if x.Err != "" {
			pf("| %s | %s | %s | | %s | | | %s | failed: %s |\n", label, x.Msg, peerName(x.Ref), peerName(x.PP), x.TargetFor, strings.ReplaceAll(firstLine(x.Err), "|", "/"))
			continue
		}
		q := x.PPIr / x.RefIr
		met := "no"
		if q <= x.Target {
			met = "**yes**"
		}
		pf("| %s | %s | %s | %s | %s | %s | **%.2f** | %s | %s |\n", label, x.Msg, peerName(x.Ref), irNum(x.RefIr), peerName(x.PP), irNum(x.PPIr), q, x.TargetFor, met)
	}
}

func irNum(v float64) string {
	if v >= 1000 {
		return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

func peerName(dir string) string {
	for _, p := range BenchPeers {
		if p.Dir == dir {
			return p.Name
		}
	}
	return dir
}
