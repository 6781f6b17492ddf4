package site_test

// The npm package as a web developer's app uses it: the same page and
// entry module bundled by esbuild (as an ES module and as a classic
// script), Vite and webpack 5 (site/package.json pins the versions
// tested), and with no bundler at all through the plain-script build
// (protoplay.iife.js, as from a CDN), each served under a strict
// Content-Security-Policy and loaded in chromium. On each page
// <protoplay-editor> appears twice in the document and once inside a
// shadow root, and must work at 1280 px and at 390 px wide. The README's
// section per bundler says what these builds do.

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/evanw/esbuild/pkg/api"
)

// strictCSP allows scripts from the page's origin only (no inline
// script, no inline style), WebAssembly compilation, and the Worker that
// protoplay starts from a blob: URL.
const strictCSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src blob:; style-src 'self'; " +
	"connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'"

// bundledPage is the app's index.html; %s is where its script goes.
const bundledPage = `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>protoplay, bundled</title>
%s
</head><body>
<h1>Two editors, and one in a shadow root</h1>
<protoplay-editor id="a" panels="go,encode" type="demo.Person" filename="person.proto">
  <script type="text/x-protobuf">
    syntax = "proto3";
    package demo;
    message Person {
      string name = 1;
      map<string, int64> scores = 2;
    }
  </script>
</protoplay-editor>
<protoplay-editor id="b" panels="go,encode" readonly height="300px">
  <template>syntax = "proto3"; package two; message Second { int32 x = 1; }</template>
</protoplay-editor>
<div id="host"></div>
</body></html>
`

// appMain is the app's entry module. It records the editors' events and
// anything that goes wrong (CSP violations, errors, rejections) for the
// test, and puts a third editor in a shadow root with its value set
// before it is connected. The esbuild builds first tell protoplay where
// the file loader put the .wasm (initLine).
const appMain = `%s
import "protoplay/element";
window.events = [];
window.problems = [];
for (const type of ["compiled", "protoplay-error", "protoplay-encoded", "protoplay-input"])
  document.addEventListener(type, (e) => events.push({ type, id: e.composedPath()[0].id, message: e.detail?.message }));
document.addEventListener("securitypolicyviolation", (e) => problems.push("CSP " + e.violatedDirective + " " + e.blockedURI));
window.addEventListener("error", (e) => problems.push("error: " + e.message));
window.addEventListener("unhandledrejection", (e) => problems.push("rejection: " + (e.reason?.message ?? e.reason)));
const start = () => {
  const shadow = document.getElementById("host").attachShadow({ mode: "open" });
  const c = document.createElement("protoplay-editor");
  c.id = "c";
  c.value = 'syntax = "proto3";\npackage inshadow;\nmessage Shadowed {\n  map<string, int64> counts = 1;\n}\n';
  shadow.append(c);
};
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
`

const esbuildInit = `import wasmURL from "protoplay/protoplay.wasm";
import { initialize } from "protoplay";
initialize({ wasmURL });`

// webpackBuild runs webpack's Node API (its path in argv) on main.js.
const webpackBuild = `
const webpack = require(process.argv[2]);
webpack({
  mode: "production",
  context: __dirname,
  entry: "./main.js",
  output: { path: __dirname + "/dist-webpack", filename: "main.js", clean: true },
  performance: { hints: false },
  // Minifying the already minified package takes most of a minute on
  // a busy machine and proves nothing more.
  optimization: { minimize: false },
}, (err, stats) => {
  if (err || stats.hasErrors()) {
    console.error(err || stats.toString("errors-only"));
    process.exit(1);
  }
  console.log(stats.toString({ all: false, assets: true }));
});
`

