package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The wasm modules' patched modules (lean.go): the patches apply to this
// checkout's protocompile, jennifer and yaegi (an upgrade fails here
// first), drop the well-known types' Go packages, protojson
// and regexp from the core, and the frontend's standard-file tests, the generator's goldens
// (the import aliases jennifer picks) and the interpreter's panic
// positions pass against them.
func TestLeanModules(t *testing.T) {
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
	for _, p := range []string{"github.com/bufbuild/protocompile", "github.com/dave/jennifer/jen"} {
		if !has(p) {
			t.Fatalf("the core does not link %s", p)
		}
	}
	for _, p := range []string{
		"google.golang.org/protobuf/types/known/structpb",
		"google.golang.org/protobuf/types/known/anypb",
		"google.golang.org/protobuf/types/pluginpb",
		// (protovalidate stays: experimental/fdp records buf's
		// SourceCodeInfo extension with buf.descriptor.v1's generated
		// type, which imports it; a patch recording it into a plain
		// struct made google/longrunning/operations.proto warn of an
		// unused import of google/api/client.proto, which the released
		// module does not, so it was not kept.)
		// protocompile's experimental compiler's regular expressions
		// (report, erredition, ir, lexer, parser: leanre's matchers now)
		// and the protojson its renderer imported.
		"regexp",
		"google.golang.org/protobuf/encoding/protojson",
	} {
		if has(p) {
			t.Errorf("the core still links %s", p)
		}
	}
	if testing.Short() {
		return
	}
	// (TestSessionRunPanicLine skips against the released yaegi: here it
	// checks the patched one's panic positions.)
	test := exec.Command("go", "test", "-count=1", "-run", "TestEveryStandardFileResolves|TestGoogleAPIsSourcesRoundTrip|TestDiagnosticsDeterministic|TestGolden|TestSessionRunPanicLine", "./compiler/frontend", "./compiler/gogen", "./interp")
	test.Dir = root
	test.Env = append(os.Environ(), env...)
	if out, err := test.CombinedOutput(); err != nil {
		t.Errorf("tests against the patched modules: %v\n%s", err, out)
	}
}

// The jennifer patch's claim: strings.Map keeping a-z and 0-9 removes what
// regexp [^a-z0-9] did, invalid UTF-8 and multi-byte runes included.
func TestAliasFilterMatchesRegexp(t *testing.T) {
	re := regexp.MustCompile(`[^a-z0-9]`)
	keep := func(r rune) rune {
		if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' {
			return r
		}
		return -1
	}
	for _, s := range []string{"", "abc", "go-proto_v2", "x.y.z", "日本go9", "a\xffb\xc3", "\xe2\x82", "ünïcode", "a b\tc\n", "UPPER", "0123"} {
		if got, want := strings.Map(keep, s), re.ReplaceAllString(s, ""); got != want {
			t.Errorf("%q: strings.Map gives %q, regexp %q", s, got, want)
		}
	}
}
