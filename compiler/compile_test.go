package compiler_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/internal/gentest"
)

func readCase(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(gentest.RepoRoot(), "testdata", "cases", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func compile(srcs map[string]string, files ...string) *compiler.Result {
	return compiler.Compile(context.Background(), compiler.Request{Sources: srcs, Files: files})
}

// wantDiag fails unless some error diagnostic is at file:line and contains
// every one of words.
func wantDiag(t *testing.T, res *compiler.Result, file string, line int, words ...string) {
	t.Helper()
	for _, d := range res.Diagnostics {
		if d.File != file || (line > 0 && d.Line != line) || d.Severity != compiler.SeverityError {
			continue
		}
		ok := true
		for _, w := range words {
			ok = ok && strings.Contains(d.Message, w)
		}
		if ok {
			return
		}
	}
	t.Errorf("no error at %s:%d containing %q; got:\n%v", file, line, words, res.Diagnostics)
}

func TestParserErrorsHavePositions(t *testing.T) {
	name := "28_parser_option_literal_panic.proto"
	res := compile(map[string]string{name: readCase(t, name)}, name)
	if !res.HasErrors() || res.Generated != nil || res.Files != nil {
		t.Fatalf("want errors and no output, got %v", res.Diagnostics)
	}
	wantDiag(t, res, name, 29, "unexpected")
	for _, d := range res.Diagnostics {
		if d.Line == 0 || d.Column == 0 {
			t.Errorf("diagnostic without position: %v", d)
		}
	}
}

func TestGoNameCollisionsAreDiagnostics(t *testing.T) {
	name := "04_go_name_mangling_collisions.proto"
	res := compile(map[string]string{name: readCase(t, name)}, name)
	if res.Generated != nil {
		t.Fatal("code generated despite collisions")
	}
	wantDiag(t, res, name, 0, "TallySheet", "bugcorpus.c04.TallySheet", "bugcorpus.c04.tally_sheet")
	wantDiag(t, res, name, 0, "TallySheet", "bugcorpus.c04.tallySheet")
	wantDiag(t, res, name, 0, "Outer_Inner_Part", "bugcorpus.c04.Outer.Inner_Part", "bugcorpus.c04.Outer_Inner.Part")
	wantDiag(t, res, name, 0, "Outer_Inner_Tag", "bugcorpus.c04.Outer.Inner_Tag", "bugcorpus.c04.Outer_Inner.Tag")
}

func TestGoPackageCycleIsDiagnostic(t *testing.T) {
	srcs := map[string]string{}
	for _, n := range []string{"09_package_level_cycle.proto", "09_package_level_cycle__alpha2.proto", "09_package_level_cycle__beta.proto"} {
		srcs[n] = readCase(t, n)
	}
	res := compile(srcs, "09_package_level_cycle.proto", "09_package_level_cycle__alpha2.proto", "09_package_level_cycle__beta.proto")
	if res.Generated != nil {
		t.Fatal("code generated despite a Go import cycle")
	}
	wantDiag(t, res, "09_package_level_cycle.proto", 0, "import cycle", "example.com/bugcorpus/c09/alpha", "example.com/bugcorpus/c09/beta",
		"09_package_level_cycle__beta.proto uses bugcorpus.c09.alpha.Parcel")
}

func TestEnumAndJSONNameValidation(t *testing.T) {
	name := "10_enum_prefix_strip.proto"
	src := readCase(t, name)
	bad := strings.Replace(strings.Replace(src, "option allow_alias = true;", "", 1), "DARK = 1;             //     alias", "DARK = 4;             //     alias", 1)
	res := compile(map[string]string{name: bad}, name)
	wantDiag(t, res, name, 32, "same name with the `Shade` prefix removed") // at DARK

	name = "12_json_name_conflicts.proto"
	src = readCase(t, name)
	if res := compile(map[string]string{name: src}, name); res.HasErrors() {
		t.Fatalf("valid json names rejected: %v", res.Diagnostics)
	}
	for _, line := range []string{
		"// int32 queue_depth = 4 [json_name = \"qd\"];",
		"// int32 other = 5 [json_name = \"queueDepth\"];",
		"// int32 ext_like = 6 [json_name = \"[pkg.ext]\"];",
	} {
		res := compile(map[string]string{name: strings.Replace(src, line, line[3:], 1)}, name)
		if !res.HasErrors() {
			t.Errorf("uncommenting %q: no error", line)
		}
	}
}

func TestWarningsAreReported(t *testing.T) {
	srcs := map[string]string{
		"a.proto": "syntax = \"proto3\";\npackage a;\nimport \"google/protobuf/empty.proto\";\nmessage A {}\n",
	}
	res := compile(srcs, "a.proto")
	if res.HasErrors() {
		t.Fatal(res.Diagnostics)
	}
	found := false
	for _, d := range res.Diagnostics {
		if d.Severity == compiler.SeverityWarning && d.Line == 3 && strings.Contains(d.Message, "unused import") {
			found = true
		}
	}
	if !found || len(res.Generated) != 1 {
		t.Fatalf("want an unused-import warning at line 3 and output; got %v", res.Diagnostics)
	}
	if got := res.Diagnostics[0].String(); !strings.HasPrefix(got, "a.proto:3:8: warning: ") {
		t.Errorf("String() = %q", got)
	}
}

// An import used for a name it re-exports (import public), also reached
// through another import, gets no "unused import" warning: the compiler's
// warning, whose fix deletes the import, broke the file (a protoc user's
// pass). A plain unused import beside it still gets one.
func TestReExportingImportIsNotUnused(t *testing.T) {
	srcs := map[string]string{
		"pub.proto":   "syntax = \"proto3\";\npackage p;\nmessage P {}\n",
		"b.proto":     "syntax = \"proto3\";\npackage p;\nimport public \"pub.proto\";\nmessage B { P p = 1; }\n",
		"a.proto":     "syntax = \"proto3\";\npackage a;\nimport \"b.proto\";\nmessage A { p.B b = 1; }\n",
		"other.proto": "syntax = \"proto3\";\npackage o;\nmessage O {}\n",
		"n.proto":     "syntax = \"proto3\";\npackage n;\nimport \"a.proto\";\nimport \"b.proto\";\nimport \"other.proto\";\nmessage N { a.A a = 1; p.P p = 2; }\n",
	}
	res := compile(srcs, "n.proto")
	if res.HasErrors() {
		t.Fatal(res.Diagnostics)
	}
	var warned []string
	for _, d := range res.Diagnostics {
		if d.Severity == compiler.SeverityWarning {
			warned = append(warned, d.String())
		}
	}
	if len(warned) != 1 || !strings.Contains(warned[0], `n.proto:5:8: warning: unused import "other.proto"`) {
		t.Errorf("warnings %q; want only other.proto's", warned)
	}
}

// A missing import or input file is an error naming the file, with a note
// saying where it was looked for: the import paths as the request names
// them (ImportPathNames, the command line's -I values, over their paths
// in FS), or the files given.
func TestMissingImportAndFile(t *testing.T) {
	res := compile(map[string]string{"a.proto": "syntax = \"proto3\";\nimport \"nope.proto\";\n"}, "a.proto")
	wantDiag(t, res, "a.proto", 2, `imported file "nope.proto" does not exist`)
	if d := res.Diagnostics[len(res.Diagnostics)-1]; len(d.Notes) != 1 || d.Notes[0] != "searched the 1 file given and the standard google/protobuf/*.proto files" {
		t.Errorf("notes %q", d.Notes)
	}
	res = compile(map[string]string{}, "missing.proto")
	if !res.HasErrors() {
		t.Fatal("missing file accepted")
	}
	fsys := fstest.MapFS{"home/u/proto/a.proto": {Data: []byte("syntax = \"proto3\";\nimport 'b/c.proto';\n")}}
	for _, names := range [][]string{nil, {"proto", "../vendor"}} {
		res = compiler.Compile(context.Background(), compiler.Request{FS: fsys, ImportPaths: []string{"home/u/proto", "home/u/vendor"}, ImportPathNames: names, Files: []string{"a.proto", "x.proto"}})
		want := map[string]string{
			`imported file "b/c.proto" does not exist`: "searched the import paths home/u/proto, home/u/vendor and the standard google/protobuf/*.proto files",
			"file does not exist":                      "searched the import paths home/u/proto, home/u/vendor and the standard google/protobuf/*.proto files",
		}
		if names != nil {
			for k := range want {
				want[k] = "searched the import paths proto, ../vendor and the standard google/protobuf/*.proto files"
			}
		}
		for _, d := range res.Diagnostics {
			if note, ok := want[d.Message]; ok {
				if len(d.Notes) != 1 || d.Notes[0] != note {
					t.Errorf("%s: notes %q, want %q", d, d.Notes, note)
				}
				delete(want, d.Message)
			}
		}
		if len(want) > 0 {
			t.Errorf("ImportPathNames %q: no diagnostic %q in %v", names, want, res.Diagnostics)
		}
	}
}

// A type reference that names nothing gets a "did you mean" help with the
// nearest scalar types and declared messages, enums and groups (from every
// file the compile opened, the imports included, not from comments or
// strings), its qualifier kept; nonsense gets none. A type of that very
// name out of reach (not imported, nested elsewhere) is said to be
// declared in its file.
func TestUnknownTypeSuggestion(t *testing.T) {
	res := compile(map[string]string{
		"b.proto": "syntax = \"proto2\";\npackage b;\nmessage Address { optional string city = 1; }\n",
		"c.proto": "syntax = \"proto2\";\npackage c;\nmessage Hidden {}\n",
		"a.proto": `syntax = "proto2";
package a;
import "b.proto";
// message Adresss is only in a comment
message Person {
  optional strin name = 1;
  optional b.Adress home = 2;
  optional int23 id = 3;
  map<string, Adress> m = 4;
  optional Qzwxjk q = 5;
  optional group Item = 6 {}
  optional Itme i = 7;
  optional string note = 8 [default = "enum Adres"];
  optional Hidden h = 9;
  optional Inner n = 10;
}
message Outer { message Inner {} }
`}, "a.proto", "c.proto")
	want := map[int]string{
		6:  "did you mean `string`?",
		7:  "did you mean `b.Address`?",
		8:  "did you mean `int32`?",
		9:  "did you mean `b.Address`?",
		10: "",
		12: "did you mean `Item`?",
		14: "a type named `Hidden` is declared in c.proto: import its file and write its full name (package, then enclosing messages)",
		15: "a type named `Inner` is declared in a.proto: import its file and write its full name (package, then enclosing messages)",
	}
	for _, d := range res.Diagnostics {
		if d.File != "a.proto" || !strings.HasPrefix(d.Message, "cannot find") {
			continue
		}
		w, ok := want[d.Line]
		if !ok {
			t.Errorf("unexpected %s", d)
			continue
		}
		delete(want, d.Line)
		var got string
		for _, h := range d.Help {
			if strings.HasPrefix(h, "did you mean") || strings.HasPrefix(h, "a type named") {
				got = h
			}
		}
		if got != w {
			t.Errorf("line %d: help %q, want %q", d.Line, d.Help, w)
		}
	}
	if len(want) > 0 {
		t.Errorf("no diagnostic on lines %v: %v", want, res.Diagnostics)
	}
	// Each suggestion reads every type in reach: a file of thousands of
	// unknown names gets them for its first 100 (maxTypeSuggestions),
	// not time growing as the square of its size (3,000 took 19 s).
	var many strings.Builder
	many.WriteString("syntax = \"proto3\";\npackage p;\n")
	for i := range 3000 {
		fmt.Fprintf(&many, "message M%d { Mx%d f = 1; }\n", i, i)
	}
	res = compile(map[string]string{"many.proto": many.String()}, "many.proto")
	helps, errs := 0, 0
	for _, d := range res.Diagnostics {
		if strings.HasPrefix(d.Message, "cannot find") {
			errs++
			for _, h := range d.Help {
				if strings.HasPrefix(h, "did you mean") {
					helps++
				}
			}
		}
	}
	if errs != 3000 || helps != 100 {
		t.Errorf("%d unknown names, %d suggestions; want 3000 and 100", errs, helps)
	}
}

func TestFSWithImportRoots(t *testing.T) {
	fsys := fstest.MapFS{
		"root1/a/a.proto": {Data: []byte("syntax = \"proto3\";\npackage a;\nimport \"b/b.proto\";\nmessage A { b.B b = 1; }\n")},
		"root2/b/b.proto": {Data: []byte("syntax = \"proto3\";\npackage b;\nmessage B {}\n")},
	}
	res := compiler.Compile(context.Background(), compiler.Request{FS: fsys, ImportPaths: []string{"root1", "root2"}, Files: []string{"a/a.proto"}})
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	if len(res.Generated) != 1 || res.Generated[0].Name != "protoplay.local/a/a.pb.go" {
		t.Fatalf("generated %v", res.Generated)
	}
	if !strings.Contains(res.Generated[0].Content, `"protoplay.local/b"`) {
		t.Error("import of the default package of b.proto missing")
	}
}

func TestDeterministic(t *testing.T) {
	srcs := map[string]string{}
	var files []string
	for _, n := range []string{"17_closed_enum_unknowns.proto", "20_recursive_message_defaults.proto", "30_proto2_required_and_defaults.proto"} {
		srcs[n] = readCase(t, n)
		files = append(files, n)
	}
	a := compile(srcs, files...)
	b := compile(srcs, files...)
	if a.Err() != nil || len(a.Generated) != len(b.Generated) {
		t.Fatal(a.Err())
	}
	for i := range a.Generated {
		if a.Generated[i] != b.Generated[i] {
			t.Errorf("%s differs between two runs", a.Generated[i].Name)
		}
	}
}

// The standard files are compiled once per process and shared; a request
// that brings its own copy of one still gets its own.
func TestStandardFilesSharedAndOverridable(t *testing.T) {
	user := map[string]string{
		"a.proto": "syntax = \"proto3\";\npackage a;\nimport \"google/protobuf/descriptor.proto\";\nimport \"google/protobuf/timestamp.proto\";\n" +
			"extend google.protobuf.FieldOptions { string note = 50001; }\nmessage A { google.protobuf.Timestamp t = 1 [(note) = \"x\"]; }\n",
	}
	for i := 0; i < 2; i++ {
		if err := compile(user, "a.proto").Err(); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
	}
	own := map[string]string{
		"google/protobuf/timestamp.proto": "syntax = \"proto3\";\npackage google.protobuf;\noption go_package = \"example.com/ts\";\nmessage Timestamp { int64 seconds = 1; }\nmessage Extra {}\n",
		"b.proto":                         "syntax = \"proto3\";\nimport \"google/protobuf/timestamp.proto\";\nmessage B { google.protobuf.Extra e = 1; }\n",
	}
	if err := compile(own, "b.proto").Err(); err != nil {
		t.Fatalf("a request's own timestamp.proto was not used: %v", err)
	}
}

// panicFS panics on every Open, standing in for any bug below Compile.
type panicFS struct{}

func (panicFS) Open(string) (fs.File, error) { panic("boom") }

// A panic anywhere inside Compile becomes an error diagnostic, never a
// crash of the caller (the playground's Worker, the CLI).
func TestPanicBecomesDiagnostic(t *testing.T) {
	res := compiler.Compile(context.Background(), compiler.Request{FS: panicFS{}, Files: []string{"a.proto"}})
	if !res.HasErrors() || res.Generated != nil {
		t.Fatalf("want an error and no output, got %v", res.Diagnostics)
	}
	found := false
	for _, d := range res.Diagnostics {
		found = found || strings.Contains(d.Message, "boom")
	}
	if !found {
		t.Fatalf("the panic's value is not reported: %v", res.Diagnostics)
	}
}

// Compile cleans file names (./a.proto -> a.proto) in its own copy: the
// caller's Request.Files is left as given.
func TestRequestFilesNotModified(t *testing.T) {
	files := []string{"./a.proto"}
	res := compiler.Compile(context.Background(), compiler.Request{
		Sources: map[string]string{"a.proto": "syntax = \"proto3\";\nmessage A {}\n"}, Files: files})
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	if files[0] != "./a.proto" {
		t.Fatalf("Request.Files was modified to %q", files[0])
	}
}

// Case 37: google/protobuf/go_features.proto is bundled like the cpp and
// java feature files; its (pb.go) features are accepted and change nothing
// in the generated Go. The deprecation warning protocompile raises twice is
// reported once.
func TestGoFeaturesImport(t *testing.T) {
	name := "37_go_features_import.proto"
	src := readCase(t, name)
	res := compiler.Compile(context.Background(), compiler.Request{
		Sources: map[string]string{name: src}, Files: []string{name}})
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, d := range res.Diagnostics {
		if seen[d.String()] {
			t.Errorf("diagnostic reported twice: %v", d)
		}
		seen[d.String()] = true
	}
	var plain []string
	for _, line := range strings.Split(src, "\n") {
		if strings.Contains(line, "go_features.proto\";") || strings.Contains(line, "(pb.go)") {
			continue
		}
		plain = append(plain, line)
	}
	without := compiler.Compile(context.Background(), compiler.Request{
		Sources: map[string]string{name: strings.Join(plain, "\n")}, Files: []string{name}})
	if err := without.Err(); err != nil {
		t.Fatal(err)
	}
	if len(res.Generated) != 1 || len(without.Generated) != 1 {
		t.Fatalf("generated %d and %d files, want 1 and 1", len(res.Generated), len(without.Generated))
	}
	if res.Generated[0] != without.Generated[0] {
		t.Errorf("the go_features import changed the output:\n%s\nwithout it:\n%s", res.Generated[0].Content, without.Generated[0].Content)
	}
}

// [packed = true] on a field without a label made protocompile's linker
// panic (it positions the error at the absent label); protoc rejects it.
// Compile reports it at the option, for sources and for files read from an
// FS, and for an imported file as well as a requested one.
func TestPackedWithoutLabel(t *testing.T) {
	for _, tc := range []struct{ src, at string }{
		{"syntax = \"proto3\";\nmessage M {\n  int32 a = 1 [packed = true];\n}\n", "3:16"},
		{"syntax = \"proto2\";\nmessage M {\n  oneof o { int32 a = 1 [packed = true]; }\n}\n", "3:26"},
		{"syntax = \"proto3\";\nmessage M {\n  oneof o { int32 a = 1 [packed=true]; }\n}\n", "3:26"},
		{"syntax = \"proto2\";\nmessage M {\n  oneof o { group G = 1 [packed = true] {} }\n}\n", "3:26"},
		{"syntax = \"proto3\";\nmessage M {\n  int32 a = 1 [deprecated = true, packed = true];\n}\n", "3:35"},
	} {
		for _, req := range []compiler.Request{
			{Sources: map[string]string{"a.proto": tc.src}, Files: []string{"a.proto"}},
			{FS: fstest.MapFS{"a.proto": {Data: []byte(tc.src)}}, Files: []string{"a.proto"}},
			{Sources: map[string]string{"a.proto": tc.src, "b.proto": "syntax = \"proto3\";\nimport \"a.proto\";\nmessage B { M m = 1; }\n"}, Files: []string{"b.proto"}},
		} {
			res := compiler.Compile(context.Background(), req)
			var got []string
			found := false
			for _, d := range res.Diagnostics {
				got = append(got, d.String())
				// The compiler puts the error at the field: "expected
				// repeated field, found singular field".
				found = found || d.Severity == compiler.SeverityError && d.File == "a.proto" && d.Line == 3 && strings.Contains(d.Message, "repeated field")
				if strings.Contains(d.Message, "panic") {
					t.Errorf("panic reported: %v", d)
				}
			}
			if !found || res.Files != nil {
				t.Errorf("%q: diagnostics %q, want one on a.proto:3 (the option at %s)", tc.src, got, tc.at)
			}
		}
	}
	// Labelled and repeated fields are protocompile's to check, as before.
	ok := "syntax = \"proto2\";\nmessage M {\n  repeated int32 a = 1 [packed = true];\n  oneof o { int32 b = 2 [packed = false]; }\n}\n"
	if err := compile(map[string]string{"a.proto": ok}, "a.proto").Err(); err != nil {
		t.Error(err)
	}
}

// A fault inside protocompile that precheck does not foresee (here: an
// editions extension without a label whose declaration says repeated, which
// protocompile v0.14.1 positions at the absent label) is an error naming
// the file, not a crash and not an anonymous message.
func TestProtocompileFaultNamesTheFile(t *testing.T) {
	src := `edition = "2023";
package d;
message M {
  extensions 100 to 199 [declaration = {number: 100, full_name: ".d.e", type: "int32", repeated: true}];
}
extend M { int32 e = 100; }
`
	res := compile(map[string]string{"decl.proto": src}, "decl.proto")
	if !res.HasErrors() || res.Files != nil {
		t.Fatalf("accepted: %v", res.Diagnostics)
	}
	for _, d := range res.Diagnostics {
		if d.File != "decl.proto" {
			t.Errorf("diagnostic without the file: %v", d)
		}
	}
}

// TestMapEnumValueStartsAtZero: protoc rejects a map whose value enum does
// not start at 0 ("Enum value in map must define 0 as the first value");
// protocompile accepts it, so linkCheck adds the check, positioned at the
// map type, for the enum declared in the same file, another file, or an
// editions file with a closed enum, and for maps in imported files.
func TestMapEnumValueStartsAtZero(t *testing.T) {
	enumFile := "syntax = \"proto2\";\npackage e;\nenum E { B = 2; A = 0; }\n"
	for _, tc := range []struct {
		srcs map[string]string
		file string
		at   string
	}{
		{map[string]string{"a.proto": "syntax = \"proto2\";\nenum E { B = 2; A = 0; }\nmessage M { map<int32, E> m = 1; }\n"}, "a.proto", "a.proto:3:13"},
		{map[string]string{"e.proto": enumFile, "a.proto": "syntax = \"proto2\";\nimport \"e.proto\";\nmessage M {\n  message N { map<string, e.E> m = 1; }\n}\n"}, "a.proto", "a.proto:4:15"},
		{map[string]string{"a.proto": "edition = \"2023\";\nenum E { option features.enum_type = CLOSED; B = 1; Z = 0; }\nmessage M { map<int32, E> m = 1; }\n"}, "a.proto", "a.proto:3:13"},
		{map[string]string{"e.proto": enumFile, "m.proto": "syntax = \"proto2\";\nimport \"e.proto\";\nmessage M { map<int32, e.E> m = 1; }\n",
			"a.proto": "syntax = \"proto2\";\nimport \"m.proto\";\nmessage A { optional M m = 1; }\n"}, "a.proto", "m.proto:3:13"},
	} {
		res := compile(tc.srcs, tc.file)
		var got []string
		found := false
		for _, d := range res.Diagnostics {
			got = append(got, d.String())
			found = found || strings.HasPrefix(d.String(), tc.at+": enum value in map must define 0 as the first value")
		}
		if !found || res.Files != nil {
			t.Errorf("%v: diagnostics %q, want one at %s", tc.srcs, got, tc.at)
		}
	}
	ok := "syntax = \"proto2\";\nenum E { Z = 0; B = 2; }\nmessage M { map<int32, E> m = 1; optional E e = 2; }\nenum F { F1 = 1; }\nmessage N { optional F f = 1; repeated F g = 2; }\n"
	if err := compile(map[string]string{"a.proto": ok}, "a.proto").Err(); err != nil {
		t.Error(err)
	}
}

// A file importing google/api/annotations.proto and google/type/date.proto
// compiles with no sources for them; its Go imports the types' packages by
// their go_package, as protoc-gen-go would name them.
func TestGoogleAPIsImportPaths(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(gentest.RepoRoot(), "testdata", "examples", "service.proto"))
	if err != nil {
		t.Fatal(err)
	}
	res := compile(map[string]string{"library/v1/service.proto": string(src)}, "library/v1/service.proto")
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	if len(res.Generated) != 1 || res.Generated[0].Name != "example.com/library/v1/service.pb.go" {
		t.Fatalf("generated %v", res.Generated)
	}
	code := string(res.Generated[0].Content)
	for _, want := range []string{`"google.golang.org/genproto/googleapis/type/date"`, "Published *date.Date"} {
		if !strings.Contains(code, want) {
			t.Errorf("generated Go lacks %s", want)
		}
	}
	if strings.Contains(code, "googleapis/api/annotations") {
		t.Error("generated Go imports the annotations package, whose options it does not use")
	}
}

// The page's examples (testdata/examples, and the address book in
// testdata/example) compile with no diagnostics at all, and generate Go.
func TestExamplesCompile(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(gentest.RepoRoot(), "testdata", "examples", "*.proto"))
	paths = append(paths, filepath.Join(gentest.RepoRoot(), "testdata", "example", "example.proto"))
	if len(paths) < 5 {
		t.Fatalf("%d examples, want at least 5", len(paths))
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(p)
		res := compile(map[string]string{name: string(src)}, name)
		// The proto2 example shows required fields, groups and a custom
		// default equal to the type's: the compiler warns that these are
		// deprecated (or redundant), and nothing else.
		for _, d := range res.Diagnostics {
			if d.Severity != compiler.SeverityWarning || !strings.Contains(d.Message, "deprecated") && !strings.Contains(d.Message, "redundant custom default") {
				t.Errorf("%s: %v", name, d)
			}
		}
		if len(res.Generated) != 1 {
			t.Errorf("%s: generated %d files", name, len(res.Generated))
		}
	}
}

