package interp_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/internal/gentest"
	"github.com/protoplay/protoplay/interp"
	yaegi "github.com/traefik/yaegi/interp"
)

// pageChecks does what the playground does with a schema: the core
// (compiler.Workspace, as the core's Worker) generates the code, which is
// loaded into a Session (as the interpreter's Worker); then for every
// message type the core gives the sample's reference bytes and its verdict
// on two probes (the empty payload, and the sample with invalid UTF-8
// appended to its first string field), and Session.Check runs the
// generated code on them. It returns the results by type.
func pageChecks(t *testing.T, src compiler.Sources, brk string) (*interp.Session, map[string]*interp.CheckResult) {
	t.Helper()
	return pageChecksWith(t, src, "", brk)
}

// pageChecksWith is pageChecks with generator options.
func pageChecksWith(t *testing.T, src compiler.Sources, opts, brk string) (*interp.Session, map[string]*interp.CheckResult) {
	t.Helper()
	ctx := context.Background()
	ws := &compiler.Workspace{}
	gen, err := ws.Generate(ctx, compiler.CompileRequest{Files: src, Options: opts, Imports: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range gen.Diagnostics {
		if d.Severity == "error" {
			t.Fatalf("schema: %v", d)
		}
	}
	s := &interp.Session{}
	lr, err := s.Load(interp.LoadRequest{Files: toFiles(gen.Generated), Break: brk})
	if err != nil {
		t.Fatal(err)
	}
	if lr.Error != nil {
		t.Fatalf("load: %s", lr.Error.Message)
	}
	out := map[string]*interp.CheckResult{}
	for _, m := range gen.Messages {
		req := interp.CheckRequest{Type: m.Name}
		var ref []byte
		// The sample of a type whose required fields form a cycle has
		// them unset: JSON cannot hold it, and encode would refuse it.
		if sample, err := ws.Sample(ctx, compiler.TypeRequest{Files: src, Type: m.Name}); err != nil {
			req.RefError = err.Error()
		} else if enc, err := ws.Encode(ctx, compiler.EncodeRequest{Files: src, Type: m.Name, Input: sample.Value}); err != nil {
			req.RefError = err.Error()
		} else {
			req.Hex = enc.Hex
			ref, _ = hex.DecodeString(enc.Hex)
		}
		probes := map[string][]byte{"empty": {}}
		if req.RefError == "" {
			view, err := ws.WireView(ctx, compiler.DecodeRequest{Files: src, Type: m.Name, Input: req.Hex, Encoding: "hex"})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range view.Fields {
				if f.Type == "string" {
					b := protowire.AppendTag(append([]byte(nil), ref...), protowire.Number(f.Number), protowire.BytesType)
					probes["invalid UTF-8 in "+f.Name] = protowire.AppendBytes(b, []byte("a\xffb"))
					break
				}
			}
		}
		for name, b := range probes {
			p := interp.Probe{Name: name, Hex: hex.EncodeToString(b)}
			if _, err := ws.Decode(ctx, compiler.DecodeRequest{Files: src, Type: m.Name, Input: p.Hex, Encoding: "hex"}); err != nil {
				p.RefError = err.Error()
			}
			req.Probes = append(req.Probes, p)
		}
		r, err := s.Check(req)
		if err != nil {
			t.Fatal(err)
		}
		out[m.Name] = r
	}
	return s, out
}

func toFiles(gen []compiler.File) []interp.File {
	out := make([]interp.File, len(gen))
	for i, g := range gen {
		out[i] = interp.File(g)
	}
	return out
}

func readExample(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(gentest.RepoRoot(), "testdata", "example", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSessionExample: the example schema's checks pass through the
// generated code, every step of them, with both probes run.
func TestSessionExample(t *testing.T) {
	_, res := pageChecks(t, compiler.Sources{"example.proto": readExample(t, "example.proto")}, "")
	if len(res) != 3 {
		t.Fatalf("%d results, want 3 (Person, Person.PhoneNumber, AddressBook)", len(res))
	}
	for name, r := range res {
		if !r.Pass || r.Offset != -1 || r.Generated != r.Reference || len(r.Steps) != 5 {
			t.Errorf("%s: %+v", name, r)
		}
	}
	if r := res["example.addressbook.v1.Person"]; r.GoType != "v1.Person" && r.GoType != "addressbookv1.Person" {
		t.Errorf("GoType %q", r.GoType)
	}
}

// TestSessionBreak: the test hook breaks one type's Marshal, and only
// that type's check fails, at the marshal step, with the first differing
// byte (the middle one, which the hook flips).
func TestSessionBreak(t *testing.T) {
	_, res := pageChecks(t, compiler.Sources{"example.proto": readExample(t, "example.proto")}, "example.addressbook.v1.Person")
	for name, r := range res {
		if name != "example.addressbook.v1.Person" {
			if !r.Pass {
				t.Errorf("%s failed: %+v", name, r)
			}
			continue
		}
		ref, _ := hex.DecodeString(r.Reference)
		if r.Pass || r.Offset != len(ref)/2 || r.Steps[1].Name != "marshal" || r.Steps[1].Pass || !strings.Contains(r.Steps[1].Message, "byte") {
			t.Fatalf("%s: %+v", name, r)
		}
	}
}

// TestSessionErrorsAgree: required fields and UTF-8 validation, proto2 and
// proto3 and editions: the generated Unmarshal refuses the probes the
// reference refuses, for the same reason, and a type whose required fields
// form a cycle (no sample can be encoded) is still checked on them.
func TestSessionErrorsAgree(t *testing.T) {
	src := compiler.Sources{
		"p2.proto": `syntax = "proto2"; package p2; option go_package = "example.com/p2";
message Req { required int32 a = 1; optional string s = 2; }
message Cycle { required Cycle next = 1; optional string t = 2; }`,
		"p3.proto": `syntax = "proto3"; package p3; option go_package = "example.com/p3";
message S { string s = 1; map<string, int32> m = 2; }`,
		"ed.proto": `edition = "2023"; package ed; option go_package = "example.com/ed";
message L { string s = 1 [features.utf8_validation = NONE]; int32 r = 2 [features.field_presence = LEGACY_REQUIRED]; }`,
	}
	s, res := pageChecks(t, src, "")
	for name, r := range res {
		if !r.Pass {
			t.Errorf("%s: %+v", name, r)
		}
		errs := r.Steps[len(r.Steps)-1]
		if errs.Name != "errors" {
			t.Errorf("%s: no errors step: %+v", name, r.Steps)
		}
	}
	if r := res["p2.Cycle"]; len(r.Steps) != 1 {
		t.Errorf("p2.Cycle: want the errors step only (no sample): %+v", r)
	}
	// Disagreements fail the step: a reference that accepted what the
	// generated code refuses, and one that refused for another reason.
	for _, p := range []interp.Probe{
		{Name: "utf8", Hex: "0a 03 61 ff 62"},
		{Name: "utf8", Hex: "0a 03 61 ff 62", RefError: "required field x not set"},
		{Name: "empty", Hex: "", RefError: "required field p2.Req.a not set"},
	} {
		typ := "p3.S"
		if p.Name == "empty" {
			typ = "p2.Req"
			p.RefError = ""
		}
		r, err := s.Check(interp.CheckRequest{Type: typ, RefError: "skip the sample", Probes: []interp.Probe{p}})
		if err != nil {
			t.Fatal(err)
		}
		if r.Pass || len(r.Steps) != 1 || r.Steps[0].Pass || !strings.Contains(r.Steps[0].Message, "the generated Unmarshal refused it") {
			t.Errorf("%s %+v: %+v", typ, p, r.Steps)
		}
	}
}

// TestSessionRun runs the example's program (the Run tab's default) and
// programs that fail: a compile error and a panic, with positions in
// main.go.
func TestSessionRun(t *testing.T) {
	s, _ := pageChecks(t, compiler.Sources{"example.proto": readExample(t, "example.proto")}, "")
	r, err := s.Run(interp.RunRequest{Source: readExample(t, "main.go")})
	if err != nil {
		t.Fatal(err)
	}
	if r.Error != nil {
		t.Fatalf("run: %+v\nstderr: %s", r.Error, r.Stderr)
	}
	const want = "74 bytes: 0a0c416461204c6f76656c61636510970e1a0f616461406578616d706c652e636f6d22140a102b34342032302037393436203030303010024a10406164613a6578616d706c652e636f6d\n" +
		`decoded: {"name":"Ada Lovelace","id":1815,"email":"ada@example.com","phones":[{"number":"+44 20 7946 0000","type":"PHONE_TYPE_HOME"}],"matrix":"@ada:example.com"}` + "\nequal: true\n"
	if r.Stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", r.Stdout, want)
	}

	r, err = s.Run(interp.RunRequest{Source: "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(undefinedName)\n}\n"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Error == nil || r.Panicked || len(r.Error.Positions) == 0 || r.Error.Positions[0] != (interp.Position{File: "main.go", Line: 6, Column: 14}) {
		t.Errorf("compile error: %+v", r.Error)
	}
	r, err = s.Run(interp.RunRequest{Source: "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"x\"\n}\n"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Error == nil || len(r.Error.Positions) == 0 || r.Error.Positions[0].File != "main.go" || r.Error.Positions[0].Line != 6 {
		t.Errorf("syntax error: %+v", r.Error)
	}

	r, err = s.Run(interp.RunRequest{Source: "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"before\")\n\tf()\n}\n\nfunc f() {\n\tvar m map[string]int\n\tm[\"x\"] = 1\n}\n"})
	if err != nil {
		t.Fatal(err)
	}
	frames := []interp.Position{{File: "main.go", Line: 11, Column: 6, Func: "main.f"}, {File: "main.go", Line: 6, Column: 2, Func: "main.main"}}
	if !r.Panicked || r.Stdout != "before\n" || r.Error.Message != "panic: assignment to entry in nil map" || !reflect.DeepEqual(r.Error.Positions, frames) {
		t.Errorf("panic: %+v %+v", r, r.Error)
	}
	if strings.Contains(r.Stderr, "panic") {
		t.Errorf("the panic lines stayed in stderr: %q", r.Stderr)
	}
}

// TestSessionCall: the JSON protocol of the wasm module.
func TestSessionCall(t *testing.T) {
	ws := &compiler.Workspace{}
	src := compiler.Sources{"example.proto": readExample(t, "example.proto")}
	gen, err := ws.Generate(context.Background(), compiler.CompileRequest{Files: src})
	if err != nil {
		t.Fatal(err)
	}
	req, _ := json.Marshal(map[string]any{"files": gen.Generated})
	s := &interp.Session{}
	out, err := s.Call("load", req)
	if err != nil {
		t.Fatal(err)
	}
	var lr interp.LoadResult
	if err := json.Unmarshal(out, &lr); err != nil || lr.Error != nil || len(lr.Types) != 3 || lr.Types[0].Name != "example.addressbook.v1.AddressBook" || lr.Types[0].ImportPath != "example.com/addressbook/v1" {
		t.Fatalf("%s %v", out, err)
	}
	if _, err := s.Call("check", []byte(`{"type":"nope"}`)); err == nil || !strings.Contains(err.Error(), "no message type nope") {
		t.Errorf("check of an unknown type: %v", err)
	}
	if _, err := s.Call("frob", []byte(`{}`)); err == nil {
		t.Error("unknown method accepted")
	}
}

// TestSessionGoogleAPIs: the page's flow on a googleapis file alone (its
// google/api imports come from the core's bundled googleapis): every
// message type's generated code passes.
func TestSessionGoogleAPIs(t *testing.T) {
	shared, ok := gentest.SharedDir()
	if !ok {
		t.Skip("../shared is absent: no corpus to run")
	}
	b, err := os.ReadFile(filepath.Join(shared, "corpus", "googleapis", "google", "privacy", "dlp", "v2", "storage.proto"))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, res := pageChecks(t, compiler.Sources{"google/privacy/dlp/v2/storage.proto": string(b)}, "")
	if len(res) < 30 {
		t.Errorf("%d message types checked", len(res))
	}
	for name, r := range res {
		if !r.Pass {
			t.Errorf("%s: %+v", name, r.Steps)
		}
	}
	t.Logf("%d message types checked in %v", len(res), time.Since(start).Round(time.Millisecond))
}

// TestSessionRunTypeErrors (issue 28): a program go build refuses does not
// run, and every error is reported, each with its position: an import not
// used, a variable declared and not used, and two type errors in one
// program. Values of imported packages (the generated code's, the
// standard library's) are of types not known to the check and give no
// error of their own.
func TestSessionRunTypeErrors(t *testing.T) {
	s, _ := pageChecks(t, compiler.Sources{"example.proto": readExample(t, "example.proto")}, "")
	for _, tc := range []struct {
		name, src string
		want      []string // the lines of Error.Message
	}{
		{"unused import", "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n",
			[]string{`main.go:5:2: "os" imported and not used`}},
		{"unused variable", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tx := 1\n\tfmt.Println(\"hi\")\n}\n",
			[]string{`main.go:6:2: declared and not used: x`}},
		{"two type errors", "package main\n\nfunc main() {\n\tvar a int = \"s\"\n\tvar b string = 2\n\t_, _ = a, b\n}\n",
			[]string{`main.go:4:14: cannot use "s" (untyped string constant) as int value in variable declaration`,
				`main.go:5:17: cannot use 2 (untyped int constant) as string value in variable declaration`}},
		{"unused variable beside an imported value", "package main\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/addressbook/v1\"\n)\n\nfunc main() {\n\tp := &addressbookv1.Person{Name: \"x\"}\n\tb, err := p.Marshal()\n\tfmt.Println(b)\n}\n",
			[]string{`main.go:11:5: declared and not used: err`}},
	} {
		r, err := s.Run(interp.RunRequest{Source: tc.src})
		if err != nil {
			t.Fatal(err)
		}
		if r.Error == nil || r.Panicked || r.Stdout != "" {
			t.Errorf("%s: ran: %+v stdout %q", tc.name, r.Error, r.Stdout)
			continue
		}
		if got := strings.Split(r.Error.Message, "\n"); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: errors\n%s\nwant\n%s", tc.name, r.Error.Message, strings.Join(tc.want, "\n"))
		}
		if len(r.Error.Positions) != len(tc.want) {
			t.Errorf("%s: positions %+v", tc.name, r.Error.Positions)
		}
	}
}

// TestSessionRunImportNames: a program importing the generated package by
// its path alone (its name, addressbookv1, is not the path's last element)
// and a standard library package passes the type check and runs.
func TestSessionRunImportNames(t *testing.T) {
	s, _ := pageChecks(t, compiler.Sources{"example.proto": readExample(t, "example.proto")}, "")
	src := "package main\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n\n\t\"example.com/addressbook/v1\"\n)\n\nfunc main() {\n\tp := &addressbookv1.Person{Name: strings.ToUpper(\"ada\")}\n\tb, err := p.Marshal()\n\tfmt.Println(len(b), err, p.GetName())\n}\n"
	r, err := s.Run(interp.RunRequest{Source: src})
	if err != nil {
		t.Fatal(err)
	}
	if r.Error != nil || r.Stdout != "5 <nil> ADA\n" {
		t.Errorf("run: %+v stdout %q stderr %q", r.Error, r.Stdout, r.Stderr)
	}
}

// TestSessionRunStreams (issue 28): Session.Output gets a program's output
// write by write, while it runs, stdout and stderr apart, up to
// MaxStreamedOutput bytes; the result still holds all of it.
func TestSessionRunStreams(t *testing.T) {
	s, _ := pageChecks(t, compiler.Sources{"example.proto": readExample(t, "example.proto")}, "")
	got := map[string]*strings.Builder{"stdout": {}, "stderr": {}}
	writes := 0
	s.Output = func(stream, text string) {
		writes++
		got[stream].WriteString(text)
	}
	src := "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\t\"strings\"\n)\n\nfunc main() {\n\tfmt.Println(\"one\")\n\tfmt.Fprintln(os.Stderr, \"two\")\n\tfmt.Print(\"three\\n\")\n\tfmt.Print(strings.Repeat(\"x\", 1<<20))\n}\n"
	r, err := s.Run(interp.RunRequest{Source: src})
	if err != nil || r.Error != nil {
		t.Fatalf("run: %v %+v", err, r.Error)
	}
	want := "one\nthree\n" + strings.Repeat("x", interp.MaxStreamedOutput-len("one\ntwo\nthree\n"))
	if got["stdout"].String() != want || got["stderr"].String() != "two\n" || writes != 4 {
		t.Errorf("streamed %d writes: stdout %d bytes (%q...), stderr %q", writes, got["stdout"].Len(), got["stdout"].String()[:min(20, got["stdout"].Len())], got["stderr"].String())
	}
	if len(r.Stdout) != len("one\nthree\n")+1<<20 || r.Stderr != "two\n" {
		t.Errorf("result: stdout %d bytes, stderr %q", len(r.Stdout), r.Stderr)
	}
}

// TestSessionRunGoogleAPIsImport (issue 28): a schema importing a bundled
// googleapis file (google/type/date.proto) runs in the Run tab: its
// generated code is loaded beside the schema's (CompileRequest.Imports),
// and a program builds both.
func TestSessionRunGoogleAPIsImport(t *testing.T) {
	s, res := pageChecks(t, compiler.Sources{"a.proto": "syntax = \"proto3\";\npackage a;\noption go_package = \"example.com/a\";\nimport \"google/type/date.proto\";\nimport \"google/rpc/status.proto\";\nmessage M {\n  google.type.Date d = 1;\n  google.rpc.Status s = 2;\n}\n"}, "")
	for name, r := range res {
		if !r.Pass {
			t.Errorf("check %s: %+v", name, r.Steps)
		}
	}
	r, err := s.Run(interp.RunRequest{Source: "package main\n\nimport (\n\t\"fmt\"\n\n\ta \"example.com/a\"\n\t\"google.golang.org/genproto/googleapis/rpc/status\"\n\t\"google.golang.org/genproto/googleapis/type/date\"\n)\n\nfunc main() {\n\tm := &a.M{D: &date.Date{Year: 2026, Month: 12, Day: 1}, S: &status.Status{Code: 5}}\n\tb, _ := m.Marshal()\n\tfmt.Printf(\"%x\\n\", b)\n}\n"})
	if err != nil || r.Error != nil {
		t.Fatalf("run: %v %+v\nstderr %s", err, r.Error, r.Stderr)
	}
	if r.Stdout != "0a0708ea0f100c18011202"+"0805\n" {
		t.Errorf("stdout %q", r.Stdout)
	}
}

// TestSessionRunPanicText (issue 28): a panic of the program is worded as
// Go words it, not as the interpreter's reflect calls fail; a position
// the interpreter knows comes first.
func TestSessionRunPanicText(t *testing.T) {
	s, _ := pageChecks(t, compiler.Sources{"example.proto": readExample(t, "example.proto")}, "")
	for _, tc := range []struct {
		body, want string
		line       int // of the first position
	}{
		{"var p *T\n\tfmt.Println(p.A)", "panic: runtime error: invalid memory address or nil pointer dereference", 0},
		{"var p *int\n\tfmt.Println(*p)", "panic: runtime error: invalid memory address or nil pointer dereference", 0},
		{"x := []int{1}\n\ti := 5\n\tfmt.Println(x[i])", "panic: runtime error: index out of range", 0},
		{"a, b := 1, 0\n\tfmt.Println(a / b)", "panic: runtime error: integer divide by zero", 0},
		{"var i any = 1\n\tfmt.Println(\"x\")\n\tfmt.Println(i.(string))", "panic: interface conversion: interface {} is int, not string", 10},
	} {
		r, err := s.Run(interp.RunRequest{Source: "package main\n\nimport \"fmt\"\n\ntype T struct{ A int }\n\nfunc main() {\n\t" + tc.body + "\n}\n"})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Panicked || r.Error.Message != tc.want || len(r.Error.Positions) == 0 || (tc.line != 0 && r.Error.Positions[0].Line != tc.line) {
			t.Errorf("%q: %+v, want %q at line %d", tc.body, r.Error, tc.want, tc.line)
		}
	}
}

// yaegiPatched reports whether this binary was built from the patched
// yaegi of site/build/lean.go (the page's interpreter is; go test is under
// the go.work TestLeanModules makes) rather than the released one: the
// source file of yaegi's New, and its run.go beside it, say which.
func yaegiPatched(t *testing.T) bool {
	pc := reflect.ValueOf(yaegi.New).Pointer()
	file, _ := runtime.FuncForPC(pc).FileLine(pc)
	src, err := os.ReadFile(filepath.Join(filepath.Dir(file), "run.go"))
	if err != nil {
		t.Skipf("cannot read the yaegi source this test was built from: %v", err)
	}
	return bytes.Contains(src, []byte("protoplay (site/build/lean.go)"))
}

// TestSessionRunPanicLine (issue 28): a panic's positions are the
// statement that panicked (a nil pointer read on line 10, after two
// statements) and, in each caller, the call. yaegi v0.16.1 as released
// reports each function's first statement (its runCfg shadows the
// variable its recover reads); the page's interpreter is built with the
// fix (site/build/lean.go), against which TestLeanModules runs this test.
func TestSessionRunPanicLine(t *testing.T) {
	if !yaegiPatched(t) {
		t.Skip("yaegi as released reports a function's first statement; site/build's TestLeanModules runs this test against the patched yaegi the page uses")
	}
	s, _ := pageChecks(t, compiler.Sources{"example.proto": readExample(t, "example.proto")}, "")
	src := "package main\n\nimport \"fmt\"\n\ntype T struct{ A int }\n\nfunc get(p *T) int {\n\tfmt.Println(\"in get\")\n\tq := p\n\treturn q.A\n}\n\nfunc main() {\n\tfmt.Println(\"start\")\n\tfmt.Println(get(nil))\n}\n"
	r, err := s.Run(interp.RunRequest{Source: src})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Panicked {
		t.Fatalf("no panic: %+v", r)
	}
	var got []string
	for _, p := range r.Error.Positions {
		got = append(got, fmt.Sprintf("%s:%d:%d %s", p.File, p.Line, p.Column, p.Func))
	}
	want := []string{"main.go:10:9 main.get", "main.go:15:14 main.main"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("positions %q, want %q (%s)", got, want, r.Error.Message)
	}
}

// TestSessionRunOpaque: the example generated with the opaque API (and
// with the hybrid one) passes the page's checks in the interpreter and
// runs the Run tab's opaque program (testdata/example/main_opaque.go) to
// the open program's output; the open program, whose struct literal names
// hidden fields, does not compile against opaque code, and runs against
// hybrid code. Load tells the types' API (TypeRef.Builder) and the
// field the Run tab's template sets.
func TestSessionRunOpaque(t *testing.T) {
	for _, opts := range []string{"default_api_level=API_OPAQUE", "default_api_level=API_HYBRID"} {
		t.Run(opts, func(t *testing.T) {
			s, checks := pageChecksWith(t, compiler.Sources{"example.proto": readExample(t, "example.proto")}, opts, "")
			for name, c := range checks {
				if !c.Pass {
					t.Errorf("check of %s: %+v", name, c.Steps)
				}
			}
			r, err := s.Run(interp.RunRequest{Source: readExample(t, "main_opaque.go")})
			if err != nil {
				t.Fatal(err)
			}
			const want = "74 bytes: 0a0c416461204c6f76656c61636510970e1a0f616461406578616d706c652e636f6d22140a102b34342032302037393436203030303010024a10406164613a6578616d706c652e636f6d\n" +
				`decoded: {"name":"Ada Lovelace","id":1815,"email":"ada@example.com","phones":[{"number":"+44 20 7946 0000","type":"PHONE_TYPE_HOME"}],"matrix":"@ada:example.com"}` + "\nequal: true\n"
			if r.Error != nil {
				t.Fatalf("run: %+v\nstderr: %s", r.Error, r.Stderr)
			}
			if r.Stdout != want {
				t.Errorf("stdout:\n%s\nwant:\n%s", r.Stdout, want)
			}
			// Hybrid code is the open struct with the opaque methods (the
			// interpreter, as go build with no tags, leaves out
			// example_protoopaque.pb.go): the open program runs too.
			r, err = s.Run(interp.RunRequest{Source: readExample(t, "main.go")})
			if err != nil {
				t.Fatal(err)
			}
			if opts == "default_api_level=API_HYBRID" {
				if r.Error != nil || r.Stdout != want {
					t.Errorf("the open program against hybrid code: %+v, stdout %q", r.Error, r.Stdout)
				}
			} else if r.Error == nil || r.Panicked || len(r.Error.Positions) == 0 {
				t.Errorf("the open program against opaque code: %+v, stdout %q", r.Error, r.Stdout)
			}
		})
	}
}

// TestMessageTypesAPI: Load tells (by MessageTypes), for each message type, whether it has
// the opaque accessors and the first field of a basic Go type that a
// program can write: for the open API a value field (proto3 optional's
// *uint32 is passed over), for the opaque API any (its setter takes the
// value).
func TestMessageTypesAPI(t *testing.T) {
	src := compiler.Sources{
		"m.proto": `syntax = "proto3";
package m;
option go_package = "example.com/m";
message M {
  repeated int32 r = 1;
  optional uint32 p = 2;
  bytes b = 3;
  string s = 4;
}
`,
		"e.proto": `syntax = "proto3";
package e;
option go_package = "example.com/e";
message E { repeated int32 r = 1; }
`}
	for _, tc := range []struct {
		opts    string
		builder bool
		field   interp.FieldRef
	}{
		{"", false, interp.FieldRef{Name: "B", Type: "[]byte"}},
		{"default_api_level=API_OPAQUE", true, interp.FieldRef{Name: "P", Type: "uint32", Pointer: true}},
	} {
		gen, err := (&compiler.Workspace{}).Generate(context.Background(), compiler.CompileRequest{Files: src, Options: tc.opts})
		if err != nil {
			t.Fatal(err)
		}
		got := interp.MessageTypes(toFiles(gen.Generated), "")
		if m := got["m.M"]; m.Builder != tc.builder || m.Field == nil || *m.Field != tc.field {
			t.Errorf("%q: m.M builder %v field %+v, want %v %+v", tc.opts, m.Builder, m.Field, tc.builder, tc.field)
		}
		if e := got["e.E"]; e.Builder != tc.builder || e.Field != nil {
			t.Errorf("%q: e.E builder %v field %+v, want %v and none", tc.opts, e.Builder, e.Field, tc.builder)
		}
	}
}
