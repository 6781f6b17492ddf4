package main

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/protoplay/protoplay/internal/gentest"
)

// TestRunScriptReference: conformance/run.sh takes --no-reference (and
// nothing else: an unknown argument is exit 2 with its usage, before any
// download or build); make test's test-conformance passes it, so make test
// does not build and run protobuf-go's testee, which is printed and never
// gated, while make conformance still runs both.
func TestRunScriptReference(t *testing.T) {
	root := gentest.RepoRoot()
	cmd := exec.Command("bash", filepath.Join(root, "conformance", "run.sh"), "--frobnicate")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(string(out), "usage: conformance/run.sh [--no-reference]") {
		t.Errorf("run.sh --frobnicate: %v\n%s\nwant exit status 2 and the usage", err, out)
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make on PATH")
	}
	for target, want := range map[string]string{
		"test-conformance": "conformance/run.sh --no-reference\n",
		"conformance":      "conformance/run.sh\n",
	} {
		cmd := exec.Command("make", "--no-print-directory", "-n", target)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("make -n %s: %v\n%s", target, err, out)
		}
		if !strings.HasSuffix(string(out), want) {
			t.Errorf("make -n %s runs\n%s\nwant it to end with %q", target, out, want)
		}
	}
}
