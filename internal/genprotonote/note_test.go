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
