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
// internal/gen/buf/compiler/v1alpha1's ast.pb.go and symtab.pb.go, and
// experimental/internal/astx's encode.go, are emptied. compiler/frontend
// reads diagnostics through report.Report.ToProto (report.pb.go, kept);
// the AST and symbol-table messages serve only astx.ToProto, an AST dump
// for protocompile's own tests that nothing in the core calls, but the
// package's init registered them and kept their 108 KB of code: 0.30 MB
// raw, 20 KB brotli (quality 5) of the core.
//
// The experimental compiler's regular expressions (a deprecation reason's
// clean-up in experimental/internal/erredition, the lexer's number forms,
// an ASCII identifier in ir, an ordinary import path in parser, an ANSI
// escape in report's writer) become the hand-written matchers of
// site/build/leanre, whose tests check each against its expression on
// every short input over the characters that matter and on random ones;
// and report's renderer, whose panic report (with Report.Tracing set) was
// the one user of encoding/protojson, prints the report with fmt instead.
// That takes package regexp, regexp/syntax, protojson and the unicode
// tables only they reached out of the core: 0.51 MB raw, 81 KB brotli
// (quality 5).
//
// experimental/source's file.go counts a location's column in
// length.TermWidth with leanTermColumn (site/build/leanre, tested against
// the released computation) when the line up to it is printable ASCII and
// tabs, instead of running uniseg's grapheme segmentation over it: the
// source info of an edited file asks for two locations per element.
// dlp.proto's edit (BenchmarkWorkspaceEditDLP/go, GOOS=js in Node, CPU
// median per edit, three alternating pairs at load 19-38): 338, 299, 415
// ms released, 322, 300, 391 ms patched; natively (/check, two pairs at
// load 29-31) 108, 119 against 104, 101 ms. A few percent: the rest of
// fdp's source info, the parse, the lowering to IR and protodesc's
// NewFile of the edited file are most of an edit's front end.
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

// leanre is site/build/leanre/leanre.go: the matchers that replace
// protocompile's regular expressions, checked against them by its tests.
//
//go:embed leanre/leanre.go
var leanre []byte

// leanMatchers returns the declarations of leanre.go that the patches
// append to a file.
func leanMatchers() []byte {
	const marker = "// ---- appended to the patched files ----\n"
	i := bytes.Index(leanre, []byte(marker))
	if i < 0 {
		panic("site/build/leanre/leanre.go has no line " + marker)
	}
	return append([]byte("\n// Appended by protoplay's site/build/lean.go (from site/build/leanre).\n\n"), leanre[i+len(marker):]...)
}

// leanRegexpPatch is a patch that makes the replacements of pairs (see
// replaceOnce) and appends the matchers.
func leanRegexpPatch(pairs ...string) func([]byte) ([]byte, error) {
	return func(orig []byte) ([]byte, error) {
		out, err := replaceOnce(orig, pairs...)
		if err != nil {
			return nil, err
		}
		return append(out, leanMatchers()...), nil
	}
}

