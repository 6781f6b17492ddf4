package gogen_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/protoplay/protoplay/compiler/gogen"
	"github.com/protoplay/protoplay/internal/gentest"
)

// TestShapeMemoMatchesGofmt: every piece formatted from remembered shapes
// (see shapeMemo) is byte for byte go/format's output for it, over the
// golden inputs, the bug cases and two schemas of many messages (where
// shapes repeat). TestCorpusGofmtClean checks the corpus's files against
// the whole-file render.
func TestShapeMemoMatchesGofmt(t *testing.T) {
	var mu sync.Mutex
	var bad []string
	checked := 0
	gogen.SetShapeCheck(func(raw, got []byte) {
		want, err := gogen.FormatPiece(raw)
		mu.Lock()
		defer mu.Unlock()
		checked++
		if err != nil || !bytes.Equal(got, want) {
			if len(bad) < 3 {
				bad = append(bad, "--- piece:\n"+string(raw)+"\n--- got:\n"+string(got)+"\n--- go/format:\n"+string(want))
			}
		}
	})
	defer gogen.SetShapeCheck(nil)
	inputs := map[string]fs.FS{
		"many.proto":  fstest.MapFS{"many.proto": {Data: []byte(gogen.ManyMessages(30))}},
		"small.proto": fstest.MapFS{"small.proto": {Data: []byte(smallMessages(120))}},
	}
	root := filepath.Join("..", "..", "testdata")
	for _, dir := range []string{"golden", "cases"} {
		names, _ := filepath.Glob(filepath.Join(root, dir, "*.proto"))
		for _, n := range names {
			base := filepath.Base(n)
			switch {
			case gentest.RejectedCase(base):
				continue // rejected on purpose
			}
			inputs[base] = os.DirFS(filepath.Join(root, dir))
		}
	}
	keys := make([]string, 0, len(inputs))
	for k := range inputs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fds := compileFrontend(t, inputs[k], k)
		if _, diags := gogen.Generate(fds, gogen.Options{}); len(diags) > 0 {
			t.Errorf("%s: %v", k, diags)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if checked == 0 {
		t.Fatal("no piece was formatted from shapes")
	}
	for _, b := range bad {
		t.Error(b)
	}
	t.Logf("%d pieces checked", checked)
}
