package site_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestMeasure prints the playground's performance numbers (the README and
// issue 4 quote them): PROTOPLAY_MEASURE=1 go test -run TestMeasure -v ./site
//
//   - cold start: navigation to the first generated Go on screen, in a
//     fresh browser profile (nothing cached), and its parts;
//   - edit to output: an edit in the editor to the new Go on screen, for
//     the example and for a ~1,000-line googleapis file, median and p95;
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
			}
		})
	}

	small := map[string]any{"files": []map[string]string{{"name": "example.proto", "text": readFile(t, "../testdata/example/example.proto")}}, "active": "example.proto", "options": ""}
	t.Run("small", func(t *testing.T) { measureEdits(t, "example.proto (42 lines)", small, 40) })

	root := filepath.Join(shared, "corpus/googleapis")
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
		measureEdits(t, bigName, bigSession, 40)
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

func coldStart(t *testing.T, ctx context.Context, what string) {
	waitJS(t, ctx, "the first compile in the browser", `__protoplay.stats.firstCompiledMs > 0`, 60*time.Second)
	s := eval[map[string]float64](t, ctx, `({first: __protoplay.stats.firstOutputMs, compiled: __protoplay.stats.firstCompiledMs, module: __protoplay.stats.moduleReadyMs, ready: __protoplay.stats.wasmReadyMs, compile: __protoplay.stats.lastCompileMs})`)
	wasm := eval[map[string]float64](t, ctx, `__protoplay.stats.wasmFetch || {}`)
	t.Logf("%s: first output on screen at %.0f ms (prebuilt example); compiled in the browser at %.0f ms (wasm module compiled at %.0f, Go ready at %.0f, first compile %.0f ms in the core); wasm fetch %.0f ms, %.0f bytes of body for %.0f",
		what, s["first"], s["compiled"], s["module"], s["ready"], s["compile"], wasm["ms"], wasm["encodedBodySize"], wasm["decodedBodySize"])
	goChecksDone(t, ctx, what+", example.proto")
}

func measureEdits(t *testing.T, name string, session any, n int) {
	ctx, url := startBrowser(t)
	if q := os.Getenv("PROTOPLAY_QUERY"); q != "" {
		url += "?" + q // e.g. gogc=400
	}
	do(t, ctx, chromedp.Navigate(url+encodeSession(t, session)))
	waitJS(t, ctx, "first output", `__protoplay.stats.firstCompiledMs > 0`, 60*time.Second)
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
	t.Logf("%s: edit -> output median %.0f ms, p95 %.0f ms (time in the core: median %.0f ms, p95 %.0f ms), %d edits",
		name, pct(lat, 50), pct(lat, 95), pct(core, 50), pct(core, 95), n)
	sort.Float64s(lat)
	sort.Float64s(core)
	t.Logf("  the interpreter meanwhile: %d rounds of generated-code checks completed, %d loads ended by an edit", eval[int](t, ctx, `__protoplay.stats.goChecksRounds`), eval[int](t, ctx, `__protoplay.runner.cancels`))
	t.Logf("  latencies (sorted): %.0f", lat)
	t.Logf("  core (sorted): %.0f", core)
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
