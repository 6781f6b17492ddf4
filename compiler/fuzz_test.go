package compiler_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/internal/gentest"
)

// FuzzCompile: compiling arbitrary text never panics (a panic would surface
// as an "internal error" diagnostic, which this target also rejects), and
// what compiles generates Go.
func FuzzCompile(f *testing.F) {
	cases, _ := filepath.Glob(filepath.Join(gentest.RepoRoot(), "testdata", "cases", "*.proto"))
	for _, p := range cases {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("syntax = \"proto3\"; message A { map<string, A> m = 1; oneof o { A a = 2; } }")
	f.Add("edition = \"2023\"; message A { int32 x = 1 [features.field_presence = IMPLICIT]; }")
	f.Fuzz(func(t *testing.T, src string) {
		res := compiler.Compile(context.Background(), compiler.Request{Sources: map[string]string{"f.proto": src}})
		for _, d := range res.Diagnostics {
			if d.Severity == compiler.SeverityError && len(d.Message) >= 14 && d.Message[:14] == "internal error" {
				t.Fatalf("internal error on %q: %s", src, d.Message)
			}
		}
		if !res.HasErrors() && len(res.Generated) != 1 {
			t.Fatalf("accepted %q but generated %d files", src, len(res.Generated))
		}
	})
}