func TestNPMPackageBundlers(t *testing.T) {
	t.Parallel()
	dir := installPackage(t)
	chromium := chromiumPath()
	if chromium == "" {
		skipOrFail(t, "chromium is not installed (make chromium installs Debian's)")
	}
	mods, err := filepath.Abs("node_modules")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"vite/bin/vite.js", "webpack/lib/index.js"} {
		if _, err := os.Stat(filepath.Join(mods, p)); err != nil {
			skipOrFail(t, "site/node_modules lacks "+p+" (run npm ci in site)")
		}
	}
	writeFile(t, filepath.Join(dir, "main.js"), fmt.Sprintf(appMain, ""))
	writeFile(t, filepath.Join(dir, "main-esbuild.js"), fmt.Sprintf(appMain, esbuildInit))

	type app struct {
		name  string
		build func(t *testing.T) string // returns the directory to serve
	}
	run := func(t *testing.T, name string, args ...string) {
		t.Helper()
		start := time.Now()
		cmd := exec.Command("node", args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		t.Logf("%s built in %v", name, time.Since(start).Round(time.Millisecond))
	}
	esbuild := func(format api.Format, out, script string) func(t *testing.T) string {
		return func(t *testing.T) string {
			start := time.Now()
			res := api.Build(api.BuildOptions{
				EntryPoints:   []string{"main-esbuild.js"},
				AbsWorkingDir: dir,
				Bundle:        true,
				Format:        format,
				Outdir:        out,
				Loader:        map[string]api.Loader{".wasm": api.LoaderFile},
				Write:         true,
				LogLevel:      api.LogLevelSilent,
				Target:        api.ES2022,
			})
			if len(res.Errors) > 0 {
				t.Fatalf("esbuild: %s", strings.Join(api.FormatMessages(res.Errors, api.FormatMessagesOptions{}), ""))
			}
			t.Logf("esbuild (%s) built in %v", out, time.Since(start).Round(time.Millisecond))
			writeFile(t, filepath.Join(dir, out, "index.html"), fmt.Sprintf(bundledPage, script))
			return filepath.Join(dir, out)
		}
	}
	apps := []app{
		{"esbuild-esm", esbuild(api.FormatESModule, "dist-esbuild", `<script type="module" src="./main-esbuild.js"></script>`)},
		{"esbuild-iife", esbuild(api.FormatIIFE, "dist-esbuild-iife", `<script defer src="./main-esbuild.js"></script>`)},
		{"vite", func(t *testing.T) string {
			writeFile(t, filepath.Join(dir, "index.html"), fmt.Sprintf(bundledPage, `<script type="module" src="./main.js"></script>`))
			run(t, "vite build", filepath.Join(mods, "vite/bin/vite.js"), "build", "--outDir", "dist-vite", "--emptyOutDir", "--logLevel", "warn")
			return filepath.Join(dir, "dist-vite")
		}},
		{"webpack", func(t *testing.T) string {
			writeFile(t, filepath.Join(dir, "build-webpack.cjs"), webpackBuild)
			run(t, "webpack", "build-webpack.cjs", filepath.Join(mods, "webpack"))
			writeFile(t, filepath.Join(dir, "dist-webpack", "index.html"), fmt.Sprintf(bundledPage, `<script defer src="./main.js"></script>`))
			return filepath.Join(dir, "dist-webpack")
		}},
		{"none (protoplay.iife.js)", func(t *testing.T) string {
			// The plain script as from a CDN, the app's code a plain
			// script too (the element and the API are globals).
			cdn := filepath.Join(dir, "cdn")
			if err := os.MkdirAll(cdn, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{"protoplay.iife.js", "protoplay.wasm"} {
				b, err := os.ReadFile(filepath.Join(dir, "node_modules/protoplay", f))
				if err != nil {
					t.Fatal(err)
				}
				writeFile(t, filepath.Join(cdn, f), string(b))
			}
			writeFile(t, filepath.Join(cdn, "app.js"), strings.Replace(fmt.Sprintf(appMain, ""), `import "protoplay/element";`, `if (!window.protoplay?.ProtoplayEditor) throw new Error("no global protoplay");`, 1))
			writeFile(t, filepath.Join(cdn, "index.html"), fmt.Sprintf(bundledPage, `<script src="./protoplay.iife.js"></script><script defer src="./app.js"></script>`))
			return cdn
		}},
	}
	ctx := launchChromium(t, chromium)
	for _, a := range apps {
		t.Run(strings.Fields(a.name)[0], func(t *testing.T) {
			root := a.build(t)
			files := http.FileServer(http.Dir(root))
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Security-Policy", strictCSP)
				files.ServeHTTP(w, r)
			}))
			t.Cleanup(srv.Close)
			checkApp(t, ctx, srv.URL+"/index.html")
		})
	}
}

