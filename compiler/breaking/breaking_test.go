package breaking_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/breaking"
)

var update = flag.Bool("update", false, "rewrite testdata/*/want.txt from this package's output")

// pairs lists the schema pairs of testdata: each directory holds base/
// (the baseline) and current/, and want.txt, the findings of every rule.
func pairs(t *testing.T) []string {
	t.Helper()
	ents, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

func compileDir(t *testing.T, dir string) []protoreflect.FileDescriptor {
	t.Helper()
	sources := compiler.Sources{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".proto") {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		sources[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	res := compiler.Compile(context.Background(), compiler.Request{Sources: sources, NoGenerate: true})
	if err := res.Err(); err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	return res.Files
}

// all is every rule of every category.
func all(t *testing.T) map[string]bool {
	use, err := breaking.Select(breaking.Categories, nil)
	if err != nil {
		t.Fatal(err)
	}
	return use
}

func compare(t *testing.T, pair string) []breaking.Finding {
	cur := compileDir(t, filepath.Join("testdata", pair, "current"))
	base := compileDir(t, filepath.Join("testdata", pair, "base"))
	return breaking.Compare(cur, base, all(t))
}

func ours(t *testing.T, pair string) []string {
	var lines []string
	for _, f := range compare(t, pair) {
		lines = append(lines, f.String())
	}
	return lines
}

// comparable is f as buf's JSON output has it: a change with no place
// inside its file is at 1:1 there, and one in a file the current
// version no longer has names no file.
func comparable(f breaking.Finding) string {
	if f.Line == 0 {
		f.Line, f.Column = 1, 1
	}
	switch f.Rule {
	case "FILE_NO_DELETE", "PACKAGE_NO_DELETE":
		f.File = ""
	}
	return f.String()
}

// TestPairs checks each pair's findings against its want.txt (which
// TestAgainstBuf checks against buf's own).
func TestPairs(t *testing.T) {
	for _, pair := range pairs(t) {
		t.Run(pair, func(t *testing.T) {
			got := strings.Join(ours(t, pair), "\n")
			if got != "" {
				got += "\n"
			}
			want := filepath.Join("testdata", pair, "want.txt")
			if *update {
				if err := os.WriteFile(want, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			b, err := os.ReadFile(want)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(b) {
				t.Errorf("findings differ from %s (go test -update rewrites it):\n--- got\n%s--- want\n%s", want, got, b)
			}
		})
	}
}

// TestRulesCount pins the number of rules: every breaking rule buf
// v1.75.0 has in the categories FILE, PACKAGE, WIRE_JSON and WIRE.
func TestRulesCount(t *testing.T) {
	if n := len(breaking.Rules); n != 64 {
		t.Errorf("%d rules, want 64", n)
	}
	fileOnly, err := breaking.Select(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(fileOnly) != 51 {
		t.Errorf("FILE has %d rules, want 51", len(fileOnly))
	}
	if _, err := breaking.Select([]string{"NOPE"}, nil); err == nil {
		t.Error("unknown category accepted")
	}
	if _, err := breaking.Select(nil, []string{"FIELD_NOPE"}); err == nil {
		t.Error("unknown rule accepted")
	}
}

var (
	bufOnce sync.Once
	bufPath string
	bufErr  error
)

// buf builds buf v1.75.0 once (GOBIN in the user cache directory), or
// takes $PROTOPLAY_BUF.
func buf(t *testing.T) string {
	bufOnce.Do(func() {
		if p := os.Getenv("PROTOPLAY_BUF"); p != "" {
			bufPath = p
			return
		}
		cache, err := os.UserCacheDir()
		if err != nil {
			bufErr = err
			return
		}
		dir := filepath.Join(cache, "protoplay", "buf-v1.75.0")
		bufPath = filepath.Join(dir, "buf")
		if _, err := os.Stat(bufPath); err == nil {
			return
		}
		cmd := exec.Command("go", "install", "github.com/bufbuild/buf/cmd/buf@v1.75.0")
		cmd.Env = append(os.Environ(), "GOBIN="+dir, "GOFLAGS=-mod=mod")
		cmd.Dir = os.TempDir()
		if out, err := cmd.CombinedOutput(); err != nil {
			bufErr = fmt.Errorf("go install buf@v1.75.0: %v\n%s", err, out)
		}
	})
	if bufErr != nil {
		t.Skipf("buf v1.75.0 cannot be built here, so the pairs are not compared with it: %v", bufErr)
	}
	return bufPath
}

// bufConfig uses every rule of the four categories.
const bufConfig = "version: v2\nbreaking:\n  use:\n    - FILE\n    - PACKAGE\n    - WIRE_JSON\n    - WIRE\n"

func copyModule(t *testing.T, from, to string) {
	t.Helper()
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(to, "buf.yaml"), []byte(bufConfig), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestAgainstBuf runs buf breaking on every pair, both ways (current
// against base, and base against current), and compares its findings
// (rule, file, line, column, message) with this package's.
func TestAgainstBuf(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs buf")
	}
	bin := buf(t)
	for _, pair := range pairs(t) {
		for _, dir := range [][2]string{{"current", "base"}, {"base", "current"}} {
			name := pair
			if dir[0] == "base" {
				name += "/reverse"
			}
			t.Run(name, func(t *testing.T) {
				tmp := t.TempDir()
				copyModule(t, filepath.Join("testdata", pair, dir[0]), filepath.Join(tmp, "new"))
				copyModule(t, filepath.Join("testdata", pair, dir[1]), filepath.Join(tmp, "old"))
				cmd := exec.Command(bin, "breaking", "new", "--against", "old", "--error-format", "json")
				cmd.Dir = tmp
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				err := cmd.Run()
				if err != nil && stdout.Len() == 0 {
					t.Fatalf("buf breaking: %v\n%s", err, stderr.String())
				}
				var theirs []string
				for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
					if line == "" {
						continue
					}
					var a struct {
						Path        string `json:"path"`
						StartLine   int    `json:"start_line"`
						StartColumn int    `json:"start_column"`
						Type        string `json:"type"`
						Message     string `json:"message"`
					}
					if err := json.Unmarshal([]byte(line), &a); err != nil {
						t.Fatalf("buf output %q: %v", line, err)
					}
					f := breaking.Finding{Rule: a.Type, File: strings.TrimPrefix(a.Path, "new/"), Line: a.StartLine, Column: a.StartColumn, Message: a.Message}
					theirs = append(theirs, comparable(f))
				}
				sort.Strings(theirs)
				cur := compileDir(t, filepath.Join("testdata", pair, dir[0]))
				base := compileDir(t, filepath.Join("testdata", pair, dir[1]))
				var mine []string
				for _, f := range breaking.Compare(cur, base, all(t)) {
					mine = append(mine, comparable(f))
				}
				sort.Strings(mine)
				if strings.Join(mine, "\n") != strings.Join(theirs, "\n") {
					t.Errorf("differs from buf breaking:\n%s", diffLines(mine, theirs))
				}
				t.Logf("%d findings agree", len(mine))
			})
		}
	}
}

// TestSelf: a schema compared with itself has no breaking change.
func TestSelf(t *testing.T) {
	for _, pair := range pairs(t) {
		for _, side := range []string{"base", "current"} {
			fs := compileDir(t, filepath.Join("testdata", pair, side))
			if got := breaking.Compare(fs, fs, all(t)); len(got) != 0 {
				t.Errorf("%s/%s against itself: %v", pair, side, got)
			}
		}
	}
}

// diffLines lists the lines only one side has.
func diffLines(mine, theirs []string) string {
	in := func(s string, l []string) bool {
		for _, x := range l {
			if x == s {
				return true
			}
		}
		return false
	}
	var b strings.Builder
	for _, l := range mine {
		if !in(l, theirs) {
			b.WriteString("only protoplay: " + l + "\n")
		}
	}
	for _, l := range theirs {
		if !in(l, mine) {
			b.WriteString("only buf:       " + l + "\n")
		}
	}
	return b.String()
}
