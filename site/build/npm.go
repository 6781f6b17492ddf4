package main

// The npm package "protoplay" (go run ./site/build -npm DIR): the same
// core and the same Worker code as the page, laid out as
//
//	package.json     from site/npm/package.json, version internal/version.Base
//	README.md        site/npm/README.md
//	index.js         browser entry (site/src/lib/index.ts), the Worker inlined
//	element.js       <protoplay-editor> (site/src/lib/element.ts)
//	chunk-*.js       code index.js and element.js share (one Worker per page)
//	node.js          Node entry (site/src/lib/node.ts), wasm_exec.js and the
//	                 worker thread's code (node-worker.ts) inlined
//	node.cjs         the same for require()
//	editor-*.js      CodeMirror, loaded by the element when it first shows
//	protoplay.iife.js  a plain script for CDNs: the API as the global
//	                 protoplay, and the element
//	protoplay.wasm   the core (Node runs the platform package's binary
//	                 instead, when installed: native.go)
//	types/           declarations, emitted by tsc
//	LICENSE          protoplay's (Apache-2.0), from the repository root
//	THIRD_PARTY_NOTICES.txt  what the wasm and the bundles ship (notices.go)
//
// make npm then runs npm pack on DIR.

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	ppversion "github.com/protoplay/protoplay/internal/version"
)

