package site_test

// The npm package failing well (issue 32): recovery after a limit, a
// failed start that leaves nothing behind, no globals in the host, no
// orphaned core, readable errors, typings, and a package that tells the
// truth about itself.

import (
	"archive/tar"
	"bufio"
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
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// copyTestdata copies the files of site/testdata/npm/NAME into dir.
func copyTestdata(t *testing.T, name, dir string) {
	t.Helper()
	src := filepath.Join("testdata/npm", name)
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, e.Name()), string(b))
	}
}

// TestNPMPackageNodeRecoveryAfterKill (case 50), on each core: in Node, a call still
// running 5 s past timeoutMs whose core has used that much CPU time, or
// does not answer how much it used, gets the core's process killed. It rejects
// with kind "limit", as does a call waiting behind it on the same core;
// the calls after it run on a new core (the old process's exit, which
// comes later, is not theirs). "stopped" takes the kill path on any
// machine (the core's process is stopped, so it cannot answer); "case" is
// the case's input, a wire view that runs past the limit (stopped by the
// core or killed, by the machine's speed).
func TestNPMPackageNodeRecoveryAfterKill(t *testing.T) {
	t.Parallel()
	for _, core := range nodeCores {
		t.Run(core, func(t *testing.T) {
			t.Parallel()
			dir, env := installCore(t, core)
			copyTestdata(t, "50_npm_call_after_timeout_internal", dir)
			type call struct {
				Label, Kind, Limit, Message string
				OK                          bool
				Fields, Ms                  int
			}
			for _, mode := range []string{"stopped", "case"} {
				t.Run(mode, func(t *testing.T) {
					var out struct {
						Calls          []call
						Stopped, Alive []int
					}
					runNodeEnv(t, dir, env, &out, "recovery.mjs", "3000", mode)
					got := map[string]call{}
					for _, c := range out.Calls {
						t.Logf("%s: %+v", c.Label, c)
						got[c.Label] = c
					}
					big := got["big"]
					// The case's wire view of 3,000,000 packed varints ran past the
					// limit when the view listed every element; it lists
					// MaxViewFields of them now, which a fast machine does within
					// 3 s. So in "case" mode the big call may also succeed; when it
					// fails, it must be the time limit's error.
					if mode == "case" && big.OK {
						t.Logf("the case's wire view finished within the limit (%d ms): the kill path is covered by \"stopped\"", big.Ms)
					} else if big.OK || big.Kind != "limit" || big.Limit != "Deadline" || !strings.Contains(big.Message, "over the time limit of 3000 ms") {
						t.Errorf("the call over the limit: %+v, want kind limit (Deadline) naming 3000 ms", big)
					}
					if mode == "stopped" {
						if len(out.Stopped) != 1 || len(out.Alive) != 0 {
							t.Errorf("the core's processes: %v stopped, %v still there after the kill; want one, gone", out.Stopped, out.Alive)
						}
						if !strings.Contains(big.Message, "the core was restarted") {
							t.Errorf("the killed call's message %q does not say the core was restarted", big.Message)
						}
						if b := got["behind"]; b.OK || b.Kind != "limit" || !strings.Contains(b.Message, "another call ran over the time limit") {
							t.Errorf("the call waiting behind it on the killed core: %+v, want kind limit, saying why", b)
						}
					}
					for _, l := range []string{"after", "again"} {
						if c := got[l]; !c.OK || c.Fields == 0 {
							t.Errorf("%s: %+v, want an answer from a running core", l, c)
						}
					}
				})
			}
		})
	}
}

