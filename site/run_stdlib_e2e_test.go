package site_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

const runStderr = `document.querySelector('[data-testid=run-stderr]').textContent`

// TestRunStandardLibrary: in the browser's Run tab, a program using time,
// os (Args, the environment, Stdout, Stderr, Exit), encoding/json,
// encoding/hex, sort, strings and bufio with the example's generated
// code prints what Go prints (interp's TestSessionRunStandardLibrary,
// natively); os.Exit(2) ends it with "exit status 2" on stderr, as go run
// says it; a program importing os/exec does not compile.
func TestRunStandardLibrary(t *testing.T) {
	t.Parallel()
	ctx, url := startBrowser(t)
	// The program's run limit too is one no busy machine reaches (the
	// default 10 s is TestGoInterpreter's to test).
	do(t, ctx, chromedp.Navigate(url+"?timeout=300000&runlimit=300000"))
	waitJS(t, ctx, "the example compiled in the browser", `__protoplay.stats.firstCompiledMs > 0`, 60*time.Second)
	selectTab(t, ctx, "tab-run")
	waitJS(t, ctx, "the example program in the editor", `__protoplay.runEditor.state.doc.toString().includes('addressbookv1.Person{')`, 10*time.Second)

	const prog = "package main\n\nimport (\n\t\"bufio\"\n\t\"encoding/hex\"\n\t\"encoding/json\"\n\t\"fmt\"\n\t\"os\"\n\t\"sort\"\n\t\"strings\"\n\t\"time\"\n\n\taddressbookv1 \"example.com/addressbook/v1\"\n)\n\n" +
		"func main() {\n" +
		"\tstart := time.Now()\n" +
		"\ttime.Sleep(5 * time.Millisecond)\n" +
		"\tpeople := []*addressbookv1.Person{{Name: \"Grace\", Id: 2}, {Name: \"Ada\", Id: 1}}\n" +
		"\tsort.Slice(people, func(i, j int) bool { return people[i].Name < people[j].Name })\n" +
		"\tj, _ := json.Marshal(map[string]any{\"first\": people[0].Name, \"n\": len(people)})\n" +
		"\tfmt.Fprintln(os.Stdout, string(j))\n" +
		"\tb, _ := people[0].Marshal()\n" +
		"\tw := bufio.NewWriter(os.Stdout)\n" +
		"\tfmt.Fprintf(w, \"%s %s args=%d slept=%v\\n\", hex.EncodeToString(b), strings.ToUpper(\"ok\"), len(os.Args), time.Since(start) >= 5*time.Millisecond)\n" +
		"\tw.Flush()\n" +
		"\tfmt.Fprintln(os.Stderr, \"bye\")\n" +
		"\tos.Exit(2)\n" +
		"}\n"
	typeInto(t, ctx, `__protoplay.runEditor`, prog)
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=run-program]`)))
	waitJS(t, ctx, "the program's output", runState+` === 'done'`, 60*time.Second)
	if got, want := eval[string](t, ctx, runStdout), "{\"first\":\"Ada\",\"n\":2}\n0a034164611001 OK args=1 slept=true\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
	if got := eval[string](t, ctx, runStderr); got != "bye\nexit status 2\n" {
		t.Errorf("stderr %q, want bye and exit status 2", got)
	}

	typeInto(t, ctx, `__protoplay.runEditor`, "package main\n\nimport \"os/exec\"\n\nfunc main() {\n\texec.Command(\"ls\").Run()\n}\n")
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=run-program]`)))
	waitJS(t, ctx, "the compile error", runState+` === 'compile-error'`, 30*time.Second)
	if e := eval[string](t, ctx, `document.querySelector('[data-testid=run-error]').innerText`); !strings.Contains(e, "os/exec") {
		t.Errorf("compile error %q, want it to name os/exec", e)
	}

	// A program go build refuses does not run, and every error shows
	// (interp.typeCheck): an unused import and an unused variable.
	typeInto(t, ctx, `__protoplay.runEditor`, "package main\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\nfunc main() {\n\tx := 1\n\tfmt.Println(\"never\")\n}\n")
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=run-program]`)))
	waitJS(t, ctx, "both errors of the refused program", `(document.querySelector('[data-testid=run-error]')?.innerText ?? '').includes('declared and not used: x')`, 30*time.Second)
	e := eval[string](t, ctx, `document.querySelector('[data-testid=run-error]').innerText`)
	if !strings.Contains(e, `main.go:5:2: "strings" imported and not used`) || !strings.Contains(e, "main.go:9:2: declared and not used: x") {
		t.Errorf("compile errors %q, want the unused import and the unused variable with their positions", e)
	}
	if got := eval[string](t, ctx, runStdout); strings.Contains(got, "never") {
		t.Errorf("the refused program ran: stdout %q", got)
	}
}

// TestRunGoogleAPIsSchema (issue 28): a schema importing bundled
// googleapis files (google/type/date.proto, google/rpc/status.proto) runs
// in the Run tab: the page loads their generated Go beside the schema's,
// and a program using them and time, os, encoding/json, sort and strings
// prints what Go prints.
func TestRunGoogleAPIsSchema(t *testing.T) {
	t.Parallel()
	const schema = "syntax = \"proto3\";\npackage cal.v1;\noption go_package = \"example.com/cal/v1;calv1\";\nimport \"google/type/date.proto\";\nimport \"google/rpc/status.proto\";\nmessage Event {\n  string title = 1;\n  google.type.Date day = 2;\n  google.rpc.Status status = 3;\n}\n"
	session := map[string]any{"files": []map[string]string{{"name": "cal/v1/cal.proto", "text": schema}}, "active": "cal/v1/cal.proto", "options": ""}
	ctx, url := startBrowser(t)
	do(t, ctx, chromedp.Navigate(url+"?timeout=300000&runlimit=300000"+encodeSession(t, session)))
	waitJS(t, ctx, "the schema compiled", `__protoplay.viewer.state.doc.toString().includes("type Event struct")`, 60*time.Second)
	selectTab(t, ctx, "tab-run")
	const prog = "package main\n\nimport (\n\t\"encoding/json\"\n\t\"fmt\"\n\t\"os\"\n\t\"sort\"\n\t\"strings\"\n\t\"time\"\n\n\tcalv1 \"example.com/cal/v1\"\n\t\"google.golang.org/genproto/googleapis/rpc/status\"\n\t\"google.golang.org/genproto/googleapis/type/date\"\n)\n\n" +
		"func main() {\n" +
		"\tt := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)\n" +
		"\tevs := []*calv1.Event{\n" +
		"\t\t{Title: \"launch\", Day: &date.Date{Year: int32(t.Year()), Month: int32(t.Month()), Day: int32(t.Day())}},\n" +
		"\t\t{Title: \"beta\", Status: &status.Status{Code: 5, Message: \"not found\"}},\n" +
		"\t}\n" +
		"\tsort.Slice(evs, func(i, j int) bool { return evs[i].Title < evs[j].Title })\n" +
		"\tvar titles []string\n" +
		"\tfor _, e := range evs {\n" +
		"\t\ttitles = append(titles, strings.ToUpper(e.Title))\n" +
		"\t}\n" +
		"\tj, _ := json.Marshal(titles)\n" +
		"\tb, _ := evs[1].Marshal()\n" +
		"\tpj, _ := evs[1].MarshalJSON()\n" +
		"\tfmt.Fprintf(os.Stdout, \"%s %x %s\\n\", j, b, pj)\n" +
		"}\n"
	typeInto(t, ctx, `__protoplay.runEditor`, prog)
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=run-program]`)))
	waitJS(t, ctx, "the program's output", runState+` === 'done' || `+runState+` === 'error' || `+runState+` === 'compile-error'`, 90*time.Second)
	const want = "[\"BETA\",\"LAUNCH\"] 0a066c61756e636812070" + "8ea0f100c1801 {\"title\":\"launch\",\"day\":{\"year\":2026,\"month\":12,\"day\":1}}\n"
	if got := eval[string](t, ctx, runStdout); got != want {
		t.Errorf("stdout %q, want %q (error: %s)", got, want, eval[string](t, ctx, `document.querySelector('[data-testid=run-error]').innerText`))
	}
}
