package gogen_test

import (
	"context"
	"go/format"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
	"github.com/protoplay/protoplay/internal/gentest"
)

// corpusRoots are the import roots of ../shared/corpus: each entry is the
// folder whose files are compiled and the -I roots used for them.
var corpusRoots = []struct {
	name  string
	roots []string
}{
	{"benchmarks", []string{"benchmarks"}},
	{"protobuf-3.21.12", []string{"protobuf-3.21.12"}},
	{"googleapis", []string{"googleapis", "protobuf"}},
	{"protobuf", []string{"protobuf"}},
}

func corpusDir(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("PROTOPLAY_CORPUS"); d != "" {
		return d
	}
	shared, ok := gentest.SharedDir()
	if !ok {
		t.Skip("../shared is absent: skipping corpus tests (set PROTOPLAY_SHARED or PROTOPLAY_CORPUS)")
	}
	return filepath.Join(shared, "corpus")
}

// TestCorpusBuilds generates Go for every corpus file that protocompile
// accepts and checks that the output builds and passes go vet. Files that
// protocompile rejects are listed with their first diagnostic.
func TestCorpusBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	dir := corpusDir(t)
	total, built := 0, 0
	for _, root := range corpusRoots {
		t.Run(root.name, func(t *testing.T) {
			fsys := os.DirFS(dir)
			var names []string
			err := fs.WalkDir(fsys, root.name, func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() && strings.HasSuffix(p, ".proto") {
					names = append(names, strings.TrimPrefix(p, root.name+"/"))
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			sort.Strings(names)
			var accepted []protoreflect.FileDescriptor
			rejected := 0
			for _, n := range names {
				if _, wkt := gogen.WellKnownImportPath(n); wkt {
					continue // built as runtime/wkt
				}
				total++
				res := compiler.Compile(context.Background(), compiler.Request{FS: fsys, ImportPaths: root.roots, Files: []string{n}, NoGenerate: true})
				if res.HasErrors() {
					rejected++
					t.Logf("rejected by the compiler (expected for some corpus files): %s", res.Err().Error())
					continue
				}
				accepted = append(accepted, res.Files[0])
			}
			// Each file (with the imports it needs) is generated on its own:
			// corpus files written for other languages define the same
			// full names in several files, which no single compilation
			// could hold together.
			var gen []gogen.File
			seen := map[string]bool{}
			for _, fd := range accepted {
				out, diags := gogen.Generate(withDeps(fd), rehomePerFile(fd, root.name))
				for _, d := range diags {
					t.Errorf("generate: %s:%d:%d: %s", d.File, d.Line, d.Column, d.Message)
				}
				for _, f := range out {
					if !seen[f.Name] {
						seen[f.Name] = true
						gen = append(gen, f)
					}
				}
			}
			mod := gentest.WriteModule(t, gen, nil, false)
			out, err := gentest.Go(t, mod, "vet", "./...")
			if err != nil {
				bad := map[string]bool{}
				for _, m := range regexp.MustCompile(`(?m)^(?:# )?(gentest/\S+)`).FindAllStringSubmatch(out, -1) {
					bad[m[1]] = true
				}
				t.Errorf("go vet of generated code failed (%d packages):\n%s", len(bad), out)
				return
			}
			built += len(accepted)
			t.Logf("%s: %d files generated, built and vetted; %d rejected by the compiler", root.name, len(accepted), rejected)
		})
	}
	t.Logf("corpus: %d of %d files built", built, total)
}

// TestCorpusGofmtClean generates Go for every corpus file that the
// compiler accepts (each file on its own, its imports named but not
// generated, as TestCorpusBuilds does) and checks that each output is
// already gofmt'd (go/format.Source leaves it as it is) and is byte for
// byte the output of one jennifer Render of the whole file, which runs
// go/format over it all: the piece-by-piece printing changes no byte.
func TestCorpusGofmtClean(t *testing.T) {
	if testing.Short() {
		t.Skip("generates the corpus twice")
	}
	dir := corpusDir(t)
	checked := 0
	for _, root := range corpusRoots {
		t.Run(root.name, func(t *testing.T) {
			fsys := os.DirFS(dir)
			var names []string
			err := fs.WalkDir(fsys, root.name, func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() && strings.HasSuffix(p, ".proto") {
					names = append(names, strings.TrimPrefix(p, root.name+"/"))
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			sort.Strings(names)
			for _, n := range names {
				if _, wkt := gogen.WellKnownImportPath(n); wkt {
					continue
				}
				res := compiler.Compile(context.Background(), compiler.Request{FS: fsys, ImportPaths: root.roots, Files: []string{n}, NoGenerate: true})
				if res.HasErrors() {
					continue // TestCorpusBuilds lists them
				}
				fd := res.Files[0]
				opts := rehomePerFile(fd, root.name)
				out, diags := gogen.Generate([]protoreflect.FileDescriptor{fd}, opts)
				if len(diags) > 0 {
					t.Errorf("%s: %v", n, diags)
					continue
				}
				whole, _ := gogen.GenerateWhole([]protoreflect.FileDescriptor{fd}, opts)
				if len(whole) != len(out) {
					t.Errorf("%s: %d files, %d from the whole-file render", n, len(out), len(whole))
					continue
				}
				for i, f := range out {
					if f.Content != whole[i].Content {
						t.Errorf("%s: %s differs from the whole-file render", n, f.Name)
					}
					src, err := format.Source([]byte(f.Content))
					if err != nil || string(src) != f.Content {
						t.Errorf("%s: %s is not gofmt-clean (err %v)", n, f.Name, err)
					}
					checked++
				}
			}
		})
	}
	t.Logf("corpus: %d generated files gofmt-clean and equal to the whole-file render", checked)
}

// withDeps returns fd and every file it imports, transitively, except the
// well-known types (which live in runtime/wkt).
func withDeps(fd protoreflect.FileDescriptor) []protoreflect.FileDescriptor {
	var out []protoreflect.FileDescriptor
	seen := map[string]bool{}
	var walk func(f protoreflect.FileDescriptor)
	walk = func(f protoreflect.FileDescriptor) {
		if seen[f.Path()] {
			return
		}
		seen[f.Path()] = true
		for i := 0; i < f.Imports().Len(); i++ {
			walk(f.Imports().Get(i).FileDescriptor)
		}
		if _, wkt := gogen.WellKnownImportPath(f.Path()); !wkt {
			out = append(out, f)
		}
	}
	walk(fd)
	return out
}

// rehomePerFile gives every file reachable from fd a Go package of its own,
// named after its path ("one Go package per .proto file"): corpus test
// protos share proto packages and go_package values across files written
// for other languages, which would otherwise collide.
func rehomePerFile(fd protoreflect.FileDescriptor, root string) gogen.Options {
	opts := gogen.Options{Paths: "import", Module: gentest.ModulePath, ImportMap: map[string]string{}}
	for _, f := range withDeps(fd) {
		p := strings.TrimSuffix(f.Path(), ".proto")
		name := strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
				return r
			}
			if r >= 'A' && r <= 'Z' {
				return r + 'a' - 'A'
			}
			return -1
		}, filepath.Base(p))
		opts.ImportMap[f.Path()] = gentest.ModulePath + "/" + root + "/" + p + ";" + name
	}
	return opts
}
