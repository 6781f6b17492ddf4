package gentest

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestRepoRoot: the checkout's root holds protoplay's go.mod and this
// package, whether or not the test binary was built with -trimpath (make
// test builds with it; go test alone does not).
func TestRepoRoot(t *testing.T) {
	root := RepoRoot()
	_, file, _, _ := runtime.Caller(0)
	t.Logf("this file recorded as %s; root %s", file, root)
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if got := modulePath(b); got != repoModule {
		t.Fatalf("RepoRoot() = %s, whose go.mod declares %q", root, got)
	}
	if _, err := os.Stat(filepath.Join(root, "internal", "gentest", "gentest.go")); err != nil {
		t.Fatalf("RepoRoot() = %s: %v", root, err)
	}
}
