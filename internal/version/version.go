// Package version is protoplay's version: the one place it is written.
// The CLI's --version, the protoc plugin's --version, the core's version
// (compiler.Version) and, when the repository has no VERSION file and no
// v* tag, the npm package's version all come from here.
package version

import (
	"runtime/debug"
	"strings"
)

// Base is the version of this source tree, a semantic version with a
// leading "v". It is bumped when a release is tagged.
const Base = "v0.1.0"

// modulePath is the main module's path when protoplay's own commands run.
const modulePath = "github.com/protoplay/protoplay"

// String is the version the running binary reports: the module version
// the go command stamped into it (`go install
// github.com/protoplay/protoplay/cmd/protoplay@v1.2.3` gives v1.2.3) when
// that is a real version, else Base. A build from a checkout stamps
// "(devel)" or a v0.0.0 pseudo-version (no tag), which say nothing of the
// release the sources belong to, so Base is used then.
func String() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Path == modulePath {
		if v := bi.Main.Version; real(v) {
			return v
		}
	}
	return Base
}

// real reports whether v, a module version from build info, names a
// release or a commit after one: not empty, not "(devel)", not a v0.0.0
// pseudo-version (a module with no tag at all).
func real(v string) bool {
	return strings.HasPrefix(v, "v") && !strings.HasPrefix(v, "v0.0.0-")
}
