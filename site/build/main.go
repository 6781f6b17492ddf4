// Command build turns the playground's sources into a directory a static
// server (or `protoplay serve`) can serve as is:
//
//	go run ./site/build [-out site/dist]
//	go run ./site/build -npm .cache/npm/package   (the npm package; see npm.go)
//
// It builds the core for the browser (GOOS=js GOARCH=wasm go build ./wasm)
// and the interpreter's module (./wasm/interp),
// bundles site/src with esbuild's Go API (the Worker, site/src/lib/worker.ts
// with Go's wasm_exec.js inlined, and the page, site/src/page/main.ts),
// names every asset by its content
// hash so it can be cached forever, writes index.html pointing at them, and
// precompresses each file as .gz and .br (github.com/andybalholm/brotli,
// at -brotli quality: 11 by default, make serve asks for 5). Each step
// prints a line as it begins and ends (progress.go).
//
// The page's libraries come from site/node_modules (make site runs npm ci
// first); nothing else is fetched.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/evanw/esbuild/pkg/api"

	protoplay "github.com/protoplay/protoplay"
	"github.com/protoplay/protoplay/compiler"
)

func main() {
	out := flag.String("out", "site/dist", "output `dir` (replaced)")
	root := flag.String("root", ".", "repository root `dir`")
	goCmd := flag.String("go", "go", "the go `command` used to build the wasm")
	dev := flag.Bool("dev", false, "quick build for working on the page: no minification, inline source maps, no brotli")
	quality := flag.Int("brotli", 11, "brotli `quality` of the .br files, 0 to 11: 11 (the default, make site) is the smallest and takes minutes on the wasm; make serve asks for a quick one")
	npm := flag.String("npm", "", "build the npm package `dir` (see npm.go) instead of the page")
	npmNative := flag.String("npm-native", "", "build the npm package's platform packages (native cores, see native.go) into `dir`, one folder each, instead of the page")
	platforms := flag.String("platforms", "host", "the platform packages -npm-native builds: host, all, or a `list` (linux-x64,win32-x64)")
	flag.Parse()
	var err error
	if *npm != "" || *npmNative != "" {
		if *npm != "" {
			err = runNPM(*root, *npm, *goCmd)
		}
		if err == nil && *npmNative != "" {
			err = runNPMNative(*root, *npmNative, *goCmd, *platforms)
		}
	} else {
		if *quality < 0 || *quality > 11 {
			fmt.Fprintln(os.Stderr, "site/build: -brotli: want a quality from 0 to 11")
			os.Exit(2)
		}
		err = run(*root, *out, *goCmd, *dev, *quality)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "site/build:", err)
		os.Exit(1)
	}
}

// prepare resolves the repository root and the output folder (relative
// to the root unless absolute), checks that site/node_modules is there
// (target names the make target that installs it), and empties out.
func prepare(root, out, target string) (absRoot, site, absOut string, err error) {
	if absRoot, err = filepath.Abs(root); err != nil {
		return "", "", "", err
	}
	absOut = out
	if !filepath.IsAbs(absOut) {
		absOut = filepath.Join(absRoot, absOut)
	}
	site = filepath.Join(absRoot, "site")
	if _, err := os.Stat(filepath.Join(site, "node_modules", "@codemirror", "view")); err != nil {
		return "", "", "", errors.New("site/node_modules is missing: run `npm ci` in site/ (" + target + " does)")
	}
	if err := os.RemoveAll(absOut); err != nil {
		return "", "", "", err
	}
	return absRoot, site, absOut, os.MkdirAll(absOut, 0o755)
}

// newBuilder prepares a build into out (see prepare; target names the
// make target) and returns its builder and the version it ships.
func newBuilder(root, out, goCmd, target string) (*builder, string, error) {
	root, site, out, err := prepare(root, out, target)
	if err != nil {
		return nil, "", err
	}
	version, err := moduleVersion(root)
	if err != nil {
		return nil, "", err
	}
	nt, err := newNotices(root, goCmd)
	if err != nil {
		return nil, "", err
	}
	return &builder{root: root, site: site, out: out, notices: nt, brotliQuality: 11, prog: newProgress()}, version, nil
}

