package compiler_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
	"github.com/protoplay/protoplay/internal/gentest"
)

var update = flag.Bool("update", false, "rewrite generated well-known types and golden files")

// TestWellKnownTypes proves that the committed runtime/wkt code is exactly
// what the current generator makes of the well-known type files. Run with
// -update (make generate) to regenerate it.
func TestWellKnownTypes(t *testing.T) {
	res := compiler.Compile(context.Background(), compiler.Request{
		Files:   gogen.WellKnownFiles(),
		Options: gogen.Options{Module: "github.com/protoplay/protoplay"},
	})
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	root := gentest.RepoRoot()
	var names []string
	for _, f := range res.Generated {
		if !strings.HasPrefix(f.Name, "runtime/wkt/") {
			t.Fatalf("well-known type output %s is outside runtime/wkt", f.Name)
		}
		names = append(names, f.Name)
		path := filepath.Join(root, filepath.FromSlash(f.Name))
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(f.Content), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v (run make generate)", f.Name, err)
			continue
		}
		if string(got) != f.Content {
			t.Errorf("%s differs from what the generator makes now (run make generate)", f.Name)
		}
	}
	// No stale generated file may linger.
	stale, _ := filepath.Glob(filepath.Join(root, "runtime", "wkt", "*", "*.pb.go"))
	sort.Strings(names)
	for _, p := range stale {
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if i := sort.SearchStrings(names, rel); i == len(names) || names[i] != rel {
			t.Errorf("%s is not generated any more; delete it", rel)
		}
	}
}
