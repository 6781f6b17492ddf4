package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The core's protocompile without its blank imports (lean.go): the
// replacement applies to this checkout's protocompile (an upgrade fails
// here first), drops the well-known types' Go packages and protojson from
// the core, and the frontend's standard-file tests pass against it.
func TestLeanProtocompile(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	env, err := leanEnv(root, "go")
	if err != nil {
		t.Fatal(err)
	}
	list := exec.Command("go", "list", "-deps", "./wasm")
	list.Dir = root
	list.Env = append(append(os.Environ(), "GOOS=js", "GOARCH=wasm"), env...)
	out, err := list.CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps ./wasm with %q: %v\n%s", env, err, out)
	}
	deps := strings.Fields(string(out))
	has := func(p string) bool {
		for _, d := range deps {
			if d == p {
				return true
			}
		}
		return false
	}
	if !has(protocompileModule) {
		t.Fatalf("the core does not link %s", protocompileModule)
	}
	for _, p := range []string{
		"google.golang.org/protobuf/types/known/structpb",
		"google.golang.org/protobuf/types/known/anypb",
		"google.golang.org/protobuf/types/pluginpb",
		"google.golang.org/protobuf/encoding/protojson",
	} {
		if has(p) {
			t.Errorf("the core still links %s", p)
		}
	}
	if testing.Short() {
		return
	}
	test := exec.Command("go", "test", "-count=1", "-run", "TestEveryStandardFileResolves|TestStandardFilesCompiledOnDemand|TestGoFeaturesMatchesGofeaturespb|TestGoogleAPIsImports|TestAllErrorsInSourceOrder", "./compiler/frontend")
	test.Dir = root
	test.Env = append(os.Environ(), env...)
	if out, err := test.CombinedOutput(); err != nil {
		t.Errorf("compiler/frontend's tests against the lean protocompile: %v\n%s", err, out)
	}
}
