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

	res := compiler.Compile(context.Background(), compiler.Request{
		Sources: map[string]string{"example.proto": read(t, "testdata/example/example.proto")},
		Options: compiler.Options{Runtime: "local", Module: "example.com/addressbook"},
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
	write("main.go", `package main

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
	cmd := exec.Command("go", "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, out)
	}
	got := strings.Split(strings.TrimSpace(string(out)), "\n")
	want := []string{wantText, "true true", strings.Trim(wantNumber, `"`), wantJSON, "true <nil>"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the tour printed\n%s\nwant (from its comments)\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
