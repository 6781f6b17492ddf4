package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

// scalingSizes are the schema sizes of the generation-scaling rows: one
// .proto file of that many small messages.
var scalingSizes = []int{1000, 10000, 20000}

// ScalingRow is one `protoplay gen` run over a synthetic schema: medians of
// the runs for times and peak resident memory.
type ScalingRow struct {
	Name        string  // "1000 messages", or a pathological input's name
	Messages    int     // 0 for the pathological inputs
	SchemaBytes int     // .proto size
	OutBytes    int64   // Go written
	WallS       float64 // wall time
	CPUS        float64 // user + system CPU time
	PeakRSSKB   int64   // getrusage ru_maxrss of the gen process
	Exit        int     // gen's exit status
	Stderr      string  // its first line, for the rejected inputs
	// protoc + protoc-gen-go over the same file in the same run (0 when
	// protoc or gen/bin/protoc-gen-go is missing): wall and CPU time of
	// protoc and its plugin, the larger peak RSS of the two, Go written.
	PeerWallS     float64
	PeerCPUS      float64
	PeerPeakRSSKB int64
	PeerOutBytes  int64
	// PeerFailed is protoc's last stderr line when it failed (at 20,000
	// messages protoc-gen-go v1.36.12 writes a string concatenation that
	// go/parser refuses as nested too deep, and protoc exits 1).
	PeerFailed string
}

// scalingSchema is n small messages of four fields in one proto3 file (78
// bytes each: 20,000 make 1.6 MB).
func scalingSchema(n int) string {
	var b strings.Builder
	b.WriteString("syntax = \"proto3\";\npackage big;\noption go_package = \"example.com/big\";\n\n")
	for i := range n {
		fmt.Fprintf(&b, "message M%d {\n  int32 a = 1;\n  string b = 2;\n  int64 c = 3;\n  bool d = 4;\n}\n", i)
	}
	return b.String()
}

// nestedOptionsSchema is the other input: option values nested
// depth deep (280 KB at 40,000), which the compiler's MaxNesting refuses.
func nestedOptionsSchema(depth int) string {
	return "syntax = \"proto2\";\npackage o;\nimport \"google/protobuf/descriptor.proto\";\n" +
		"message Opt { optional Opt a = 1; optional int32 v = 2; }\n" +
		"extend google.protobuf.MessageOptions { optional Opt o = 50000; }\n" +
		"message M { option (o) = " + strings.Repeat("{ a: ", depth) + "{ v: 1 }" + strings.Repeat(" }", depth) + "; }\n"
}

// buildProtoplay builds the CLI into gen/bin/protoplay and returns its
// absolute path.
func buildProtoplay() (string, error) {
	pp := mustAbs(filepath.Join("gen", "bin", "protoplay"))
	return pp, goCmd("..", nil, "build", "-o", pp, "./cmd/protoplay")
}

