package gogen_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/protoplay/protoplay/compiler/frontend"
	"github.com/protoplay/protoplay/compiler/gogen"
)

// smallMessages is benchrun's scaling schema: n messages of four fields in
// one proto3 file.
func smallMessages(n int) string {
	var b strings.Builder
	b.WriteString("syntax = \"proto3\";\npackage big;\noption go_package = \"example.com/big\";\n\n")
	for i := range n {
		fmt.Fprintf(&b, "message M%d {\n  int32 a = 1;\n  string b = 2;\n  int64 c = 3;\n  bool d = 4;\n}\n", i)
	}
	return b.String()
}

// BenchmarkGenerateSmallMessages: generation of one file of 2,000 messages
// of four fields, the bench's scaling shape (compiling excluded).
func BenchmarkGenerateSmallMessages(b *testing.B) {
	res := frontend.Compile(context.Background(), frontend.Request{
		FS:    fstest.MapFS{"big.proto": {Data: []byte(smallMessages(2000))}},
		Files: []string{"big.proto"},
	})
	if res.HasErrors() {
		b.Fatal(res.Diagnostics)
	}
	for b.Loop() {
		files, diags := gogen.Generate(res.Files, gogen.Options{})
		if len(diags) > 0 || len(files) == 0 {
			b.Fatal(diags)
		}
	}
}

// BenchmarkGenerateGoogleapis: generation of the shared corpus's
// googleapis files (make bench's compiler-speed schema; compiling
// excluded), runtime=import. Skipped without PROTOPLAY_SHARED.
func BenchmarkGenerateGoogleapis(b *testing.B) {
	shared := os.Getenv("PROTOPLAY_SHARED")
	if shared == "" {
		b.Skip("PROTOPLAY_SHARED not set")
	}
	corpus := filepath.Join(shared, "corpus")
	var files []string
	root := filepath.Join(corpus, "googleapis")
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".proto") {
			rel, _ := filepath.Rel(root, path)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(files)
	res := frontend.Compile(context.Background(), frontend.Request{
		FS: os.DirFS(corpus), ImportPaths: []string{"googleapis", "protobuf"}, Files: files,
	})
	if res.HasErrors() {
		b.Fatal(res.Diagnostics)
	}
	for b.Loop() {
		out, diags := gogen.Generate(res.Files, gogen.Options{Runtime: "import"})
		if len(diags) > 0 || len(out) == 0 {
			b.Fatal(diags)
		}
	}
}
