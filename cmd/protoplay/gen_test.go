package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// genTree writes a.proto and b.proto (Go packages example.com/a and
// example.com/b) into a fresh directory and returns it with an output
// directory inside.
func genTree(t *testing.T) (src, out string) {
	t.Helper()
	src = t.TempDir()
	for _, n := range []string{"a", "b"} {
		text := fmt.Sprintf("syntax = \"proto3\";\npackage %s;\noption go_package = \"example.com/%s\";\nmessage %s { int32 x = 1; }\n", n, n, strings.ToUpper(n))
		if err := os.WriteFile(filepath.Join(src, n+".proto"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return src, filepath.Join(src, "out")
}

func runGenArgs(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"gen"}, args...), strings.NewReader(""), &out, &errb)
	return code, errb.String()
}

// files lists every file under dir (relative, slash-separated).
func files(t *testing.T, dir string) []string {
	t.Helper()
	var list []string
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			list = append(list, filepath.ToSlash(rel))
		}
		return nil
	})
	return list
}

func TestGenWritesAll(t *testing.T) {
	src, out := genTree(t)
	if code, errs := runGenArgs(t, "-I", src, "-o", out, "a.proto", "b.proto"); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// The two packages and (runtime=local, the default) the runtime
	// packages they import, under the import path prefix they share.
	got := files(t, out)
	for _, want := range []string{"example.com/a/a.pb.go", "example.com/b/b.pb.go", "example.com/protoplay/runtime/wire/wire.go"} {
		if !contains(got, want) {
			t.Errorf("files: %s; no %s", strings.Join(got, " "), want)
		}
	}
}

// TestGenAllOrNothing: when writing the second of two files fails, gen
// exits 1 naming it and leaves no output behind: not the first file, no
// temporary file, no directory it made; a file that was already there
// keeps its contents.
func TestGenAllOrNothing(t *testing.T) {
	t.Run("directory is a file", func(t *testing.T) {
		src, out := genTree(t)
		// example.com/b cannot be a directory.
		os.MkdirAll(filepath.Join(out, "example.com"), 0o755)
		os.WriteFile(filepath.Join(out, "example.com", "b"), []byte("in the way"), 0o644)
		code, errs := runGenArgs(t, "-I", src, "-o", out, "a.proto", "b.proto")
		if code != 1 || !strings.Contains(errs, filepath.Join("example.com", "b", "b.pb.go")) || !strings.Contains(errs, "no file written") {
			t.Errorf("exit %d: %s", code, errs)
		}
		if got := files(t, out); len(got) != 1 || got[0] != "example.com/b" {
			t.Errorf("left behind: %v", got)
		}
		if _, err := os.Stat(filepath.Join(out, "example.com", "a")); !os.IsNotExist(err) {
			t.Errorf("directory example.com/a left behind: %v", err)
		}
	})
	t.Run("target is a directory", func(t *testing.T) {
		src, out := genTree(t)
		// a.pb.go exists with old contents; b.pb.go is a non-empty
		// directory, so the second rename fails after the first.
		os.MkdirAll(filepath.Join(out, "example.com", "a"), 0o755)
		old := filepath.Join(out, "example.com", "a", "a.pb.go")
		os.WriteFile(old, []byte("old"), 0o644)
		os.MkdirAll(filepath.Join(out, "example.com", "b", "b.pb.go"), 0o755)
		os.WriteFile(filepath.Join(out, "example.com", "b", "b.pb.go", "x"), nil, 0o644)
		code, errs := runGenArgs(t, "-I", src, "-o", out, "a.proto", "b.proto")
		if code != 1 || !strings.Contains(errs, "b.pb.go") {
			t.Errorf("exit %d: %s", code, errs)
		}
		if got := strings.Join(files(t, out), " "); got != "example.com/a/a.pb.go example.com/b/b.pb.go/x" {
			t.Errorf("files after the failure: %s", got)
		}
		if b, _ := os.ReadFile(old); string(b) != "old" {
			t.Errorf("a.pb.go = %q, want its old contents", b)
		}
	})
	t.Run("output directory is a file", func(t *testing.T) {
		src, _ := genTree(t)
		out := filepath.Join(src, "a.proto") // a file
		if code, errs := runGenArgs(t, "-I", src, "-o", out, "a.proto", "b.proto"); code != 1 || !strings.Contains(errs, "no file written") {
			t.Errorf("exit %d: %s", code, errs)
		}
	})
}

