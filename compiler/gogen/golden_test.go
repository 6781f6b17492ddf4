package gogen_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
	"github.com/protoplay/protoplay/internal/gentest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestGolden compares the generated Go for each testdata/golden/*.proto with
// the file beside it (NAME.pb.go.golden); -update rewrites them. The golden
// outputs are also built, so a reviewer reads code that compiles.
func TestGolden(t *testing.T) {
	dir := filepath.Join(gentest.RepoRoot(), "testdata", "golden")
	protos, _ := filepath.Glob(filepath.Join(dir, "*.proto"))
	if len(protos) == 0 {
		t.Fatal("no golden inputs")
	}
	for _, p := range protos {
		name := filepath.Base(p)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			res := compiler.Compile(context.Background(), compiler.Request{Sources: map[string]string{name: string(src)}})
			if err := res.Err(); err != nil {
				t.Fatal(err)
			}
			if len(res.Generated) != 1 {
				t.Fatalf("%d files generated", len(res.Generated))
			}
			got := res.Generated[0].Content
			golden := filepath.Join(dir, strings.TrimSuffix(name, ".proto")+".pb.go.golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run make generate)", err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s (run make generate and review the diff)", filepath.Base(golden))
			}
		})
	}
}

// TestGoldenBuild builds the golden inputs' generated code and vets it.
func TestGoldenBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	dir := filepath.Join(gentest.RepoRoot(), "testdata", "golden")
	protos, _ := filepath.Glob(filepath.Join(dir, "*.proto"))
	srcs := map[string]string{}
	var files []string
	for _, p := range protos {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		srcs[filepath.Base(p)] = string(b)
		files = append(files, filepath.Base(p))
	}
	// The default options, and the options that remove code.
	for _, param := range []string{"", "unknown_fields=drop,enum_maps=true"} {
		opts, err := gogen.ParseOptions(param)
		if err != nil {
			t.Fatal(err)
		}
		_, gen := gentest.Generate(t, compiler.Request{Sources: srcs, Files: files, Options: opts})
		mod := gentest.WriteModule(t, gen, nil, false)
		if out, err := gentest.Go(t, mod, "vet", "./..."); err != nil {
			t.Fatalf("go vet with options %q: %v\n%s", param, err, out)
		}
	}
}
