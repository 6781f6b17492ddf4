package site_test

// The npm package in Node, beyond TestNPMPackageNode: the core off the
// calling thread (the event loop stays free, the process exits right
// after its last call), require() from CommonJS, and a failed load that
// a try/catch catches whole and that says what was read or fetched.

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runNode runs a script in dir and decodes the one JSON object it
// prints into out; it returns when the process has exited.
func runNode(t *testing.T, dir string, out any, args ...string) time.Time {
	t.Helper()
	return runNodeEnv(t, dir, nil, out, args...)
}

// runNodeEnv is runNode with env as the process's environment (nil: this
// one's).
func runNodeEnv(t *testing.T, dir string, env []string, out any, args ...string) time.Time {
	t.Helper()
	cmd := exec.Command("node", args...)
	cmd.Dir = dir
	cmd.Env = env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	outb, err := cmd.Output()
	exited := time.Now()
	if err != nil {
		t.Fatalf("node %s: %v\n%s%s", strings.Join(args, " "), err, outb, stderr.String())
	}
	if err := json.Unmarshal(outb, out); err != nil {
		t.Fatalf("node %s printed %q (stderr %q): %v", strings.Join(args, " "), outb, stderr.String(), err)
	}
	return exited
}

// offThreadScript compiles a schema of many messages while a 5 ms
// interval measures the event loop's longest stall, then prints the
// time of its last call's answer and lets the process end by itself. Its
// time limit is one no busy machine reaches: the package's default of 60
// s is not what the test is about, and a make test at nice 19 beside a
// benchmark and three builds (load 22) passed it.
const offThreadScript = `
import * as pp from "protoplay";
const n = Number(process.argv[2]);
let big = 'syntax = "proto3";\npackage big;\n';
for (let i = 0; i < n; i++) big += "message M" + i + " { int32 a = 1; string b = 2; repeated M" + i + " c = 3; }\n";
await pp.initialize({ timeoutMs: 600000 });
let maxGap = 0, ticks = 0, last = performance.now();
const iv = setInterval(() => { const now = performance.now(); maxGap = Math.max(maxGap, now - last); last = now; ticks++; }, 5);
const t0 = performance.now();
const r = await pp.compile({ "big.proto": big });
const compileMs = performance.now() - t0;
clearInterval(iv);
const small = await pp.compile('syntax = "proto3";\nmessage S { int32 a = 1; }\n');
console.log(JSON.stringify({ compileMs, maxGap, ticks, generated: r.generated.length, bytes: r.generated[0].content.length, small: small.generated.length, end: Date.now() }));
`

// TestNPMPackageNodeOffThread: in Node the core runs off the calling
// thread, so a long compile leaves the event loop free (no stall over
// 1 s, nor a third of the compile, while it runs), and the process ends within 1 s of its last
// call with nothing to close. Not parallel (testParallel): the stalls it
// measures must be the core's, not those of other tests' work on the same
// two cores.
func TestNPMPackageNodeOffThread(t *testing.T) {
	dir := installPackage(t)
	writeFile(t, filepath.Join(dir, "offthread.mjs"), offThreadScript)
	var out struct {
		CompileMs, MaxGap float64
		Ticks, Generated  int
		Bytes, Small      int
		End               int64
	}
	exited := runNode(t, dir, &out, "offthread.mjs", "200")
	linger := exited.Sub(time.UnixMilli(out.End))
	t.Logf("200 messages compiled in %.0f ms (%d bytes of Go); the event loop's longest stall meanwhile %.0f ms (%d ticks of 5 ms); the process exited %v after the last answer",
		out.CompileMs, out.Bytes, out.MaxGap, out.Ticks, linger.Round(time.Millisecond))
	if out.Generated != 1 || out.Bytes < 10000 || out.Small != 1 {
		t.Errorf("compile: %+v", out)
	}
	// On the calling thread the compile would be one stall as long as
	// itself; off it, the loop ticks throughout (the answer, megabytes of
	// Go, takes a moment to receive on a loaded machine).
	if out.MaxGap > 1000 || out.MaxGap > out.CompileMs/3 || float64(out.Ticks)*50 < out.CompileMs {
		t.Errorf("the event loop stalled for %.0f ms (%d ticks of 5 ms in %.0f ms) during a compile: the core blocks the calling thread", out.MaxGap, out.Ticks, out.CompileMs)
	}
	if linger > time.Second {
		t.Errorf("the process exited %v after its last call, want within 1 s", linger)
	}
}