// measureScaling runs `protoplay gen` (default limits) over one file of
// 1,000, 10,000 and 20,000 small messages, *flagRuns times each, and over
// the nested-options file once, recording wall and CPU time, peak RSS and
// output size.
func measureScaling(e *Extra) error {
	pp, err := buildProtoplay()
	if err != nil {
		return err
	}
	// The peer, in the same rounds: skipped when protoc or the plugin
	// (installed by the full run into gen/bin) is missing.
	protoc, _ := exec.LookPath("protoc")
	pg := mustAbs(filepath.Join("gen", "bin", "protoc-gen-go"))
	if _, err := os.Stat(pg); err != nil {
		protoc = ""
	}
	if protoc == "" {
		fmt.Fprintln(os.Stderr, "benchrun: scaling: protoc or gen/bin/protoc-gen-go missing, protoplay gen only")
	}
	dir, err := os.MkdirTemp("", "benchrun-scaling-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	type input struct {
		name string
		n    int
		text string
		runs int
	}
	var inputs []input
	for _, n := range scalingSizes {
		inputs = append(inputs, input{fmt.Sprintf("%d messages", n), n, scalingSchema(n), max(1, *flagRuns)})
	}
	inputs = append(inputs, input{"option values nested 40,000 deep", 0, nestedOptionsSchema(40000), 1})
	e.Scaling = nil
	for _, in := range inputs {
		file := strings.ReplaceAll(in.name, " ", "_") + ".proto"
		file = strings.ReplaceAll(file, ",", "")
		if err := os.WriteFile(filepath.Join(dir, file), []byte(in.text), 0o644); err != nil {
			return err
		}
		var runs []ScalingRow
		for i := range in.runs {
			fmt.Fprintf(os.Stderr, "benchrun: scaling: %s, run %d/%d\n", in.name, i+1, in.runs)
			out := filepath.Join(dir, "out")
			os.RemoveAll(out)
			// runtime=import: the generated files only, as protoc-gen-go
			// writes (gen's default also writes the runtime's sources).
			cmd := exec.Command(pp, "gen", "-I", dir, "-o", out, "--opt", "runtime=import", file)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			t0 := time.Now()
			err := cmd.Run()
			row := ScalingRow{Name: in.name, Messages: in.n, SchemaBytes: len(in.text), WallS: time.Since(t0).Seconds()}
			if cmd.ProcessState == nil {
				return fmt.Errorf("%s: %v", in.name, err)
			}
			row.Exit = cmd.ProcessState.ExitCode()
			row.CPUS = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				row.PeakRSSKB = int64(ru.Maxrss)
			}
			row.Stderr = firstLine(strings.TrimSpace(stderr.String()))
			if in.n > 0 && row.Exit != 0 {
				return fmt.Errorf("%s: protoplay gen exited %d: %s", in.name, row.Exit, tail(stderr.String(), 2000))
			}
			row.OutBytes, _ = treeBytes(out) // what was written, also after a failed run
			if in.n > 0 && protoc != "" {
				if err := runPeer(&row, protoc, pg, dir, file); err != nil {
					return fmt.Errorf("%s: %v", in.name, err)
				}
				if row.PeerFailed != "" {
					fmt.Fprintf(os.Stderr, "benchrun: scaling: %s: protoc failed: %s\n", in.name, row.PeerFailed)
				}
			}
			runs = append(runs, row)
		}
		e.Scaling = append(e.Scaling, medianRow(runs))
	}
	return nil
}

// runPeer runs protoc + protoc-gen-go over file in dir and records its
// figures in row.
func runPeer(row *ScalingRow, protoc, pg, dir, file string) error {
	out := filepath.Join(dir, "peer-out")
	os.RemoveAll(out)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	defer os.RemoveAll(out)
	cmd := exec.Command(protoc, "-I", dir, "--plugin=protoc-gen-go="+pg, "--go_out="+out, file)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	t0 := time.Now()
	err := cmd.Run()
	row.PeerWallS = time.Since(t0).Seconds()
	if cmd.ProcessState == nil {
		return fmt.Errorf("protoc: %v", err)
	}
	if err != nil {
		// Its first line: protoc-gen-go's error message is followed by
		// the whole unparsable file.
		msg := stderr.String()
		if i := strings.Index(msg, "\n"); i >= 0 {
			msg = msg[:i]
		}
		row.PeerFailed = firstLine(strings.TrimSpace(msg))
	}
	// wait4's rusage of protoc holds its reaped children's too (Linux
	// reports RUSAGE_BOTH for a reaped child): the plugin's CPU time is
	// counted, and the peak RSS is the larger of the two processes'.
	row.PeerCPUS = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		row.PeerPeakRSSKB = int64(ru.Maxrss)
	}
	row.PeerOutBytes, _ = treeBytes(out) // what was written, also after a failed run
	return nil
}

// medianRow is runs[0] with the median of each measurement.
func medianRow(runs []ScalingRow) ScalingRow {
	r := runs[0]
	var wall, cpu, rss, pwall, pcpu, prss []float64
	for _, x := range runs {
		wall, cpu, rss = append(wall, x.WallS), append(cpu, x.CPUS), append(rss, float64(x.PeakRSSKB))
		pwall, pcpu, prss = append(pwall, x.PeerWallS), append(pcpu, x.PeerCPUS), append(prss, float64(x.PeerPeakRSSKB))
	}
	r.WallS, r.CPUS, r.PeakRSSKB = median(wall), median(cpu), int64(median(rss))
	r.PeerWallS, r.PeerCPUS, r.PeerPeakRSSKB = median(pwall), median(pcpu), int64(median(prss))
	for _, x := range runs {
		if x.PeerFailed != "" {
			r.PeerFailed = x.PeerFailed
		}
	}
	return r
}

