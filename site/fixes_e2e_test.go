package site_test

// Every diagnostic of a compile in the problems list, and a suggested
// edit applied with one click, at a person's pace: each step waits for
// the state it leads to (a compile back, the page idle), never for a
// fixed time.

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// TestEveryErrorInThreeFilesInBrowser: testdata/fiveerrors (five errors in
// three files) shows five error diagnostics in the problems list, each at
// its file and line, and the status counts five; clicking the one in
// c.proto opens c.proto at it.
func TestEveryErrorInThreeFilesInBrowser(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "testdata", "fiveerrors")
	var files []map[string]string
	for _, f := range []string{"a.proto", "b.proto", "c.proto"} {
		files = append(files, map[string]string{"name": f, "text": readFile(t, filepath.Join(dir, f))})
	}
	ctx, url := startBrowser(t)
	do(t, ctx, chromedp.Navigate(url+"?timeout=300000"+encodeSession(t, map[string]any{"files": files, "active": "a.proto", "options": ""})))
	waitJS(t, ctx, "the five files' diagnostics", compiles+` > 0 && __protoplay.idle() && `+diagnostics+`.length > 0`, 60*time.Second)
	got := eval[[]string](t, ctx, diagnostics+`.map(e => e.className + ' ' + e.dataset.file + ':' + e.dataset.line + ' ' + e.querySelector('.msg').textContent)`)
	want := []string{
		"diag error a.proto:6 cannot find `Missing` in this scope",
		"diag error a.proto:8 field number `2` used more than once",
		"diag error b.proto:4 field number out of range",
		"diag error c.proto:4 first value of open enum must be zero",
		"diag error c.proto:7 custom default in \"proto3\"",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems list:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s := eval[string](t, ctx, statusText); !strings.HasPrefix(s, "Compile failed: 5 errors (") {
		t.Errorf("status %q, want Compile failed: 5 errors", s)
	}
	// A diagnostic in another file opens that file, its error marked.
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=diagnostic][data-file="c.proto"][data-line="7"]`)))
	waitJS(t, ctx, "c.proto open in the editor", `__protoplay.editor.state.doc.toString().includes("enum C") && !!document.querySelector('[data-testid=editor] .cm-lintRange-error')`, 30*time.Second)
	line := eval[int](t, ctx, `__protoplay.editor.state.doc.lineAt(__protoplay.editor.state.selection.main.head).number`)
	if line != 7 {
		t.Errorf("the cursor is on line %d of c.proto, want 7", line)
	}
}

// TestFixButtonInBrowser: a missing ';' is an error whose suggested edit
// (insert ";" where it belongs) is a Fix button in the problems list;
// clicking it, as a person would, puts the ';' back, and the compile that
// follows has no error; one Undo takes the fix back.
func TestFixButtonInBrowser(t *testing.T) {
	t.Parallel()
	ctx := openExample(t)
	src := readFile(t, "../testdata/example/example.proto")
	broken := strings.Replace(src, "  string name = 1;", "  string name = 1", 1)
	replaceSource(t, ctx, broken)
	waitJS(t, ctx, "the error and its fix", `__protoplay.idle() && !!document.querySelector('[data-testid=diagnostic-fix]')`, 30*time.Second)
	label := eval[string](t, ctx, `document.querySelector('[data-testid=diagnostic-fix]').getAttribute('aria-label')`)
	row := eval[string](t, ctx, `document.querySelector('[data-testid=diagnostic-fix]').closest('.diag-row').querySelector('[data-testid=diagnostic]').innerText`)
	if label != "Fix: consider inserting a `;`" || !strings.Contains(row, "unexpected `int32` after definition") {
		t.Fatalf("fix %q beside %q, want the ';' insertion beside the error", label, row)
	}
	n := eval[int](t, ctx, compiles)
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=diagnostic-fix]`)))
	waitJS(t, ctx, "the compile after the fix", fmt.Sprintf(`%s > %d && __protoplay.idle()`, compiles, n), 30*time.Second)
	if got := eval[string](t, ctx, `__protoplay.sources()["example.proto"]`); got != src {
		t.Errorf("after the fix the source is not the example again:\n%s", got)
	}
	if s := eval[string](t, ctx, statusText); !strings.HasPrefix(s, "Compiled in") {
		t.Errorf("status %q after the fix, want Compiled in", s)
	}
	if d := eval[[]string](t, ctx, diagnostics+`.map(e => e.innerText)`); len(d) != 0 {
		t.Errorf("diagnostics after the fix: %q", d)
	}
	// One Undo takes the whole fix back.
	n = eval[int](t, ctx, compiles)
	do(t, ctx, script(`__protoplay.editor.focus()`), chromedp.KeyEvent("z", ctrl))
	waitJS(t, ctx, "the compile after the undo", fmt.Sprintf(`%s > %d && __protoplay.idle()`, compiles, n), 30*time.Second)
	if got := eval[string](t, ctx, `__protoplay.sources()["example.proto"]`); got != broken {
		t.Errorf("undo after the fix gave:\n%s\nwant the broken source again", got)
	}
}

