package interp_test

import (
	"strings"
	"testing"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/interp"
)

// TestTypeNamedLikeATypeParameter: message types whose Go names are those
// of the standard library's type parameters (E, S, K, V, T) load and pass
// the page's checks. yaegi resolved a generic call's E (slices.Grow[S ~[]E,
// E any] in MarshalAppend) to the package's own type E and panicked inside
// Load, outside any recovery.
func TestTypeNamedLikeATypeParameter(t *testing.T) {
	src := compiler.Sources{
		"a.proto": `syntax = "proto3"; package a; option go_package = "example.com/a";
message M { string s = 1; }
message E { string m = 1; }
message S { repeated E e = 1; }
message K { map<string, int32> v = 1; }
message V { bytes b = 1; }
message T { int64 n = 1; }`,
	}
	_, res := pageChecks(t, src, "")
	for name, r := range res {
		if !r.Pass {
			t.Errorf("%s: %+v", name, r)
		}
	}
}

// TestLoadPanicIsAnError: a panic inside the interpreter while it loads
// code (here yaegi's own, on a type parameter's full slice expression) is
// the load's error, not a crash of the page's interpreter module.
func TestLoadPanicIsAnError(t *testing.T) {
	src := "package a\n\nfunc f[T any](s []T) []T { return s[:0:0] }\n\nvar X = f([]int{1})\n"
	s := &interp.Session{}
	lr, err := s.Load(interp.LoadRequest{Files: []interp.File{{Name: "a/a.go", Content: src}}, Root: "example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if lr.Error == nil || !strings.Contains(lr.Error.Message, "the interpreter failed on this code") {
		t.Fatalf("load: want the interpreter's panic as the error, got %+v", lr.Error)
	}
}
