package symbols

import (
	"bytes"
	"os"
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
