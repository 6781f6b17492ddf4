package interp_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
	"github.com/protoplay/protoplay/internal/gentest"
)

// TestCorpusSweep runs a spread of ../shared/corpus under the interpreter:
// up to 400 files of protobuf's tree and 250 of googleapis (every n-th
// file in name order), each compiled alone; files that do not compile
// alone are left out. It takes minutes, so it runs only when
// PROTOPLAY_INTERP_SWEEP is set. (Last run: 235 files, 2258 message types,
// all passed.)
func TestCorpusSweep(t *testing.T) {
	if os.Getenv("PROTOPLAY_INTERP_SWEEP") == "" {
		t.Skip("set PROTOPLAY_INTERP_SWEEP=1 to run")
	}
	shared, ok := gentest.SharedDir()
	if !ok {
		t.Skip("../shared is absent: no corpus to run")
	}
	fsys := os.DirFS(filepath.Join(shared, "corpus"))
	ran := 0
	for _, root := range []struct {
		dir   string
		roots []string
		max   int
	}{{"protobuf", []string{"protobuf"}, 400}, {"googleapis", []string{"googleapis", "protobuf"}, 250}} {
		var names []string
		err := fs.WalkDir(fsys, root.dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, ".proto") {
				names = append(names, strings.TrimPrefix(p, root.dir+"/"))
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		sort.Strings(names)
		if step := len(names) / root.max; step > 1 {
			var sel []string
			for i := 0; i < len(names); i += step {
				sel = append(sel, names[i])
			}
			names = sel
		}
		for _, n := range names {
			if _, wkt := gogen.WellKnownImportPath(n); wkt {
				continue
			}
			res := compiler.Compile(context.Background(), compiler.Request{FS: fsys, ImportPaths: root.roots, Files: []string{n}, NoGenerate: true})
			if res.Err() != nil {
				continue
			}
			ran++
			t.Run(n, func(t *testing.T) {
				runSchema(t, compiler.Request{FS: fsys, ImportPaths: root.roots, Files: []string{n}})
			})
		}
	}
	t.Logf("%d corpus files run under the interpreter", ran)
}
