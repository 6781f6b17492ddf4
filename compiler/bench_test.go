package compiler_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/internal/gentest"
)

// BenchmarkCompileSmall is the playground's per-keystroke cost for a tiny
// schema: parse, link and generate.
func BenchmarkCompileSmall(b *testing.B) {
	srcs := map[string]string{"a.proto": "syntax = \"proto3\";\npackage a;\nmessage M { int32 a = 1; string s = 2; }\n"}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if res := compiler.Compile(context.Background(), compiler.Request{Sources: srcs}); res.Err() != nil {
			b.Fatal(res.Err())
		}
	}
}

// BenchmarkCompileLarge compiles a ~900-line googleapis file with its
// imports (google/privacy/dlp/v2/storage.proto).
func BenchmarkCompileLarge(b *testing.B) {
	shared, ok := gentest.SharedDir()
	if !ok {
		b.Skip("../shared is absent")
	}
	corpus := filepath.Join(shared, "corpus")
	fsys := os.DirFS(corpus)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		res := compiler.Compile(context.Background(), compiler.Request{FS: fsys, ImportPaths: []string{"googleapis", "protobuf"},
			Files: []string{"google/privacy/dlp/v2/storage.proto"}})
		if res.Err() != nil {
			b.Fatal(res.Err())
		}
	}
}