// failedStartScript starts the core from a URL that answers 404 with
// initialize({ wasmURL, timeoutMs }), then makes three calls at once
// (each must reject once, naming the same URL: the options are kept),
// then initialize()s again with the right URL, which must work; and
// initialize() with options once started rejects with kind "argument".
const failedStartScript = `
import * as pp from "protoplay";
import { createServer } from "node:http";
import { createRequire } from "node:module";
const out = { unhandled: [], progress: [] };
process.on("unhandledRejection", (e) => out.unhandled.push(String(e?.message ?? e)));
pp.onLoadProgress((loaded, total) => out.progress.push([loaded, total]));
const srv = createServer((req, res) => { res.writeHead(404, { "content-type": "text/html" }); res.end("<!doctype html><title>Not Found</title>"); });
await new Promise((r) => srv.listen(0, "127.0.0.1", r));
const bad = "http://127.0.0.1:" + srv.address().port + "/assets/protoplay.wasm";
const err = (e) => ({ message: e.message, kind: e.kind, is: e instanceof pp.ProtoplayError });
try { await pp.initialize({ wasmURL: bad, timeoutMs: 4321 }); out.first = "started"; } catch (e) { out.first = err(e); }
const calls = await Promise.allSettled([pp.compile('syntax = "proto3";'), pp.decodeRaw("0801"), pp.coreVersion()]);
out.calls = calls.map((r) => (r.status === "rejected" ? err(r.reason) : "ok"));
out.progressFailed = out.progress.length;
const good = createRequire(import.meta.url).resolve("protoplay/protoplay.wasm");
try { await pp.initialize({ wasmURL: good, timeoutMs: 4321 }); out.second = "started"; } catch (e) { out.second = err(e); }
out.version = await pp.coreVersion();
out.ready = pp.isReady();
try { await pp.initialize({ timeoutMs: 1 }); out.third = "accepted"; } catch (e) { out.third = err(e); }
out.done = out.progress.filter(([l, t]) => l === t && t > 0).length;
srv.close();
console.log(JSON.stringify(out));
`

type jsError struct {
	Message, Kind, Name string
	Is                  bool
}

// TestNPMPackageNodeFailedStart: a failed start rejects its caller and
// each call waiting on it once (no unhandled rejection), says what was
// fetched and what came back (a 404 is a 404, not an index.html
// fallback), keeps the options for the next start (the calls after it name
// the same URL), and initialize() can be called again with the right
// ones. The download's progress says "done" (loaded === total) once, on
// success only.
func TestNPMPackageNodeFailedStart(t *testing.T) {
	t.Parallel()
	dir := installPackage(t)
	writeFile(t, filepath.Join(dir, "failed-start.mjs"), failedStartScript)
	var out struct {
		Unhandled      []string
		Progress       [][2]int
		First          jsError
		Calls          []jsError
		ProgressFailed int
		Second, Third  json.RawMessage
		Version        string
		Ready          bool
		Done           int
	}
	runNode(t, dir, &out, "failed-start.mjs")
	t.Logf("failed start: %+v", out.First)
	if len(out.Unhandled) > 0 {
		t.Errorf("unhandled rejections: %q", out.Unhandled)
	}
	for _, want := range []string{"protoplay: could not load protoplay.wasm from http://127.0.0.1:", "/assets/protoplay.wasm: HTTP 404", "has no file at that URL"} {
		if !strings.Contains(out.First.Message, want) {
			t.Errorf("the failed start's message %q lacks %q", out.First.Message, want)
		}
	}
	if strings.Contains(out.First.Message, "index.html") || !out.First.Is || out.First.Kind != "internal" {
		t.Errorf("the failed start: %+v, want a ProtoplayError of kind internal that does not guess an index.html fallback", out.First)
	}
	if len(out.Calls) != 3 {
		t.Fatalf("calls: %+v", out.Calls)
	}
	for i, c := range out.Calls {
		if !c.Is || !strings.Contains(c.Message, "/assets/protoplay.wasm: HTTP 404") {
			t.Errorf("call %d after the failed start: %+v, want a ProtoplayError naming the same URL (the options kept)", i, c)
		}
	}
	if string(out.Second) != `"started"` || out.Version == "" || !out.Ready {
		t.Errorf("initialize() with the right URL after a failed start: %s (version %q, ready %v)", out.Second, out.Version, out.Ready)
	}
	var third jsError
	if err := json.Unmarshal(out.Third, &third); err != nil || third.Kind != "argument" || !third.Is {
		t.Errorf("initialize({ timeoutMs }) once started: %s, want a ProtoplayError of kind argument", out.Third)
	}
	if out.ProgressFailed != 0 && out.Progress[out.ProgressFailed-1][0] == out.Progress[out.ProgressFailed-1][1] {
		t.Errorf("progress said done on a failed load: %v", out.Progress[:out.ProgressFailed])
	}
	if out.Done != 1 {
		t.Errorf("progress said done %d times, want once: %v", out.Done, out.Progress)
	}
}