// TestGenLimits: each limit flag, set low, stops gen with exit status 1,
// an error naming the limit and the flag that raises it, and no output.
func TestGenLimits(t *testing.T) {
	src, out := genTree(t)
	deep := "syntax = \"proto3\";\n" + strings.Repeat("message M {\n", 20) + strings.Repeat("}\n", 20)
	os.WriteFile(filepath.Join(src, "deep.proto"), []byte(deep), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--max-output", "100", "a.proto"}, "over 100 bytes of Go, the limit (MaxOutputBytes) (raise it with --max-output, now 100B)"},
		{[]string{"--max-source", "10", "a.proto"}, "over the limit of 10 (MaxSourceBytes) (raise it with --max-source, now 10B)"},
		{[]string{"--max-nesting", "5", "deep.proto"}, "deep.proto:7:11: nesting deeper than 5 levels of { [ ( < (MaxNesting) (raise it with --max-nesting)"},
		{[]string{"--max-files", "1", "a.proto", "b.proto"}, "2 input files exceed the limit of 1 (MaxFiles) (raise it with --max-files)"},
		{[]string{"--timeout", "1ns", "a.proto"}, "stopped: over the time limit of 1ns (raise it with --timeout)"},
		// The compiler's own check ("over 1 MiB, the limit (MaxMemoryBytes)")
		// or gen's poll of the heap ("memory in use 10MiB, over the limit of
		// 1MiB"), whichever sees the heap first: on a busy machine either.
		{[]string{"--max-memory", "1MiB", "a.proto"}, "(raise it with --max-memory"},
	} {
		code, errs := runGenArgs(t, append([]string{"-I", src, "-o", out}, tc.args...)...)
		if tc.args[0] == "--max-memory" && strings.Contains(errs, ", over the limit of ") {
			// On a busy machine the watchdog may see the memory before
			// the compiler's first check does: its error names the
			// limit too.
			tc.want = ", over the limit of 1MiB (raise it with --max-memory)"
		}
		if code != 1 || !strings.Contains(errs, tc.want) || !strings.HasPrefix(errs, "protoplay gen: ") {
			t.Errorf("%v: exit %d, stderr %q; want %q", tc.args, code, errs, tc.want)
		}
		if got := files(t, out); len(got) > 0 {
			t.Errorf("%v: wrote %v", tc.args, got)
		}
	}
	// 0 turns a limit off.
	if code, errs := runGenArgs(t, "-I", src, "-o", out, "--max-nesting", "0", "--max-output", "0", "--timeout", "0", "--max-memory", "0", "deep.proto"); code != 0 {
		t.Errorf("limits off: exit %d: %s", code, errs)
	}
	if code, errs := runGenArgs(t, "-I", src, "-o", out, "--max-memory", "lots", "a.proto"); code != 2 || !strings.Contains(errs, "not a size") {
		t.Errorf("bad size: exit %d: %s", code, errs)
	}
}

func TestByteSize(t *testing.T) {
	for in, want := range map[string]uint64{"0": 0, "100": 100, "8MiB": 8 << 20, "1.5GiB": 3 << 29, "2 GiB": 2 << 30, "1KB": 1000, "3M": 3 << 20, "7B": 7} {
		var b byteSize
		if err := b.Set(in); err != nil || uint64(b) != want {
			t.Errorf("Set(%q) = %d, %v; want %d", in, b, err, want)
		}
	}
	for _, in := range []string{"", "x", "-1", "1TB"} {
		var b byteSize
		if err := b.Set(in); err == nil {
			t.Errorf("Set(%q) accepted: %d", in, b)
		}
	}
	if s := byteSize(2 << 30).String(); s != "2GiB" {
		t.Errorf("String = %s", s)
	}
}

