package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// nodeDir is the googleapis directory whose files the Node row compiles:
// one API's files, as a user's first call would give them.
const nodeDir = "google/spanner/v1"

// NodeFirst is the npm package's first compile in Node, on each of its
// cores, against the native CLI on the same files: seconds per run.
type NodeFirst struct {
	Dir   string
	Files int
	// The wasm core (initialize({ core: "wasm" })). Ready: initialize()
	// until the core answers (the child process started, the wasm module
	// compiled and instantiated). First: the first compile() after that,
	// every file generated. Process: node's whole run (start to exit,
	// both of the above included).
	Ready, First, Process []float64
	// NativeCore: the same with the native core (core: "native", the
	// platform package's binary make npm builds); empty, with
	// NativeCoreNote saying why, when there is none.
	NativeCore     NodeRuns
	NativeCoreNote string
	// Native: `protoplay gen` over the same files, the whole process.
	Native []float64
	Note   string
}

// NodeRuns are one core's runs of NodeFirst.
type NodeRuns struct {
	Ready, First, Process []float64
}

// nodeFirstScript compiles argv's files with the package at argv[2] (its
// directory), on the core PROTOPLAY_CORE names, and prints the times and
// the core's version as JSON.
const nodeFirstScript = `import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const [pkg, root, ...names] = process.argv.slice(2);
const pp = await import(pathToFileURL(join(pkg, "node.js")).href);
const files = {};
for (const n of names) files[n] = readFileSync(join(root, n), "utf8");
const t0 = performance.now();
await pp.initialize();
const t1 = performance.now();
const r = await pp.compile(files);
const t2 = performance.now();
const version = await pp.coreVersion();
console.log(JSON.stringify({ readyMs: t1 - t0, firstMs: t2 - t1, generated: r.generated.length, errors: r.diagnostics.filter((d) => d.severity === "error").length, version }));
`

