package main

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// site/src is two folders: lib, the code the npm package ships and the
// page shares (the generated contract, the Worker and its client, the
// editors), and page, the playground's own modules. The page imports lib,
// never the reverse: these tests read the import statements of the
// TypeScript sources. (The npm build checks the same from esbuild's
// metafile, see notices.ours, and tsc -p site/src/lib fails on a file
// outside its rootDir.)

// importRE matches the module specifier of an import or export
// statement (from the start of a line), a side-effect import, a CSS
// @import, and a dynamic import().
var importRE = regexp.MustCompile(`(?m:^[ \t]*(?:(?:import|export)\b[^;"'` + "`" + `]*?\bfrom\s*|import\s*|@import\s+)|\bimport\(\s*)["']([^"']+)["']`)

// commentRE matches block comments and whole-line // comments, which
// may quote import statements as examples.
var commentRE = regexp.MustCompile(`(?s:/\*.*?\*/)|(?m:^[ \t]*//.*$)`)

// imports returns the module specifiers that a TypeScript or CSS source
// imports.
func imports(src string) []string {
	var out []string
	for _, m := range importRE.FindAllStringSubmatch(commentRE.ReplaceAllString(src, ""), -1) {
		out = append(out, m[1])
	}
	return out
}

func TestImportsParser(t *testing.T) {
	src := `// import "./commented-out";
/* import { x } from "../page/ui"; */
import "go:wasm_exec";
import type {
  A,
  B,
} from "./api.gen";
import { c } from '../page/ui';
export * from "./common";
export type { D } from "./api.gen";
const m = await import("./inthread");
@import "../lib/palette.css";
const s = "import me not";
`
	got := imports(src)
	want := []string{"go:wasm_exec", "./api.gen", "../page/ui", "./common", "./api.gen", "./inthread", "../lib/palette.css"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("imports = %q, want %q", got, want)
	}
}

// TestLayout: site/src holds lib and page only; every module of lib
// imports only modules of lib and the npm packages the site depends on (or
// Go's wasm_exec.js, or node: modules in the Node entry); page imports
// page, lib and the example schema in testdata.
func TestLayout(t *testing.T) {
	src := filepath.Join("..", "src")
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "lib page" {
		t.Errorf("site/src holds %q, want lib and page only", names)
	}

	var pj struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	b, err := os.ReadFile(filepath.Join("..", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &pj); err != nil {
		t.Fatal(err)
	}
	bare := func(spec string) bool {
		if spec == "go:wasm_exec" || strings.HasPrefix(spec, "node:") {
			return true
		}
		parts := strings.SplitN(spec, "/", 3)
		pkg := parts[0]
		if strings.HasPrefix(pkg, "@") && len(parts) > 1 {
			pkg += "/" + parts[1]
		}
		_, ok := pj.Dependencies[pkg]
		return ok
	}

	allowed := map[string][]string{
		"lib":  {"lib"},
		"page": {"lib", "page", "../../testdata/example", "../../testdata/examples"},
	}
	checked := map[string]int{}
	for folder, may := range allowed {
		root := filepath.Join(src, folder)
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".ts") || strings.HasSuffix(p, ".css")) {
				return err
			}
			text, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(src, p)
			rel = filepath.ToSlash(rel)
			for _, spec := range imports(string(text)) {
				checked[folder]++
				if !strings.HasPrefix(spec, ".") {
					if !bare(spec) {
						t.Errorf("site/src/%s imports %q, which is not a dependency in site/package.json", rel, spec)
					}
					continue
				}
				target := path.Join(path.Dir(rel), spec) // relative to site/src
				ok := false
				for _, dir := range may {
					if target == dir || strings.HasPrefix(target, dir+"/") {
						ok = true
					}
				}
				if !ok {
					t.Errorf("site/src/%s imports %q (site/src/%s): %s may import only %s", rel, spec, target, folder, strings.Join(may, ", "))
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// The scan saw the imports it is about (a broken parser passes nothing).
	if checked["lib"] < 20 || checked["page"] < 20 {
		t.Errorf("imports read: %v; want the lib's and the page's (at least 20 each)", checked)
	}
}

// maxModuleLines is the most lines a TypeScript module under site/src may
// have: past it a module holds more than one part of the page or the
// package, and is split by what each part owns (see site/src/page/main.ts).
const maxModuleLines = 600

// generatedRE matches the header of a generated file (Go's convention,
// its sentence allowed to run over the comment's lines), which the
// line limit leaves out: its length is the contract's.
var generatedRE = regexp.MustCompile(`^// Code generated [^\n]*(?:\n//[^\n]*)*?DO NOT EDIT\.`)

// TestModuleSize: no TypeScript module under site/src is over
// maxModuleLines lines, generated files aside.
func TestModuleSize(t *testing.T) {
	n := 0
	err := filepath.WalkDir(filepath.Join("..", "src"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".ts") {
			return err
		}
		text, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if generatedRE.Match(text) {
			return nil
		}
		n++
		if lines := strings.Count(string(text), "\n"); lines > maxModuleLines {
			rel, _ := filepath.Rel(filepath.Join("..", "src"), p)
			t.Errorf("site/src/%s has %d lines, over %d: split it by what each part owns", filepath.ToSlash(rel), lines, maxModuleLines)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 10 {
		t.Fatalf("checked %d modules under site/src; the walk found too few", n)
	}
}

func TestGeneratedRE(t *testing.T) {
	for text, want := range map[string]bool{
		"// Code generated by x.go from y; DO NOT EDIT.\n":                                                  true,
		"// Code generated by compiler/typescript_test.go from the Go\n// types; DO NOT EDIT. Regenerate\n": true,
		"// Code generated by hand.\n\nexport const x = 1; // DO NOT EDIT.\n":                               false,
		"// The page.\n// Code generated by x; DO NOT EDIT.\n":                                              false,
	} {
		if got := generatedRE.MatchString(text); got != want {
			t.Errorf("generatedRE.MatchString(%q) = %v, want %v", text, got, want)
		}
	}
}
