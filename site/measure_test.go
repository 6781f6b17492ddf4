package site_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/protoplay/protoplay/compiler"
)

// TestMeasure prints the playground's performance numbers (make bench
// writes them to docs/benchmarks.md): PROTOPLAY_MEASURE=1 go test -run TestMeasure -v ./site
//
//   - cold start: navigation to the first generated Go on screen, in a
//     fresh browser profile (nothing cached), and its parts;
//   - edit to output: an edit in the editor to the new Go on screen, for
//     the example, for google/privacy/dlp/v2/storage.proto (919 lines) and
//     for google/privacy/dlp/v2/dlp.proto (9,255 lines, with storage.proto
//     beside it), median and p95; the session's first compile in the core
//     against a warm one; and the same compiles natively (compiler.Workspace,
//     the code the CLI runs, in this test's process) as the ratio
//     wasm/native of the time in the core. Each line ends with the
//     machine's load average, since the numbers move with it;
//   - the checks of the generated Go: from the first compiled output on
//     screen (when the interpreter's download may begin) to the checks of
//     every message type run through the interpreted generated code, for
//     the example (each cold start) and for the googleapis file.
func TestMeasure(t *testing.T) {
	if os.Getenv("PROTOPLAY_MEASURE") == "" {
		t.Skip("set PROTOPLAY_MEASURE=1 to measure")
	}
	for i := 1; i <= 5; i++ {
		// A subtest per run, so each browser is gone before the next
		// starts.
		t.Run(fmt.Sprintf("cold%d", i), func(t *testing.T) {
			ctx, url := startBrowser(t)
			do(t, ctx, chromedp.Navigate(url))
			waitJS(t, ctx, "first output", `__protoplay.stats.firstOutputMs > 0`, 60*time.Second)
			coldStart(t, ctx, fmt.Sprintf("cold start %d", i))
			if i == 5 {
				// The same profile again, once V8 has had time to cache
				// the module's optimised code: a repeat visit.
				time.Sleep(5 * time.Second)
				do(t, ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(url))
				waitJS(t, ctx, "first output", `__protoplay.stats.firstOutputMs > 0`, 60*time.Second)
				coldStart(t, ctx, "repeat visit")
				hits, loads := wasmCodeCacheHits(t, ctx)
				t.Logf("repeat visit: Chromium's wasm code cache (V8.WasmCodeCaching) served %d of the %d modules compiled by streaming in this profile (the core and the interpreter, first visit and repeat visit)", hits, loads)
			}
		})
	}

	small := map[string]any{"files": []map[string]string{{"name": "example.proto", "text": readFile(t, "../testdata/example/example.proto")}}, "active": "example.proto", "options": ""}
	t.Run("small", func(t *testing.T) { measureEdits(t, "example", "example.proto (42 lines)", small, 40) })

	root := filepath.Join(sharedDir(), "corpus/googleapis")
	big := needShared(t, "corpus/googleapis/google/privacy/dlp/v2/storage.proto")
	bigText := readFile(t, big)
	bigFiles := []map[string]string{
		{"name": "google/privacy/dlp/v2/storage.proto", "text": bigText},
		{"name": "google/api/resource.proto", "text": readFile(t, filepath.Join(root, "google/api/resource.proto"))},
	}
	bigName := fmt.Sprintf("google/privacy/dlp/v2/storage.proto (%d lines, + google/api/resource.proto)", strings.Count(bigText, "\n"))
	bigSession := map[string]any{"files": bigFiles, "active": "google/privacy/dlp/v2/storage.proto", "options": ""}
	t.Run("big checks", func(t *testing.T) {
		for i := 1; i <= 3; i++ {
			ctx, url := startBrowser(t)
			do(t, ctx, chromedp.Navigate(url+encodeSession(t, bigSession)))
			waitJS(t, ctx, "first output", `__protoplay.stats.firstCompiledMs > 0`, 60*time.Second)
			goChecksDone(t, ctx, fmt.Sprintf("%s, cold start %d", bigName, i))
		}
	})
	t.Run("big", func(t *testing.T) {
		measureEdits(t, "storage.proto", bigName, bigSession, 40)
	})
	dlpText := readFile(t, filepath.Join(root, "google/privacy/dlp/v2/dlp.proto"))
	dlpFiles := []map[string]string{
		{"name": "google/privacy/dlp/v2/storage.proto", "text": bigText},
		{"name": "google/privacy/dlp/v2/dlp.proto", "text": dlpText},
	}
	t.Run("dlp", func(t *testing.T) {
		measureEdits(t, "dlp.proto", fmt.Sprintf("google/privacy/dlp/v2/dlp.proto (%d lines, + storage.proto; googleapis imports bundled)", strings.Count(dlpText, "\n")),
			map[string]any{"files": dlpFiles, "active": "google/privacy/dlp/v2/dlp.proto", "options": ""}, 40)
	})
}

