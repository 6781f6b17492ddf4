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

// NodeFirst is the npm package's first compile in Node against the native
// CLI on the same files: seconds per run.
type NodeFirst struct {
	Dir   string
	Files int
	// Ready: initialize() until the core answers (the child process
	// started, the wasm module compiled and instantiated). First: the
	// first compile() after that, every file generated. Process: node's
	// whole run (start to exit, both of the above included).
	Ready, First, Process []float64
	// Native: `protoplay gen` over the same files, the whole process.
	Native []float64
	Note   string
}

// nodeFirstScript compiles argv's files with the package at argv[2] (its
// directory) and prints the times as JSON.
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
console.log(JSON.stringify({ readyMs: t1 - t0, firstMs: t2 - t1, generated: r.generated.length, errors: r.diagnostics.filter((d) => d.severity === "error").length }));
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
	for i := range max(1, *flagRuns) {
		fmt.Fprintf(os.Stderr, "benchrun: node: %s, run %d/%d\n", nodeDir, i+1, max(1, *flagRuns))
		cmd := exec.Command("node", append([]string{script, pkg, root}, names...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		t0 := time.Now()
		out, err := cmd.Output()
		wall := time.Since(t0).Seconds()
		if err != nil {
			return fmt.Errorf("node (run %d): %v\n%s", i+1, err, tail(stderr.String(), 2000))
		}
		var got struct {
			ReadyMs, FirstMs  float64
			Generated, Errors int
		}
		if err := json.Unmarshal(bytes.TrimSpace(out), &got); err != nil {
			return fmt.Errorf("node printed %q: %v", tail(string(out), 500), err)
		}
		if got.Errors != 0 || got.Generated != len(names) {
			return fmt.Errorf("node: %d errors, %d files generated for %d", got.Errors, got.Generated, len(names))
		}
		n.Ready = append(n.Ready, got.ReadyMs/1000)
		n.First = append(n.First, got.FirstMs/1000)
		n.Process = append(n.Process, wall)

		dir, err := os.MkdirTemp("", "benchrun-node-")
		if err != nil {
			return err
		}
		// The same files, each compiled and generated; runtime=import as
		// in the compiler-speed row.
		cmd = exec.Command(pp, append([]string{"gen", "-I", "googleapis", "-I", "protobuf", "-o", dir, "--opt", "runtime=import"}, names...)...)
		cmd.Dir = filepath.Join(shared, "corpus")
		stderr.Reset()
		cmd.Stderr = &stderr
		t0 = time.Now()
		err = cmd.Run()
		wall = time.Since(t0).Seconds()
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

// printNode prints the Node row, or its note.
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
	first, native := median(n.First), median(n.Native)
	pf("A new `node` process per run: `initialize()`, then one `compile()` of the files (bundled google/api and google/rpc imports); the CLI is `protoplay gen -I googleapis -I protobuf` over the same files, the whole process.\n\n")
	pf("| node: initialize() s | node: first compile() s | node process s | native CLI s | first compile / native | node process / native |\n|---:|---:|---:|---:|---:|---:|\n")
	pf("| %.2f | %.2f | %.2f | %.2f | **%s** | %s |\n", median(n.Ready), first, median(n.Process), native, ratio(first, native), ratio(median(n.Process), native))
	pf("\nRuns (s): initialize %s; first compile %s; node process %s; native %s.\n", secs(n.Ready), secs(n.First), secs(n.Process), secs(n.Native))
	met := "no"
	if native > 0 && first/native <= nodeTarget {
		met = "**yes**"
	}
	pf("\n| issue 29 target | measured | met |\n|---|---|---|\n| first compile in Node <= %gx the native CLI | %sx | %s |\n", nodeTarget, ratio(first, native), met)
}
