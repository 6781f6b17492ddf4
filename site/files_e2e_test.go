package site_test

// The workspace's files in a real browser, at a person's pace: each step
// waits for the compile it started to come back before the next, since a
// test that types faster than the compile returns hides the bugs of a
// re-render (issue 14: the name box lost when the compile returned, the
// double-click lost to the first click's re-render).

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

const (
	fileTabs   = `[...document.querySelectorAll('[data-testid=file-tab]')].map(e => e.dataset.name)`
	goFileTabs = `[...document.querySelectorAll('[data-testid=go-file-tab]')].map(e => e.dataset.name)`
	renameBox  = `document.querySelector('[data-testid=rename-file]')`
)

// settle waits until the page has compiled at least once more than n
// times and has no compile running or waiting.
func settle(t *testing.T, ctx context.Context, n int) {
	t.Helper()
	waitJS(t, ctx, "the compile to settle", fmt.Sprintf("%s > %d && __protoplay.idle()", compiles, n), 30*time.Second)
	time.Sleep(250 * time.Millisecond) // and the follow-ups (checks, payload)
}

// openExample loads the page and waits for the browser's own compile of
// the example. The page's limit on one call to its core (10 s, which stops
// and restarts the core) is raised to 5 minutes (?timeout=MS): these tests
// are about what the page shows, and on a loaded machine a compile can
// take longer than the limit; the tests of the limit set their own.
func openExample(t *testing.T) context.Context {
	t.Helper()
	ctx, url := startBrowser(t)
	do(t, ctx, chromedp.Navigate(url+"?timeout=300000"))
	waitJS(t, ctx, "the example's Go", compiles+` > 0 && `+goText+`.includes("type Person struct") && __protoplay.idle()`, 60*time.Second)
	return ctx
}

// humanDoubleClick clicks the element twice as a person does: press and
// release, a pause (the first click's handlers run, the page may
// re-render), press and release again with clickCount 2, at the same
// point.
func humanDoubleClick(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	r := eval[[]float64](t, ctx, `(() => { const b = document.querySelector(`+jsString(sel)+`).getBoundingClientRect(); return [b.x + 12, b.y + b.height / 2]; })()`)
	x, y := r[0], r[1]
	do(t, ctx,
		chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, x, y, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, x, y, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.Sleep(120*time.Millisecond),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, x, y, chromedp.ButtonLeft, chromedp.ClickCount(2)),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, x, y, chromedp.ButtonLeft, chromedp.ClickCount(2)),
	)
}

