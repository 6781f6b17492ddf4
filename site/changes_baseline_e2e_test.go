package site_test

// Issue 31's other two ways to a baseline, in a real browser at a
// person's pace: files picked with "Baseline from files…", and the files
// of a share link pasted in "Baseline from a share link…". Each time the
// panel says where the baseline came from and lists the breaking change
// from it, with its rule ID at its place in the current file.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

const baselineSource = `document.querySelector('[data-testid=baseline-source]')`

// TestChangesBaselineFromUpload: an older example.proto, where count was
// an int64, is picked as the baseline; the current int32 is a type change
// at line 6.
func TestChangesBaselineFromUpload(t *testing.T) {
	t.Parallel()
	old := filepath.Join(t.TempDir(), "example.proto")
	if err := os.WriteFile(old, []byte(strings.Replace(changesSchema, "int32 count", "int64 count", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := openExample(t)
	replaceSource(t, ctx, changesSchema)
	settle(t, ctx, 0)

	selectTab(t, ctx, "tab-changes")
	if !eval[bool](t, ctx, baselineSource+`.hidden`) {
		t.Error("the baseline's source is shown before there is a baseline")
	}
	// The person presses the button (it opens the picker) and picks the file.
	do(t, ctx,
		script(`document.querySelector('[data-testid=baseline-upload-input]').addEventListener('click', e => { e.target.dataset.opened = "1"; e.preventDefault() }, { once: true })`),
		chromedp.Click(chromedp.CSS(`[data-testid=baseline-upload]`)),
	)
	waitJS(t, ctx, "the picker opened", `document.querySelector('[data-testid=baseline-upload-input]').dataset.opened === "1"`, 10*time.Second)
	do(t, ctx, chromedp.SetUploadFiles(chromedp.CSS(`[data-testid=baseline-upload-input]`), []string{old}))

	waitJS(t, ctx, "the type change listed", changeItems+`.some(e => e.dataset.rule === "FIELD_SAME_TYPE")`, 30*time.Second)
	item := eval[string](t, ctx, changeItems+`.find(e => e.dataset.rule === "FIELD_SAME_TYPE").innerText`)
	if !strings.Contains(item, "example.proto:6:3") || !strings.Contains(item, `changed type from "int64" to "int32"`) {
		t.Errorf("the change reads %q", item)
	}
	if s := eval[string](t, ctx, changesStatus+`.dataset.state`); s != "breaking" {
		t.Errorf("status %q, want breaking", s)
	}
	if s := eval[string](t, ctx, baselineSource+`.textContent`); s != "Baseline: uploaded example.proto." {
		t.Errorf("the baseline's source reads %q", s)
	}
	// The workspace is not touched: one file, as typed.
	if n := eval[int](t, ctx, `Object.keys(__protoplay.sources()).length`); n != 1 {
		t.Errorf("%d files in the workspace, want 1", n)
	}
	if !eval[bool](t, ctx, `__protoplay.editor.state.doc.toString().includes("int32 count")`) {
		t.Error("the editor's file changed")
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=baseline-clear]`)))
	waitJS(t, ctx, "no baseline", changesStatus+`.dataset.state === "none" && `+changeItems+`.length === 0 && `+baselineSource+`.hidden`, 10*time.Second)
	// The same file dropped on the panel is the baseline again.
	b, err := os.ReadFile(old)
	if err != nil {
		t.Fatal(err)
	}
	do(t, ctx, script(`(() => {
		const dt = new DataTransfer();
		dt.items.add(new File([`+jsString(string(b))+`], "example.proto"));
		const panel = document.querySelector('.tabpanel.changes');
		for (const type of ['dragover', 'drop']) panel.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
	})()`))
	waitJS(t, ctx, "the dropped baseline's change listed", changeItems+`.some(e => e.dataset.rule === "FIELD_SAME_TYPE") && `+baselineSource+`.textContent === "Baseline: uploaded example.proto."`, 30*time.Second)
}

// TestChangesBaselineFromShareLink: a share link of a version with a
// third field, sold, is pasted as the baseline; the current Item lacks it.
// A link without a session is refused first, with the reason.
func TestChangesBaselineFromShareLink(t *testing.T) {
	t.Parallel()
	oldSchema := strings.Replace(changesSchema, "string name = 2;", "string name = 2;\n  bool sold = 3;", 1)
	ctx, url := startBrowser(t)
	link := url + encodeSession(t, map[string]any{
		"files":   []map[string]string{{"name": "example.proto", "text": oldSchema}},
		"active":  "example.proto",
		"options": "",
	})
	do(t, ctx, chromedp.Navigate(url+"?timeout=300000"))
	waitJS(t, ctx, "the example's Go", compiles+` > 0 && `+goText+`.includes("type Person struct") && __protoplay.idle()`, 60*time.Second)
	replaceSource(t, ctx, changesSchema)
	settle(t, ctx, 0)

	selectTab(t, ctx, "tab-changes")
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=baseline-link]`)))
	waitJS(t, ctx, "the link box, focused", `document.activeElement === document.querySelector('[data-testid=baseline-link-input]')`, 10*time.Second)

	pasteInto(t, ctx, "baseline-link-input", url)
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=baseline-link-use]`)))
	waitJS(t, ctx, "the reason a link is refused", `document.querySelector('[data-testid=baseline-link-error]').textContent.includes("no #s=")`, 10*time.Second)
	if s := eval[string](t, ctx, changesStatus+`.dataset.state`); s != "none" {
		t.Errorf("after a refused link the status is %q", s)
	}

	pasteInto(t, ctx, "baseline-link-input", link)
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=baseline-link-use]`)))
	waitJS(t, ctx, "the deleted field listed", changeItems+`.some(e => e.dataset.rule === "FIELD_NO_DELETE")`, 30*time.Second)
	item := eval[string](t, ctx, changeItems+`.find(e => e.dataset.rule === "FIELD_NO_DELETE").innerText`)
	if !strings.Contains(item, "example.proto:5:1") || !strings.Contains(item, `"sold"`) {
		t.Errorf("the change reads %q", item)
	}
	if s := eval[string](t, ctx, baselineSource+`.textContent`); s != "Baseline: the file of a share link (example.proto)." {
		t.Errorf("the baseline's source reads %q", s)
	}
	if !eval[bool](t, ctx, `document.querySelector('[data-testid=baseline-link-form]').hidden`) {
		t.Error("the link box stays open")
	}
	// The link is the baseline, not the session: the editor keeps its file.
	if !eval[bool](t, ctx, `__protoplay.editor.state.doc.toString().includes("int32 count") && !__protoplay.editor.state.doc.toString().includes("sold")`) {
		t.Error("the editor's file changed")
	}

	// Set baseline replaces it with the current files, at a time.
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=baseline-set]`)))
	waitJS(t, ctx, "no breaking change against the current files", changesStatus+`.dataset.state === "clean" && `+baselineSource+`.textContent.startsWith("Baseline: the current files at ")`, 30*time.Second)
}