// leanEmptyFile is a patch that leaves a file of package pkg with no
// declarations.
func leanEmptyFile(pkg string) func([]byte) ([]byte, error) {
	return func([]byte) ([]byte, error) {
		return []byte("// Emptied for protoplay's wasm core (site/build/lean.go).\n\npackage " + pkg + "\n"), nil
	}
}

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
			{
				file:   "experimental/internal/astx/encode.go",
				sha256: "09a71ccb798174f92b9151930edb7994e42d45727081f69a3ac53f1389e6424a",
				patch:  leanEmptyFile("astx"),
			},
			{
				file:   "internal/gen/buf/compiler/v1alpha1/ast.pb.go",
				sha256: "6bde5bb87da4f7653f6e319d685436cd6e624b580dfa8cf15bfd0cb7a63a89d0",
				patch:  leanEmptyFile("compilerv1alpha1"),
			},
			{
				file:   "internal/gen/buf/compiler/v1alpha1/symtab.pb.go",
				sha256: "138a796d939ae64ef1a8754f328d474ba864dd984581ae57a6a66456af29dbe9",
				patch:  leanEmptyFile("compilerv1alpha1"),
			},
			{
				file:   "experimental/internal/lexer/number.go",
				sha256: "03d880c90b57356c9bf2e50ec135f5c7b1fcab082ca3f16533537bf879d80776",
				patch: func(orig []byte) ([]byte, error) {
					out, err := replaceOnce(orig,
						"\t\"fmt\"\n", "",
						"\t\"regexp\"\n", "",
						"\tdecFloat = fpRegexp(\"0-9\", \"eEpP\")\n\thexFloat = fpRegexp(\"0-9a-fA-F\", \"pP\")\n\n", "",
						"\ttreatAsOctal = regexp.MustCompile(\"^[0-9a-dfA-DF_]+$\")\n", "",
						"!decFloat.MatchString(digits)", "!leanIsDecFloat(digits)",
						"!hexFloat.MatchString(digits)", "!leanIsHexFloat(digits)")
					if err != nil {
						return nil, err
					}
					if n := bytes.Count(out, []byte("treatAsOctal.MatchString(digits)")); n != 2 {
						return nil, fmt.Errorf("treatAsOctal.MatchString(digits) occurs %d times, want twice", n)
					}
					out = bytes.ReplaceAll(out, []byte("treatAsOctal.MatchString(digits)"), []byte("leanTreatAsOctal(digits)"))
					// fpRegexp, which ends the file, goes.
					i := bytes.Index(out, []byte("// fpRegexp constructs"))
					if i < 0 {
						return nil, fmt.Errorf("no fpRegexp")
					}
					return append(out[:i], leanMatchers()...), nil
				},
			},
			{
				file:   "experimental/internal/erredition/normalize.go",
				sha256: "9deecf7de79fc7e099fd5f3cb2e53f63c4db7a27cf0a85493ddd2e4583197a97",
				patch: func([]byte) ([]byte, error) {
					return append([]byte(`// Rewritten for protoplay's wasm core (site/build/lean.go): the four
// regular expressions of normalizeReason as leanNormalizeReason.

package erredition

import (
	"unicode"
	"unicode/utf8"
)

// normalizeReason canonicalizes the appearance of deprecation reasons.
// Some built-in deprecation warnings have double spaces after periods.
func normalizeReason(text string) string {
	text = leanNormalizeReason(text)

	// Finally, de-capitalize the first letter.
	r, n := utf8.DecodeRuneInString(text)
	return string(unicode.ToLower(r)) + text[n:]
}
`), leanMatchers()...), nil
				},
			},
			{
				file:   "experimental/report/writer.go",
				sha256: "6b11a614824e60d1bd0322ce162bf6428d666c5620e0016ec388e8c932612477",
				patch: leanRegexpPatch(
					"\t\"regexp\"\n", "",
					"var ansiEscapePat = regexp.MustCompile(\"^\\033\\\\[([\\\\d;]*)m\")\n", "",
					"ansiEscapePat.Find(w.buf[i:])", "leanANSIEscape(w.buf[i:])"),
			},
			{
				// Only the renderer's panic report (with Report.Tracing
				// set) used protojson: it prints the report's text form.
				file:   "experimental/report/renderer.go",
				sha256: "f8aa421e12251f7641fc1fd7bf91d34b08fe7949d0387a672c188be1b94f8001",
				patch: func(orig []byte) ([]byte, error) {
					return replaceOnce(orig,
						"\t\"google.golang.org/protobuf/encoding/protojson\"\n", "",
						"json, _ := protojson.MarshalOptions{Multiline: true, Indent: \" \"}.Marshal(proto)", "json := fmt.Sprint(proto)")
				},
			},
			{
				file:   "experimental/parser/legalize_file.go",
				sha256: "e082ca7f4c1234cb2a4e6c7e42a91f47411e25a8f7adba042fab0dcac7f7954f",
				patch: leanRegexpPatch(
					"\t\"regexp\"\n", "",
					"var isOrdinaryFilePath = regexp.MustCompile(`^[0-9a-zA-Z./_-]*$`)\n", "var _ = leanIsOrdinaryFilePath\n",
					"isOrdinaryFilePath.MatchString(lit.Text())", "leanIsOrdinaryFilePath(lit.Text())"),
			},
			{
				// A location's column in length.TermWidth (every span of
				// a file's source info, every diagnostic) ran uniseg's
				// grapheme segmentation over the line up to it; a line of
				// printable ASCII and tabs, nearly every line of a
				// schema, has its column counted (leanTermColumn), the
				// same number.
				file:   "experimental/source/file.go",
				sha256: "6df24eb6e57ec4b345d20e0333efed5dd3e7cf11a312c957b7a1371025f5b388",
				patch: leanRegexpPatch(
					"\tcase length.TermWidth:\n\t\tw := &unicodex.Width{\n",
					"\tcase length.TermWidth:\n\t\tif c, ok := leanTermColumn(chunk); ok {\n\t\t\tcolumn = c\n\t\t\tbreak\n\t\t}\n\t\tw := &unicodex.Width{\n"),
			},
			{
				file:   "experimental/ir/lower_validate.go",
				sha256: "5969d24cbf56e1d45107dce306a585d9947ac302e1c52d32947bee83aea269e6",
				patch: leanRegexpPatch(
					"\t\"regexp\"\n", "",
					"var asciiIdent = regexp.MustCompile(`^[a-zA-Z_][0-9a-zA-Z_]*$`)\n", "",
					"!asciiIdent.MatchString(component)", "!leanIsASCIIIdent(component)"),
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
