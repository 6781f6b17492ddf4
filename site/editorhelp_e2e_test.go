package site_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// wordPoint returns the page coordinates (x, y) of a point inside the
// first occurrence of word on line n of the .proto editor.
func wordPoint(t *testing.T, ctx context.Context, line int, word string) []float64 {
	t.Helper()
	xy := eval[[]float64](t, ctx, `(() => {
		const v = __protoplay.editor, l = v.state.doc.line(`+itoa(line)+`);
		const i = l.text.indexOf(`+jsString(word)+`);
		if (i < 0) return [];
		const c = v.coordsAtPos(l.from + i + 1);
		return [c.left + 1, (c.top + c.bottom) / 2];
	})()`)
	if len(xy) != 2 {
		t.Fatalf("%q is not on line %d", word, line)
	}
	return xy
}

// hoverText moves the mouse over the first occurrence of word on line n
// of the .proto editor and returns the hover tooltip's text.
func hoverText(t *testing.T, ctx context.Context, line int, word string) string {
	t.Helper()
	xy := wordPoint(t, ctx, line, word)
	do(t, ctx,
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 5, 5),
		chromedp.Sleep(100*time.Millisecond),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, xy[0], xy[1]),
	)
	waitJS(t, ctx, "a hover over "+word, `document.querySelector('[data-testid=hover]')`, 5*time.Second)
	return eval[string](t, ctx, `document.querySelector('[data-testid=hover]').innerText`)
}