func run(root, out, goCmd string, dev bool, quality int) error {
	prog := newProgress()
	prep := prog.step("preparing %s (the go command's module list, for the notices)", out)
	b, version, err := newBuilder(root, out, goCmd, "make site")
	if err != nil {
		return err
	}
	prep("")
	b.dev, b.brotliQuality, b.prog = dev, quality, prog
	// The page's bundles ship as app.js (main.ts) and worker.js.
	b.notices.rename = func(base string) string { return strings.Replace(base, "main.", "app.", 1) }

	start := time.Now()
	// The page's core leaves out the runtime's sources (pageWasmTags);
	// they are an asset of their own, fetched only for runtime=local
	// output and the .zip.
	done := b.prog.step("building the core, ./wasm (GOOS=js GOARCH=wasm go build; minutes when the go command's cache is cold)")
	wasm, err := b.buildWasm(goCmd, "./wasm", pageWasmTags...)
	if err != nil {
		return err
	}
	done(mb(len(wasm)))
	runtimeAsset, err := runtimeSourcesAsset()
	if err != nil {
		return err
	}
	runtimeName := hashedName("runtime.json", runtimeAsset)
	if err := b.write(runtimeName, runtimeAsset); err != nil {
		return err
	}
	if err := b.notices.addWasm("protoplay.wasm", wasm); err != nil {
		return err
	}
	wasmName := hashedName("protoplay.wasm", wasm)
	if err := b.write(wasmName, wasm); err != nil {
		return err
	}
	// The interpreter's module (wasm/interp), which the page fetches only
	// after the core's first output is on screen.
	done = b.prog.step("building the interpreter, ./wasm/interp (GOOS=js GOARCH=wasm go build)")
	interpWasm, err := b.buildWasm(goCmd, "./wasm/interp")
	if err != nil {
		return err
	}
	done(mb(len(interpWasm)))
	if err := b.notices.addWasm("interp.wasm", interpWasm); err != nil {
		return err
	}
	interpName := hashedName("interp.wasm", interpWasm)
	if err := b.write(interpName, interpWasm); err != nil {
		return err
	}
	runExample, err := os.ReadFile(filepath.Join(b.root, "testdata", "example", "main.go"))
	if err != nil {
		return err
	}
	runExampleOpaque, err := os.ReadFile(filepath.Join(b.root, "testdata", "example", "main_opaque.go"))
	if err != nil {
		return err
	}
	wasmExec, err := findWasmExec(goCmd)
	if err != nil {
		return err
	}

	// The Worker first: the page needs its hashed name.
	done = b.prog.step("bundling the Worker and the page (esbuild)")
	worker, err := b.bundle("src/lib/worker.ts", nil, wasmExec)
	if err != nil {
		return err
	}
	workerName := hashedName("worker.js", worker[".js"])
	if err := b.write(workerName, worker[".js"]); err != nil {
		return err
	}
	prebuilt, err := prebuildExample(b.root)
	if err != nil {
		return err
	}
	page, err := b.bundle("src/page/main.ts", map[string]string{
		"__PREBUILT_EXAMPLE__":       prebuilt,
		"__WORKER_URL__":             strconv.Quote("./" + workerName),
		"__WASM_URL__":               strconv.Quote("./" + wasmName),
		"__WASM_SIZE__":              strconv.Itoa(len(wasm)),
		"__RUNTIME_URL__":            strconv.Quote("./" + runtimeName),
		"__INTERP_WASM_URL__":        strconv.Quote("./" + interpName),
		"__INTERP_WASM_SIZE__":       strconv.Itoa(len(interpWasm)),
		"__EXAMPLE_PROGRAM__":        strconv.Quote(string(runExample)),
		"__EXAMPLE_PROGRAM_OPAQUE__": strconv.Quote(string(runExampleOpaque)),
		"__PROTOPLAY_VERSION__":      strconv.Quote(version),
	}, wasmExec)
	if err != nil {
		return err
	}
	done(fmt.Sprintf("app.js %s, worker.js %s", mb(len(page[".js"])), mb(len(worker[".js"]))))
	appJS := hashedName("app.js", page[".js"])
	appCSS := hashedName("app.css", page[".css"])
	if err := b.write(appJS, page[".js"]); err != nil {
		return err
	}
	if err := b.write(appCSS, page[".css"]); err != nil {
		return err
	}
	html, err := os.ReadFile(filepath.Join(b.site, "index.html"))
	if err != nil {
		return err
	}
	html = bytes.ReplaceAll(html, []byte("{{app.js}}"), []byte(appJS))
	html = bytes.ReplaceAll(html, []byte("{{app.css}}"), []byte(appCSS))
	html = bytes.ReplaceAll(html, []byte("{{protoplay.wasm}}"), []byte(wasmName))
	html = bytes.ReplaceAll(html, []byte("{{worker.js}}"), []byte(workerName))
	if bytes.Contains(html, []byte("{{")) {
		return errors.New("site/index.html: unknown {{placeholder}} left")
	}
	if err := b.write("index.html", html); err != nil {
		return err
	}
	for _, f := range []string{"favicon.svg"} {
		data, err := os.ReadFile(filepath.Join(b.site, "static", f))
		if err != nil {
			return err
		}
		if err := b.write(f, data); err != nil {
			return err
		}
	}
	// The license and the third-party notices, linked from the About
	// dialog (src/page/about.ts).
	if err := b.writeLicenses("LICENSE.txt", version); err != nil {
		return err
	}
	what := fmt.Sprintf("compressing %d files (gzip -9, brotli quality %d, cached in .cache/brotli)", len(b.written), b.brotliQuality)
	if b.dev {
		what = fmt.Sprintf("compressing %d files (gzip -9; -dev: no brotli)", len(b.written))
	}
	done = b.prog.step("%s", what)
	if err := b.compress(); err != nil {
		return err
	}
	done("")
	b.report(time.Since(start))
	return nil
}

