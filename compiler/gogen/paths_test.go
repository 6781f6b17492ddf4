package gogen_test

import (
	"context"
	"strings"
	"testing"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
)

// Issue 10 kind 3, paths: an import path or output path the go command
// cannot use is a diagnostic naming the file (and the go_package option's
// line:column when it is the cause), never code that fails later or a file
// written outside the output directory.
func TestImportAndOutputPaths(t *testing.T) {
	file := func(pkg, goPackage string) string {
		s := "syntax = \"proto3\";\npackage " + pkg + ";\n"
		if goPackage != "" {
			s += "option go_package = \"" + goPackage + "\";\n"
		}
		return s + "message M" + strings.ReplaceAll(pkg, ".", "") + " { int32 a = 1; }\n"
	}
	for _, tc := range []struct {
		name  string
		srcs  map[string]string
		opts  gogen.Options
		gen   []string // the files to generate; all when empty
		file  string
		line  int
		words []string
	}{
		{name: "space in go_package", srcs: map[string]string{"a.proto": file("a", "example.com/a b;x")},
			file: "a.proto", line: 3, words: []string{`"example.com/a b"`, "go_package"}},
		{name: "dot-dot go_package", srcs: map[string]string{"a.proto": file("a", "example.com/../../etc;x")},
			file: "a.proto", line: 3, words: []string{`".."`}},
		{name: "unicode go_package", srcs: map[string]string{"a.proto": file("a", "example.com/café;x")},
			file: "a.proto", line: 3, words: []string{"'é'"}},
		{name: "double slash", srcs: map[string]string{"a.proto": file("a", "example.com//a;x")},
			file: "a.proto", line: 3, words: []string{"empty element"}},
		{name: "bad M mapping", srcs: map[string]string{"a.proto": file("a", "")}, opts: gogen.Options{ImportMap: map[string]string{"a.proto": "example.com/a%b;a"}},
			file: "a.proto", words: []string{"Ma.proto"}},
		{name: "bad dependency path", srcs: map[string]string{
			"a.proto": "syntax = \"proto3\";\npackage a;\noption go_package = \"example.com/a\";\nimport \"b.proto\";\nmessage A { b.Mb x = 1; }\n",
			"b.proto": file("b", "example.com/b?;b")}, gen: []string{"a.proto"},
			file: "b.proto", line: 3, words: []string{`"example.com/b?"`}},
		{name: "ignored file name", srcs: map[string]string{"_a.proto": file("a", "example.com/a")},
			file: "_a.proto", words: []string{"_a.pb.go", "ignored"}},
		{name: "hidden file name", srcs: map[string]string{"d/.a.proto": file("a", "example.com/a")},
			file: "d/.a.proto", words: []string{".a.pb.go", "ignored"}},
		{name: "GOOS suffix", srcs: map[string]string{"a_windows.proto": file("a", "example.com/a")},
			file: "a_windows.proto", words: []string{"only for windows"}},
		{name: "GOARCH and test suffix", srcs: map[string]string{"a_arm64_test.proto": file("a", "example.com/a")},
			file: "a_arm64_test.proto", words: []string{"only for arm64"}},
		{name: "control character in name", srcs: map[string]string{"a\x01.proto": file("a", "example.com/a")},
			file: "a\x01.proto", words: []string{"printable"}},
		{name: "same output path", srcs: map[string]string{"x/m.proto": file("a", "example.com/p"), "y/m.proto": file("b", "example.com/p")},
			file: "y/m.proto", words: []string{"example.com/p/m.pb.go is also generated for x/m.proto"}},
		{name: "paths differing in case", srcs: map[string]string{"M.proto": file("a", "example.com/p"), "m.proto": file("b", "example.com/p")},
			file: "m.proto", words: []string{"example.com/p/m.pb.go and example.com/p/M.pb.go", "differ only in case"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := compiler.Compile(context.Background(), compiler.Request{Sources: tc.srcs, Files: tc.gen, Options: tc.opts})
			if res.Generated != nil {
				t.Fatalf("generated %d files", len(res.Generated))
			}
			for _, d := range res.Diagnostics {
				ok := d.File == tc.file && d.Line == tc.line && d.Severity == compiler.SeverityError
				for _, w := range tc.words {
					ok = ok && strings.Contains(d.Message, w)
				}
				if ok {
					t.Log(d)
					return
				}
			}
			t.Errorf("no error at %s:%d containing %q; got %v", tc.file, tc.line, tc.words, res.Diagnostics)
		})
	}
	// Names close to the rejected ones are fine.
	ok := map[string]string{
		"a_test.proto": file("a", "example.com/a"), "windows.proto": file("b", "example.com/b"),
		"a_windowsx.proto": file("c", "example.com/c"), "v1.2_x+y.proto": file("d", "example.com/d-e_f~g+h/v1.2"),
	}
	if res := compiler.Compile(context.Background(), compiler.Request{Sources: ok}); res.HasErrors() {
		t.Errorf("valid paths rejected: %v", res.Diagnostics)
	}
}