// goChecksDone waits for the first round of checks of the generated Go
// and reports it beside the core's first output.
func goChecksDone(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	waitJS(t, ctx, "the checks of the generated Go", `__protoplay.stats.goChecksDoneMs > 0`, 180*time.Second)
	s := eval[map[string]float64](t, ctx, `({compiled: __protoplay.stats.firstCompiledMs, start: __protoplay.stats.interpStartMs, ready: __protoplay.stats.interpReadyMs, done: __protoplay.stats.goChecksDoneMs, round: __protoplay.stats.goChecksLastMs, types: document.querySelectorAll('[data-testid=check-result][data-go=pass]').length, all: document.querySelectorAll('[data-testid=check-result]').length})`)
	t.Logf("%s: checks of the generated Go done %.0f ms after the first compiled output (core's first output at %.0f ms; interpreter download from %.0f ms, ready at %.0f ms; the round of checks itself %.0f ms; %.0f of %.0f types green)",
		what, s["done"]-s["compiled"], s["compiled"], s["start"], s["ready"], s["round"], s["types"], s["all"])
}

// wasmCodeCacheHits reads Chromium's V8.WasmCodeCaching histogram from
// chrome://histograms (in a tab of its own, which also collects the
// renderers' samples): how many modules compiled by streaming got their
// machine code from the code cache, of how many.
func wasmCodeCacheHits(t *testing.T, ctx context.Context) (hits, loads int) {
	t.Helper()
	tab, cancel := chromedp.NewContext(ctx)
	defer cancel()
	// The page asks the renderers for their samples when it loads and
	// lists what has arrived by then: load it until the histogram is there
	// and expanded. Its buckets (0 miss, 1 hit, 2 invalid entry, 3 no cache
	// handler) read "1  --O   (2 = 40.0%) {60.0%}".
	var got map[string]int
	for deadline := time.Now().Add(20 * time.Second); got == nil && time.Now().Before(deadline); {
		if err := chromedp.Do(tab, chromedp.Navigate("chrome://histograms/")); err != nil {
			t.Fatalf("chrome://histograms: %v", err)
		}
		for i := 0; i < 5 && got == nil; i++ {
			time.Sleep(400 * time.Millisecond)
			got = eval[map[string]int](t, tab, `(() => {
				const h = document.querySelector('.histogram-header[histogram-name="V8.WasmCodeCaching"]');
				if (!h) return null;
				const body = h.nextElementSibling ? h.nextElementSibling.textContent : "";
				if (!/\(\d+ =/.test(body)) { h.click(); return null; }
				const out = {};
				for (const m of body.matchAll(/^\s*(\d+)\s+-*O\s+\((\d+) =/gm)) out[m[1]] = Number(m[2]);
				return out;
			})()`)
		}
	}
	for b, n := range got {
		loads += n
		if b == "1" {
			hits += n
		}
	}
	return hits, loads
}

// loadAvg is the machine's 1-minute load average, for the report lines
// ("?" where /proc/loadavg is not there).
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Fields(string(b))[0]
}

func coldStart(t *testing.T, ctx context.Context, what string) {
	waitJS(t, ctx, "the first compile in the browser", `__protoplay.stats.firstCompiledMs > 0`, 60*time.Second)
	s := eval[map[string]float64](t, ctx, `({first: __protoplay.stats.firstOutputMs, compiled: __protoplay.stats.firstCompiledMs, module: __protoplay.stats.moduleReadyMs, ready: __protoplay.stats.wasmReadyMs, compile: __protoplay.stats.lastCompileMs})`)
	wasm := eval[map[string]float64](t, ctx, `__protoplay.stats.wasmFetch || {}`)
	t.Logf("%s: first output on screen at %.0f ms (prebuilt example); compiled in the browser at %.0f ms (wasm module compiled at %.0f, Go ready at %.0f, first compile %.0f ms in the core); wasm fetch %.0f ms, %.0f bytes of body for %.0f",
		what, s["first"], s["compiled"], s["module"], s["ready"], s["compile"], wasm["ms"], wasm["encodedBodySize"], wasm["decodedBodySize"])
	goChecksDone(t, ctx, what+", example.proto")
}

