//go:build !protoplay_lazyruntime

package protoplay

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// The embed list names every non-test .go file of runtime/, and no other:
// a file added to the runtime without being added to the list would be
// missing from runtime=local output.
func TestRuntimeSourcesComplete(t *testing.T) {
	var want, got []string
	err := filepath.WalkDir("runtime", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			want = append(want, filepath.ToSlash(p))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = fs.WalkDir(RuntimeSources, "runtime", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			got = append(got, p)
			b, _ := RuntimeSources.ReadFile(p)
			if disk, _ := os.ReadFile(p); string(disk) != string(b) {
				t.Errorf("%s: embedded content differs from the file", p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("embedded %q\nwant (runtime/'s non-test .go files) %q\n(update the go:embed line of runtime_sources.go)", got, want)
	}
}

// The in-memory form the playground's core loads (runtime_sources_lazy.go,
// from site/build's runtime asset, RuntimeFiles) serves the same tree as
// the embedded one.
func TestRuntimeFilesFS(t *testing.T) {
	files, err := RuntimeFiles()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for n := range files {
		names = append(names, n)
	}
	if err := fstest.TestFS(newFilesFS(files), names...); err != nil {
		t.Fatal(err)
	}
	if err := fstest.TestFS(RuntimeSources, names...); err != nil {
		t.Fatal(err)
	}
}
