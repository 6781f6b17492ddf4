package site_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// hoverText moves the mouse over the first occurrence of word on line n
// of the .proto editor and returns the hover tooltip's text.
func hoverText(t *testing.T, ctx context.Context, line int, word string) string {
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
	ctx := openExample(t)
	waitJS(t, ctx, "the symbols", `__protoplay.symbols() && __protoplay.symbols().symbols.length > 5`, 30*time.Second)

	// Line 13 of the example: `  int32 id = 2; // Unique ID number ...`.
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

	// Go to definition, F12, within the file: line 28's PhoneNumber.
	do(t, ctx, script(`const v = __protoplay.editor, l = v.state.doc.line(28); v.focus(); v.dispatch({selection: {anchor: l.from + l.text.indexOf("PhoneNumber") + 2}})`), chromedp.KeyEvent(kb.F12))
	if l := eval[int](t, ctx, `__protoplay.editor.state.doc.lineAt(__protoplay.editor.state.selection.main.head).number`); l != 23 {
		t.Errorf("F12 on PhoneNumber went to line %d, want 23 (message PhoneNumber)", l)
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