// moduleScript gives initialize a module it compiled: the core then runs
// in a worker thread (a module cannot go to another process).
const moduleScript = `
import * as pp from "protoplay";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
const wasm = createRequire(import.meta.url).resolve("protoplay/protoplay.wasm");
await pp.initialize({ wasmModule: await WebAssembly.compile(readFileSync(wasm)) });
let maxGap = 0, last = performance.now();
const iv = setInterval(() => { const now = performance.now(); maxGap = Math.max(maxGap, now - last); last = now; }, 5);
const t0 = performance.now();
const r = await pp.compile('syntax = "proto3";\npackage m;\nmessage A { int32 x = 1; }\n');
clearInterval(iv);
console.log(JSON.stringify({ go: r.generated[0].content.includes("type A struct"), ms: performance.now() - t0, maxGap }));
`

// TestNPMPackageNodeModule: initialize({ wasmModule }) runs the core in a
// worker thread, off the calling thread too.
func TestNPMPackageNodeModule(t *testing.T) {
	t.Parallel()
	dir := installPackage(t)
	writeFile(t, filepath.Join(dir, "module.mjs"), moduleScript)
	var out struct {
		Go         bool
		Ms, MaxGap float64
	}
	// V8 goes on optimising the module in the background, which Node
	// waits for at exit (the README says so): the test ends the process
	// once it has answered.
	cmd := exec.Command("node", "module.mjs")
	cmd.Dir = dir
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, readErr := bufio.NewReader(stdout).ReadBytes('\n')
	cmd.Process.Kill()
	cmd.Wait()
	if err := json.Unmarshal(line, &out); err != nil {
		t.Fatalf("node module.mjs printed %q (%v; reading: %v): %s", line, err, readErr, stderr.String())
	}
	t.Logf("with a compiled module: %+v", out)
	if !out.Go {
		t.Errorf("compile: %+v", out)
	}
}

// cjsScript is a CommonJS user of the package (Node 18 and 20 cannot
// require() an ES module).
const cjsScript = `
const pp = require("protoplay");
const t0 = Date.now();
pp.compile('syntax = "proto3";\npackage demo;\nmessage Ping { int64 at = 1; }\n').then(async (r) => {
  let kind = "", isError = false;
  try { await pp.compile('syntax = "proto3";\nmessage A { int32 x = ; }\n'); } catch (e) { kind = e.kind; isError = e instanceof pp.ProtoplayError; }
  const enc = await pp.encode('syntax = "proto3";\nmessage A { int32 x = 1; }\n', "A", { x: 150 });
  console.log(JSON.stringify({ version: pp.version, go: r.generated[0].content.includes("type Ping struct"), kind, isError, hex: enc.hex, end: Date.now() }));
});
`

// TestNPMPackageNodeCommonJS: require("protoplay") works (node.cjs, by
// the "require" condition), with the same API, and the process exits
// right after.
func TestNPMPackageNodeCommonJS(t *testing.T) {
	t.Parallel()
	dir := installPackage(t)
	writeFile(t, filepath.Join(dir, "use.cjs"), cjsScript)
	var out struct {
		Version string
		Go      bool
		Kind    string
		IsError bool
		Hex     string
		End     int64
	}
	exited := runNode(t, dir, &out, "use.cjs")
	linger := exited.Sub(time.UnixMilli(out.End))
	t.Logf("require(\"protoplay\")@%s: %+v; exited %v after the last answer", out.Version, out, linger.Round(time.Millisecond))
	if !out.Go || out.Kind != "schema" || !out.IsError || out.Hex != "08 96 01" {
		t.Errorf("CommonJS: %+v", out)
	}
	if linger > time.Second {
		t.Errorf("the process exited %v after its last call, want within 1 s", linger)
	}
}

