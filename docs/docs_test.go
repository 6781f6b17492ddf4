// Package docs_test checks the documentation against the repository: the
// pages the README promises exist, every relative link and anchor in
// README.md and docs/*.md resolves, no page carries a date (only
// docs/benchmarks.md's header and CHANGELOG.md may), and every flag,
// generator option and URL parameter a page quotes exists in the code, and
// the other way round. So the docs and the code cannot drift apart.
package docs_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/protoplay/protoplay/compiler/gogen"
)

// root is the repository root, the parent of docs/.
const root = ".."

// pages are the reference pages, one per topic, each linked from the
// README's table.
var pages = []string{
	"architecture.md",
	"benchmarks.md",
	"breaking.md",
	"cli.md",
	"conformance.md",
	"generated-code.md",
	"grpc-connect.md",
	"json-text.md",
	"limits.md",
	"npm.md",
	"options.md",
	"playground.md",
	"plugin.md",
}

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// docFiles are the Markdown files the checks cover, relative to root.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md", "CHANGELOG.md"}
	md, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range md {
		files = append(files, "docs/"+filepath.Base(p))
	}
	return files
}

func TestPages(t *testing.T) {
	readme := read(t, "README.md")
	if n := strings.Count(readme, "\n"); n >= 250 {
		t.Errorf("README.md has %d lines; it is the two-minute overview, under 250", n)
	}
	have := map[string]bool{}
	md, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	for _, p := range md {
		have[filepath.Base(p)] = true
	}
	for _, p := range pages {
		if !have[p] {
			t.Errorf("docs/%s is missing", p)
		}
		if !strings.Contains(readme, "](docs/"+p+")") {
			t.Errorf("README.md does not link docs/%s", p)
		}
		delete(have, p)
	}
	for p := range have {
		t.Errorf("docs/%s is not in this test's list of pages (add it, and link it from the README)", p)
	}
	// The two commands come first, and the Makefile has them.
	mk := read(t, "Makefile")
	for _, target := range []string{"serve", "test"} {
		if !regexp.MustCompile(`(?m)^` + target + `:`).MatchString(mk) {
			t.Errorf("the Makefile has no %s target", target)
		}
		cmd := "make " + target
		if i := strings.Index(readme, cmd); i < 0 || i > strings.Index(readme, "\n## ") {
			t.Errorf("README.md does not show %q before its first section", cmd)
		}
	}
}

var (
	linkRE    = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)\)`)
	headingRE = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *#*$`)
)

// prose is md without its fenced code blocks and inline code spans, where
// brackets are code, not links.
func prose(md string) string {
	var b strings.Builder
	fenced := false
	for _, line := range strings.SplitAfter(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			b.WriteString("\n")
			continue
		}
		if fenced {
			b.WriteString("\n")
			continue
		}
		b.WriteString(regexp.MustCompile("`[^`]*`").ReplaceAllString(line, "``"))
	}
	return b.String()
}

// anchors are the ids GitHub gives md's headings: lower case, punctuation
// other than - and _ dropped, spaces as -, repeats numbered -1, -2, ...
func anchors(md string) map[string]bool {
	ids := map[string]bool{}
	seen := map[string]int{}
	fenced := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		m := headingRE.FindStringSubmatch(line)
		if fenced || m == nil {
			continue
		}
		id := slug(m[1])
		if n := seen[id]; n > 0 {
			ids[id+"-"+strconv.Itoa(n)] = true
		} else {
			ids[id] = true
		}
		seen[id]++
	}
	return ids
}

func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"The element: `<protoplay-editor>`": "the-element-protoplay-editor",
		"ProtoJSON and text format":         "protojson-and-text-format",
		"Imports of other Go packages":      "imports-of-other-go-packages",
		"gRPC and Connect":                  "grpc-and-connect",
	} {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLinks(t *testing.T) {
	for _, file := range docFiles(t) {
		text := read(t, file)
		for _, m := range linkRE.FindAllStringSubmatch(prose(text), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, frag, _ := strings.Cut(target, "#")
			dest := file
			if path != "" {
				dest = filepath.ToSlash(filepath.Join(filepath.Dir(file), path))
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(dest))); err != nil {
					t.Errorf("%s: link %q: %s does not exist", file, target, dest)
					continue
				}
			}
			if frag == "" {
				continue
			}
			if !strings.HasSuffix(dest, ".md") {
				t.Errorf("%s: link %q: an anchor into a file that is not Markdown", file, target)
				continue
			}
			if !anchors(read(t, dest))[frag] {
				t.Errorf("%s: link %q: %s has no heading with the id %q", file, target, dest, frag)
			}
		}
	}
}

