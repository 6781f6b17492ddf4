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
// shapes repeat). And every chunk of those pieces that scanChunks finds
// width-free formats, with its names, numbers and strings given other
// lengths, to its own shape's template filled with them (the claim that
// lets chunks of one normKey share a template; CheckWidthFree).
// TestCorpusGofmtClean checks the corpus's files against the whole-file
// render.
func TestShapeMemoMatchesGofmt(t *testing.T) {
	var mu sync.Mutex
	var bad []string
	checked := 0
	pieces := map[string]bool{}
	gogen.SetPieceHook(func(raw []byte) {
		mu.Lock()
		defer mu.Unlock()
		pieces[string(raw)] = true
	})
	defer gogen.SetPieceHook(nil)
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
	widthFree := 0
	for raw := range pieces {
		n, err := gogen.CheckWidthFree([]byte(raw))
		widthFree += n
		if err != nil {
			t.Fatal(err)
		}
	}
	if widthFree == 0 {
		t.Fatal("no chunk was width-free")
	}
	t.Logf("%d pieces checked; %d width-free chunks of %d pieces checked with other widths", checked, widthFree, len(pieces))
}

// TestWidthFreeChunks: scanChunks finds a chunk width-free only when it
// holds none of what go/printer aligns or lays out by width.
func TestWidthFreeChunks(t *testing.T) {
	for _, c := range []struct {
		src  string
		free bool
	}{
		{"func (m *T) GetName() string {\nif m != nil {\nreturn m.Name\n}\nreturn \"\"\n}", true},
		{"func (x E) String() string {\nswitch x {\ncase 0:\nreturn \"A\"\ndefault:\nreturn \"\"\n}\n}", true},
		{"func f() {\nx := T{A: 1, B: 2}\n_ = x\n}", true},
		{"func f() {\nx := map[string]int{}\n_ = x\n}", true},
		{"func f() {\ng(func() {\nh()\n})\n}", true},
		{"func f(x interface{}) interface{} {\nreturn x\n}", true},
		{"// Doc.\nfunc f() {\n// A comment on its line.\nh()\n}", true},
		{"type T struct {\nA int\nBb string\n}", false},
		{"type T struct{ A int }", false},
		{"type T struct{}", true},
		{"const (\nA = 1\nBb = 2\n)", false},
		{"var (\nA = 1\n)", false},
		{"func f() {\nx := T{\nA: 1,\nBb: 2,\n}\n_ = x\n}", false},
		{"func f() {\nh() // why\n}", false},
		{"func (*T) isT_O() {}", false},
		{"func f() {\ng(func() {})\n}", false},
		{"func f() {\ns := `a`\n_ = s\n}", false},
		{"func f() {\n/* block */\nh()\n}", false},
		{"func f() {\nL:\nfor {\nbreak L\n}\n}", false},
	} {
		got := gogen.WidthFree([]byte(c.src))
		if len(got) != 1 || got[0] != c.free {
			t.Errorf("WidthFree(%q) = %v, want [%v]", c.src, got, c.free)
		}
	}
}