// prebuildExample compiles the built-in example with the core, natively and
// with default options, as the page's first-visit output: the page shows it
// while the wasm loads and replaces it with the browser's own compile
// (the same bytes: the core is deterministic). It returns a JS expression.
func prebuildExample(root string) (string, error) {
	src, err := os.ReadFile(filepath.Join(root, "testdata", "example", "example.proto"))
	if err != nil {
		return "", err
	}
	res := compiler.Compile(context.Background(), compiler.Request{Sources: map[string]string{"example.proto": string(src)}})
	if err := res.Err(); err != nil {
		return "", fmt.Errorf("the example does not compile: %w", err)
	}
	type file struct {
		Name    string `json:"name"`
		Content string `json:"content"`
	}
	out := struct {
		Source    string `json:"source"`
		Generated []file `json:"generated"`
	}{Source: string(src)}
	for _, g := range res.Generated {
		out.Generated = append(out.Generated, file{g.Name, g.Content})
	}
	b, err := json.Marshal(out)
	return string(b), err
}

type builder struct {
	root, site, out string
	dev             bool
	brotliQuality   int // of the .br files (-brotli)
	written         []string
	notices         *notices  // what the bundles and the wasm ship
	prog            *progress // prints each step as it goes
}

// writeLicenses writes protoplay's LICENSE (as licenseName) and the
// third-party notices (noticesName) of everything built so far.
func (b *builder) writeLicenses(licenseName, version string) error {
	lic, err := os.ReadFile(filepath.Join(b.root, "LICENSE"))
	if err != nil {
		return fmt.Errorf("protoplay's license: %w", err)
	}
	if err := b.write(licenseName, lic); err != nil {
		return err
	}
	text, err := b.notices.text(version)
	if err != nil {
		return fmt.Errorf("third-party notices: %w", err)
	}
	return b.write(noticesName, text)
}

