package site_test

// <protoplay-editor>'s behaviour beyond the bundler pages
// (npm_bundlers_test.go): the loading state with the download's progress,
// start when visible, auto height, readonly, multi-file schemas, the copy
// button and dispose; and the module in Node.

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

const featuresPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>protoplay-editor features</title>
<script type="module" src="./features.js"></script>
</head><body>
<protoplay-editor id="auto" height="auto">
  <script type="text/x-protobuf">
%s
  </script>
</protoplay-editor>
<protoplay-editor id="ro" readonly height="200px">syntax = "proto3"; message RO { int32 x = 1; }</protoplay-editor>
<protoplay-editor id="multi" height="260px">
  <script type="text/x-protobuf" data-filename="app/main.proto">
    syntax = "proto3";
    package app;
    import "app/common.proto";
    message Main { Common c = 1; }
  </script>
  <script type="text/x-protobuf" data-filename="app/common.proto">
    syntax = "proto3";
    package app;
    message Common { map<string, int64> n = 1; }
  </script>
</protoplay-editor>
<div style="height: 4000px"></div>
<protoplay-editor id="lazy" height="200px">syntax = "proto3"; message Lazy { int32 x = 1; }</protoplay-editor>
</body></html>`

const featuresScript = `
import { onLoadProgress } from "./node_modules/protoplay/index.js";
import "./node_modules/protoplay/element.js";
window.progress = [];
onLoadProgress((loaded, total) => progress.push([loaded, total]));
window.events = [];
for (const type of ["compiled", "protoplay-error"]) document.addEventListener(type, (e) => events.push({ type, id: e.target.id }));
const status = document.getElementById("auto").shadowRoot.querySelector(".status");
window.statuses = [status.textContent];
new MutationObserver(() => statuses.push(status.textContent)).observe(status, { childList: true, characterData: true, subtree: true });
window.copied = [];
Object.defineProperty(navigator, "clipboard", { value: { writeText: async (t) => copied.push(t) } });
`

func TestNPMPackageElementFeatures(t *testing.T) {
	t.Parallel()
	dir := installPackage(t)
	chromium := chromiumPath()
	if chromium == "" {
		skipOrFail(t, "chromium is not installed (make chromium installs Debian's)")
	}
	var long strings.Builder
	long.WriteString("    syntax = \"proto3\";\n    package tall;\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&long, "    message M%d { int32 a = 1; }\n", i)
	}
	writeFile(t, filepath.Join(dir, "index.html"), fmt.Sprintf(featuresPage, long.String()))
	writeFile(t, filepath.Join(dir, "features.js"), featuresScript)
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(srv.Close)
	ctx := launchChromium(t, chromium)
	do(t, ctx, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+"/index.html"))
	sr := func(id, sel string) string {
		return fmt.Sprintf(`document.getElementById(%q).shadowRoot.querySelector(%q)`, id, sel)
	}
	compiled := func(id string) string {
		return fmt.Sprintf(`events.filter((e) => e.type === "compiled" && e.id === %q).length`, id)
	}
	waitFor := func(what, expr string) {
		t.Helper()
		deadline := waitLimit(t)
		for !eval[bool](t, ctx, expr) {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s: events %s", what, eval[string](t, ctx, `JSON.stringify(window.events ?? [])`))
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	waitFor("the visible editors", compiled("auto")+` > 0 && `+compiled("ro")+` > 0 && `+compiled("multi")+` > 0`)

	// The loading state: the status said so from the start, and the
	// progress ended with the whole file.
	wasm, err := os.Stat(filepath.Join(dir, "node_modules/protoplay/protoplay.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	statuses := eval[string](t, ctx, `JSON.stringify(statuses)`)
	if !strings.HasPrefix(statuses, `["Loading the compiler…"`) {
		t.Errorf("the Go pane's status while loading: %s", statuses)
	}
	if last := eval[string](t, ctx, `JSON.stringify(progress.at(-1))`); last != fmt.Sprintf("[%d,%d]", wasm.Size(), wasm.Size()) {
		t.Errorf("the last progress report %s, want the whole %d bytes; all: %s", last, wasm.Size(), eval[string](t, ctx, `JSON.stringify(progress)`))
	}
	if s := eval[string](t, ctx, sr("auto", ".status")+`.textContent`); s != "" {
		t.Errorf("the status after the first compile: %q", s)
	}
	t.Logf("statuses %s", statuses)

	// CodeMirror comes in a chunk of its own, which the elements load.
	if !eval[bool](t, ctx, `performance.getEntriesByType("resource").some((e) => /\/editor-[A-Z0-9]+\.js$/.test(e.name))`) {
		t.Error("no editor chunk was loaded")
	}
	if n := eval[float64](t, ctx, `performance.getEntriesByType("resource").find((e) => e.name.endsWith("/element.js")).decodedBodySize`); n > 60000 {
		t.Errorf("element.js is %.0f bytes: CodeMirror is not lazy", n)
	}

	// Start when visible: the editor 4000 px below has not started.
	if eval[int](t, ctx, compiled("lazy")) != 0 || eval[bool](t, ctx, `!!`+sr("lazy", ".cm-editor")) {
		t.Error("the editor below the fold started before it was scrolled to")
	}
	do(t, ctx, script(`document.getElementById("lazy").scrollIntoView()`))
	waitFor("the editor scrolled to", compiled("lazy")+` > 0`)

	// Auto height: the element grows with its 42 lines, nothing scrolls.
	h := eval[float64](t, ctx, `document.getElementById("auto").getBoundingClientRect().height`)
	scrolls := eval[bool](t, ctx, `(() => { const s = `+sr("auto", ".schema .cm-scroller")+`; return s.scrollHeight > s.clientHeight + 1; })()`)
	if h < 500 || scrolls {
		t.Errorf("height=auto: %0.f px tall, its schema scrolls: %v", h, scrolls)
	}

	// readonly: the schema cannot be edited.
	if ce := eval[string](t, ctx, sr("ro", ".schema .cm-content")+`.contentEditable`); ce != "false" {
		t.Errorf("readonly: contentEditable %q", ce)
	}

	// Multi-file: two file tabs, Go for both files.
	if n := eval[int](t, ctx, sr("multi", ".schema .bar")+`.querySelectorAll("button").length`); n != 2 {
		t.Errorf("multi-file: %d file tabs, want 2", n)
	}
	if n := eval[int](t, ctx, sr("multi", ".go .tabs")+`.querySelectorAll("button").length`); n != 2 {
		t.Errorf("multi-file: %d generated files, want 2", n)
	}

	// The copy button copies the Go on show.
	do(t, ctx, script(sr("auto", `button.copy[data-copy="go"]`)+`.click()`))
	waitFor("the copy", `copied.length > 0`)
	if !eval[bool](t, ctx, `copied[0] === document.getElementById("auto").goText && copied[0].includes("type M39 struct")`) {
		t.Errorf("copied %.100q", eval[string](t, ctx, `copied[0]`))
	}

	// dispose: the element empties and compiles no more. A live element
	// given the same schema at the same moment shows when a compile of it
	// would have answered: both schedule it after the same debounce, and
	// the one core answers in order, so by the time the live one's has
	// answered, the disposed one's would have too.
	before := eval[int](t, ctx, compiled("ro"))
	liveBefore := eval[int](t, ctx, compiled("lazy"))
	do(t, ctx, script(`const after = 'syntax = "proto3"; message After { int32 y = 1; }'; const ro = document.getElementById("ro"); ro.dispose(); ro.value = after; document.getElementById("lazy").value = after;`))
	waitFor("the live element's compile of the same schema", fmt.Sprintf(`%s > %d && document.getElementById("lazy").goText.includes("type After struct")`, compiled("lazy"), liveBefore))
	if n := eval[int](t, ctx, compiled("ro")); n != before || eval[int](t, ctx, `document.getElementById("ro").shadowRoot.childNodes.length`) != 0 {
		t.Errorf("after dispose: %d compiled events (before %d), shadow root %d nodes", n, before, eval[int](t, ctx, `document.getElementById("ro").shadowRoot.childNodes.length`))
	}
}
