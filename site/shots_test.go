package site_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestScreenshot writes PNGs of the page for the README and for looking at
// the layout: PROTOPLAY_SCREENSHOTS=DIR go test -run TestScreenshot ./site
func TestScreenshot(t *testing.T) {
	dir := os.Getenv("PROTOPLAY_SCREENSHOTS")
	if dir == "" {
		t.Skip("set PROTOPLAY_SCREENSHOTS=DIR to write screenshots")
	}
	ctx, url := startBrowser(t)
	shoot := func(name string, w, h int64, setup ...chromedp.Action[chromedp.Void]) {
		do(t, ctx, chromedp.EmulateViewport(w, h))
		do(t, ctx, setup...)
		time.Sleep(400 * time.Millisecond)
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dir+"/"+name+".png", png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	do(t, ctx, chromedp.Navigate(url))
	waitJS(t, ctx, "output", compiles+` > 0 && `+goText+`.includes("type Person struct")`, 60*time.Second)
	shoot("go", 1400, 860)
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=tab-payload]`)))
	waitJS(t, ctx, "the wire view", `document.querySelectorAll('[data-testid=wire-field]').length > 3`, 30*time.Second)
	shoot("payload", 1400, 860, script(`document.querySelectorAll('[data-testid=wire-field]')[3].dispatchEvent(new MouseEvent('mouseover', {bubbles: true}))`))
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=tab-checks]`)))
	shoot("checks", 1400, 860)
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=tab-go]`)))
	shoot("phone", 390, 844)
	shoot("phone-output", 390, 844, script(`document.querySelector('[data-pane=output]').click()`))
}

// TestREADMEScreenshot writes DIR/playground.png, the picture in the
// README: the GoogleMessage1 benchmark schema with its recorded payload
// decoded, a field hovered in the wire view.
func TestREADMEScreenshot(t *testing.T) {
	dir := os.Getenv("PROTOPLAY_SCREENSHOTS")
	if dir == "" {
		t.Skip("set PROTOPLAY_SCREENSHOTS=DIR to write screenshots")
	}
	schema := readFile(t, needShared(t, "corpus/benchmarks/datasets/google_message1/proto3/benchmark_message1_proto3.proto"))
	payload := googleMessage1Payload(t)
	ctx, url := startBrowser(t)
	for _, scheme := range []string{"light", "dark"} {
		do(t, ctx, chromedp.EmulateViewport(1440, 900), chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
			})
			return err
		}))
		session := map[string]any{
			"files":  []map[string]string{{"name": "benchmark_message1_proto3.proto", "text": schema}},
			"active": "benchmark_message1_proto3.proto", "options": "", "type": "benchmarks.proto3.GoogleMessage1",
		}
		do(t, ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(url+encodeSession(t, session)))
		waitJS(t, ctx, "output", goText+`.includes("type GoogleMessage1 struct")`, 60*time.Second)
		selectTab(t, ctx, "tab-payload")
		pickType(t, ctx, "benchmarks.proto3.GoogleMessage1")
		pasteInto(t, ctx, "hex-input", spacedHex(payload))
		waitJS(t, ctx, "the decoded payload", jsonText+`.includes('"field1"') && document.querySelectorAll('[data-testid=wire-field]').length > 10`, 30*time.Second)
		// Compile once more, so the status shows a warm compile's time.
		n := eval[int](t, ctx, compiles)
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=run]`)))
		waitJS(t, ctx, "a second compile", fmt.Sprintf("%s > %d", compiles, n), 30*time.Second)
		time.Sleep(500 * time.Millisecond)
		do(t, ctx, script(`
			const v = __protoplay.editor, d = v.state.doc;
			const at = d.toString().indexOf("message GoogleMessage1 {");
			v.dispatch({selection: {anchor: at}, effects: []});
			v.scrollDOM.scrollTop = v.lineBlockAt(at).top - 8;
			document.activeElement.blur();
			document.querySelectorAll('[data-testid=wire-field]')[6].dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));`))
		time.Sleep(300 * time.Millisecond)
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		name := "playground.png"
		if scheme == "dark" {
			name = "playground-dark.png"
		}
		if err := os.WriteFile(dir+"/"+name, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
