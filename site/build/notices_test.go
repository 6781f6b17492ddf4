package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// skipOrFail skips, or fails under PROTOPLAY_E2E=1 (make test), where the
// page's inputs are promised.
func skipOrFail(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("PROTOPLAY_E2E") == "1" {
		t.Fatal(why)
	}
	t.Skip("skipping: " + why)
}

// noticeSections splits THIRD_PARTY_NOTICES.txt into its per-component
// sections, keyed by their first line ("name version").
func noticeSections(t *testing.T, text string) map[string]string {
	t.Helper()
	parts := strings.Split(text, strings.Repeat("=", 78)+"\n")
	out := map[string]string{}
	for _, p := range parts[2:] { // title, then the summary
		head, body, _ := strings.Cut(p, "\n")
		out[head] = body
	}
	return out
}

// section finds the section of the component named name (any version).
func section(t *testing.T, secs map[string]string, name string) string {
	t.Helper()
	for head, body := range secs {
		if strings.HasPrefix(head, name+" ") {
			return body
		}
	}
	t.Errorf("the notices have no section for %s", name)
	return ""
}

func goModDir(t *testing.T, path string) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", path).Output()
	if err != nil || strings.TrimSpace(string(out)) == "" {
		t.Fatalf("go list -m %s: %v %s", path, err, out)
	}
	return strings.TrimSpace(string(out))
}

func trimmedFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// TestPageNotices builds the page (quick mode) and checks its
// THIRD_PARTY_NOTICES.txt against what it ships: the Go modules linked into
// the wasm and Go itself with their license files from the module cache
// and GOROOT, the bundled npm packages with theirs from node_modules, and
// no devDependency; and LICENSE.txt, protoplay's own.
func TestPageNotices(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the wasm and the bundles; skipped in -short mode")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "site/node_modules/@codemirror/view")); err != nil {
		skipOrFail(t, "site/node_modules is missing (make site runs npm ci)")
	}
	out := t.TempDir()
	if err := run(root, out, "go", true, 11); err != nil {
		t.Fatal(err)
	}
	text := trimmedFile(t, filepath.Join(out, noticesName))
	if lic := trimmedFile(t, filepath.Join(out, "LICENSE.txt")); lic != trimmedFile(t, filepath.Join(root, "LICENSE")) ||
		!strings.Contains(lic, "Apache License") || !strings.Contains(lic, "Version 2.0, January 2004") {
		t.Errorf("LICENSE.txt is not the repository's Apache-2.0 LICENSE")
	}
	secs := noticeSections(t, text)

	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	goSec := section(t, secs, "Go (standard library and runtime)")
	if !strings.Contains(goSec, trimmedFile(t, filepath.Join(strings.TrimSpace(string(goroot)), "LICENSE"))) {
		t.Errorf("Go's section lacks $GOROOT/LICENSE:\n%.400s", goSec)
	}
	if !strings.Contains(goSec, "wasm_exec.js in worker.js") {
		t.Errorf("Go's section does not say worker.js inlines wasm_exec.js:\n%.300s", goSec)
	}
	for _, m := range []struct{ path, license, in string }{
		{"github.com/bufbuild/protocompile", "Apache-2.0", "protoplay.wasm"},
		{"github.com/dave/jennifer", "MIT", "protoplay.wasm"},
		{"google.golang.org/protobuf", "BSD-3-Clause", "protoplay.wasm"},
		// The interpreter's module (wasm/interp) only.
		{"github.com/traefik/yaegi", "Apache-2.0", "interp.wasm"},
	} {
		sec := section(t, secs, m.path)
		if !strings.Contains(sec, trimmedFile(t, filepath.Join(goModDir(t, m.path), "LICENSE"))) {
			t.Errorf("%s: its LICENSE text is missing:\n%.400s", m.path, sec)
		}
		if !strings.Contains(sec, "License: "+m.license+"\n") || !strings.Contains(sec, "Shipped in: "+m.in+"\n") {
			t.Errorf("%s: want License: %s, shipped in %s:\n%.200s", m.path, m.license, m.in, sec)
		}
	}
	if !strings.Contains(goSec, "Shipped in: protoplay.wasm, interp.wasm, its wasm_exec.js in worker.js") {
		t.Errorf("Go's section does not name both wasm modules:\n%.300s", goSec)
	}
	// A module of the build list that the wasm does not link.
	if strings.Contains(text, "github.com/chromedp") || strings.Contains(text, "github.com/evanw/esbuild") {
		t.Error("the notices list a module the wasm does not link (chromedp or esbuild)")
	}
	for _, pkg := range []string{"@codemirror/view", "@codemirror/state", "@codemirror/language", "@lezer/highlight", "style-mod"} {
		sec := section(t, secs, pkg)
		if !strings.Contains(sec, trimmedFile(t, filepath.Join(root, "site/node_modules", pkg, "LICENSE"))) {
			t.Errorf("%s: its LICENSE text is missing:\n%.300s", pkg, sec)
		}
		if !strings.Contains(sec, "License: MIT\nShipped in: app.js\n") {
			t.Errorf("%s: want MIT, shipped in app.js:\n%.200s", pkg, sec)
		}
	}
	// typescript is a devDependency: installed, never bundled.
	for head := range secs {
		if strings.HasPrefix(head, "typescript ") {
			t.Error("the notices list typescript, which is not bundled")
		}
	}
}

