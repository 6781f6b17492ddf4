package site_test

// Issue 31 in a real browser, at a person's pace: a baseline of the
// workspace is set, a field's type is changed in the editor, the Changes
// tab lists the breaking change with its rule ID at its place (a click
// goes there), and the bytes encoded with the new schema are read as the
// baseline reads them.

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

const changesSchema = `syntax = "proto3";

package shop.v1;

message Item {
  int32 count = 1;
  string name = 2;
}
`

const (
	changesStatus = `document.querySelector('[data-testid=changes-status]')`
	changeItems   = `[...document.querySelectorAll('[data-testid=change]')]`
	oldDiffs      = `[...document.querySelectorAll('[data-testid=old-reader-diff]')]`
)

func TestChangesAgainstBaseline(t *testing.T) {
	t.Parallel()
	ctx := openExample(t)
	replaceSource(t, ctx, changesSchema)
	settle(t, ctx, 0)

	selectTab(t, ctx, "tab-changes")
	if s := eval[string](t, ctx, changesStatus+`.dataset.state`); s != "none" {
		t.Errorf("before a baseline the status is %q", s)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=baseline-set]`)))
	waitJS(t, ctx, "no breaking change against the baseline just set", changesStatus+`.dataset.state === "clean"`, 30*time.Second)

	// The person selects the field's type in the editor and types another.
	n := eval[int](t, ctx, compiles)
	do(t, ctx,
		script(`const d = __protoplay.editor.state.doc.toString(); const at = d.indexOf("int32 count");
			__protoplay.editor.focus(); __protoplay.editor.dispatch({ selection: { anchor: at, head: at + 5 } })`),
		insertText("sint32"),
	)
	settle(t, ctx, n)
	waitJS(t, ctx, "the type change listed", changeItems+`.some(e => e.dataset.rule === "FIELD_SAME_TYPE")`, 30*time.Second)
	item := eval[string](t, ctx, changeItems+`.find(e => e.dataset.rule === "FIELD_SAME_TYPE").innerText`)
	if !strings.Contains(item, "example.proto:6:3") || !strings.Contains(item, `changed type from "int32" to "sint32"`) {
		t.Errorf("the change reads %q", item)
	}
	if b := eval[string](t, ctx, `document.querySelector('[data-testid=changes-badge]').textContent`); b != "1" {
		t.Errorf("badge %q, want 1", b)
	}
	// WIRE rules see it too: int32 and sint32 are not wire-compatible.
	do(t, ctx, script(`const s = document.querySelector('[data-testid=changes-category]'); s.value = "WIRE"; s.dispatchEvent(new Event('change'))`))
	waitJS(t, ctx, "the WIRE rule", changeItems+`.some(e => e.dataset.rule === "FIELD_WIRE_COMPATIBLE_TYPE")`, 30*time.Second)

	// A click goes to the place: line 6 of example.proto, at the type.
	time.Sleep(300 * time.Millisecond) // a person reads the list
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=change][data-rule=FIELD_WIRE_COMPATIBLE_TYPE]`)))
	waitJS(t, ctx, "the cursor on line 6", `(() => { const s = __protoplay.editor.state; const l = s.doc.lineAt(s.selection.main.head); return l.number === 6 && s.selection.main.head - l.from === 2 })()`, 10*time.Second)

	// New bytes: count -3 as the sint32 field writes it (ZigZag: 5).
	selectTab(t, ctx, "tab-payload")
	pickType(t, ctx, "shop.v1.Item")
	time.Sleep(300 * time.Millisecond) // a person reads the sample
	pasteInto(t, ctx, "hex-input", "08 05 12 03 68 61 74")
	waitJS(t, ctx, "the bytes decoded with the current schema", jsonText+`.includes('"count": -3')`, 30*time.Second)

	selectTab(t, ctx, "tab-changes")
	waitJS(t, ctx, "the old reader's view", oldDiffs+`.some(e => e.dataset.path === "count")`, 30*time.Second)
	diff := eval[string](t, ctx, oldDiffs+`.find(e => e.dataset.path === "count").innerText`)
	for _, want := range []string{"value", "now: count sint32 = -3", "old reader: count int32 = 5"} {
		if !strings.Contains(diff, want) {
			t.Errorf("the old reader's difference lacks %q:\n%s", want, diff)
		}
	}
	if n := eval[int](t, ctx, oldDiffs+`.length`); n != 1 {
		t.Errorf("%d differences, want 1 (name is read alike)", n)
	}
	// The old reader's wire view shows the bytes with its own types.
	if v := eval[string](t, ctx, `document.querySelector('[data-testid=old-reader-view]').innerText`); !strings.Contains(v, "int32") || !strings.Contains(v, "5") || !strings.Contains(v, `"hat"`) {
		t.Errorf("the old reader's wire view:\n%s", v)
	}
	// Clearing the baseline clears the panel.
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=baseline-clear]`)))
	waitJS(t, ctx, "no baseline", changesStatus+`.dataset.state === "none" && `+changeItems+`.length === 0 && `+oldDiffs+`.length === 0`, 10*time.Second)
}
