package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// protoplay gen --opt runtime=local writes the runtime packages the output
// imports beside it, under the output's module path, and the output builds
// with no network once a go.mod names that path: with module= (the runtime
// at <out>/protoplay/runtime/...) and without (the runtime below the
// generated packages' shared import path prefix).
func TestGenRuntimeLocal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	for _, tc := range []struct {
		name   string
		opts   []string
		modDir string // where go.mod goes, relative to -o
		module string
		want   []string
	}{
		{"module=", []string{"--opt", "runtime=local", "--opt", "module=example.com/addressbook"}, ".", "example.com/addressbook",
			[]string{"v1/example.pb.go", "protoplay/runtime/wire/wire.go", "protoplay/runtime/wkt/timestamppb/timestamp.pb.go"}},
		{"import paths", []string{"--opt", "runtime=local"}, "example.com/addressbook/v1", "example.com/addressbook/v1",
			[]string{"example.com/addressbook/v1/example.pb.go", "example.com/addressbook/v1/protoplay/runtime/wire/wire.go", "example.com/addressbook/v1/protoplay/runtime/wkt/timestamppb/timestamp.go"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			args := append([]string{"-I", "../../testdata/example", "-o", out}, tc.opts...)
			if code, errs := runGenArgs(t, append(args, "example.proto")...); code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			got := files(t, out)
			for _, w := range tc.want {
				if !contains(got, w) {
					t.Errorf("no %s in %q", w, got)
				}
			}
			for _, f := range got {
				if strings.Contains(f, "descriptorpb") || strings.Contains(f, "structpb") || strings.HasSuffix(f, "_test.go") {
					t.Errorf("%s written, but nothing imports it", f)
				}
				b, _ := os.ReadFile(filepath.Join(out, f))
				if strings.Contains(string(b), `"github.com/protoplay/protoplay/`) {
					t.Errorf("%s still imports github.com/protoplay/protoplay", f)
				}
			}
			dir := filepath.Join(out, tc.modDir)
			if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+tc.module+"\n\ngo 1.23\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("go", "build", "./...")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOSUMDB=off", "GOWORK=off", "GOTOOLCHAIN=local",
				"GOMODCACHE="+filepath.Join(t.TempDir(), "modcache"))
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("go build ./... offline: %v\n%s", err, b)
			}
		})
	}
}
