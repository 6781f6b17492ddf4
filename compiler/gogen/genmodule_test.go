package gogen_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/protoplay/protoplay/compiler/gogen"
	"github.com/protoplay/protoplay/internal/gentest"
)

// genModule is the generated module that TestDifferential,
// TestJSONDifferential, TestTextDifferential, TestExtensionsDifferential
// and TestTypedNilOneof share: written once per test binary with the
// generated code of every schema they cover, and each of its test
// packages (difftest, jsondiff, typednil) built once per set of build
// tags, by go test -c, when a test first needs it. The builds run one at
// a time under the lock, so that a generated package several of them use
// (the conformance test messages, the googleapis schemas, at each API
// level) is compiled once: one module, one import path, and the build
// cache keeps it for the next package's build (see gentest.Env). Each
// test runs its own binary and reads its own output, so a failure of one
// is that test's.
var genModule struct {
	sync.Mutex
	written bool
	dir     string            // "" when writing the module failed
	corpus  bool              // it holds the corpus's schemas (../shared is present)
	diff    bool              // it holds the difftest package (TestDifferential)
	typed   typedNilRegistry  // what the typednil package covers
	bins    map[string]string // test package and tags → its test binary; "" when its build failed
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

// genTestBinary returns the test binary of pkg (difftest, jsondiff or
// typednil) in the shared generated module, built with tags (a -tags
// list), and the directory to run it in, writing the module and building
// the binary on first use; it fails t when either failed (here or in the
// test that first tried).
func genTestBinary(t *testing.T, pkg, tags string) (bin, pkgDir string) {
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
	if pkg == "difftest" && !genModule.diff {
		t.Fatal("the shared generated module has no difftest package (the corpus is absent, or -test.run did not select TestDifferential when it was written)")
	}
	key := pkg + " " + tags
	bin, built := genModule.bins[key]
	if !built {
		genModule.bins[key] = ""
		b := filepath.Join(genModule.dir, pkg+"."+strings.ReplaceAll(tags, ",", "_")+".test")
		if out, err := gentest.Go(t, genModule.dir, "test", "-c", "-tags="+tags, "-o", b, "./"+pkg+"/"); err != nil {
			t.Fatalf("building the %s tests (tags %s) of the generated module: %v\n%s", pkg, tags, err, out)
		}
		genModule.bins[key], bin = b, b
	}
	if bin == "" {
		t.Fatalf("the %s tests (tags %s) of the generated module did not build (see the test that built them)", pkg, tags)
	}
	return bin, filepath.Join(genModule.dir, pkg)
}

// runGenTest runs the test binary bin in dir with args and env added to
// gentest.Env, and returns its combined output. Unless args set
// -test.timeout, the binary gets the time the calling test has left, less
// half a minute for it to report, as gentest.Go gives a go test run.
func runGenTest(t *testing.T, bin, dir string, env []string, args ...string) (string, error) {
	t.Helper()
	if !slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "-test.timeout") }) {
		if dl, ok := t.Deadline(); ok {
			timeout := max(time.Until(dl)-30*time.Second, time.Minute)
			args = append([]string{"-test.timeout=" + timeout.Round(time.Second).String()}, args...)
		}
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(gentest.Env(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// writeGenModule writes the shared module into a directory of
// sharedTempDir: when the corpus is there, the jsondiff package and its
// schemas (addJSONDiff) and, when this test binary runs TestDifferential,
// the difftest package and its schemas (addDiffTest); and the typednil
// package (addTypedNil). PROTOPLAY_DIFFTEST_DIR or PROTOPLAY_JSONDIFF_DIR
// keeps a copy of it in that directory, for running its tests by hand
// (go test -tags=protolegacy ./difftest, ./jsondiff or ./typednil).
func writeGenModule(t *testing.T) string {
	t.Helper()
	m := &moduleFiles{seen: map[string]string{}, extra: map[string]string{}}
	genModule.typed = typedNilRegistry{imports: map[string]string{}}
	if dir, ok := corpusPath(); ok {
		if _, err := os.Stat(dir); err == nil {
			genModule.corpus = true
			addJSONDiff(t, dir, m, &genModule.typed)
			if willRun("TestDifferential") {
				genModule.diff = true
				addDiffTest(t, dir, m)
			}
		}
	}
	addTypedNil(t, m, &genModule.typed)
	mod, err := os.MkdirTemp(sharedTempDir(t), "gen")
	if err != nil {
		t.Fatal(err)
	}
	gentest.WriteModuleIn(t, mod, m.gen, m.extra, true)
	for _, v := range []string{"PROTOPLAY_DIFFTEST_DIR", "PROTOPLAY_JSONDIFF_DIR"} {
		if keep := os.Getenv(v); keep != "" {
			if err := os.CopyFS(keep, os.DirFS(mod)); err != nil {
				t.Fatalf("%s: %v", v, err)
			}
			t.Logf("generated module kept in %s: cd there and run go test -tags=protolegacy ./difftest (or ./jsondiff, ./typednil)", keep)
		}
	}
	return mod
}

// TestGenModuleShared checks what makes the shared module's builds cheap:
// every schema run the jsondiff package compiles (messages and
// extensions) is one of TestDifferential's, at the same API level, so its
// generated packages are the ones difftest's build has put in the build
// cache. A schema added to the JSON and text tests alone is compiled for
// jsondiff alone: add it to diffSchemas (or opaqueDiffSchemas) too.
func TestGenModuleShared(t *testing.T) {
	diff := map[string]bool{}
	for _, r := range withLevels(withGoogleapis(diffSchemas), opaqueDiffSchemas, hybridDiffSchemas) {
		diff[r.name()] = true
	}
	json := append(withLevels(withGoogleapis(jsonDiffSchemas), jsonOpaqueDiffSchemas, nil), withLevels(extDiffSchemas, nil, nil)...)
	for _, r := range json {
		if !diff[r.name()] {
			t.Errorf("%s is compiled by the JSON and text differential tests but not by TestDifferential", r.name())
		}
	}
}
