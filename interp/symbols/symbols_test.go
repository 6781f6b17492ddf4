package symbols

import (
	"bytes"
	"go/build"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/traefik/yaegi/extract"
)

// TestSymbolsFresh extracts the symbols of Packages again, as go generate
// does, and fails when a committed table differs (run go generate in this
// directory after changing runtime/ or the Go toolchain).
func TestSymbolsFresh(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks runtime/ and part of the standard library from source")
	}
	// The extractor type-checks from source through go/build's default
	// context, whose GOROOT is the one this binary was built with; a
	// -trimpath build (make test's) records none, so it is asked of the
	// go command, as go generate's environment gives it.
	if build.Default.GOROOT == "" {
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			t.Fatalf("go env GOROOT: %v", err)
		}
		build.Default.GOROOT = strings.TrimSpace(string(out))
	}
	ext := extract.Extractor{Dest: "symbols"}
	r := strings.NewReplacer("/", "-", ".", "_", "~", "_")
	for _, pkg := range Packages {
		var buf bytes.Buffer
		importPath, err := ext.Extract(pkg, "symbols", &buf)
		if err != nil {
			t.Fatalf("%s: %v", pkg, err)
		}
		file := r.Replace(importPath) + ".go"
		have, err := os.ReadFile(file)
		if err != nil {
			t.Errorf("%s: %v (run go generate in interp/symbols)", pkg, err)
			continue
		}
		if !bytes.Equal(have, buf.Bytes()) {
			t.Errorf("%s is stale: run go generate in interp/symbols", file)
		}
	}
}
