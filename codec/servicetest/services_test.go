// Package servicetest runs protoplay's generated service code against real
// grpc-go and connect-go servers and clients, and against protoc-gen-go and
// protoc-gen-go-grpc's code for the same schema. It holds tests only.
package servicetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/internal/gentest"
)

// TestServices generates testdata/echo.proto with services=grpc+connect
// into a temporary module, generates the same file with protoc,
// protoc-gen-go and protoc-gen-go-grpc (built from this module's tool
// dependencies) beside it, and runs testdata/svc_test.go.txt there: every
// method of each streaming kind from generated clients against grpc-go and
// connect-go servers on 127.0.0.1 (ephemeral ports), with values compared,
// status codes, deadlines and cancellation, and the protoc-gen-go client
// and server against protoplay's, both ways.
func TestServices(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code with grpc-go and connect-go")
	}
	protoc, err := exec.LookPath("protoc")
	if err != nil {
		t.Skip("protoc is not installed; the services test needs it for the protoc-gen-go peer")
	}
	src, err := os.ReadFile(filepath.Join("testdata", "echo.proto"))
	if err != nil {
		t.Fatal(err)
	}
	test, err := os.ReadFile(filepath.Join("testdata", "svc_test.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	_, gen := gentest.Generate(t, compiler.Request{
		Sources: map[string]string{"echo.proto": string(src)},
		Options: compiler.Options{GRPC: true, Connect: true},
	})
	var names []string
	for _, f := range gen {
		names = append(names, f.Name)
	}
	want := "example.com/echo/echov1/echo.pb.go example.com/echo/echov1/echo_grpc.pb.go example.com/echo/echov1/echov1connect/echo.connect.go"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("generated %s, want %s", got, want)
	}

	dir := gentest.WriteModule(t, gen, map[string]string{
		"go.mod":              tempGoMod(t),
		"go.sum":              codecSum(t),
		"svctest/svc_test.go": string(test),
	}, false)

	// The protoc-gen-go peer: the plugins are this module's tool
	// dependencies (go.mod's tool block), so their versions are pinned; go
	// tool -n builds each into the go command's build cache (linked once,
	// not once per run) and prints its path.
	bin := map[string]string{}
	for _, tool := range []string{"protoc-gen-go", "protoc-gen-go-grpc"} {
		out, err := gentest.Go(t, codecDir(t), "tool", "-n", tool)
		if err != nil {
			t.Fatalf("go tool -n %s: %v\n%s", tool, err, out)
		}
		bin[tool] = strings.TrimSpace(out)
	}
	m := "Mecho.proto=gentest/pb/echopb;echopb"
	cmd := exec.Command(protoc, "-I", "testdata",
		"--plugin=protoc-gen-go="+bin["protoc-gen-go"],
		"--plugin=protoc-gen-go-grpc="+bin["protoc-gen-go-grpc"],
		"--go_out="+dir, "--go_opt=module=gentest,"+m,
		"--go-grpc_out="+dir, "--go-grpc_opt=module=gentest,"+m,
		"echo.proto")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("protoc: %v\n%s", err, out)
	}

	if out, err := gentest.Go(t, dir, "vet", "./..."); err != nil {
		t.Fatalf("go vet: %v\n%s", err, out)
	}
	// -vet=off: go vet ./... above ran every analyzer over every package,
	// test files included; go test's own vet is a subset of them.
	out, err := gentest.Go(t, dir, "test", "-count=1", "-vet=off", "-v", "-timeout=3m", "./...")
	if err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	// One line per passing top-level test, for the log.
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "--- PASS") || strings.HasPrefix(line, "ok") {
			t.Log(line)
		}
	}
}

// codecDir is the codec module's directory.
func codecDir(t *testing.T) string {
	dir, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// codecSum is the codec module's go.sum, which covers the temporary
// modules' requirements.
func codecSum(t *testing.T) string {
	sum, err := os.ReadFile(filepath.Join(codecDir(t), "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	return string(sum)
}

// tempGoMod is the go.mod of a temporary module holding generated service
// code: protoplay and the codec module from this checkout, grpc-go and
// connect-go at the codec module's versions.
func tempGoMod(t *testing.T) string {
	return `module gentest

go 1.26

require (
	connectrpc.com/connect v1.21.1
	github.com/protoplay/protoplay v0.0.0
	github.com/protoplay/protoplay/codec v0.0.0
	google.golang.org/grpc v1.85.0
	google.golang.org/protobuf v1.36.12
)

replace github.com/protoplay/protoplay => ` + gentest.RepoRoot() + `

replace github.com/protoplay/protoplay/codec => ` + codecDir(t) + `
`
}