func TestNpmPackageDir(t *testing.T) {
	sep := string(filepath.Separator)
	j := func(s ...string) string { return sep + strings.Join(s, sep) }
	for _, c := range []struct{ in, want string }{
		{j("r", "site", "node_modules", "@codemirror", "view", "dist", "index.js"), j("r", "site", "node_modules", "@codemirror", "view")},
		{j("r", "site", "node_modules", "crelt", "index.js"), j("r", "site", "node_modules", "crelt")},
		{j("r", "node_modules", "a", "node_modules", "b", "x.js"), j("r", "node_modules", "a", "node_modules", "b")},
		{j("r", "site", "src", "main.ts"), ""},
		{j("r", "node_modules", "@scope"), ""},
	} {
		got, ok := npmPackageDir(c.in)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("npmPackageDir(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
}

func TestEscapeModulePath(t *testing.T) {
	if got := escapeModulePath("github.com/BurntSushi/toml"); got != "github.com/!burnt!sushi/toml" {
		t.Errorf("got %q", got)
	}
}

// newTestNotices is a notices over a fake GOROOT and module cache.
func newTestNotices(t *testing.T) *notices {
	t.Helper()
	dir := t.TempDir()
	goroot := filepath.Join(dir, "goroot")
	os.MkdirAll(goroot, 0o755)
	os.WriteFile(filepath.Join(goroot, "LICENSE"), []byte("Go license"), 0o644)
	return &notices{root: filepath.Join(dir, "repo"), goroot: goroot, goVers: "go1.0", modcache: filepath.Join(dir, "modcache"),
		npm: map[string]map[string]bool{}, goFiles: map[string]bool{}, ours: pageSources}
}

// TestNoticesFailWithoutLicense: a shipped Go module or npm package whose
// directory has no license file stops the build, naming it.
func TestNoticesFailWithoutLicense(t *testing.T) {
	t.Run("go", func(t *testing.T) {
		n := newTestNotices(t)
		modDir := filepath.Join(n.modcache, "example.com", "!some!mod@v1.2.3")
		os.MkdirAll(modDir, 0o755)
		os.WriteFile(filepath.Join(modDir, "go.mod"), []byte("module example.com/SomeMod\n"), 0o644)
		bin := []byte("junk" + string(modInfoStart) + "path\texample.com/x\nmod\texample.com/x\t(devel)\t\ndep\texample.com/SomeMod\tv1.2.3\th1:x=\n" + string(modInfoEnd) + "junk")
		if err := n.addWasm("protoplay.wasm", bin); err != nil {
			t.Fatal(err)
		}
		_, err := n.text("1.0.0")
		if err == nil || !strings.Contains(err.Error(), "example.com/SomeMod v1.2.3") || !strings.Contains(err.Error(), "no LICENSE") {
			t.Fatalf("err = %v, want one naming example.com/SomeMod v1.2.3 with no LICENSE", err)
		}
		// With a license, it is listed with its text.
		os.WriteFile(filepath.Join(modDir, "LICENSE.md"), []byte("Permission is hereby granted, free of charge, to any person"), 0o644)
		text, err := n.text("1.0.0")
		if err != nil || !strings.Contains(string(text), "example.com/SomeMod v1.2.3\nLicense: MIT\nShipped in: protoplay.wasm\n\n--- LICENSE.md ---\n\nPermission is hereby granted") {
			t.Fatalf("err %v, notices:\n%s", err, text)
		}
	})
	t.Run("npm", func(t *testing.T) {
		n := newTestNotices(t)
		n.goMods = []*debug.Module{}
		pkg := filepath.Join(n.root, "site", "node_modules", "left-pad")
		os.MkdirAll(pkg, 0o755)
		os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name": "left-pad", "version": "1.3.0", "license": "WTFPL"}`), 0o644)
		meta := `{"outputs": {"../dist/main.js": {"inputs": {"node_modules/left-pad/index.js": {}, "src/page/main.ts": {}, "src/lib/client.ts": {}, "../testdata/example/example.proto": {}, "<define:__X__>": {}}}}}`
		if err := n.addMetafile(meta); err != nil {
			t.Fatal(err)
		}
		_, err := n.text("1.0.0")
		if err == nil || !strings.Contains(err.Error(), "left-pad@1.3.0") || !strings.Contains(err.Error(), "no LICENSE") {
			t.Fatalf("err = %v, want one naming left-pad@1.3.0 with no LICENSE", err)
		}
	})
	t.Run("unknown input", func(t *testing.T) {
		n := newTestNotices(t)
		err := n.addMetafile(`{"outputs": {"../dist/main.js": {"inputs": {"/elsewhere/vendored.js": {}}}}}`)
		if err == nil || !strings.Contains(err.Error(), "/elsewhere/vendored.js") {
			t.Fatalf("err = %v, want one naming the input", err)
		}
	})
	t.Run("page module in the npm package", func(t *testing.T) {
		n := newTestNotices(t)
		n.ours = libSources
		if err := n.addMetafile(`{"outputs": {"index.js": {"inputs": {"src/lib/index.ts": {}}}}}`); err != nil {
			t.Fatalf("a library input: %v", err)
		}
		for _, in := range []string{"src/page/ui.ts", "src/api.ts", "../testdata/example/example.proto"} {
			err := n.addMetafile(`{"outputs": {"index.js": {"inputs": {"src/lib/index.ts": {}, "` + in + `": {}}}}}`)
			if err == nil || !strings.Contains(err.Error(), in) || !strings.Contains(err.Error(), "must not import the page") {
				t.Errorf("%s in the npm package: err = %v, want one naming it and the rule", in, err)
			}
		}
	})
	t.Run("embedded data", func(t *testing.T) {
		n := newTestNotices(t)
		n.goMods = []*debug.Module{}
		n.embedded = []embedded{{"some data", "data/some"}}
		dir := filepath.Join(n.root, "data", "some")
		os.MkdirAll(dir, 0o755)
		if _, err := n.text("1.0.0"); err == nil || !strings.Contains(err.Error(), "some data") || !strings.Contains(err.Error(), "no LICENSE") {
			t.Fatalf("err = %v, want one naming the data with no LICENSE", err)
		}
		os.WriteFile(filepath.Join(dir, "LICENSE"), []byte("Apache License\nVersion 2.0, January 2004"), 0o644)
		os.WriteFile(filepath.Join(dir, "SOURCES.txt"), []byte("# where from\nexample.com/mod v1.0.0\n\n# files\na.proto\n"), 0o644)
		text, err := n.text("1.0.0")
		if err != nil || !strings.Contains(string(text), "some data from example.com/mod v1.0.0\nLicense: Apache-2.0\nShipped in: protoplay.wasm\n") {
			t.Fatalf("err %v, notices:\n%s", err, text)
		}
	})
	// The real embedded data has its license.
	t.Run("googleapis", func(t *testing.T) {
		n := newTestNotices(t)
		n.goMods = []*debug.Module{}
		n.root = filepath.Join("..", "..")
		n.embedded = embeddedData
		text, err := n.text("1.0.0")
		if err != nil || !strings.Contains(string(text), "googleapis: descriptors") || !strings.Contains(string(text), "google.golang.org/genproto/googleapis/api v0.0.0-") ||
			!strings.Contains(string(text), "Protocol Buffers: descriptors of the .proto files protoc bundles (google/protobuf) from github.com/bufbuild/protocompile v0.14.2-0.20261020145055-56248e843b50, google.golang.org/protobuf v1.36.13-0.20261016172727-e9ee2a76ab8e\nLicense: BSD-3-Clause\n") {
			t.Fatalf("err %v, notices:\n%.2000s", err, text)
		}
	})
	t.Run("no module information", func(t *testing.T) {
		if _, err := wasmBuildInfo([]byte("\x00asm\x01\x00\x00\x00")); err == nil {
			t.Fatal("no error for a wasm without module information")
		}
	})
}
