package docs_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/protoplay/protoplay/compiler"
)

// TestREADMETour runs the README's tour of the generated code against
// testdata/example/example.proto, generated as a user's module would get it
// (runtime=local), and checks what its comments say the expressions give.
func TestREADMETour(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a program with the go command")
	}
	readme := read(t, "README.md")
	i := strings.Index(readme, "## A tour of the generated code")
	if i < 0 {
		t.Fatal("README.md has no tour of the generated code")
	}
	start := strings.Index(readme[i:], "```go\n")
	if start < 0 {
		t.Fatal("the tour has no ```go block")
	}
	tour := readme[i+start+len("```go\n"):]
	tour = tour[:strings.Index(tour, "```")]
	if n := strings.Count(tour, "\n"); n > 25 {
		t.Errorf("the tour is %d lines; keep it about 20", n)
	}

	// What the comments promise.
	comment := func(code string) string {
		for _, line := range strings.Split(tour, "\n") {
			if strings.Contains(line, code) {
				if _, c, ok := strings.Cut(line, "// "); ok {
					return c
				}
			}
		}
		t.Fatalf("the tour has no line with %q and a comment", code)
		return ""
	}
	wantJSON := comment("p.MarshalJSON()")
	wantText := comment("fmt.Println(p)")
	wantNumber, _, _ := strings.Cut(comment("GetNumber()"), ":")
	if !strings.HasPrefix(comment("q.Equal(p)"), "true") {
		t.Fatalf("the tour's Equal comment does not say true")
	}

	out, err := runExample(t, "", `package main

import (
	"fmt"

	addressbookv1 "example.com/addressbook/v1"
	"example.com/addressbook/protoplay/runtime/protojson"
)

func main() {
`+tour+`	fmt.Println(q.Equal(p), c.Equal(p))
	fmt.Println(q.GetPhones()[0].GetNumber())
	fmt.Println(string(j))
	fmt.Println(len(b) > 0, err)
}
`)
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, out)
	}
	got := strings.Split(strings.TrimSpace(string(out)), "\n")
	want := []string{wantText, "true true", strings.Trim(wantNumber, `"`), wantJSON, "true <nil>"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the tour printed\n%s\nwant (from its comments)\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestREADMEAPILevels builds and runs the README's example of each API
// level against testdata/example/example.proto generated at that level:
// the open one against open code, the opaque one against opaque code
// (where the open one must not compile: its fields are hidden), and the
// hybrid one against hybrid code with no build tag.
func TestREADMEAPILevels(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs programs with the go command")
	}
	readme := read(t, "README.md")
	i := strings.Index(readme, "### Three API levels")
	if i < 0 {
		t.Fatal("README.md has no section on the API levels")
	}
	section := readme[i:]
	section = section[:strings.Index(section, "\n## ")]
	var blocks []string
	for _, part := range strings.Split(section, "```go\n")[1:] {
		code, _, _ := strings.Cut(part, "```")
		var lines []string
		for _, l := range strings.Split(code, "\n") {
			lines = append(lines, strings.TrimPrefix(l, "  "))
		}
		blocks = append(blocks, strings.Join(lines, "\n"))
	}
	if len(blocks) != 3 {
		t.Fatalf("%d examples in the section, want 3 (open, opaque, hybrid)", len(blocks))
	}
	run := func(level, code string) (string, error) {
		return runExample(t, level, "package main\n\nimport (\n\t\"fmt\"\n\n\taddressbookv1 \"example.com/addressbook/v1\"\n)\n\nfunc main() {\n\tage := uint32(36)\n\t_ = age\n"+code+"\tfmt.Println(p)\n}\n")
	}
	for _, tc := range []struct {
		level, code, want string
	}{
		{"API_OPEN", blocks[0], `name:"Ada Lovelace" age:36`},
		// What the opaque example's comments say.
		{"API_OPAQUE", blocks[1] + "\tfmt.Println(p.HasAge(), p.WhichContact() == addressbookv1.Person_Contact_not_set_case)\n", "true true\n" + `name:"Ada Lovelace" age:36`},
		{"API_HYBRID", blocks[2], `name:"Ada Lovelace"`},
	} {
		out, err := run(tc.level, tc.code)
		if err != nil || strings.TrimSpace(out) != tc.want {
			t.Errorf("the %s example: %v\n%s\nwant %s", tc.level, err, out, tc.want)
		}
	}
	if out, err := run("API_OPAQUE", blocks[0]); err == nil {
		t.Errorf("the open example compiled against opaque code:\n%s", out)
	}
}

// runExample generates testdata/example/example.proto at the API level
// (empty: the file's own) into a module example.com/addressbook with the
// runtime beside it, adds mainGo as its main.go, and returns what go run
// printed (stdout and stderr) and its error.
func runExample(t *testing.T, level, mainGo string) (string, error) {
	t.Helper()
	res := compiler.Compile(context.Background(), compiler.Request{
		Sources: map[string]string{"example.proto": read(t, "testdata/example/example.proto")},
		Options: compiler.Options{Runtime: "local", Module: "example.com/addressbook", DefaultAPILevel: level},
	})
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range res.Generated {
		write(f.Name, f.Content)
	}
	write("go.mod", "module example.com/addressbook\n\ngo 1.23\n")
	write("main.go", mainGo)
	// -trimpath: the build cache keys the packages by import path and
	// content, not by this temporary directory.
	cmd := exec.Command("go", "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod -trimpath", "GOPROXY=off", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	return string(out), err
}
