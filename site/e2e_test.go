package site_test

// The playground in a real browser: Debian's chromium, headless, driven by
// chromedp, against site/dist served by this package's Handler.
//
// It needs site/dist (make site) and chromium (make chromium installs it
// with apt). When either is missing the tests skip with a line saying so,
// unless PROTOPLAY_E2E=1 (set by make test), which turns the skip into a
// failure. Parts that read ../shared skip when it is absent.

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/protoplay/protoplay/internal/gentest"
	"github.com/protoplay/protoplay/internal/version"
	"github.com/protoplay/protoplay/site"
)

// sharedDir is ../shared beside the checkout, or $PROTOPLAY_SHARED (as
// for the other packages' tests, gentest.SharedDir).
func sharedDir() string {
	dir, _ := gentest.SharedDir()
	return dir
}

// startBrowser starts a headless chromium on a fresh profile with the page
// server and returns a context for it and the server's URL.
func startBrowser(t *testing.T) (context.Context, string) {
	t.Helper()
	return startBrowserWith(t, nil)
}

// startBrowserWith is startBrowser with the page server's handler wrapped
// by wrap (when not nil), for tests that watch or refuse requests.
func startBrowserWith(t *testing.T, wrap func(http.Handler) http.Handler) (context.Context, string) {
	t.Helper()
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	if _, err := os.Stat("dist/index.html"); err != nil {
		skipOrFail(t, "site/dist is not built (run make site)")
	}
	chromium := chromiumPath()
	if chromium == "" {
		skipOrFail(t, "chromium is not installed (make chromium installs Debian's)")
	}
	ctx := launchChromium(t, chromium)
	if wrap == nil && os.Getenv("PROTOPLAY_MEASURE") == "" {
		return ctx, pageServerURL()
	}
	h := site.Handler(os.DirFS("dist"))
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)

	return ctx, srv.URL + "/"
}

// pageServer serves site/dist to the browser tests that do not watch or
// refuse requests (startBrowser): one server for the package, so that
// every such test's page loads the core and the interpreter from the same
// URLs, and Chromium's wasm code cache, kept per URL in the shared
// browser's profile, gives each page after the first the machine code
// compiled for those before it instead of compiling 23 MB of wasm again
// (seconds of CPU per page and per module). The page keeps no state of
// its own in the browser (no storage, cookies or service worker), so the
// tests' pages on one origin see nothing of each other's. Closed by
// TestMain.
var pageServer struct {
	sync.Mutex
	srv *httptest.Server
}

// pageServerURL returns the URL of the shared page server, starting it
// on first use.
func pageServerURL() string {
	pageServer.Lock()
	defer pageServer.Unlock()
	if pageServer.srv == nil {
		pageServer.srv = httptest.NewServer(site.Handler(os.DirFS("dist")))
	}
	return pageServer.srv.URL + "/"
}

// stopPageServer closes the shared page server, if started (the tests
// done).
func stopPageServer() {
	if pageServer.srv != nil {
		pageServer.srv.Close()
	}
}

// launchChromium opens a tab for t in headless chromium, closed when t
// ends, and returns a context for it. The chromium process is shared by
// the package's tests (sharedBrowser): starting one costs seconds, and 18 s
// at load 24, per test. The tabs are in the browser's own profile (on
// disk), not each in a browser context of its own: an extra browser
// context is an incognito one, which has no wasm code cache, so each
// test's page compiled both wasm modules from scratch (pageServer). Each
// test's pages are on an origin of their own or on the shared page
// server's, whose page keeps no state in the browser; downloads, which
// the browser sets up per browser context, take turns (download). Under
// PROTOPLAY_MEASURE each test starts its own browser on a fresh profile,
// whose code cache TestMeasure reads.
func launchChromium(t *testing.T, chromium string) context.Context {
	t.Helper()
	if os.Getenv("PROTOPLAY_MEASURE") != "" {
		profile := t.TempDir()
		actx, cancelA := chromedp.NewExecAllocator(context.Background(), chromiumOptions(chromium, profile)...)
		ctx, cancelC := chromedp.NewContext(actx, chromedp.WithLogf(t.Logf))
		ctx, cancelT := context.WithTimeout(ctx, browserLimit(t))
		t.Cleanup(func() { cancelT(); cancelC(); cancelA() })
		// Start the browser now, so later timeouts measure the page only.
		if err := chromedp.Do(ctx); err != nil {
			t.Fatalf("starting %s: %v", chromium, err)
		}
		return ctx
	}
	ctx, cancelC := chromedp.NewContext(browserProcess(t, chromium))
	ctx, cancelT := context.WithTimeout(ctx, browserLimit(t))
	t.Cleanup(func() { cancelT(); cancelC() })
	// Open the tab now, so later timeouts measure the page only. A new
	// window's page is 56 px taller than the first window's of a browser
	// of its own: the viewport is set to the size that one had (innerWidth
	// 1400, innerHeight 757), which the tests were written against.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1400, 757)); err != nil {
		t.Fatalf("opening a tab in %s: %v", chromium, err)
	}
	// The tests run several at a time (testParallel), each in a window of
	// its own: each page is told it has the focus, as the one window of a
	// browser of its own has, whichever window the browser last focused.
	if _, err := chromedp.Call(ctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		t.Fatalf("emulating focus in %s: %v", chromium, err)
	}
	return ctx
}