// A json_name that is not UTF-8 cannot be written by ProtoJSON: gen refuses
// the field, and so does the payload side (Result.Schema), for a field of
// the files or of their imports, with the same positioned diagnostic; the
// encode, decode and check faces built on it used to write a key with
// U+FFFD that no reader maps back to the field.
func TestSchemaRefusesNonUTF8JSONName(t *testing.T) {
	src := map[string]string{
		"u.proto": "syntax = \"proto2\";\npackage u;\nmessage M {\n  optional int32 j = 2 [json_name = \"\\xff\"];\n}\n",
		"v.proto": "syntax = \"proto2\";\npackage v;\nimport \"u.proto\";\nmessage N { optional u.M m = 1; }\n",
	}
	const want = `u.proto:4:3: field u.M.j: json_name "\xff" is not valid UTF-8, which ProtoJSON cannot write`
	for _, file := range []string{"u.proto", "v.proto"} {
		res := compiler.Compile(context.Background(), compiler.Request{Sources: src, Files: []string{file}, NoGenerate: true})
		if err := res.Err(); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if _, err := res.Schema(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: Schema() error %v, want %q", file, err, want)
		}
	}
	res := compiler.Compile(context.Background(), compiler.Request{Sources: src, Files: []string{"u.proto"}})
	if err := res.Err(); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("gen: %v, want %q", err, want)
	}
}

// A place the compiler marks without a message prints with words, not as
// an empty "note: " line (message_set_wire_format's warning marks the
// message).
func TestDetailsOfUnnamedSpan(t *testing.T) {
	res := compile(map[string]string{"ms.proto": "syntax = \"proto2\";\npackage h;\nmessage S {\n  option message_set_wire_format = true;\n  extensions 4 to max;\n}\n"}, "ms.proto")
	var details string
	for _, d := range res.Diagnostics {
		details += d.Details()
	}
	if !strings.Contains(details, "ms.proto:3:1: note: related place\n") || strings.Contains(details, "note: \n") {
		t.Errorf("details:\n%s", details)
	}
}
