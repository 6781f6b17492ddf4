package site_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBigSchemaEditsSupersede opens google/privacy/dlp/v2/dlp.proto (9,255
// lines, with storage.proto beside it and its google/api, google/rpc and
// google/type imports bundled), waits for its Go (never replacing the
// Worker), then types six edits at a person's pace while a compile runs,
// each renaming a marker message, and checks that edits supersede the
// compile instead of stacking: never more than one generate call waits on
// the Worker, no result overtaken by a later edit is shown once the last
// edit is made, and the Go pane ends with the last edit's output. The
// page is opened with a call limit of 5 minutes (?timeout=300000), as the
// other tests whose point is not the limit are: a cold first compile of
// dlp.proto (wasm warm-up, every message printed) takes seconds of CPU,
// and how many seconds of the clock depends on the machine's load (at
// load 13-25 it passed the default 10 s). The limit itself is tested
// where the work is counted, not timed: the core checks its deadline
// often (compiler TestDeadlineCheckedOften), a stopped generation keeps
// what it printed for the next try (compiler TestCacheKeepsStoppedWork),
// and the page replaces a Worker that does not answer
// (TestWorkerReplacedOnTimeout).
func TestBigSchemaEditsSupersede(t *testing.T) {
	t.Parallel()
	root := filepath.Join(sharedDir(), "corpus/googleapis")
	needShared(t, "corpus/googleapis/google/privacy/dlp/v2/dlp.proto")
	const dlpPath = "google/privacy/dlp/v2/dlp.proto"
	dlp := readFile(t, filepath.Join(root, dlpPath)) + "\nmessage Marker0 { int32 a = 1; }\n"
	session := map[string]any{"files": []map[string]string{
		{"name": "google/privacy/dlp/v2/storage.proto", "text": readFile(t, filepath.Join(root, "google/privacy/dlp/v2/storage.proto"))},
		{"name": dlpPath, "text": dlp},
	}, "active": dlpPath, "options": ""}

	ctx, url := startBrowser(t)
	do(t, ctx, chromedp.Navigate(url+"?timeout=300000"+encodeSession(t, session)))
	waitJS(t, ctx, "dlp.proto's Go", `__protoplay.viewer.state.doc.toString().includes("type Marker0 struct")`, 150*time.Second)
	if st := eval[string](t, ctx, `document.querySelector("[data-testid=status]").dataset.state`); st != "ok" {
		t.Fatalf("status %q after dlp.proto's first compile: %s", st, eval[string](t, ctx, `document.querySelector("[data-testid=status]").textContent`))
	}
	if go_ := eval[string](t, ctx, `__protoplay.viewer.state.doc.toString()`); !strings.Contains(go_, "type InspectContentRequest struct") {
		t.Fatalf("dlp.proto's Go lacks InspectContentRequest (%d bytes shown)", len(go_))
	}
	waitJS(t, ctx, "an idle page", `__protoplay.idle() && __protoplay.core.busy === 0`, 60*time.Second)
	if n := eval[int](t, ctx, `__protoplay.core.restarts`); n != 0 {
		t.Errorf("the Worker was replaced %d times during dlp.proto's first compile", n)
	}
	t.Logf("dlp.proto's first compile: Go on screen at %.0f ms after navigation, last try %.0f ms in the core",
		eval[float64](t, ctx, `__protoplay.stats.firstCompiledMs`), eval[float64](t, ctx, `__protoplay.stats.lastCompileMs`))

	// Record every Go text shown (by marker) and the most compiles of the
	// edits (compile.ts's generate calls, the ones with limits) ever
	// waiting on the Worker at once. The checks of the generated Go ask
	// for generate too (interpreter.ts: the bundled imports' Go, no
	// limits): a round that began in a pause longer than goQuietMs (the
	// wait for an idle page above, on a busy machine) still runs when the
	// edits come, and is not an edit's compile stacking.
	do(t, ctx, script(`
		const v = __protoplay.viewer;
		window.__shown = [];
		window.__maxGenerates = 0;
		const rec = () => { const m = v.state.doc.toString().match(/type (Marker\d+) struct/); __shown.push(m ? m[1] : "none"); };
		const d = v.dispatch.bind(v); v.dispatch = (...a) => { d(...a); rec(); };
		const s = v.setState.bind(v); v.setState = (...a) => { s(...a); rec(); };
		const core = __protoplay.core, call = core.call.bind(core);
		let compiling = 0;
		core.call = (method, params, ...rest) => {
			if (method !== "generate" || !params.limits) return call(method, params, ...rest);
			__maxGenerates = Math.max(__maxGenerates, ++compiling);
			const p = call(method, params, ...rest);
			p.then(() => compiling--, () => compiling--);
			return p;
		};`))
	mark := func(i int) {
		do(t, ctx, script(fmt.Sprintf(`
			const v = __protoplay.editor, d = v.state.doc.toString(), from = d.indexOf("Marker%d");
			v.dispatch({changes: {from, to: from + "Marker%d".length, insert: "Marker%d"}});`, i-1, i-1, i)))
	}
	compiles := eval[int](t, ctx, `__protoplay.stats.compiles`)
	mark(1)
	// The first edit's compile is running (or done, on a fast machine):
	// the next edits come while it runs, 150 ms apart, as typing does.
	waitJS(t, ctx, "the first edit's compile to start", fmt.Sprintf(`__protoplay.core.busy > 0 || __protoplay.stats.compiles > %d`, compiles), 10*time.Second)
	for i := 2; i <= 6; i++ {
		time.Sleep(150 * time.Millisecond) // the person's pace, not a wait for a result
		mark(i)
	}
	shownBefore := eval[int](t, ctx, `__shown.length`)
	waitJS(t, ctx, "the last edit's Go", `__protoplay.viewer.state.doc.toString().includes("type Marker6 struct") && __protoplay.idle()`, 120*time.Second)

	shown := eval[[]string](t, ctx, `__shown`)
	for _, m := range shown[shownBefore:] {
		if m != "Marker6" {
			t.Errorf("after the last edit the Go pane showed %s (a superseded compile's result); shown since the first edit: %v", m, shown)
		}
	}
	if n := eval[int](t, ctx, `__maxGenerates`); n > 1 {
		t.Errorf("%d compiles of edits waited on the Worker at once; edits must supersede, not stack", n)
	}
	final := eval[string](t, ctx, `__protoplay.viewer.state.doc.toString()`)
	for i := 0; i < 6; i++ {
		if strings.Contains(final, fmt.Sprintf("type Marker%d struct", i)) {
			t.Errorf("the final Go still holds Marker%d", i)
		}
	}
	if st := eval[string](t, ctx, `document.querySelector("[data-testid=status]").dataset.state`); st != "ok" {
		t.Errorf("status %q after the edits: %s", st, eval[string](t, ctx, `document.querySelector("[data-testid=status]").textContent`))
	}
	t.Logf("Go texts shown from the first edit on: %v; at most %d compile of an edit waiting on the Worker at once; status: %s", shown, eval[int](t, ctx, `__maxGenerates`), eval[string](t, ctx, `document.querySelector("[data-testid=status]").textContent`))
}