// chromiumOptions are the flags the tests start chromium with.
func chromiumOptions(chromium, profile string) []chromedp.ExecAllocatorOption {
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1400, 900),
	}
	if f := os.Getenv("PROTOPLAY_JS_FLAGS"); f != "" {
		opts = append(opts, chromedp.Flag("js-flags", f))
	}
	return opts
}

// sharedBrowser is the chromium process the package's browser tests open
// their tabs in, started by the first and stopped by TestMain; started
// again should it have ended.
var sharedBrowser struct {
	sync.Mutex
	ctx     context.Context // the browser's; its Err is set once it ended
	stop    func()
	profile string
}

// browserProcess returns the context of the shared chromium, starting it
// when there is none.
func browserProcess(t *testing.T, chromium string) context.Context {
	t.Helper()
	sharedBrowser.Lock()
	defer sharedBrowser.Unlock()
	if sharedBrowser.ctx != nil && sharedBrowser.ctx.Err() == nil {
		return sharedBrowser.ctx
	}
	stopBrowser()
	profile, err := os.MkdirTemp("", "protoplay-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), chromiumOptions(chromium, profile)...)
	// The browser outlives the test that starts it: its log goes to the
	// test binary's standard error, not to a test.
	ctx, cancelB := chromedp.NewContext(actx, chromedp.WithLogf(log.Printf))
	sharedBrowser.ctx, sharedBrowser.profile = ctx, profile
	sharedBrowser.stop = func() { cancelB(); cancelA() }
	if err := chromedp.Do(ctx); err != nil {
		stopBrowser()
		t.Fatalf("starting %s: %v", chromium, err)
	}
	return ctx
}

// stopBrowser stops the shared chromium, if any, and removes its profile
// (sharedBrowser locked, or the tests done).
func stopBrowser() {
	if sharedBrowser.stop != nil {
		sharedBrowser.stop()
	}
	if sharedBrowser.profile != "" {
		os.RemoveAll(sharedBrowser.profile)
	}
	sharedBrowser.ctx, sharedBrowser.stop, sharedBrowser.profile = nil, nil, ""
}

// browserLimit bounds a test's browser: until a minute before the test
// binary's deadline (go test -timeout), so that a page that hangs fails
// the test while the package still reports, and a busy machine, on which
// a test's steps take minutes, is not a failure; each wait in the test
// bounds the time the page sits idle (waitJS). Without a deadline (-timeout
// 0), 15 minutes.
func browserLimit(t *testing.T) time.Duration {
	if hard, ok := t.Deadline(); ok {
		return max(time.Until(hard)-time.Minute, time.Minute)
	}
	return 15 * time.Minute
}

func chromiumPath() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

func skipOrFail(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("PROTOPLAY_E2E") == "1" {
		t.Fatal(why)
	}
	t.Skip("skipping the browser test: " + why)
}

func needShared(t *testing.T, rel string) string {
	t.Helper()
	p := filepath.Join(sharedDir(), rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("skipping: %s not found (the shared corpus is absent)", p)
	}
	return p
}

// pageBusy is true while the page has work in flight: a compile running or
// due, calls to its core not yet answered, a program running (or waiting
// for the schema's first compile) in the Run tab, or the checks running.
const pageBusy = `(() => { const p = globalThis.__protoplay; if (!p) return false; const state = (id) => document.querySelector("[data-testid=" + id + "]")?.dataset.state; return (typeof p.idle === "function" && !p.idle()) || (!!p.core && p.core.busy > 0) || state("run-output") === "running" || state("run-output") === "waiting" || state("checks") === "running"; })()`

// waitJS waits until expr holds. timeout (at least minIdle) bounds only
// the time the page sits idle (see pageBusy) without expr holding: while a compile or a core
// call is in flight the wait goes on, however slow the machine, up to a
// minute before the test binary's own deadline (go test -timeout), so that
// a busy machine is not a failure and a page that stopped is one.
func waitJS(t *testing.T, ctx context.Context, what, expr string, timeout time.Duration) {
	t.Helper()
	waitState(t, ctx, what, func() (bool, error) {
		return chromedp.Run(ctx, chromedp.Evaluate[bool]("!!("+expr+")"))
	}, timeout)
}

// waitLimit is the deadline of a wait on a page that has no pageBusy to
// tell slow from stopped (the npm package's pages, a dev server, a
// download): a minute before the test binary's deadline, as waitJS's
// bound, so that a busy machine is not a failure; 15 minutes from now
// without one (go test -timeout 0).
func waitLimit(t *testing.T) time.Time {
	if hard, ok := t.Deadline(); ok {
		return hard.Add(-time.Minute)
	}
	return time.Now().Add(15 * time.Minute)
}

// minIdle is the least idle time a wait allows (waitJS, waitState),
// whatever its own timeout: on a busy machine the page's work that
// pageBusy does not see (reading an upload, a debounce, rendering, a
// worker's start) stretches too. With four tests at a time at load 25-30
// such steps took over 30 s.
const minIdle = 2 * time.Minute

// waitState is waitJS for a state the test reads itself (done), such as
// the requests its page server has answered: it waits until done holds,
// timeout (at least minIdle) bounding only the time the page sits idle
// without it.
func waitState(t *testing.T, ctx context.Context, what string, done func() (bool, error), timeout time.Duration) {
	t.Helper()
	timeout = max(timeout, minIdle)
	hard, hasHard := t.Deadline()
	idle, last := time.Duration(0), time.Now()
	for {
		ok, err := done()
		if err != nil {
			t.Fatalf("waiting for %s: %v", what, err)
		}
		if ok {
			return
		}
		busy, err := chromedp.Run(ctx, chromedp.Evaluate[bool](pageBusy))
		if err != nil {
			t.Fatalf("waiting for %s: %v", what, err)
		}
		now := time.Now()
		if !busy {
			idle += now.Sub(last)
		}
		last = now
		if idle > timeout || hasHard && now.After(hard.Add(-time.Minute)) {
			status, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid=status]').innerText + ' | ' + document.querySelector('[data-testid=diagnostics]').innerText + ' | ' + document.querySelector('[data-testid=notice]').innerText + ' | payload: ' + document.querySelector('[data-testid=payload-error]').innerText + ' | json: ' + __protoplay.jsonText().slice(0, 200) + ' | run: ' + document.querySelector('[data-testid=run-output]')?.dataset.state`))
			t.Fatalf("timed out waiting for %s: the page was idle for %v without it (page status: %s)", what, idle.Round(time.Millisecond), status)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// do runs browser actions and fails the test on an error.
func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// script runs JavaScript statements for their effect.
func script(js string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Evaluate[bool]("(() => {"+js+"; return true})()")(ctx, t)
		return err
	})
}

// insertText types text at the focus as one input, as a paste or an IME
// does.
func insertText(text string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, input.InsertText, input.InsertTextParams{Text: text})
		return err
	})
}