// The CLI compiles a file importing google/api/annotations.proto and
// google/type/date.proto with no -I for them: they are built in, as the
// well-known types are.
func TestGenGoogleAPIsImports(t *testing.T) {
	src := t.TempDir()
	text := "syntax = \"proto3\";\npackage shop;\nimport \"google/api/annotations.proto\";\nimport \"google/type/date.proto\";\n" +
		"option go_package = \"example.com/shop\";\nmessage Order { google.type.Date placed = 1; }\n" +
		"service Shop { rpc Get(Order) returns (Order) { option (google.api.http) = {get: \"/v1/orders\"}; } }\n"
	if err := os.WriteFile(filepath.Join(src, "shop.proto"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(src, "out")
	if code, errs := runGenArgs(t, "-I", src, "-o", out, "shop.proto"); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	code, err := os.ReadFile(filepath.Join(out, "example.com/shop/shop.pb.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(code), `"google.golang.org/genproto/googleapis/type/date"`) {
		t.Errorf("shop.pb.go does not import google/type/date.proto's Go package:\n%s", code)
	}
}

// One --opt takes several options comma-separated, as protoc's
// --protoplay_opt does and as the playground's Options show them ("for
// protoplay gen --opt or protoc --protoplay_opt"): the same files as two
// --opt flags. A bad one among them is still a usage error naming it.
func TestGenCommaOptions(t *testing.T) {
	src, _ := genTree(t)
	one, two := t.TempDir(), t.TempDir()
	if code, errs := runGenArgs(t, "-I", src, "-o", one, "--opt", "paths=source_relative,unknown_fields=drop", "a.proto"); code != 0 {
		t.Fatalf("one --opt: exit %d: %s", code, errs)
	}
	if code, errs := runGenArgs(t, "-I", src, "-o", two, "--opt", "paths=source_relative", "--opt", "unknown_fields=drop", "a.proto"); code != 0 {
		t.Fatalf("two --opt: exit %d: %s", code, errs)
	}
	a, err1 := os.ReadFile(filepath.Join(one, "a.pb.go"))
	b, err2 := os.ReadFile(filepath.Join(two, "a.pb.go"))
	if err1 != nil || err2 != nil || string(a) != string(b) || strings.Contains(string(a), "unknownFields") {
		t.Errorf("one --opt: %v; two: %v; same: %v; unknown fields dropped: %v", err1, err2, string(a) == string(b), !strings.Contains(string(a), "unknownFields"))
	}
	if code, errs := runGenArgs(t, "-I", src, "-o", t.TempDir(), "--opt", "paths=source_relative,enum_maps=maybe", "a.proto"); code != 2 || !strings.Contains(errs, "enum_maps") {
		t.Errorf("a bad option among several: exit %d: %s", code, errs)
	}
}

// Issue 25: each diagnostic's first line stays protoc's
// "file:line:col: message" (editors and CI annotators parse it), and the
// compiler's suggested edit is printed under it, indented.
func TestGenPrintsSuggestedEdits(t *testing.T) {
	src := t.TempDir()
	if err := os.WriteFile(filepath.Join(src, "p.proto"), []byte("syntax = \"proto3\";\npackage p;\nmessage M {\n  int32 a = 1\n  int32 b = 2;\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, errs := runGenArgs(t, "-I", src, "-o", t.TempDir(), "p.proto")
	lines := strings.Split(errs, "\n")
	if code != 1 || len(lines) < 3 {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	if !strings.HasPrefix(lines[0], "p.proto:5:3: ") {
		t.Errorf("first line %q, want p.proto:5:3: ...", lines[0])
	}
	if lines[1] != "  fix: consider inserting a `;`" || lines[2] != `    p.proto:4:14: insert ";"` {
		t.Errorf("the suggested edit is not printed under the diagnostic:\n%s", errs)
	}
}

// fiveErrors are the diagnostics of testdata/fiveerrors (five errors in
// three files, each with another span, a note or help), as gen prints
// their first lines.
var fiveErrors = []string{
	"a.proto:6:3: cannot find `Missing` in this scope",
	"a.proto:8:13: field number `2` used more than once",
	"b.proto:4:13: field number out of range",
	"c.proto:4:11: first value of open enum must be zero",
	"c.proto:7:16: custom default in \"proto3\"",
}

// TestGenEveryError: a schema with five errors in three files prints all
// five, each first as protoc's "file:line:col: message" line (what
// editors and CI annotators read), in file and line order, then indented
// its other spans ("a.proto:7:13: note: previously used here"), notes and
// help, every line after the first indented; and generates nothing.
func TestGenEveryError(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	code, errOut := runGenArgs(t, "-I", "../../testdata/fiveerrors", "-o", out, "a.proto")
	if code != 1 {
		t.Fatalf("exit %d, want 1:\n%s", code, errOut)
	}
	var first []string
	details := 0
	for _, l := range strings.Split(strings.TrimSuffix(errOut, "\n"), "\n") {
		if strings.HasPrefix(l, " ") {
			details++
			continue
		}
		first = append(first, l)
	}
	if strings.Join(first, "\n") != strings.Join(fiveErrors, "\n") {
		t.Errorf("diagnostics (first lines):\n%s\nwant:\n%s\nall:\n%s", strings.Join(first, "\n"), strings.Join(fiveErrors, "\n"), errOut)
	}
	for _, w := range []string{"  a.proto:7:13: note: previously used here\n", "  c.proto:1:10: note: this makes `five.C` an open enum\n", "  help: the full name of this scope is `five.A`\n"} {
		if !strings.Contains(errOut, w) {
			t.Errorf("no %q under its diagnostic:\n%s", w, errOut)
		}
	}
	// b.proto's note is wrapped by the compiler: its second line is
	// indented too, not read as a diagnostic of its own.
	if !strings.Contains(errOut, "\n    minus `19000 to 19999`") {
		t.Errorf("the wrapped note's second line is not indented:\n%s", errOut)
	}
	if details < 5 {
		t.Errorf("%d indented lines (spans, notes, help), want one at least per diagnostic:\n%s", details, errOut)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("gen wrote %s despite the errors", out)
	}
}

// TestGenHybrid: gen --opt default_api_level=API_HYBRID writes the two
// files of a hybrid file, as protoc-gen-go does: example.pb.go (build
// tag !protoopaque: the open struct with the opaque methods) and
// example_protoopaque.pb.go (protoopaque: the opaque API).
func TestGenHybrid(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := run([]string{"gen", "-I", filepath.Join("..", "..", "testdata", "example"), "-o", out, "--opt", "default_api_level=API_HYBRID,module=example.com/addressbook", "example.proto"}, strings.NewReader(""), &stdout, &stderr)
	if code != 0 {
		t.Fatalf("gen: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	open, err := os.ReadFile(filepath.Join(out, "v1", "example.pb.go"))
	if err != nil {
		t.Fatal(err)
	}
	opaque, err := os.ReadFile(filepath.Join(out, "v1", "example_protoopaque.pb.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(open), "//go:build !protoopaque\n") || !strings.Contains(string(open), "\tName ") || !strings.Contains(string(open), "func (m *Person) SetName(v string)") {
		t.Errorf("example.pb.go is not the open struct with the opaque methods under !protoopaque")
	}
	if !strings.Contains(string(opaque), "//go:build protoopaque\n") || !strings.Contains(string(opaque), "xxx_hidden_Name") {
		t.Errorf("example_protoopaque.pb.go is not the opaque API under protoopaque")
	}
}

// TestImportPathNotADirectory: an -I that does not exist, or is a file,
// gets a warning, as protoc gives one, and the compile goes on with the
// other roots; a file as a root used to fail every compile with an
// internal error (the standard descriptor.proto was looked up under it and
// the "not a directory" error was taken as a failure to read it).
func TestImportPathNotADirectory(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.proto")
	if err := os.WriteFile(p, []byte("syntax = \"proto3\";\npackage a;\noption go_package = \"example.com/a\";\nmessage A { string s = 1; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for bad, want := range map[string]string{
		filepath.Join(dir, "nope"): "warning: import path " + filepath.Join(dir, "nope") + " does not exist",
		p:                          "warning: import path " + p + " is not a directory",
	} {
		code, errOut := runGenArgs(t, "-I", dir, "-I", bad, "-o", filepath.Join(dir, "out"), p)
		if code != 0 || !strings.Contains(errOut, want) || strings.Contains(errOut, "internal error") {
			t.Errorf("-I %s: exit %d, stderr %q; want 0 and %q", bad, code, errOut, want)
		}
	}
}

// TestFileOutsideImportPaths: a .proto named on the command line that is
// on disk but under no import path says so, with the -I to add, as protoc
// does, instead of "file does not exist".
func TestFileOutsideImportPaths(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.proto")
	if err := os.WriteFile(p, []byte("syntax = \"proto3\";\npackage a;\nmessage A {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := run([]string{"check", "-I", t.TempDir(), p}, strings.NewReader(""), &out, &errb)
	want := p + ": the file is not under an import path (-I), so it has no name to import it by: add -I " + dir
	if code != 1 || !strings.Contains(errb.String(), want) || strings.Contains(errb.String(), "does not exist") {
		t.Errorf("exit %d, stderr %q; want %q", code, errb.String(), want)
	}
	// A file in the folders of its package: the root above them, where
	// imports of it are rooted (its own folder would name it b.proto).
	p = filepath.Join(dir, "proto", "b", "v1", "b.proto")
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte("syntax = \"proto3\";\npackage b.v1;\nmessage B {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	code = run([]string{"check", "-I", t.TempDir(), p}, strings.NewReader(""), &out, &errb)
	if want := "add -I " + filepath.Join(dir, "proto") + ","; code != 1 || !strings.Contains(errb.String(), want) {
		t.Errorf("exit %d, stderr %q; want %q", code, errb.String(), want)
	}
}

// A file given under a later -I whose name an earlier -I also holds is
// refused, as protoc refuses it ("Input is shadowed in the
// --proto_path"): compiling the earlier file instead, as its name finds,
// wrote another file's code with exit 0. The same file reached through
// two roots is not shadowed.
func TestShadowedInput(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []struct{ path, msg string }{{"r1/s/s.proto", "S1"}, {"r2/s/s.proto", "S2"}} {
		p := filepath.Join(dir, filepath.FromSlash(f.path))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("syntax = \"proto3\";\npackage s;\nmessage "+f.msg+" {}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r1, r2 := filepath.Join(dir, "r1"), filepath.Join(dir, "r2")
	shadowed := filepath.Join(r2, "s", "s.proto")
	out := filepath.Join(dir, "out")
	var stdout, errb bytes.Buffer
	code := run([]string{"gen", "-I", r1, "-I", r2, "-o", out, shadowed}, strings.NewReader(""), &stdout, &errb)
	want := shadowed + ": the file is shadowed in the import paths: its name s/s.proto finds " + filepath.Join(r1, "s", "s.proto") + " first"
	if code != 1 || !strings.Contains(errb.String(), want) {
		t.Errorf("exit %d, stderr %q; want %q", code, errb.String(), want)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("gen wrote output for a shadowed input")
	}
	// Given first, or through a root that holds it twice: no error.
	for _, args := range [][]string{
		{"check", "-I", r2, "-I", r1, shadowed},
		{"check", "-I", r1, "-I", r2, filepath.Join(r1, "s", "s.proto")},
		{"check", "-I", r2, "-I", r2 + "/", shadowed},
	} {
		errb.Reset()
		if code := run(args, strings.NewReader(""), &stdout, &errb); code != 0 {
			t.Errorf("%q: exit %d: %s", args, code, errb.String())
		}
	}
}

// -o with a descriptor set's name is protoc's -o FILE habit: a usage
// error, where it made a directory of that name. An existing directory
// of such a name is still an output directory.
func TestGenOutputLooksLikeDescriptorSet(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.proto")
	if err := os.WriteFile(p, []byte("syntax = \"proto3\";\npackage a;\noption go_package = \"example.com/a\";\nmessage A {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	set := filepath.Join(dir, "x.pb")
	code := run([]string{"gen", "-I", dir, "-o", set, p}, strings.NewReader(""), &out, &errb)
	if code != 2 || !strings.Contains(errb.String(), "-o names the output directory of the Go files (protoc's -o FILE writes a descriptor set") {
		t.Errorf("exit %d: %s", code, errb.String())
	}
	if _, err := os.Stat(set); err == nil {
		t.Error("x.pb was made")
	}
	os.Mkdir(set, 0o755)
	errb.Reset()
	if code := run([]string{"gen", "-I", dir, "-o", set, p}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Errorf("into the directory x.pb: exit %d: %s", code, errb.String())
	}
}