// pageLayout is, for each editor, its box and its visible panes' boxes
// ([left, top, width, height]), and the viewport's width.
const pageLayout = `(() => {
  const els = [document.getElementById("a"), document.getElementById("b"), document.getElementById("host").shadowRoot.getElementById("c")];
  const box = (r) => [r.left, r.top, r.width, r.height];
  return JSON.stringify({ width: document.documentElement.clientWidth, editors: els.map((e) => ({
    id: e.id, host: box(e.getBoundingClientRect()),
    panes: [...e.shadowRoot.querySelectorAll(".pane")].filter((p) => !p.hidden).map((p) => box(p.getBoundingClientRect())) })) });
})()`

func checkApp(t *testing.T, c context.Context, url string) {
	t.Helper()
	do(t, c, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(url))
	start := time.Now()
	find := `((id) => id === "c" ? document.getElementById("host").shadowRoot.getElementById("c") : document.getElementById(id))`
	goText := func(id string) string { return eval[string](t, c, fmt.Sprintf(`%s(%q).goText`, find, id)) }
	problems := func() string {
		return eval[string](t, c, `JSON.stringify(window.problems ?? ["the app's script did not run"])`)
	}
	waitFor := func(what, expr string) {
		t.Helper()
		deadline := waitLimit(t)
		for !eval[bool](t, c, expr) {
			if time.Now().After(deadline) || eval[bool](t, c, `(window.problems ?? []).length > 0 || (window.events ?? []).some((e) => e.type === "protoplay-error")`) {
				t.Fatalf("waiting for %s: problems %s, events %s, a's status %q", what, problems(), eval[string](t, c, `JSON.stringify(window.events ?? [])`),
					eval[string](t, c, `document.getElementById("a")?.shadowRoot?.querySelector(".status")?.textContent ?? ""`))
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	compiled := func(id string) string {
		return fmt.Sprintf(`(window.events ?? []).filter((e) => e.type === "compiled" && e.id === %q).length`, id)
	}
	for _, id := range []string{"a", "b", "c"} {
		do(t, c, script(fmt.Sprintf(`%s(%q).scrollIntoView()`, find, id)))
		waitFor(id+"'s Go", compiled(id)+` > 0`)
	}
	t.Logf("all three editors showed Go %v after navigation", time.Since(start).Round(time.Millisecond))
	for id, want := range map[string]string{"a": "type Person struct", "b": "type Second struct", "c": "type Shadowed struct"} {
		if g := goText(id); !strings.Contains(g, want) || !strings.Contains(g, "map[string]int64") && id != "b" {
			t.Errorf("%s's Go lacks %q (or the map field): %.200q", id, want, g)
		}
	}
	waitFor("a's encoded bytes", `(window.events ?? []).some((e) => e.type === "protoplay-encoded" && e.id === "a")`)
	if n := eval[int](t, c, `performance.getEntriesByType("resource").filter((e) => e.name.endsWith(".wasm")).length`); n != 1 {
		t.Errorf("the wasm was fetched %d times, want once", n)
	}

	checkLayout := func(width int) {
		t.Helper()
		var l struct {
			Width   float64
			Editors []struct {
				ID    string
				Host  []float64
				Panes [][]float64
			}
		}
		if err := json.Unmarshal([]byte(eval[string](t, c, pageLayout)), &l); err != nil {
			t.Fatal(err)
		}
		for _, e := range l.Editors {
			h := e.Host
			if h[0] < 0 || h[0]+h[2] > l.Width+0.5 {
				t.Errorf("at %d px: %s spans %.0f..%.0f, beyond the viewport's %.0f", width, e.ID, h[0], h[0]+h[2], l.Width)
			}
			for i, p := range e.Panes {
				clipped := p[0] < h[0]-0.5 || p[0]+p[2] > h[0]+h[2]+0.5 || p[1] < h[1]-0.5 || p[1]+p[3] > h[1]+h[3]+0.5
				if clipped || p[3] < 150 || p[2] < 150 {
					t.Errorf("at %d px: %s's pane %d is %v, the element %v: clipped or too small", width, e.ID, i, p, h)
				}
				if i > 0 {
					prev := e.Panes[i-1]
					stacked := p[1] >= prev[1]+prev[3]-0.5
					if (width < 560) != stacked {
						t.Errorf("at %d px: %s's panes %v: stacked %v", width, e.ID, e.Panes, stacked)
					}
				}
			}
		}
	}
	checkLayout(1280)

	// Narrow: the panes stack, and the editors still work.
	do(t, c, chromedp.EmulateViewport(390, 844))
	// The element re-lays out in the frame after its ResizeObserver fires;
	// on a loaded machine that is well after the resize: wait until every
	// editor has stacked (or 20 s), then check the layout.
	waitFor("the editors to stack at 390 px", `(() => { const els = [document.getElementById("a"), document.getElementById("b"), document.getElementById("host").shadowRoot.getElementById("c")];
  return els.every((e) => e.shadowRoot.querySelector(".root")?.classList.contains("stacked")); })()`)
	time.Sleep(300 * time.Millisecond) // a person's pause: the page settles
	checkLayout(390)
	before := eval[int](t, c, compiled("a"))
	do(t, c, script(`document.getElementById("a").value = 'syntax = "proto3";\npackage demo;\nmessage Person {\n  string name = 1;\n  map<string, int64> scores = 2;\n  bool narrow = 3;\n}\n'`))
	waitFor("a's Go after an edit at 390 px", fmt.Sprintf(`%s > %d`, compiled("a"), before))
	if !strings.Contains(goText("a"), "Narrow") {
		t.Errorf("a's Go after the edit lacks the new field: %.300q", goText("a"))
	}
	if !eval[bool](t, c, `window.events.some((e) => e.type === "protoplay-input" && e.id === "a")`) {
		t.Error("no protoplay-input event for the edit")
	}
	// A broken schema: a protoplay-error event (not a window error).
	do(t, c, script(`document.getElementById("a").value = 'syntax = "proto3";\nmessage P {\n  int32 x = \n}\n'`))
	deadline := waitLimit(t)
	for !eval[bool](t, c, `window.events.some((e) => e.type === "protoplay-error" && e.id === "a")`) {
		if time.Now().After(deadline) {
			t.Fatalf("no protoplay-error event for a broken schema: %s", eval[string](t, c, `JSON.stringify(window.events)`))
		}
		time.Sleep(100 * time.Millisecond)
	}
	if msg := eval[string](t, c, `window.events.find((e) => e.type === "protoplay-error").message`); !strings.HasPrefix(msg, "person.proto:3:3: missing message field tag in declaration") {
		t.Errorf("protoplay-error %q, want the missing field number at person.proto:3:3 first", msg)
	}
	if p := problems(); p != "[]" {
		t.Errorf("problems on the page (CSP violations, errors): %s", p)
	}
}

// firstEvent waits for the page's first event of type from editor id and
// returns its message.
func firstEvent(t *testing.T, c context.Context, typ, id string) string {
	t.Helper()
	expr := fmt.Sprintf(`(window.events ?? []).find((e) => e.type === %q && e.id === %q)`, typ, id)
	deadline := waitLimit(t)
	for !eval[bool](t, c, `!!`+expr) {
		if time.Now().After(deadline) {
			t.Fatalf("no %s event from %s: events %s, problems %s", typ, id, eval[string](t, c, `JSON.stringify(window.events ?? [])`), eval[string](t, c, `JSON.stringify(window.problems ?? [])`))
		}
		time.Sleep(100 * time.Millisecond)
	}
	return eval[string](t, c, expr+`.message ?? ""`)
}

// TestNPMPackageWasmNotFound: the failures of issue 15 say what was
// fetched, what came back and what to do, in the elements'
// protoplay-error events: an esbuild bundle that did not import the
// .wasm (a 404 beside the bundle). And Vite's dev server, as is and with
// the README's optimizeDeps.exclude.
func TestNPMPackageWasmNotFoundAndViteDev(t *testing.T) {
	t.Parallel()
	dir := installPackage(t)
	chromium := chromiumPath()
	if chromium == "" {
		skipOrFail(t, "chromium is not installed (make chromium installs Debian's)")
	}
	vite, err := filepath.Abs("node_modules/vite/bin/vite.js")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(vite); err != nil {
		skipOrFail(t, "site/node_modules lacks vite (run npm ci in site)")
	}
	writeFile(t, filepath.Join(dir, "main.js"), fmt.Sprintf(appMain, ""))
	writeFile(t, filepath.Join(dir, "index.html"), fmt.Sprintf(bundledPage, `<script type="module" src="./main.js"></script>`))
	ctx := launchChromium(t, chromium)

	t.Run("esbuild", func(t *testing.T) {
		res := api.Build(api.BuildOptions{EntryPoints: []string{"main.js"}, AbsWorkingDir: dir, Bundle: true, Format: api.FormatESModule,
			Outdir: "dist-plain", Write: true, LogLevel: api.LogLevelSilent, Target: api.ES2022})
		if len(res.Errors) > 0 {
			t.Fatalf("esbuild: %v", res.Errors)
		}
		writeFile(t, filepath.Join(dir, "dist-plain", "index.html"), fmt.Sprintf(bundledPage, `<script type="module" src="./main.js"></script>`))
		srv := httptest.NewServer(http.FileServer(http.Dir(filepath.Join(dir, "dist-plain"))))
		t.Cleanup(srv.Close)
		do(t, ctx, chromedp.Navigate(srv.URL+"/index.html"))
		msg := firstEvent(t, ctx, "protoplay-error", "a")
		t.Logf("esbuild without the file loader: %s", msg)
		if !strings.HasPrefix(msg, "protoplay: could not load") {
			t.Errorf("the message does not start with what failed")
		}
		for _, want := range []string{"protoplay: could not load protoplay.wasm from " + srv.URL + "/protoplay.wasm: HTTP 404", "Content-Type text/plain", "With esbuild: import wasmURL from \"protoplay/protoplay.wasm\""} {
			if !strings.Contains(msg, want) {
				t.Errorf("the message lacks %q", want)
			}
		}
	})

	devServer := func(t *testing.T) string {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		cmd := exec.Command("node", vite, "--host", "127.0.0.1", "--port", fmt.Sprint(port), "--strictPort", "--force")
		cmd.Dir = dir
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			cmd.Process.Kill()
			cmd.Wait()
		})
		url := fmt.Sprintf("http://127.0.0.1:%d/", port)
		deadline := waitLimit(t)
		for {
			if r, err := http.Get(url); err == nil {
				r.Body.Close()
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("vite dev did not answer on %s: %s", url, out.String())
			}
			time.Sleep(100 * time.Millisecond)
		}
		return url
	}
	// Vite 8's dev server keeps the .wasm beside pre-bundled protoplay;
	// the README's optimizeDeps.exclude (for Vite 6 and 7, whose does
	// not) must work too.
	t.Run("vite-dev", func(t *testing.T) {
		url := devServer(t)
		do(t, ctx, chromedp.Navigate(url))
		firstEvent(t, ctx, "compiled", "a")
		if p := eval[string](t, ctx, `JSON.stringify(window.problems)`); p != "[]" {
			t.Errorf("problems: %s", p)
		}
	})
	t.Run("vite-dev-excluded", func(t *testing.T) {
		// The README's vite.config.js.
		writeFile(t, filepath.Join(dir, "vite.config.js"), `export default { optimizeDeps: { exclude: ["protoplay"] } };`+"\n")
		t.Cleanup(func() { os.Remove(filepath.Join(dir, "vite.config.js")) })
		url := devServer(t)
		do(t, ctx, chromedp.Navigate(url))
		firstEvent(t, ctx, "compiled", "a")
		if p := eval[string](t, ctx, `JSON.stringify(window.problems)`); p != "[]" {
			t.Errorf("problems: %s", p)
		}
	})
}