// failedStartPage starts the browser entry from a URL that answers 404,
// with an element on the page and three calls, counting the Workers
// started and terminated and the unhandled rejections; then starts it
// again from the right URL.
const failedStartPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>failed start</title>
<script>
  window.workers = { started: 0, terminated: 0 };
  const W = window.Worker;
  window.Worker = class extends W {
    constructor(...a) { super(...a); workers.started++; }
    terminate() { workers.terminated++; super.terminate(); }
  };
  window.unhandled = [];
  addEventListener("unhandledrejection", (e) => unhandled.push(String(e.reason?.message ?? e.reason)));
  window.events = [];
  document.addEventListener("protoplay-error", (e) => events.push({ type: e.type, id: e.target.id, message: e.detail.message }));
  window.progress = [];
</script>
<script type="module">
  import * as pp from "./node_modules/protoplay/index.js";
  import "./node_modules/protoplay/element.js";
  pp.onLoadProgress((loaded, total) => progress.push([loaded, total]));
  const err = (e) => ({ message: e.message, kind: e.kind, is: e instanceof pp.ProtoplayError, name: e.constructor.name });
  const out = {};
  try { await pp.initialize({ wasmURL: "./assets/protoplay.wasm", timeoutMs: 4321 }); out.first = "started"; } catch (e) { out.first = err(e); }
  document.body.insertAdjacentHTML("beforeend", '<protoplay-editor id="a">syntax = "proto3"; message A { int32 x = 1; }</protoplay-editor>');
  const calls = await Promise.allSettled([pp.compile('syntax = "proto3";'), pp.decodeRaw("0801"), pp.coreVersion()]);
  out.calls = calls.map((r) => (r.status === "rejected" ? err(r.reason) : "ok"));
  window.failed = out;
  window.retry = async () => {
    await pp.initialize({ wasmURL: "./node_modules/protoplay/protoplay.wasm" });
    const r = await pp.compile('syntax = "proto3"; message B { int32 y = 1; }');
    return r.generated.length;
  };
</script>
</head><body></body></html>`

// TestNPMPackageFailedStartBrowser: in chromium, a start from a URL that
// answers 404 leaves no Worker running and no unhandled rejection, with
// an element and three calls waiting on it; each call rejects naming the
// URL given to initialize(); initialize() again with the right URL works.
func TestNPMPackageFailedStartBrowser(t *testing.T) {
	t.Parallel()
	dir := installPackage(t)
	chromium := chromiumPath()
	if chromium == "" {
		skipOrFail(t, "chromium is not installed (make chromium installs Debian's)")
	}
	writeFile(t, filepath.Join(dir, "index.html"), failedStartPage)
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(srv.Close)
	ctx := launchChromium(t, chromium)
	do(t, ctx, chromedp.Navigate(srv.URL+"/index.html"))
	msg := firstEvent(t, ctx, "protoplay-error", "a")
	deadline := waitLimit(t)
	for !eval[bool](t, ctx, `!!window.failed`) {
		if time.Now().After(deadline) {
			t.Fatal("the calls after the failed start did not settle")
		}
		time.Sleep(50 * time.Millisecond)
	}
	var failed struct {
		First jsError
		Calls []jsError
	}
	if err := json.Unmarshal([]byte(eval[string](t, ctx, `JSON.stringify(window.failed)`)), &failed); err != nil {
		t.Fatal(err)
	}
	t.Logf("failed start: %+v; the element's error: %s", failed.First, msg)
	want := "protoplay: could not load protoplay.wasm from " + srv.URL + "/assets/protoplay.wasm: HTTP 404"
	if failed.First.Name != "ProtoplayError" {
		t.Errorf("the error's class is named %q in the browser's bundle, want ProtoplayError", failed.First.Name)
	}
	if !strings.HasPrefix(failed.First.Message, want) || !failed.First.Is || strings.Contains(failed.First.Message, "index.html") {
		t.Errorf("the failed start: %+v, want a ProtoplayError starting %q, not guessing an index.html fallback", failed.First, want)
	}
	for i, c := range append(failed.Calls, jsError{Message: msg, Is: true}) {
		if !c.Is || !strings.HasPrefix(c.Message, want) {
			t.Errorf("call %d after the failed start: %+v, want %q (the options kept)", i, c, want)
		}
	}
	if w := eval[string](t, ctx, `JSON.stringify(workers)`); w != `{"started":0,"terminated":0}` && eval[int](t, ctx, `workers.started - workers.terminated`) != 0 {
		t.Errorf("Workers after the failed start: %s, want none running", w)
	}
	if u := eval[string](t, ctx, `JSON.stringify(unhandled)`); u != "[]" {
		t.Errorf("unhandled rejections: %s", u)
	}
	if p := eval[string](t, ctx, `JSON.stringify(progress.filter(([l, t]) => t > 0 && l >= t))`); p != "[]" {
		t.Errorf("progress said done on a failed load: %s", p)
	}
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`retry()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("initialize() with the right URL after the failed start: %v", err)
	}
	if n != 1 {
		t.Errorf("compile after initialize() with the right URL generated %d files", n)
	}
	if w := eval[int](t, ctx, `workers.started - workers.terminated`); w != 1 {
		t.Errorf("%d Workers running after the retry, want 1", w)
	}
	if p := eval[int](t, ctx, `progress.filter(([l, t]) => t > 0 && l >= t).length`); p != 1 {
		t.Errorf("progress said done %d times, want once: %s", p, eval[string](t, ctx, `JSON.stringify(progress)`))
	}
}