var ctrl = chromedp.KeyModifiers(chromedp.ModifierCtrl)

const (
	goText      = `__protoplay.viewer.state.doc.toString()`
	goState     = `document.querySelector('[data-testid=go-output]').dataset.state`
	compiles    = `__protoplay.stats.compiles`
	jsonText    = `__protoplay.jsonText()`
	diagnostics = `[...document.querySelectorAll('[data-testid=diagnostic]')]`
)

// replaceSource selects all of the .proto editor and types text over it,
// as a paste does.
func replaceSource(t *testing.T, ctx context.Context, text string) {
	t.Helper()
	n := eval[int](t, ctx, compiles)
	err := chromedp.Do(ctx,
		script(`__protoplay.editor.focus()`),
		chromedp.KeyEvent("a", ctrl),
		insertText(text),
	)
	if err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "a compile after the paste", fmt.Sprintf("%s > %d", compiles, n), 30*time.Second)
}

func TestPlayground(t *testing.T) {
	t.Parallel()
	ctx, url := startBrowser(t)
	// The page's console warnings and errors, for the subtests to check
	// (the tests below never make the page fail on purpose).
	var consoleMu sync.Mutex
	var console []string
	err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*cdpruntime.EventConsoleAPICalled); ok && (e.Type == cdpruntime.ConsoleAPICalledTypeWarning || e.Type == cdpruntime.ConsoleAPICalledTypeError) {
			var parts []string
			for _, a := range e.Args {
				parts = append(parts, strings.Trim(string(a.Value), `"`)+a.Description)
			}
			consoleMu.Lock()
			console = append(console, string(e.Type)+": "+strings.Join(parts, " "))
			consoleMu.Unlock()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	// A call limit no busy machine reaches (the default 10 s is overrun
	// by a cold Worker's first compile at load 20), as most browser tests
	// open the page with; TestWorkerReplacedOnTimeout and
	// TestRestartFailsCompile test the limit.
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"?timeout=300000")); err != nil {
		t.Fatal(err)
	}

	t.Run("example compiles and shows Go", func(t *testing.T) {
		// compiles > 0: the browser's own output, not the prebuilt one.
		waitJS(t, ctx, "the example's Go", compiles+` > 0 && `+goText+`.includes("type Person struct")`, 60*time.Second)
		if got := eval[string](t, ctx, goState); got != "ok" {
			t.Errorf("output state %q, want ok", got)
		}
		if n := eval[int](t, ctx, `__protoplay.stats.progressEvents`); n == 0 {
			t.Error("no download progress was shown")
		}
		tabs := eval[[]string](t, ctx, `[...document.querySelectorAll('[data-testid=go-file-tab]')].map(e => e.dataset.name)`)
		if len(tabs) != 1 || !strings.HasSuffix(tabs[0], "example.pb.go") {
			t.Errorf("Go tabs %q, want one example.pb.go", tabs)
		}
		t.Logf("first output %.0f ms after navigation (prebuilt: %v), compiled in the browser at %.0f ms",
			eval[float64](t, ctx, `__protoplay.stats.firstOutputMs`), eval[bool](t, ctx, `__protoplay.stats.prebuilt`), eval[float64](t, ctx, `__protoplay.stats.firstCompiledMs`))
	})

	t.Run("download gives a Go module that builds offline", func(t *testing.T) {
		got := downloadZip(t, ctx)
		checkModuleZip(t, got, "example.com/addressbook", "v1/example.pb.go", "timestamppb")
		if !strings.Contains(got["v1/example.pb.go"], "type Person struct") {
			t.Error("v1/example.pb.go does not hold the generated Go")
		}
	})

	t.Run("typed syntax error marks its line; fixing it brings output back", func(t *testing.T) {
		// Line 12 of the example is `  string name = 1;`: type a stray
		// "=" after it.
		n := eval[int](t, ctx, compiles)
		err := chromedp.Do(ctx,
			chromedp.Click(chromedp.CSS(`[data-testid=editor] .cm-line:nth-child(12)`)),
			chromedp.KeyEvent(kb.End),
			chromedp.KeyEvent("="),
		)
		if err != nil {
			t.Fatal(err)
		}
		waitJS(t, ctx, "a compile after typing", fmt.Sprintf("%s > %d", compiles, n), 30*time.Second)
		waitJS(t, ctx, "an error mark", `document.querySelector('[data-testid=editor] .cm-lintRange-error')`, 10*time.Second)
		markLine := eval[int](t, ctx, `(() => {
			const m = document.querySelector('[data-testid=editor] .cm-lintRange-error');
			const lines = [...document.querySelectorAll('[data-testid=editor] .cm-line')];
			return lines.indexOf(m.closest('.cm-line')) + 1;
		})()`)
		if markLine != 12 {
			t.Errorf("error mark on line %d, want 12", markLine)
		}
		diags := eval[[]map[string]string](t, ctx, diagnostics+`.map(e => ({line: e.dataset.line, text: e.innerText}))`)
		if len(diags) == 0 || diags[0]["line"] != "12" {
			t.Fatalf("diagnostics %v, want one on line 12", diags)
		}
		t.Logf("diagnostic: %s", diags[0]["text"])
		waitJS(t, ctx, "the output marked stale", goState+` === "stale"`, 5*time.Second)
		// Clicking the diagnostic puts the cursor on its line.
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`[data-testid=diagnostic]`))); err != nil {
			t.Fatal(err)
		}
		if l := eval[int](t, ctx, `__protoplay.editor.state.doc.lineAt(__protoplay.editor.state.selection.main.head).number`); l != 12 {
			t.Errorf("clicking the diagnostic moved the cursor to line %d, want 12", l)
		}

		n = eval[int](t, ctx, compiles)
		err = chromedp.Do(ctx,
			chromedp.Click(chromedp.CSS(`[data-testid=editor] .cm-line:nth-child(12)`)),
			chromedp.KeyEvent(kb.End),
			chromedp.KeyEvent(kb.Backspace),
		)
		if err != nil {
			t.Fatal(err)
		}
		waitJS(t, ctx, "a compile after the fix", fmt.Sprintf("%s > %d", compiles, n), 30*time.Second)
		waitJS(t, ctx, "output back after the fix", goState+` === "ok" && `+diagnostics+`.length === 0`, 30*time.Second)
		if eval[bool](t, ctx, `!!document.querySelector('[data-testid=editor] .cm-lintRange-error')`) {
			t.Error("error mark still shown after the fix")
		}
	})

	t.Run("GoogleMessage1 payload pasted as hex decodes to its JSON", func(t *testing.T) {
		schema := readFile(t, needShared(t, "corpus/benchmarks/datasets/google_message1/proto3/benchmark_message1_proto3.proto"))
		payload := googleMessage1Payload(t)
		replaceSource(t, ctx, schema)
		waitJS(t, ctx, "GoogleMessage1's Go", goText+`.includes("type GoogleMessage1 struct")`, 30*time.Second)
		selectTab(t, ctx, "tab-payload")
		pickType(t, ctx, "benchmarks.proto3.GoogleMessage1")

		pasteInto(t, ctx, "hex-input", spacedHex(payload))
		want := expectedJSON(t, schema, "benchmarks.proto3.GoogleMessage1", payload)
		waitJS(t, ctx, "the decoded JSON", jsonText+`.includes('"field1"') && document.querySelector('[data-testid=base64-input]').value === `+jsString(base64.StdEncoding.EncodeToString(payload)), 30*time.Second)
		sameJSON(t, eval[string](t, ctx, jsonText), want)
		// The wire view is drawn after the JSON, by another core call.
		waitJS(t, ctx, "the wire view of the payload", `document.querySelectorAll('[data-testid=wire-field]').length >= 10`, 30*time.Second)

		// Encode round trip: the decoded JSON encodes to the payload's
		// canonical bytes (the recording also holds explicit proto3 zero
		// values, which JSON cannot carry).
		do(t, ctx, script(`document.querySelector('[data-testid=hex-input]').value = ''`), chromedp.Click(chromedp.CSS(`[data-testid=encode]`)))
		waitJS(t, ctx, "the encoded hex", `document.querySelector('[data-testid=hex-input]').value !== ''`, 30*time.Second)
		canonical := canonicalBytes(t, schema, "benchmarks.proto3.GoogleMessage1", payload)
		if got := eval[string](t, ctx, `document.querySelector('[data-testid=hex-input]').value`); got != spacedHex(canonical) {
			t.Errorf("encoding the decoded JSON gave\n%s\nwant\n%s", got, spacedHex(canonical))
		}
	})

	t.Run("encode panel round-trips the sample", func(t *testing.T) {
		replaceSource(t, ctx, readFile(t, "../testdata/example/example.proto"))
		selectTab(t, ctx, "tab-payload")
		pickType(t, ctx, "example.addressbook.v1.Person")
		waitJS(t, ctx, "the sample's bytes", jsonText+`.includes('"name"') && document.querySelector('[data-testid=hex-input]').value.length > 10`, 30*time.Second)
		sample := eval[string](t, ctx, jsonText)
		hex := eval[string](t, ctx, `document.querySelector('[data-testid=hex-input]').value`)
		// Replace the JSON with nothing, then paste the bytes back.
		pasteInto(t, ctx, "base64-input", eval[string](t, ctx, `document.querySelector('[data-testid=base64-input]').value`))
		pasteInto(t, ctx, "hex-input", hex)
		waitJS(t, ctx, "the decoded sample", `document.querySelectorAll('[data-testid=wire-field]').length > 3`, 30*time.Second)
		time.Sleep(300 * time.Millisecond)
		sameJSON(t, eval[string](t, ctx, jsonText), sample)
		// Hovering a field lights its bytes. The view may still be redrawn
		// by the decode of the second paste, which clears the lit bytes:
		// hover until a settled view shows them.
		waitJS(t, ctx, "a hovered field's bytes lit", `(() => {
			document.querySelector('[data-testid=wire-field]').dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));
			return document.querySelectorAll('[data-testid=wire-bytes] .lit, [data-testid=wire-bytes] .tag').length > 0;
		})()`, 30*time.Second)
		// Every editor has been shown by now (.proto, Go, JSON): none of
		// their languages may name a highlighting tag CodeMirror lacks.
		consoleMu.Lock()
		defer consoleMu.Unlock()
		for _, c := range console {
			if strings.Contains(c, "highlighting tag") {
				t.Errorf("console: %s", c)
			}
		}
	})

	t.Run("checks are green for test_messages_proto3", func(t *testing.T) {
		src := readFile(t, needShared(t, "corpus/protobuf/google/protobuf/test_messages_proto3.proto"))
		replaceSource(t, ctx, src)
		waitJS(t, ctx, "Go for TestAllTypesProto3", goText+`.includes("TestAllTypesProto3")`, 60*time.Second)
		selectTab(t, ctx, "tab-checks")
		waitJS(t, ctx, "check results", `document.querySelector('[data-testid=checks]').dataset.state === 'done' && document.querySelector('[data-testid=check-result][data-type="protobuf_test_messages.proto3.TestAllTypesProto3"]')`, 60*time.Second)
		res := eval[[]map[string]string](t, ctx, `[...document.querySelectorAll('[data-testid=check-result]')].map(e => ({type: e.dataset.type, status: e.dataset.status, text: e.innerText}))`)
		if len(res) < 5 {
			t.Fatalf("%d check results, want every message type", len(res))
		}
		for _, r := range res {
			if r["status"] != "pass" {
				t.Errorf("check failed: %s", r["text"])
			}
		}
		t.Logf("%d message types checked", len(res))
	})

	t.Run("a share link restores files and options", func(t *testing.T) {
		replaceSource(t, ctx, readFile(t, "../testdata/example/example.proto"))
		waitJS(t, ctx, "the example's Go", goText+`.includes("type Person struct")`, 30*time.Second)
		if !eval[bool](t, ctx, goText+`.includes("unknownFields")`) {
			t.Fatal("default output has no unknownFields: the unknown_fields=drop check below would prove nothing")
		}
		err := chromedp.Do(ctx,
			chromedp.Click(chromedp.CSS(`[data-testid=add-file]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid=rename-file]`)),
			chromedp.KeyEvent("a", ctrl),
			insertText("extra/notes.proto"),
			chromedp.KeyEvent(kb.Enter),
			chromedp.Click(chromedp.CSS(`[data-testid=options-toggle]`)),
			chromedp.SetValue(chromedp.CSS(`[data-testid=opt-unknown]`), "drop"),
			script(`document.querySelector('[data-testid=opt-unknown]').dispatchEvent(new Event('input', {bubbles: true}))`),
		)
		if err != nil {
			t.Fatal(err)
		}
		waitJS(t, ctx, "output for both files", `document.querySelectorAll('[data-testid=go-file-tab]').length === 2`, 30*time.Second)
		if err := chromedp.Do(ctx, chromedp.KeyEvent("s", ctrl)); err != nil {
			t.Fatal(err)
		}
		waitJS(t, ctx, "the share link", `location.hash.startsWith('#s=') && !document.querySelector('[data-testid=toast]').hidden`, 10*time.Second)
		link := eval[string](t, ctx, `location.href`)
		if err := chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(link)); err != nil {
			t.Fatal(err)
		}
		waitJS(t, ctx, "the restored session's output", `document.querySelectorAll('[data-testid=go-file-tab]').length === 2`, 60*time.Second)
		files := eval[[]string](t, ctx, `[...document.querySelectorAll('[data-testid=file-tab]')].map(e => e.dataset.name)`)
		if !reflect.DeepEqual(files, []string{"example.proto", "extra/notes.proto"}) {
			t.Errorf("restored files %q", files)
		}
		if got := eval[string](t, ctx, `document.querySelector('[data-testid=opt-unknown]').value`); got != "drop" {
			t.Errorf("restored unknown_fields option %q, want drop", got)
		}
		if !eval[bool](t, ctx, `__protoplay.sources()["extra/notes.proto"].includes("message File2 ")`) {
			t.Error("the second file's text was not restored")
		}
		if eval[bool](t, ctx, goText+`.includes("unknownFields")`) {
			t.Error("unknown_fields=drop not applied after the restore")
		}
	})
}

