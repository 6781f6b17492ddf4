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

// caseSources reads every .proto file of testdata/cases and, when
// ../shared is there, each file of ../shared/cases that testdata/cases
// has no copy of (a copy of one name and other content is reported).
func caseSources(t *testing.T) map[string]string {
	t.Helper()
	srcs := map[string]string{}
	read := func(dir string, shared bool) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".proto") {
				continue
			}
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			if prev, ok := srcs[e.Name()]; ok && shared {
				if prev != string(b) {
					t.Errorf("testdata/cases/%s differs from its original in %s", e.Name(), dir)
				}
				continue
			}
			srcs[e.Name()] = string(b)
		}
	}
	read(casesDir, false)
	if shared, ok := gentest.SharedDir(); ok {
		read(filepath.Join(shared, "cases"), true)
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

// TestCasesBuild generates every valid case file, builds and vets it and
// runs the case checks in testdata/cases/*_test.go against the generated
// code; and builds and vets the same files generated with
// default_api_level=API_HYBRID (without and with the protoopaque build
// tag) and API_OPAQUE, in the same module (one go vet of all the
// packages), so that every case builds at every API level.
func TestCasesBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	srcs := caseSources(t)
	// enum_maps=true: case 10 checks the maps protoc-gen-go users rely on.
	opts := gogen.Options{EnumMaps: true}
	res, gen := gentest.Generate(t, compiler.Request{Sources: srcs, Files: buildableCases(srcs), Options: opts})
	for _, level := range []string{"API_HYBRID", "API_OPAQUE"} {
		dir := levelDir(level)
		o := opts
		o.DefaultAPILevel = level
		out, diags := gogen.Generate(res.Files, gogen.Rehome(res.Files, gentest.ModulePath+"/"+dir, o))
		for _, d := range diags {
			t.Errorf("%s: %s:%d:%d: %s", level, d.File, d.Line, d.Column, d.Message)
		}
		for _, f := range out {
			f.Name = dir + "/" + f.Name
			gen = append(gen, f)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
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
	if out, err := gentest.Go(t, dir, "vet", "-tags=protoopaque", "./"+levelDir("API_HYBRID")+"/..."); err != nil {
		t.Fatalf("go vet -tags=protoopaque (API_HYBRID): %v\n%s", err, out)
	}
	if out, err := gentest.Go(t, dir, "test", "-count=1", "./casetest/"); err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
}

// levelDir is the folder of TestCasesBuild's module that holds the cases
// generated at an API level other than the default.
func levelDir(level string) string {
	return "level_" + strings.ToLower(strings.TrimPrefix(level, "API_"))
}