// hostScript imports the package's ES module, then its CommonJS entry,
// and uses both: the process's globals must not change (no fs, path, Go
// or process stand-ins of Go's wasm_exec.js), one core serves both
// (one child process), and a ProtoplayError of one is an instance of the
// other's class.
const hostScript = `
import { createRequire } from "node:module";
import fs from "node:fs";
const before = Object.getOwnPropertyNames(globalThis);
const g = { fs: globalThis.fs, path: globalThis.path, Go: globalThis.Go, crypto: globalThis.crypto, process: globalThis.process };
const esm = await import("protoplay");
const cjs = createRequire(import.meta.url)("protoplay");
const out = {};
const changed = () => [
  ...Object.getOwnPropertyNames(globalThis).filter((n) => !before.includes(n)),
  ...Object.keys(g).filter((k) => globalThis[k] !== g[k]),
];
out.afterImport = changed();
const a = await esm.compile('syntax = "proto3"; message A { int32 x = 1; }');
const b = await cjs.compile('syntax = "proto3"; message B { int32 y = 1; }');
out.compiled = a.generated.length + b.generated.length;
out.afterCalls = changed();
out.readyBoth = esm.isReady() && cjs.isReady();
const children = [];
for (const d of fs.readdirSync("/proc")) {
  if (!/^\d+$/.test(d)) continue;
  try {
    const stat = fs.readFileSync("/proc/" + d + "/stat", "utf8");
    if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === process.pid) children.push(Number(d));
  } catch {}
}
out.children = children.length;
try { await cjs.encode("syntax = 'proto3'; message A { int32 x = 1; }", "A", "{ x: 1 }"); } catch (e) {
  out.cjsErrorIsESM = e instanceof esm.ProtoplayError;
  out.cjsErrorIsCJS = e instanceof cjs.ProtoplayError;
}
try { await esm.decode("syntax = 'proto3'; message A { int32 x = 1; }", "A", "0a05ff"); } catch (e) {
  out.esmErrorIsCJS = e instanceof cjs.ProtoplayError;
}
out.plainError = new Error("x") instanceof esm.ProtoplayError;
console.log(JSON.stringify(out));
`

// TestNPMPackageNodeHost: importing the package in Node changes nothing in
// the host process (no globals: a second Go WebAssembly program in the
// process finds none of ours), even after calls; the ES module and the
// CommonJS entry loaded together share one core, and instanceof
// ProtoplayError holds across them.
func TestNPMPackageNodeHost(t *testing.T) {
	t.Parallel()
	dir := installPackage(t)
	writeFile(t, filepath.Join(dir, "host.mjs"), hostScript)
	var out struct {
		AfterImport, AfterCalls                     []string
		Compiled, Children                          int
		ReadyBoth                                   bool
		CjsErrorIsESM, CjsErrorIsCJS, EsmErrorIsCJS bool
		PlainError                                  bool
	}
	runNode(t, dir, &out, "host.mjs")
	t.Logf("%+v", out)
	if len(out.AfterImport) > 0 || len(out.AfterCalls) > 0 {
		t.Errorf("globals changed: by the imports %q, by the calls %q", out.AfterImport, out.AfterCalls)
	}
	if out.Compiled != 2 || !out.ReadyBoth {
		t.Errorf("compiled %d files (want 2), both ready %v", out.Compiled, out.ReadyBoth)
	}
	if out.Children != 1 {
		t.Errorf("%d core processes for the ES module and the CommonJS entry, want 1", out.Children)
	}
	if !out.CjsErrorIsESM || !out.CjsErrorIsCJS || !out.EsmErrorIsCJS || out.PlainError {
		t.Errorf("instanceof ProtoplayError across the entries: cjs error is esm's %v, cjs's %v; esm error is cjs's %v; a plain Error is one: %v",
			out.CjsErrorIsESM, out.CjsErrorIsCJS, out.EsmErrorIsCJS, out.PlainError)
	}
}

