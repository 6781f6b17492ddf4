package release_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/internal/version"
)

// root is the repository root.
const root = "../.."

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReleaseVersionsAgree is make release-check: protoplay --version, the
// plugin's --version, the generated files' header (fresh and committed),
// the npm package (and the platform packages it depends on), the page's About dialog, the changelog and a release
// tag at HEAD all give internal/version.Base. The page's dialog and the
// built npm package are also checked in the browser and in Node by
// go test ./site (TestAbout, TestNPMPackage); site/build's moduleVersion,
// which stamps both, by go test ./site/build.
func TestReleaseVersionsAgree(t *testing.T) {
	base := version.Base
	if !regexp.MustCompile(`^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`).MatchString(base) {
		t.Fatalf("internal/version.Base = %q, want a semantic version with a leading v", base)
	}
	npmVersion := strings.TrimPrefix(base, "v")

	t.Run("generated header", func(t *testing.T) {
		res := compiler.Compile(context.Background(), compiler.Request{Sources: map[string]string{
			"v.proto": "syntax = \"proto3\";\npackage v;\noption go_package = \"example.com/v\";\nmessage M { int32 x = 1; }\n",
		}})
		if res.HasErrors() || len(res.Generated) == 0 {
			t.Fatalf("compile: %v", res.Diagnostics)
		}
		want := "// versions:\n// \tprotoplay " + base + "\n"
		if head := res.Generated[0].Content; !strings.Contains(head[:min(len(head), 300)], want) {
			t.Errorf("the generated header does not say %q:\n%s", want, head[:min(len(head), 300)])
		}
		// The committed generated files (make generate) say the same.
		var committed []string
		for _, pattern := range []string{"runtime/wkt/*/*.pb.go", "testdata/golden/*.pb.go.golden"} {
			m, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(pattern)))
			if err != nil {
				t.Fatal(err)
			}
			committed = append(committed, m...)
		}
		if len(committed) == 0 {
			t.Fatal("no committed generated files found")
		}
		for _, p := range committed {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b[:min(len(b), 300)]), want) {
				t.Errorf("%s: the header does not say protoplay %s (run make generate)", p, base)
			}
		}
	})

	t.Run("npm package", func(t *testing.T) {
		var pj struct {
			Version              string
			OptionalDependencies map[string]string
		}
		if err := json.Unmarshal([]byte(readFile(t, "site/npm/package.json")), &pj); err != nil {
			t.Fatal(err)
		}
		if pj.Version != npmVersion {
			t.Errorf("site/npm/package.json: version %q, want %q", pj.Version, npmVersion)
		}
		// The platform packages (the native cores) are of the same
		// version: site/build stamps them with it, and the main package
		// depends on exactly that version of each.
		if len(pj.OptionalDependencies) == 0 {
			t.Error("site/npm/package.json: no optionalDependencies (the platform packages)")
		}
		for name, v := range pj.OptionalDependencies {
			if v != npmVersion {
				t.Errorf("site/npm/package.json: optionalDependencies %s at %q, want %q", name, v, npmVersion)
			}
		}
	})

	t.Run("page", func(t *testing.T) {
		about := readFile(t, "site/src/page/about.ts")
		if !regexp.MustCompile(`about-version"\]'\)!?\.textContent = __PROTOPLAY_VERSION__`).MatchString(about) {
			t.Error("site/src/page/about.ts: the About dialog's version is not __PROTOPLAY_VERSION__ (site/build's moduleVersion)")
		}
	})

	t.Run("changelog", func(t *testing.T) {
		cl := readFile(t, "CHANGELOG.md")
		if !regexp.MustCompile(`(?m)^## \[` + regexp.QuoteMeta(base) + `\]( - \d{4}-\d{2}-\d{2})?$`).MatchString(cl) {
			t.Errorf("CHANGELOG.md has no section \"## [%s] - YYYY-MM-DD\"", base)
		}
		if !strings.Contains(cl, "\n["+base+"]: ") {
			t.Errorf("CHANGELOG.md has no link for [%s]", base)
		}
	})

	t.Run("tag", func(t *testing.T) {
		cmd := exec.Command("git", "describe", "--tags", "--exact-match", "--match", "v[0-9]*", "HEAD")
		cmd.Dir = root
		out, err := cmd.Output()
		if err != nil {
			t.Skip("HEAD has no release tag")
		}
		if tag := strings.TrimSpace(string(out)); tag != base {
			t.Errorf("HEAD is tagged %s but internal/version.Base is %s", tag, base)
		}
	})

	t.Run("commands", func(t *testing.T) {
		if testing.Short() {
			t.Skip("builds protoplay and protoc-gen-protoplay")
		}
		bin := t.TempDir()
		for _, c := range []struct{ pkg, want string }{
			{"protoplay", "protoplay " + base + "\n"},
			{"protoc-gen-protoplay", "protoc-gen-protoplay " + base + " ("},
		} {
			exe := filepath.Join(bin, c.pkg)
			build := exec.Command("go", "build", "-o", exe, "./cmd/"+c.pkg)
			build.Dir = root
			if out, err := build.CombinedOutput(); err != nil {
				t.Fatalf("go build ./cmd/%s: %v\n%s", c.pkg, err, out)
			}
			out, err := exec.Command(exe, "--version").Output()
			if err != nil {
				t.Fatalf("%s --version: %v", c.pkg, err)
			}
			if !strings.HasPrefix(string(out), c.want) {
				t.Errorf("%s --version printed %q, want %q...", c.pkg, out, c.want)
			}
		}
	})
}
