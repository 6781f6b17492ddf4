package main

import (
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