// orphanScript compiles a schema that takes many seconds, and prints the
// core's process id once the compile is under way.
const orphanScript = `
import * as pp from "protoplay";
import fs from "node:fs";
let big = 'syntax = "proto3";\npackage big;\n';
for (let i = 0; i < 8000; i++) big += "message M" + i + " { int32 a = 1; string b = 2; repeated M" + i + " c = 3; }\n";
await pp.initialize();
const done = pp.compile({ "big.proto": big });
for (const d of fs.readdirSync("/proc")) {
  if (!/^\d+$/.test(d)) continue;
  try {
    const stat = fs.readFileSync("/proc/" + d + "/stat", "utf8");
    if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === process.pid) console.log(d);
  } catch {}
}
await done;
console.log("done");
`

// TestNPMPackageNodeNoOrphan: SIGTERM or SIGINT to the parent during a
// compile (a container stop, a nodemon restart) ends the core's process
// too, within seconds, not when its compile ends.
func TestNPMPackageNodeNoOrphan(t *testing.T) {
	t.Parallel()
	dir := installPackage(t)
	writeFile(t, filepath.Join(dir, "orphan.mjs"), orphanScript)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command("node", "orphan.mjs")
			cmd.Dir = dir
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			line, err := bufio.NewReader(stdout).ReadString('\n')
			pid, perr := strconv.Atoi(strings.TrimSpace(line))
			if err != nil || perr != nil {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("orphan.mjs printed %q (%v, %v), want the core's pid", line, err, perr)
			}
			// Wait until the core is at work (it has used 0.3 s of CPU
			// more than when its pid was printed).
			start, deadline := cpuTicks(pid), time.Now().Add(60*time.Second)
			for cpuTicks(pid) < start+30 && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			cmd.Process.Signal(sig)
			cmd.Wait()
			killed := time.Now()
			alive := func() bool {
				b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
				s := string(b)
				return err == nil && !strings.Contains(s[strings.LastIndex(s, ")"):], ") Z ")
			}
			for alive() && time.Since(killed) < 10*time.Second {
				time.Sleep(20 * time.Millisecond)
			}
			if alive() {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("the core's process %d still runs %v after its parent ended by %v", pid, time.Since(killed).Round(time.Millisecond), sig)
			}
			t.Logf("the core's process ended %v after its parent (%v)", time.Since(killed).Round(time.Millisecond), sig)
		})
	}
}

// cpuTicks is the CPU time a process has used, in clock ticks (utime +
// stime of /proc/PID/stat; 100 a second on Linux); 0 when it is gone.
func cpuTicks(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndex(s, ")")+1:])
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.Atoi(f[11])
	k, _ := strconv.Atoi(f[12])
	return u + k
}

// argumentsScript makes calls with arguments of the wrong type or value
// (a negative time limit, a number as generator options, a NaN count, a
// value JSON cannot hold): each must reject (not throw) with a
// ProtoplayError of kind "argument", not be ignored.
const argumentsScript = `
import * as pp from "protoplay";
const schema = 'syntax = "proto3"; message A { int32 x = 1; }';
const calls = {
  "compile(42)": () => pp.compile(42),
  "compile({ 'a.proto': 1 })": () => pp.compile({ "a.proto": 1 }),
  "compile(schema, 'x')": () => pp.compile(schema, "x"),
  "encode(schema, 5, {})": () => pp.encode(schema, 5, {}),
  "decode(schema, 'A', 42)": () => pp.decode(schema, "A", 42),
  "decodeRaw({})": () => pp.decodeRaw({}),
  "wireView(schema, 'A', null)": () => pp.wireView(schema, "A", null),
  "sample(null, 'A')": () => pp.sample(null, "A"),
  "check([])": () => pp.check([]),
  "initialize('x')": () => pp.initialize("x"),
  "initialize({ timeoutMs: -5 })": () => pp.initialize({ timeoutMs: -5 }),
  "initialize({ memoryLimit: '1GiB' })": () => pp.initialize({ memoryLimit: "1GiB" }),
  "compile(schema, { options: 42 })": () => pp.compile(schema, { options: 42 }),
  "compile(schema, { options: { paths: {} } })": () => pp.compile(schema, { options: { paths: {} } }),
  "rankTypes(schema, '08 01', { count: -1 })": () => pp.rankTypes(schema, "08 01", { count: -1 }),
  "rankTypes(schema, '08 01', { count: NaN })": () => pp.rankTypes(schema, "08 01", { count: NaN }),
  "encode(schema, 'A', cyclic)": () => { const c = {}; c.c = c; return pp.encode(schema, "A", c); },
  "encode(schema, 'A', undefined)": () => pp.encode(schema, "A", undefined),
};
const out = {};
for (const [name, f] of Object.entries(calls)) {
  let p;
  try { p = f(); } catch (e) { out[name] = { threw: true, message: e.message }; continue; }
  try { await p; out[name] = { resolved: true }; } catch (e) { out[name] = { kind: e.kind, is: e instanceof pp.ProtoplayError, name: e.constructor.name, message: e.message }; }
}
console.log(JSON.stringify(out));
`