var dateRE = regexp.MustCompile(`\b(19|20)\d\d-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])\b|` +
	`\b(January|February|March|April|May|June|July|August|September|October|November|December) +\d{1,2}, +(19|20)\d\d\b|` +
	`\b\d{1,2} +(January|February|March|April|May|June|July|August|September|October|November|December) +(19|20)\d\d\b`)

// TestNoDates: the docs describe the product as it is; dates belong to
// the changelog and to the benchmark run's header.
func TestNoDates(t *testing.T) {
	files := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".go") || strings.HasSuffix(p, ".png") {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		text := read(t, file)
		if file == "docs/benchmarks.md" {
			i := strings.Index(text, "\n## Method")
			if i < 0 {
				t.Errorf("%s: no Method section after the header", file)
				continue
			}
			text = text[i:]
		}
		for i, line := range strings.Split(text, "\n") {
			if d := dateRE.FindString(line); d != "" {
				t.Errorf("%s:%d: a date (%s); the docs say what is, history goes to git and CHANGELOG.md", file, i+1, d)
			}
		}
	}
}

// flagSources are the directories whose non-test Go files define the
// command-line flags the docs may quote.
var flagSources = []string{"cmd/protoplay", "cmd/protoc-gen-protoplay", "cmd/conformance-testee", "internal/cliflag", "bench/cmd/benchrun"}

// foreignFlags are flags of other programs that the docs quote, with the
// program.
var foreignFlags = map[string]string{
	"plugin":              "protoc",
	"protoplay_out":       "protoc",
	"protoplay_opt":       "protoc",
	"decode_raw":          "protoc",
	"descriptor_set_out":  "protoc",
	"include_imports":     "protoc",
	"go_out":              "protoc (its error for protoc-gen-go's output, which docs/benchmarks.md quotes)",
	"enforce_recommended": "the conformance runner",
	"maximum_edition":     "the conformance runner",
	"no-reference":        "conformance/run.sh",
	"strict":              "tsc (make lint)",
}

var flagMethods = map[string]bool{
	"String": true, "StringVar": true, "Bool": true, "BoolVar": true, "Int": true, "IntVar": true,
	"Int64": true, "Int64Var": true, "Uint": true, "UintVar": true, "Uint64": true, "Uint64Var": true,
	"Float64": true, "Float64Var": true, "Duration": true, "DurationVar": true, "Var": true,
	"Func": true, "BoolFunc": true, "TextVar": true,
}

// definedFlags parses dir's Go files for flag definitions (fs.String("o",
// ...), fs.Var(&v, "opt", ...)) and for flags handled by hand (string
// literals such as "--version"), by name without dashes.
func definedFlags(t *testing.T, dir string) map[string]bool {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(dir), "*.go"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no Go files in %s: %v", dir, err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	names := map[string]bool{}
	literal := regexp.MustCompile(`^--?([a-z][a-z0-9_-]*)$`)
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok || !flagMethods[sel.Sel.Name] {
					return true
				}
				for _, a := range n.Args {
					if lit, ok := a.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						if s, err := strconv.Unquote(lit.Value); err == nil {
							names[s] = true
						}
						break
					}
				}
			case *ast.BasicLit:
				if n.Kind == token.STRING {
					if s, err := strconv.Unquote(n.Value); err == nil {
						if m := literal.FindStringSubmatch(s); m != nil {
							names[m[1]] = true
						}
					}
				}
			}
			return true
		})
	}
	return names
}

var docFlagRE = regexp.MustCompile("(?:^|[\\s`(\\[|])--([a-z][a-z0-9_-]*[a-z0-9])")