// editResult is one schema's edit measurement, logged as one JSON line
// after "edit result " for bench/cmd/benchrun, which reads it (its
// editResult has the same fields) into the issue 14 targets table. Times
// in ms; P50/P95 of the page's edit -> new Go on screen, Core* of the time
// in the core (CompileResult.elapsedMs), Native* of the same compiles with
// compiler.Workspace in this process; First is the session's first compile
// in the core, Full a warm full compile (engine warm, nothing cached).
type editResult struct {
	Schema                     string
	Edits                      int
	P50, P95, CoreP50, CoreP95 float64
	NativeP50, NativeP95       float64
	First, Full                float64
	NativeFirst, NativeFull    float64
	Load                       string
}

// measureEdits measures n edits of session's active file (see edit), the
// session's first compile and a warm full compile, in the browser and
// natively; schema is the short name of the edit result line.
func measureEdits(t *testing.T, schema, name string, session map[string]any, n int) {
	ctx, url := startBrowser(t)
	// dlp.proto's first (cold) compile can pass the page's 10 s limit on
	// a loaded machine; the page would then continue it in a second try,
	// and this measures it as one.
	url += "?timeout=120000"
	if q := os.Getenv("PROTOPLAY_QUERY"); q != "" {
		url += "&" + q // e.g. gogc=400
	}
	do(t, ctx, chromedp.Navigate(url+encodeSession(t, session)))
	waitJS(t, ctx, "first output", `__protoplay.stats.firstCompiledMs > 0`, 120*time.Second)
	first := eval[float64](t, ctx, `__protoplay.stats.lastCompileMs`)
	// Warm up: let the engine tier the hot code up, as it would for a
	// person who has typed for a few seconds.
	for i := 0; i < 5; i++ {
		edit(t, ctx, i)
	}
	var lat, core []float64
	for i := 0; i < n; i++ {
		l, c := edit(t, ctx, i)
		lat = append(lat, l)
		core = append(core, c)
	}
	// A warm full compile: the engine warm, but nothing cached (every
	// file's text and the options differ from any compile before), as
	// the session's first compile had nothing cached.
	full := fullCompile(t, ctx)
	t.Logf("%s: edit -> output median %.0f ms, p95 %.0f ms (time in the core: median %.0f ms, p95 %.0f ms), %d edits; first compile %.0f ms in the core = %.1fx a warm full compile (%.0f ms, nothing cached), %.0fx a warm edit; load %s",
		name, pct(lat, 50), pct(lat, 95), pct(core, 50), pct(core, 95), n, first, first/full, full, first/pct(core, 50), loadAvg())
	sort.Float64s(lat)
	sort.Float64s(core)
	t.Logf("  the interpreter meanwhile: %d rounds of generated-code checks completed, %d loads ended by an edit", eval[int](t, ctx, `__protoplay.stats.goChecksRounds`), eval[int](t, ctx, `__protoplay.runner.cancels`))
	t.Logf("  latencies (sorted): %.0f", lat)
	t.Logf("  core (sorted): %.0f", core)

	// The same compiles natively: the first, then the same edits.
	nfirst, nat, nfull := nativeEdits(t, session, n+5)
	nat = nat[5:]
	t.Logf("%s: native (compiler.Workspace, the CLI's code): first compile %.1f ms, warm full compile %.1f ms, edit median %.1f ms, p95 %.1f ms; wasm/native %.1fx (edit core medians), %.1fx (warm full compiles), first compile %.1fx; load %s",
		name, nfirst, nfull, pct(nat, 50), pct(nat, 95), pct(core, 50)/pct(nat, 50), full/nfull, first/nfirst, loadAvg())
	r, err := json.Marshal(editResult{
		Schema: schema, Edits: n,
		P50: pct(lat, 50), P95: pct(lat, 95), CoreP50: pct(core, 50), CoreP95: pct(core, 95),
		NativeP50: pct(nat, 50), NativeP95: pct(nat, 95),
		First: first, Full: full, NativeFirst: nfirst, NativeFull: nfull,
		Load: loadAvg(),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("edit result %s", r)
}

// fullOptions are generator options no other compile of the measurement
// uses, so that a compile with them reuses no printed Go.
const fullOptions = "enum_maps=true"

// fullCompile runs, in the page's Worker, a generate of the editor's
// files each with a comment line added and with fullOptions, so that
// nothing is reused from earlier compiles, and returns its time in the
// core, in ms.
func fullCompile(t *testing.T, ctx context.Context) float64 {
	t.Helper()
	ms, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`(async () => {
		const files = __protoplay.sources();
		for (const k of Object.keys(files)) files[k] += "// full compile\n";
		const r = await __protoplay.core.call("generate", {files, options: "`+fullOptions+`"});
		if (!r.generated.length) throw new Error("the full compile failed: " + JSON.stringify(r.diagnostics));
		return r.elapsedMs;
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("warm full compile: %v", err)
	}
	waitJS(t, ctx, "an idle Worker", `__protoplay.core.busy === 0`, 60*time.Second)
	return ms
}

// nativeEdits compiles session's files with a compiler.Workspace in this
// process, as the page's Worker does, then makes the edits edit makes in
// the browser (a comment line appended to the active file, and taken
// away again), then a full compile as fullCompile makes it, and returns
// the first compile's time, each edit's and the full compile's, in ms, as
// compiler.CompileResult.ElapsedMs counts them.
func nativeEdits(t *testing.T, session map[string]any, n int) (float64, []float64, float64) {
	t.Helper()
	files := compiler.Sources{}
	for _, f := range session["files"].([]map[string]string) {
		files[f["name"]] = f["text"]
	}
	active := session["active"].(string)
	w := &compiler.Workspace{}
	options := ""
	gen := func() float64 {
		r, err := w.Generate(context.Background(), compiler.CompileRequest{Files: maps.Clone(files), Options: options})
		if err != nil || len(r.Generated) == 0 {
			t.Fatalf("native compile: %v %v", err, r.Diagnostics)
		}
		return r.ElapsedMs
	}
	first := gen()
	var ms []float64
	for i := 0; i < n; i++ {
		if text, ok := strings.CutSuffix(files[active], "// edit\n"); ok {
			files[active] = text
		} else {
			files[active] += "// edit\n"
		}
		ms = append(ms, gen())
	}
	for k := range files {
		files[k] += "// full compile\n"
	}
	options = fullOptions
	return first, ms, gen()
}

// edit appends a comment line to the end of the file (or takes it away
// again), waits for the new output and for the follow-up work (checks,
// payload panel) to finish, so each edit meets an idle Worker, and returns
// the page's edit->output latency and the core's compile time.
func edit(t *testing.T, ctx context.Context, i int) (float64, float64) {
	t.Helper()
	n := eval[int](t, ctx, `__protoplay.stats.latencies.length`)
	do(t, ctx, script(`
		const v = __protoplay.editor, d = v.state.doc;
		if (d.toString().endsWith("// edit\n")) v.dispatch({changes: {from: d.length - 8, to: d.length}});
		else v.dispatch({changes: {from: d.length, insert: "// edit\n"}});`))
	waitJS(t, ctx, "the edit's output", fmt.Sprintf(`__protoplay.stats.latencies.length > %d`, n), 60*time.Second)
	time.Sleep(300 * time.Millisecond) // the follow-up starts 200 ms after the output
	// (Not the checks of the generated Go, which go on in the background
	// as they do while a person types: between two types they ask the
	// core for the next type's reference bytes, a few short calls, and a
	// new edit ends the round.)
	waitJS(t, ctx, "an idle Worker", `__protoplay.core.busy === 0 && document.querySelector('[data-testid=checks]').dataset.state === 'done'`, 60*time.Second)
	return eval[float64](t, ctx, `__protoplay.stats.latencies.at(-1)`), eval[float64](t, ctx, `__protoplay.stats.lastCompileMs`)
}

func pct(xs []float64, p int) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	i := (len(s)*p + 99) / 100
	if i > 0 {
		i--
	}
	return s[i]
}
