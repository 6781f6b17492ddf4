package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/protoplay/protoplay/internal/gentest"
)

// asPluginEnv, set to 1 in a process's environment, makes this test binary
// run the plugin's main instead of its tests. The tests that run the plugin
// as a program (under protoc, buf, case 53's program) run the test binary
// itself so: the same main, with no go build and link of a second binary
// of the whole compiler (three of them, each a few seconds of CPU, before).
const asPluginEnv = "PROTOC_GEN_PROTOPLAY_AS_PLUGIN"

func TestMain(m *testing.M) {
	if os.Getenv(asPluginEnv) == "1" {
		main() // exits
	}
	os.Exit(m.Run())
}

// pluginBinary returns the plugin as a program: the path of an executable
// and the environment (os.Environ with asPluginEnv=1) that protoc, buf or
// any program starting it must run it with.
func pluginBinary(t *testing.T) (bin string, env []string) {
	t.Helper()
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return bin, append(os.Environ(), asPluginEnv+"=1")
}

// TestPluginBinary: the test binary under asPluginEnv is the plugin: its
// --version is the plugin's, and it answers a request on stdin with the
// CodeGeneratorResponse that run gives.
func TestPluginBinary(t *testing.T) {
	bin, env := pluginBinary(t)
	cmd := exec.Command(bin, "--version")
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil || !strings.HasPrefix(string(out), "protoc-gen-protoplay ") {
		t.Fatalf("%s --version: %v, %q", bin, err, out)
	}
	in, err := proto.Marshal(request(t, exampleRequest(), ""))
	if err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command(bin)
	cmd.Env, cmd.Stdin = env, bytes.NewReader(in)
	if out, err = cmd.Output(); err != nil {
		t.Fatalf("%s: %v", bin, err)
	}
	resp := &pluginpb.CodeGeneratorResponse{}
	if err := proto.Unmarshal(out, resp); err != nil {
		t.Fatal(err)
	}
	sameFiles(t, resp, compileOutput(t, exampleRequest(), ""))
}

// protocGenGoBinary returns protoc-gen-go built from the
// google.golang.org/protobuf go.mod requires (a tool of the module: go.mod's
// tool line). go tool -n builds it into the go command's build cache, keyed
// by content, and prints its path there: it is linked once per version,
// not once per test run.
func protocGenGoBinary(t *testing.T) string {
	t.Helper()
	out, err := gentest.Go(t, gentest.RepoRoot(), "tool", "-n", "protoc-gen-go")
	if err != nil {
		t.Fatalf("go tool -n protoc-gen-go: %v\n%s", err, out)
	}
	return strings.TrimSpace(out)
}