// loadFailScript calls compile with no initialize() on a package whose
// protoplay.wasm is gone, then initialize() with a URL that answers with
// a page: both must reject into the try/catch, with no unhandled
// rejection, saying what was read or fetched and what came back.
const loadFailScript = `
import * as pp from "protoplay";
import { createServer } from "node:http";
const out = { unhandled: [] };
process.on("unhandledRejection", (e) => out.unhandled.push(String(e?.message ?? e)));
try { await pp.compile('syntax = "proto3";'); out.missing = "compiled"; } catch (e) { out.missing = e.message; }
try { await pp.coreVersion(); } catch (e) { out.again = e.message; }
const srv = createServer((req, res) => { res.writeHead(200, { "content-type": "text/html" }); res.end("<!doctype html><title>app</title>"); });
await new Promise((r) => srv.listen(0, "127.0.0.1", r));
try { await pp.initialize({ wasmURL: "http://127.0.0.1:" + srv.address().port + "/protoplay.wasm" }); out.html = "loaded"; } catch (e) { out.html = e.message; }
// As Vite 6's dev server does for pre-bundled protoplay.
try { await pp.initialize({ wasmURL: "http://127.0.0.1:" + srv.address().port + "/node_modules/.vite/deps/protoplay.wasm" }); out.vite = "loaded"; } catch (e) { out.vite = e.message; }
srv.close();
await new Promise((r) => setTimeout(r, 100));
console.log(JSON.stringify(out));
`

// TestNPMPackageNodeLoadFailure: a core that cannot load rejects the
// call that needed it (caught by its try/catch, no unhandled rejection
// killing the process), and the message says what was read or fetched,
// what came back and what to do.
func TestNPMPackageNodeLoadFailure(t *testing.T) {
	t.Parallel()
	dir := installPackage(t)
	if err := os.Remove(filepath.Join(dir, "node_modules/protoplay/protoplay.wasm")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "fail.mjs"), loadFailScript)
	var out struct {
		Unhandled      []string
		Missing, Again string
		HTML, Vite     string
	}
	runNode(t, dir, &out, "fail.mjs")
	t.Logf("missing file: %s\nHTML instead: %s", out.Missing, out.HTML)
	if len(out.Unhandled) > 0 {
		t.Errorf("unhandled rejections: %q", out.Unhandled)
	}
	for _, want := range []string{"protoplay: could not load protoplay.wasm from file://", "node_modules/protoplay/protoplay.wasm", "ENOENT", "initialize({ wasmURL })"} {
		if !strings.Contains(out.Missing, want) {
			t.Errorf("missing file: %q lacks %q", out.Missing, want)
		}
	}
	if !strings.Contains(out.Again, "could not load protoplay.wasm") {
		t.Errorf("a second call after the failed start: %q, want it to try again and fail the same way", out.Again)
	}
	if !strings.Contains(out.Vite, "/node_modules/.vite/deps/protoplay.wasm: HTTP 200") || !strings.Contains(out.Vite, `add optimizeDeps: { exclude: ["protoplay"] } to vite.config`) {
		t.Errorf("a page for the wasm from Vite's pre-bundled deps: %q, want the optimizeDeps advice", out.Vite)
	}
	for _, want := range []string{"/protoplay.wasm: HTTP 200", "Content-Type text/html", `body starting 3c 21 64 6f 63 74 79 70 ("<!doctyp")`, "not WebAssembly", "answered with a page"} {
		if !strings.Contains(out.HTML, want) {
			t.Errorf("HTML for the wasm: %q lacks %q", out.HTML, want)
		}
	}
}

