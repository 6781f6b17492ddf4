package site_test

// The npm package (make npm packs it into ../.cache/npm) as a user gets
// it: installed from the tarball into a fresh project, then used from Node
// and, through <protoplay-editor>, from a plain HTML page in chromium.
// Without the tarball, node or chromium the tests skip with a line saying
// so, unless PROTOPLAY_E2E=1 (make test), which makes that a failure.

import (
	"archive/tar"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/protoplay/protoplay/internal/version"
)

const googleMessage1 = "corpus/benchmarks/datasets/google_message1/proto3/benchmark_message1_proto3.proto"

// installPackage installs the packed package into a new project in a
// temporary directory and returns the directory. npm install runs once per
// test binary (installedPackage); each test gets its own copy of that
// project, so a test that changes its node_modules (removes the wasm,
// writes a bundler's cache) changes only its own. The project has no
// platform package, so the package runs its wasm core there
// (installPackageNative has one).
func installPackage(t *testing.T) string {
	t.Helper()
	return installPackageWith(t, false)
}

// installPackageWith is installPackage, with the platform package of this
// machine's native core (make npm packs it beside the main one) when
// native is set: npm installs both, the platform package as the main
// one's optional dependency.
func installPackageWith(t *testing.T, native bool) string {
	t.Helper()
	if testing.Short() {
		t.Skip("npm package test skipped in -short mode")
	}
	tgzs := []string{packedTarball(t)}
	if native {
		tgzs = append(tgzs, packedNativeTarball(t))
	}
	if _, err := exec.LookPath("npm"); err != nil {
		skipOrFail(t, "npm is not installed")
	}
	template, err := installedPackage(tgzs)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// cp -a keeps what npm wrote as it is (modes, and links should a
	// later package have them).
	if out, err := exec.Command("cp", "-a", template+"/.", dir).CombinedOutput(); err != nil {
		t.Fatalf("copying the installed project %s: %v\n%s", template, err, out)
	}
	return dir
}

// installed are the projects installPackage copies: the tarballs
// installed by npm into a fresh project, once per test binary for each
// list of tarballs (removed by TestMain).
var installed struct {
	sync.Mutex
	root     string
	projects map[string]*installedProject // by the tarballs' paths
}

type installedProject struct {
	dir string
	err error
}

// installedPackage installs tgzs into a new project on first use and
// returns its directory, or the error of that install.
func installedPackage(tgzs []string) (string, error) {
	installed.Lock()
	defer installed.Unlock()
	key := strings.Join(tgzs, "\n")
	if p := installed.projects[key]; p != nil {
		return p.dir, p.err
	}
	p := &installedProject{}
	if installed.projects == nil {
		installed.projects = map[string]*installedProject{}
	}
	installed.projects[key] = p
	if installed.root == "" {
		root, err := os.MkdirTemp("", "protoplay-npm-test-")
		if err != nil {
			p.err = err
			return "", err
		}
		installed.root = root
	}
	dir, err := os.MkdirTemp(installed.root, "project")
	if err != nil {
		p.err = err
		return "", err
	}
	p.dir = dir
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name": "protoplay-npm-test", "private": true, "type": "module"}`+"\n"), 0o644); err != nil {
		p.err = err
		return "", err
	}
	// --offline: nothing may be fetched from a registry (the platform
	// packages the tarballs do not hold are optional, and left out). The
	// npm cache is kept outside the project.
	cmd := exec.Command("npm", append([]string{"install", "--offline", "--no-audit", "--no-fund", "--no-package-lock"}, tgzs...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "npm_config_cache="+filepath.Join(installed.root, "npm-cache"), "npm_config_update_notifier=false")
	if out, err := cmd.CombinedOutput(); err != nil {
		p.err = fmt.Errorf("npm install %s: %v\n%s", strings.Join(tgzs, " "), err, out)
	}
	return p.dir, p.err
}

// packedNativeTarball is the path of the platform package make npm
// packed for this machine; the test skips (fails under make test) where
// there is none.
func packedNativeTarball(t *testing.T) string {
	t.Helper()
	return packedFile(t, "packed-native", "the native core's platform package is not packed (run make npm)", "make npm builds no native core for this platform")
}

// packedTarball is the path of the tarball make npm packed.
func packedTarball(t *testing.T) string {
	t.Helper()
	return packedFile(t, "packed", "the npm package is not packed (run make npm)", "")
}

