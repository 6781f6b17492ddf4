package site_test

import (
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestScreenshot writes PNGs of the page for the README and for looking at
// the layout: PROTOPLAY_SCREENSHOTS=DIR go test -run TestScreenshot ./site
func TestScreenshot(t *testing.T) {
	dir := os.Getenv("PROTOPLAY_SCREENSHOTS")
	if dir == "" {
		t.Skip("set PROTOPLAY_SCREENSHOTS=DIR to write screenshots")
	}
	ctx, url := browser(t)
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
	waitJS(t, ctx, "output", goText+`.includes("type Person struct")`, 60*time.Second)
	shoot("go", 1400, 860)
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=tab-payload]`)))
	waitJS(t, ctx, "the wire view", `document.querySelectorAll('[data-testid=wire-field]').length > 3`, 30*time.Second)
	shoot("payload", 1400, 860, script(`document.querySelectorAll('[data-testid=wire-field]')[3].dispatchEvent(new MouseEvent('mouseover', {bubbles: true}))`))
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=tab-checks]`)))
	shoot("checks", 1400, 860)
	shoot("phone", 390, 844, chromedp.Click(chromedp.CSS(`[data-testid=tab-go]`)))
	shoot("phone-output", 390, 844, script(`document.querySelector('[data-pane=output]').click()`))
}
