// Command benchrun is `make bench`: it generates protoplay's and the peers'
// code (protoc-gen-go, vtprotobuf; protoplay and protoc-gen-go also with
// default_api_level=API_OPAQUE) for the benchmark messages into gen/
// (gitignored), writes the benchmark suite from a template, runs it in one
// `go test -bench` binary, run in interleaved rounds (every peer once per
// round, rotated order), measures init overhead, first-call cost,
// stripped binary size, instruction counts under valgrind's callgrind for the rows with
// targets, a gRPC unary call (gen/grpcbench), compiler speed, generation scaling (1,000 to
// 20,000 messages in one file), the npm package's first compile in Node
// against the native CLI, and the playground's wasm size and latency
// in chromium, and prints the tables in the
// origin's form: peer | protoplay | ratio (protoplay / peer, medians).
// A full run also writes them to docs/benchmarks.md (-doc), headed by the
// date, commit, machine and load they were measured at and the method.
//
// Run from the bench/ directory:
//
//	go run ./cmd/benchrun [-count 5] [-benchtime 100ms] [-skip-compiler] [-skip-scaling] [-skip-node] [-skip-browser] [-skip-grpc] [-skip-callgrind] [-doc PATH] [-gen-only] [-scaling-only] [-node-only] [-suite-only] [-callgrind-only]
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

const benchModule = "github.com/protoplay/protoplay/bench"

var (
	flagCount     = flag.Int("count", 6, "rounds: each runs every peer once (go test -count 1), peers in rotated order")
	flagBenchtime = flag.String("benchtime", "100ms", "go test -benchtime")
	flagBench     = flag.String("bench", ".", "go test -bench pattern: row[/message] (each level a regexp, e.g. 'Deserialize|Size$/gm1|gm2'); the peer level is benchrun's")
	flagSkipComp  = flag.Bool("skip-compiler", false, "skip the compiler-speed comparison")
	flagSkipBrows = flag.Bool("skip-browser", false, "skip the playground's wasm size and latency in chromium")
	flagRuns      = flag.Int("runs", 3, "runs per side for compiler speed and overhead programs")
	flagReport    = flag.String("report-only", "", "only print tables from this saved go test output")
	flagGenOnly   = flag.Bool("gen-only", false, "only generate gen/ (to run go test -bench in gen/suite by hand)")
	flagSkipScale = flag.Bool("skip-scaling", false, "skip the generation-scaling rows (protoplay gen, and protoc + protoc-gen-go beside it, over 1,000, 10,000 and 20,000 messages)")
	flagScaleOnly = flag.Bool("scaling-only", false, "only measure and print the generation-scaling rows")
	flagSuiteOnly = flag.Bool("suite-only", false, "only generate and run the go test suite's interleaved rounds and print its tables (no overhead, size, compiler, scaling, browser or gRPC rows)")
	flagBrowsOnly = flag.Bool("browser-only", false, "only measure and print the playground in chromium (wasm sizes, site TestMeasure; needs make site and chromium, as make bench does)")
	flagSkipNode  = flag.Bool("skip-node", false, "skip the npm package's first compile in Node against the native CLI (needs make npm and ../shared)")
	flagNodeOnly  = flag.Bool("node-only", false, "only measure and print the npm package's first compile in Node against the native CLI")
	flagSkipCG    = flag.Bool("skip-callgrind", false, "skip the instruction counts under valgrind's callgrind (the rows with targets, and opaque rows slower than open)")
	flagCGOnly    = flag.Bool("callgrind-only", false, "only count instructions under callgrind, for the rows of the last suite run (gen/bench.txt, gen/suite.test), and print their table")
	flagSkipGRPC  = flag.Bool("skip-grpc", false, "skip the gRPC row (a unary call over bufconn, protoplay vs protoc-gen-go + protoc-gen-go-grpc)")
	flagDoc       = flag.String("doc", filepath.Join("..", "docs", "benchmarks.md"), "after a full run, write the tables with the run's date, commit, machine and load to this page (empty: print only); the -only modes print only")
)

