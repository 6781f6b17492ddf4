package gogen_test

import (
	"fmt"
	"go/parser"
	"go/token"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
	"github.com/protoplay/protoplay/internal/gentest"
)

// hostileText is text a .proto file may hold in comments and string
// literals that Go source may not hold as is: every C0 control byte, DEL,
// C1 controls, U+FEFF, the Unicode line separators, bytes that are not
// UTF-8, and text that Go tools read as directives.
func hostileText() []string {
	var out []string
	for c := 0; c < 0x20; c++ {
		out = append(out, string(rune(c)))
	}
	return append(out, "\x7f", "\u0085", "\u009b", "\ufeff", "\u2028", "\u2029",
		"\xff", "\xe9", "\x80", "\xe2\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80",
		"go:generate echo pwned", "go:build ignore", "line x.go:1", "export F",
		"extern f", "lint:ignore x", " +build ignore", "+build linux", "*/", "/*")
}

// protoString escapes s for a proto string literal, byte by byte, so the
// value holds exactly s's bytes.
func protoString(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&b, "\\x%02x", s[i])
	}
	return b.String()
}

// Issue 10 kind 4 (case 36): whatever text the schema holds in a leading,
// trailing or detached comment (line or block), a json_name, a string or
// bytes default, the generated Go formats, vets and builds, and no comment
// turns into a directive.
func TestHostileSchemaText(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	srcs := map[string]string{}
	var files []string
	for i, text := range hostileText() {
		// In comments the raw text, except NUL, which protoc and
		// protocompile reject there ("Invalid control characters"); a
		// newline continues a line comment on the next line.
		line := strings.NewReplacer("\x00", "", "\n", "\n//").Replace(text)
		comment := strings.NewReplacer("\x00", "", "*/", "* /").Replace(text)
		// A json_name that is not UTF-8 is refused (see
		// TestJSONNameNotUTF8); the others are kept.
		jsonName := protoString(text)
		if !utf8.ValidString(text) {
			jsonName = "x"
		}
		name := fmt.Sprintf("h%02d.proto", i)
		srcs[name] = fmt.Sprintf(`syntax = "proto2";
package h%02d;
option go_package = "example.com/h/h%02d";

//%[3]s detached

//%[3]s leading
message M { //%[3]s trailing
  /*%[4]s block */
  optional string s = 1 [json_name = "j%[6]s", default = "%[5]s"]; //%[3]s
  optional bytes b = 2 [default = "%[5]s"];
  //%[3]s
  oneof o {
    //%[3]s member
    int32 x = 3;
  }
  //%[3]s
  enum E {
    //%[3]s value
    E_ZERO = 0; //%[3]s
  }
  optional E e = 4 [default = E_ZERO, deprecated = true];
}
`, i, i, line, comment, protoString(text), jsonName)
		files = append(files, name)
	}
	// A file path is printed in the header comment, above the package
	// clause, where go vet reads "+build" as a build constraint.
	srcs["dir+build/x+build é.proto"] = "syntax = \"proto3\";\npackage hp;\noption go_package = \"example.com/h/hp\";\nmessage P { int32 a = 1 [deprecated = true]; }\n"
	files = append(files, "dir+build/x+build é.proto")
	res := compiler.Compile(t.Context(), compiler.Request{Sources: srcs, Files: files, NoGenerate: true})
	for _, d := range res.Diagnostics {
		if d.Severity == compiler.SeverityError && (d.Line == 0 || strings.Contains(d.Message, "internal error")) {
			t.Errorf("%v", d)
		}
	}
	if res.HasErrors() {
		t.Fatalf("hostile text rejected: %v", res.Err())
	}
	_, gen := gentest.Generate(t, compiler.Request{Sources: srcs, Files: files, Options: gogen.Options{EnumMaps: true}})
	directive := regexp.MustCompile(`^//(line |extern |export |[a-z0-9]+:[a-z0-9])|^//\s*\+build`)
	for _, f := range gen {
		if !utf8.ValidString(f.Content) || strings.ContainsAny(f.Content, "\x00\ufeff") {
			t.Errorf("%s: not clean UTF-8", f.Name)
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, f.Name, f.Content, parser.ParseComments)
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		for _, cg := range file.Comments {
			for _, c := range cg.List {
				if directive.MatchString(c.Text) {
					t.Errorf("%s: schema text became a directive: %q", fset.Position(c.Pos()), c.Text)
				}
			}
		}
	}
	dir := gentest.WriteModule(t, gen, nil, false)
	if out, err := gentest.Go(t, dir, "vet", "./..."); err != nil {
		t.Fatalf("go vet: %v\n%s", err, out)
	}
}

// Issue 24, kind 2: a json_name that is not UTF-8 cannot be written as
// JSON (protojson fails on every message holding the field), so it is
// refused with the field's position, in each field form.
func TestJSONNameNotUTF8(t *testing.T) {
	src := `syntax = "proto2";
package u;
message M {
  optional int32 a = 1 [json_name = "ok\u00e9"];
  optional int32 b = 2 [json_name = "b\xff"];
  message N { repeated string c = 3 [json_name = "\xe9"]; }
  oneof o { int32 d = 4 [json_name = "d\xed\xa0\x80"]; }
}
`
	res := compiler.Compile(t.Context(), compiler.Request{Sources: map[string]string{"u.proto": src}, Files: []string{"u.proto"}})
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, d.String())
	}
	want := []string{
		`u.proto:5:3: field u.M.b: json_name "b\xff" is not valid UTF-8, which ProtoJSON cannot write`,
		`u.proto:6:15: field u.M.N.c: json_name "\xe9" is not valid UTF-8, which ProtoJSON cannot write`,
		`u.proto:7:13: field u.M.d: json_name "d\xed\xa0\x80" is not valid UTF-8, which ProtoJSON cannot write`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || len(res.Generated) != 0 {
		t.Errorf("diagnostics:\n%s\nwant:\n%s (and no output; got %d files)", strings.Join(got, "\n"), strings.Join(want, "\n"), len(res.Generated))
	}
}