func runNPM(root, out, goCmd string) error {
	b, version, err := newBuilder(root, out, goCmd, "make npm")
	if err != nil {
		return err
	}
	site, out := b.site, b.out
	// The Worker's bundle is not a file of the package: index.js starts it
	// from a string.
	b.notices.rename = func(base string) string {
		switch base {
		case "worker.js":
			return "the Worker (inlined in the browser entry)"
		case "node-worker.js":
			return "the core's process (inlined in the Node entries)"
		case "cdn.js":
			return "protoplay.iife.js"
		}
		return ""
	}
	// The package is the library: an input from the page is an error.
	b.notices.ours = libSources
	wasm, err := b.buildWasm(goCmd, "./wasm")
	if err != nil {
		return err
	}
	if err := b.notices.addWasm("protoplay.wasm", wasm); err != nil {
		return err
	}
	if err := b.write("protoplay.wasm", wasm); err != nil {
		return err
	}
	wasmExec, err := findWasmExec(goCmd)
	if err != nil {
		return err
	}

	// The package's bundles: entries named without a hash, CSS loaded as
	// text (the element puts the palette in its shadow root), class and
	// function names kept (an error prints as ProtoplayError). The
	// browser's are minified; Node's are not, so an uncaught error shows
	// a line of code a person can read, not a line of thousands of
	// characters.
	esbuild := func(o api.BuildOptions) (map[string][]byte, error) {
		o.EntryNames = "[name]"
		o.KeepNames = true
		if o.Platform != api.PlatformNode {
			o.MinifyWhitespace, o.MinifySyntax, o.MinifyIdentifiers = true, true, true
		}
		o.Loader = map[string]api.Loader{".proto": api.LoaderText, ".css": api.LoaderText}
		return b.esbuild(o, wasmExec)
	}
	// The Worker, as a classic script: the browser entry starts it from a
	// Blob, so no bundler or server has to know of a second file.
	worker, err := esbuild(api.BuildOptions{
		EntryPoints: []string{filepath.Join(site, "src/lib/worker.ts")},
		Format:      api.FormatIIFE,
		Platform:    api.PlatformBrowser,
	})
	if err != nil {
		return err
	}
	// Node's core process (node -e CODE), or worker thread (new
	// Worker(code, { eval: true })): a CommonJS script, inlined the same
	// way.
	nodeWorker, err := esbuild(api.BuildOptions{
		EntryPoints: []string{filepath.Join(site, "src/lib/node-worker.ts")},
		Format:      api.FormatIIFE,
		Platform:    api.PlatformNode,
	})
	if err != nil {
		return err
	}
	// Node starts it with node -e CODE: one argument, which Linux caps
	// at 128 KiB.
	if n := len(nodeWorker["node-worker.js"]); n > 120<<10 {
		return fmt.Errorf("the Node core's script is %d bytes, too long for node -e (128 KiB)", n)
	}
	define := map[string]string{
		"__PROTOPLAY_VERSION__":     strconv.Quote(version),
		"__PROTOPLAY_WORKER__":      strconv.Quote(string(worker["worker.js"])),
		"__PROTOPLAY_NODE_WORKER__": strconv.Quote(string(nodeWorker["node-worker.js"])),
		"__PROTOPLAY_WASM_SIZE__":   strconv.Itoa(len(wasm)),
	}
	// The browser's ES modules: the API, the element, and the editor
	// (CodeMirror), which the element imports only when it first shows.
	browser, err := esbuild(api.BuildOptions{
		EntryPoints: []string{filepath.Join(site, "src/lib/index.ts"), filepath.Join(site, "src/lib/element.ts")},
		Format:      api.FormatESModule,
		Platform:    api.PlatformBrowser,
		Splitting:   true,
		ChunkNames:  "[name]-[hash]", // beside index.js: import.meta.url finds protoplay.wasm
		Define:      define,
	})
	if err != nil {
		return err
	}
	// The plain-script build for a CDN (<script src=".../protoplay.iife.js">):
	// the API as the global protoplay, the element defined; protoplay.wasm
	// is looked for beside the script.
	iife, err := esbuild(api.BuildOptions{
		EntryPoints: []string{filepath.Join(site, "src/lib/cdn.ts")},
		Format:      api.FormatIIFE,
		Platform:    api.PlatformBrowser,
		GlobalName:  "protoplay",
		Define:      define,
		LogOverride: map[string]api.LogLevel{"empty-import-meta": api.LogLevelSilent},
	})
	if err != nil {
		return err
	}
	iife = map[string][]byte{"protoplay.iife.js": iife["cdn.js"]}
	node, err := esbuild(api.BuildOptions{
		EntryPoints: []string{filepath.Join(site, "src/lib/node.ts")},
		Format:      api.FormatESModule,
		Platform:    api.PlatformNode,
		Define:      define,
	})
	if err != nil {
		return err
	}
	// The same for require() (Node 18 and 20 cannot require an ES
	// module): import.meta.url becomes this file's URL.
	cjsDefine := map[string]string{"import.meta.url": "__protoplay_module_url"}
	for k, v := range define {
		cjsDefine[k] = v
	}
	nodeCJS, err := esbuild(api.BuildOptions{
		EntryPoints:  []string{filepath.Join(site, "src/lib/node.ts")},
		Format:       api.FormatCommonJS,
		Platform:     api.PlatformNode,
		Define:       cjsDefine,
		Banner:       map[string]string{"js": `var __protoplay_module_url = require("node:url").pathToFileURL(__filename).href;`},
		OutExtension: map[string]string{".js": ".cjs"},
	})
	if err != nil {
		return err
	}
	for _, outs := range []map[string][]byte{browser, iife, node, nodeCJS} {
		for name, data := range outs {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(out, name)), 0o755); err != nil {
				return err
			}
			if err := b.write(name, data); err != nil {
				return err
			}
		}
	}

	// Declarations: tsc, from the same sources.
	tsc := exec.Command("node", filepath.Join(site, "node_modules/typescript/bin/tsc"), "-p", filepath.Join(site, "src/lib/tsconfig.json"), "--outDir", filepath.Join(out, "types"))
	tsc.Dir = site
	tsc.Stdout, tsc.Stderr = os.Stderr, os.Stderr
	if err := tsc.Run(); err != nil {
		return fmt.Errorf("tsc (declarations): %w", err)
	}
	if err := fixDeclarationImports(filepath.Join(out, "types")); err != nil {
		return err
	}
	// tsc copies no .d.ts: the type of "protoplay/protoplay.wasm" (a URL,
	// as a bundler's file loader gives it).
	wasmTypes, err := os.ReadFile(filepath.Join(site, "src/lib/wasm-url.d.ts"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "types", "wasm-url.d.ts"), wasmTypes, 0o644); err != nil {
		return err
	}
	// The editor's declarations name CodeMirror's types, which a user
	// does not have; nothing public refers to them.
	if err := os.Remove(filepath.Join(out, "types", "editor.d.ts")); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}

	if err := writeCTSDeclarations(filepath.Join(out, "types")); err != nil {
		return err
	}

	// The template's text is kept as is (key order matters in "exports":
	// the first matching condition wins); only the version is put in.
	pj, err := os.ReadFile(filepath.Join(site, "npm", "package.json"))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(pj, new(map[string]any)); err != nil {
		return fmt.Errorf("site/npm/package.json: %w", err)
	}
	verRE := regexp.MustCompile(`"version":\s*"[^"]*"`)
	if !verRE.Match(pj) {
		return errors.New(`site/npm/package.json: no "version" to fill in`)
	}
	pj = verRE.ReplaceAll(pj, []byte(`"version": `+strconv.Quote(version)))
	// The platform packages (native.go), each of this version exactly.
	var deps struct{ OptionalDependencies map[string]string }
	if err := json.Unmarshal(pj, &deps); err != nil {
		return err
	}
	if err := platformsListed(deps.OptionalDependencies); err != nil {
		return fmt.Errorf("site/npm/package.json: %w", err)
	}
	pj = platformDepRE.ReplaceAll(pj, []byte(`"$1": `+strconv.Quote(version)))
	if err := b.write("package.json", pj); err != nil {
		return err
	}
	readme, err := os.ReadFile(filepath.Join(site, "npm", "README.md"))
	if err != nil {
		return err
	}
	if err := b.write("README.md", readme); err != nil {
		return err
	}
	if err := b.writeLicenses("LICENSE", version); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "site/build: npm package protoplay@%s in %s\n", version, out)
	for _, n := range b.written {
		fmt.Fprintf(os.Stderr, "  %-34s %9s\n", n, size(filepath.Join(out, n)))
	}
	return nil
}

