package site_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// checkModuleZip checks the files of the page's .zip download (name to
// text): a go.mod of module path mod with no requirements, main.go,
// generated (a generated file), runtime/wire and the well-known type
// package wkt under protoplay/runtime, no file importing
// github.com/protoplay/protoplay; then writes them to an empty folder and
// runs go build ./... && go run . there with no network and an empty
// module cache.
func checkModuleZip(t *testing.T, files map[string]string, mod, generated, wkt string) {
	t.Helper()
	var names []string
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	t.Logf("the zip: %s", strings.Join(names, " "))
	for _, want := range []string{"go.mod", "main.go", generated, "protoplay/runtime/wire/wire.go"} {
		if _, ok := files[want]; !ok {
			t.Errorf("the zip lacks %s", want)
		}
	}
	hasWKT := false
	for _, n := range names {
		hasWKT = hasWKT || strings.HasPrefix(n, "protoplay/runtime/wkt/"+wkt+"/")
		if strings.Contains(files[n], `"github.com/protoplay/protoplay/`) {
			t.Errorf("%s imports github.com/protoplay/protoplay", n)
		}
	}
	if !hasWKT {
		t.Errorf("the zip lacks protoplay/runtime/wkt/%s", wkt)
	}
	if gm := files["go.mod"]; !strings.HasPrefix(gm, "module "+mod+"\n") || strings.Contains(gm, "require") {
		t.Errorf("go.mod:\n%s", gm)
	}
	if t.Failed() {
		return
	}
	dir := t.TempDir()
	for n, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOSUMDB=off", "GOWORK=off", "GOTOOLCHAIN=local",
		"GOMODCACHE="+filepath.Join(t.TempDir(), "modcache"))
	for _, args := range [][]string{{"build", "./..."}, {"run", "."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s offline: %v\n%s", strings.Join(args, " "), err, out)
		}
		if args[0] == "run" {
			if !strings.Contains(string(out), "round trip ok") {
				t.Errorf("go run . printed:\n%s", out)
			}
			t.Logf("go run .: %s", strings.TrimSpace(string(out)))
		}
	}
}
