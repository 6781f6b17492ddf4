package site_test

// A real multi-file workspace, used as a person uses it (issue 14's "daily
// tool on real multi-file schemas"): files uploaded as a file picker and a
// repository's .zip give them, go to definition into another file and
// back, and an example opened over one's own files and left again. Each
// step waits for the compile it started (settle), as files_e2e_test.go.

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// A small API in the shape of googleapis: the files import each other by
// their paths from the proto root (acme/store/v1/...).
var storeAPI = map[string]string{
	"acme/store/v1/item.proto": `syntax = "proto3";

package acme.store.v1;

import "google/type/latlng.proto";

option go_package = "example.com/store/v1;storepb";

// An item on sale.
message Item {
  string sku = 1;
  int64 price_cents = 2;
  google.type.LatLng warehouse = 3;
}
`,
	"acme/store/v1/order.proto": `syntax = "proto3";

package acme.store.v1;

import "acme/store/v1/item.proto";
import "google/protobuf/timestamp.proto";

option go_package = "example.com/store/v1;storepb";

message Order {
  repeated Item items = 1;
  string note = 2;
  google.protobuf.Timestamp placed_at = 3;
}
`,
	"acme/store/v1/service.proto": `syntax = "proto3";

package acme.store.v1;

import "acme/store/v1/order.proto";

option go_package = "example.com/store/v1;storepb";

message PlaceOrderRequest {
  Order order = 1;
}
`,
}

func activeFile(t *testing.T, ctx context.Context) string {
	t.Helper()
	return eval[string](t, ctx, `document.querySelector('[data-testid=file-tab][aria-selected=true]').dataset.name`)
}

func cursorLine(t *testing.T, ctx context.Context) int {
	t.Helper()
	return eval[int](t, ctx, `__protoplay.editor.state.doc.lineAt(__protoplay.editor.state.selection.main.head).number`)
}

// topLine is the number of the first line of the .proto editor in view.
func topLine(t *testing.T, ctx context.Context) int {
	t.Helper()
	return eval[int](t, ctx, `(() => { const v = __protoplay.editor, r = v.scrollDOM.getBoundingClientRect(); return v.state.doc.lineAt(v.posAtCoords({x: r.left + 40, y: r.top + 4}, false)).number; })()`)
}

// lineInView tells whether line n of the .proto editor is on screen.
func lineInView(t *testing.T, ctx context.Context, n int) bool {
	t.Helper()
	return eval[bool](t, ctx, `(() => { const v = __protoplay.editor, r = v.scrollDOM.getBoundingClientRect(), c = v.coordsAtPos(v.state.doc.line(`+itoa(n)+`).from); return !!c && c.top >= r.top && c.bottom <= r.bottom; })()`)
}

// toastActionContrast is the WCAG contrast ratio of the toast's action
// button's text against its background (the toast's where the button's
// own is transparent).
const toastActionContrast = `(() => {
	const b = document.querySelector('[data-testid=toast-action]');
	const rgb = (s) => s.match(/[\d.]+/g).map(Number);
	const lum = ([r, g, b]) => { const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
	let bg = rgb(getComputedStyle(b).backgroundColor);
	if (bg.length === 4 && bg[3] === 0) bg = rgb(getComputedStyle(b.parentElement).backgroundColor);
	const a = lum(rgb(getComputedStyle(b).color)), c = lum(bg);
	return (Math.max(a, c) + 0.05) / (Math.min(a, c) + 0.05);
})()`