// pageWasmTags are the build tags of the page's core:
// protoplay_lazyruntime leaves the runtime's sources (runtime_sources.go
// at the repository root) out of the wasm, and wasm/runtime_lazy.go
// fetches them from the runtime asset (runtimeSourcesAsset) when
// runtime=local output first needs them; the page passes its URL as
// PROTOPLAY_RUNTIME_URL. That saves 106 KB of the core's brotli size
// for a request most edits never make. The npm package's core keeps them
// embedded (one file to ship, and Node's entry has no asset server).
var pageWasmTags = []string{"protoplay_lazyruntime"}

// runtimeSourcesAsset is the page's runtime asset: the JSON object
// protoplay.RuntimeFiles returns (slash-separated path -> content), what
// the core built with pageWasmTags loads.
func runtimeSourcesAsset() ([]byte, error) {
	files, err := protoplay.RuntimeFiles()
	if err != nil {
		return nil, fmt.Errorf("the runtime's sources: %w", err)
	}
	return json.Marshal(files)
}

// Where the core's bytes are (issue 14 asks for at most 2.0 MB brotli),
// measured on 2026-11-30 with Go 1.26 at 88bb8f3 plus packDataSegments:
// 16.76 MB raw, 3.17 MB gzip, 2.212 MB brotli (quality 11, 16 MiB
// window; each part below compressed alone, so the parts add up to a
// little more than the whole).
//
//   - Code section, 10.09 MB raw, 1.379 MB brotli. By package (quality 9,
//     alone): the generator compiler/gogen 173 KB, Go's runtime 249 KB,
//     protobuf-go 330 KB (internal/impl 143, filedesc 43, protodesc 31,
//     protoreflect 22, proto 23, text and prototext 29, dynamicpb 12...),
//     protocompile 240 KB (parser 69, linker 64, options 42, ast 28,
//     sourceinfo 18...), the Go formatter go/* 130 KB, reflect 65 KB, the
//     payload codec compiler/payload 51 KB and the runtime packages it
//     reuses for ProtoJSON and text (runtime/protojson, prototext, wire
//     and the runtime/wkt types) 88 KB, encoding/json 35 KB, time 29 KB,
//     slices' generic sorts 26 KB, fmt 17 KB.
//   - Data section, 6.63 MB raw, 845 KB brotli (957 KB before packing):
//     type data and strings 232 KB; the pclntab's function names, file
//     tables and pc-value tables 294 KB (pctab alone 235 KB); the
//     function table with each function's funcdata (stack maps, inline
//     trees) 259 KB; findfunctab 17 KB (2.9 MB raw: a GOOS=js PC is
//     function index << 16, so every function covers 16 of its buckets);
//     noptrdata and data 51 KB. All of it follows from the code linked:
//     only less code makes it smaller.
//
// Nothing in the core calls reflect's Method or MethodByName with a
// name it does not know (-ldflags=-dumpdep shows no <ReflectMethod>
// symbol; descfmt's MethodByName("Get") keeps only methods named Get),
// so no exported method is kept for reflection's sake.
//
// What 2.0 MB would take: about 212 KB more. The one part big enough that
// is off the parse-link-generate loop is the Encode/decode side: the
// payload codec with the runtime packages only it links, about 140 KB of
// code at quality 9 plus its share of the data section, so roughly 150 to
// 190 KB of the core (an estimate from the sizes above: compiler imports
// payload for its schema and Module, so no build without it exists yet).
// Moving it to a lazily loaded module of its own (a second Go instance
// with protocompile, protobuf-go and a runtime of its own, 1.5 MB brotli
// or more, fetched when the panel opens) needs the Worker to route
// encode, decode, wireView, decodeRaw, sample, check and module to it;
// and check runs after every compile (site/src/page/checks.ts afterCompile),
// so that module would parse and link every edit a second time, on the
// same two cores. With turning inlining off for protocompile and
// protobuf-go as well (-92 KB, +9% CPU per edit, see coreNoInline), the
// core would come to about 1.95 to 2.0 MB.

