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

// The wasm modules are built against copies of three modules with some files
// changed (leanPatches), through a go.work that replaces the modules with
// the copies (under .cache/lean) for the wasm builds only: Go refuses an
// -overlay of a file in the module cache. The CLI, the plugin and the
// tests build against the modules as they are.
//
// github.com/bufbuild/protocompile: std_imports.go becomes
// lean_std_imports.go.txt. The original blank-imports every Go package of
// the files protoc bundles (google.golang.org/protobuf/types/known/*,
// pluginpb, gofeaturespb) and, at init, fills protocompile's
// standardImports from protoregistry.GlobalFiles, for
// protocompile.WithStandardImports. The core never uses that resolver:
// compiler/frontend hands the experimental compiler the standard files'
// sources itself (stdimports.go), and the legacy package is linked only
// because experimental/source imports wellknownimports, which imports it;
// so the blank imports only linked those packages and
// what they drag in (encoding/protojson through structpb): 0.56 MB raw,
// 49 KB brotli of the core, and an init that looked up 13 files at every
// start. The one other use of standardImports, hasOverrideDescriptorProto
// in compiler.go, compares the resolver's descriptor.proto with
// standardImports["google/protobuf/descriptor.proto"], which the
// replacement keeps (descriptorpb's file, what GlobalFiles returned), so
// protocompile behaves the same for the core.
//
// (The legacy compiler's options.go was patched too, for its option
// interpretation; the core now compiles with protocompile's experimental
// compiler, which does not call that code.)
//
// github.com/dave/jennifer: jen/file.go's guessAlias removed the
// characters outside [a-z0-9] from an import alias with a regexp compiled
// at each call, the core's only use of package regexp; strings.Map does
// the same (invalid UTF-8 included: its bytes are never a-z0-9, and both
// drop them). Without regexp, regexp/syntax and the unicode tables only it
// reached: 0.54 MB raw of the core.
//
// github.com/traefik/yaegi, for the interpreter's wasm (wasm/interp, the
// page's Checks and Run Go): interp/run.go's runCfg declares a new exec in
// its loop (for exec := n.exec; ...), shadowing the exec its deferred
// recover reads to find the node that panicked, which is then always nil:
// every panic was reported at the first statement of each function on
// the stack. The patch assigns the outer exec instead, so the position is
// the panicking statement's, and each caller's the call's (yaegi issue
// 1266; interp's TestSessionRunPanicLine runs against it in
// TestLeanModules).
//
// Each patch applies only to the version and file content it was written
// for (the SHA-256 below); any other fails the build, so that an upgrade
// is checked again rather than patched blindly.

//go:embed lean_std_imports.go.txt
var leanStdImports []byte

// A modulePatch changes files of a module for the core's build.
type modulePatch struct {
	module, version string
	files           []filePatch
}

// A filePatch changes one file of a module.
type filePatch struct {
	file   string // slash-separated, in the module
	sha256 string // of the file as released
	patch  func(orig []byte) ([]byte, error)
}

var leanPatches = []modulePatch{
	{
		module:  "github.com/bufbuild/protocompile",
		version: "v0.14.2-0.20261020145055-56248e843b50",
		files: []filePatch{
			{
				file:   "std_imports.go",
				sha256: "cbcfd2caa379b0af11a9037a1896246459f760dc0128fb748e55722d545fff26",
				patch:  func([]byte) ([]byte, error) { return leanStdImports, nil },
			},
		},
	},
	{
		module:  "github.com/dave/jennifer",
		version: "v1.7.1",
		files: []filePatch{{
			file:   "jen/file.go",
			sha256: "9fc4f2ceee49e27306ec0b3da876e0b1d5a8ef9363809389a59a9aca0648852b",
			patch: func(orig []byte) ([]byte, error) {
				return replaceOnce(orig,
					"\t\"regexp\"\n", "",
					"\timportsRegex := regexp.MustCompile(`[^a-z0-9]`)\n\talias = importsRegex.ReplaceAllString(alias, \"\")\n",
					"\t// protoplay (site/build/lean.go): strings.Map instead of a regexp.\n"+
						"\talias = strings.Map(func(r rune) rune {\n"+
						"\t\tif 'a' <= r && r <= 'z' || '0' <= r && r <= '9' {\n"+
						"\t\t\treturn r\n"+
						"\t\t}\n"+
						"\t\treturn -1\n"+
						"\t}, alias)\n")
			},
		}},
	},
	{
		module:  "github.com/traefik/yaegi",
		version: "v0.16.1",
		files: []filePatch{{
			file:   "interp/run.go",
			sha256: "476e7af96383088dbcee4e0acf7f981567cfd204d12dc8b149ffafc80289a484",
			patch: func(orig []byte) ([]byte, error) {
				return replaceOnce(orig,
					"\t\tfor exec := n.exec; exec != nil && f.runid() == n.interp.runid(); {\n",
					"\t\t// protoplay (site/build/lean.go): the exec the deferred recover reads.\n"+
						"\t\tfor exec = n.exec; exec != nil && f.runid() == n.interp.runid(); {\n")
			},
		}},
	},
}

