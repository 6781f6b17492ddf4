package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/protoplay/protoplay/compiler"
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
	if code != 0 || !strings.Contains(out, "ok    shop.Order (sample: ") || !strings.Contains(out, "unmarshal, marshal, size, clone, errors)") || !strings.Contains(out, "1 message types, 0 failed") {
		t.Errorf("check --generated shop.proto: exit %d\n%s%s", code, out, errOut)
	}
	dir := filepath.Join("..", "..", "testdata", "cases")
	var stdout, stderr bytes.Buffer
	code = run([]string{"check", "--generated", "-I", dir, filepath.Join(dir, "38_import_name_vs_locals.proto")}, strings.NewReader(""), &stdout, &stderr)
	if code != 0 || !strings.Contains(stdout.String(), "ok    bughunt.b38.Uses (sample: ") {
		t.Errorf("check --generated 38_import_name_vs_locals.proto (imports five other files): exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
}

// TestCheckGeneratedOpaque: check --generated --opt
// default_api_level=API_OPAQUE builds the opaque code of shop.proto and of
// case 30 (proto2 required fields, defaults and closed enums: presence
// bits and defaults behind getters) and passes every check, each line
// naming the API; the option without --generated, and a level that does
// not exist, are usage errors.
func TestCheckGeneratedOpaque(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	code, out, errOut := runIn(t, "", "check", "--generated", "--opt", "default_api_level=API_OPAQUE", "shop.proto")
	if code != 0 || !strings.Contains(out, "ok    shop.Order (API_OPAQUE; sample: ") || !strings.Contains(out, "1 message types, 0 failed") {
		t.Errorf("check --generated --opt default_api_level=API_OPAQUE shop.proto: exit %d\n%s%s", code, out, errOut)
	}
	dir := filepath.Join("..", "..", "testdata", "cases")
	matches, _ := filepath.Glob(filepath.Join(dir, "30_*.proto"))
	if len(matches) != 1 {
		t.Fatalf("case 30: %v", matches)
	}
	var stdout, stderr bytes.Buffer
	code = run([]string{"check", "--generated", "--opt=default_api_level=API_OPAQUE", "-I", dir, matches[0]}, strings.NewReader(""), &stdout, &stderr)
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if code != 0 || len(lines) < 2 || !strings.Contains(lines[len(lines)-1], "message types, 0 failed") {
		t.Fatalf("check --generated --opt default_api_level=API_OPAQUE %s: exit %d\n%s%s", matches[0], code, stdout.String(), stderr.String())
	}
	for _, l := range lines[:len(lines)-1] {
		if !strings.HasPrefix(l, "ok    ") || !strings.Contains(l, "(API_OPAQUE; ") {
			t.Errorf("%s: %q, want ok with the opaque API", matches[0], l)
		}
	}
	if code, _, errOut := runIn(t, "", "check", "--opt", "default_api_level=API_OPAQUE", "shop.proto"); code != 2 || !strings.Contains(errOut, "--generated") {
		t.Errorf("--opt without --generated: exit %d, stderr %q", code, errOut)
	}
	if code, _, errOut := runIn(t, "", "check", "--generated", "--opt", "default_api_level=API_SHUT", "shop.proto"); code != 2 || !strings.Contains(errOut, "default_api_level") {
		t.Errorf("an unknown level: exit %d, stderr %q", code, errOut)
	}
}

// TestCheckGeneratedReusesBuildCache: a second check of the same schema
// compiles none of the temporary module's packages again (protoplay's
// runtime, gocheck, the generated package, the harness): the module is
// built with -trimpath, so the go command's cache keys its packages by
// import path and content, not by the temporary folder, which is new on
// every check. The go command is a wrapper that adds -x to the build and
// keeps the commands it ran.
func TestCheckGeneratedReusesBuildCache(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "shop.proto"), []byte(shopProto), 0o644); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "build.log")
	wrapper := filepath.Join(dir, "go")
	script := "#!/bin/sh\nif [ \"$1\" = build ]; then shift; exec " + strconv.Quote(goCmd) + " build -x \"$@\" 2>>" + strconv.Quote(log) + "; fi\nexec " + strconv.Quote(goCmd) + " \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, err := compileFiles(ctx, &schemaFlags{roots: multiFlag{dir}}, []string{filepath.Join(dir, "shop.proto")}, compiler.Request{NoGenerate: true})
	if err != nil || res.HasErrors() {
		t.Fatalf("compile: %v %v", err, res.Err())
	}
	compiled := func(round int) []string {
		t.Helper()
		os.Remove(log)
		rep, err := compiler.CheckGenerated(ctx, res, compiler.CheckGeneratedOptions{GoCommand: wrapper})
		if err != nil {
			t.Fatalf("check %d: %v", round, err)
		}
		if len(rep.Results) == 0 || !rep.Results[0].Pass {
			t.Fatalf("check %d: %+v", round, rep.Results)
		}
		b, err := os.ReadFile(log)
		if err != nil {
			t.Fatalf("check %d: the wrapper kept no build log: %v", round, err)
		}
		var pkgs []string
		for _, line := range strings.Split(string(b), "\n") {
			// The compiler's command line: ".../compile -o ... -p <import path> ...".
			if f := strings.Fields(line); len(f) > 0 && strings.HasSuffix(f[0], "/compile") {
				for i := range f[:len(f)-1] {
					if f[i] == "-p" {
						pkgs = append(pkgs, f[i+1])
					}
				}
			}
		}
		return pkgs
	}
	compiled(1) // whatever the cache lacked
	if again := compiled(2); len(again) > 0 {
		t.Errorf("the second check of the same schema compiled %d packages again: %v", len(again), again)
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

// TestCheckGeneratedBroken breaks the generated Marshal of shop.Order (the
// hook the page's ?breakcheck=TYPE uses, gocheck.BreakMarshal) and requires
// the native check to fail that type, and only that one, on its marshal
// step with the first differing byte shown: the harness runs the generated
// code, not a copy of the reference.
func TestCheckGeneratedBroken(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	dir := filepath.Join("..", "..", "testdata", "cases")
	var stdout, stderr bytes.Buffer
	files := []string{filepath.Join(dir, "38_import_name_vs_locals.proto")}
	code := runCheckGenerated(context.Background(), &schemaFlags{roots: multiFlag{dir}}, files, compiler.Options{}, "bughunt.b38.Uses", &stdout, &stderr)
	out := stdout.String()
	if code != 1 || !strings.Contains(out, "FAIL  bughunt.b38.Uses (") || !strings.Contains(out, "marshal: Marshal's bytes differ from the reference's at byte ") ||
		!strings.Contains(out, "      reference @") || !strings.Contains(out, "      generated @") || !strings.Contains(out, ", 1 failed (") {
		t.Errorf("check --generated with Uses.Marshal broken: exit %d\n%s%s", code, out, stderr.String())
	}
	if strings.Count(out, "FAIL") != 1 {
		t.Errorf("only Uses may fail:\n%s", out)
	}
	// The differing byte is the middle one, where the hook flips a bit.
	var ref, gen string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "      reference ") {
			ref = line
		}
		if strings.HasPrefix(line, "      generated ") {
			gen = line
		}
	}
	if ref == gen || !strings.Contains(ref, "[") || !strings.Contains(gen, "[") {
		t.Errorf("the wire bytes around the difference:\n%s\n%s", ref, gen)
	}
}