func main() {
	flag.Parse()
	log := func(format string, args ...any) { fmt.Fprintf(os.Stderr, "benchrun: "+format+"\n", args...) }
	if _, err := os.Stat("go.mod"); err != nil {
		fatal(fmt.Errorf("run from the bench/ directory: %v", err))
	}
	shared, haveShared := sharedDir()
	if !haveShared {
		log("../shared is absent: skipping GoogleMessage1/2 rows and compiler speed (set PROTOPLAY_SHARED to point at it)")
	}
	if *flagReport != "" {
		out, err := os.ReadFile(*flagReport)
		if err != nil {
			fatal(err)
		}
		extra := loadExtra()
		printReport(os.Stdout, string(out), extra)
		return
	}
	if *flagCGOnly {
		out, err := os.ReadFile(filepath.Join("gen", "bench.txt"))
		if err != nil {
			fatal(fmt.Errorf("-callgrind-only needs a suite run's gen/bench.txt and gen/suite.test: %v", err))
		}
		printInstructions(func(format string, args ...any) { fmt.Fprintf(os.Stdout, format, args...) }, measureInstructions(string(out), log))
		return
	}
	if *flagBrowsOnly {
		extra := &Extra{}
		if err := measureBrowser(extra); err != nil {
			fatal(err)
		}
		printBrowser(func(format string, args ...any) { fmt.Fprintf(os.Stdout, format, args...) }, extra.Browser)
		return
	}
	if *flagNodeOnly {
		if !haveShared {
			fatal(fmt.Errorf("../shared is absent"))
		}
		extra := &Extra{}
		if err := measureNode(shared, extra); err != nil {
			fatal(err)
		}
		printNode(func(format string, args ...any) { fmt.Fprintf(os.Stdout, format, args...) }, extra.Node)
		return
	}
	if *flagScaleOnly {
		if err := os.MkdirAll(filepath.Join("gen", "bin"), 0o755); err != nil {
			fatal(err)
		}
		extra := &Extra{}
		if err := measureScaling(extra); err != nil {
			fatal(err)
		}
		printScaling(func(format string, args ...any) { fmt.Fprintf(os.Stdout, format, args...) }, extra)
		return
	}
	sets := messageSets(shared, haveShared)
	log("installing protoc-gen-go and protoc-gen-go-vtproto into gen/bin")
	if err := installPlugins(); err != nil {
		fatal(err)
	}
	log("generating code for %d message sets", len(sets))
	if err := generateAll(sets); err != nil {
		fatal(err)
	}
	for _, set := range sets {
		v := set.Volume
		log("code volume of %s: protoplay %d bytes, protoc-gen-go %d + vtprotobuf %d (%s)", v.Input, v.Protoplay, v.ProtocGoGo, v.VT, ratio(float64(v.Protoplay), float64(v.ProtocGoGo+v.VT)))
	}
	if err := generateGRPC(); err != nil {
		fatal(err)
	}
	if err := writeSuite(sets); err != nil {
		fatal(err)
	}
	if err := writeProgs(sets); err != nil {
		fatal(err)
	}
	if *flagGenOnly {
		return
	}
	if *flagSuiteOnly {
		log("go test -bench %s -benchtime %s: %d interleaved rounds, each peer once per round", *flagBench, *flagBenchtime, *flagCount)
		out, err := runBench()
		if err != nil {
			fatal(err)
		}
		printReport(os.Stdout, out, nil)
		return
	}
	extra := &Extra{}
	for _, set := range sets {
		extra.Volume = append(extra.Volume, set.Volume)
	}
	log("overhead: init trace and first call (%d runs per peer)", *flagRuns)
	if err := measureOverhead(extra); err != nil {
		fatal(err)
	}
	log("binary size: stripped programs")
	if err := measureBinSize(extra); err != nil {
		fatal(err)
	}
	if !*flagSkipComp {
		if haveShared {
			log("compiler speed: protoplay gen vs protoc + protoc-gen-go over googleapis")
			if err := measureCompiler(shared, extra); err != nil {
				log("compiler speed skipped: %v", err)
				extra.CompilerNote = "skipped: " + err.Error()
			}
		} else {
			extra.CompilerNote = "skipped: ../shared is absent"
		}
	}
	if !*flagSkipScale {
		log("generation scaling: protoplay gen over one file of %v small messages (%d runs each)", scalingSizes, max(1, *flagRuns))
		if err := measureScaling(extra); err != nil {
			log("generation scaling skipped: %v", err)
			extra.ScalingNote = "skipped: " + firstLine(err.Error())
		}
	}
	if !*flagSkipNode {
		log("the npm package in Node: first compile of googleapis %s against protoplay gen (%d runs)", nodeDir, max(1, *flagRuns))
		if !haveShared {
			extra.Node = &NodeFirst{Dir: nodeDir, Note: "skipped: ../shared is absent"}
		} else if err := measureNode(shared, extra); err != nil {
			log("node row skipped: %v", err)
			extra.Node = &NodeFirst{Dir: nodeDir, Note: "skipped: " + firstLine(err.Error())}
		}
	}
	if !*flagSkipBrows {
		log("the playground in chromium: go test -run TestMeasure ./site (5 cold starts, 3 x 45 edits: example, storage.proto, dlp.proto, each also natively)")
		if err := measureBrowser(extra); err != nil {
			log("browser measurement skipped: %v", err)
			extra.Browser = &Browser{Note: "skipped: " + firstLine(err.Error())}
		}
	}
	saveExtra(extra)
	log("go test -bench %s -benchtime %s: %d interleaved rounds, each peer once per round", *flagBench, *flagBenchtime, *flagCount)
	out, err := runBench()
	if err != nil {
		fatal(err)
	}
	if !*flagSkipCG {
		extra.Instr = measureInstructions(out, log)
	}
	grpcOut := ""
	if !*flagSkipGRPC {
		log("go test -bench GRPC in %s: a unary call over bufconn", grpcBenchDir)
		if grpcOut, err = runGRPCBench(); err != nil {
			log("gRPC row skipped: %v", err)
		}
	}
	var tables strings.Builder
	printReport(&tables, out, extra)
	printGRPC(func(format string, args ...any) { fmt.Fprintf(&tables, format, args...) }, grpcOut)
	os.Stdout.WriteString(tables.String())
	if *flagDoc != "" {
		if err := saveDoc(*flagDoc, currentHeader(out), tables.String()); err != nil {
			fatal(err)
		}
		log("wrote %s", *flagDoc)
	}
}