// isLeanPatched reports whether leanPatches patches module path.
func isLeanPatched(path string) bool {
	for _, p := range leanPatches {
		if p.module == path {
			return true
		}
	}
	return false
}

// replaceOnce replaces each old string of pairs (old, new, old, new...)
// in src, each of which must occur exactly once.
func replaceOnce(src []byte, pairs ...string) ([]byte, error) {
	for i := 0; i+1 < len(pairs); i += 2 {
		if n := bytes.Count(src, []byte(pairs[i])); n != 1 {
			return nil, fmt.Errorf("%q occurs %d times, want once", pairs[i], n)
		}
		src = bytes.Replace(src, []byte(pairs[i]), []byte(pairs[i+1]), 1)
	}
	return src, nil
}

// leanDir is where leanEnv puts the patched copies and the go.work, which
// names them relative to itself (so does the wasm's module information).
func leanDir(root string) string { return filepath.Join(root, ".cache", "lean") }

// leanEnv prepares the patched copies and the go.work that uses them
// (under leanDir) and returns the environment entries that make
// a go build in root use them: GOWORK, and GOFLAGS without -mod
// (workspace mode accepts no -mod=mod).
func leanEnv(root, goCmd string) ([]string, error) {
	base := leanDir(root)
	goVersion, err := goDirective(root)
	if err != nil {
		return nil, err
	}
	// Paths relative to the go.work's folder: the build records a
	// replacement's path in the wasm's module information, and a
	// machine's path there would make the build differ by checkout.
	work := fmt.Sprintf("go %s\n\nuse ../..\n", goVersion)
	for _, p := range leanPatches {
		dir, err := p.apply(root, goCmd, base)
		if err != nil {
			return nil, err
		}
		work += fmt.Sprintf("\nreplace %s %s => ./%s\n", p.module, p.version, filepath.Base(dir))
	}
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

// apply makes the patched copy of p's module under base, unless there,
// and returns its folder. An error when the module's version or one of its
// files is not the one the patch was written for.
func (p modulePatch) apply(root, goCmd, base string) (string, error) {
	// The version go.mod requires, downloaded if it is not yet (as the
	// build would).
	cmd := exec.Command(goCmd, "mod", "download", "-json", p.module)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOWORK=off")
	out, err := cmd.Output()
	var mod struct{ Version, Dir, Error string }
	if jerr := json.Unmarshal(out, &mod); jerr != nil || err != nil || mod.Error != "" || mod.Dir == "" {
		return "", fmt.Errorf("go mod download %s: %v %s", p.module, err, mod.Error)
	}
	patched := map[string][]byte{}
	h := sha256.New()
	for _, f := range p.files {
		orig, err := os.ReadFile(filepath.Join(mod.Dir, filepath.FromSlash(f.file)))
		if err != nil {
			return "", err
		}
		sum := sha256.Sum256(orig)
		if mod.Version != p.version || hex.EncodeToString(sum[:]) != f.sha256 {
			return "", fmt.Errorf("%s %s: its %s (sha256 %x) is not the one site/build/lean.go patches (%s, sha256 %s); check that the patch still holds and update leanPatches", p.module, mod.Version, f.file, sum, p.version, f.sha256)
		}
		data, err := f.patch(orig)
		if err != nil {
			return "", fmt.Errorf("patching %s of %s %s: %w", f.file, p.module, p.version, err)
		}
		patched[f.file] = data
		fmt.Fprintf(h, "%s\x00%d\x00", f.file, len(data))
		h.Write(data)
	}
	psum := h.Sum(nil)
	dir := filepath.Join(base, strings.ReplaceAll(p.module, "/", "_")+"@"+p.version+"-"+hex.EncodeToString(psum[:5]))
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		if err := copyModule(mod.Dir, dir, patched); err != nil {
			return "", fmt.Errorf("copying %s: %w", p.module, err)
		}
	}
	return dir, nil
}

// copyModule copies module dir src (read-only, in the module cache) to
// dst without its tests and test data, each file of patched (by its
// slash-separated path) given its content there. It writes into a temporary folder and renames it,
// so that an interrupted copy is never used.
func copyModule(src, dst string, patched map[string][]byte) error {
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
		if p, ok := patched[filepath.ToSlash(rel)]; ok {
			data = p
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
