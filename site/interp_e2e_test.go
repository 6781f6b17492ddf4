package site_test

import (
	"context"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The interpreter in the page (site/src/page/interp.ts, wasm/interp): the
// generated Go itself runs in the browser, for the Checks panel and the
// Run tab.

const (
	goChecksState = `document.querySelector('[data-testid=checks]').dataset.go`
	runState      = `document.querySelector('[data-testid=run-output]').dataset.state`
	runStdout     = `document.querySelector('[data-testid=run-stdout]').textContent`
)

// exampleProgramOutput is what testdata/example/main.go prints (the same
// as interp's TestSessionRun, natively).
const exampleProgramOutput = "74 bytes: 0a0c416461204c6f76656c61636510970e1a0f616461406578616d706c652e636f6d22140a102b34342032302037393436203030303010024a10406164613a6578616d706c652e636f6d\n" +
	`decoded: {"name":"Ada Lovelace","id":1815,"email":"ada@example.com","phones":[{"number":"+44 20 7946 0000","type":"PHONE_TYPE_HOME"}],"matrix":"@ada:example.com"}` + "\nequal: true\n"

type goCheckRow struct {
	Type   string `json:"type"`
	Status string `json:"status"`
	Go     string `json:"go"`
	Text   string `json:"text"`
}

func goCheckRows(t *testing.T, ctx context.Context) []goCheckRow {
	t.Helper()
	return eval[[]goCheckRow](t, ctx, `[...document.querySelectorAll('[data-testid=check-result]')].map(e => ({type: e.dataset.type, status: e.dataset.status, go: e.dataset.go, text: e.innerText}))`)
}

// typeInto replaces a CodeMirror editor's text as a person pasting does:
// focus, select all, insert.
func typeInto(t *testing.T, ctx context.Context, view, text string) {
	t.Helper()
	do(t, ctx,
		script(view+`.focus()`),
		chromedp.KeyEvent("a", ctrl),
		insertText(text),
	)
	waitJS(t, ctx, "the editor to hold the text", view+`.state.doc.toString() === `+jsString(text), 5*time.Second)
}

// TestGoInterpreter: the interpreter's module is fetched only after the
// first compiled output is on screen; the example's checks run through
// the generated code and are green; the Run tab prints the example
// program's output; a runaway program is stopped at the time limit and
// the next Run works.
func TestGoInterpreter(t *testing.T) {
	t.Parallel()
	ctx, url := startBrowser(t)
	do(t, ctx, chromedp.Navigate(url+"?timeout=300000"))
	waitJS(t, ctx, "the example compiled in the browser", `__protoplay.stats.firstCompiledMs > 0 && `+goText+`.includes("type Person struct")`, 60*time.Second)

	t.Run("the checks run the generated Go and are green", func(t *testing.T) {
		selectTab(t, ctx, "tab-checks")
		waitJS(t, ctx, "the checks of the generated Go", goChecksState+` === 'done'`, 90*time.Second)
		rows := goCheckRows(t, ctx)
		if len(rows) != 3 {
			t.Fatalf("%d check rows, want 3: %+v", len(rows), rows)
		}
		for _, r := range rows {
			if r.Status != "pass" || r.Go != "pass" {
				t.Errorf("%s: reference %s, generated %s: %s", r.Type, r.Status, r.Go, r.Text)
			}
		}
		if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=go-check-detail]').length`); n != 0 {
			t.Errorf("%d failure details shown for passing checks", n)
		}
		status := eval[string](t, ctx, `document.querySelector('[data-testid=go-checks-status]').innerText`)
		if !strings.Contains(status, "passed every check (3 message types") {
			t.Errorf("status %q", status)
		}
		// The interpreter's download began after the first output was on
		// screen (the prebuilt example's) and after the core's own first
		// compile: the core's download and first output are not slowed.
		s := eval[map[string]float64](t, ctx, `({first: __protoplay.stats.firstOutputMs, compiled: __protoplay.stats.firstCompiledMs, start: __protoplay.stats.interpStartMs, ready: __protoplay.stats.interpReadyMs, done: __protoplay.stats.goChecksDoneMs, load: __protoplay.stats.goLoadMs, round: __protoplay.stats.goChecksLastMs,
			fetch: (performance.getEntriesByType('resource').find(e => /\/interp-[0-9a-f]+\.wasm$/.test(e.name)) || {startTime: -1}).startTime})`)
		if s["fetch"] < s["compiled"] || s["start"] < s["compiled"] || s["compiled"] <= 0 {
			t.Errorf("interp.wasm fetched at %.0f ms, the first compiled output at %.0f ms: %v", s["fetch"], s["compiled"], s)
		}
		t.Logf("first output %.0f ms, compiled in the browser %.0f ms, interpreter fetch from %.0f ms, ready %.0f ms, generated-code checks done %.0f ms (loading the generated code %.0f ms, the round %.0f ms)", s["first"], s["compiled"], s["fetch"], s["ready"], s["done"], s["load"], s["round"])
	})

	t.Run("the Encode/decode panel's bytes run through the generated Go", func(t *testing.T) {
		selectTab(t, ctx, "tab-payload")
		pickType(t, ctx, "example.addressbook.v1.Person")
		waitJS(t, ctx, "the generated Go's check of the sample", `document.querySelector('[data-testid=payload-go]').dataset.state === 'pass'`, 60*time.Second)
		if txt := eval[string](t, ctx, `document.querySelector('[data-testid=payload-go]').innerText`); !strings.Contains(txt, "re-encodes them byte for byte") {
			t.Errorf("payload check %q", txt)
		}
		// Bytes typed in: field 2 (id) = 150, then field 1 (name) = "a":
		// not the reference's order, accepted by both.
		pasteInto(t, ctx, "hex-input", "10 96 01 0a 01 61")
		waitJS(t, ctx, "the check of the typed bytes", `document.querySelector('[data-testid=payload-go]').dataset.state === 'pass' && document.querySelector('[data-testid=payload-go]').innerText.includes('accepts your bytes')`, 60*time.Second)
		// Truncated bytes: refused by both.
		pasteInto(t, ctx, "hex-input", "0a 05 61")
		waitJS(t, ctx, "the check of the truncated bytes", `document.querySelector('[data-testid=payload-go]').dataset.state === 'pass' && document.querySelector('[data-testid=payload-go]').innerText.includes('refuses your bytes')`, 60*time.Second)
	})

	t.Run("Run prints the example program's output", func(t *testing.T) {
		selectTab(t, ctx, "tab-run")
		waitJS(t, ctx, "the example program in the editor", `__protoplay.runEditor.state.doc.toString().includes('addressbookv1.Person{')`, 10*time.Second)
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=run-program]`)))
		waitJS(t, ctx, "the program's output", runState+` === 'done'`, 30*time.Second)
		if got := eval[string](t, ctx, runStdout); got != exampleProgramOutput {
			t.Errorf("stdout:\n%s\nwant:\n%s", got, exampleProgramOutput)
		}
		if st := eval[string](t, ctx, `document.querySelector('[data-testid=run-status]').innerText`); !strings.HasPrefix(st, "Ran in ") {
			t.Errorf("status %q", st)
		}
	})

	t.Run("compile errors and panics have positions", func(t *testing.T) {
		typeInto(t, ctx, `__protoplay.runEditor`, "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(nope)\n}\n")
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=run-program]`)))
		waitJS(t, ctx, "the compile error", runState+` === 'compile-error'`, 30*time.Second)
		if e := eval[string](t, ctx, `document.querySelector('[data-testid=run-error]').innerText`); !strings.Contains(e, "main.go:6:14") || !strings.Contains(e, "undefined: nope") {
			t.Errorf("compile error %q", e)
		}
		if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=run-editor] .cm-lintRange-error').length`); n == 0 {
			t.Error("the compile error is not marked in the editor")
		}
		typeInto(t, ctx, `__protoplay.runEditor`, "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"before\")\n\tvar s []int\n\t_ = s[3]\n}\n")
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=run-program]`)))
		waitJS(t, ctx, "the panic", runState+` === 'panic'`, 30*time.Second)
		if e := eval[string](t, ctx, `document.querySelector('[data-testid=run-error]').innerText`); !strings.Contains(e, "panic: ") || !strings.Contains(e, "main.go:8:") {
			t.Errorf("panic %q", e)
		}
		if got := eval[string](t, ctx, runStdout); got != "before\n" {
			t.Errorf("stdout before the panic %q", got)
		}
	})

	t.Run("a runaway program is stopped, keeps what it printed, and the next Run works", func(t *testing.T) {
		typeInto(t, ctx, `__protoplay.runEditor`, "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tfmt.Println(\"start\")\n\tfmt.Fprintln(os.Stderr, \"looping\")\n\tfor {\n\t}\n}\n")
		restarts := eval[int](t, ctx, `__protoplay.runner.restarts`)
		start := time.Now()
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=run-program]`)))
		waitJS(t, ctx, "the runaway program to be stopped", runState+` === 'stopped'`, 40*time.Second)
		took := time.Since(start)
		if took < 9*time.Second {
			t.Errorf("stopped after %v, before the 10 s limit", took)
		}
		if e := eval[string](t, ctx, `document.querySelector('[data-testid=run-error]').innerText`); !strings.Contains(e, "longer than 10 s") || !strings.Contains(e, "replaced") {
			t.Errorf("notice %q", e)
		}
		// The output written before the loop was streamed from the
		// Worker and stays after the Worker is ended.
		if got, errOut := eval[string](t, ctx, runStdout), eval[string](t, ctx, runStderr); got != "start\n" || errOut != "looping\n" {
			t.Errorf("output of the stopped program: stdout %q, stderr %q; want start and looping", got, errOut)
		}
		if got := eval[int](t, ctx, `__protoplay.runner.restarts`); got != restarts+1 {
			t.Errorf("restarts %d, want %d", got, restarts+1)
		}
		// Back to the example's program: the replacement Worker reloads
		// the generated code and runs it.
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=run-reset]`)))
		waitJS(t, ctx, "the example program back", `__protoplay.runEditor.state.doc.toString().includes('addressbookv1.Person{')`, 5*time.Second)
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=run-program]`)))
		waitJS(t, ctx, "the program's output", runState+` === 'done'`, 30*time.Second)
		if got := eval[string](t, ctx, runStdout); got != exampleProgramOutput {
			t.Errorf("stdout after the restart:\n%s", got)
		}
	})

	t.Run("the program is in the share link and the .zip", func(t *testing.T) {
		const prog = "package main\n\nimport (\n\t\"fmt\"\n\n\taddressbookv1 \"example.com/addressbook/v1\"\n)\n\nfunc main() {\n\tb, _ := (&addressbookv1.Person{Id: 150}).Marshal()\n\tfmt.Printf(\"%x round trip ok\\n\", b)\n}\n"
		typeInto(t, ctx, `__protoplay.runEditor`, prog)
		waitJS(t, ctx, "the link to hold the program", `__protoplay.savedState()?.program === `+jsString(prog)+` && location.hash.length > 3`, 30*time.Second)
		hash := eval[string](t, ctx, `location.hash`)
		do(t, ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(url+"?timeout=300000"+hash))
		waitJS(t, ctx, "the restored program", `__protoplay.runEditor && __protoplay.runEditor.state.doc.toString() === `+jsString(prog), 30*time.Second)
		waitJS(t, ctx, "the compile", `__protoplay.stats.firstCompiledMs > 0`, 60*time.Second)
		// A program that arrives in a link runs only when the person who
		// opened it presses Run: once the page has settled (the checks of
		// the generated Go ran in the interpreter), nothing has run.
		selectTab(t, ctx, "tab-checks")
		waitJS(t, ctx, "the checks of the generated Go", goChecksState+` === 'done'`, 90*time.Second)
		selectTab(t, ctx, "tab-run")
		if state, out := eval[string](t, ctx, runState), eval[string](t, ctx, runStdout); state != "idle" || out != "" {
			t.Fatalf("the linked program ran before Run was pressed: state %q, stdout %q", state, out)
		}
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=run-program]`)))
		waitJS(t, ctx, "the program's output", runState+` === 'done'`, 60*time.Second)
		if got := eval[string](t, ctx, runStdout); got != "109601 round trip ok\n" {
			t.Errorf("stdout %q", got)
		}
		// The .zip's main.go is the program, and the module builds and
		// runs it offline.
		selectTab(t, ctx, "tab-go")
		got := downloadZip(t, ctx)
		if got["main.go"] != prog {
			t.Fatalf("the .zip's main.go:\n%s", got["main.go"])
		}
		checkModuleZip(t, got, "example.com/addressbook", "v1/example.pb.go", "timestamppb")
	})
}

// TestGoCheckBroken: the test hook ?breakcheck=TYPE breaks TYPE's
// generated Marshal before it is interpreted; that type's check turns
// red at the marshal step, showing the first differing byte in the
// reference and generated bytes side by side, and the other types stay
// green.
func TestGoCheckBroken(t *testing.T) {
	t.Parallel()
	ctx, url := startBrowser(t)
	do(t, ctx, chromedp.Navigate(url+"?timeout=300000&breakcheck=example.addressbook.v1.Person"))
	waitJS(t, ctx, "the example compiled in the browser", `__protoplay.stats.firstCompiledMs > 0`, 60*time.Second)
	selectTab(t, ctx, "tab-checks")
	waitJS(t, ctx, "the checks of the generated Go", goChecksState+` === 'done'`, 90*time.Second)
	for _, r := range goCheckRows(t, ctx) {
		want := "pass"
		if r.Type == "example.addressbook.v1.Person" {
			want = "fail"
		}
		if r.Go != want || r.Status != "pass" {
			t.Errorf("%s: generated %s (want %s), reference %s", r.Type, r.Go, want, r.Status)
		}
	}
	d := eval[map[string]string](t, ctx, `(() => {
		const d = document.querySelector('[data-testid=go-check-detail][data-type="example.addressbook.v1.Person"]');
		if (!d) return {};
		const b = (s) => d.querySelector('[data-testid=' + s + '] [data-testid=diff-byte]');
		return {
			step: d.querySelector('[data-testid=go-step]').dataset.step,
			text: d.innerText,
			offset: d.querySelector('[data-testid=diff-offset]').dataset.offset,
			ref: b('diff-reference').textContent, refOffset: b('diff-reference').dataset.offset,
			gen: b('diff-generated').textContent, genOffset: b('diff-generated').dataset.offset,
		};
	})()`)
	if d["step"] != "marshal" {
		t.Fatalf("the failure detail: %v", d)
	}
	// The sample of Person encodes to N bytes; the hook flips the low bit
	// of byte N/2.
	ref, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(async () => {
		const files = __protoplay.sources();
		const s = await __protoplay.core.call('sample', {files, type: 'example.addressbook.v1.Person'});
		return (await __protoplay.core.call('encode', {files, type: 'example.addressbook.v1.Person', input: s.value})).hex;
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	n := len(strings.Fields(ref))
	if d["offset"] != itoa(n/2) || d["refOffset"] != d["offset"] || d["genOffset"] != d["offset"] {
		t.Errorf("first differing byte at %s (reference cell %s, generated cell %s), want %d", d["offset"], d["refOffset"], d["genOffset"], n/2)
	}
	if d["ref"] == d["gen"] || len(d["ref"]) != 2 || len(d["gen"]) != 2 {
		t.Errorf("the differing byte: reference %q, generated %q", d["ref"], d["gen"])
	}
	if !strings.Contains(d["text"], "First differing byte: "+d["offset"]+" (in field") {
		t.Errorf("detail text:\n%s", d["text"])
	}
	if b := eval[string](t, ctx, `document.querySelector('[data-testid=checks-badge]').innerText`); b != "✗ 1" {
		t.Errorf("badge %q", b)
	}
	// The Encode/decode panel says so too, for the sample it encodes.
	selectTab(t, ctx, "tab-payload")
	pickType(t, ctx, "example.addressbook.v1.Person")
	waitJS(t, ctx, "the generated Go's check of the sample", `document.querySelector('[data-testid=payload-go]').dataset.state === 'fail'`, 60*time.Second)
	if off := eval[string](t, ctx, `document.querySelector('[data-testid=payload-go] [data-testid=diff-generated] [data-testid=diff-byte]').dataset.offset`); off != itoa(n/2) {
		t.Errorf("the payload panel's differing byte at %s, want %d", off, n/2)
	}
}

// TestGoChecksTestMessages: the conformance suite's test_messages_proto3
// (every field kind, maps, oneofs, well-known types) pasted into the page:
// every message type's generated code passes its checks, interpreted in
// the browser.
func TestGoChecksTestMessages(t *testing.T) {
	t.Parallel()
	src := readFile(t, needShared(t, "corpus/protobuf/google/protobuf/test_messages_proto3.proto"))
	ctx, url := startBrowser(t)
	do(t, ctx, chromedp.Navigate(url+"?timeout=300000"))
	waitJS(t, ctx, "the example compiled in the browser", `__protoplay.stats.firstCompiledMs > 0`, 60*time.Second)
	replaceSource(t, ctx, src)
	waitJS(t, ctx, "Go for TestAllTypesProto3", goText+`.includes("TestAllTypesProto3")`, 60*time.Second)
	selectTab(t, ctx, "tab-checks")
	waitJS(t, ctx, "the checks of the generated Go", goChecksState+` === 'done' && document.querySelector('[data-testid=check-result][data-type="protobuf_test_messages.proto3.TestAllTypesProto3"]')`, 300*time.Second)
	rows := goCheckRows(t, ctx)
	if len(rows) < 5 {
		t.Fatalf("%d check rows, want every message type", len(rows))
	}
	for _, r := range rows {
		if r.Go != "pass" {
			t.Errorf("%s: generated %s: %s", r.Type, r.Go, r.Text)
		}
	}
	t.Logf("%d message types checked through the generated Go (%s)", len(rows), eval[string](t, ctx, `document.querySelector('[data-testid=go-checks-status]').innerText`))
}

// sharedCaseRefusals are the shared cases whose schema the compiler must
// refuse (as their headers expect), so that the page has no generated Go
// to check: the case's name and a piece of the diagnostic it must show.
var sharedCaseRefusals = map[string]string{
	"04_go_name_mangling_collisions": "collides with",                               // two declarations get one Go name: reported, not emitted
	"09_package_level_cycle":         "Go import cycle",                             // a cycle of Go packages: reported with the files in it
	"28_parser_option_literal_panic": "unexpected trailing `,` in array expression", // intentionally invalid .proto: ordinary syntax errors, the first at line 26
}

// messageDecl matches a message declaration in .proto text.
var messageDecl = regexp.MustCompile(`(?m)^\s*message\s+\w+\s*\{`)

// TestGoChecksSharedCases: every ../shared/cases file, loaded as the
// workspace (a case's NN_name__x.proto companions beside it, through a
// share link), as a person would open it, in one tab (workspaceTab: the
// first case's link navigated to, each next one pasted into the open
// page's address): the page compiles it, and every
// message type's generated code passes its checks, interpreted in the
// browser; the cases the compiler must refuse show the diagnostic their
// headers expect instead (sharedCaseRefusals).
func TestGoChecksSharedCases(t *testing.T) {
	t.Parallel()
	dir := needShared(t, "cases")
	paths, err := filepath.Glob(filepath.Join(dir, "*.proto"))
	if err != nil || len(paths) == 0 {
		t.Skipf("skipping: no .proto files in %s", dir)
	}
	groups := map[string][]string{}
	var names []string
	for _, p := range paths {
		base := filepath.Base(p)
		name, _, _ := strings.Cut(strings.TrimSuffix(base, ".proto"), "__")
		if groups[name] == nil {
			names = append(names, name)
		}
		groups[name] = append(groups[name], base)
	}
	sort.Strings(names)
	// The page's compile time limit is lifted (?timeout=): on a busy
	// machine a case's compile can pass the default 10 s, and this test
	// is about what the page makes of the case, not its speed.
	tab := workspaceTab{query: "?timeout=300000"}
	ok := true
	for _, name := range names {
		tab.next(t, ok)
		ok = t.Run(name, func(t *testing.T) {
			var files []map[string]string
			active := groups[name][0]
			for _, f := range groups[name] {
				files = append(files, map[string]string{"name": f, "text": readFile(t, filepath.Join(dir, f))})
				if f == name+".proto" {
					active = f
				}
			}
			ctx := tab.load(t, map[string]any{"files": files, "active": active, "options": ""})
			const errorDiags = `[...document.querySelectorAll('[data-testid=diagnostic].error')]`
			if want, ok := sharedCaseRefusals[name]; ok {
				text := eval[string](t, ctx, errorDiags+`.map(e => e.innerText.replace(/\s+/g, ' ')).join('\n')`)
				if !strings.Contains(text, want) {
					t.Errorf("the compiler must refuse this case with %q; diagnostics:\n%s", want, text)
				}
				t.Logf("refused as expected, no generated Go to check: %s", strings.SplitN(text, "\n", 2)[0])
				return
			}
			if n := eval[int](t, ctx, errorDiags+`.length`); n > 0 {
				t.Fatalf("%d error diagnostics: %s", n, eval[string](t, ctx, errorDiags+`.map(e => e.innerText).join('\n')`))
			}
			selectTab(t, ctx, "tab-checks")
			waitJS(t, ctx, "the checks of the generated Go", goChecksState+` === 'done' || `+goChecksState+` === 'error'`, 150*time.Second)
			status := eval[string](t, ctx, `document.querySelector('[data-testid=go-checks-status]').innerText`)
			if eval[string](t, ctx, goChecksState) == "error" {
				t.Fatalf("the checks of the generated Go stopped: %s", status)
			}
			rows := goCheckRows(t, ctx)
			if len(rows) == 0 {
				// Only a case that declares no message type (enums only)
				// has none to check.
				for _, f := range files {
					if messageDecl.MatchString(f["text"]) {
						t.Fatalf("no check rows, but %s declares a message type (%s)", f["name"], status)
					}
				}
				if !strings.Contains(status, "(0 message types") {
					t.Errorf("no message types, status %q", status)
				}
				t.Logf("no message types to check (enums only): %s", status)
				return
			}
			for _, r := range rows {
				if r.Go != "pass" {
					t.Errorf("%s: generated %q: %s", r.Type, r.Go, r.Text)
				}
			}
			t.Logf("%d message types: %s", len(rows), status)
		})
	}
}

// TestChecksBadgeGoNotRun: the Checks badge claims a pass only when the
// generated Go was checked too. The address book's badge is green; a
// workspace of two Go packages both named v1 that both decode a message
// type M is Go the interpreter cannot load (yaegi names a type by its
// package name), so its Go checks cannot run: the badge is not the green
// pass but amber, and the Checks panel says why and that the marks are
// the reference codec's only.
func TestChecksBadgeGoNotRun(t *testing.T) {
	t.Parallel()
	ctx, url := startBrowser(t)
	do(t, ctx, chromedp.Navigate(url+"?timeout=300000"))
	waitJS(t, ctx, "the example compiled in the browser", `__protoplay.stats.firstCompiledMs > 0`, 60*time.Second)
	selectTab(t, ctx, "tab-checks")
	waitJS(t, ctx, "the checks of the generated Go", goChecksState+` === 'done'`, 90*time.Second)
	const badge = `document.querySelector('[data-testid=checks-badge]')`
	if s, c := eval[string](t, ctx, badge+`.dataset.state ?? ''`), eval[string](t, ctx, badge+`.className`); s != "pass" || !strings.Contains(c, "good") {
		t.Errorf("address book: badge state %q, class %q; want the green pass", s, c)
	}
	session := map[string]any{"files": []map[string]string{
		{"name": "a/v1/m.proto", "text": "syntax = \"proto3\";\npackage a.v1;\noption go_package = \"example.com/a/v1;v1\";\nmessage M { M next = 1; }\n"},
		{"name": "b/v1/m.proto", "text": "syntax = \"proto3\";\npackage b.v1;\noption go_package = \"example.com/b/v1;v1\";\nmessage M { M next = 1; }\n"},
	}, "active": "a/v1/m.proto", "options": ""}
	do(t, ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(url+"?timeout=300000"+encodeSession(t, session)))
	waitJS(t, ctx, "the workspace compiled", `__protoplay.stats.firstCompiledMs > 0`, 60*time.Second)
	selectTab(t, ctx, "tab-checks")
	waitJS(t, ctx, "the workspace's checks of the generated Go to end", goChecksState+` === 'error' || `+goChecksState+` === 'done'`, 150*time.Second)
	status := eval[string](t, ctx, `document.querySelector('[data-testid=go-checks-status]').innerText`)
	state, class, text := eval[string](t, ctx, badge+`.dataset.state ?? ''`), eval[string](t, ctx, badge+`.className`), eval[string](t, ctx, badge+`.innerText`)
	t.Logf("two packages named v1: badge %q (%s, %s); %s", text, state, class, status)
	if eval[string](t, ctx, goChecksState) != "error" {
		t.Fatalf("the interpreter loaded the workspace's Go (%s): this test needs a schema whose Go it cannot load; pick another", status)
	}
	if state != "unchecked" || strings.Contains(class, "good") || strings.HasPrefix(text, "✓") {
		t.Errorf("two packages named v1: badge %q, state %q, class %q; want the amber not-checked state", text, state, class)
	}
	if !strings.Contains(status, "could not be checked") || !strings.Contains(status, "reference codec") || !strings.Contains(status, "are all named v1") {
		t.Errorf("the Checks panel does not say why: %q", status)
	}
	for _, r := range goCheckRows(t, ctx) {
		if r.Go != "error" {
			t.Errorf("%s: generated %q, want error (not run)", r.Type, r.Go)
		}
	}
}