// TestLinkPastedIntoOpenPage: a share link opened in the playground's own
// tab (pasted into its address: a hashchange, no new page) loads its
// workspace, also when the page's save of the workspace on screen lands
// between the navigation and the page's handling of it. That order lost
// the link: the save, due 400 ms after the last change, put the old
// workspace's hash back into the address before the hashchange handler
// read location.hash, which then matched the hash the page last wrote
// (TestGoChecksSharedCases, opening a case 400 ms after the one before
// compiled). The script below makes the save's effect land first, as it
// did: the link's navigation, then the page's replaceState of its own
// hash, in one task, before the hashchange event is handled.
func TestLinkPastedIntoOpenPage(t *testing.T) {
	t.Parallel()
	ctx, url := startBrowser(t)
	session := func(name, msg string) map[string]any {
		return map[string]any{"files": []map[string]string{{"name": name, "text": "syntax = \"proto3\";\npackage p;\nmessage " + msg + " { string s = 1; }\n"}}, "active": name, "options": ""}
	}
	do(t, ctx, chromedp.Navigate(url+"?timeout=300000"+encodeSession(t, session("a.proto", "A"))))
	waitJS(t, ctx, "a.proto's Go and its hash written", `__protoplay.stats.compiles > 0 && `+goText+`.includes("type A struct") && __protoplay.savedState()?.active === "a.proto" && location.hash.startsWith("#s=")`, 60*time.Second)
	written := eval[string](t, ctx, `location.hash`)
	n := eval[int](t, ctx, `__protoplay.stats.compiles`)
	do(t, ctx, script(`location.hash = `+jsString(encodeSession(t, session("b.proto", "B")))+`; history.replaceState(null, "", `+jsString(written)+`)`))
	waitJS(t, ctx, "b.proto's Go", `__protoplay.stats.compiles > `+itoa(n)+` && `+goText+`.includes("type B struct")`, 60*time.Second)
	files := eval[[]string](t, ctx, `[...document.querySelectorAll('[data-testid=file-tab]')].map(e => e.dataset.name)`)
	if !reflect.DeepEqual(files, []string{"b.proto"}) {
		t.Errorf("files after the link %q, want [b.proto]", files)
	}
	// The address ends with the link's workspace, as the page writes it.
	waitJS(t, ctx, "b.proto's workspace in the address", `__protoplay.savedState()?.active === "b.proto" && location.hash !== `+jsString(written), 30*time.Second)
}

