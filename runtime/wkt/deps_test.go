package wkt_test

import (
	"bufio"
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// runtimePath is the import path of the tree that generated code links into
// every program. Its non-test code may import only the standard library and
// itself.
const runtimePath = "github.com/protoplay/protoplay/runtime"

func TestRuntimeImportsOnlyStandardLibrary(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to list dependencies: %v", err)
	}
	cmd := exec.Command(goTool, "list", "-deps", "-f", "{{.ImportPath}} {{.Standard}}", runtimePath+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	n := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		path, std, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			t.Fatalf("unexpected go list line %q", sc.Text())
		}
		n++
		if std == "true" || path == runtimePath || strings.HasPrefix(path, runtimePath+"/") {
			continue
		}
		t.Errorf("%s is neither standard library nor under %s; runtime packages must not depend on it", path, runtimePath)
	}
	if n == 0 {
		t.Fatal("go list reported no packages")
	}
}
