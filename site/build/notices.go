package main

// Third-party notices: THIRD_PARTY_NOTICES.txt, written beside the page
// (site/dist) and into the npm package, lists everything protoplay ships
// that is not its own, each with its license text as found on disk:
//
//   - Go: the modules linked into protoplay.wasm, read from the module
//     information the Go linker stores in the binary (what `go version -m`
//     prints for a native binary), each module's LICENSE (and NOTICE,
//     PATENTS) read from its directory in the module cache; and the Go
//     standard library and runtime, which every Go binary contains, and
//     Go's wasm_exec.js, which the bundles inline ($GOROOT/LICENSE).
//   - npm: the packages esbuild actually bundled, from the inputs its
//     metafile lists (node_modules/<package>/... mapped to the package),
//     each package's license from its package.json and its text from its
//     LICENSE file. devDependencies that are not bundled are not listed.
//
// The build fails when a shipped dependency has no license text, or when
// a bundle input is neither protoplay's own, Go's nor an npm package's.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"sort"
	"strings"
	"unicode"
)

// noticesName is the notices file's name, on the page and in the package.
const noticesName = "THIRD_PARTY_NOTICES.txt"

// notices collects the shipped third-party software as the build goes.
type notices struct {
	root     string // repository root
	goroot   string // $GOROOT of the toolchain that built the wasm
	goVers   string // its `go env GOVERSION`
	modcache string // $GOMODCACHE
	goMods   []*debug.Module
	// goIn names the wasm files each module of goMods is linked into,
	// and wasms every wasm file added, in order.
	goIn  map[string][]string
	wasms []string
	// npm packages by directory (site/node_modules/...), and the files
	// (bundles) each one is in.
	npm     map[string]map[string]bool
	goFiles map[string]bool // outputs that inline Go's wasm_exec.js
	// rename gives the shipped name of a bundle from the base name of
	// esbuild's output, or "" to keep it.
	rename func(base string) string
	// ours lists the folders (slash-separated, relative to the
	// repository root) of protoplay's own sources that the bundles may
	// contain: pageSources for the page, libSources for the npm package,
	// so that a library module importing the page fails the npm build.
	ours []string
	// binary: the notices of a native core's package (native.go): one Go
	// binary, no WebAssembly and no bundles.
	binary bool
	// embedded is the third-party data the wasm embeds (embeddedData).
	embedded []embedded
}

// The folders of protoplay's own sources in the page's bundles (the
// library, the page, and the example schema from testdata) and in the npm
// package's (the library only).
var (
	pageSources = []string{"site/src/lib", "site/src/page", "testdata"}
	libSources  = []string{"site/src/lib"}
)

// newNotices asks goCmd for the toolchain's GOROOT, GOVERSION and
// GOMODCACHE.
func newNotices(root, goCmd string) (*notices, error) {
	out, err := exec.Command(goCmd, "env", "GOROOT", "GOVERSION", "GOMODCACHE").Output()
	if err != nil {
		return nil, fmt.Errorf("go env: %w", err)
	}
	f := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(f) != 3 || f[0] == "" || f[2] == "" {
		return nil, fmt.Errorf("go env GOROOT GOVERSION GOMODCACHE printed %q", out)
	}
	return &notices{root: root, goroot: f[0], goVers: f[1], modcache: f[2],
		npm: map[string]map[string]bool{}, goFiles: map[string]bool{}, ours: pageSources, embedded: embeddedData}, nil
}

// The Go linker stores the module information (runtime/debug.BuildInfo's
// text form) in every binary between these two 16-byte markers
// (cmd/go/internal/modload's infoStart and infoEnd). debug/buildinfo
// cannot read a js/wasm binary, so the build finds them itself.
var (
	modInfoStart = []byte("0w\xaf\x0c\x92t\x08\x02A\xe1\xc1\x07\xe6\xd6\x18\xe6")
	modInfoEnd   = []byte("\xf92C1\x86\x18 r\x00\x82B\x10A\x16\xd8\xf2")
)

// wasmBuildInfo reads the module information from a Go binary's bytes
// (any GOOS/GOARCH; used for js/wasm).
func wasmBuildInfo(bin []byte) (*debug.BuildInfo, error) {
	i := bytes.Index(bin, modInfoStart)
	if i < 0 {
		return nil, errors.New("the wasm carries no Go module information (was it built in module mode?)")
	}
	i += len(modInfoStart)
	j := bytes.Index(bin[i:], modInfoEnd)
	if j < 0 {
		return nil, errors.New("the wasm's Go module information has no end marker")
	}
	bi, err := debug.ParseBuildInfo(string(bin[i : i+j]))
	if err != nil {
		return nil, fmt.Errorf("the wasm's Go module information: %w", err)
	}
	return bi, nil
}