func TestWorkerReplacedOnTimeout(t *testing.T) {
	t.Parallel()
	ctx, url := startBrowser(t)
	// A 1 ms limit: the first compile overruns it.
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"?timeout=1")); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "the restart notice", `!document.querySelector('[data-testid=notice]').hidden && document.querySelector('[data-testid=notice]').innerText.includes('restarted')`, 60*time.Second)
	waitJS(t, ctx, "a replacement Worker", `__protoplay.core.restarts >= 1`, 10*time.Second)
	// The compile the restart ended failed: the built-ahead output is
	// dimmed, and the replacement's ready message does not hide why.
	waitReplacement(t, ctx)
	waitJS(t, ctx, "the built-ahead Go pane marked stale", goState+` === 'stale'`, 10*time.Second)
	if s := eval[string](t, ctx, `document.querySelector('[data-testid=status]').innerText`); !strings.Contains(s, "Compile failed") || !strings.Contains(s, "?timeout=MS") {
		t.Errorf("status %q, want the failed compile and how to raise the limit", s)
	}
}

// waitReplacement waits until the replacement Worker is ready and its
// ready message has been handled.
func waitReplacement(t *testing.T, ctx context.Context) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`__protoplay.core.readyPromise.then(() => new Promise(r => setTimeout(() => r(true), 200)))`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatal(err)
	}
}