// encodeFormatScript encodes a value given as an object with format
// "text", then the same value as a string of text format and as an object
// (JSON); 64-bit integers as BigInt; values JSON cannot hold; and decodes
// bytes and hex text.
const encodeFormatScript = `
import * as pp from "protoplay";
const f = 'syntax = "proto3"; package p; message A { int32 x = 1; string s = 2; }';
const out = {};
try { await pp.encode(f, "p.A", { x: 150 }, { format: "text" }); out.object = "encoded"; } catch (e) { out.object = { isError: e instanceof pp.ProtoplayError, kind: e.kind, message: e.message }; }
out.text = (await pp.encode(f, "p.A", 'x: 150 s: "a"', { format: "text" })).hex;
out.json = (await pp.encode(f, "p.A", { x: 150, s: "a" })).hex;
const g = 'syntax = "proto3"; package p; message B { int64 big = 1; repeated uint64 us = 2; }';
out.bigint = (await pp.encode(g, "p.B", { big: 9007199254740993n, us: [1n, 18446744073709551615n] })).hex;
const h = 'syntax = "proto3"; package p; message C { double d = 1; repeated float f = 2; }';
out.special = (await pp.decode(h, "p.C", (await pp.encode(h, "p.C", { d: NaN, f: [Infinity, -Infinity] })).bytes)).value;
const cyc = {}; cyc.self = cyc;
for (const [name, v] of [["cycle", cyc], ["undefined", undefined], ["function", () => 1]]) {
  try { await pp.encode(g, "p.B", v); out[name] = "encoded"; } catch (e) { out[name] = { isError: e instanceof pp.ProtoplayError, kind: e.kind, message: e.message }; }
}
const bin = (await pp.encode(f, "p.A", { x: 150 })).bytes;
out.bytesEncoding = (await pp.decode(f, "p.A", bin)).encoding;
out.hexEncoding = (await pp.decode(f, "p.A", "08 96 01")).encoding;
out.note = (await pp.decode(f, "p.A", "08 01 50 02")).note;
console.log(JSON.stringify(out));
`

// TestNPMPackageNodeEncodeFormat: encode's value is an object (JSON) or a
// string (JSON or text format); an object with format "text" rejects with
// a ProtoplayError of kind "usage" that says to pass a string, not with
// the text parser's complaint about the "{" of the object's JSON. BigInt
// values encode exactly, NaN and the infinities as themselves; a value
// JSON cannot hold rejects with kind "argument"; decode says bytes were
// read as binary.
func TestNPMPackageNodeEncodeFormat(t *testing.T) {
	t.Parallel()
	dir := installPackage(t)
	writeFile(t, filepath.Join(dir, "format.mjs"), encodeFormatScript)
	type rejection struct {
		IsError       bool
		Kind, Message string
	}
	var out struct {
		Object                      rejection
		Text, JSON, BigInt, Special string
		Cycle, Undefined, Function  rejection
		BytesEncoding, HexEncoding  string
		Note                        string
	}
	runNode(t, dir, &out, "format.mjs")
	// A BigInt is written as a string of its digits, as ProtoJSON takes
	// 64-bit integers: 2^53+1 and 2^64-1 arrive exactly.
	if out.BigInt != "08 81 80 80 80 80 80 80 10 12 0b 01 ff ff ff ff ff ff ff ff ff 01" {
		t.Errorf("BigInt values: %q", out.BigInt)
	}
	// NaN and the infinities arrive as ProtoJSON's strings for them.
	if squeezed := strings.Join(strings.Fields(out.Special), ""); squeezed != `{"d":"NaN","f":["Infinity","-Infinity"]}` {
		t.Errorf("NaN and infinities: %s", out.Special)
	}
	for name, r := range map[string]rejection{"cycle": out.Cycle, "undefined": out.Undefined, "function": out.Function} {
		if !r.IsError || r.Kind != "argument" || !strings.Contains(r.Message, "encode: the value") {
			t.Errorf("a value JSON cannot hold (%s): %+v", name, r)
		}
	}
	if out.Note != "1 field of the payload is not in p.A (field 10 at byte 2) and is left out of the JSON: text output keeps it" {
		t.Errorf("decode's note on a field the type does not declare: %q", out.Note)
	}
	if out.BytesEncoding != "binary" || out.HexEncoding != "hex" {
		t.Errorf("decode's encoding: bytes %q, hex text %q; want binary, hex", out.BytesEncoding, out.HexEncoding)
	}
	if !out.Object.IsError || out.Object.Kind != "usage" || !strings.Contains(out.Object.Message, `format "text" needs the value as a string`) {
		t.Errorf("an object with format text: %+v", out.Object)
	}
	if out.Text != "08 96 01 12 01 61" || out.JSON != out.Text {
		t.Errorf("text %q, JSON %q, want 08 96 01 12 01 61 both", out.Text, out.JSON)
	}
}