func TestRealWorkspace(t *testing.T) {
	t.Parallel()
	ctx := openExample(t)
	dir := t.TempDir()

	t.Run("files picked from a folder take the paths their imports name", func(t *testing.T) {
		// A file picker gives bare names: order.proto, item.proto; order.proto
		// imports "acme/store/v1/item.proto".
		var paths []string
		for _, name := range []string{"acme/store/v1/order.proto", "acme/store/v1/item.proto"} {
			p := filepath.Join(dir, filepath.Base(name))
			if err := os.WriteFile(p, []byte(storeAPI[name]), 0o644); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, p)
		}
		n := eval[int](t, ctx, compiles)
		do(t, ctx, chromedp.SetUploadFiles(chromedp.CSS(`[data-testid=upload-input]`), paths))
		settle(t, ctx, n)
		got := eval[[]string](t, ctx, fileTabs)
		if want := []string{"example.proto", "acme/store/v1/order.proto", "acme/store/v1/item.proto"}; !reflect.DeepEqual(got, want) {
			t.Errorf("tabs %q, want %q", got, want)
		}
		if d := eval[[]string](t, ctx, diagnostics+`.map(e => e.innerText)`); len(d) != 0 {
			t.Errorf("the uploaded files do not find each other: %q", d)
		}
		if msg := eval[string](t, ctx, `document.querySelector('[data-testid=toast]').innerText`); !strings.Contains(msg, "where the imports look for them") {
			t.Errorf("toast %q does not say the files were placed by their imports", msg)
		}

		// An unrelated item.proto picked later is not put over the
		// workspace's acme/store/v1/item.proto.
		other := filepath.Join(t.TempDir(), "item.proto")
		os.WriteFile(other, []byte("syntax = \"proto3\";\npackage other;\nmessage Thing {}\n"), 0o644)
		n = eval[int](t, ctx, compiles)
		do(t, ctx, chromedp.SetUploadFiles(chromedp.CSS(`[data-testid=upload-input]`), []string{other}))
		settle(t, ctx, n)
		if got, want := eval[[]string](t, ctx, fileTabs), []string{"example.proto", "acme/store/v1/order.proto", "acme/store/v1/item.proto", "item.proto"}; !reflect.DeepEqual(got, want) {
			t.Errorf("tabs %q, want %q", got, want)
		}
		if src := eval[string](t, ctx, `__protoplay.sources()["acme/store/v1/item.proto"]`); !strings.Contains(src, "message Item") {
			t.Errorf("acme/store/v1/item.proto was replaced:\n%s", src)
		}
		n = eval[int](t, ctx, compiles)
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=file-tab][data-name="item.proto"] [data-testid=close-file]`)))
		settle(t, ctx, n)
	})

	t.Run("a repository's .zip, its own folder first, lands at the import paths", func(t *testing.T) {
		// As GitHub's "Download ZIP" gives it: store-main/acme/store/v1/...,
		// with a file no one imports (service.proto) beside the others.
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		names := []string{"acme/store/v1/service.proto", "acme/store/v1/order.proto", "acme/store/v1/item.proto"}
		for _, name := range names {
			w, _ := zw.Create("store-main/" + name)
			w.Write([]byte(strings.Replace(storeAPI[name], "\n\n", "\n\n// From the zip.\n", 1)))
		}
		// The repository's copy of a dependency, as googleapis' holds.
		w, _ := zw.Create("store-main/google/type/latlng.proto")
		w.Write([]byte("syntax = \"proto3\";\n\npackage google.type;\n\noption go_package = \"google.golang.org/genproto/googleapis/type/latlng;latlng\";\n\nmessage LatLng {\n  double latitude = 1;\n  double longitude = 2;\n}\n"))
		w, _ = zw.Create("store-main/README.md")
		w.Write([]byte("# store"))
		zw.Close()
		zp := filepath.Join(dir, "store-main.zip")
		os.WriteFile(zp, buf.Bytes(), 0o644)
		n := eval[int](t, ctx, compiles)
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=files-menu-button]`)))
		do(t, ctx, chromedp.SetUploadFiles(chromedp.CSS(`[data-testid=upload-input]`), []string{zp}))
		do(t, ctx, chromedp.KeyEvent(kb.Escape))
		settle(t, ctx, n)
		got := eval[[]string](t, ctx, fileTabs)
		sort.Strings(got)
		want := []string{"acme/store/v1/item.proto", "acme/store/v1/order.proto", "acme/store/v1/service.proto", "example.proto", "google/type/latlng.proto"}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("tabs %q, want %q (the zip's files replacing the uploaded ones, at their import paths)", got, want)
		}
		src := eval[map[string]string](t, ctx, `__protoplay.sources()`)
		for _, name := range names {
			if !strings.Contains(src[name], "// From the zip.") {
				t.Errorf("%s is not the zip's", name)
			}
		}
		if d := eval[[]string](t, ctx, diagnostics+`.map(e => e.innerText)`); len(d) != 0 {
			t.Errorf("diagnostics after the zip: %q", d)
		}
	})

	t.Run("the API with its dependencies' copies downloads as a Go module that builds offline", func(t *testing.T) {
		// The zip's own copy of google/type/latlng.proto (a package of its
		// own, google.golang.org/genproto/...) goes into the module as the
		// imported files do. First the address book goes, as a person
		// clears the workspace for the API.
		n := eval[int](t, ctx, compiles)
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=file-tab][data-name="example.proto"]`)))
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=files-menu-button]`)), chromedp.Click(chromedp.CSS(`[data-testid=menu-delete]`)))
		settle(t, ctx, n)
		got := download(t, ctx, "protoplay-go.zip", chromedp.Click(chromedp.CSS(`[data-testid=download]`)))
		if msg := eval[string](t, ctx, `document.querySelector('[data-testid=toast]').innerText`); strings.Contains(msg, "generated files only") {
			t.Fatalf("the page says the .zip is incomplete: %q", msg)
		}
		if _, ok := got["google.golang.org/genproto/googleapis/type/latlng/latlng.pb.go"]; !ok {
			t.Errorf("the zip lacks the copy of google/type/latlng.proto's Go")
		}
		checkModuleZip(t, got, "example.com/store", "v1/item.pb.go", "timestamppb")
	})

	// A fresh page for the rest, whatever the uploads above did.
	ctx = openExample(t)

	t.Run("go to definition in another file, then back where one was", func(t *testing.T) {
		// A long file that uses Order far down: the way back must scroll
		// there again.
		var b strings.Builder
		b.WriteString("syntax = \"proto3\";\n\npackage acme.report.v1;\n\nimport \"acme/store/v1/order.proto\";\n\n")
		for i := 0; i < 60; i++ {
			fmt.Fprintf(&b, "// Filler %d.\nmessage Filler%d {}\n", i, i)
		}
		b.WriteString("message Report {\n  acme.store.v1.Order order = 1;\n}\n")
		usedAt := 7 + 120 + 1 // the line of "acme.store.v1.Order order = 1;"
		// The store's files and the report, dropped with their paths.
		n := eval[int](t, ctx, compiles)
		do(t, ctx, script(`
			const dt = new DataTransfer();
			for (const [name, text] of Object.entries(`+jsonOf(storeAPI)+`)) dt.items.add(new File([text.replace("\n\n", "\n\n// From the zip.\n")], name));
			dt.items.add(new File([`+jsString(b.String())+`], 'acme/report/v1/report.proto'));
			const pane = document.querySelector('.pane.input');
			for (const type of ['dragenter', 'dragover', 'drop']) pane.dispatchEvent(new DragEvent(type, {bubbles: true, cancelable: true, dataTransfer: dt}));`))
		settle(t, ctx, n)
		waitJS(t, ctx, "the report's symbols", `__protoplay.symbols() && __protoplay.symbols().references.some(r => r.file === 'acme/report/v1/report.proto')`, 30*time.Second)
		if f := activeFile(t, ctx); f != "acme/report/v1/report.proto" {
			t.Fatalf("active file %s after the drop", f)
		}
		// Scroll down to the use, as a person does, put the cursor on it and
		// Ctrl-click Order.
		do(t, ctx, script(`const v = __protoplay.editor, l = v.state.doc.line(`+itoa(usedAt)+`); v.focus(); v.dispatch({selection: {anchor: l.from + 4}, scrollIntoView: true})`))
		time.Sleep(300 * time.Millisecond)
		top := topLine(t, ctx)
		xy := eval[[]float64](t, ctx, `(() => { const v = __protoplay.editor, l = v.state.doc.line(`+itoa(usedAt)+`); const c = v.coordsAtPos(l.from + l.text.indexOf("Order") + 1); return [c.left + 1, (c.top + c.bottom) / 2]; })()`)
		do(t, ctx,
			chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, xy[0], xy[1], chromedp.ButtonLeft, chromedp.ClickCount(1), chromedp.ButtonModifiers(chromedp.ModifierCtrl)),
			chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, xy[0], xy[1], chromedp.ButtonLeft, chromedp.ClickCount(1), chromedp.ButtonModifiers(chromedp.ModifierCtrl)),
		)
		time.Sleep(400 * time.Millisecond)
		if f, l := activeFile(t, ctx), cursorLine(t, ctx); f != "acme/store/v1/order.proto" || l != 11 {
			t.Fatalf("Ctrl-click on Order went to %s:%d, want acme/store/v1/order.proto:11", f, l)
		}
		if msg := eval[string](t, ctx, `document.querySelector('[data-testid=toast]').innerText`); !strings.Contains(msg, "Alt+←") {
			t.Errorf("toast %q does not say how to go back", msg)
		}
		// Its Back button can be read: its label against what is behind it.
		if c := eval[float64](t, ctx, toastActionContrast); c < 4.5 {
			t.Errorf("the toast's Back button has a contrast of %.2f (want at least 4.5, WCAG AA)", c)
		}

		// Back: Alt+←, in the editor.
		do(t, ctx, chromedp.KeyEvent(kb.ArrowLeft, chromedp.KeyModifiers(chromedp.ModifierAlt)))
		time.Sleep(400 * time.Millisecond)
		if f, l := activeFile(t, ctx), cursorLine(t, ctx); f != "acme/report/v1/report.proto" || l != usedAt {
			t.Fatalf("Alt+← went to %s:%d, want acme/report/v1/report.proto:%d", f, l, usedAt)
		}
		if !lineInView(t, ctx, usedAt) || topLine(t, ctx) != top {
			t.Errorf("back in report.proto, the top line is %d (was %d) and line %d in view: %v", topLine(t, ctx), top, usedAt, lineInView(t, ctx, usedAt))
		}
		// Forward again, then back with the toast's button (no keyboard,
		// as on a phone).
		do(t, ctx, chromedp.KeyEvent(kb.ArrowRight, chromedp.KeyModifiers(chromedp.ModifierAlt)))
		time.Sleep(300 * time.Millisecond)
		if f := activeFile(t, ctx); f != "acme/store/v1/order.proto" {
			t.Errorf("Alt+→ left %s in view, want acme/store/v1/order.proto", f)
		}
		do(t, ctx, script(`const v = __protoplay.editor, l = v.state.doc.line(12); v.dispatch({selection: {anchor: l.from + l.text.indexOf("Item") + 1}})`), chromedp.KeyEvent(kb.F12))
		time.Sleep(300 * time.Millisecond)
		if f := activeFile(t, ctx); f != "acme/store/v1/item.proto" {
			t.Fatalf("F12 on Item left %s in view, want acme/store/v1/item.proto", f)
		}
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=toast-action]`)))
		time.Sleep(300 * time.Millisecond)
		if f := activeFile(t, ctx); f != "acme/store/v1/order.proto" {
			t.Errorf("the toast's Back left %s in view, want acme/store/v1/order.proto", f)
		}

		// Changing tabs by hand keeps each file's place too.
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=file-tab][data-name="acme/report/v1/report.proto"]`)))
		time.Sleep(300 * time.Millisecond)
		if got := topLine(t, ctx); got != top {
			t.Errorf("report.proto's tab shows line %d at the top, want %d where it was left", got, top)
		}
		if l := cursorLine(t, ctx); l != usedAt {
			t.Errorf("cursor on line %d, want %d", l, usedAt)
		}

		// Ctrl-click on an import's path opens that file; Alt+← comes back.
		do(t, ctx, script(`__protoplay.editor.scrollDOM.scrollTop = 0`))
		// The editor draws the lines scrolled to in a later frame: until
		// then line 5 has no coordinates.
		const importAt = `(() => { const v = __protoplay.editor, l = v.state.doc.line(5); return v.coordsAtPos(l.from + l.text.indexOf("order.proto") + 2); })()`
		waitJS(t, ctx, "line 5 drawn after scrolling to the top", importAt+` !== null`, 10*time.Second)
		xy = eval[[]float64](t, ctx, `(() => { const c = `+importAt+`; return [c.left + 1, (c.top + c.bottom) / 2]; })()`)
		do(t, ctx,
			chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, xy[0], xy[1], chromedp.ButtonLeft, chromedp.ClickCount(1), chromedp.ButtonModifiers(chromedp.ModifierCtrl)),
			chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, xy[0], xy[1], chromedp.ButtonLeft, chromedp.ClickCount(1), chromedp.ButtonModifiers(chromedp.ModifierCtrl)),
		)
		time.Sleep(300 * time.Millisecond)
		if f, l := activeFile(t, ctx), cursorLine(t, ctx); f != "acme/store/v1/order.proto" || l != 1 {
			t.Errorf("Ctrl-click on the import of acme/store/v1/order.proto went to %s:%d", f, l)
		}
		do(t, ctx, chromedp.KeyEvent(kb.ArrowLeft, chromedp.KeyModifiers(chromedp.ModifierAlt)))
		time.Sleep(300 * time.Millisecond)
		if f, l := activeFile(t, ctx), cursorLine(t, ctx); f != "acme/report/v1/report.proto" || l != 5 {
			t.Errorf("Alt+← from the imported file went to %s:%d, want acme/report/v1/report.proto:5", f, l)
		}
	})

	t.Run("an example, then back to one's files long after the Undo is gone", func(t *testing.T) {
		before := eval[map[string]string](t, ctx, `__protoplay.sources()`)
		n := eval[int](t, ctx, compiles)
		openExampleMenu(t, ctx, "search.proto")
		settle(t, ctx, n)
		if got := eval[[]string](t, ctx, fileTabs); !reflect.DeepEqual(got, []string{"search.proto"}) {
			t.Fatalf("tabs %q after opening the proto2 example", got)
		}
		// The Undo toast goes away after 8 s.
		waitJS(t, ctx, "the toast to go", `document.querySelector('[data-testid=toast]').hidden`, 15*time.Second)
		// Opening a second example over the first keeps one's own files.
		n = eval[int](t, ctx, compiles)
		openExampleMenu(t, ctx, "account.proto")
		settle(t, ctx, n)
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=examples-button]`)))
		waitJS(t, ctx, "the menu's way back", `document.querySelector('[data-testid=examples-yours]')`, 5*time.Second)
		if label := eval[string](t, ctx, `document.querySelector('[data-testid=examples-yours]').innerText`); !strings.Contains(label, "your files") || !strings.Contains(label, fmt.Sprintf("%d files", len(before))) {
			t.Errorf("menu item %q", label)
		}
		n = eval[int](t, ctx, compiles)
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=examples-yours]`)))
		settle(t, ctx, n)
		if got := eval[map[string]string](t, ctx, `__protoplay.sources()`); !reflect.DeepEqual(got, before) {
			t.Errorf("back to one's files: %v, want %v", keys(got), keys(before))
		}
		if f := activeFile(t, ctx); f != "acme/report/v1/report.proto" {
			t.Errorf("active file %s, want the one left (acme/report/v1/report.proto)", f)
		}
		if d := eval[[]string](t, ctx, diagnostics+`.map(e => e.innerText)`); len(d) != 0 {
			t.Errorf("diagnostics: %q", d)
		}
		// An example opened and not edited is not "your files".
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=examples-button]`)))
		time.Sleep(200 * time.Millisecond)
		if eval[bool](t, ctx, `!!document.querySelector('[data-testid=examples-yours]')`) {
			t.Errorf("the menu offers %q, but the files replaced by one's own were an example as opened", eval[string](t, ctx, `document.querySelector('[data-testid=examples-yours]').innerText`))
		}
		do(t, ctx, chromedp.KeyEvent(kb.Escape))
	})
}
