package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// docHeader is what docs/benchmarks.md says about the run its tables come
// from: when, at which commit, on what machine and under what load.
type docHeader struct {
	Date    string // UTC, YYYY-MM-DD
	Commit  string // short hash; "-dirty" when the tree had uncommitted changes
	Machine string // GOOS/GOARCH, logical CPUs, CPU model
	Go      string // the Go toolchain
	Load    string // the 1-minute load averages recorded before the rounds
	Command string // how the run was started
}

// docMethod is the method, stated once in docs/benchmarks.md.
const docMethod = `Each table compares protoplay's generated code with a peer's on the same messages:
protoc-gen-go v1.36.12, vtprotobuf v0.6.0 (protoc-gen-go-vtproto), hyperpb v0.1.3 (decode only,
a parser compiled at run time from the same descriptor) and protoplay itself with
` + "`unknown_fields=drop`" + `. ` + "`bench/`" + ` is a Go module of its own; ` + "`make bench`" + ` installs the peers' plugins
from the module proxy, drives them with a ` + "`CodeGeneratorRequest`" + ` from protoplay's compiler (no protoc
needed) and generates every peer's code and the benchmark suite into ` + "`bench/gen`" + ` (never committed).

The opaque tables compare protoplay's opaque API (` + "`default_api_level=API_OPAQUE`" + `: hidden fields, presence
bits, Get/Set/Has/Clear and builders) with protoplay's open API and every peer, protoc-gen-go's opaque API
among them; their rows set fields and build literals through the opaque methods and builders.
attribute_setting reads the values to set from a populated message before its timed loop (a ` + "`b.N`" + ` loop: in a
` + "`b.Loop`" + ` body the compiler keeps every setter's argument alive on the stack) and times the assignments or
` + "`SetX`" + ` calls alone; attribute_access times the getters.

Messages: the origin's three ` + "`uint32`" + ` fields (` + "`bench/testdata/origin.proto`" + `), flat messages of
0, 3, 5, 10 and 50 scalars (` + "`flat.proto`" + `), one with maps, oneofs, packed repeated fields, nested
messages and strings (` + "`mixed.proto`" + `), and GoogleMessage1 (proto3 and proto2) and GoogleMessage2
with their recorded payloads (from ` + "`../shared/corpus/benchmarks`" + `; skipped without it).

The suite's test binary is built once and run in rounds (` + "`-count`" + `, default 6): each round runs
every peer once, in an order rotated by one each round, so load that comes and goes falls on every
peer alike. Cells are medians of the rounds with their min–max; ratio = protoplay / peer, so below
1.00 protoplay is faster or smaller. "deserialize (fresh message, direct call)" is ` + "`new(T)`" + ` and a
direct ` + "`Unmarshal`" + `; "through a func value" decodes through a ` + "`func([]byte) (any, error)`" + ` that
allocates the message, as an RPC codec does; "reused message" decodes into one message again and
again. The JSON rows compare the generated ` + "`MarshalJSON`/`UnmarshalJSON`" + ` with protojson on
protoc-gen-go's types, reading the same bytes. Outside ` + "`go test`" + `: package init cost
(` + "`GODEBUG=inittrace=1`" + `), the first call in a fresh process against the steady state, the size of a
stripped program, ` + "`protoplay gen`" + ` against protoc + protoc-gen-go over googleapis, the bytes of Go
each writes (protoplay with every method family against protoc-gen-go plus vtprotobuf), generation of
1,000 to 20,000 messages of four fields in one file beside protoc + protoc-gen-go, a gRPC unary call over bufconn, and the playground in
chromium (` + "`site/measure_test.go`" + `). On a shared machine the rows that allocate swing between runs;
read the load in the header with the numbers. The rows the issues set targets on, and every opaque row
over 10% slower than open in wall time, are also counted in instructions under valgrind's callgrind, which do
not move with load: whole-process counts of N and 3N ops, subtracted (` + "`-skip-callgrind`" + ` skips them).

` + "`make bench BENCHFLAGS='...'`" + ` passes flags to ` + "`bench/cmd/benchrun`" + ` (` + "`-count`, `-benchtime`, `-bench`, `-runs`,\n`-skip-compiler`, `-skip-scaling`, `-skip-browser`, `-skip-grpc`, `-skip-callgrind`" + `); its raw ` + "`go test`" + ` output is kept in
` + "`bench/gen/bench.txt`" + `, and ` + "`go run ./cmd/benchrun -report-only gen/bench.txt`" + ` prints the tables again.
`

// writeDoc writes docs/benchmarks.md: the header, the method and the
// tables (printReport's and the gRPC row's output).
func writeDoc(w io.Writer, h docHeader, tables string) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# Benchmarks\n\n")
	fmt.Fprintf(bw, "Written by `make bench` (`bench/cmd/benchrun`); a new run replaces this page. Older results are in\nthe page's git history.\n\n")
	fmt.Fprintf(bw, "| run | |\n|---|---|\n")
	for _, kv := range [][2]string{
		{"date", h.Date},
		{"commit", h.Commit},
		{"machine", h.Machine},
		{"load", h.Load},
		{"Go", h.Go},
		{"command", h.Command},
	} {
		v := kv[1]
		if v == "" {
			v = "not recorded"
		}
		fmt.Fprintf(bw, "| %s | %s |\n", kv[0], v)
	}
	fmt.Fprintf(bw, "\n## Method\n\n%s\n## Results\n", docMethod)
	bw.WriteString(strings.TrimRight(tables, "\n") + "\n")
	return bw.Flush()
}

// currentHeader describes this run: today's date, the checkout's commit,
// this machine and the load averages out recorded.
func currentHeader(out string) docHeader {
	git := func(args ...string) string {
		b, err := exec.Command("git", args...).Output()
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(b))
	}
	commit := git("rev-parse", "--short", "HEAD")
	if commit != "" && git("status", "--porcelain", "--untracked-files=no") != "" {
		commit += "-dirty"
	}
	return docHeader{
		Date:    time.Now().UTC().Format("2006-01-02"),
		Commit:  commit,
		Machine: machine(),
		Go:      runtime.Version(),
		Load:    loadSummary(loadLines(out), runtime.NumCPU()),
		Command: strings.TrimSpace("make bench " + strings.Join(os.Args[1:], " ")),
	}
}

// machine is "linux/amd64, 2 CPUs, <model>" (the model from /proc/cpuinfo
// when there is one).
func machine() string {
	s := fmt.Sprintf("%s/%s, %d CPUs", runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		if m := cpuModel(b); m != "" {
			s += ", " + m
		}
	}
	return s
}

// cpuModel is the first "model name" of a /proc/cpuinfo.
func cpuModel(cpuinfo []byte) string {
	for _, line := range bytes.Split(cpuinfo, []byte("\n")) {
		k, v, ok := bytes.Cut(line, []byte(":"))
		if ok && string(bytes.TrimSpace(k)) == "model name" {
			return string(bytes.TrimSpace(v))
		}
	}
	return ""
}

// loadSummary condenses loadLines' "round N: a b c" lines to the range of
// their 1-minute load averages: "1-minute load average 1.20–3.40 over 7
// readings, on 2 CPUs".
func loadSummary(lines []string, cpus int) string {
	lo, hi, n := 0.0, 0.0, 0
	for _, l := range lines {
		_, rest, ok := strings.Cut(l, ": ")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 {
			continue
		}
		v, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			continue
		}
		if n == 0 || v < lo {
			lo = v
		}
		if n == 0 || v > hi {
			hi = v
		}
		n++
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("1-minute load average %.2f–%.2f over %d readings, on %d CPUs", lo, hi, n, cpus)
}