// TestCheckGeneratedTimeoutKillsChildren (issue 24 kind 4): when
// check --generated passes --timeout while the go command builds, the go
// command and every process it started are killed and the temporary
// module is removed before protoplay exits. The go command here is a
// script that starts a long sleep and waits for it.
func TestCheckGeneratedTimeoutKillsChildren(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a 10 s limit")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads process states from /proc")
	}
	bin, tmp := t.TempDir(), t.TempDir()
	pidFile := filepath.Join(bin, "sleep.pid")
	script := "#!/bin/sh\nsleep 1000 &\necho $! > " + pidFile + "\nwait\n"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("TMPDIR", tmp)
	code, _, errOut := runIn(t, "", "check", "--generated", "--timeout", "10s", "shop.proto")
	if code != 1 || !strings.Contains(errOut, "over the time limit of 10s (raise it with --timeout)") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the fake go command did not start within the limit: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	// The killed sleep is reaped by init, in its own time: wait for that
	// state (gone, or a zombie); a minute without it is a failure.
	for give := time.Now().Add(time.Minute); alive(pid); {
		if time.Now().After(give) {
			if p, err := os.FindProcess(pid); err == nil {
				p.Kill()
			}
			t.Fatalf("the go command's child %d outlived the limit by a minute", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// alive reports whether process pid exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the command name in parentheses.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}
