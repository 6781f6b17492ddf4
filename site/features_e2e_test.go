package site_test

// Issue 14 in a real browser, at a person's pace: the built-in googleapis
// imports, diagnostics while typing (every error, the status, stale
// panels, no flashing Go pane), the examples menu and the phone layout.

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

const statusText = `document.querySelector('[data-testid=status-text]').textContent`

// A file importing google/api/annotations.proto (and client, resource,
// field_behavior, longrunning, google/type/date.proto) compiles in the
// page with no other files: the googleapis files are built in.
func TestGoogleAPIsImportInBrowser(t *testing.T) {
	t.Parallel()
	ctx := openExample(t)
	replaceSource(t, ctx, readFile(t, "../testdata/examples/service.proto"))
	waitJS(t, ctx, "the library's Go", goText+`.includes("type Book struct") && __protoplay.idle()`, 30*time.Second)
	if d := eval[[]string](t, ctx, diagnostics+`.map(e => e.innerText)`); len(d) != 0 {
		t.Fatalf("diagnostics: %q", d)
	}
	code := eval[string](t, ctx, goText)
	if !strings.Contains(code, `"google.golang.org/genproto/googleapis/type/date"`) || !strings.Contains(code, "Published *date.Date") {
		t.Errorf("the Go does not use google/type/date.proto's package:\n%.1500s", code)
	}
}

