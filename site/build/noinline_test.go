package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Every package wasmNoInline and coreNoInline name must be one the core
// links as the page builds it (go list -deps under GOOS=js GOARCH=wasm,
// with pageWasmTags and the patched modules of lean.go; a pattern ending
// in /... must match at least one), so that a dropped or renamed
// dependency does not leave a flag that silently does nothing.
func TestNoInlinePackagesLinked(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	lean, err := leanEnv(root, "go")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "-tags="+strings.Join(pageWasmTags, ","), "-deps", "./wasm")
	cmd.Dir = root
	cmd.Env = append(append(os.Environ(), "GOOS=js", "GOARCH=wasm"), lean...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps ./wasm: %v", err)
	}
	deps := strings.Fields(string(out))
	for _, p := range append(append([]string(nil), wasmNoInline...), coreNoInline...) {
		found := false
		for _, d := range deps {
			if prefix, ok := strings.CutSuffix(p, "/..."); ok {
				found = found || d == prefix || strings.HasPrefix(d, prefix+"/")
			} else {
				found = found || d == p
			}
		}
		if !found {
			t.Errorf("%s is not linked into the core wasm (./wasm); remove it from the no-inline lists", p)
		}
	}
}