// TestNPMPackageNodeReadableErrors: an uncaught ProtoplayError in Node
// prints what a person can read (the class by its name, no line of
// minified code thousands of characters long), and arguments of the
// wrong type reject with a ProtoplayError of kind "argument" saying what
// was given.
func TestNPMPackageNodeReadableErrors(t *testing.T) {
	t.Parallel()
	dir := installPackage(t)
	for _, ext := range []string{"mjs", "cjs"} {
		t.Run("uncaught-"+ext, func(t *testing.T) {
			script := `import * as pp from "protoplay";` + "\nawait pp.compile('syntax = \"proto3\";\\nmessage A { int32 x = ; }\\n');\n"
			if ext == "cjs" {
				script = `const pp = require("protoplay");` + "\npp.compile('syntax = \"proto3\";\\nmessage A { int32 x = ; }\\n');\n"
			}
			writeFile(t, filepath.Join(dir, "uncaught."+ext), script)
			cmd := exec.Command("node", "uncaught."+ext)
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("node uncaught.%s exited 0: %s", ext, out)
			}
			text := string(out)
			t.Logf("an uncaught ProtoplayError (%d bytes):\n%s", len(text), text)
			if !strings.Contains(text, "ProtoplayError: schema.proto:2:13: missing message field tag in declaration") || !strings.Contains(text, "kind: 'schema'") {
				t.Errorf("the output does not show a ProtoplayError by name with its message and kind")
			}
			if regexp.MustCompile(`\b\w{1,3} \[ProtoplayError\]`).MatchString(text) {
				t.Errorf("the class is printed by a minified name")
			}
			for _, l := range strings.Split(text, "\n") {
				if len(l) > 300 {
					t.Errorf("a line of %d characters: %.120q...", len(l), l)
				}
			}
			if len(text) > 3000 {
				t.Errorf("%d bytes printed for one error, want under 3000", len(text))
			}
		})
	}
	t.Run("arguments", func(t *testing.T) {
		writeFile(t, filepath.Join(dir, "arguments.mjs"), argumentsScript)
		var out map[string]struct {
			Threw, Resolved bool
			Kind, Name      string
			Is              bool
			Message         string
		}
		runNode(t, dir, &out, "arguments.mjs")
		if len(out) != 18 {
			t.Errorf("%d results, want 18: %+v", len(out), out)
		}
		for call, r := range out {
			t.Logf("%s: %+v", call, r)
			if r.Threw || r.Resolved || r.Kind != "argument" || !r.Is || r.Name != "ProtoplayError" || !strings.HasPrefix(r.Message, "protoplay: ") {
				t.Errorf("%s: %+v, want a rejection with a ProtoplayError of kind argument", call, r)
			}
		}
	})
}

