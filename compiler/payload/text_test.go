package payload

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/protoplay/protoplay/compiler/diag"
)

const textExtSchema = `
syntax = "proto2";
package tx;
import "google/protobuf/any.proto";
message M {
  optional int32 a = 1;
  oneof o { string s = 2; M sub = 3; }
  map<string, M> kids = 4;
  optional group G = 5 { optional int32 x = 6; }
  optional google.protobuf.Any any = 7;
  reserved "gone";
  extensions 100 to 200;
}
extend M {
  optional int32 e_int = 100;
  repeated string e_strs = 101;
  optional M e_msg = 102;
}
message Other { extend M { optional bool z_flag = 150; } }
`

// TestTextExtensions: extensions, which generated code does not have, are
// written as prototext writes them ("[full.name]" after the declared
// fields, sorted by full name, before unknown fields) and read back; the
// values are prototext's (the oracle) for the same input.
func TestTextExtensions(t *testing.T) {
	s := compileSource(t, textExtSchema)
	md := mustFind(t, s, "tx.M")
	in := `a: 1 sub { a: 2 } kids { key: "k" value { [tx.e_int]: 3 } } G { x: 4 }
	any { [type.googleapis.com/tx.M] { [tx.Other.z_flag]: true } }
	[tx.e_strs]: ["x", "y"] [tx.e_msg] { a: 5 } [tx.e_int]: 6 [tx.Other.z_flag]: false gone: 7`
	m, err := s.ParseValue(md, []byte(in), Text)
	if err != nil {
		t.Fatal(err)
	}
	ref := dynamicpb.NewMessage(md)
	if err := (prototext.UnmarshalOptions{Resolver: s.Types}).Unmarshal([]byte(in), ref); err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(m, ref) {
		t.Errorf("ParseValue read\n%v\nprototext\n%v", m, ref)
	}
	got, err := s.FormatValue(m, Text)
	if err != nil {
		t.Fatal(err)
	}
	want := `a: 1
sub: {
  a: 2
}
kids: {
  key: "k"
  value: {
    [tx.e_int]: 3
  }
}
G: {
  x: 4
}
any: {
  [type.googleapis.com/tx.M]: {
    [tx.Other.z_flag]: true
  }
}
[tx.Other.z_flag]: false
[tx.e_int]: 6
[tx.e_msg]: {
  a: 5
}
[tx.e_strs]: "x"
[tx.e_strs]: "y"
`
	if got != want {
		t.Errorf("FormatValue:\n%s\nwant\n%s", got, want)
	}
	theirs, _ := prototext.MarshalOptions{Resolver: s.Types}.Marshal(ref)
	if squeezeText(got) != squeezeText(string(theirs)) {
		t.Errorf("FormatValue differs from prototext:\n%s\nprototext:\n%s", got, theirs)
	}
	back, err := s.ParseValue(md, []byte(got), Text)
	if err != nil || !proto.Equal(back, m) {
		t.Errorf("reading the output back: %v\n%v", err, back)
	}
	if out, err := s.FormatValue(dynamicpb.NewMessage(md), Text); err != nil || out != "\n" {
		t.Errorf("empty message: %q, %v", out, err)
	}
}

// TestTextErrors: text input errors are positioned (line and column, in
// runes) with the runtime's messages; nesting over MaxDepth is KindLimit.
func TestTextErrors(t *testing.T) {
	s := compileSource(t, textExtSchema)
	md := mustFind(t, s, "tx.M")
	cases := []struct {
		in           string
		kind         string
		line, column int
		msg          string
	}{
		{"a: 1\n[tx.e_int]: 2\n[tx.e_int]: 3", diag.KindText, 3, 1, `non-repeated field "[tx.e_int]" is repeated`},
		{"a: 1\n  [tx.nope]: 2", diag.KindText, 2, 3, `unknown extension "[tx.nope]" of tx.M`},
		{"é: 1", diag.KindText, 1, 1, "invalid field name: é"},
		{"s: \"é\" sub {}", diag.KindText, 1, 8, "oneof tx.M.o is already set"},
		{"100: 1", diag.KindText, 1, 1, "cannot specify field by number: 100"},
		{"1: 1", diag.KindText, 1, 1, "cannot specify field by number: 1"},
		{"kids { key: \"a\" value { a: x } }", diag.KindText, 1, 28, "invalid value for int32 type: x"},
		{"sub {\n  a: 1\n", diag.KindText, 3, 1, "unexpected end of input"},
		{strings.Repeat("sub {", MaxDepth) + strings.Repeat("}", MaxDepth), diag.KindLimit, 1, 500, "nesting deeper than 100 levels of messages, groups and map entries (MaxDepth)"},
		{"G { x: 1 } g { x: 2 }", diag.KindText, 1, 12, `non-repeated field "g" is repeated`}, // the group field's own name
	}
	for _, c := range cases {
		_, err := s.ParseValue(md, []byte(c.in), Text)
		e := AsError(err)
		if e == nil || e.Kind != c.kind || e.Line != c.line || e.Column != c.column || !strings.Contains(e.Message, c.msg) {
			t.Errorf("ParseValue(%q) error = %#v, want %s at %d:%d containing %q", c.in, e, c.kind, c.line, c.column, c.msg)
		}
		if c.kind == diag.KindLimit && e != nil && e.Limit != "MaxDepth" {
			t.Errorf("ParseValue(%q): Limit %q", c.in, e.Limit)
		}
	}
	if _, err := s.ParseValue(md, []byte("gone: {a: [1, 2]} a: 1"), Text); err != nil {
		t.Errorf("reserved name: %v", err)
	}
}

// squeezeText drops whitespace outside quoted strings (prototext adds a
// space at random).
func squeezeText(s string) string {
	var b strings.Builder
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			b.WriteByte(c)
			if c == '\\' && i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
			b.WriteByte(c)
		case c == ' ' || c == '\n' || c == '\t':
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// FuzzText: ParseValue (text) never panics; what it accepts, FormatValue
// writes and ParseValue reads back as the same value.
func FuzzText(f *testing.F) {
	for _, seed := range []string{"a: 1", "sub { a: 2 } kids { key: \"k\" value { [tx.e_int]: 3 } }", "G { x: 4 }",
		"any { [type.googleapis.com/tx.M] { s: \"x\" } }", "[tx.e_strs]: [\"x\", \"y\"] gone: 7", "kids [{key: \"a\"}, {}]"} {
		f.Add([]byte(seed))
	}
	var s *Schema
	f.Fuzz(func(t *testing.T, in []byte) {
		if s == nil {
			s = compileSource(t, textExtSchema)
		}
		md := mustFind(t, s, "tx.M")
		m, err := s.ParseValue(md, in, Text)
		if err != nil {
			if AsError(err) == nil {
				t.Fatalf("not a *diag.Error: %v", err)
			}
			return
		}
		out, err := s.FormatValue(m, Text)
		if err != nil {
			t.Fatalf("FormatValue: %v", err)
		}
		back, err := s.ParseValue(md, []byte(out), Text)
		if err != nil || !proto.Equal(back, m) {
			t.Fatalf("output %q read back as %v (%v)", out, back, err)
		}
	})
}
