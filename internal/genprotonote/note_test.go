package genprotonote

import (
	"context"
	"go/parser"
	"go/token"
	"reflect"
	"strings"
	"testing"

	"github.com/protoplay/protoplay/compiler"
)

// imports is the import paths of src by an ImportsOnly parse.
func imports(t *testing.T, name, src string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ImportsOnly)
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, src)
	}
	var out []string
	for _, im := range f.Imports {
		out = append(out, im.Path.Value)
	}
	return out
}

// TestImportHead: the head Find parses holds every import of a generated
// file (one import, an import block, none, services' files, runtime=local's
// runtime sources) and stops before the code that follows.
func TestImportHead(t *testing.T) {
	srcs := map[string]string{
		"a.proto": `syntax = "proto3"; package a; option go_package = "example.com/m/a"; message A { int32 x = 1; }`,
		"b.proto": `syntax = "proto3"; package b; option go_package = "example.com/m/b"; import "a.proto"; import "google/protobuf/any.proto";
			message B { a.A a = 1; google.protobuf.Any any = 2; map<string, string> m = 3; } service S { rpc Do(B) returns (B); }`,
	}
	opts, err := compiler.ParseOptions("services=grpc+connect,runtime=local,module=example.com/m")
	if err != nil {
		t.Fatal(err)
	}
	res := compiler.Compile(context.Background(), compiler.Request{Sources: srcs, Options: opts})
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	withImports := 0
	for _, f := range res.Generated {
		if !strings.HasSuffix(f.Name, ".go") {
			continue
		}
		head := importHead(f.Content)
		got, want := imports(t, f.Name, head), imports(t, f.Name, f.Content)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the head's imports %v, the file's %v", f.Name, got, want)
		}
		if len(want) > 0 {
			withImports++
		}
		if strings.Contains(f.Content, "\nfunc ") && strings.Contains(head, "\nfunc ") {
			t.Errorf("%s: the head runs into the code:\n%s", f.Name, head)
		}
	}
	if withImports < 3 {
		t.Errorf("only %d generated files import anything", withImports)
	}
	for _, src := range []string{"package p\n", "package p\n\nimport \"fmt\"\n", "// Doc.\npackage p\n\nimport (\n\t\"fmt\"\n)\n\nvar _ = fmt.Sprint\n"} {
		if got, want := imports(t, "x.go", importHead(src)), imports(t, "x.go", src); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %v, want %v", src, got, want)
		}
	}
}

// TestUnplaced: files with no go_package (nor M option, nor
// default_import_prefix) get one note, naming the file and the made-up
// import path, under paths=import; under paths=source_relative only when
// generated code imports such a path (here the runtime, placed by it).
func TestUnplaced(t *testing.T) {
	srcs := map[string]string{
		"s.proto": `syntax = "proto3"; package s.v1; message S { int32 a = 1; }`,
		"g.proto": `syntax = "proto3"; package g; option go_package = "example.com/m/g"; message G { int32 a = 1; }`,
		"t.proto": `syntax = "proto3"; package t; message T { int32 a = 1; }`,
	}
	note := func(params string, files ...string) string {
		t.Helper()
		opts, err := compiler.ParseOptions(params)
		if err != nil {
			t.Fatal(err)
		}
		res := compiler.Compile(context.Background(), compiler.Request{Sources: srcs, Files: files, Options: opts})
		if err := res.Err(); err != nil {
			t.Fatal(err)
		}
		return Unplaced(res, opts, "--opt ")
	}
	want := `note: s.proto has no go_package, so its Go package is protoplay.local/s/v1, which go build finds only in a module of that path: give the file option go_package = "IMPORT_PATH", or --opt Ms.proto=IMPORT_PATH (protoc-gen-go requires one of them)`
	if got := note("runtime=local", "s.proto"); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	for _, params := range []string{"runtime=local,Ms.proto=example.com/m/s", "runtime=local,default_import_prefix=example.com/m", "paths=source_relative,runtime=local,runtime_root=example.com/out"} {
		if got := note(params, "s.proto"); got != "" {
			t.Errorf("%s: %s", params, got)
		}
	}
	if got := note("paths=source_relative,runtime=local", "s.proto"); !strings.Contains(got, "s.proto has no go_package") {
		t.Errorf("source_relative, runtime placed by the made-up path: %q", got)
	}
	if got := note("runtime=local", "t.proto", "s.proto"); !strings.HasPrefix(got, "note: 2 files (s.proto, t.proto) have no go_package, so their Go packages are placed under protoplay.local,") {
		t.Errorf("two files: %s", got)
	}
	if got := note("runtime=local", "g.proto"); got != "" {
		t.Errorf("a file with go_package: %s", got)
	}
}
