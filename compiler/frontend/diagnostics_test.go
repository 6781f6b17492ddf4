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
			want: []string{"s.proto:4:3: syntax error"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := Compile(context.Background(), Request{Sources: c.src})
			var got []string
			for _, d := range res.Diagnostics {
				got = append(got, fmt.Sprintf("%s:%d:%d: %s", d.File, d.Line, d.Column, d.Message))
				if d.Severity != diag.SeverityError {
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