// TestNPMPackageAreTheTypesWrong runs @arethetypeswrong/cli (site's
// devDependencies) on the packed tarball: every entry point ("protoplay",
// "protoplay/element", "protoplay/protoplay.wasm") must resolve to types
// of the right module format under node10, node16 (CommonJS and ESM) and
// bundler resolution. The element is an ES module only (it needs a
// DOM): its "ESM (dynamic import only)" under node16 from CommonJS is
// allowed for it, not for the package's root.
func TestNPMPackageAreTheTypesWrong(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("npm package test skipped in -short mode")
	}
	tgz := packedTarball(t)
	attw, err := filepath.Abs("node_modules/@arethetypeswrong/cli/dist/index.js")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(attw); err != nil {
		skipOrFail(t, "site/node_modules lacks @arethetypeswrong/cli (run npm ci in site)")
	}
	run := func(args ...string) (string, error) {
		cmd := exec.Command("node", append([]string{attw, tgz, "--no-definitely-typed", "--no-color", "--no-emoji"}, args...)...)
		cmd.Env = append(os.Environ(), "NO_UPDATE_NOTIFIER=1")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	// protoplay.iife.js is a plain script for CDNs (<script src>), not a
	// module to import: it has no types.
	table, err := run("--format", "ascii", "--exclude-entrypoints", "./element", "./protoplay.iife.js")
	t.Logf("attw (the root and the wasm's URL):\n%s", table)
	if err != nil {
		t.Errorf("attw found problems: %v", err)
	}
	table, err = run("--format", "ascii", "--entrypoints", "./element", "--ignore-rules", "cjs-resolves-to-esm")
	t.Logf("attw (the element, ES module only):\n%s", table)
	if err != nil {
		t.Errorf("attw found problems in protoplay/element: %v", err)
	}
}

// docsScript lists the exports of the package's entry declarations
// (TypeScript's own reading of them, through re-exports) with their doc
// comments.
const docsScript = `
const ts = require(process.argv[2]);
const entries = process.argv.slice(3);
const program = ts.createProgram(entries, { strict: true, skipLibCheck: false, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, lib: ["lib.es2022.d.ts", "lib.dom.d.ts"] });
const checker = program.getTypeChecker();
const out = { diagnostics: ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")), entries: {} };
for (const e of entries) {
  const sf = program.getSourceFile(e);
  const mod = checker.getSymbolAtLocation(sf);
  out.entries[e] = {};
  for (const s of checker.getExportsOfModule(mod)) {
    const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
    out.entries[e][s.name] = ts.displayPartsToString(target.getDocumentationComment(checker)).trim();
  }
}
console.log(JSON.stringify(out));
`

// TestNPMPackageTypeDocs: every export of the package's entries
// ("protoplay" for browsers and for Node, import and require, and
// "protoplay/element") has a doc comment, which an editor shows on hover,
// and no internal helper is exported.
func TestNPMPackageTypeDocs(t *testing.T) {
	t.Parallel()
	dir := installPackage(t)
	ts, err := filepath.Abs("node_modules/typescript")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(ts); err != nil {
		skipOrFail(t, "site/node_modules has no typescript (run npm ci in site)")
	}
	writeFile(t, filepath.Join(dir, "docs.cjs"), docsScript)
	types := "node_modules/protoplay/types/"
	var out struct {
		Diagnostics []string
		Entries     map[string]map[string]string
	}
	runNode(t, dir, &out, "docs.cjs", ts, types+"index.d.ts", types+"node.d.ts", types+"node.d.cts", types+"element.d.ts")
	if len(out.Diagnostics) > 0 {
		t.Errorf("the declarations do not type-check: %q", out.Diagnostics)
	}
	internal := map[string]bool{"createAPI": true, "sharedAPI": true, "bindAPI": true, "limitsOf": true, "limitMessage": true,
		"filesOf": true, "argumentError": true, "Backend": true, "Progress": true, "API": true, "runInThread": true, "runInChild": true}
	for entry, exports := range out.Entries {
		if len(exports) < 10 && !strings.HasSuffix(entry, "element.d.ts") {
			t.Errorf("%s exports %d names: %v", entry, len(exports), exports)
		}
		for name, doc := range exports {
			if internal[name] {
				t.Errorf("%s exports the internal %s", entry, name)
			}
			if doc == "" {
				t.Errorf("%s: %s has no doc comment", entry, name)
			}
		}
	}
}