// addWasm records the modules linked into a wasm module (its
// dependencies, not the main module, which is protoplay), beside those of
// the modules added before.
func (n *notices) addWasm(name string, wasm []byte) error {
	bi, err := wasmBuildInfo(wasm)
	if err != nil {
		return err
	}
	// The page ships two modules (the core, protoplay.wasm, and the
	// interpreter, interp.wasm): the notices cover the modules of both,
	// each naming the files it is in.
	if n.goIn == nil {
		n.goIn = map[string][]string{}
	}
	n.wasms = append(n.wasms, name)
	for _, m := range bi.Deps {
		if n.goIn[m.Path] == nil {
			n.goMods = append(n.goMods, m)
		}
		n.goIn[m.Path] = append(n.goIn[m.Path], name)
	}
	if n.goMods == nil {
		n.goMods = []*debug.Module{}
	}
	return nil
}

// wasmNames are the wasm files added, "protoplay.wasm" when none was.
func (n *notices) wasmNames() []string {
	if len(n.wasms) == 0 {
		return []string{"protoplay.wasm"}
	}
	return n.wasms
}

// addMetafile records the inputs of one esbuild build (its metafile,
// JSON), by output file.
func (n *notices) addMetafile(meta string) error {
	var m struct {
		Outputs map[string]struct {
			Inputs map[string]json.RawMessage `json:"inputs"`
		} `json:"outputs"`
	}
	if err := json.Unmarshal([]byte(meta), &m); err != nil {
		return fmt.Errorf("esbuild metafile: %w", err)
	}
	site := filepath.Join(n.root, "site")
	for out, o := range m.Outputs {
		name := filepath.Base(out)
		if strings.HasSuffix(name, ".map") {
			continue
		}
		if n.rename != nil {
			if r := n.rename(name); r != "" {
				name = r
			}
		}
		for in := range o.Inputs {
			if strings.HasPrefix(in, "<define:") {
				continue // a constant the build defines (the prebuilt example)
			}
			// Paths are relative to the working directory (site/);
			// plugins' paths (wasm_exec.js) are absolute.
			p := in
			if !filepath.IsAbs(p) {
				p = filepath.Join(site, filepath.FromSlash(p))
			}
			p = filepath.Clean(p)
			if dir, ok := npmPackageDir(p); ok {
				if n.npm[dir] == nil {
					n.npm[dir] = map[string]bool{}
				}
				n.npm[dir][name] = true
				continue
			}
			if within(p, n.goroot) {
				n.goFiles[name] = true
				continue
			}
			if n.isOurs(p) {
				continue // protoplay's own
			}
			if within(p, filepath.Join(site, "src")) || within(p, filepath.Join(n.root, "testdata")) {
				return fmt.Errorf("esbuild bundled %s into %s, but this build takes protoplay's own sources only from %s: the library (site/src/lib) must not import the page (site/src/page)", in, name, strings.Join(n.ours, ", "))
			}
			return fmt.Errorf("esbuild bundled %s into %s, which is neither protoplay's (%s), Go's nor in node_modules: say what it is and its license in site/build/notices.go", in, name, strings.Join(n.ours, ", "))
		}
	}
	return nil
}

// isOurs reports whether p is in one of the folders of n.ours.
func (n *notices) isOurs(p string) bool {
	for _, dir := range n.ours {
		if within(p, filepath.Join(n.root, filepath.FromSlash(dir))) {
			return true
		}
	}
	return false
}

func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// npmPackageDir maps a file under node_modules to its package's
// directory: .../node_modules/@scope/name or .../node_modules/name (the
// last node_modules in the path, for nested installs).
func npmPackageDir(p string) (string, bool) {
	sep := string(filepath.Separator)
	marker := sep + "node_modules" + sep
	i := strings.LastIndex(p, marker)
	if i < 0 {
		return "", false
	}
	rest := strings.Split(p[i+len(marker):], sep)
	k := 1
	if strings.HasPrefix(rest[0], "@") {
		k = 2
	}
	if len(rest) <= k {
		return "", false
	}
	return p[:i+len(marker)] + strings.Join(rest[:k], sep), true
}

// entry is one shipped component in the notices.
type entry struct {
	name, version, license string
	in                     []string // shipped in these files
	texts                  []licenseFile
}

type licenseFile struct {
	name, text string
}

// licenseFileRE matches the files that carry license terms at the top of
// a module or package: LICENSE, LICENCE, COPYING, NOTICE, PATENTS, with
// any extension or suffix (LICENSE.txt, LICENSE-MIT).
var licenseFileRE = regexp.MustCompile(`(?i)^(licen[cs]e|copying|notice|patents)([.-].*)?$`)