// buildWasm compiles pkg (./wasm, the core, or ./wasm/interp, the
// interpreter) for the browser, with the build tags given. -trimpath keeps machine paths out of the
// binary; -s drops the symbol table (Go's wasm panics still name
// functions, from pclntab). Both build against the patched modules
// (leanEnv, lean.go). Inlining is turned off where it only makes
// code bigger: wasmNoInline for every module, coreNoInline as well for the
// core (packages the build does not link are ignored). The module's data
// section is then rewritten with fewer segments (packDataSegments,
// wasmdata.go: -118 KB brotli on the core).
func (b *builder) buildWasm(goCmd, pkg string, tags ...string) ([]byte, error) {
	tmp := filepath.Join(b.out, "."+filepath.Base(pkg)+".wasm.tmp")
	args := []string{"build", "-trimpath", "-ldflags=-s -w"}
	if len(tags) > 0 {
		args = append(args, "-tags="+strings.Join(tags, ","))
	}
	noInline := wasmNoInline
	env := append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if pkg == "./wasm" {
		noInline = append(append([]string(nil), wasmNoInline...), coreNoInline...)
	}
	// The patched modules (lean.go): protocompile without its blank
	// imports and jennifer without regexp for the core, yaegi reporting a
	// panic's statement for the interpreter.
	lean, err := leanEnv(b.root, goCmd)
	if err != nil {
		return nil, err
	}
	env = append(env, lean...)
	for _, p := range noInline {
		args = append(args, "-gcflags="+p+"=-l")
	}
	cmd := exec.Command(goCmd, append(args, "-o", tmp, pkg)...)
	cmd.Dir = b.root
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("building the wasm (%s): %w", pkg, err)
	}
	defer os.Remove(tmp)
	module, err := os.ReadFile(tmp)
	if err != nil {
		return nil, err
	}
	// Fewer, longer data segments (wasmdata.go).
	packed, err := packDataSegments(module)
	if err != nil {
		return nil, fmt.Errorf("packing the data segments of the wasm (%s): %w", pkg, err)
	}
	return packed, nil
}

// wasmNoInline are the packages compiled without inlining into the wasm:
// the Go generator, whose jennifer call chains (jen.Id(...).Op(...)...)
// inlining expanded into 4.1 MB of the 13 MB of code, and jennifer
// itself. Without it the module is 16.5 MB instead of 20.3 MB raw, 2.50 MB
// instead of 2.97 MB brotli. Their speed matters little since the
// workspace reuses the printed Go of whatever an edit did not change
// (gogen.Cache).
var wasmNoInline = []string{
	"github.com/protoplay/protoplay/compiler/gogen",
	"github.com/dave/jennifer/jen",
}