// TestDiagnosticNotesAndLintFixInBrowser: a diagnostic's notes and help
// show under it in the problems list and in the lint tooltip of its mark
// in the editor; a note about another place goes there when clicked; and a
// suggested edit is an action in the tooltip that fixes the error, as the
// Fix button does.
func TestDiagnosticNotesAndLintFixInBrowser(t *testing.T) {
	t.Parallel()
	ctx := openExample(t)
	src := readFile(t, "../testdata/example/example.proto")
	broken := strings.Replace(src, "  string name = 1;\n", "  string name = 1;\n  required int32 extra = 90;\n  int32 packed_one = 91 [packed = true];\n", 1)
	if broken == src {
		t.Fatal("the example changed: no `string name = 1;` line")
	}
	replaceSource(t, ctx, broken)
	waitJS(t, ctx, "the two errors", `__protoplay.idle() && `+diagnostics+`.length === 2`, 30*time.Second)

	// The problems list: each error, then its notes and help, as the CLI
	// prints them.
	got := eval[[]string](t, ctx, `[...document.querySelectorAll('[data-testid=diagnostics] [data-testid=diagnostic], [data-testid=diagnostic-note], [data-testid=diagnostic-help]')].map(e => e.dataset.testid + ' ' + e.innerText.replace(/\s+/g, ' ').trim())`)
	want := []string{
		"diagnostic example.proto:13:3 unexpected `required`",
		"diagnostic-help help: required fields are only permitted in proto2; even then, their use is strongly discouraged",
		"diagnostic example.proto:14:3 expected repeated field, found singular field",
		"diagnostic-note note: example.proto:14:35: packed encoding set here",
		"diagnostic-help help: packed encoding can only be set on repeated fields of integer, float, `bool`, or enum type",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems list:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The note's place, clicked, is where the cursor goes.
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=diagnostic-note]`)))
	waitJS(t, ctx, "the cursor at the note's place", `(() => { const v = __protoplay.editor, h = v.state.selection.main.head, l = v.state.doc.lineAt(h); return l.number === 14 && h - l.from === 34; })()`, 10*time.Second)

	// The lint tooltip of the packed error: its message, note and help.
	tip := lintTooltip(t, ctx, 14, "int32 packed_one")
	for _, w := range []string{"expected repeated field, found singular field", "note: example.proto:14:35: packed encoding set here", "help: packed encoding can only be set on repeated fields"} {
		if !strings.Contains(tip, w) {
			t.Errorf("the packed error's tooltip %q lacks %q", tip, w)
		}
	}
	// The tooltip of the `required` error: its help and its fix as an
	// action, which a click applies.
	tip = lintTooltip(t, ctx, 13, "required")
	if !strings.Contains(tip, "unexpected `required`") || !strings.Contains(tip, "help: required fields are only permitted in proto2") {
		t.Errorf("the required error's tooltip %q lacks its message or help", tip)
	}
	action := `document.querySelector('.cm-tooltip-lint .cm-diagnosticAction')`
	if name := eval[string](t, ctx, action+`?.innerText ?? ""`); name != "Fix: delete it" {
		t.Fatalf("the tooltip's action is %q, want Fix: delete it", name)
	}
	n := eval[int](t, ctx, compiles)
	do(t, ctx, chromedp.Click(chromedp.CSS(`.cm-tooltip-lint .cm-diagnosticAction`)))
	waitJS(t, ctx, "the compile after the fix", fmt.Sprintf(`%s > %d && __protoplay.idle()`, compiles, n), 30*time.Second)
	fixed := strings.Replace(broken, "  required int32 extra = 90;", "  int32 extra = 90;", 1)
	if got := eval[string](t, ctx, `__protoplay.sources()["example.proto"]`); got != fixed {
		t.Errorf("after the fix the source is:\n%s\nwant `required ` deleted", got)
	}
	if d := eval[[]string](t, ctx, diagnostics+`.map(e => e.dataset.line + ' ' + e.querySelector('.msg').textContent)`); len(d) != 1 || d[0] != "14 expected repeated field, found singular field" {
		t.Errorf("diagnostics after the fix: %q, want the packed error alone", d)
	}
}

// lintTooltip moves the mouse away, then over the first occurrence of
// word on line n of the .proto editor (inside an error's mark), waits for
// the lint tooltip and returns its text.
func lintTooltip(t *testing.T, ctx context.Context, line int, word string) string {
	t.Helper()
	xy := wordPoint(t, ctx, line, word)
	do(t, ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 5, 5))
	waitJS(t, ctx, "no lint tooltip", `!document.querySelector('.cm-tooltip-lint')`, 5*time.Second)
	do(t, ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, xy[0], xy[1]))
	waitJS(t, ctx, "the lint tooltip over "+word, `document.querySelector('.cm-tooltip-lint')`, 5*time.Second)
	return eval[string](t, ctx, `document.querySelector('.cm-tooltip-lint').innerText`)
}
