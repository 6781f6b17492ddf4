package site_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chooseAPILevel picks level in the API-level select over the Go pane, as
// a person does (the select's value, then its change event).
func chooseAPILevel(t *testing.T, ctx context.Context, level string) {
	t.Helper()
	selectTab(t, ctx, "tab-go")
	do(t, ctx,
		chromedp.SetValue(chromedp.CSS(`[data-testid=api-level]`), level),
		script(`document.querySelector('[data-testid=api-level]').dispatchEvent(new Event('change', {bubbles: true}))`),
	)
}

// runTheProgram presses Run on the Run tab and returns what the program
// printed, failing on anything but a clean run.
func runTheProgram(t *testing.T, ctx context.Context) string {
	t.Helper()
	selectTab(t, ctx, "tab-run")
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=run-program]`)))
	waitJS(t, ctx, "the program to end", runState+` !== 'running' && `+runState+` !== 'waiting' && `+runState+` !== 'idle'`, 90*time.Second)
	if st := eval[string](t, ctx, runState); st != "done" {
		t.Fatalf("the program: %s: %s\n%s", st, eval[string](t, ctx, `document.querySelector('[data-testid=run-error]').innerText`), eval[string](t, ctx, `__protoplay.runEditor.state.doc.toString()`))
	}
	return eval[string](t, ctx, runStdout)
}

// TestAPILevel: the API-level control over the Go pane. Choosing Opaque
// regenerates the Go with hidden fields and accessors (the option
// default_api_level=API_OPAQUE, shown in the options string); the Run
// tab's program for the example becomes the opaque one (builder, setter)
// and prints the same as the open one; the .zip builds and runs offline;
// a share link keeps the choice. For another schema the Run tab's
// template is written for the API the code has, and runs; Hybrid shows
// the two files protoc-gen-go writes.
func TestAPILevel(t *testing.T) {
	t.Parallel()
	ctx, url := startBrowser(t)
	// A call limit and a program run limit no busy machine reaches (the
	// default 10 s of each was overrun at load 25-35); the share link
	// below keeps them.
	do(t, ctx, chromedp.Navigate(url+"?timeout=300000&runlimit=300000"))
	waitJS(t, ctx, "the example compiled in the browser", `__protoplay.stats.firstCompiledMs > 0 && `+goText+`.includes("type Person struct")`, 60*time.Second)
	if eval[bool](t, ctx, goText+`.includes("xxx_hidden_")`) || eval[string](t, ctx, `document.querySelector('[data-testid=api-level]').value`) != "" {
		t.Fatal("the example's default output is already opaque, or the control is not at its default")
	}

	chooseAPILevel(t, ctx, "API_OPAQUE")
	waitJS(t, ctx, "the opaque Go", goText+`.includes("xxx_hidden_Name") && `+goText+`.includes("func (m *Person) SetName(v string)") && `+goText+`.includes("type Person_builder struct")`, 60*time.Second)
	if s := eval[string](t, ctx, `document.querySelector('[data-testid=opt-string]').textContent`); s != "default_api_level=API_OPAQUE" {
		t.Errorf("options string %q", s)
	}

	selectTab(t, ctx, "tab-run")
	waitJS(t, ctx, "the opaque example program", `__protoplay.runEditor.state.doc.toString().includes('addressbookv1.Person_builder{')`, 60*time.Second)
	if got := runTheProgram(t, ctx); got != exampleProgramOutput {
		t.Errorf("stdout:\n%s\nwant:\n%s", got, exampleProgramOutput)
	}

	// The .zip: its main.go calls methods only, so it builds and runs
	// against opaque code as against open code.
	selectTab(t, ctx, "tab-go")
	zipped := downloadZip(t, ctx)
	if !strings.Contains(zipped["v1/example.pb.go"], "xxx_hidden_Name") {
		t.Errorf("the .zip's example.pb.go is not opaque")
	}
	checkModuleZip(t, zipped, "example.com/addressbook", "v1/example.pb.go", "timestamppb")

	// The share link keeps the level.
	do(t, ctx, chromedp.KeyEvent("s", ctrl))
	waitJS(t, ctx, "the share link", `location.hash.startsWith('#s=') && !document.querySelector('[data-testid=toast]').hidden`, 10*time.Second)
	link := eval[string](t, ctx, `location.href`)
	do(t, ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(link))
	waitJS(t, ctx, "the restored session compiled", `__protoplay.stats.firstCompiledMs > 0 && `+goText+`.includes("xxx_hidden_Name")`, 60*time.Second)
	if v := eval[string](t, ctx, `document.querySelector('[data-testid=api-level]').value`); v != "API_OPAQUE" {
		t.Errorf("the restored API level %q, want API_OPAQUE", v)
	}
	selectTab(t, ctx, "tab-run")
	waitJS(t, ctx, "the opaque example program after the reload", `__protoplay.runEditor.state.doc.toString().includes('addressbookv1.Person_builder{')`, 60*time.Second)

	// Another schema: the template sets an explicit-presence string with
	// its setter (its builder field is a pointer) and reads it back.
	selectTab(t, ctx, "tab-go")
	replaceSource(t, ctx, "syntax = \"proto3\";\npackage demo;\noption go_package = \"example.com/demo\";\nmessage Note {\n  optional string title = 1;\n  int32 n = 2;\n}\n")
	waitJS(t, ctx, "the opaque Go of Note", goText+`.includes("func (m *Note) SetTitle(v string)")`, 60*time.Second)
	selectTab(t, ctx, "tab-run")
	waitJS(t, ctx, "the template for Note", `__protoplay.runEditor.state.doc.toString().includes('demo.Note_builder{}.Build()')`, 90*time.Second)
	out := runTheProgram(t, ctx)
	if !strings.HasPrefix(out, "Title: \"changed\"\nHasTitle: true\n") || !strings.Contains(out, `decoded: {"title":"changed"}`) {
		t.Errorf("the opaque template printed:\n%s", out)
	}

	// Back to "as the file says" (open for proto3): a struct literal and
	// field access; the explicit-presence *string is passed over for n.
	chooseAPILevel(t, ctx, "")
	waitJS(t, ctx, "the open Go of Note", goText+`.includes("\tTitle *string")`, 60*time.Second)
	selectTab(t, ctx, "tab-run")
	waitJS(t, ctx, "the open template for Note", `__protoplay.runEditor.state.doc.toString().includes('&demo.Note{N: 1}')`, 90*time.Second)
	if out := runTheProgram(t, ctx); !strings.HasPrefix(out, "N: 2\n") || !strings.Contains(out, `decoded: {"n":2}`) {
		t.Errorf("the open template printed:\n%s", out)
	}

	// Hybrid: two files, as protoc-gen-go writes them; the Run tab's
	// template uses the methods, which the default build's file has
	// beside the exported fields.
	chooseAPILevel(t, ctx, "API_HYBRID")
	waitJS(t, ctx, "the two files of hybrid code", `[...document.querySelectorAll('[data-testid=go-file-tab]')].map(e => e.innerText).join(' ').includes('_protoopaque.pb.go')`, 60*time.Second)
	if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=go-file-tab]').length`); n != 2 {
		t.Errorf("%d Go tabs, want 2 (x.pb.go and x_protoopaque.pb.go)", n)
	}
	selectTab(t, ctx, "tab-run")
	waitJS(t, ctx, "the hybrid template for Note", `__protoplay.runEditor.state.doc.toString().includes('demo.Note_builder{}.Build()')`, 90*time.Second)
	if out := runTheProgram(t, ctx); !strings.HasPrefix(out, "Title: \"changed\"\nHasTitle: true\n") {
		t.Errorf("the hybrid template printed:\n%s", out)
	}
}