// saveDoc writes the page at path (docs/benchmarks.md) through a
// temporary file, so a failed write leaves the last page whole.
func saveDoc(path string, h docHeader, tables string) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if err := writeDoc(f, h, tables); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "benchrun:", err)
	os.Exit(1)
}

// sharedDir is ../shared beside the checkout (bench/../../shared), or
// $PROTOPLAY_SHARED.
func sharedDir() (string, bool) {
	dir := os.Getenv("PROTOPLAY_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir, false
	}
	st, err := os.Stat(abs)
	return abs, err == nil && st.IsDir()
}

// goCmd runs the go command in dir with output to stderr.
func goCmd(dir string, env []string, args ...string) error {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Stdout = os.Stderr
	cmd.Stderr = os.Stderr
	cmd.Env = append(append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off"), env...)
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go %s: %v", strings.Join(args, " "), err)
	}
	return nil
}

func installPlugins() error {
	bin, err := filepath.Abs("gen/bin")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return err
	}
	env := []string{"GOBIN=" + bin}
	if err := goCmd(".", env, "install", "google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12"); err != nil {
		return err
	}
	if err := goCmd(".", env, "install", "google.golang.org/grpc/cmd/protoc-gen-go-grpc@v1.6.2"); err != nil {
		return err
	}
	return goCmd(".", env, "install", "github.com/planetscale/vtprotobuf/cmd/protoc-gen-go-vtproto@v0.6.0")
}
