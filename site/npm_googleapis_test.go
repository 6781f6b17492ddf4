package site_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNPMPackageGoogleAPIs: the npm package, in node, compiles a file
// importing google/api/annotations.proto and google/type/date.proto with
// no other files given (the googleapis files are built into the core).
func TestNPMPackageGoogleAPIs(t *testing.T) {
	t.Parallel()
	dir := installPackage(t)
	writeFile(t, filepath.Join(dir, "library.proto"), readFile(t, "../testdata/examples/service.proto"))
	writeFile(t, filepath.Join(dir, "gapi.mjs"), `
import * as pp from "protoplay";
import { readFileSync } from "node:fs";
const r = await pp.compile({ "library/v1/library.proto": readFileSync("library.proto", "utf8") });
console.log(JSON.stringify({ diagnostics: r.diagnostics.length, go: r.generated.map((g) => g.content).join("\n") }));
`)
	cmd := exec.Command("node", "gapi.mjs")
	cmd.Dir = dir
	cmd.Env = os.Environ()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node gapi.mjs: %v\n%s", err, out)
	}
	s := string(out)
	if !strings.Contains(s, `"diagnostics":0`) || !strings.Contains(s, `google.golang.org/genproto/googleapis/type/date`) {
		t.Errorf("compiling the library example in node gave %.600s", s)
	}
}
