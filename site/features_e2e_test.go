package site_test

// Issue 14 in a real browser, at a person's pace: the built-in googleapis
// imports, diagnostics while typing (every error, the status, stale
// panels, no flashing Go pane), the examples menu and the phone layout.

import (
	"reflect"
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
		// Two unknown types and a field number used twice: protocompile's
		// validation error alone stops it before linking.
		src := readFile(t, "../testdata/example/example.proto")
		broken := strings.Replace(src, "  string name = 1;", "  string name = 1;\n  Foo foo = 90;\n  Bar bar = 91;\n  int32 again = 90;", 1)
		if broken == src {
			t.Fatal("the example changed: no `string name = 1;` line")
		}
		replaceSource(t, ctx, broken)
		settle(t, ctx, eval[int](t, ctx, compiles)-1)
		diags := eval[[]string](t, ctx, diagnostics+`.map(e => e.dataset.line + ' ' + e.innerText)`)
		want := []string{"unknown type Foo", "unknown type Bar", "same tag 90"}
		if len(diags) != len(want) {
			t.Fatalf("diagnostics %q, want %d", diags, len(want))
		}
		for i, w := range want {
			if !strings.Contains(diags[i], w) {
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
		// broken), at about 8 keys a second.
		do(t, ctx, script(`
			window.__seen = {stale: 0, minOpacity: 1};
			const watch = () => {
				const v = document.querySelector('[data-testid=go-output]');
				if (v.dataset.state === 'stale') __seen.stale++;
				__seen.minOpacity = Math.min(__seen.minOpacity, +getComputedStyle(v.querySelector('.cm-editor')).opacity);
				if (!__seen.stop) requestAnimationFrame(watch);
			};
			requestAnimationFrame(watch);`))
		// Line 12 of the example is `  string name = 1;`.
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=editor] .cm-line:nth-child(12)`)), chromedp.KeyEvent(kb.End), chromedp.KeyEvent(kb.Enter))
		n := eval[int](t, ctx, compiles)
		for _, k := range "int32 typed = 77;" {
			do(t, ctx, chromedp.KeyEvent(string(k)), chromedp.Sleep(120*time.Millisecond))
		}
		settle(t, ctx, n)
		do(t, ctx, script(`__seen.stop = true`))
		if got := eval[int](t, ctx, compiles) - n; got < 5 {
			t.Fatalf("only %d compiles during the typing: the test did not type through broken states", got)
		}
		seen := eval[map[string]float64](t, ctx, `({stale: __seen.stale, minOpacity: __seen.minOpacity})`)
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

// Each example of the Examples menu opens as the workspace and compiles
// with no diagnostics; Undo brings the previous workspace back.
func TestExamplesMenu(t *testing.T) {
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
		if d := eval[[]string](t, ctx, diagnostics+`.map(e => e.innerText)`); len(d) != 0 {
			t.Errorf("%s: diagnostics %q", name, d)
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

// A missing ';' shows the error where protoc puts it (the next token) and a
// note, marked in the editor, at the end of the line where it belongs; the
// status counts the error only.
func TestMissingSemicolonNoteInBrowser(t *testing.T) {
	ctx := openExample(t)
	src := readFile(t, "../testdata/example/example.proto")
	replaceSource(t, ctx, strings.Replace(src, "  string name = 1;", "  string name = 1", 1))
	settle(t, ctx, eval[int](t, ctx, compiles)-1)
	diags := eval[[]map[string]string](t, ctx, diagnostics+`.map(e => ({line: e.dataset.line, cls: e.className, text: e.innerText}))`)
	if len(diags) != 2 || diags[0]["line"] != "12" || !strings.Contains(diags[0]["cls"], "note") || diags[1]["line"] != "13" || !strings.Contains(diags[1]["text"], "expecting ';'") {
		t.Fatalf("diagnostics %v, want a note on line 12 and the error on line 13", diags)
	}
	if s := eval[string](t, ctx, statusText); !strings.HasPrefix(s, "Compile failed: 1 error (") {
		t.Errorf("status %q, want one error and nothing else counted", s)
	}
	if !eval[bool](t, ctx, `!!document.querySelector('[data-testid=editor] .cm-lintRange-info')`) {
		t.Error("the note is not marked in the editor")
	}
}