// coreNoInline are the core's packages off the parse-link-generate loop,
// or on it only for small inputs, also compiled without inlining: the
// payload codec and the runtime it uses, the text encoding, fmt, time,
// the Go formatter (go/format and what it imports: it formats only the
// output that changed), the descriptor packages protocompile uses once
// per file (protodesc, descriptorpb, protoregistry, sourceinfo), dynamicpb
// and the JSON bridge (encoding/json, the compiler package, the wasm
// main). Measured with Go 1.26 on the core (-trimpath -ldflags=-s -w,
// brotli quality 11, 16 MiB window): 18.11 MB raw, 3.87 MB gzip, 2.66 MB
// brotli with wasmNoInline alone; 17.91 MB, 3.67 MB, 2.51 MB with these
// too. BenchmarkCompile* (compiler, native, same flags) showed no
// difference beyond noise in CPU time. (regexp, protojson and the known
// types were on the list until lean.go took them out of the core.)
//
// Turning inlining off for all of protocompile and
// google.golang.org/protobuf as well was measured again on 2026-11-30, on
// the core with the runtime sources and the patched modules out (16.27 MB
// raw, 2.396 MB brotli): 16.09 MB raw, 2.304 MB brotli (-92 KB), for
// about 9% more CPU (user time of BenchmarkCompileLarge and
// BenchmarkWorkspaceEditDLP/go under GOOS=js in Node, 26.5 s against
// 24.2 s, two alternating runs each). Most of the bytes are protoreflect
// (its SourcePath appenders) and filedesc (-142 of -184 KB raw); those two
// alone (with defval, order, tag, messageset, gofeaturespb) give 2.355 MB
// brotli (-40 KB), but -l also stops other packages inlining their small
// accessors (Fields, Len, Get, ValueOf...), which the linker and the
// generator call per field, and the loaded machine could not tell that
// cost from noise. Neither is taken: the edit loop is what the page
// feels; strconv and unicode keep inlining too, as the protocompile lexer
// calls their small functions.
var coreNoInline = []string{
	"fmt",
	"time",
	"encoding/json",
	"compress/flate",
	"compress/gzip",
	"text/tabwriter",
	"go/ast",
	"go/build/constraint",
	"go/doc/comment",
	"go/format",
	"go/parser",
	"go/printer",
	"go/scanner",
	"go/token",
	"google.golang.org/protobuf/encoding/prototext",
	"google.golang.org/protobuf/internal/descfmt",
	"google.golang.org/protobuf/internal/encoding/text",
	"google.golang.org/protobuf/reflect/protodesc",
	"google.golang.org/protobuf/reflect/protoregistry",
	"google.golang.org/protobuf/types/descriptorpb",
	"google.golang.org/protobuf/types/dynamicpb",
	"github.com/bufbuild/protocompile/sourceinfo",
	"github.com/protoplay/protoplay/compiler",
	"github.com/protoplay/protoplay/compiler/payload",
	"github.com/protoplay/protoplay/runtime/...",
	"github.com/protoplay/protoplay/wasm",
}

// findWasmExec locates Go's JS glue for the running toolchain: lib/wasm
// since Go 1.24, misc/wasm before.
func findWasmExec(goCmd string) (string, error) {
	outb, err := exec.Command(goCmd, "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOROOT: %w", err)
	}
	goroot := strings.TrimSpace(string(outb))
	for _, dir := range []string{"lib/wasm", "misc/wasm"} {
		p := filepath.Join(goroot, dir, "wasm_exec.js")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("wasm_exec.js not found under %s/lib/wasm or misc/wasm", goroot)
}

// bundle runs esbuild on one of the page's entry points and returns its
// outputs by extension (".js", and ".css" when the entry imports CSS).
func (b *builder) bundle(entry string, define map[string]string, wasmExec string) (map[string][]byte, error) {
	outs, err := b.esbuild(api.BuildOptions{
		EntryPoints:       []string{filepath.Join(b.site, entry)},
		Format:            api.FormatESModule,
		Platform:          api.PlatformBrowser,
		MinifyWhitespace:  !b.dev,
		MinifyIdentifiers: !b.dev,
		MinifySyntax:      !b.dev,
		Sourcemap:         map[bool]api.SourceMap{true: api.SourceMapInline, false: api.SourceMapNone}[b.dev],
		Define:            define,
		Loader:            map[string]api.Loader{".proto": api.LoaderText},
	}, wasmExec)
	if err != nil {
		return nil, err
	}
	byExt := map[string][]byte{}
	for name, data := range outs {
		byExt[filepath.Ext(name)] = data
	}
	return byExt, nil
}

