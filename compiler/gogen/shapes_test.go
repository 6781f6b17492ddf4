package gogen_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
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
	checkShapeMemo(t, false)
}

// TestLineTemplatesMatchGofmt is TestShapeMemoMatchesGofmt with no chunk
// template used, so that every chunk that lineUnits cuts into lines is put
// together from the line templates learned from the chunks formatted
// before it (in this schema and the ones before), and compared with
// go/format's output for its piece.
func TestLineTemplatesMatchGofmt(t *testing.T) {
	gogen.SetNoChunkTemplates(true)
	defer gogen.SetNoChunkTemplates(false)
	checkShapeMemo(t, true)
}

func checkShapeMemo(t *testing.T, lines bool) {
	var fromLines atomic.Int64
	gogen.SetLineHook(func() { fromLines.Add(1) })
	defer gogen.SetLineHook(nil)
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
		"docs.proto":  fstest.MapFS{"docs.proto": {Data: []byte(docMessages(12))}},
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
	// One cache for all inputs: its shape memo carries the templates
	// learned from one schema to the next, as an editor session's does.
	cache := &gogen.Cache{}
	for _, k := range keys {
		fds := compileFrontend(t, inputs[k], k)
		if _, diags := gogen.GenerateCached(fds, gogen.Options{}, nil, cache); len(diags) > 0 {
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
	if lines && fromLines.Load() == 0 {
		t.Fatal("no chunk was put together from line templates")
	}
	t.Logf("%d chunks put together from line templates", fromLines.Load())
	if lines {
		return
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

// TestLineUnits: lineUnits cuts a width-free chunk into lines only when
// each line is a whole statement, a case label, a block's opening line or
// its closing brace alone, or a doc comment before the one declaration.
func TestLineUnits(t *testing.T) {
	for _, c := range []struct {
		src   string
		lines bool
	}{
		{"func (m *T) GetName() string {\nif m != nil {\nreturn m.Name\n}\nreturn \"\"\n}", true},
		{"// Doc.\n// More.\nfunc (x E) String() string {\nswitch x {\ncase 0:\nreturn \"A\"\ndefault:\nreturn \"\"\n}\n}", true},
		{"func f() {\nif a {\nb()\n} else if c {\nd()\n} else {\n\ne()\n}\n}", true},
		{"func f() {\nfor i := 0; i < n; i++ {\nx := T{A: 1, B: 2}\n_ = x\n}\n}", true},
		{"type E int32", true},
		{"func f() {\nx := map[string]int{\n}\n_ = x\n}", false},              // a composite literal over lines
		{"func f() {\ng(a,\nb)\n}", false},                                    // a call over lines
		{"func f() {\ng(func() {\nh()\n})\n}", false},                         // a function literal
		{"func f() {\ndefer func() {\nh()\n}()\n}", false},                    // a function literal
		{"func f() {\n// A comment on its line.\nh()\n}", false},              // a comment in a body
		{"func f() {\nif a &&\nb {\nh()\n}\n}", false},                        // a condition over lines
		{"func f() {\nfor _, x := range []int{\n1,\n} {\n_ = x\n}\n}", false}, // a composite literal in a header
		{"func f() {\n}\nfunc g() {\n}", false},                               // two declarations
		{"func f() {\n}\n// G.\nfunc g() {\n}", false},                        // two declarations
		{"// Only a comment.", false},
	} {
		got := gogen.LineUnits([]byte(c.src))
		if len(got) != 1 || got[0] != c.lines {
			t.Errorf("LineUnits(%q) = %v, want [%v]", c.src, got, c.lines)
		}
	}
}

// docMessages is a schema of n enums and n messages alike but for their
// comments, of two paragraphs each: their chunks differ only by their doc
// comments, which the shape memo formats on their own (learnDocs).
func docMessages(n int) string {
	var b strings.Builder
	b.WriteString("syntax = \"proto3\";\npackage docs;\noption go_package = \"example.com/docs\";\n\n")
	for i := range n {
		fmt.Fprintf(&b, "// Enum %d says what it is.\n//\n// Its second paragraph, %d.\n//   An indented line.\nenum E%d {\n  E%d_ZERO = 0;\n}\n\n", i, i, i, i)
		fmt.Fprintf(&b, "// Message %d.\n//\n// More on %d.\nmessage M%d {\n  // The name %d.\n  //\n  // Its second paragraph.\n  string name = 1;\n  // The count %d.\n  int32 count = 2;\n}\n\n", i, i, i, i, i)
	}
	return b.String()
}
