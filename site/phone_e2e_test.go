package site_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// box is an element's bounding rectangle and whether it is shown.
type box struct {
	X, Y, W, H float64
	Shown      bool
}

const boxJS = `(sel => { const e = document.querySelector(sel); if (!e) return {X: 0, Y: 0, W: 0, H: 0, Shown: false}; const r = e.getBoundingClientRect(); return {X: r.x, Y: r.y, W: r.width, H: r.height, Shown: r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden'}; })`

func boxOf(t *testing.T, ctx context.Context, sel string) box {
	t.Helper()
	return eval[box](t, ctx, boxJS+`(`+jsString(sel)+`)`)
}

func overlap(a, b box) bool {
	return a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H
}

func inside(in, out box) bool {
	const slack = 1.5
	return in.X >= out.X-slack && in.Y >= out.Y-slack && in.X+in.W <= out.X+out.W+slack && in.Y+in.H <= out.Y+out.H+slack
}

// TestPhoneLayout: at 390x844 every panel fits the screen's width and
// shows its parts: the Schema pane's editor and file bar; the Go viewer;
// in Encode/decode the JSON editor inside its box, the hex box below it
// and uncovered, the base64 box tall enough to use; the checks list.
func TestPhoneLayout(t *testing.T) {
	t.Parallel()
	ctx := openExample(t)
	do(t, ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
	time.Sleep(300 * time.Millisecond)
	shot := func(name string) {
		if dir := os.Getenv("PROTOPLAY_SCREENSHOTS"); dir != "" {
			png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err == nil {
				os.WriteFile(dir+"/"+name+".png", png, 0o644)
			}
		}
	}
	noSideScroll := func(where string) {
		t.Helper()
		if w := eval[float64](t, ctx, `document.documentElement.scrollWidth`); w > 391 {
			t.Errorf("%s: the page is %v px wide at 390", where, w)
		}
	}

	// Schema pane.
	shot("phone-schema")
	noSideScroll("schema")
	if b := boxOf(t, ctx, `[data-testid=editor] .cm-editor`); !b.Shown || b.H < 300 {
		t.Errorf("schema editor %+v, want at least 300 px tall", b)
	}
	for _, sel := range []string{`[data-testid=add-file]`, `[data-testid=files-menu-button]`, `[data-testid=file-tab]`} {
		if b := boxOf(t, ctx, sel); !b.Shown || b.X+b.W > 390 {
			t.Errorf("%s %+v: not on screen", sel, b)
		}
	}

	// The menus open on the screen.
	for _, m := range []struct{ button, menu string }{{"files-menu-button", "files-menu"}, {"examples-button", "examples-menu"}} {
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=`+m.button+`]`)))
		time.Sleep(100 * time.Millisecond)
		if b := boxOf(t, ctx, `[data-testid=`+m.menu+`]`); !b.Shown || b.X < 0 || b.X+b.W > 391 || b.Y+b.H > 845 {
			t.Errorf("%s %+v: not on the 390x844 screen", m.menu, b)
		}
		shot("phone-" + m.menu)
		do(t, ctx, chromedp.KeyEvent("\u001b")) // Escape closes it
		if eval[bool](t, ctx, `!document.querySelector('[data-testid=`+m.menu+`]').hidden`) {
			t.Errorf("Escape left the %s open", m.menu)
		}
	}

	// Output pane: Go.
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-pane=output]`)))
	time.Sleep(200 * time.Millisecond)
	shot("phone-go")
	noSideScroll("Go")
	if b := boxOf(t, ctx, `[data-testid=go-output] .cm-editor`); !b.Shown || b.H < 300 || b.X+b.W > 391 {
		t.Errorf("Go viewer %+v", b)
	}

	// Encode/decode.
	selectTab(t, ctx, "tab-payload")
	waitJS(t, ctx, "the sample's bytes", `document.querySelector('[data-testid=hex-input]').value.length > 10`, 30*time.Second)
	time.Sleep(300 * time.Millisecond)
	shot("phone-payload")
	noSideScroll("Encode/decode")
	jsonBox := boxOf(t, ctx, `.json-box`)
	jsonEd := boxOf(t, ctx, `[data-testid=json-editor] .cm-editor`)
	hex := boxOf(t, ctx, `[data-testid=hex-input]`)
	b64 := boxOf(t, ctx, `[data-testid=base64-input]`)
	if !jsonEd.Shown || jsonEd.H < 120 || !inside(jsonEd, jsonBox) {
		t.Errorf("JSON editor %+v not inside its box %+v", jsonEd, jsonBox)
	}
	if !hex.Shown || hex.H < 60 || overlap(hex, jsonEd) || overlap(hex, jsonBox) {
		t.Errorf("hex box %+v hidden or under the JSON editor %+v (box %+v)", hex, jsonEd, jsonBox)
	}
	if !b64.Shown || b64.H < 36 || overlap(b64, hex) {
		t.Errorf("base64 box %+v collapsed or under the hex box %+v", b64, hex)
	}
	for name, b := range map[string]box{"JSON editor": jsonEd, "hex": hex, "base64": b64} {
		if b.X < 0 || b.X+b.W > 391 {
			t.Errorf("%s %+v runs off the screen", name, b)
		}
	}
	// The wire view follows, scrolled to.
	if b := boxOf(t, ctx, `[data-testid=wire-view]`); !b.Shown || b.W > 391 {
		t.Errorf("wire view %+v", b)
	}

	// Checks.
	selectTab(t, ctx, "tab-checks")
	waitJS(t, ctx, "checks", `document.querySelector('[data-testid=checks]').dataset.state === 'done'`, 30*time.Second)
	shot("phone-checks")
	noSideScroll("Checks")
	if b := boxOf(t, ctx, `[data-testid=check-result]`); !b.Shown || b.X+b.W > 391 {
		t.Errorf("check result %+v", b)
	}
	if right := eval[float64](t, ctx, `Math.max(...[...document.querySelectorAll('[data-testid=check-result] > *')].map(e => e.getBoundingClientRect().right))`); right > 391 {
		t.Errorf("a check result's text runs to %v px, off the 390 px screen", right)
	}
}
