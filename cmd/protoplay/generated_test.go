package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckGenerated builds the generated code of shop.proto and of case 30
// (proto2 required fields and defaults, with nested and imported-free
// messages) and checks every message type through it.
func TestCheckGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	code, out, errOut := runIn(t, "", "check", "--generated", "shop.proto")
	if code != 0 || !strings.Contains(out, "ok    shop.Order (sample: ") || !strings.Contains(out, "1 message types, 0 failed") {
		t.Errorf("check --generated shop.proto: exit %d\n%s%s", code, out, errOut)
	}
	dir := filepath.Join("..", "..", "testdata", "cases")
	var stdout, stderr bytes.Buffer
	code = run([]string{"check", "--generated", "-I", dir, filepath.Join(dir, "38_import_name_vs_locals.proto")}, strings.NewReader(""), &stdout, &stderr)
	if code != 0 || !strings.Contains(stdout.String(), "ok    bughunt.b38.Uses (sample: ") {
		t.Errorf("check --generated 38_import_name_vs_locals.proto (imports five other files): exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
}

// TestCheckGeneratedNoToolchain says so, and fails, when no go command is on
// PATH.
func TestCheckGeneratedNoToolchain(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	code, _, errOut := runIn(t, "", "check", "--generated", "shop.proto")
	if code != 1 || !strings.Contains(errOut, "no Go toolchain on PATH") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

func TestDescribeMismatch(t *testing.T) {
	want := "out=0801 size=2 clone-equal=true reparsed-equal=true clone-out=0801 clone-err=<nil>"
	for got, msg := range map[string]string{
		"out=0802 size=2 clone-equal=true reparsed-equal=true clone-out=0801 clone-err=<nil>":   "out differs from the reference encoding at byte 1 (generated 2 bytes, reference 2)",
		"out=0801 size=3 clone-equal=true reparsed-equal=true clone-out=0801 clone-err=<nil>":   "size is 3, want 2",
		"out=0801 size=2 clone-equal=false reparsed-equal=true clone-out=0801 clone-err=<nil>":  "clone-equal is false, want true",
		"out=0801 size=2 clone-equal=true reparsed-equal=true clone-out=080100 clone-err=<nil>": "clone-out differs from the reference encoding at byte 2 (generated 3 bytes, reference 2)",
		"marshal: boom": "marshal: boom",
	} {
		if d := describeMismatch(got, want); d != msg {
			t.Errorf("describeMismatch(%q) = %q, want %q", got, d, msg)
		}
	}
}