// esbuild bundles o (its entry points, format, platform, minification,
// defines and loaders) with what every build here shares: ES2022 unless
// o says, legal comments at the end, site/tsconfig.json, "go:wasm_exec"
// resolved to wasmExec, and the inputs recorded for the notices. It
// returns the outputs by path relative to the output directory.
func (b *builder) esbuild(o api.BuildOptions, wasmExec string) (map[string][]byte, error) {
	o.AbsWorkingDir = b.site
	o.Bundle = true
	o.Outdir = b.out
	o.Write = false
	if o.Target == 0 {
		o.Target = api.ES2022
	}
	o.LegalComments = api.LegalCommentsEndOfFile
	o.Charset = api.CharsetUTF8
	o.Tsconfig = filepath.Join(b.site, "tsconfig.json")
	o.LogLevel = api.LogLevelWarning
	o.Metafile = true
	o.Plugins = []api.Plugin{{
		// "go:wasm_exec" is the toolchain's wasm_exec.js, whose
		// protocol must match the Go that built the wasm.
		Name: "go-wasm-exec",
		Setup: func(pb api.PluginBuild) {
			pb.OnResolve(api.OnResolveOptions{Filter: `^go:wasm_exec$`}, func(api.OnResolveArgs) (api.OnResolveResult, error) {
				return api.OnResolveResult{Path: wasmExec}, nil
			})
		},
	}}
	res := api.Build(o)
	if len(res.Errors) > 0 {
		msgs := api.FormatMessages(res.Errors, api.FormatMessagesOptions{Kind: api.ErrorMessage})
		return nil, fmt.Errorf("esbuild %v:\n%s", o.EntryPoints, strings.Join(msgs, ""))
	}
	if err := b.notices.addMetafile(res.Metafile); err != nil {
		return nil, err
	}
	outs := map[string][]byte{}
	for _, f := range res.OutputFiles {
		rel, err := filepath.Rel(b.out, f.Path)
		if err != nil {
			return nil, err
		}
		outs[filepath.ToSlash(rel)] = f.Contents
	}
	return outs, nil
}

func (b *builder) write(name string, data []byte) error {
	b.written = append(b.written, name)
	return os.WriteFile(filepath.Join(b.out, name), data, 0o644)
}

// compress writes name.gz and name.br beside each file when that saves at
// least a tenth, so the server can send the smaller form as is. Brotli is
// github.com/andybalholm/brotli (a Go port of Google's encoder) at
// b.brotliQuality (-brotli; 11 for make site) with a 16 MiB window, so
// every machine builds the same .br files with no brotli command
// installed; quality 11 on the two wasm modules takes minutes, so each .br
// is cached under .cache/brotli by the SHA-256 of its input and the
// quality (and skipped by -dev builds). The files are compressed in
// parallel; each one over 1 MB says when it is done.
func (b *builder) compress() error {
	var g errgroup
	for _, name := range b.written {
		g.Go(func() error { return b.compressOne(name) })
	}
	return g.Wait()
}

func (b *builder) compressOne(name string) error {
	p := filepath.Join(b.out, name)
	data, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(data)
	if err := zw.Close(); err != nil {
		return err
	}
	if buf.Len() < len(data)*9/10 {
		if err := os.WriteFile(p+".gz", buf.Bytes(), 0o644); err != nil {
			return err
		}
	}
	if b.dev {
		return nil
	}
	t0 := time.Now()
	br, from, err := b.brotliFrom(data)
	if err != nil {
		return fmt.Errorf("brotli %s: %w", name, err)
	}
	if len(data) > 1e6 && b.prog != nil {
		b.prog.printf("  %s: %s, brotli %s (%s) in %.1fs", name, mb(len(data)), mb(len(br)), from, time.Since(t0).Seconds())
	}
	if len(br) < len(data)*9/10 {
		return os.WriteFile(p+".br", br, 0o644)
	}
	return nil
}