// packedFile is the absolute path of the tarball whose name make npm wrote
// to .cache/npm/<list>. Without the list or the tarball the test skips
// (fails under make test) saying notPacked; an empty list skips saying
// none, when none is given.
func packedFile(t *testing.T, list, notPacked, none string) string {
	t.Helper()
	name, err := os.ReadFile(filepath.Join("../.cache/npm", list))
	if err != nil {
		skipOrFail(t, notPacked)
	}
	if strings.TrimSpace(string(name)) == "" && none != "" {
		t.Skip(none)
	}
	tgz, err := filepath.Abs(filepath.Join("../.cache/npm", strings.TrimSpace(string(name))))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tgz); err != nil {
		skipOrFail(t, fmt.Sprintf("%s is missing (run make npm)", tgz))
	}
	return tgz
}

// TestNPMPackageLicense: the tarball carries protoplay's LICENSE, the
// third-party notices (with the Go modules linked into the wasm and the
// npm packages bundled) and a license field, and npm pack --dry-run of
// the package directory lists both files.
func TestNPMPackageLicense(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("npm package test skipped in -short mode")
	}
	tgz := packedTarball(t)
	f, err := os.Open(tgz)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		files[h.Name] = string(b)
	}
	if files["package/LICENSE"] != readFile(t, "../LICENSE") {
		t.Errorf("the tarball's LICENSE is not the repository's (%d bytes)", len(files["package/LICENSE"]))
	}
	var pj struct{ License, Unpkg, Jsdelivr string }
	if err := json.Unmarshal([]byte(files["package/package.json"]), &pj); err != nil || pj.License != "Apache-2.0" {
		t.Errorf("package.json license %q (%v), want Apache-2.0", pj.License, err)
	}
	// The CDNs' plain script.
	for _, f := range []string{pj.Unpkg, pj.Jsdelivr} {
		if f != "./protoplay.iife.js" || files["package/protoplay.iife.js"] == "" {
			t.Errorf("package.json unpkg %q, jsdelivr %q: want ./protoplay.iife.js, in the tarball", pj.Unpkg, pj.Jsdelivr)
		}
	}
	notices := files["package/THIRD_PARTY_NOTICES.txt"]
	for _, want := range []string{
		"Go (standard library and runtime) go1.", "github.com/bufbuild/protocompile v", "github.com/dave/jennifer v",
		"google.golang.org/protobuf v", "@codemirror/view ", "@codemirror/state ", "Apache License", "Permission is hereby granted",
	} {
		if !strings.Contains(notices, want) {
			t.Errorf("THIRD_PARTY_NOTICES.txt (%d bytes) lacks %q", len(notices), want)
		}
	}
	if _, err := exec.LookPath("npm"); err != nil {
		skipOrFail(t, "npm is not installed")
	}
	cmd := exec.Command("npm", "pack", "--dry-run", "--json", "./package")
	cmd.Dir = "../.cache/npm"
	cmd.Env = append(os.Environ(), "npm_config_update_notifier=false")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("npm pack --dry-run: %v\n%s", err, out)
	}
	var packs []struct{ Files []struct{ Path string } }
	if err := json.Unmarshal(out, &packs); err != nil || len(packs) != 1 {
		t.Fatalf("npm pack --dry-run --json printed %q: %v", out, err)
	}
	listed := map[string]bool{}
	for _, f := range packs[0].Files {
		listed[f.Path] = true
	}
	for _, want := range []string{"LICENSE", "THIRD_PARTY_NOTICES.txt", "package.json", "protoplay.wasm"} {
		if !listed[want] {
			t.Errorf("npm pack --dry-run does not list %s: %v", want, listed)
		}
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// testSchema is GoogleMessage1 from the shared corpus, or the repository's
// example when ../shared is absent (said in the log).
func testSchema(t *testing.T) (name, text, typ string) {
	p := filepath.Join(sharedDir(), googleMessage1)
	if b, err := os.ReadFile(p); err == nil {
		return "benchmark_message1_proto3.proto", string(b), "benchmarks.proto3.GoogleMessage1"
	}
	t.Logf("%s not found (the shared corpus is absent): using testdata/example/example.proto", p)
	return "example.proto", readFile(t, "../testdata/example/example.proto"), ""
}

// nodeScript runs in the installed project: compile, sample, encode,
// decode, and a broken schema that must reject with a diagnostic. It
// prints one JSON object.
const nodeScript = `
import * as pp from "protoplay";
import { readFileSync } from "node:fs";
const [name, typeArg, broken] = process.argv.slice(2);
const files = { [name]: readFileSync(process.env.SCHEMA, "utf8") };
const out = { version: pp.version };
const t0 = performance.now();
const r = await pp.compile(files);
out.compileMs = performance.now() - t0;
out.generated = r.generated.map((g) => g.name);
out.goHasStruct = r.generated.some((g) => g.content.includes(" struct {"));
const type = typeArg || r.messages[0].name;
out.type = type;
const sample = await pp.sample(files, type);
const enc = await pp.encode(files, type, JSON.parse(sample));
out.size = enc.size;
out.bytesMatch = enc.bytes.length === enc.size;
const dec = await pp.decode(files, type, enc.bytes);
out.roundTrip = JSON.stringify(JSON.parse(dec.value)) === JSON.stringify(JSON.parse(sample));
const decHex = await pp.decode(files, type, enc.hex);
out.roundTripHex = decHex.value === dec.value;
out.checks = (await pp.check(files)).map((c) => c.pass);
try {
  await pp.compile({ [name]: readFileSync(broken, "utf8") });
  out.brokenRejected = false;
} catch (e) {
  out.brokenRejected = true;
  out.isError = e instanceof Error && e instanceof pp.ProtoplayError;
  out.message = e.message;
  out.kind = e.kind;
  out.detailKind = e.detail?.kind;
  out.diagnostics = e.diagnostics;
}
try {
  await pp.encode({ [name]: readFileSync(broken, "utf8") }, type, {});
} catch (e) {
  out.encodeBrokenDiagnostics = e.diagnostics?.length ?? 0;
  out.encodeBrokenKind = e.kind;
}
try {
  await pp.decode(files, type, "0a05ff");
} catch (e) {
  out.truncatedKind = e.kind;
  out.truncatedOffset = e.detail?.offset;
}
// The element's module loads where there is no DOM (and defines nothing).
try {
  const el = await import("protoplay/element");
  out.element = typeof el.ProtoplayEditor;
} catch (e) {
  out.element = String(e);
}
console.log(JSON.stringify(out));
`

// TestNPMPackageNode runs the package's calls in Node on each core
// (nodeCores): the wasm and the native one.
func TestNPMPackageNode(t *testing.T) {
	t.Parallel()
	for _, core := range nodeCores {
		t.Run(core, func(t *testing.T) {
			t.Parallel()
			dir, env := installCore(t, core)
			name, text, typ := testSchema(t)
			writeFile(t, filepath.Join(dir, "schema.proto"), text)
			// The broken schema: a field with no number, inserted as line n.
			lines := strings.Split(text, "\n")
			n := 0
			for i, l := range lines {
				if strings.HasPrefix(strings.TrimSpace(l), "message ") && strings.HasSuffix(strings.TrimSpace(l), "{") {
					n = i + 2 // the line after the first message's opening
					break
				}
			}
			if n == 0 {
				t.Fatal("no message in the schema to break")
			}
			broken := append(append(append([]string{}, lines[:n-1]...), "  int32 broken_field = ;"), lines[n-1:]...)
			writeFile(t, filepath.Join(dir, "broken.proto"), strings.Join(broken, "\n"))
			writeFile(t, filepath.Join(dir, "test.mjs"), nodeScript)

			cmd := exec.Command("node", "test.mjs", name, typ, "broken.proto")
			cmd.Dir = dir
			cmd.Env = append(env, "SCHEMA="+filepath.Join(dir, "schema.proto"))
			var stderr strings.Builder
			cmd.Stderr = &stderr
			start := time.Now()
			outb, err := cmd.Output()
			if err != nil {
				t.Fatalf("node test.mjs: %v\n%s%s", err, outb, stderr.String())
			}
			var out struct {
				Version        string
				CompileMs      float64
				Generated      []string
				GoHasStruct    bool
				Type           string
				Size           int
				BytesMatch     bool
				RoundTrip      bool
				RoundTripHex   bool
				Checks         []bool
				BrokenRejected bool
				IsError        bool
				Message        string
				Kind           string
				DetailKind     string
				Diagnostics    []struct {
					File              string
					Line, Column      int
					Severity, Message string
				}
				EncodeBrokenDiagnostics int
				EncodeBrokenKind        string
				TruncatedKind           string
				TruncatedOffset         int
				Element                 string
			}
			if err := json.Unmarshal(outb, &out); err != nil {
				t.Fatalf("node printed %q: %v", outb, err)
			}
			t.Logf("protoplay@%s in Node (%s core): %s compiled in %.0f ms (first call, with the core's start), %s sample %d bytes; whole script %v",
				out.Version, core, name, out.CompileMs, out.Type, out.Size, time.Since(start).Round(time.Millisecond))
			if want := strings.TrimPrefix(version.Base, "v"); out.Version != want {
				t.Errorf("the package's version is %q, want %q, protoplay's (internal/version)", out.Version, want)
			}
			if len(out.Generated) == 0 || !out.GoHasStruct {
				t.Errorf("compile generated %v, with a struct: %v", out.Generated, out.GoHasStruct)
			}
			if typ != "" && out.Type != typ {
				t.Errorf("type %q, want %q", out.Type, typ)
			}
			if out.Size == 0 || !out.BytesMatch || !out.RoundTrip || !out.RoundTripHex {
				t.Errorf("encode/decode: size %d, bytes match %v, round trip %v, from hex %v", out.Size, out.BytesMatch, out.RoundTrip, out.RoundTripHex)
			}
			for i, ok := range out.Checks {
				if !ok {
					t.Errorf("check %d failed", i)
				}
			}
			if !out.BrokenRejected || !out.IsError {
				t.Fatalf("broken schema: rejected %v, with a ProtoplayError %v", out.BrokenRejected, out.IsError)
			}
			found := false
			for _, d := range out.Diagnostics {
				if d.Severity == "error" && d.Line == n && d.File == name {
					found = true
				}
			}
			if !found || !strings.Contains(out.Message, fmt.Sprintf("%s:%d:", name, n)) {
				t.Errorf("broken schema: want an error at %s:%d, got %q %+v", name, n, out.Message, out.Diagnostics)
			}
			if out.Kind != "schema" || out.DetailKind != "schema" {
				t.Errorf("broken schema: kind %q, detail.kind %q, want schema", out.Kind, out.DetailKind)
			}
			if out.EncodeBrokenDiagnostics == 0 || out.EncodeBrokenKind != "schema" {
				t.Errorf("encode on the broken schema rejected with %d diagnostics, kind %q; want the schema's, kind schema", out.EncodeBrokenDiagnostics, out.EncodeBrokenKind)
			}
			if out.Element != "function" {
				t.Errorf(`import("protoplay/element") in Node: %s`, out.Element)
			}
			// A LEN field (field 1, 5 bytes) cut after one byte: the payload is at
			// fault at byte 1, the length prefix that runs past the end.
			if out.TruncatedKind != "payload" || out.TruncatedOffset != 1 {
				t.Errorf("a truncated payload rejected with kind %q at offset %d, want payload at 1", out.TruncatedKind, out.TruncatedOffset)
			}
		})
	}
}

// nodeLimitsScript runs in the installed project with the limits given in
// argv (timeoutMs, memoryLimit): a schema of many messages, which takes
// seconds to generate, then a small one. It prints one JSON object.
const nodeLimitsScript = `
import * as pp from "protoplay";
const [timeoutMs, memoryLimit] = process.argv.slice(2).map(Number);
await pp.initialize({ timeoutMs, memoryLimit });
let big = 'syntax = "proto3";\npackage big;\n';
for (let i = 0; i < 12000; i++) big += "message M" + i + " { int32 a = 1; string b = 2; }\n";
const out = {};
const t0 = performance.now();
try {
  await pp.compile({ "big.proto": big });
  out.bigCompiled = true;
} catch (e) {
  out.isError = e instanceof pp.ProtoplayError;
  out.message = e.message;
  out.kind = e.kind;
  out.limit = e.diagnostics.map((d) => d.limit ?? "").join(",");
}
out.ms = performance.now() - t0;
try {
  await pp.sample({ "big.proto": big }, "big.M1");
} catch (e) {
  out.sampleMessage = e.message;
  out.sampleKind = e.kind;
  out.sampleLimit = e.detail?.limit;
}
// The core still answers, within the limits.
const small = await pp.compile('syntax = "proto3";\nmessage S { int32 a = 1; }\n');
out.smallGenerated = small.generated.length;
console.log(JSON.stringify(out));
`

// TestNPMPackageNodeLimits, on each core: in Node the core stops itself
// at its limits; initialize's timeoutMs and memoryLimit go
// to the core, which stops a compilation that passes them with an error
// naming the option, and goes on answering. This test is the time limit;
// TestNPMPackageNodeMemoryLimit the memory limit. Not parallel
// (testParallel): the core must stop itself at the time limit before the
// host's own timer replaces it, which tests running beside it on the same
// two cores delayed (at load 30 they did).
func TestNPMPackageNodeLimits(t *testing.T) {
	for _, core := range nodeCores {
		t.Run(core, func(t *testing.T) {
			dir, env := installCore(t, core)
			nodeLimitsTime(t, dir, env, core)
		})
	}
}

// nodeLimitsTime is TestNPMPackageNodeLimits' case on one core's project.
// The native core generates the 12,000 messages about ten times faster than
// the wasm core: on a quiet machine in about 19 s, and its last check of the
// time is after the last message, before the result is encoded and sent,
// so a 20 s limit can pass after it (CI run 10: the compile answered at
// 21.1 s). It gets a limit of 5 s, which its printing of Go passes on any
// machine, and in which a small schema compiles on a busy one.
func nodeLimitsTime(t *testing.T, dir string, env []string, core string) {
	timeoutMs := "20000"
	if core == "native" {
		timeoutMs = "5000"
	}
	// 12,000 messages take far longer than 20 s to generate, and their
	// front end (parse and link, before any Go is printed) a small part
	// of that: the limit passes while Go is printed, where the core
	// checks it after each message, also on a busy machine. The front
	// end's compile of one file is a step the core cannot check inside
	// (compiler TestDeadlineCheckedOften bounds the steps): a limit
	// passing there, as in the sample call, is seen when the step ends,
	// which for a file this size on a busy machine is past the host's 5 s
	// grace on the clock, but not in the CPU time the core was given,
	// which the host counts too before it ends the core (nodethread.ts):
	// the core stops itself. A small schema on a new core fits in 20 s on
	// a busy machine too. The memory limit is one this compile does not
	// reach in 20 s (the default 1 GiB, it reaches later in the compile).
	t.Run("time", func(t *testing.T) {
		nodeLimits(t, dir, env, timeoutMs, "3221225472", "protoplay: stopped: over the time limit of "+timeoutMs+" ms (timeoutMs; initialize({ timeoutMs }) raises it)", "Deadline")
	})
}

// TestNPMPackageNodeMemoryLimit: TestNPMPackageNodeLimits' memory limit,
// with a time limit no busy machine reaches (the default 60 s was, at load
// 30, before the memory limit). Parallel: no timer races the core's own
// stop at the memory limit, so other tests' work beside it changes only
// how long it takes.
func TestNPMPackageNodeMemoryLimit(t *testing.T) {
	t.Parallel()
	for _, core := range nodeCores {
		t.Run(core, func(t *testing.T) {
			dir, env := installCore(t, core)
			nodeLimits(t, dir, env, "600000", "33554432", "protoplay: stopped: memory over the limit of 32 MiB (memoryLimit; initialize({ memoryLimit }) raises it)", "MaxMemoryBytes")
		})
	}
}

// nodeLimits runs nodeLimitsScript in dir with the limits given and checks
// that the big compile is stopped with the message want, naming limit,
// that sample either fits or is stopped the same way, and that a small
// schema compiles afterwards.
func nodeLimits(t *testing.T, dir string, env []string, timeoutMs, memoryLimit, want, limit string) {
	t.Helper()
	writeFile(t, filepath.Join(dir, "limits.mjs"), nodeLimitsScript)
	cmd := exec.Command("node", "limits.mjs", timeoutMs, memoryLimit)
	cmd.Dir = dir
	cmd.Env = env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	outb, err := cmd.Output()
	if err != nil {
		t.Fatalf("node limits.mjs: %v\n%s%s", err, outb, stderr.String())
	}
	var out struct {
		BigCompiled    bool
		IsError        bool
		Message        string
		Kind           string
		Limit          string
		Ms             float64
		SampleMessage  string
		SampleKind     string
		SampleLimit    string
		SmallGenerated int
	}
	if err := json.Unmarshal(outb, &out); err != nil {
		t.Fatalf("node printed %q: %v", outb, err)
	}
	t.Logf("timeoutMs %s, memoryLimit %s: rejected after %.0f ms: %s; then sample: %q", timeoutMs, memoryLimit, out.Ms, out.Message, out.SampleMessage)
	if out.BigCompiled || !out.IsError || out.Message != want || out.Kind != "limit" || !strings.Contains(out.Limit, limit) {
		t.Errorf("compile: %+v, want %q, kind limit", out, want)
	}
	// sample compiles without generating, which may fit.
	if out.SampleMessage != "" && (out.SampleMessage != want || out.SampleKind != "limit" || out.SampleLimit != limit) {
		t.Errorf("sample: %q (kind %q, limit %q), want %q (kind limit, limit %s) or success", out.SampleMessage, out.SampleKind, out.SampleLimit, want, limit)
	}
	if out.SmallGenerated != 1 {
		t.Errorf("a small schema afterwards generated %d files", out.SmallGenerated)
	}
}

// starvedCoreScript starts the core, stops its process (SIGSTOP) with a
// call waiting on it, and lets it go on (SIGCONT) 1.5 s after the host
// has asked how much CPU time it used (timeoutMs and 5 s past the
// call), as a machine too busy to give the core any CPU would: it
// prints the call's outcome and whether the core answering it is the
// one that was stopped.
const starvedCoreScript = `
import * as pp from "protoplay";
import fs from "node:fs";
const timeoutMs = Number(process.argv[2]);
await pp.initialize({ timeoutMs });
const small = new Uint8Array([0x08, 0x01]);
await pp.decodeRaw(small); // the core is up
const children = () => fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d)).map(Number).filter((pid) => {
  try {
    const stat = fs.readFileSync("/proc/" + pid + "/stat", "utf8");
    const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return state !== "Z" && Number(ppid) === process.pid; // a killed one is gone, or a zombie
  } catch { return false; }
});
const out = { stopped: children() };
for (const pid of out.stopped) process.kill(pid, "SIGSTOP");
setTimeout(() => { for (const pid of out.stopped) process.kill(pid, "SIGCONT"); }, timeoutMs + 5000 + 1500);
const t0 = Date.now();
try {
  out.fields = (await pp.decodeRaw(small)).fields.length;
} catch (e) {
  out.message = e.message;
  out.kind = e.kind;
}
out.ms = Date.now() - t0;
out.after = children();
console.log(JSON.stringify(out));
process.exit(0);
`

// TestNPMPackageNodeStarvedCoreNotKilled: in Node the host ends a core
// still on a call 5 s past timeoutMs only once its process has also used
// timeoutMs and 5 s of CPU time since the call reached it (or does not
// answer how much within 5 s): a core that got no CPU in that time, as on
// a machine too busy to give it any, is on its way to the end of a stage,
// where it stops itself, and is not killed. Here the core's process is
// stopped past the clock's grace and let go on while the host waits for
// its answer: the call is answered, by the same core. (A stopped core
// that stays stopped is killed: TestNPMPackageNodeRecoveryAfterKill.)
func TestNPMPackageNodeStarvedCoreNotKilled(t *testing.T) {
	t.Parallel()
	for _, core := range nodeCores {
		t.Run(core, func(t *testing.T) {
			t.Parallel()
			dir, env := installCore(t, core)
			writeFile(t, filepath.Join(dir, "starved.mjs"), starvedCoreScript)
			var out struct {
				Stopped, After []int
				Fields         int
				Message, Kind  string
				Ms             int
			}
			runNodeEnv(t, dir, env, &out, "starved.mjs", "3000")
			t.Logf("%+v", out)
			if len(out.Stopped) != 1 {
				t.Fatalf("the core's processes: %v, want one", out.Stopped)
			}
			if out.Message != "" || out.Fields != 1 {
				t.Errorf("the call on the starved core: %d fields, error %q (kind %q); want its answer (1 field)", out.Fields, out.Message, out.Kind)
			}
			if !slices.Equal(out.After, out.Stopped) {
				t.Errorf("the core's processes afterwards: %v, want the same one, %v (not replaced)", out.After, out.Stopped)
			}
		})
	}
}

// The page: two elements, one with its schema as text and the encode
// panel, one from src; a listener counts compiled events.
const elementPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>protoplay-editor</title>
<script>
  window.compiledEvents = [];
  document.addEventListener("compiled", (e) => compiledEvents.push({ id: e.target.id, ms: performance.now(), files: e.detail.generated.length }));
  window.errorEvents = [];
  document.addEventListener("protoplay-error", (e) => errorEvents.push(e.detail.message));
  window.addEventListener("error", (e) => errorEvents.push("window.onerror: " + e.message));
</script>
<script type="module" src="./node_modules/protoplay/element.js"></script>
</head><body>
<protoplay-editor id="a" panels="go,encode" height="300px" filename="person.proto">
  syntax = "proto3";
  package demo;
  message Person {
    string name = 1;
    int32 id = 2;
    repeated string emails = 3;
  }
</protoplay-editor>
<protoplay-editor id="b" src="./schema.proto" filename="%s" theme="dark" readonly></protoplay-editor>
</body></html>`

func TestNPMPackageElement(t *testing.T) {
	t.Parallel()
	dir := installPackage(t)
	chromium := chromiumPath()
	if chromium == "" {
		skipOrFail(t, "chromium is not installed (make chromium installs Debian's)")
	}
	name, text, _ := testSchema(t)
	writeFile(t, filepath.Join(dir, "schema.proto"), text)
	writeFile(t, filepath.Join(dir, "index.html"), fmt.Sprintf(elementPage, name))
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(srv.Close)
	ctx := launchChromium(t, chromium)
	do(t, ctx, chromedp.Navigate(srv.URL+"/index.html"))

	goOf := func(id string) string {
		return fmt.Sprintf(`(document.getElementById(%q).goText || "")`, id)
	}
	deadline := waitLimit(t)
	for {
		done := eval[bool](t, ctx, `compiledEvents.some(e => e.id === "a") && compiledEvents.some(e => e.id === "b") && `+
			goOf("a")+`.includes("type Person struct") && `+goOf("b")+`.includes(" struct {")`)
		if done {
			break
		}
		if time.Now().After(deadline) || eval[bool](t, ctx, `errorEvents.some(m => m.startsWith("protoplay:"))`) {
			t.Fatalf("no output: compiled events %s, errors %s, a's Go %q, b's Go %q", eval[string](t, ctx, `JSON.stringify(compiledEvents)`),
				eval[string](t, ctx, `JSON.stringify(errorEvents)`), eval[string](t, ctx, goOf("a")+`.slice(0, 80)`), eval[string](t, ctx, goOf("b")+`.slice(0, 80)`))
		}
		time.Sleep(50 * time.Millisecond)
	}
	first := eval[float64](t, ctx, `Math.min(...compiledEvents.map(e => e.ms))`)
	t.Logf("page load to the first element showing Go: %.0f ms (navigation start to its compiled event; per element %s; wasm fetched by %.0f ms, element.js by %.0f ms)", first,
		eval[string](t, ctx, `JSON.stringify(compiledEvents.map(e => [e.id, Math.round(e.ms)]))`),
		eval[float64](t, ctx, `performance.getEntriesByType("resource").find(e => e.name.endsWith(".wasm")).responseEnd`),
		eval[float64](t, ctx, `performance.getEntriesByType("resource").find(e => e.name.endsWith("element.js")).responseEnd`))

	// The encode panel of a: Person's sample encoded to bytes.
	waitFor := func(what, expr string) {
		t.Helper()
		deadline := waitLimit(t)
		for !eval[bool](t, ctx, expr) {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	bytesText := `document.getElementById("a").shadowRoot.querySelector(".bytes").textContent`
	waitFor("a's encode panel", bytesText+`.includes("hex ")`)
	if sel := eval[string](t, ctx, `document.getElementById("a").shadowRoot.querySelector("select").value`); sel != "demo.Person" {
		t.Errorf("encode panel type %q", sel)
	}
	if eval[bool](t, ctx, `getComputedStyle(document.getElementById("b").shadowRoot.querySelector(".encode")).display !== "none"`) {
		t.Error("b shows the encode panel it did not ask for")
	}
	// One Worker for both (the wasm fetched once).
	if n := eval[int](t, ctx, `performance.getEntriesByType("resource").filter(e => e.name.endsWith(".wasm")).length`); n != 1 {
		t.Errorf("the wasm was fetched %d times, want once (one shared Worker)", n)
	}

	// An error in a's schema: an error event with a diagnostic on its line,
	// and the Go of the last good schema stays.
	do(t, ctx, script(`document.getElementById("a").value = 'syntax = "proto3";\nmessage P {\n  int32 x = \n}\n'`))
	waitFor("a's error event", `errorEvents.length > 0`)
	if msg := eval[string](t, ctx, `errorEvents[0]`); !strings.HasPrefix(msg, "person.proto:3:3: missing message field tag in declaration") {
		t.Errorf("error event %q, want the missing field number at person.proto:3:3 first", msg)
	}
	if !strings.Contains(eval[string](t, ctx, goOf("a")), "type Person struct") {
		t.Error("the last good Go is gone after an error")
	}
}

// writeSignatureCheck writes readme-signatures.ts, which holds the
// README's ```ts signatures block (the API reference) as declarations in
// a namespace Doc, and checks them against the package's own types: each
// documented function and constant must be assignable from the package's
// (so a documented parameter type must be accepted, and what the package
// returns must have every documented member with the documented type),
// and so must a ProtoplayError. Names the block uses without declaring
// them (Schema, CoreError, ...) must be types the package exports.
func writeSignatureCheck(t *testing.T, dir, readme string) string {
	t.Helper()
	_, rest, ok := strings.Cut(readme, "\n```ts signatures\n")
	if !ok {
		t.Fatal("README: no ```ts signatures block")
	}
	block, _, ok := strings.Cut(rest, "\n```")
	if !ok {
		t.Fatal("README: the ```ts signatures block does not end")
	}
	declared := map[string]bool{}
	var values []string
	for _, m := range regexp.MustCompile(`(?m)^(function|const|class|interface|type)\s+(\w+)`).FindAllStringSubmatch(block, -1) {
		declared[m[2]] = true
		if m[1] == "function" || m[1] == "const" {
			values = append(values, m[2])
		}
	}
	var b strings.Builder
	b.WriteString("import * as pkg from \"protoplay\";\ndeclare namespace Doc {\n")
	// Types the block names but does not declare are the package's.
	code := regexp.MustCompile(`//.*`).ReplaceAllString(block, "")
	aliased := map[string]bool{}
	for _, name := range regexp.MustCompile(`\b[A-Z]\w*\b`).FindAllString(code, -1) {
		if !declared[name] && !aliased[name] && name != "Promise" && name != "Error" && name != "URL" && name != "Uint8Array" && name != "WebAssembly" && name != "Module" && name != "Record" {
			aliased[name] = true
			fmt.Fprintf(&b, "  type %s = pkg.%s;\n", name, name)
		}
	}
	b.WriteString(block + "\n}\n")
	if len(values) < 10 {
		t.Fatalf("README: the signatures block declares %d functions and constants: %q", len(values), values)
	}
	for _, v := range values {
		fmt.Fprintf(&b, "export const doc_%s: typeof Doc.%s = pkg.%s;\n", v, v, v)
	}
	if declared["ProtoplayError"] {
		b.WriteString("export const doc_ProtoplayError: Doc.ProtoplayError = new pkg.ProtoplayError(\"x\");\n")
	}
	writeFile(t, filepath.Join(dir, "readme-signatures.ts"), b.String())
	return "readme-signatures.ts"
}

// TestNPMPackageTypes type-checks consumers of the installed package
// with the site's tsc, strict, library checks on, under nodenext and
// bundler resolution: a file using the API and the element's typed
// events, a CommonJS one (use.cts, nodenext), and every ```ts block of
// the package's README (each a module of its own; ```ts signatures
// blocks are a reference, not code: writeSignatureCheck holds that one to
// the package's types).
func TestNPMPackageTypes(t *testing.T) {
	t.Parallel()
	dir := installPackage(t)
	tsc, err := filepath.Abs("node_modules/typescript/bin/tsc")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tsc); err != nil {
		skipOrFail(t, "site/node_modules has no typescript (run npm ci in site)")
	}
	writeFile(t, filepath.Join(dir, "use.ts"), `import { compile, encode, ProtoplayError, onLoadProgress, type CompileResult } from "protoplay";
import { ProtoplayEditor, type ErrorDetail } from "protoplay/element";
export async function f(): Promise<number> {
  const r: CompileResult = await compile({ "a.proto": "syntax = \"proto3\";" }, { options: { paths: "source_relative" } });
  const e = document.querySelector("protoplay-editor");
  if (!e) return 0;
  const typed: ProtoplayEditor = e;
  typed.addEventListener("compiled", (ev) => console.log(ev.detail.generated.length));
  document.addEventListener("protoplay-error", (ev) => { const d: ErrorDetail = ev.detail; console.log(d.diagnostics.length); });
  window.addEventListener("protoplay-encoded", (ev) => console.log(ev.detail.result.bytes.length));
  onLoadProgress((loaded, total) => console.log(loaded / total))();
  try { await encode("x", "T", { a: 1 }); } catch (x: unknown) { if (x instanceof ProtoplayError) return x.diagnostics[0].line; }
  return r.generated.length + typed.goText.length;
}
`)
	files := []string{"use.ts"}
	readme := readFile(t, filepath.Join(dir, "node_modules/protoplay/README.md"))
	for i, block := range strings.Split(readme, "\n```ts\n")[1:] {
		end := strings.Index(block, "\n```")
		if end < 0 {
			t.Fatalf("README: ts block %d does not end", i)
		}
		name := fmt.Sprintf("readme-%d.ts", i+1)
		writeFile(t, filepath.Join(dir, name), block[:end]+"\nexport {};\n")
		files = append(files, name)
	}
	if len(files) < 5 {
		t.Fatalf("README: %d ts blocks, want the API's, Node's, esbuild's and the element's", len(files)-1)
	}
	files = append(files, writeSignatureCheck(t, dir, readme))
	t.Logf("type-checking %s", strings.Join(files, " "))
	// A CommonJS consumer (require), for nodenext only.
	writeFile(t, filepath.Join(dir, "use.cts"), `import pp = require("protoplay");
export async function f(): Promise<number> {
  const r = await pp.compile("syntax = \"proto3\";");
  try { await pp.encode("x", "T", {}); } catch (e) { if (e instanceof pp.ProtoplayError) return e.diagnostics.length; }
  return r.generated.length;
}
`)
	for _, res := range []string{"NodeNext", "Bundler"} {
		mod := map[string]string{"NodeNext": "NodeNext", "Bundler": "ESNext"}[res]
		files := files
		if res == "NodeNext" {
			files = append(files, "use.cts")
		}
		args := append([]string{tsc, "--noEmit", "--strict", "--skipLibCheck", "false", "--target", "ES2022",
			"--lib", "ES2022,DOM", "--module", mod, "--moduleResolution", res}, files...)
		cmd := exec.Command("node", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("tsc with moduleResolution %s: %v\n%s", res, err, out)
		}
	}
}