// printScaling prints the generation-scaling table and the growth ratios.
func printScaling(pf func(string, ...any), e *Extra) {
	if len(e.Scaling) == 0 && e.ScalingNote == "" {
		return
	}
	runs := "one run"
	if n := max(1, *flagRuns); n > 1 {
		runs = fmt.Sprintf("medians of %d runs", n)
	}
	pf("\n### generation scaling: protoplay gen over one file of N small messages (%s)\n\n", runs)
	if e.ScalingNote != "" {
		pf("%s\n", e.ScalingNote)
		return
	}
	pf("| input | .proto | Go written | wall s | CPU s | peak RSS MB | CPU ms / message | peak RSS KB / message |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
	var sized []ScalingRow
	for _, r := range e.Scaling {
		if r.Messages == 0 {
			continue
		}
		sized = append(sized, r)
		pf("| %s | %.0f KB | %.1f MB | %.2f | %.2f | %.0f | %.3f | %.1f |\n", r.Name, float64(r.SchemaBytes)/1e3, float64(r.OutBytes)/1e6,
			r.WallS, r.CPUS, float64(r.PeakRSSKB)/1e3, 1e3*r.CPUS/float64(r.Messages), float64(r.PeakRSSKB)/float64(r.Messages))
	}
	if len(sized) > 0 && sized[0].PeerWallS > 0 {
		pf("\nprotoc + protoc-gen-go over the same files, in the same rounds (CPU and peak RSS: protoc and its plugin, the larger of the two peaks):\n\n")
		pf("| input | Go written | wall s | CPU s | peak RSS MB | protoplay / protoc: wall | CPU | peak RSS | Go written |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
		for _, r := range sized {
			if r.PeerFailed != "" {
				pf("| %s | failed after %.2f s wall, %.2f s CPU, peak RSS %.0f MB: `%s` | | | | | | | |\n", r.Name, r.PeerWallS, r.PeerCPUS, float64(r.PeerPeakRSSKB)/1e3, r.PeerFailed)
				continue
			}
			pf("| %s | %.1f MB | %.2f | %.2f | %.0f | **%s** | %s | %s | %s |\n", r.Name, float64(r.PeerOutBytes)/1e6, r.PeerWallS, r.PeerCPUS, float64(r.PeerPeakRSSKB)/1e3,
				ratio(r.WallS, r.PeerWallS), ratio(r.CPUS, r.PeerCPUS), ratio(float64(r.PeakRSSKB), float64(r.PeerPeakRSSKB)), ratio(float64(r.OutBytes), float64(r.PeerOutBytes)))
		}
	}
	sort.Slice(sized, func(i, j int) bool { return sized[i].Messages < sized[j].Messages })
	if len(sized) > 1 {
		var parts []string
		for i := 1; i < len(sized); i++ {
			a, b := sized[i-1], sized[i]
			parts = append(parts, fmt.Sprintf("%d → %d messages (×%.0f): CPU ×%.2f, wall ×%.2f, peak RSS ×%.2f", a.Messages, b.Messages,
				float64(b.Messages)/float64(a.Messages), b.CPUS/a.CPUS, b.WallS/a.WallS, float64(b.PeakRSSKB)/float64(a.PeakRSSKB)))
		}
		pf("\nGrowth (linear growth is the ratio of messages): %s.\n", strings.Join(parts, "; "))
	}
	for _, r := range e.Scaling {
		if r.Messages == 0 {
			pf("\n%s (%.0f KB): exit %d after %.2f s wall, %.2f s CPU, peak RSS %.0f MB: `%s`\n", r.Name, float64(r.SchemaBytes)/1e3, r.Exit, r.WallS, r.CPUS, float64(r.PeakRSSKB)/1e3, r.Stderr)
		}
	}
}
