package site_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/protoplay/protoplay/interp/symbols"
)

// TestRunPackagesListed: the Run tab's list of the standard library
// packages a program can import (index.html, data-testid=run-stdlib) is
// exactly the interpreter's (interp/symbols.Packages, and os, the
// interpreter's own sandboxed table), so the page cannot promise a
// package the interpreter lacks or hide one it has.
func TestRunPackagesListed(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("index.html")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`data-testid="run-stdlib">([^<]*)<`).FindSubmatch(b)
	if m == nil {
		t.Fatal("index.html has no run-stdlib list")
	}
	listed := strings.Fields(string(m[1]))
	want := []string{"os"}
	for _, p := range symbols.Packages {
		if !strings.HasPrefix(p, "github.com/protoplay/") {
			want = append(want, p)
		}
	}
	slices.Sort(want)
	if !slices.Equal(listed, want) {
		t.Errorf("the Run tab lists\n%v\nthe interpreter has\n%v", listed, want)
	}
}