// apiLevelScript compiles one schema at the default API level, with
// default_api_level in an options object and in an options string, and
// with a level that does not exist.
const apiLevelScript = `
import * as pp from "protoplay";
const schema = { "a.proto": 'syntax = "proto3";\npackage a;\noption go_package = "example.com/a";\nmessage M { optional string s = 1; }\n' };
const text = async (options) => (await pp.compile(schema, { options })).generated.map((f) => f.content).join("");
const open = await text(undefined);
const object = await text({ default_api_level: "API_OPAQUE" });
const string = await text("default_api_level=API_OPAQUE");
let bad = {};
try {
  await pp.compile(schema, { options: { default_api_level: "API_CLOSED" } });
} catch (e) {
  bad = { kind: e.kind, message: e.message };
}
const hybrid = (await pp.compile(schema, { options: { default_api_level: "API_HYBRID" } })).generated.map((f) => f.name);
const opaque = (s) => s.includes("xxx_hidden_S") && s.includes("func (m *M) SetS(v string)") && s.includes("type M_builder struct");
console.log(JSON.stringify({ open: opaque(open), openField: open.includes("\tS *string"), object: opaque(object), string: opaque(string), same: object === string, bad, hybrid }));
`

// TestNPMPackageNodeAPILevel: compile()'s generator options choose the Go
// API (default_api_level=, as an object key or in the options string):
// opaque output has hidden fields, setters and a builder; the default is
// the open API; a level that does not exist rejects with a usage error
// that names the option; API_HYBRID gives two files, as protoc-gen-go.
func TestNPMPackageNodeAPILevel(t *testing.T) {
	t.Parallel()
	dir := installPackage(t)
	writeFile(t, filepath.Join(dir, "apilevel.mjs"), apiLevelScript)
	var out struct {
		Open, OpenField, Object, String, Same bool
		Bad                                   struct{ Kind, Message string }
		Hybrid                                []string
	}
	runNode(t, dir, &out, "apilevel.mjs")
	if out.Open || !out.OpenField {
		t.Errorf("the default output: opaque %v, exported field %v; want the open API", out.Open, out.OpenField)
	}
	if !out.Object || !out.String || !out.Same {
		t.Errorf("default_api_level=API_OPAQUE: opaque as an object %v, as a string %v, the same output %v", out.Object, out.String, out.Same)
	}
	if out.Bad.Kind != "usage" || !strings.Contains(out.Bad.Message, "default_api_level") {
		t.Errorf("a level that does not exist: %+v", out.Bad)
	}
	if strings.Join(out.Hybrid, " ") != "example.com/a/a.pb.go example.com/a/a_protoopaque.pb.go" {
		t.Errorf("API_HYBRID gave %q, want a.pb.go and a_protoopaque.pb.go", out.Hybrid)
	}
}
