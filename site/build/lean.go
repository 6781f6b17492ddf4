package main

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// The core is built against a copy of github.com/bufbuild/protocompile
// whose std_imports.go is replaced by lean_std_imports.go.txt. The
// original file blank-imports every Go package of the files protoc
// bundles (google.golang.org/protobuf/types/known/*, pluginpb,
// gofeaturespb) and, at init, fills protocompile's standardImports from
// protoregistry.GlobalFiles, for protocompile.WithStandardImports. The
// core never uses that resolver: compiler/frontend compiles the standard
// files from source itself (stdimports.go), so the blank imports only
// linked those packages and what they drag in (encoding/protojson through
// structpb, its JSON decoder): 0.56 MB raw, 49 KB brotli of the core, and
// an init that looked up 13 files at every start. The one other use of
// standardImports, hasOverrideDescriptorProto in compiler.go, compares the
// resolver's descriptor.proto with standardImports["google/protobuf/
// descriptor.proto"], which the replacement keeps (descriptorpb's file,
// what GlobalFiles returned), so protocompile behaves the same for the
// core. Go refuses an -overlay of a file in the module cache, hence the
// copy (under .cache/protocompile) and a go.work that replaces the module
// with it for the wasm builds only; the CLI, the plugin and the tests
// build against the module as is.
//
// The copy is made only for the protocompile version and std_imports.go
// this replacement was written for (leanStdImportsFor); any other fails
// the build, so that an upgrade is checked again rather than patched
// blindly.

//go:embed lean_std_imports.go.txt
var leanStdImports []byte

// leanStdImportsFor is the SHA-256 of the std_imports.go that
// lean_std_imports.go.txt replaces, by protocompile version.
var leanStdImportsFor = map[string]string{
	"v0.14.1": "47ca711881c415187db8d9ddba2f75c741b4e166720d2905486723d342469301",
}

const protocompileModule = "github.com/bufbuild/protocompile"

// leanEnv prepares the copy of protocompile and the go.work that uses it
// (under root/.cache/protocompile) and returns the environment entries
// that make a go build in root use them: GOWORK, and GOFLAGS without
// -mod (workspace mode accepts no -mod=mod).
func leanEnv(root, goCmd string) ([]string, error) {
	cmd := exec.Command(goCmd, "list", "-m", "-json", protocompileModule)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOWORK=off")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -m %s: %w", protocompileModule, err)
	}
	var mod struct{ Version, Dir string }
	if err := json.Unmarshal(out, &mod); err != nil {
		return nil, err
	}
	if mod.Dir == "" {
		return nil, fmt.Errorf("%s %s is not in the module cache (go mod download)", protocompileModule, mod.Version)
	}
	orig, err := os.ReadFile(filepath.Join(mod.Dir, "std_imports.go"))
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(orig)
	if want, ok := leanStdImportsFor[mod.Version]; !ok || want != hex.EncodeToString(sum[:]) {
		return nil, fmt.Errorf("%s %s: its std_imports.go (sha256 %x) is not the one site/build/lean_std_imports.go.txt replaces; check that the replacement still keeps what the core needs (see lean.go) and update leanStdImportsFor", protocompileModule, mod.Version, sum)
	}
	leanSum := sha256.Sum256(leanStdImports)
	base := filepath.Join(root, ".cache", "protocompile")
	dir := filepath.Join(base, mod.Version+"-"+hex.EncodeToString(leanSum[:5]))
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		if err := copyModule(mod.Dir, dir); err != nil {
			return nil, fmt.Errorf("copying %s: %w", protocompileModule, err)
		}
	}
	goVersion, err := goDirective(root)
	if err != nil {
		return nil, err
	}
	work := fmt.Sprintf("go %s\n\nuse %s\n\nreplace %s %s => %s\n", goVersion, root, protocompileModule, mod.Version, dir)
	workFile := filepath.Join(base, "go.work")
	if old, err := os.ReadFile(workFile); err != nil || !bytes.Equal(old, []byte(work)) {
		if err := os.WriteFile(workFile, []byte(work), 0o644); err != nil {
			return nil, err
		}
	}
	var flags []string
	for _, f := range strings.Fields(os.Getenv("GOFLAGS")) {
		if !strings.HasPrefix(f, "-mod=") {
			flags = append(flags, f)
		}
	}
	return []string{"GOWORK=" + workFile, "GOFLAGS=" + strings.Join(flags, " ")}, nil
}

// copyModule copies module dir src (read-only, in the module cache) to
// dst without its tests and test data, with std_imports.go replaced by
// leanStdImports. It writes into a temporary folder and renames it, so
// that an interrupted copy is never used.
func copyModule(src, dst string) error {
	tmp := dst + ".tmp"
	if err := os.RemoveAll(tmp); err != nil {
		return err
	}
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(tmp, rel), 0o755)
		}
		if strings.HasSuffix(rel, "_test.go") || strings.HasPrefix(rel, "go.work") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if rel == "std_imports.go" {
			data = leanStdImports
		}
		return os.WriteFile(filepath.Join(tmp, rel), data, 0o644)
	})
	if err != nil {
		return err
	}
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}

var goDirectiveRE = regexp.MustCompile(`(?m)^go\s+(\S+)\s*$`)

// goDirective returns the go version of root's go.mod, which the go.work
// must name at least.
func goDirective(root string) (string, error) {
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	m := goDirectiveRE.FindSubmatch(b)
	if m == nil {
		return "", fmt.Errorf("%s: no go directive", filepath.Join(root, "go.mod"))
	}
	return string(m[1]), nil
}