// TestFlagsExist: every --flag a page quotes is defined by protoplay's
// commands (or is a named flag of protoc or the conformance runner), and
// every flag of protoplay's CLI is in docs/cli.md.
func TestFlagsExist(t *testing.T) {
	defined := map[string]bool{}
	for _, dir := range flagSources {
		for n := range definedFlags(t, dir) {
			defined[n] = true
		}
	}
	for _, file := range docFiles(t) {
		if file == "CHANGELOG.md" {
			continue
		}
		for i, line := range strings.Split(read(t, file), "\n") {
			for _, m := range docFlagRE.FindAllStringSubmatch(line, -1) {
				if !defined[m[1]] && foreignFlags[m[1]] == "" {
					t.Errorf("%s:%d: --%s is not a flag of protoplay's commands", file, i+1, m[1])
				}
			}
		}
	}
	cli := read(t, "docs/cli.md")
	cmd := definedFlags(t, "cmd/protoplay")
	var missing []string
	for n := range cmd {
		if n == "h" || n == "help" {
			continue
		}
		if !strings.Contains(cli, "--"+n) && !(len(n) == 1 && strings.Contains(cli, "`-"+n+" ")) {
			missing = append(missing, n)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("docs/cli.md does not document these flags of protoplay: %q", missing)
	}
}

// TestOptionsDocumented: every generator option gogen knows is a row of
// docs/options.md's table, every row is an option gogen knows, and every
// value the table gives is one gogen accepts.
func TestOptionsDocumented(t *testing.T) {
	_, err := gogen.ParseOptions("no_such_option=1")
	m := regexp.MustCompile(`\(known: ([^)]*)\)`).FindStringSubmatch(func() string {
		if err == nil {
			return ""
		}
		return err.Error()
	}())
	if m == nil {
		t.Fatalf("gogen.ParseOptions no longer lists the known options in its error: %v", err)
	}
	known := map[string]bool{}
	for _, k := range strings.Split(m[1], ", ") {
		known[k] = true
	}
	rows := map[string]string{} // option -> values cell
	for _, line := range strings.Split(read(t, "docs/options.md"), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		rows[strings.Trim(strings.TrimSpace(cells[1]), "`")] = cells[2]
	}
	for k := range known {
		if _, ok := rows[k]; !ok {
			t.Errorf("docs/options.md has no row for the option %s", k)
		}
	}
	code := regexp.MustCompile("`([^`]+)`")
	for k, values := range rows {
		if !known[k] {
			t.Errorf("docs/options.md documents %q, which gogen.ParseOptions does not know", k)
			continue
		}
		if k == "M<file>" {
			if _, err := gogen.ParseOptions("Mfoo.proto=example.com/foo;foopb"); err != nil {
				t.Errorf("M<file>: %v", err)
			}
			continue
		}
		for _, v := range code.FindAllStringSubmatch(values, -1) {
			if _, err := gogen.ParseOptions(k + "=" + v[1]); err != nil {
				t.Errorf("docs/options.md: %s=%s: %v", k, v[1], err)
			}
		}
	}
}

var (
	paramUseRE = regexp.MustCompile(`params\.get\("([a-z]+)"\)`)
	paramDocRE = regexp.MustCompile("`[?&]([a-z]+)=")
)

// TestURLParameters: every URL parameter a page quotes (`?name=`) is read
// by the playground's code, and every one it reads is in
// docs/playground.md.
func TestURLParameters(t *testing.T) {
	used := map[string]bool{}
	ts, err := filepath.Glob(filepath.Join(root, "site", "src", "page", "*.ts"))
	if err != nil || len(ts) == 0 {
		t.Fatalf("no page sources: %v", err)
	}
	for _, p := range ts {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range paramUseRE.FindAllStringSubmatch(string(b), -1) {
			used[m[1]] = true
		}
	}
	if len(used) == 0 {
		t.Fatal("found no params.get calls in site/src/page")
	}
	for _, file := range docFiles(t) {
		for i, line := range strings.Split(read(t, file), "\n") {
			for _, m := range paramDocRE.FindAllStringSubmatch(line, -1) {
				if !used[m[1]] {
					t.Errorf("%s:%d: the URL parameter %q is not read by site/src/page", file, i+1, m[1])
				}
			}
		}
	}
	pg := read(t, "docs/playground.md")
	for p := range used {
		if !strings.Contains(pg, "`?"+p+"=") {
			t.Errorf("docs/playground.md does not document the URL parameter ?%s=", p)
		}
	}
}
