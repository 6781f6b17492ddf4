// Package gentest builds and runs generated Go code in tests: it writes
// generated files into a fresh Go module that uses this checkout's runtime
// (through a replace directive) and runs the go command there.
package gentest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
)

// ModulePath is the module path of the temporary module; generated import
// paths are moved under it (see Rehome).
const ModulePath = "gentest"

// RepoRoot returns the root of this checkout: two folders above this
// source file, or, when the test binary was built with -trimpath (make
// test builds with it, so that a fresh clone reuses the go command's
// cache) and the file's recorded path is its import path, the nearest
// folder at or above the working directory (a go test binary runs in
// its package's folder) whose go.mod declares protoplay's module.
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	if filepath.IsAbs(file) {
		return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
	}
	dir, err := os.Getwd()
	if err != nil {
		panic("gentest: the checkout's root: " + err.Error())
	}
	for d := dir; ; d = filepath.Dir(d) {
		if b, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil && modulePath(b) == repoModule {
			return d
		}
		if filepath.Dir(d) == d {
			panic("gentest: no folder at or above " + dir + " holds the go.mod of " + repoModule)
		}
	}
}

// repoModule is protoplay's module path, as its go.mod declares it.
const repoModule = "github.com/protoplay/protoplay"

// modulePath is the module path a go.mod's module directive declares,
// or "".
func modulePath(gomod []byte) string {
	for _, line := range strings.Split(string(gomod), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}

// SharedDir returns ../shared beside the checkout, or $PROTOPLAY_SHARED,
// and whether it exists.
func SharedDir() (string, bool) {
	dir := os.Getenv("PROTOPLAY_SHARED")
	if dir == "" {
		dir = filepath.Join(RepoRoot(), "..", "shared")
	}
	_, err := os.Stat(dir)
	return dir, err == nil
}

// Rehome returns generator options that place every file reachable from
// files (except the well-known types) under ModulePath (see gogen.Rehome).
func Rehome(files []protoreflect.FileDescriptor, base gogen.Options) gogen.Options {
	return gogen.Rehome(files, ModulePath, base)
}

// Generate compiles req, fails the test on any error, and generates its
// files rehomed under ModulePath.
func Generate(t testing.TB, req compiler.Request) (*compiler.Result, []gogen.File) {
	t.Helper()
	req.NoGenerate = true
	res := compiler.Compile(context.Background(), req)
	if err := res.Err(); err != nil {
		t.Fatalf("compile: %v", err)
	}
	fds := res.Files
	files, diags := gogen.Generate(fds, Rehome(fds, req.Options))
	if len(diags) > 0 {
		for _, d := range diags {
			t.Errorf("%s:%d:%d: %s", d.File, d.Line, d.Column, d.Message)
		}
		t.FailNow()
	}
	return res, files
}

// WriteModule writes files (generated .pb.go files and any extra files,
// by slash path) into a new module directory and returns it. withProtobuf
// adds google.golang.org/protobuf as a dependency, for tests that compare
// against it.
func WriteModule(t testing.TB, files []gogen.File, extra map[string]string, withProtobuf bool) string {
	t.Helper()
	dir := t.TempDir()
	WriteModuleIn(t, dir, files, extra, withProtobuf)
	return dir
}

// WriteModuleIn is WriteModule into dir, which the caller owns (a module
// several tests share).
func WriteModuleIn(t testing.TB, dir string, files []gogen.File, extra map[string]string, withProtobuf bool) {
	t.Helper()
	root := RepoRoot()
	gomod := "module " + ModulePath + "\n\ngo 1.26\n\nrequire github.com/protoplay/protoplay v0.0.0\n\nreplace github.com/protoplay/protoplay => " + root + "\n"
	if withProtobuf {
		gomod += "\nrequire google.golang.org/protobuf " + protobufVersion(t) + "\n"
		sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, "go.sum"), string(sum))
	}
	write(t, filepath.Join(dir, "go.mod"), gomod)
	for _, f := range files {
		write(t, filepath.Join(dir, filepath.FromSlash(f.Name)), f.Content)
	}
	for name, content := range extra {
		write(t, filepath.Join(dir, filepath.FromSlash(name)), content)
	}
}

// protobufVersion is the google.golang.org/protobuf version protoplay's
// go.mod requires, so that a generated module compares with the same one.
func protobufVersion(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(RepoRoot(), "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "google.golang.org/protobuf" {
			return f[1]
		}
	}
	t.Fatal("go.mod requires no google.golang.org/protobuf")
	return ""
}

func write(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Env is the environment generated modules are built and run in:
// -trimpath, so that the build cache keys a package by its import path and
// content, not by the temporary directory it was written to (the tests
// write the same generated packages into several modules, and again on
// every run), and no go.work.
func Env() []string {
	return append(os.Environ(), "GOFLAGS=-mod=mod -trimpath", "GOWORK=off")
}

// Go runs the go command in dir and returns its combined output. A go
// test run (not -c, not -fuzz) that sets no -timeout of its own gets the
// time the calling test has left, less half a minute for it to report
// (none when the calling test binary has no deadline), instead of go
// test's default 10 minutes: on a busy machine a generated module's tests
// take longer (TestDifferential's mutations passed 10 minutes at load
// 28), and the calling test's own -timeout is the bound that was chosen.
func Go(t testing.TB, dir string, args ...string) (string, error) {
	t.Helper()
	return GoEnv(t, dir, nil, args...)
}

// GoEnv is Go with env ("NAME=value") added to the go command's
// environment: a variable for one run, which a parallel test cannot set
// with t.Setenv.
func GoEnv(t testing.TB, dir string, env []string, args ...string) (string, error) {
	t.Helper()
	if len(args) > 0 && args[0] == "test" && !slices.ContainsFunc(args[1:], func(a string) bool {
		return a == "-c" || strings.HasPrefix(a, "-timeout") || strings.HasPrefix(a, "-fuzz=")
	}) {
		if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
			timeout := time.Duration(0)
			if dl, has := d.Deadline(); has {
				timeout = max(time.Until(dl)-30*time.Second, time.Minute)
			}
			args = append([]string{"test", "-timeout=" + timeout.Round(time.Second).String()}, args[1:]...)
		}
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(Env(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// EachMessage calls f for every message declared in mds and, depth first,
// in the messages nested in them, leaving out map entries (which generate
// no Go type).
func EachMessage(mds protoreflect.MessageDescriptors, f func(protoreflect.MessageDescriptor)) {
	for i := 0; i < mds.Len(); i++ {
		md := mds.Get(i)
		if md.IsMapEntry() {
			continue
		}
		f(md)
		EachMessage(md.Messages(), f)
	}
}

// ImportBlock is a Go import declaration of the packages in imports (local
// name -> import path), sorted by name, for the registry files that test
// harnesses write beside generated code.
func ImportBlock(imports map[string]string) string {
	names := make([]string, 0, len(imports))
	for name := range imports {
		names = append(names, name)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("import (\n")
	for _, name := range names {
		fmt.Fprintf(&b, "\t%s %q\n", name, imports[name])
	}
	b.WriteString(")\n")
	return b.String()
}

// RejectedCase reports whether name, a file of testdata/cases, is one the
// compiler rejects on purpose (cases 04, 09 and 28; see compiler/gogen's
// TestCaseDiagnostics), so that it generates no Go.
func RejectedCase(name string) bool {
	return strings.HasPrefix(name, "04_") || strings.HasPrefix(name, "09_") || strings.HasPrefix(name, "28_")
}
