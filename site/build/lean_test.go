package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The core's patched modules (lean.go): the patches apply to this
// checkout's protocompile and jennifer (an upgrade fails here first), drop
// the well-known types' Go packages, protojson and regexp from the core,
// and the frontend's standard-file tests and the generator's goldens (the
// import aliases jennifer picks) pass against them.
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
		"google.golang.org/protobuf/encoding/protojson",
		"regexp",
	} {
		if has(p) {
			t.Errorf("the core still links %s", p)
		}
	}
	if testing.Short() {
		return
	}
	test := exec.Command("go", "test", "-count=1", "-run", "TestEveryStandardFileResolves|TestStandardFilesCompiledOnDemand|TestGoFeaturesMatchesGofeaturespb|TestGoogleAPIsImports|TestAllErrorsInSourceOrder|TestGolden", "./compiler/frontend", "./compiler/gogen")
	test.Dir = root
	test.Env = append(os.Environ(), env...)
	if out, err := test.CombinedOutput(); err != nil {
		t.Errorf("tests against the patched modules: %v\n%s", err, out)
	}
}

// The protocompile options.go patch's claim (lean_options.go.txt):
// skipping the first pass's clones of an element with nothing to
// interpret, and remembering FindExtensionByNumber's answers, change no
// descriptor and no diagnostic. compiler/frontend's
// TestDescriptorDump (the corpus, testdata/cases and golden schemas, and
// invalid inputs, a request's own descriptor.proto among them) writes a
// digest of every compiled FileDescriptorProto and every diagnostic; run
// against protocompile as released and as patched, the two must be equal.
func TestLeanOptionsSameDescriptors(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the frontend's tests twice")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	env, err := leanEnv(root, "go")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	dump := func(name string, env []string) []byte {
		out := filepath.Join(dir, name)
		cmd := exec.Command("go", "test", "-count=1", "-run", "^TestDescriptorDump$", "./compiler/frontend")
		cmd.Dir = root
		cmd.Env = append(append(os.Environ(), "PROTOPLAY_DESCRIPTOR_DUMP="+out), env...)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("TestDescriptorDump (%s): %v\n%s", name, err, b)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	plain := dump("released", []string{"GOWORK=off"})
	lean := dump("patched", env)
	// Not vacuous: the schemas were compiled, and the clone that fails in
	// the first pass (dumpInvalid's descriptor.proto) was reported.
	for _, want := range []string{"testdata/golden/editions_features.proto", "== invalid 4\n", "contains invalid UTF-8"} {
		if !bytes.Contains(plain, []byte(want)) {
			t.Fatalf("the dump lacks %q:\n%s", want, plain)
		}
	}
	// Record by record; one that either side found nondeterministic (see
	// TestDescriptorDump) is skipped, and at most 2 may be.
	records := func(dump []byte) [][2]string {
		var rs [][2]string
		for _, r := range strings.Split("\n"+strings.TrimSuffix(string(dump), "\n"), "\n== ")[1:] {
			name, body, _ := strings.Cut(r, "\n")
			rs = append(rs, [2]string{name, body})
		}
		return rs
	}
	pr, lr := records(plain), records(lean)
	if len(pr) != len(lr) || len(pr) < 50 {
		t.Fatalf("the released protocompile's dump has %d schemas, the patched one's %d", len(pr), len(lr))
	}
	skipped := 0
	for i := range pr {
		switch {
		case pr[i][0] != lr[i][0]:
			t.Fatalf("schema %d: %s in the released dump, %s in the patched one", i, pr[i][0], lr[i][0])
		case pr[i][1] == "nondeterministic" || lr[i][1] == "nondeterministic":
			t.Logf("%s: skipped, its diagnostics depend on scheduling", pr[i][0])
			skipped++
		case pr[i][1] != lr[i][1]:
			t.Errorf("%s: the patched protocompile differs:\nreleased:\n%s\npatched:\n%s", pr[i][0], pr[i][1], lr[i][1])
		}
	}
	if skipped > 2 {
		t.Errorf("%d schemas skipped as nondeterministic, at most 2 expected", skipped)
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