func TestDiagnosticsWhileTyping(t *testing.T) {
	t.Parallel()
	ctx := openExample(t)
	stale := func(id string) bool {
		return eval[bool](t, ctx, `!document.querySelector('[data-testid=`+id+`]').hidden`)
	}

	t.Run("every error, the status says failed, the panels say stale", func(t *testing.T) {
		selectTab(t, ctx, "tab-checks")
		waitJS(t, ctx, "checks", `document.querySelector('[data-testid=checks]').dataset.state === 'done'`, 30*time.Second)
		if stale("checks-stale") || stale("payload-stale") {
			t.Fatal("panels say stale before any error")
		}
		// Two unknown types and a field number used twice: every one is
		// reported, each on its line.
		src := readFile(t, "../testdata/example/example.proto")
		broken := strings.Replace(src, "  string name = 1;", "  string name = 1;\n  Foo foo = 90;\n  Bar bar = 91;\n  int32 again = 90;", 1)
		if broken == src {
			t.Fatal("the example changed: no `string name = 1;` line")
		}
		replaceSource(t, ctx, broken)
		settle(t, ctx, eval[int](t, ctx, compiles)-1)
		diags := eval[[]string](t, ctx, diagnostics+`.map(e => e.dataset.line + ' ' + e.innerText)`)
		want := [][2]string{{"13 example.proto:13:3", "cannot find `Foo` in this scope"}, {"14 example.proto:14:3", "cannot find `Bar` in this scope"}, {"15 example.proto:15:17", "field number `90` used more than once"}}
		if len(diags) != len(want) {
			t.Fatalf("diagnostics %q, want %d", diags, len(want))
		}
		for i, w := range want {
			if !strings.HasPrefix(diags[i], w[0]) || !strings.Contains(diags[i], w[1]) {
				t.Errorf("diagnostic %d = %q, want %q (in source order)", i, diags[i], w)
			}
		}
		if s := eval[string](t, ctx, statusText); !strings.HasPrefix(s, "Compile failed: 3 errors") {
			t.Errorf("status %q, want Compile failed: 3 errors", s)
		}
		if !stale("checks-stale") {
			t.Error("Checks do not say they are stale")
		}
		if !stale("payload-stale") {
			t.Error("Encode/decode does not say it uses the last good schema")
		}
		// The fix clears them.
		replaceSource(t, ctx, src)
		settle(t, ctx, eval[int](t, ctx, compiles)-1)
		if s := eval[string](t, ctx, statusText); !strings.HasPrefix(s, "Compiled in") {
			t.Errorf("status %q after the fix", s)
		}
		if stale("checks-stale") || stale("payload-stale") {
			t.Error("panels still say stale after the fix")
		}
	})

	t.Run("the Go pane does not flash while typing", func(t *testing.T) {
		selectTab(t, ctx, "tab-go")
		// Watch the pane's state and opacity at every frame while a field
		// is typed key by key (all but the last key leave the schema
		// broken), at about 8 keys a second. The page marks the pane stale
		// when a failed compile is the latest 800 ms after the last edit
		// (gopane.ts staleAfterMs): a pause, not typing. On a loaded
		// machine a key can reach the page later than that after the one
		// before (each key is a round trip to the browser), which to
		// the page is such a pause; the frames from the
		// first gap of staleGapMs between keys on are not judged, and how
		// many were is logged.
		do(t, ctx, script(`
			window.__seen = {stale: 0, minOpacity: 1, judged: 0, lastKey: 0, gap: 0};
			const noteGap = (now) => {
				if (__seen.lastKey && !__seen.gap && now - __seen.lastKey >= `+strconv.Itoa(staleGapMs)+`) __seen.gap = now - __seen.lastKey;
			};
			document.addEventListener('keydown', () => {
				const now = performance.now();
				noteGap(now);
				__seen.lastKey = now;
			}, true);
			const watch = () => {
				const now = performance.now();
				if (!__seen.typed) noteGap(now);
				if (__seen.lastKey && !__seen.gap) {
					__seen.judged++;
					const v = document.querySelector('[data-testid=go-output]');
					if (v.dataset.state === 'stale') __seen.stale++;
					__seen.minOpacity = Math.min(__seen.minOpacity, +getComputedStyle(v.querySelector('.cm-editor')).opacity);
				}
				if (!__seen.stop) requestAnimationFrame(watch);
			};
			requestAnimationFrame(watch);`))
		// Line 12 of the example is `  string name = 1;`.
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=editor] .cm-line:nth-child(12)`)), chromedp.KeyEvent(kb.End), chromedp.KeyEvent(kb.Enter))
		// The new line's own compile (a valid schema) is not one of the
		// typing's.
		waitJS(t, ctx, "the page idle after the new line", `__protoplay.idle()`, 30*time.Second)
		n := eval[int](t, ctx, compiles)
		keys := "int32 typed = 77;"
		for i, k := range keys {
			do(t, ctx, chromedp.KeyEvent(string(k)), chromedp.Sleep(120*time.Millisecond))
			if i == len(keys)-2 {
				// The frames up to the last key (the semicolon) are
				// judged: the schema is broken until it.
				do(t, ctx, script(`__seen.typed = true`))
			}
		}
		settle(t, ctx, n)
		do(t, ctx, script(`__seen.stop = true`))
		// Every state before the last key (the semicolon) is broken, so
		// any compile but the last is of a broken schema: two are enough
		// to have typed through one. (A busy machine merges the keys into
		// fewer compiles: 4 at load 20.)
		if got := eval[int](t, ctx, compiles) - n; got < 2 {
			t.Fatalf("only %d compiles during the typing: the test did not type through broken states", got)
		}
		seen := eval[map[string]float64](t, ctx, `({stale: __seen.stale, minOpacity: __seen.minOpacity, judged: __seen.judged, gap: __seen.gap})`)
		if seen["gap"] > 0 {
			t.Logf("a key reached the page %.0f ms after the one before (a pause to the page): %v frames judged, up to it", seen["gap"], seen["judged"])
		} else {
			t.Logf("%v frames judged while typing", seen["judged"])
		}
		if seen["stale"] > 0 || seen["minOpacity"] < 0.99 {
			t.Errorf("the Go pane was dimmed while typing: %v frames stale, opacity down to %v", seen["stale"], seen["minOpacity"])
		}
		if !eval[bool](t, ctx, goText+`.includes("Typed")`) {
			t.Error("the typed field is not in the Go")
		}
		// An error left standing is marked, after a moment.
		do(t, ctx, chromedp.KeyEvent(kb.Backspace))
		waitJS(t, ctx, "the pane marked stale", goState+` === "stale"`, 5*time.Second)
		// The dimming is a CSS transition: wait for where it ends, not
		// for its duration (a loaded machine paints late).
		waitJS(t, ctx, "the stale pane dimmed to opacity 0.6 or less",
			`+getComputedStyle(document.querySelector('[data-testid=go-output] .cm-editor')).opacity <= 0.6`, 30*time.Second)
	})
}

// staleGapMs: a gap between two keys this long (the page's staleAfterMs,
// 800, less a margin) is a pause to the page, after which it may mark the
// Go pane stale.
const staleGapMs = 700

// exampleWarnings are the warnings the examples of the Examples menu
// compile with, as the problems list shows them (class, then text).
var exampleWarnings = map[string][]string{
	"search.proto": {
		"diag warning search.proto:12:3 required fields are deprecated",
		"diag warning search.proto:26:12 group syntax is deprecated",
		"diag warning search.proto:27:5 required fields are deprecated",
		"diag warning search.proto:36:12 group syntax is deprecated",
		"diag warning search.proto:37:5 required fields are deprecated",
		"diag warning search.proto:41:40 redundant custom default",
	},
	"account.proto": {"diag warning account.proto:35:47 required fields are deprecated"},
}

// Each example of the Examples menu opens as the workspace and compiles
// with no error (exampleWarnings are its only diagnostics); Undo brings
// the previous workspace back.
func TestExamplesMenu(t *testing.T) {
	t.Parallel()
	ctx := openExample(t)
	before := eval[map[string]string](t, ctx, `__protoplay.sources()`)
	// Each example's compile is slow on a loaded machine: give them time.
	names := eval[[]string](t, ctx, `(() => { document.querySelector('[data-testid=examples-button]').click(); const r = [...document.querySelectorAll('[data-testid=example-item]')].map(e => e.dataset.name); document.querySelector('[data-testid=examples-button]').click(); return r; })()`)
	if len(names) < 5 {
		t.Fatalf("examples %q, want at least 5", names)
	}
	for _, name := range names {
		n := eval[int](t, ctx, compiles)
		do(t, ctx,
			chromedp.Click(chromedp.CSS(`[data-testid=examples-button]`)),
			chromedp.Click(chromedp.CSS(`[data-testid=example-item][data-name="`+name+`"]`)),
		)
		settle(t, ctx, n)
		if got := eval[[]string](t, ctx, fileTabs); len(got) != 1 || got[0] != name {
			t.Errorf("%s: tabs %q", name, got)
		}
		// The compiler's warnings are the only diagnostics: the proto2
		// and edition 2023 examples show required fields, groups and a
		// custom default, which it calls deprecated or redundant.
		d := eval[[]string](t, ctx, diagnostics+`.map(e => e.className + ' ' + e.innerText.replace(/\s+/g, ' '))`)
		if !slices.Equal(d, exampleWarnings[name]) {
			t.Errorf("%s: diagnostics %q, want %q", name, d, exampleWarnings[name])
		}
		if s := eval[string](t, ctx, statusText); !strings.HasPrefix(s, "Compiled in") || eval[string](t, ctx, goState) != "ok" {
			t.Errorf("%s: status %q, Go %s", name, s, eval[string](t, ctx, goState))
		}
		t.Logf("%s: %s", name, eval[string](t, ctx, statusText))
	}
	// Undo, right after opening one, brings the workspace before it back.
	replaceSource(t, ctx, before["example.proto"]+"\n// mine\n")
	mine := eval[map[string]string](t, ctx, `__protoplay.sources()`)
	n := eval[int](t, ctx, compiles)
	do(t, ctx,
		chromedp.Click(chromedp.CSS(`[data-testid=examples-button]`)),
		chromedp.Click(chromedp.CSS(`[data-testid=example-item][data-name="search.proto"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid=toast-action]`)),
	)
	settle(t, ctx, n)
	if got := eval[map[string]string](t, ctx, `__protoplay.sources()`); !reflect.DeepEqual(got, mine) {
		t.Errorf("undo gave %v, want the workspace before the example", keys(got))
	}
}

// A missing ';' shows the error where protoc puts it (the next token),
// marked in the editor; the status counts the error only. (Where the ';'
// belongs is the error's suggested edit, not a note of its own.)
func TestMissingSemicolonNoteInBrowser(t *testing.T) {
	t.Parallel()
	ctx := openExample(t)
	src := readFile(t, "../testdata/example/example.proto")
	replaceSource(t, ctx, strings.Replace(src, "  string name = 1;", "  string name = 1", 1))
	settle(t, ctx, eval[int](t, ctx, compiles)-1)
	diags := eval[[]map[string]string](t, ctx, diagnostics+`.map(e => ({line: e.dataset.line, cls: e.className, text: e.innerText}))`)
	if len(diags) != 1 || diags[0]["line"] != "13" || !strings.Contains(diags[0]["cls"], "error") || !strings.Contains(diags[0]["text"], "unexpected `int32` after definition") {
		t.Fatalf("diagnostics %v, want the error on line 13", diags)
	}
	if s := eval[string](t, ctx, statusText); !strings.HasPrefix(s, "Compile failed: 1 error (") {
		t.Errorf("status %q, want one error and nothing else counted", s)
	}
	if !eval[bool](t, ctx, `!!document.querySelector('[data-testid=editor] .cm-lintRange-error')`) {
		t.Error("the error is not marked in the editor")
	}
}