func TestFiles(t *testing.T) {
	t.Parallel()
	ctx := openExample(t)

	t.Run("a name typed right after + survives the compile", func(t *testing.T) {
		n := eval[int](t, ctx, compiles)
		// Click + and type at once: the first letters land in the box
		// before the compile the new file started has returned.
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=add-file]`)), chromedp.KeyEvent("no"))
		settle(t, ctx, n)
		if !eval[bool](t, ctx, renameBox+` && document.activeElement === `+renameBox) {
			t.Fatalf("the name box is gone (or lost the focus) after the compile returned; tabs %q", eval[[]string](t, ctx, fileTabs))
		}
		if v := eval[string](t, ctx, renameBox+`.value`); v != "no.proto" {
			t.Errorf("name box holds %q after typing \"no\", want no.proto (the name without its extension selected)", v)
		}
		n = eval[int](t, ctx, compiles)
		do(t, ctx, chromedp.KeyEvent("tes"), chromedp.KeyEvent(kb.Enter))
		settle(t, ctx, n)
		if got := eval[[]string](t, ctx, fileTabs); !reflect.DeepEqual(got, []string{"example.proto", "notes.proto"}) {
			t.Fatalf("tabs %q, want example.proto and notes.proto", got)
		}
		if eval[bool](t, ctx, renameBox+` !== null`) {
			t.Error("the name box is still open after Enter")
		}
		if src := eval[string](t, ctx, `__protoplay.sources()["notes.proto"]`); !strings.Contains(src, `import "notes.proto";`) {
			t.Errorf("the new file's own import hint was not renamed:\n%s", src)
		}
		if got := eval[[]string](t, ctx, goFileTabs); len(got) != 2 {
			t.Errorf("Go files %q, want one per .proto", got)
		}
	})

	t.Run("two new files do not clash", func(t *testing.T) {
		for i := 0; i < 2; i++ {
			n := eval[int](t, ctx, compiles)
			do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=add-file]`)))
			settle(t, ctx, n)
			do(t, ctx, chromedp.KeyEvent(kb.Enter)) // keep the offered name
		}
		n := eval[int](t, ctx, compiles)
		do(t, ctx, script(`__protoplay.editor.focus()`), chromedp.KeyEvent(kb.End), chromedp.KeyEvent(" "))
		settle(t, ctx, n)
		if got := eval[[]string](t, ctx, fileTabs); len(got) != 4 {
			t.Fatalf("tabs %q, want 4", got)
		}
		if d := eval[[]string](t, ctx, diagnostics+`.map(e => e.innerText)`); len(d) != 0 {
			t.Errorf("new files clash: %q", d)
		}
		if got := eval[[]string](t, ctx, goFileTabs); len(got) != 4 {
			t.Errorf("Go files %q, want 4", got)
		}
		if s := eval[string](t, ctx, `document.querySelector('[data-testid=status-text]').textContent`); !strings.HasPrefix(s, "Compiled in") {
			t.Errorf("status %q", s)
		}
	})

	t.Run("double-click renames; Escape keeps the old name", func(t *testing.T) {
		// The notes tab is not the active one: the first click selects it
		// (and updates the tabs); the second must still open the box.
		tab := `[data-testid=file-tab][data-name="notes.proto"]`
		humanDoubleClick(t, ctx, tab)
		waitJS(t, ctx, "the name box", renameBox+` && document.activeElement === `+renameBox, 5*time.Second)
		n := eval[int](t, ctx, compiles)
		do(t, ctx, chromedp.KeyEvent("a", ctrl), insertText("dir/memo.proto"), chromedp.KeyEvent(kb.Enter))
		settle(t, ctx, n)
		if got := eval[[]string](t, ctx, fileTabs); got[1] != "dir/memo.proto" {
			t.Fatalf("tabs %q after the rename", got)
		}
		humanDoubleClick(t, ctx, `[data-testid=file-tab][data-name="dir/memo.proto"]`)
		waitJS(t, ctx, "the name box", renameBox, 5*time.Second)
		do(t, ctx, insertText("other"), chromedp.KeyEvent(kb.Escape))
		if got := eval[[]string](t, ctx, fileTabs); got[1] != "dir/memo.proto" {
			t.Errorf("Escape renamed the file: tabs %q", got)
		}
	})

	t.Run("the files menu lists, renames and deletes; delete can be undone", func(t *testing.T) {
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=files-menu-button]`)))
		waitJS(t, ctx, "the files menu", `!document.querySelector('[data-testid=files-menu]').hidden`, 5*time.Second)
		listed := eval[[]string](t, ctx, `[...document.querySelectorAll('[data-testid=files-menu-file]')].map(e => e.dataset.name)`)
		if !reflect.DeepEqual(listed, eval[[]string](t, ctx, fileTabs)) {
			t.Errorf("menu lists %q, tabs are %q", listed, eval[[]string](t, ctx, fileTabs))
		}
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=files-menu-file][data-name="file3.proto"]`)))
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=files-menu-button]`)), chromedp.Click(chromedp.CSS(`[data-testid=menu-rename]`)))
		waitJS(t, ctx, "the name box", renameBox+` && `+renameBox+`.value === "file3.proto"`, 5*time.Second)
		n := eval[int](t, ctx, compiles)
		do(t, ctx, chromedp.KeyEvent("three"), chromedp.KeyEvent(kb.Enter))
		settle(t, ctx, n)
		if got := eval[[]string](t, ctx, fileTabs); !reflect.DeepEqual(got, []string{"example.proto", "dir/memo.proto", "three.proto", "file4.proto"}) {
			t.Fatalf("tabs %q after renaming file3 from the menu", got)
		}

		before := eval[map[string]string](t, ctx, `__protoplay.sources()`)
		n = eval[int](t, ctx, compiles)
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=files-menu-button]`)), chromedp.Click(chromedp.CSS(`[data-testid=menu-delete]`)))
		settle(t, ctx, n)
		if got := eval[[]string](t, ctx, fileTabs); len(got) != 3 || got[2] != "file4.proto" {
			t.Fatalf("tabs %q after deleting three.proto", got)
		}
		n = eval[int](t, ctx, compiles)
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=toast-action]`)))
		settle(t, ctx, n)
		if got := eval[map[string]string](t, ctx, `__protoplay.sources()`); !reflect.DeepEqual(got, before) {
			t.Errorf("undo did not bring the file back: %v", keys(got))
		}
		if got := eval[[]string](t, ctx, fileTabs); got[2] != "three.proto" {
			t.Errorf("tabs %q after undo", got)
		}
	})

	t.Run("upload of a .proto and of a .zip, drop of a .proto", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "up.proto"), []byte("syntax = \"proto3\";\npackage up;\nmessage Up { int32 n = 1; }\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for name, text := range map[string]string{
			"zipped/a.proto":   "syntax = \"proto3\";\npackage zipped;\nimport \"zipped/b.proto\";\nmessage A { B b = 1; }\n",
			"zipped/b.proto":   "syntax = \"proto3\";\npackage zipped;\nmessage B { string s = 1; }\n",
			"zipped/README.md": "not a proto",
		} {
			w, _ := zw.Create(name)
			w.Write([]byte(text))
		}
		zw.Close()
		os.WriteFile(filepath.Join(dir, "bundle.zip"), buf.Bytes(), 0o644)

		n := eval[int](t, ctx, compiles)
		do(t, ctx, chromedp.SetUploadFiles(chromedp.CSS(`[data-testid=upload-input]`), []string{filepath.Join(dir, "up.proto"), filepath.Join(dir, "bundle.zip")}))
		settle(t, ctx, n)
		got := eval[[]string](t, ctx, fileTabs)
		for _, want := range []string{"up.proto", "zipped/a.proto", "zipped/b.proto"} {
			if !contains(got, want) {
				t.Errorf("tabs %q lack %s", got, want)
			}
		}
		if contains(got, "zipped/README.md") {
			t.Error("a non-.proto entry of the zip was added")
		}

		n = eval[int](t, ctx, compiles)
		do(t, ctx, script(`
			const dt = new DataTransfer();
			dt.items.add(new File(['syntax = "proto3";\npackage dropped;\nmessage D {}\n'], 'dropped.proto'));
			const pane = document.querySelector('.pane.input');
			for (const type of ['dragenter', 'dragover', 'drop']) pane.dispatchEvent(new DragEvent(type, {bubbles: true, cancelable: true, dataTransfer: dt}));`))
		settle(t, ctx, n)
		if !contains(eval[[]string](t, ctx, fileTabs), "dropped.proto") {
			t.Errorf("a dropped file was not added: tabs %q", eval[[]string](t, ctx, fileTabs))
		}
		if d := eval[[]string](t, ctx, diagnostics+`.map(e => e.innerText)`); len(d) != 0 {
			t.Errorf("diagnostics after the uploads: %q", d)
		}
	})

	t.Run("tabs that overflow: the menu lists every file and picks any", func(t *testing.T) {
		names := map[string]string{}
		for i := 0; i < 12; i++ {
			names[fmt.Sprintf("many/m%02d.proto", i)] = fmt.Sprintf("syntax = \"proto3\";\npackage many.m%02d;\nmessage M {}\n", i)
		}
		n := eval[int](t, ctx, compiles)
		do(t, ctx, script(`
			const dt = new DataTransfer();
			for (const [name, text] of Object.entries(`+jsonOf(names)+`)) dt.items.add(new File([text], name));
			const pane = document.querySelector('.pane.input');
			for (const type of ['dragenter', 'dragover', 'drop']) pane.dispatchEvent(new DragEvent(type, {bubbles: true, cancelable: true, dataTransfer: dt}));`))
		settle(t, ctx, n)
		if !eval[bool](t, ctx, `document.querySelector('[data-testid=file-tabs]').classList.contains('overflow')`) {
			t.Fatalf("%d tabs do not overflow the bar", len(eval[[]string](t, ctx, fileTabs)))
		}
		do(t, ctx, script(`document.querySelector('[data-testid=file-tabs]').scrollLeft = 0`))
		listed := eval[[]string](t, ctx, `(() => { document.querySelector('[data-testid=files-menu-button]').click(); return [...document.querySelectorAll('[data-testid=files-menu-file]')].map(e => e.dataset.name); })()`)
		if !reflect.DeepEqual(listed, eval[[]string](t, ctx, fileTabs)) {
			t.Errorf("menu lists %q, tabs are %q", listed, eval[[]string](t, ctx, fileTabs))
		}
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=files-menu-file][data-name="many/m03.proto"]`)))
		if got := eval[string](t, ctx, `document.querySelector('[data-testid=file-tab][aria-selected=true]').dataset.name`); got != "many/m03.proto" {
			t.Errorf("active tab %s after picking many/m03.proto from the menu", got)
		}
		bar := boxOf(t, ctx, `[data-testid=file-tabs]`)
		if tab := boxOf(t, ctx, `[data-testid=file-tab][data-name="many/m03.proto"]`); tab.X < bar.X-1 || tab.X+tab.W > bar.X+bar.W+1 {
			t.Errorf("the picked tab %+v is not scrolled into the bar %+v", tab, bar)
		}
		if !strings.Contains(eval[string](t, ctx, `__protoplay.sources()["many/m03.proto"]`), "package many.m03;") {
			t.Error("the editor does not hold many/m03.proto")
		}
	})

	t.Run("the workspace downloads as a zip of its sources", func(t *testing.T) {
		got := download(t, ctx, "protoplay-workspace.zip",
			chromedp.Click(chromedp.CSS(`[data-testid=files-menu-button]`)), chromedp.Click(chromedp.CSS(`[data-testid=menu-download-workspace]`)))
		if want := eval[map[string]string](t, ctx, `__protoplay.sources()`); !reflect.DeepEqual(got, want) {
			t.Errorf("zip holds %v, want the workspace %v", keys(got), keys(want))
		}
	})
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// readZip waits for a downloaded zip and returns its files' text.
func readZip(t *testing.T, path string) map[string]string {
	t.Helper()
	deadline := waitLimit(t)
	for {
		if st, err := os.Stat(path); err == nil && st.Size() > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s was not downloaded", filepath.Base(path))
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	out := map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if _, err := b.ReadFrom(rc); err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		rc.Close()
		out[f.Name] = b.String()
	}
	return out
}