// TestNPMPackageElementTypes: the element's typings put only its
// "protoplay-" events in the global DOM event maps ("compiled" is typed
// on a ProtoplayEditor only), declare <protoplay-editor> for JSX with its
// attributes, and type-check from CommonJS resolution (node10) through
// typesVersions too.
func TestNPMPackageElementTypes(t *testing.T) {
	t.Parallel()
	dir := installPackage(t)
	tsc, err := filepath.Abs("node_modules/typescript/bin/tsc")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tsc); err != nil {
		skipOrFail(t, "site/node_modules has no typescript (run npm ci in site)")
	}
	writeFile(t, filepath.Join(dir, "events.ts"), `import { ProtoplayEditor } from "protoplay/element";
const e = new ProtoplayEditor();
e.addEventListener("compiled", (ev) => console.log(ev.detail.generated.length));
document.addEventListener("protoplay-error", (ev) => console.log(ev.detail.diagnostics.length));
// @ts-expect-error: an un-prefixed event is not the whole document's
document.addEventListener("compiled", (ev) => console.log(ev.detail.generated));
export {};
`)
	writeFile(t, filepath.Join(dir, "jsx.tsx"), `import "protoplay/element";
declare global {
  namespace JSX {
    interface Element {}
  }
}
export const ok = <protoplay-editor type="demo.Person" panels="go,encode" height="420px" theme="dark" readonly />;
// @ts-expect-error: not an attribute of the element
export const bad = <protoplay-editor colour="red" />;
`)
	writeFile(t, filepath.Join(dir, "node10.ts"), `import { compile } from "protoplay";
import { ProtoplayEditor } from "protoplay/element";
import wasmURL from "protoplay/protoplay.wasm";
export const f = async (): Promise<number> => (await compile("syntax = \"proto3\";")).generated.length + wasmURL.length + (ProtoplayEditor.name.length);
`)
	for _, c := range []struct{ name, module, resolution string }{
		{"events.ts", "ESNext", "Bundler"},
		{"jsx.tsx", "ESNext", "Bundler"},
		{"node10.ts", "CommonJS", "Node10"},
	} {
		args := []string{tsc, "--noEmit", "--strict", "--skipLibCheck", "false", "--target", "ES2022", "--lib", "ES2022,DOM",
			"--module", c.module, "--moduleResolution", c.resolution, "--jsx", "preserve", c.name}
		cmd := exec.Command("node", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("tsc %s (module %s, resolution %s): %v\n%s", c.name, c.module, c.resolution, err, out)
		}
	}
}

// TestNPMPackageTellsTheTruth: the package's README gives the sizes the
// tarball has (protoplay.wasm, installed, packed: within 5%), says how
// to get the package while it is not on the registry (make npm and the
// tarball, not a bare npm install protoplay), and package.json says
// where the code, the home page and the issues are.
func TestNPMPackageTellsTheTruth(t *testing.T) {
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
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var wasm, unpacked int64
	var readme, pj string
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		unpacked += h.Size
		switch h.Name {
		case "package/protoplay.wasm":
			wasm = h.Size
		case "package/README.md", "package/package.json":
			b, err := io.ReadAll(tr)
			if err != nil {
				t.Fatal(err)
			}
			if h.Name == "package/README.md" {
				readme = string(b)
			} else {
				pj = string(b)
			}
		}
	}
	t.Logf("protoplay.wasm %d B, unpacked %d B, tarball %d B", wasm, unpacked, fi.Size())
	mb := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		return v * 1e6
	}
	near := func(what string, said float64, n int64) {
		if d := said/float64(n) - 1; d > 0.05 || d < -0.05 {
			t.Errorf("the README gives %s as %.1f MB; it is %.2f MB", what, said/1e6, float64(n)/1e6)
		}
	}
	m := regexp.MustCompile(`The tarball is about ([\d.]+) MB; installed, the package is ([\d.]+) MB, ([\d.]+) MB of it .protoplay.wasm.`).FindStringSubmatch(readme)
	if m == nil {
		t.Fatal("the README does not say the tarball's, the package's and the wasm's sizes")
	}
	near("the tarball", mb(m[1]), fi.Size())
	near("the installed package", mb(m[2]), unpacked)
	near("protoplay.wasm", mb(m[3]), wasm)
	for _, m := range regexp.MustCompile(`compressed \(([\d.]+) MB;`).FindAllStringSubmatch(readme, -1) {
		near("protoplay.wasm", mb(m[1]), wasm)
	}
	if strings.Contains(readme, "npm install protoplay\n") || !strings.Contains(readme, "make npm") || !strings.Contains(readme, ".cache/npm/protoplay-*.tgz") {
		t.Error("the README's Install does not say to build the package with make npm and install the tarball")
	}
	var meta struct {
		Homepage, Bugs string
		Repository     struct{ Type, URL, Directory string }
	}
	if err := json.Unmarshal([]byte(pj), &meta); err != nil {
		t.Fatal(err)
	}
	if meta.Homepage == "" || meta.Bugs == "" || meta.Repository.URL == "" || meta.Repository.Directory != "site/npm" {
		t.Errorf("package.json: homepage %q, bugs %q, repository %+v", meta.Homepage, meta.Bugs, meta.Repository)
	}
}