// licenseFiles reads the license files at the top of dir, in name order.
func licenseFiles(dir string) ([]licenseFile, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []licenseFile
	for _, e := range ents {
		if e.IsDir() || !licenseFileRE.MatchString(e.Name()) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		if t := strings.TrimSpace(string(b)); t != "" {
			out = append(out, licenseFile{e.Name(), t})
		}
	}
	return out, nil
}

// guessLicense names the license of a text by its wording, for the
// summary (the full text is what counts): Apache-2.0, BSD-3-Clause, MIT,
// or "" when none of these.
func guessLicense(text string) string {
	t := strings.Join(strings.Fields(text), " ")
	switch {
	case strings.Contains(t, "Apache License") && strings.Contains(t, "Version 2.0"):
		return "Apache-2.0"
	case strings.Contains(t, "Redistribution and use in source and binary forms") && strings.Contains(t, "Neither the name"):
		return "BSD-3-Clause"
	case strings.Contains(t, "Permission is hereby granted, free of charge"):
		return "MIT"
	}
	return ""
}

// escapeModulePath is the module cache's case encoding of a module path
// or version (golang.org/x/mod/module.EscapePath): each upper-case letter
// becomes '!' and its lower case.
func escapeModulePath(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsUpper(r) {
			b.WriteByte('!')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// goEntries: the Go standard library and runtime first, then the linked
// modules by path.
func (n *notices) goEntries() ([]entry, error) {
	if n.goMods == nil {
		return nil, errors.New("notices: the wasm's modules were not read")
	}
	goIn := append([]string(nil), n.wasmNames()...)
	if len(n.goFiles) > 0 {
		var js []string
		for f := range n.goFiles {
			js = append(js, f)
		}
		sort.Strings(js)
		goIn = append(goIn, "its wasm_exec.js in "+strings.Join(js, ", "))
	}
	texts, err := licenseFiles(n.goroot)
	if err != nil {
		return nil, fmt.Errorf("reading the license of Go: %w", err)
	}
	if len(texts) == 0 {
		return nil, fmt.Errorf("no license text for Go in %s (LICENSE)", n.goroot)
	}
	out := []entry{{name: "Go (standard library and runtime)", version: n.goVers, license: guessLicense(texts[0].text), in: goIn, texts: texts}}

	mods := append([]*debug.Module(nil), n.goMods...)
	sort.Slice(mods, func(i, j int) bool { return mods[i].Path < mods[j].Path })
	for _, m := range mods {
		src := m
		if m.Replace != nil {
			src = m.Replace
		}
		var dir string
		switch {
		case src.Version == "" || src.Version == "(devel)":
			// A replacement by a directory: relative to the main module,
			// or one of lean.go's patched copies, relative to its go.work.
			dir = src.Path
			if !filepath.IsAbs(dir) {
				if lean := filepath.Join(leanDir(n.root), dir); isLeanPatched(m.Path) {
					dir = lean
				} else {
					dir = filepath.Join(n.root, dir)
				}
			}
		default:
			dir = filepath.Join(n.modcache, filepath.FromSlash(escapeModulePath(src.Path)+"@"+escapeModulePath(src.Version)))
		}
		texts, err := licenseFiles(dir)
		if err != nil {
			return nil, fmt.Errorf("module %s %s is linked into the wasm, but its directory cannot be read for its license (%w); `go mod download %s` fetches it", m.Path, src.Version, err, src.Path)
		}
		if len(texts) == 0 {
			return nil, fmt.Errorf("module %s %s is linked into the wasm, but %s has no LICENSE (or COPYING, NOTICE) file: find its license before shipping it", m.Path, src.Version, dir)
		}
		in := n.goIn[m.Path]
		if len(in) == 0 {
			in = n.wasmNames()
		}
		version := src.Version
		if m.Replace != nil && isLeanPatched(m.Path) {
			version = m.Version + ", patched (site/build/lean.go)"
		}
		out = append(out, entry{name: m.Path, version: version, license: guessLicense(texts[0].text), in: in, texts: texts})
	}
	for _, d := range n.embedded {
		dir := filepath.Join(n.root, filepath.FromSlash(d.dir))
		texts, err := licenseFiles(dir)
		if err != nil || len(texts) == 0 {
			return nil, fmt.Errorf("%s is embedded in the wasm, but %s has no LICENSE file (%v)", d.name, d.dir, err)
		}
		version := ""
		if b, err := os.ReadFile(filepath.Join(dir, "SOURCES.txt")); err == nil {
			var from []string
			for _, line := range strings.Split(string(b), "\n") {
				if line == "" {
					break
				}
				if !strings.HasPrefix(line, "#") {
					from = append(from, line)
				}
			}
			version = "from " + strings.Join(from, ", ")
		}
		out = append(out, entry{name: d.name, version: version, license: guessLicense(texts[0].text), in: []string{"protoplay.wasm"}, texts: texts})
	}
	return out, nil
}

// embeddedData is third-party data that protoplay's own Go embeds in the
// wasm (go:embed), so that no module of its own carries it: each folder
// holds a LICENSE and, optionally, a SOURCES.txt whose first lines (up to
// a blank one; # comments skipped) say where it came from.
type embedded struct{ name, dir string }

var embeddedData = []embedded{
	{"googleapis: descriptors of google/api, google/type, google/rpc and google/longrunning", "compiler/frontend/googleapis"},
	{"Protocol Buffers: descriptors of the .proto files protoc bundles (google/protobuf)", "compiler/frontend/bundled"},
}

// npmEntries: the bundled npm packages by name.
func (n *notices) npmEntries() ([]entry, error) {
	var out []entry
	for dir, files := range n.npm {
		var pj struct {
			Name    string `json:"name"`
			Version string `json:"version"`
			License any    `json:"license"` // a string, or the old {type, url}
		}
		b, err := os.ReadFile(filepath.Join(dir, "package.json"))
		if err != nil {
			return nil, fmt.Errorf("npm package in %s is bundled, but: %w", dir, err)
		}
		if err := json.Unmarshal(b, &pj); err != nil {
			return nil, fmt.Errorf("%s/package.json: %w", dir, err)
		}
		lic := ""
		switch l := pj.License.(type) {
		case string:
			lic = l
		case map[string]any:
			lic, _ = l["type"].(string)
		}
		texts, err := licenseFiles(dir)
		if err != nil {
			return nil, err
		}
		if len(texts) == 0 {
			return nil, fmt.Errorf("npm package %s@%s is bundled, but %s has no LICENSE file (package.json says %q): find its license text before shipping it", pj.Name, pj.Version, dir, lic)
		}
		if lic == "" {
			lic = guessLicense(texts[0].text)
		}
		var in []string
		for f := range files {
			in = append(in, f)
		}
		sort.Strings(in)
		out = append(out, entry{name: pj.Name, version: pj.Version, license: lic, in: in, texts: texts})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, nil
}

// text renders the notices for protoplay at version.
func (n *notices) text(version string) ([]byte, error) {
	goEnts, err := n.goEntries()
	if err != nil {
		return nil, err
	}
	npmEnts, err := n.npmEntries()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	rule := strings.Repeat("=", 78)
	section := func(title string, ents []entry) {
		fmt.Fprintf(&b, "%s\n%s\n\n", title, strings.Repeat("-", len(title)))
		for _, e := range ents {
			fmt.Fprintf(&b, "  %-44s %-12s %s\n", e.name+" "+e.version, e.license, strings.Join(e.in, ", "))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "protoplay %s: third-party notices\n%s\n\n", version, rule)
	wasms := strings.Join(n.wasmNames(), " and ")
	if n.binary {
		fmt.Fprintf(&b, `protoplay is Copyright The protoplay Authors and licensed under the Apache
License, Version 2.0 (see LICENSE). Its binary (%s) contains the
third-party software listed below, each under its own license, whose text
follows.

This file is generated by the build (site/build) from what is shipped: the Go
modules linked into %s (the module information).

`, wasms, wasms)
		section("Go (in "+wasms+")", goEnts)
		npmEnts = nil
	} else {
		fmt.Fprintf(&b, `protoplay is Copyright The protoplay Authors and licensed under the Apache
License, Version 2.0 (see LICENSE). Its WebAssembly (%s) and
its JavaScript bundles contain the third-party software listed below, each
under its own license, whose text follows.

This file is generated by the build (site/build) from what is shipped: the Go
modules linked into %s (the module information) and the npm
packages esbuild bundled (its metafile).

`, wasms, wasms)
		section("Go (in "+wasms+")", goEnts)
		section("npm packages (in the JavaScript bundles)", npmEnts)
	}
	for _, e := range append(goEnts, npmEnts...) {
		fmt.Fprintf(&b, "%s\n%s %s\n", rule, e.name, e.version)
		if e.license != "" {
			fmt.Fprintf(&b, "License: %s\n", e.license)
		}
		fmt.Fprintf(&b, "Shipped in: %s\n", strings.Join(e.in, ", "))
		for _, t := range e.texts {
			fmt.Fprintf(&b, "\n--- %s ---\n\n%s\n", t.name, t.text)
		}
		b.WriteString("\n")
	}
	return b.Bytes(), nil
}
