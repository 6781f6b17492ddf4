package site_test

import (
	"context"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
)

// TestDownloadOffline: the page's core has no runtime sources of its own
// (wasm/runtime_lazy.go); it prefetches them once the first compile has
// answered and the calls pause. After that, with the server refusing the
// runtime asset (as offline), Download .zip still gives the whole module,
// runtime included, which builds and runs with no network.
func TestDownloadOffline(t *testing.T) {
	t.Parallel()
	runtimeAsset := regexp.MustCompile(`/runtime-[^/]*\.json$`)
	var served, refused atomic.Int32
	var offline atomic.Bool
	ctx, url := startBrowserWith(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if runtimeAsset.MatchString(r.URL.Path) {
				if offline.Load() {
					refused.Add(1)
					http.Error(w, "offline", http.StatusServiceUnavailable)
					return
				}
				defer served.Add(1)
			}
			h.ServeHTTP(w, r)
		})
	})
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"?timeout=300000")); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "the example's Go", compiles+` > 0 && `+goText+`.includes("type Person struct")`, 60*time.Second)
	// The prefetch holds the core's lock on the runtime's sources from
	// before its request until it has stored them (protoplay.RuntimeFS), so
	// once the asset has been served whole a later call finds them or
	// waits for them: none asks the server again.
	waitState(t, ctx, "the prefetch of the runtime asset", func() (bool, error) { return served.Load() > 0, nil }, 60*time.Second)
	offline.Store(true)

	got := downloadZip(t, ctx)
	checkModuleZip(t, got, "example.com/addressbook", "v1/example.pb.go", "timestamppb")
	if n := refused.Load(); n != 0 {
		t.Errorf("the download asked for the runtime asset %d more times", n)
	}
	if toast := eval[string](t, ctx, `document.body.innerText`); strings.Contains(toast, "generated files only") {
		t.Errorf("the page says the .zip is incomplete: %q", toast)
	}
}

// downloadMu lets one test's download run at a time (download).
var downloadMu sync.Mutex

// downloadZip clicks Download .zip and returns the files of
// protoplay-go.zip, name to text.
func downloadZip(t *testing.T, ctx context.Context) map[string]string {
	t.Helper()
	return download(t, ctx, "protoplay-go.zip", chromedp.Click(chromedp.CSS(`[data-testid=download]`)))
}

// download lets the browser save files into a new temporary folder, runs
// actions (the clicks that start a download), waits for the browser to say
// the download completed, and returns the files of the zip called name
// that arrived there (readZip), name to text.
func download(t *testing.T, ctx context.Context, name string, actions ...chromedp.Action[chromedp.Void]) map[string]string {
	t.Helper()
	// The tests' tabs share the browser's profile (launchChromium), whose
	// download folder is one setting, and the browser reports every tab's
	// downloads: one download at a time.
	downloadMu.Lock()
	defer downloadMu.Unlock()
	dir := t.TempDir()
	ended := make(chan *browser.EventDownloadProgress, 1)
	lctx, stop := context.WithCancel(ctx)
	defer stop()
	if err := chromedp.ListenBrowser(lctx, func(ev any) {
		if e, ok := ev.(*browser.EventDownloadProgress); ok && (e.State == browser.DownloadProgressStateCompleted || e.State == browser.DownloadProgressStateCanceled) {
			select {
			case ended <- e:
			default:
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	events := true
	if _, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir, EventsEnabled: &events,
		// The browser context of the test's tab: the profile's own
		// (launchChromium) unless PROTOPLAY_MEASURE.
		BrowserContextID: chromedp.FromContext(ctx).BrowserContextID,
	}); err != nil {
		t.Fatal(err)
	}
	do(t, ctx, actions...)
	select {
	case e := <-ended:
		if e.State != browser.DownloadProgressStateCompleted {
			t.Fatalf("the download of %s ended %s", name, e.State)
		}
	case <-ctx.Done():
		t.Fatalf("%s was not downloaded: %v", name, ctx.Err())
	}
	return readZip(t, filepath.Join(dir, name))
}

// TestCoreChangesPerOptions: the page's Core keeps the generated Go it
// holds per options string, so generate calls alternating two option sets
// (the Go pane's and the Go interpreter's, e.g. runtime=local) each get
// changes to their own last output, not whole files.
func TestCoreChangesPerOptions(t *testing.T) {
	t.Parallel()
	ctx, url := startBrowser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"?timeout=300000")); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "the example's Go", compiles+` > 0 && `+goText+`.includes("type Person struct")`, 60*time.Second)
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]map[string]any](`(async () => {
		const core = __protoplay.core, files = __protoplay.sources(), out = [];
		const name = Object.keys(files).find((k) => files[k].includes("message Person"));
		for (let i = 0; i < 3; i++) {
			const f = {...files, [name]: files[name].replace("message Person {", "// Person, edit " + i + ".\nmessage Person {")};
			for (const options of ["", "runtime=local"]) {
				const r = await core.call("generate", {files: f, options});
				out.push({step: i, options, whole: r.changes.filter((c) => !c.base).map((c) => c.name).join(" "),
					bytes: r.changes.reduce((n, c) => n + c.insert.length, 0),
					person: r.generated.some((g) => g.content.includes("// Person, edit " + i + "."))});
			}
		}
		return out;
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range got {
		t.Logf("%v", r)
		if r["person"] != true {
			t.Errorf("step %v, options %q: the held Go lacks the edited comment", r["step"], r["options"])
		}
		if r["step"].(float64) > 0 && (r["whole"] != "" || r["bytes"].(float64) > 2000) {
			t.Errorf("step %v, options %q: whole files %q, %v bytes inserted; want small changes to the copies held for these options", r["step"], r["options"], r["whole"], r["bytes"])
		}
	}
}
