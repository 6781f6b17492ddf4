package gogen_test

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/protoplay/protoplay/compiler/gogen"
	"github.com/protoplay/protoplay/internal/gentest"
)

// genModule is the generated module that TestJSONDifferential,
// TestTextDifferential, TestExtensionsDifferential and TestTypedNilOneof
// share: written once per test binary with the generated code of every
// schema they cover, and each of its test packages (jsondiff, typednil)
// built once, by go test -c, when a test first needs it. A generated
// package several of them use (the conformance test messages) is
// compiled once: one module, one import path, and the build cache keeps
// it for the second package's build (see gentest.Env). TestDifferential's
// module generates the same files at the same import paths, so the cache
// serves those packages to it too.
var genModule struct {
	sync.Mutex
	written bool
	dir     string            // "" when writing the module failed
	corpus  bool              // it holds the corpus's schemas (../shared is present)
	typed   typedNilRegistry  // what the typednil package covers
	bins    map[string]string // test package → its test binary; "" when its build failed
}

// moduleFiles are a generated module's files: generated code, each file
// once, and extra files (harnesses, registries, descriptors) by slash path.
type moduleFiles struct {
	gen   []gogen.File
	seen  map[string]string
	extra map[string]string
}

// add adds generated files; a file generated again must have the same
// content.
func (m *moduleFiles) add(t *testing.T, files []gogen.File) {
	t.Helper()
	for _, f := range files {
		if prev, ok := m.seen[f.Name]; ok {
			if prev != f.Content {
				t.Fatalf("%s generated twice with different content", f.Name)
			}
			continue
		}
		m.seen[f.Name] = f.Content
		m.gen = append(m.gen, f)
	}
}

// corpusPath is corpusDir without the skip: the shared corpus root and
// whether it is there.
func corpusPath() (string, bool) {
	if d := os.Getenv("PROTOPLAY_CORPUS"); d != "" {
		return d, true
	}
	shared, ok := gentest.SharedDir()
	return filepath.Join(shared, "corpus"), ok
}

// genTestBinary returns the test binary of pkg (jsondiff or typednil) in
// the shared generated module and the directory to run it in, writing the
// module and building the binary on first use; it fails t when either
// failed (here or in the test that first tried).
func genTestBinary(t *testing.T, pkg string) (bin, pkgDir string) {
	t.Helper()
	genModule.Lock()
	defer genModule.Unlock() // also when writing or building fails t
	if !genModule.written {
		genModule.written = true
		genModule.bins = map[string]string{}
		genModule.dir = writeGenModule(t)
	}
	if genModule.dir == "" {
		t.Fatal("the shared generated module was not written (see the test that wrote it)")
	}
	bin, built := genModule.bins[pkg]
	if !built {
		genModule.bins[pkg] = ""
		b := filepath.Join(genModule.dir, pkg+".test")
		if out, err := gentest.Go(t, genModule.dir, "test", "-c", "-tags=protolegacy", "-o", b, "./"+pkg+"/"); err != nil {
			t.Fatalf("building the %s tests of the generated module: %v\n%s", pkg, err, out)
		}
		genModule.bins[pkg], bin = b, b
	}
	if bin == "" {
		t.Fatalf("the %s tests of the generated module did not build (see the test that built them)", pkg)
	}
	return bin, filepath.Join(genModule.dir, pkg)
}

// writeGenModule writes the shared module into a directory of
// sharedTempDir: the jsondiff package and its schemas when the corpus is
// there (addJSONDiff), and the typednil package (addTypedNil).
func writeGenModule(t *testing.T) string {
	t.Helper()
	m := &moduleFiles{seen: map[string]string{}, extra: map[string]string{}}
	genModule.typed = typedNilRegistry{imports: map[string]string{}}
	if dir, ok := corpusPath(); ok {
		if _, err := os.Stat(dir); err == nil {
			genModule.corpus = true
			addJSONDiff(t, dir, m, &genModule.typed)
		}
	}
	addTypedNil(t, m, &genModule.typed)
	mod, err := os.MkdirTemp(sharedTempDir(t), "gen")
	if err != nil {
		t.Fatal(err)
	}
	gentest.WriteModuleIn(t, mod, m.gen, m.extra, true)
	if keep := os.Getenv("PROTOPLAY_JSONDIFF_DIR"); keep != "" {
		if err := os.CopyFS(keep, os.DirFS(mod)); err != nil {
			t.Fatal(err)
		}
	}
	return mod
}