// measureNode times the npm package's first compile of nodeDir's files in
// Node (a new node process per run, as a user's program starts) and
// `protoplay gen` over the same files, interleaved, *flagRuns times.
// It needs the packed package's directory (make npm: ../.cache/npm/package).
func measureNode(shared string, e *Extra) error {
	pkg := mustAbs(filepath.Join("..", ".cache", "npm", "package"))
	if _, err := os.Stat(filepath.Join(pkg, "node.js")); err != nil {
		return fmt.Errorf("the npm package is not built (make npm): %v", err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		return fmt.Errorf("node is not installed")
	}
	root := filepath.Join(shared, "corpus", "googleapis")
	var names []string
	err := filepath.WalkDir(filepath.Join(root, filepath.FromSlash(nodeDir)), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".proto") {
			rel, _ := filepath.Rel(root, path)
			names = append(names, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return fmt.Errorf("no .proto files in %s", filepath.Join(root, nodeDir))
	}
	sort.Strings(names)
	pp, err := buildProtoplay()
	if err != nil {
		return err
	}
	script := mustAbs(filepath.Join("gen", "node", "first.mjs"))
	if err := writeFile(script, nodeFirstScript); err != nil {
		return err
	}
	n := &NodeFirst{Dir: nodeDir, Files: len(names)}
	e.Node = n
	// The native core: the platform package make npm built for this
	// machine (../.cache/npm/native/<platform>-<arch>), named by
	// PROTOPLAY_BINARY_PATH since the package is not installed here.
	bins, _ := filepath.Glob(filepath.Join("..", ".cache", "npm", "native", "*", "bin", "protoplay"))
	if len(bins) == 0 {
		n.NativeCoreNote = "no native core: make npm builds none for this platform"
	}
	// run is one node process on core; binary names the native core's.
	run := func(i int, core, binary string, into *NodeRuns) error {
		cmd := exec.Command("node", append([]string{script, pkg, root}, names...)...)
		cmd.Env = append(os.Environ(), "PROTOPLAY_CORE="+core)
		if binary != "" {
			cmd.Env = append(cmd.Env, "PROTOPLAY_BINARY_PATH="+mustAbs(binary))
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		t0 := time.Now()
		out, err := cmd.Output()
		wall := time.Since(t0).Seconds()
		if err != nil {
			return fmt.Errorf("node, %s core (run %d): %v\n%s", core, i+1, err, tail(stderr.String(), 2000))
		}
		var got struct {
			ReadyMs, FirstMs  float64
			Generated, Errors int
			Version           string
		}
		if err := json.Unmarshal(bytes.TrimSpace(out), &got); err != nil {
			return fmt.Errorf("node printed %q: %v", tail(string(out), 500), err)
		}
		if got.Errors != 0 || got.Generated != len(names) {
			return fmt.Errorf("node, %s core: %d errors, %d files generated for %d", core, got.Errors, got.Generated, len(names))
		}
		if strings.Contains(got.Version, " native ") != (core == "native") {
			return fmt.Errorf("node: asked for the %s core, got core %q", core, got.Version)
		}
		into.Ready = append(into.Ready, got.ReadyMs/1000)
		into.First = append(into.First, got.FirstMs/1000)
		into.Process = append(into.Process, wall)
		return nil
	}
	var wasm NodeRuns
	for i := range max(1, *flagRuns) {
		fmt.Fprintf(os.Stderr, "benchrun: node: %s, run %d/%d\n", nodeDir, i+1, max(1, *flagRuns))
		if err := run(i, "wasm", "", &wasm); err != nil {
			return err
		}
		n.Ready, n.First, n.Process = wasm.Ready, wasm.First, wasm.Process
		if len(bins) > 0 {
			if err := run(i, "native", bins[0], &n.NativeCore); err != nil {
				return err
			}
		}

		var stderr bytes.Buffer
		dir, err := os.MkdirTemp("", "benchrun-node-")
		if err != nil {
			return err
		}
		// The same files, each compiled and generated; runtime=import as
		// in the compiler-speed row.
		cmd := exec.Command(pp, append([]string{"gen", "-I", "googleapis", "-I", "protobuf", "-o", dir, "--opt", "runtime=import"}, names...)...)
		cmd.Dir = filepath.Join(shared, "corpus")
		cmd.Stderr = &stderr
		t0 := time.Now()
		err = cmd.Run()
		wall := time.Since(t0).Seconds()
		os.RemoveAll(dir)
		if err != nil {
			return fmt.Errorf("protoplay gen (run %d): %v\n%s", i+1, err, tail(stderr.String(), 2000))
		}
		n.Native = append(n.Native, wall)
	}
	return nil
}

// nodeTarget is issue 29's: the first compile in Node within 2x the native
// CLI's run on the same files.
const nodeTarget = 2.0

// printNode prints the Node rows (the wasm core's and the native
// core's), or its note. Issue 29's target is the default core's: the
// native one where it was measured.
func printNode(pf func(string, ...any), n *NodeFirst) {
	if n == nil {
		return
	}
	pf("\n### the npm package in Node: first compile of googleapis %s (%d files) against the native CLI", n.Dir, n.Files)
	if n.Note != "" {
		pf("\n\n%s\n", n.Note)
		return
	}
	pf(" (medians of %d runs)\n\n", len(n.First))
	native := median(n.Native)
	pf("A new `node` process per run and core (`PROTOPLAY_CORE`): `initialize()`, then one `compile()` of the files (bundled google/api and google/rpc imports); wasm is `protoplay.wasm` run by node, native the platform package's binary (`protoplay core --stdio`, the default where it is installed). The CLI is `protoplay gen -I googleapis -I protobuf` over the same files, the whole process.\n\n")
	pf("| core | node: initialize() s | node: first compile() s | node process s | native CLI s | first compile / native | node process / native |\n|---|---:|---:|---:|---:|---:|---:|\n")
	row := func(core string, r NodeRuns) {
		first := median(r.First)
		pf("| %s | %.2f | %.2f | %.2f | %.2f | **%s** | %s |\n", core, median(r.Ready), first, median(r.Process), native, ratio(first, native), ratio(median(r.Process), native))
	}
	wasm := NodeRuns{Ready: n.Ready, First: n.First, Process: n.Process}
	row("wasm", wasm)
	target := wasm
	if len(n.NativeCore.First) > 0 {
		row("native", n.NativeCore)
		target = n.NativeCore
	}
	pf("\nRuns (s): wasm initialize %s; first compile %s; node process %s", secs(n.Ready), secs(n.First), secs(n.Process))
	if len(n.NativeCore.First) > 0 {
		pf("; native core initialize %s; first compile %s; node process %s", secs(n.NativeCore.Ready), secs(n.NativeCore.First), secs(n.NativeCore.Process))
	}
	pf("; native CLI %s.\n", secs(n.Native))
	if n.NativeCoreNote != "" {
		pf("\nNative core: %s.\n", n.NativeCoreNote)
	}
	first := median(target.First)
	met := "no"
	if native > 0 && first/native <= nodeTarget {
		met = "**yes**"
	}
	core := "wasm"
	if len(n.NativeCore.First) > 0 {
		core = "native"
	}
	pf("\n| issue 29 target | measured | met |\n|---|---|---|\n| first compile in Node (default core: %s) <= %gx the native CLI | %sx | %s |\n", core, nodeTarget, ratio(first, native), met)
}