// TestEditorHelp: hovering a field shows its full name, number, wire type,
// tag bytes and Go name; hovering a type name shows the type; F12 and
// Ctrl-click on a type name go to its declaration, in another file too.
func TestEditorHelp(t *testing.T) {
	t.Parallel()
	ctx := openExample(t)
	waitJS(t, ctx, "the symbols", `__protoplay.symbols() && __protoplay.symbols().symbols.length > 5`, 30*time.Second)

	// Line 13 of the example: `  int32 id = 2; // Unique ID number ...`.
	// (Before the completion below adds a line after line 12.)
	got := hoverText(t, ctx, 13, "id =")
	for _, want := range []string{"field example.addressbook.v1.Person.id", "field 2 · int32 · wire type 0 (VARINT) · tag 10 · Go: Id"} {
		if !strings.Contains(got, want) {
			t.Errorf("hover on id: %q lacks %q", got, want)
		}
	}
	// Line 28: `  repeated PhoneNumber phones = 4;`: the type, then the field.
	if got := hoverText(t, ctx, 28, "PhoneNumber"); !strings.Contains(got, "message example.addressbook.v1.Person.PhoneNumber") || !strings.Contains(got, "Go: Person_PhoneNumber") {
		t.Errorf("hover on PhoneNumber: %q", got)
	}
	if got := hoverText(t, ctx, 28, "phones"); !strings.Contains(got, "field 4 · repeated example.addressbook.v1.Person.PhoneNumber · wire type 2 (LEN) · tag 22") {
		t.Errorf("hover on phones: %q", got)
	}
	// Line 29: google.protobuf.Timestamp, a built-in file's type.
	if got := hoverText(t, ctx, 29, "Timestamp"); !strings.Contains(got, "message google.protobuf.Timestamp") || !strings.Contains(got, "google/protobuf/timestamp.proto (built in)") {
		t.Errorf("hover on Timestamp: %q", got)
	}

	// Completion: keywords, then the types in scope relative to the
	// file's package. Line 12 is `  string name = 1;`.
	options := `[...document.querySelectorAll('.cm-tooltip-autocomplete li')].map(e => e.innerText)`
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=editor] .cm-line:nth-child(12)`)), chromedp.KeyEvent(kb.End), enterKey(), chromedp.KeyEvent("repe"))
	waitJS(t, ctx, "keyword completions", options+`.some(o => o.startsWith("repeated"))`, 5*time.Second)
	// A person's pause: CodeMirror ignores Enter for 75 ms after the list
	// opens.
	do(t, ctx, chromedp.Sleep(300*time.Millisecond), enterKey(), chromedp.KeyEvent(" Person.PhoneN"))
	waitJS(t, ctx, "type completions", options+`[0]?.startsWith("Person.PhoneNumber")`, 5*time.Second)
	do(t, ctx, chromedp.Sleep(300*time.Millisecond), enterKey())
	if l := eval[string](t, ctx, `__protoplay.editor.state.doc.line(13).text`); l != "  repeated Person.PhoneNumber" {
		t.Errorf("after two completions line 13 is %q; lines 11-15: %q", l, eval[string](t, ctx, `__protoplay.editor.state.sliceDoc(__protoplay.editor.state.doc.line(11).from, __protoplay.editor.state.doc.line(15).to)`))
	}
	n0 := eval[int](t, ctx, compiles)
	do(t, ctx, chromedp.KeyEvent(" more = 40;"))
	settle(t, ctx, n0)
	if d := eval[[]string](t, ctx, diagnostics+`.map(e => e.innerText)`); len(d) != 0 {
		t.Errorf("the completed field does not compile: %q", d)
	}
	waitJS(t, ctx, "symbols of the edited file", `__protoplay.symbols().symbols.some(s => s.name === "example.addressbook.v1.Person.more")`, 30*time.Second)

	// Go to definition, F12, within the file: line 29's PhoneNumber (28
	// before the line added above).
	do(t, ctx, script(`const v = __protoplay.editor, l = v.state.doc.line(29); v.focus(); v.dispatch({selection: {anchor: l.from + l.text.indexOf("PhoneNumber") + 2}})`), chromedp.KeyEvent(kb.F12))
	if l := eval[int](t, ctx, `__protoplay.editor.state.doc.lineAt(__protoplay.editor.state.selection.main.head).number`); l != 24 {
		t.Errorf("F12 on PhoneNumber went to line %d, want 24 (message PhoneNumber)", l)
	}

	// Across files: a second file using example.addressbook.v1.Person.
	n := eval[int](t, ctx, compiles)
	do(t, ctx, script(`
		const dt = new DataTransfer();
		dt.items.add(new File(['syntax = "proto3";\npackage other;\nimport "example.proto";\nmessage Card {\n  example.addressbook.v1.Person who = 1;\n}\n'], 'other.proto'));
		const pane = document.querySelector('.pane.input');
		for (const type of ['dragenter', 'dragover', 'drop']) pane.dispatchEvent(new DragEvent(type, {bubbles: true, cancelable: true, dataTransfer: dt}));`))
	settle(t, ctx, n)
	waitJS(t, ctx, "the new file's symbols", `__protoplay.symbols().references.some(r => r.file === 'other.proto')`, 30*time.Second)
	xy := eval[[]float64](t, ctx, `(() => { const v = __protoplay.editor, l = v.state.doc.line(5); const c = v.coordsAtPos(l.from + l.text.indexOf("Person") + 1); return [c.left + 1, (c.top + c.bottom) / 2]; })()`)
	do(t, ctx,
		chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, xy[0], xy[1], chromedp.ButtonLeft, chromedp.ClickCount(1), chromedp.ButtonModifiers(chromedp.ModifierCtrl)),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, xy[0], xy[1], chromedp.ButtonLeft, chromedp.ClickCount(1), chromedp.ButtonModifiers(chromedp.ModifierCtrl)),
	)
	if f := eval[string](t, ctx, `document.querySelector('[data-testid=file-tab][aria-selected=true]').dataset.name`); f != "example.proto" {
		t.Fatalf("Ctrl-click on Person left %s in view, want example.proto", f)
	}
	if l := eval[int](t, ctx, `__protoplay.editor.state.doc.lineAt(__protoplay.editor.state.selection.main.head).number`); l != 11 {
		t.Errorf("Ctrl-click on Person went to line %d, want 11 (message Person)", l)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// enterKey presses Enter as a keyboard does for a key the page handles:
// key down and up, with no separate character event (chromedp's
// KeyEvent(kb.Enter) also sends a "\r" character, which CodeMirror
// inserts as a second newline).
func enterKey() chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		for _, typ := range []input.DispatchKeyEventType{input.DispatchKeyEventTypeRawKeyDown, input.DispatchKeyEventTypeKeyUp} {
			if _, err := cdp.Call(ctx, tg, input.DispatchKeyEvent, input.DispatchKeyEventParams{Type: typ, Key: "Enter", Code: "Enter", WindowsVirtualKeyCode: 13, NativeVirtualKeyCode: 13}); err != nil {
				return err
			}
		}
		return nil
	})
}
