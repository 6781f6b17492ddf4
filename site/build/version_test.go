package main

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	ppversion "github.com/protoplay/protoplay/internal/version"
)

// TestModuleVersion: the npm package and the page's About dialog are
// stamped with protoplay's version (internal/version.Base, without the
// "v"), whatever the checkout's tags, so they agree with protoplay
// --version and the generated files' header (make release-check).
func TestModuleVersion(t *testing.T) {
	v, err := moduleVersion("../..")
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.TrimPrefix(ppversion.Base, "v"); v != want {
		t.Errorf("moduleVersion = %q, want %q", v, want)
	}
	if !semverRE.MatchString(v) {
		t.Errorf("moduleVersion = %q, not what npm takes as a version", v)
	}
}

// TestNativePlatformsAgree: the platform packages site/build builds
// (nativePlatforms), the main package's optionalDependencies and the
// packages the Node entry looks for (nativecore.ts) are the same five,
// and each dependency is the package's own version.
func TestNativePlatformsAgree(t *testing.T) {
	b, err := os.ReadFile("../npm/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var pj struct {
		Version              string
		OptionalDependencies map[string]string
	}
	if err := json.Unmarshal(b, &pj); err != nil {
		t.Fatal(err)
	}
	if err := platformsListed(pj.OptionalDependencies); err != nil {
		t.Error(err)
	}
	for name, v := range pj.OptionalDependencies {
		if v != pj.Version {
			t.Errorf("optionalDependencies: %s at %q, want the package's version %q", name, v, pj.Version)
		}
	}
	ts, err := os.ReadFile("../src/lib/nativecore.ts")
	if err != nil {
		t.Fatal(err)
	}
	found := regexp.MustCompile(`"(\w+) (\w+)": "(@protoplay/[\w-]+)"`).FindAllStringSubmatch(string(ts), -1)
	if len(found) != len(nativePlatforms) {
		t.Errorf("nativecore.ts lists %d platform packages, want %d", len(found), len(nativePlatforms))
	}
	for i, m := range found {
		if i < len(nativePlatforms) {
			p := nativePlatforms[i]
			if m[1] != p.os || m[2] != p.cpu || m[3] != p.name() {
				t.Errorf("nativecore.ts: %q → %s, want %q → %s", m[1]+" "+m[2], m[3], p.os+" "+p.cpu, p.name())
			}
		}
	}
}