// brotli compresses data at b.brotliQuality, through the cache.
func (b *builder) brotli(data []byte) ([]byte, error) {
	br, _, err := b.brotliFrom(data)
	return br, err
}

// brotliFrom is brotli, also saying where the bytes came from: the cache
// at the quality asked for or a better one (a quick build reuses what a
// make site left), or compressed now.
func (b *builder) brotliFrom(data []byte) ([]byte, string, error) {
	sum := sha256.Sum256(data)
	key := filepath.Join(b.root, ".cache", "brotli", hex.EncodeToString(sum[:]))
	for q := 11; q >= b.brotliQuality; q-- {
		if br, err := os.ReadFile(fmt.Sprintf("%s.q%d.br", key, q)); err == nil {
			return br, fmt.Sprintf("quality %d, cached", q), nil
		}
	}
	cache := fmt.Sprintf("%s.q%d.br", key, b.brotliQuality)
	var buf bytes.Buffer
	w := brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: b.brotliQuality, LGWin: 24})
	if _, err := w.Write(data); err != nil {
		return nil, "", err
	}
	if err := w.Close(); err != nil {
		return nil, "", err
	}
	if err := os.MkdirAll(filepath.Dir(cache), 0o755); err == nil {
		tmp := cache + ".tmp"
		if os.WriteFile(tmp, buf.Bytes(), 0o644) == nil {
			os.Rename(tmp, cache)
		}
		pruneCache(filepath.Dir(cache), 24)
	}
	return buf.Bytes(), fmt.Sprintf("quality %d", b.brotliQuality), nil
}

// pruneCache removes all but the keep most recently written .br files of
// dir, so that rebuilding the wasm again and again does not fill the disk.
func pruneCache(dir string, keep int) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type file struct {
		name string
		mod  time.Time
	}
	var files []file
	for _, e := range ents {
		if info, err := e.Info(); err == nil && strings.HasSuffix(e.Name(), ".br") {
			files = append(files, file{e.Name(), info.ModTime()})
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].mod.After(files[j].mod) })
	for i := keep; i < len(files); i++ {
		os.Remove(filepath.Join(dir, files[i].name))
	}
}

// errgroup runs functions in goroutines and keeps the first error.
type errgroup struct {
	wg  sync.WaitGroup
	mu  sync.Mutex
	err error
}

func (g *errgroup) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.mu.Lock()
			if g.err == nil {
				g.err = err
			}
			g.mu.Unlock()
		}
	}()
}

func (g *errgroup) Wait() error {
	g.wg.Wait()
	return g.err
}

func (b *builder) report(took time.Duration) {
	names := append([]string(nil), b.written...)
	sort.Strings(names)
	fmt.Fprintf(os.Stderr, "site/build: wrote %s in %.1fs\n", b.out, took.Seconds())
	for _, n := range names {
		line := fmt.Sprintf("  %-34s %9s", n, size(filepath.Join(b.out, n)))
		for _, ext := range []string{".gz", ".br"} {
			if s := size(filepath.Join(b.out, n+ext)); s != "" {
				line += fmt.Sprintf("  %s %9s", ext[1:], s)
			}
		}
		fmt.Fprintln(os.Stderr, line)
	}
}

func size(p string) string {
	st, err := os.Stat(p)
	if err != nil {
		return ""
	}
	return strconv.FormatInt(st.Size(), 10)
}

// hashedName inserts a short content hash before the extension:
// app.js -> app-1a2b3c4d5e.js. Assets so named never change, so they can
// be cached for good; only index.html is revalidated.
func hashedName(name string, data []byte) string {
	sum := sha256.Sum256(data)
	ext := filepath.Ext(name)
	return strings.TrimSuffix(name, ext) + "-" + hex.EncodeToString(sum[:5]) + ext
}
