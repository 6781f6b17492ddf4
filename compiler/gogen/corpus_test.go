package gogen_test

import (
	"context"
	"flag"
	"fmt"
	"go/format"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
	"github.com/protoplay/protoplay/internal/gentest"
)

// corpusRoot is a folder of ../shared/corpus whose files are compiled and
// the -I roots used for them.
type corpusRoot struct {
	name  string
	roots []string
}

// corpusRoots are the import roots of ../shared/corpus.
var corpusRoots = []corpusRoot{
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

// corpusPass is what TestCorpusBuilds and TestCorpusGofmtClean check of
// one corpus root, from one pass over its files: each file (the
// well-known types aside) is compiled by the front end once, and what
// each test checks of it is done right after its compile, so neither test
// compiles the corpus again and no compiled file is kept past its checks.
// The inputs and comparisons are each test's own (see them).
type corpusPass struct {
	builds, gofmt bool // the parts done: TestCorpusBuilds's, TestCorpusGofmtClean's

	total    int      // files compiled
	rejected []string // the compiler's error for each file it rejects

	// TestCorpusBuilds: each accepted file generated with its imports
	// (each generated file once), and the generator's diagnostics.
	accepted int
	gen      []gogen.File
	genErrs  []string

	// TestCorpusGofmtClean: its failures, and the generated files checked.
	gofmtErrs []string
	checked   int
}

// corpusPasses are the passes made, by root name.
var corpusPasses struct {
	sync.Mutex
	done map[string]*corpusPass
}

// corpusPassOf returns the pass over root, making it (or the part of it
// the calling test needs, when another test made the rest) on first use.
// A pass does both tests' parts when both are going to run in this test
// binary (willRun), so that the second finds its part done.
func corpusPassOf(t *testing.T, dir string, root corpusRoot, forBuilds bool) *corpusPass {
	t.Helper()
	corpusPasses.Lock()
	defer corpusPasses.Unlock()
	if corpusPasses.done == nil {
		corpusPasses.done = map[string]*corpusPass{}
	}
	p := corpusPasses.done[root.name]
	if p != nil && (forBuilds && p.builds || !forBuilds && p.gofmt) {
		return p
	}
	builds := forBuilds || willRun("TestCorpusBuilds")
	gofmt := !forBuilds || willRun("TestCorpusGofmtClean")
	p = runCorpusPass(t, dir, root, builds, gofmt)
	corpusPasses.done[root.name] = p
	return p
}

// willRun reports whether this test binary's -test.run and -test.skip
// select the top-level test name (a pattern it cannot read, yes).
func willRun(name string) bool {
	if testing.Short() {
		return false // both corpus tests skip under -short
	}
	first := func(flagName string) (*regexp.Regexp, bool) {
		f := flag.Lookup(flagName)
		if f == nil || f.Value.String() == "" {
			return nil, false
		}
		pat, sub, _ := strings.Cut(f.Value.String(), "/")
		if flagName == "test.skip" && sub != "" {
			return nil, false // skips subtests only
		}
		re, err := regexp.Compile(pat)
		return re, err == nil
	}
	if re, ok := first("test.run"); ok && !re.MatchString(name) {
		return false
	}
	if re, ok := first("test.skip"); ok && re.MatchString(name) {
		return false
	}
	return true
}

// runCorpusPass compiles each file of root once and does, for each file
// the compiler accepts, TestCorpusBuilds's part (builds) and
// TestCorpusGofmtClean's (gofmt).
func runCorpusPass(t *testing.T, dir string, root corpusRoot, builds, gofmt bool) *corpusPass {
	t.Helper()
	p := &corpusPass{builds: builds, gofmt: gofmt}
	fsys := os.DirFS(dir)
	var names []string
	err := fs.WalkDir(fsys, root.name, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".proto") {
			names = append(names, strings.TrimPrefix(path, root.name+"/"))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	seen := map[string]bool{}
	for _, n := range names {
		if _, wkt := gogen.WellKnownImportPath(n); wkt {
			continue // built as runtime/wkt
		}
		p.total++
		res := compiler.Compile(context.Background(), compiler.Request{FS: fsys, ImportPaths: root.roots, Files: []string{n}, NoGenerate: true})
		if res.HasErrors() {
			p.rejected = append(p.rejected, res.Err().Error())
			continue
		}
		fd := res.Files[0]
		p.accepted++
		if builds {
			// Each file (with the imports it needs) is generated on its
			// own: corpus files written for other languages define the
			// same full names in several files, which no single
			// compilation could hold together.
			out, diags := gogen.Generate(withDeps(fd), rehomePerFile(fd, root.name))
			for _, d := range diags {
				p.genErrs = append(p.genErrs, fmt.Sprintf("generate: %s:%d:%d: %s", d.File, d.Line, d.Column, d.Message))
			}
			for _, f := range out {
				if !seen[f.Name] {
					seen[f.Name] = true
					p.gen = append(p.gen, f)
				}
			}
		}
		if gofmt {
			p.gofmtErrs = append(p.gofmtErrs, checkGofmtClean(fd, n, root.name, &p.checked)...)
		}
	}
	return p
}

// TestCorpusBuilds generates Go for every corpus file that protocompile
// accepts and checks that the output builds and passes go vet. Files that
// protocompile rejects are listed with their first diagnostic. Each file's
// front-end compile is shared with TestCorpusGofmtClean (corpusPass).
func TestCorpusBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	dir := corpusDir(t)
	t.Parallel() // see parallel in main_test.go
	total, built := 0, 0
	for _, root := range corpusRoots {
		t.Run(root.name, func(t *testing.T) {
			p := corpusPassOf(t, dir, root, true)
			total += p.total
			for _, e := range p.rejected {
				t.Logf("rejected by the compiler (expected for some corpus files): %s", e)
			}
			for _, e := range p.genErrs {
				t.Error(e)
			}
			mod := gentest.WriteModule(t, p.gen, nil, false)
			out, err := gentest.Go(t, mod, "vet", "./...")
			if err != nil {
				bad := map[string]bool{}
				for _, m := range regexp.MustCompile(`(?m)^(?:# )?(gentest/\S+)`).FindAllStringSubmatch(out, -1) {
					bad[m[1]] = true
				}
				t.Errorf("go vet of generated code failed (%d packages):\n%s", len(bad), out)
				return
			}
			built += p.accepted
			t.Logf("%s: %d files generated, built and vetted; %d rejected by the compiler", root.name, p.accepted, len(p.rejected))
		})
	}
	t.Logf("corpus: %d of %d files built", built, total)
}

// TestCorpusGofmtClean generates Go for every corpus file that the
// compiler accepts (each file on its own, its imports named but not
// generated) and checks that each output is already gofmt'd
// (go/format.Source leaves it as it is) and is byte for byte the output
// of one jennifer Render of the whole file, which runs go/format over it
// all: the piece-by-piece printing changes no byte. Each file's
// front-end compile is shared with TestCorpusBuilds (corpusPass).
func TestCorpusGofmtClean(t *testing.T) {
	if testing.Short() {
		t.Skip("generates the corpus twice")
	}
	dir := corpusDir(t)
	t.Parallel() // see parallel in main_test.go
	checked := 0
	for _, root := range corpusRoots {
		t.Run(root.name, func(t *testing.T) {
			p := corpusPassOf(t, dir, root, false)
			for _, e := range p.gofmtErrs {
				t.Error(e)
			}
			checked += p.checked
		})
	}
	t.Logf("corpus: %d generated files gofmt-clean and equal to the whole-file render", checked)
}

// checkGofmtClean is TestCorpusGofmtClean's check of fd (the corpus file
// n of root): its failures, and the number of generated files checked
// added to checked.
func checkGofmtClean(fd protoreflect.FileDescriptor, n, root string, checked *int) []string {
	var errs []string
	opts := rehomePerFile(fd, root)
	out, diags := gogen.Generate([]protoreflect.FileDescriptor{fd}, opts)
	if len(diags) > 0 {
		return []string{fmt.Sprintf("%s: %v", n, diags)}
	}
	whole, _ := gogen.GenerateWhole([]protoreflect.FileDescriptor{fd}, opts)
	if len(whole) != len(out) {
		return []string{fmt.Sprintf("%s: %d files, %d from the whole-file render", n, len(out), len(whole))}
	}
	for i, f := range out {
		if f.Content != whole[i].Content {
			errs = append(errs, fmt.Sprintf("%s: %s differs from the whole-file render", n, f.Name))
		}
		src, err := format.Source([]byte(f.Content))
		if err != nil || string(src) != f.Content {
			errs = append(errs, fmt.Sprintf("%s: %s is not gofmt-clean (err %v)", n, f.Name, err))
		}
		*checked++
	}
	return errs
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
