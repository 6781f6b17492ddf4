package gogen_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
	"github.com/protoplay/protoplay/internal/gentest"
)

var casesDir = filepath.Join(gentest.RepoRoot(), "testdata", "cases")

// caseSources reads every .proto file of testdata/cases.
func caseSources(t *testing.T) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(casesDir)
	if err != nil {
		t.Fatal(err)
	}
	srcs := map[string]string{}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".proto") {
			b, err := os.ReadFile(filepath.Join(casesDir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			srcs[e.Name()] = string(b)
		}
	}
	return srcs
}

// buildableCases names the case files of srcs that become Go code, in
// name order: all but those rejected on purpose (see TestCaseDiagnostics).
func buildableCases(srcs map[string]string) []string {
	var files []string
	for name := range srcs {
		switch {
		case gentest.RejectedCase(name):
			continue
		}
		files = append(files, name)
	}
	sort.Strings(files)
	return files
}

// TestCasesBuild generates every valid case file and builds, vets and runs
// the case checks in testdata/cases/*_test.go against the generated code.
func TestCasesBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	srcs := caseSources(t)
	// enum_maps=true: case 10 checks the maps protoc-gen-go users rely on.
	_, gen := gentest.Generate(t, compiler.Request{Sources: srcs, Files: buildableCases(srcs), Options: gogen.Options{EnumMaps: true}})
	extra := map[string]string{}
	tests, _ := filepath.Glob(filepath.Join(casesDir, "*_test.go"))
	for _, p := range tests {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		extra["casetest/"+filepath.Base(p)] = string(b)
	}
	dir := gentest.WriteModule(t, gen, extra, false)
	if out, err := gentest.Go(t, dir, "vet", "./..."); err != nil {
		t.Fatalf("go vet: %v\n%s", err, out)
	}
	if out, err := gentest.Go(t, dir, "test", "-count=1", "./..."); err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
}
