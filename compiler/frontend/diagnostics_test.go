package frontend

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/protoplay/protoplay/compiler/diag"
)

// Every error of a compile, in source order: protocompile does not link a
// file that failed its validation, so without the second pass the unknown
// types below would only show once the duplicate field number and the
// proto3 enum were fixed (issue 14: "only the first semantic error").
func TestAllErrorsInSourceOrder(t *testing.T) {
	for _, c := range []struct {
		name string
		src  map[string]string
		want []string // "file:line:col: substring", in order
	}{
		{
			name: "validation and link errors together",
			src: map[string]string{"a.proto": `syntax = "proto3";
package p;
message A {
  Foo a = 1;
  Bar b = 2;
  int32 c = 2;
  map<string, Baz> m = 3;
  oneof o { Qux q = 4; }
}
enum E { X = 1; }
`},
			want: []string{
				"a.proto:4:3: unknown type Foo",
				"a.proto:5:3: unknown type Bar",
				"a.proto:6:13: same tag 2",
				"a.proto:7:15: unknown type Baz",
				"a.proto:8:13: unknown type Qux",
				"a.proto:10:14: first value of enum have numeric value zero",
			},
		},
		{
			name: "proto2 and an extension",
			src: map[string]string{"b.proto": `syntax = "proto2";
package p;
message B {
  optional Missing x = 1;
  extensions 100 to 200;
  optional int32 y = 150;
}
extend B { optional Nope z = 100; }
`},
			want: []string{
				"b.proto:4:12: unknown type Missing",
				"b.proto:6:22: 150",
				"b.proto:8:21: unknown type Nope",
			},
		},
		{
			name: "errors in two files",
			src: map[string]string{
				"x.proto": "syntax = \"proto3\";\npackage x;\nmessage X { Y y = 1; int32 a = 1; }\n",
				"y.proto": "syntax = \"proto3\";\npackage y;\nmessage Y { Z z = 1; int32 a = 1; }\n",
			},
			want: []string{
				"x.proto:3:13: unknown type Y",
				"x.proto:3:32: same tag 1",
				"y.proto:3:13: unknown type Z",
				"y.proto:3:32: same tag 1",
			},
		},
		{
			name: "syntax errors alone (nothing to link)",
			src:  map[string]string{"s.proto": "syntax = \"proto3\";\nmessage S {\n  int32 a = 1\n  int32 b = 2;\n  Foo c = 3;\n}\n"},
			want: []string{"s.proto:3:14: missing ';' here", "s.proto:4:3: syntax error: expecting ';'"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := Compile(context.Background(), Request{Sources: c.src})
			var got []string
			for _, d := range res.Diagnostics {
				got = append(got, fmt.Sprintf("%s:%d:%d: %s", d.File, d.Line, d.Column, d.Message))
				if d.Severity != diag.SeverityError && !(d.Severity == diag.SeverityNote && strings.Contains(d.Message, "missing ';'")) {
					t.Errorf("%s is not an error", got[len(got)-1])
				}
			}
			if len(got) != len(c.want) {
				t.Fatalf("got %d diagnostics, want %d:\n%s", len(got), len(c.want), strings.Join(got, "\n"))
			}
			for i, w := range c.want {
				pos, sub, _ := strings.Cut(w, ": ")
				if !strings.HasPrefix(got[i], pos+": ") || !strings.Contains(got[i], sub) {
					t.Errorf("diagnostic %d = %s, want %s", i, got[i], w)
				}
			}
		})
	}
}

// A missing ';' is reported where protoc reports it (the next token) with a
// note where it belongs: just after the previous token, past comments and
// blank lines; not when the next token is on the same line.
func TestMissingSemicolonNote(t *testing.T) {
	for _, c := range []struct {
		src  string
		note string // "line:col", or "" for none
	}{
		{"syntax = \"proto3\";\nmessage A {\n  int32 a = 1 // the id\n\n  /* more */\n  int32 b = 2;\n}\n", "3:14"},
		{"syntax = \"proto3\";\nimport \"x.proto\"\nmessage A {}\n", "2:17"},
		{"syntax = \"proto3\";\nmessage A { int32 a = 1 int32 b = 2; }\n", ""},
	} {
		res := Compile(context.Background(), Request{Sources: map[string]string{"a.proto": c.src}})
		var notes []string
		errs := 0
		for _, d := range res.Diagnostics {
			switch d.Severity {
			case diag.SeverityNote:
				notes = append(notes, fmt.Sprintf("%d:%d", d.Line, d.Column))
			case diag.SeverityError:
				errs++
			}
		}
		if errs == 0 {
			t.Errorf("%q: no error", c.src)
		}
		want := []string{}
		if c.note != "" {
			want = []string{c.note}
		}
		if strings.Join(notes, ",") != strings.Join(want, ",") {
			t.Errorf("%q: notes at %v, want %v (all: %v)", c.src, notes, want, res.Diagnostics)
		}
	}
}

// TestMissingImportEveryImporter: a file several files import and nobody
// supplies is an error at each of those imports (protoc reports each
// importer), not only at the first one protocompile resolved it for; a
// file importing something else, and a comment or string that mentions
// the name, get nothing.
func TestMissingImportEveryImporter(t *testing.T) {
	imp := func(pkg, extra string) string {
		return "syntax = \"proto3\";\npackage " + pkg + ";\n" + extra + "import \"gone.proto\";\nmessage M { int32 a = 1; }\n"
	}
	srcs := map[string]string{
		"a.proto": imp("a", ""),
		"b.proto": imp("b", "// gone.proto was here\nimport \"c.proto\";\n"),
		"c.proto": "syntax = \"proto3\";\npackage c;\nmessage C { string s = 1; } // \"gone.proto\"\n",
		"d.proto": "syntax = \"proto3\";\npackage d;\nimport \"c.proto\";\nmessage D { c.C c = 1; }\n",
	}
	res := Compile(context.Background(), Request{Sources: srcs})
	var got []string
	for _, d := range res.Diagnostics {
		if d.Severity == diag.SeverityError {
			got = append(got, fmt.Sprintf("%s:%d:%d: %s", d.File, d.Line, d.Column, d.Message))
		}
	}
	msg := "gone.proto: file not found in the sources or import paths: file does not exist"
	want := []string{"a.proto:3:8: " + msg, "b.proto:5:8: " + msg}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
