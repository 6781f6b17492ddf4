package protoplay

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every .go file under runtime/ is in RuntimeSource, so a package added to
// the runtime (runtime/protojson was once missed) is never absent from the
// modules protoplay check --generated builds.
func TestRuntimeSourceComplete(t *testing.T) {
	n := 0
	err := filepath.WalkDir("runtime", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		want, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		got, err := RuntimeSource.ReadFile(filepath.ToSlash(path))
		if err != nil || string(got) != string(want) {
			t.Errorf("%s: not in RuntimeSource (%v)", path, err)
		}
		n++
		return nil
	})
	if err != nil || n == 0 {
		t.Fatalf("walked %d files: %v", n, err)
	}
}
