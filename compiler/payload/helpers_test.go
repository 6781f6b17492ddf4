package payload

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/protoplay/protoplay/compiler/frontend"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// corpusDir returns the shared corpus root: $PROTOPLAY_CORPUS, or
// ../shared/corpus beside the repository. It skips the test when absent.
func corpusDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("PROTOPLAY_CORPUS")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "corpus")
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared corpus not found at %s (set PROTOPLAY_CORPUS); skipping", dir)
	}
	return dir
}

// testdataFS and testdataRoots are where the tests' schemas are found:
// this package's own testdata (wire.proto) and the repository's case files
// (testdata/cases), read in place rather than copied here.
var (
	testdataFS    = os.DirFS(filepath.Join("..", ".."))
	testdataRoots = []string{"compiler/payload/testdata", "testdata/cases"}
)

// compileFS compiles files from fsys with the given import roots and
// returns the schema.
func compileFS(t testing.TB, fsys fs.FS, roots []string, files ...string) *Schema {
	t.Helper()
	res := frontend.Compile(context.Background(), frontend.Request{FS: fsys, ImportPaths: roots, Files: files})
	if res.HasErrors() {
		t.Fatalf("compile %v: %v", files, res.Diagnostics)
	}
	s, err := NewSchema(res.Files)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// compileSource compiles one in-memory file named "test.proto".
func compileSource(t testing.TB, src string) *Schema {
	t.Helper()
	res := frontend.Compile(context.Background(), frontend.Request{Sources: map[string]string{"test.proto": src}})
	if res.HasErrors() {
		t.Fatalf("compile: %v", res.Diagnostics)
	}
	s, err := NewSchema(res.Files)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustFind(t testing.TB, s *Schema, name string) protoreflect.MessageDescriptor {
	t.Helper()
	md, err := s.FindMessage(name)
	if err != nil {
		t.Fatal(err)
	}
	return md
}