// platformDepRE matches a platform package in optionalDependencies.
var platformDepRE = regexp.MustCompile(`"(@protoplay/[a-z0-9-]+)":\s*"[^"]*"`)

// platformsListed checks that deps (optionalDependencies) are the
// platform packages of nativePlatforms.
func platformsListed(deps map[string]string) error {
	var want []string
	for _, p := range nativePlatforms {
		want = append(want, p.name())
		if _, ok := deps[p.name()]; !ok {
			return fmt.Errorf("optionalDependencies lacks %s", p.name())
		}
	}
	if len(deps) != len(want) {
		return fmt.Errorf("optionalDependencies has %d packages, want the %d platform packages %v", len(deps), len(want), want)
	}
	return nil
}

var semverRE = regexp.MustCompile(`^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`)

// moduleVersion is protoplay's version as npm spells it (no "v"):
// internal/version's Base, the one place the version is written, so the
// npm package, the page's About dialog, the CLI, the plugin and the
// generated files' header all say the same (make release-check verifies
// it). A release bumps Base and tags the commit with it.
func moduleVersion(root string) (string, error) {
	v := strings.TrimPrefix(ppversion.Base, "v")
	if !semverRE.MatchString(v) {
		return "", fmt.Errorf("internal/version: Base %q is not a semantic version", ppversion.Base)
	}
	return v, nil
}

// relImport matches a relative module specifier in a declaration file:
// from "./x", import("../x").
var relImport = regexp.MustCompile(`((?:from|import)\s*\(?\s*)"(\.{1,2}/[^"]+)"`)

// fixDeclarationImports gives relative imports in the emitted .d.ts files
// a .js extension: the sources are written for bundler resolution, but a
// consumer with "moduleResolution": "node16"/"nodenext" needs one.
func fixDeclarationImports(dir string) error {
	return filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".d.ts") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fixed := relImport.ReplaceAllFunc(b, func(m []byte) []byte {
			sm := relImport.FindSubmatch(m)
			spec := string(sm[2])
			if strings.HasSuffix(spec, ".js") || strings.HasSuffix(spec, ".css") || strings.HasSuffix(spec, ".proto") {
				return m
			}
			return []byte(string(sm[1]) + strconv.Quote(spec+".js"))
		})
		return os.WriteFile(p, fixed, 0o644)
	})
}

// relJSImport matches a relative module specifier ending in .js in a
// declaration file.
var relJSImport = regexp.MustCompile(`((?:from|import)\s*\(?\s*)"(\.{1,2}/[^"]+)\.js"`)

// writeCTSDeclarations writes a .d.cts beside each .d.ts in dir, its
// relative imports naming the .cjs files: the declarations of the
// require() entry (node.cjs), which TypeScript (node16, nodenext) reads as
// CommonJS. One .d.ts for both would be ESM to it, since the package's
// type is module, and a CommonJS consumer would get TS1479.
func writeCTSDeclarations(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".d.ts") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		cts := relJSImport.ReplaceAll(b, []byte(`$1"$2.cjs"`))
		if err := os.WriteFile(filepath.Join(dir, strings.TrimSuffix(name, ".d.ts")+".d.cts"), cts, 0o644); err != nil {
			return err
		}
	}
	return nil
}