func selectTab(t *testing.T, ctx context.Context, id string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`[data-testid=`+id+`]`))); err != nil {
		t.Fatal(err)
	}
}

func pickType(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	waitJS(t, ctx, "type "+name+" in the picker", `[...document.querySelector('[data-testid=type-picker]').options].some(o => o.value === `+jsString(name)+`)`, 30*time.Second)
	do(t, ctx, script(`
		const s = document.querySelector('[data-testid=type-picker]');
		if (s.value !== `+jsString(name)+`) { s.value = `+jsString(name)+`; s.dispatchEvent(new Event('change')); }`))
}

// pasteInto replaces a textarea's text as a paste would: select all, then
// insert.
func pasteInto(t *testing.T, ctx context.Context, id, text string) {
	t.Helper()
	sel := `[data-testid=` + id + `]`
	do(t, ctx,
		chromedp.Focus(chromedp.CSS(sel)),
		script(`document.querySelector('`+sel+`').select()`),
		insertText(text),
	)
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func spacedHex(b []byte) string {
	var s strings.Builder
	for i, c := range b {
		if i > 0 {
			s.WriteByte(' ')
		}
		fmt.Fprintf(&s, "%02x", c)
	}
	return s.String()
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func sameJSON(t *testing.T, got, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("page JSON does not parse: %v\n%s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("JSON differs:\ngot  %s\nwant %s", got, want)
	}
}

// encodeSession writes a share-link hash the way share.ts does: JSON,
// deflate-raw, base64url.
func encodeSession(t *testing.T, state any) string {
	t.Helper()
	js, _ := json.Marshal(state)
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	w.Write(js)
	w.Close()
	return "#s=" + base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

// workspaceTab is one browser tab that opens workspaces one after
// another, each from its share link: the first by navigating to the link,
// each next one by changing the open page's hash to it, as a person
// pasting a link into the playground's own tab does (sharelink.ts loads
// it on hashchange). One page for many workspaces spares each the page's
// start: the two wasm modules instantiated and their Go runtimes started
// again, seconds of CPU per page. A failed workspace's successor gets a
// tab of its own (next), so that one failure is not the next one's.
type workspaceTab struct {
	ctx    context.Context
	url    string
	query  string // the page's parameters, such as ?timeout=300000
	loaded bool   // the tab holds a page
}

// next opens a new tab when there is none or when the last workspace's
// test failed (lastOK false). It is called from the parent test's
// goroutine: the tab lives until t ends.
func (w *workspaceTab) next(t *testing.T, lastOK bool) {
	t.Helper()
	if w.ctx == nil || !lastOK {
		w.ctx, w.url = startBrowser(t)
		w.loaded = false
	}
}

// load opens session (encodeSession's state) in the tab and waits until
// its compile's result is on screen: generated Go or diagnostics
// (__protoplay.stats.compiles, which counts the results shown, passes the
// count before the link). The checks' data-go is cleared first, so that
// a wait for 'done' or 'error' sees this workspace's round of checks of
// the generated Go, not the last one's.
func (w *workspaceTab) load(t *testing.T, session map[string]any) context.Context {
	t.Helper()
	hash := encodeSession(t, session)
	if !w.loaded {
		do(t, w.ctx, chromedp.Navigate(w.url+w.query+hash))
		w.loaded = true
		waitJS(t, w.ctx, "the workspace compiled (output or errors)", `__protoplay.stats.compiles > 0`, 90*time.Second)
		return w.ctx
	}
	n := eval[int](t, w.ctx, `__protoplay.stats.compiles`)
	do(t, w.ctx, script(`document.querySelector('[data-testid=checks]').dataset.go = ''; location.hash = `+jsString(hash)))
	waitJS(t, w.ctx, "the workspace compiled (output or errors)", `__protoplay.stats.compiles > `+itoa(n), 90*time.Second)
	return w.ctx
}

// TestAboutDialog: the header's About button opens, from the keyboard, a
// dialog with the version (the package's, and the core's as the wasm
// reports it), the license with a link to LICENSE.txt and a link to the
// third-party notices, both served; Escape closes it and gives the focus
// back.
func TestAboutDialog(t *testing.T) {
	t.Parallel()
	ctx, url := startBrowser(t)
	do(t, ctx, chromedp.Navigate(url+"?timeout=300000"))
	waitJS(t, ctx, "the core's version", `__protoplay.stats.version !== ""`, 60*time.Second)
	coreVersion := eval[string](t, ctx, `__protoplay.stats.version`)

	const dialog = `document.querySelector('[data-testid=about-dialog]')`
	do(t, ctx, script(`document.querySelector('[data-testid=about]').focus()`), chromedp.KeyEvent(kb.Enter))
	waitJS(t, ctx, "the About dialog", dialog+` && `+dialog+`.open`, 5*time.Second)
	if !eval[bool](t, ctx, dialog+`.contains(document.activeElement)`) {
		t.Error("the focus is not in the dialog")
	}
	text := func(id string) string {
		return eval[string](t, ctx, fmt.Sprintf(`document.querySelector('[data-testid=%s]').textContent`, id))
	}
	if v, want := text("about-version"), strings.TrimPrefix(version.Base, "v"); v != want {
		t.Errorf("version %q, want %q, protoplay's (internal/version)", v, want)
	}
	if c := text("about-core"); c != "built with "+coreVersion || !strings.HasPrefix(coreVersion, "go1.") {
		t.Errorf("core %q, want built with the core's version %q (go1.x)", c, coreVersion)
	}
	if l := text("about-license"); l != "Apache License 2.0" {
		t.Errorf("license %q", l)
	}
	// Both links lead to what they name.
	for _, c := range []struct{ sel, want string }{
		{`[data-testid=about-license] a`, "Version 2.0, January 2004"},
		{`[data-testid=about-notices]`, "github.com/bufbuild/protocompile"},
	} {
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`(async () => { const r = await fetch(document.querySelector(%q).href); return r.status + " " + r.headers.get("content-type") + " " + await r.text(); })()`, "dialog "+c.sel), chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(got, "200 text/plain") || !strings.Contains(got, c.want) {
			t.Errorf("%s: %.120q, want 200 text/plain with %q", c.sel, got, c.want)
		}
	}

	do(t, ctx, chromedp.KeyEvent(kb.Escape))
	waitJS(t, ctx, "the dialog to close", `!`+dialog+`.open`, 5*time.Second)
	if id := eval[string](t, ctx, `document.activeElement.dataset.testid || ""`); id != "about" {
		t.Errorf("after Escape the focus is on %q, want the About button", id)
	}
}

// openExampleMenu picks an example from the Examples menu, as a person
// does: the button, then the item.
func openExampleMenu(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	do(t, ctx,
		chromedp.Click(chromedp.CSS(`[data-testid=examples-button]`)),
		chromedp.Click(chromedp.CSS(`[data-testid=example-item][data-name="`+name+`"]`)),
	)
}

// TestRestartFailsCompile: a generate call that the page's call limit ends
// (the Worker replaced) is a failed compile: the status says so and how
// to raise the limit, and keeps saying so after the new Worker is ready;
// the Go pane (the last schema's Go) is dimmed and the panels say they
// follow the last schema that compiled; the next edit compiles again.
// The steps: the address book compiles, one character typed in a comment
// compiles, a 0.5 s call limit, then Examples → Fleet API (which overruns
// it).
func TestRestartFailsCompile(t *testing.T) {
	t.Parallel()
	ctx, url := startBrowser(t)
	// The page is opened with a limit no busy machine reaches (the default
	// 10 s is overrun by a cold Worker's first compile at load 20) and the
	// limit lowered to 0.5 s (as ?timeout=500 sets it) once the Worker is
	// warm: on a loaded machine the cold Worker's first compile overruns
	// 0.5 s itself (the first-visit case, TestWorkerReplacedOnTimeout).
	do(t, ctx, chromedp.Navigate(url+"?timeout=300000"))
	waitJS(t, ctx, "the example compiled in the browser", `__protoplay.stats.firstCompiledMs > 0`, 60*time.Second)
	n := eval[int](t, ctx, compiles)
	do(t, ctx,
		script(`const d = __protoplay.editor.state.doc.toString(); const i = d.indexOf('//'); if (i < 0) throw new Error('no comment'); __protoplay.editor.focus(); __protoplay.editor.dispatch({selection: {anchor: i + 2}})`),
		insertText("x"),
	)
	waitJS(t, ctx, "a compile after the edit", fmt.Sprintf("%s > %d && __protoplay.idle()", compiles, n), 30*time.Second)
	if s := eval[string](t, ctx, goState); s != "ok" {
		t.Fatalf("Go pane state %q after the edit compiled", s)
	}
	restarts := eval[int](t, ctx, `__protoplay.core.restarts`)
	do(t, ctx, script(`__protoplay.core.opts.timeoutMs = 500`))
	openExampleMenu(t, ctx, "fleet/v1/fleet.proto")
	waitJS(t, ctx, "the restart notice", fmt.Sprintf(`__protoplay.core.restarts > %d && !document.querySelector('[data-testid=notice]').hidden && document.querySelector('[data-testid=notice]').innerText.includes('restarted')`, restarts), 60*time.Second)
	waitReplacement(t, ctx)
	waitJS(t, ctx, "the Go pane marked stale", goState+` === 'stale'`, 10*time.Second)
	st := eval[map[string]string](t, ctx, `({
		text: document.querySelector('[data-testid=status]').innerText,
		state: document.querySelector('[data-testid=status]').dataset.state,
		checksStale: String(!document.querySelector('[data-testid=checks-stale]').hidden),
		payloadStale: String(!document.querySelector('[data-testid=payload-stale]').hidden),
		badge: document.querySelector('[data-testid=checks-badge]').className,
		diags: [...document.querySelectorAll('[data-testid=diagnostic].error')].map(e => e.innerText).join('\n'),
	})`)
	if !strings.Contains(st["text"], "Compile failed") || !strings.Contains(st["text"], "?timeout=MS") || st["state"] != "failed" {
		t.Errorf("status %q (state %q), want the failed compile and how to raise the limit", st["text"], st["state"])
	}
	if st["checksStale"] != "true" || st["payloadStale"] != "true" || !strings.Contains(st["badge"], "stale") {
		t.Errorf("panels not marked stale: checks %s, payload %s, badge class %q", st["checksStale"], st["payloadStale"], st["badge"])
	}
	if !strings.Contains(st["diags"], "restarted") {
		t.Errorf("no diagnostic says why: %q", st["diags"])
	}
	if !eval[bool](t, ctx, `__protoplay.editor.state.doc.toString().includes('package example.fleet.v1')`) {
		t.Error("the editor does not hold fleet.proto")
	}
	// The next edit compiles again (a schema that fits the limit, on a
	// cold Worker: the opening limit again).
	do(t, ctx, script(`__protoplay.core.opts.timeoutMs = 300000`))
	n = eval[int](t, ctx, compiles)
	openExampleMenu(t, ctx, "example.proto")
	waitJS(t, ctx, "a compile after the next edit", fmt.Sprintf("%s > %d && %s === 'ok'", compiles, n, goState), 60*time.Second)
	if s := eval[string](t, ctx, `document.querySelector('[data-testid=status]').dataset.state`); s != "ok" {
		t.Errorf("status state %q after the next compile (%s)", s, eval[string](t, ctx, `document.querySelector('[data-testid=status]').innerText`))
	}
	if eval[bool](t, ctx, `!document.querySelector('[data-testid=checks-stale]').hidden`) {
		// The panels follow once the edits pause; give them the moment.
		waitJS(t, ctx, "the Checks panel current again", `document.querySelector('[data-testid=checks-stale]').hidden`, 10*time.Second)
	}
}
