package gogen

import (
	"go/format"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	protoplay "github.com/protoplay/protoplay"
)

// TestRewriteRuntimeImportsHeadOnly: runtime=local's import rewrite gives
// what gofmt of the whole rewritten file gives, for generated files (with
// services, well-known types and several runtime imports) and the
// runtime's own sources, under local roots that sort before the standard
// library, between the imports and after them; and it formats the head
// only, so its cost does not grow with the code below the imports (10,000
// messages went from 6.7 s and 0.5 GB to 30 s and the 2 GiB memory limit
// when the whole file was formatted again).
func TestRewriteRuntimeImportsHeadOnly(t *testing.T) {
	fds := compileForTest(t, fstest.MapFS{"many.proto": {Data: []byte(manyMessages(3))}}, []string{"."}, "many.proto")
	opts, err := ParseOptions("services=grpc+connect,runtime=import")
	if err != nil {
		t.Fatal(err)
	}
	files, diags := Generate(fds, opts)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	srcs := map[string]string{}
	for _, f := range files {
		srcs[f.Name] = f.Content
	}
	rt, err := protoplay.RuntimeFS()
	if err != nil {
		t.Fatal(err)
	}
	err = fs.WalkDir(rt, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		b, err := fs.ReadFile(rt, p)
		srcs[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	rewritten := 0
	for _, local := range []string{"a.example/m/protoplay", "golang.org/m/protoplay", "zz.example/m/protoplay"} {
		for name, src := range srcs {
			got, _, err := rewriteRuntimeImports(name, src, local)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			naive := strings.ReplaceAll(src, `"`+runtimeModule+`/runtime/`, `"`+local+`/runtime/`)
			if naive == src {
				if got != src {
					t.Errorf("%s has no runtime import but changed", name)
				}
				continue
			}
			rewritten++
			want, err := format.Source([]byte(naive))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if got != string(want) {
				t.Errorf("%s with %s: the head-only rewrite differs from gofmt of the whole file:\n%s\nwant\n%s", name, local, got, want)
			}
		}
	}
	if rewritten < 10 {
		t.Fatalf("only %d files had runtime imports", rewritten)
	}

	// The code below the imports is not parsed: a body gofmt would refuse
	// comes back as it was.
	src := "// Code generated. DO NOT EDIT.\n\npackage p\n\nimport (\n\t\"fmt\"\n\n\twire \"" + runtimeModule + "/runtime/wire\"\n)\n\nfunc (  {\n"
	got, imports, err := rewriteRuntimeImports("p.go", src, "a.example/protoplay")
	if err != nil {
		t.Fatal(err)
	}
	want := "// Code generated. DO NOT EDIT.\n\npackage p\n\nimport (\n\t\"fmt\"\n\n\twire \"a.example/protoplay/runtime/wire\"\n)\n\nfunc (  {\n"
	if got != want || strings.Join(imports, " ") != "fmt "+runtimeModule+"/runtime/wire" {
		t.Errorf("got %q, imports %q; want %q", got, imports, want)
	}
}
