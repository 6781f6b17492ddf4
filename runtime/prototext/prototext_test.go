package prototext_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	gtext "google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/protoplay/protoplay/runtime/prototext"
	"github.com/protoplay/protoplay/runtime/wire"
)

// squeeze drops the spaces outside quoted strings (prototext adds some at
// random).
func squeeze(s string) string {
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
		case c == '"':
			quote = c
			b.WriteByte(c)
		case c == ' ' || c == '\n':
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// TestScalarFormat: the Encoder writes floats and strings as prototext
// does (compared through the wrappers, whose one field is "value").
func TestScalarFormat(t *testing.T) {
	for _, v := range []float64{math.Copysign(0, -1), 1, -1.5, 1e-7, 1e21, 1.5e300, 5e-324, math.Inf(1), math.Inf(-1), math.NaN(), 0.1} {
		e, _ := prototext.NewEncoder(nil, prototext.MarshalOptions{})
		e.Float64("value", v)
		want, _ := gtext.Marshal(wrapperspb.Double(v))
		if got := string(e.Bytes()); squeeze(got) != squeeze(string(want)) {
			t.Errorf("Float64(%v) = %s, prototext %s", v, got, want)
		}
		if f := float32(v); f == 0 && !math.Signbit(float64(f)) {
			continue // not written by the wrapper
		}
		e, _ = prototext.NewEncoder(nil, prototext.MarshalOptions{})
		e.Float32("value", float32(v))
		want, _ = gtext.Marshal(wrapperspb.Float(float32(v)))
		if got := string(e.Bytes()); squeeze(got) != squeeze(string(want)) {
			t.Errorf("Float32(%v) = %s, prototext %s", float32(v), got, want)
		}
	}
	for _, s := range []string{"plain", "q\"b\\'", "\x00\x01\x1f\x7f", "\a\b\f\n\r\t\v", "\u0080\u009f\u00a0", "é日😀", "\xff", "a\xc3"} {
		for _, ascii := range []bool{false, true} {
			e, _ := prototext.NewEncoder(nil, prototext.MarshalOptions{EmitASCII: ascii})
			e.ByteString("value", []byte(s))
			want, _ := gtext.MarshalOptions{EmitASCII: ascii}.Marshal(wrapperspb.Bytes([]byte(s)))
			if got := string(e.Bytes()); squeeze(got) != squeeze(string(want)) {
				t.Errorf("ByteString(%q), EmitASCII %v = %s, prototext %s", s, ascii, got, want)
			}
		}
		e, _ := prototext.NewEncoder(nil, prototext.MarshalOptions{})
		err := e.StringUTF8("value", s, "f")
		_, werr := gtext.Marshal(wrapperspb.String(s))
		if (err == nil) != (werr == nil) || err != nil && !errors.Is(err, prototext.ErrUTF8) {
			t.Errorf("StringUTF8(%q): %v, prototext %v", s, err, werr)
		}
	}
}

// TestLayout: compact and multiline layout, and the indent check.
func TestLayout(t *testing.T) {
	write := func(e *prototext.Encoder) {
		e.Int("a", 1)
		e.StartMessage("b")
		e.StartMessage("c")
		e.EndMessage()
		e.String("d", "x")
		e.EndMessage()
		e.Literal("e", "FOO")
	}
	e, _ := prototext.NewEncoder(nil, prototext.MarshalOptions{})
	write(e)
	if got, want := string(e.Bytes()), `a:1 b:{c:{} d:"x"} e:FOO`; got != want {
		t.Errorf("compact: %q, want %q", got, want)
	}
	e, _ = prototext.NewEncoder(nil, prototext.MarshalOptions{Multiline: true})
	write(e)
	if got, want := string(e.Bytes()), "a: 1\nb: {\n  c: {}\n  d: \"x\"\n}\ne: FOO"; got != want {
		t.Errorf("multiline: %q, want %q", got, want)
	}
	e, _ = prototext.NewEncoder(nil, prototext.MarshalOptions{Indent: "\t"})
	write(e)
	if got, want := string(e.Bytes()), "a: 1\nb: {\n\tc: {}\n\td: \"x\"\n}\ne: FOO"; got != want {
		t.Errorf("indent tab: %q, want %q", got, want)
	}
	if _, err := prototext.NewEncoder(nil, prototext.MarshalOptions{Indent: "x"}); err == nil {
		t.Error("Indent \"x\" accepted")
	}
}

// TestUnknown: EmitUnknown writes unknown fields as protobuf's C++
// TextFormat does: prototext's form, except that a LEN value that parses
// as a message is written as one (the conformance suite's
// MessageUnknownFields_Print: the output must parse back against a schema
// where that field is a message).
func TestUnknown(t *testing.T) {
	// 1: varint 150, 2: fixed32, 3: LEN "h" (a tag without its value), 4:
	// group {5: 1}, 6: fixed64, 7: LEN {1: 111}, 8: LEN {9 {1: 2}}, 9: LEN
	// "" (empty), 10: LEN holding an END_GROUP alone.
	u := []byte{0x08, 0x96, 0x01, 0x15, 1, 0, 0, 0, 0x1a, 1, 'h', 0x23, 0x28, 0x01, 0x24, 0x31, 0xff, 0, 0, 0, 0, 0, 0, 0,
		0x3a, 2, 0x08, 0x6f, 0x42, 4, 0x4a, 2, 0x08, 0x02, 0x4a, 0, 0x52, 1, 0x0c}
	e, _ := prototext.NewEncoder(nil, prototext.MarshalOptions{EmitUnknown: true})
	e.Unknown(&u)
	if got, want := string(e.Bytes()), `1:150 2:0x1 3:"h" 4:{5:1} 6:0xff 7:{1:111} 8:{9:{1:2}} 9:"" 10:"\x0c"`; got != want {
		t.Errorf("unknown: %q, want %q", got, want)
	}
	// The conformance suite's case: field 1003 holding {1: 111}.
	u = []byte{0xda, 0x3e, 0x02, 0x08, 0x6f}
	e, _ = prototext.NewEncoder(nil, prototext.MarshalOptions{EmitUnknown: true, Multiline: true, Indent: "  "})
	e.Unknown(&u)
	if got, want := string(e.Bytes()), "1003: {\n  1: 111\n}"; got != want {
		t.Errorf("unknown message: %q, want %q", got, want)
	}
	// Embedded messages nested past MaxUnknownGroupDepth end as bytes, and
	// the output stays linear in the input.
	deep := []byte{0x08, 0x01}
	for range 2 * wire.MaxUnknownGroupDepth {
		deep = append(wire.AppendVarint([]byte{0x0a}, uint64(len(deep))), deep...)
	}
	e, _ = prototext.NewEncoder(nil, prototext.MarshalOptions{EmitUnknown: true})
	e.Unknown(&deep)
	out := string(e.Bytes())
	if got, want := strings.Count(out, "{"), wire.MaxUnknownGroupDepth; got != want {
		t.Errorf("nested unknown messages: %d levels written as messages, want %d", got, want)
	}
	if len(out) > 8*len(deep) {
		t.Errorf("nested unknown messages: %d bytes of text for %d bytes", len(out), len(deep))
	}
	e, _ = prototext.NewEncoder(nil, prototext.MarshalOptions{})
	e.Unknown(&u)
	if len(e.Bytes()) != 0 {
		t.Errorf("unknown without EmitUnknown: %q", e.Bytes())
	}
}

// TestDecoderValues reads scalar values of every form.
func TestDecoderValues(t *testing.T) {
	read := func(in string, f func(d *prototext.Decoder) (any, error)) (any, error) {
		d := prototext.NewDecoder([]byte(in), prototext.UnmarshalOptions{})
		if err := d.MessageStart(); err != nil {
			return nil, err
		}
		if _, err := d.Next(); err != nil {
			return nil, err
		}
		return f(d)
	}
	i32 := func(d *prototext.Decoder) (any, error) { return d.Int32() }
	u64 := func(d *prototext.Decoder) (any, error) { return d.Uint64() }
	f64 := func(d *prototext.Decoder) (any, error) { return d.Float64() }
	str := func(d *prototext.Decoder) (any, error) { return d.String() }
	boo := func(d *prototext.Decoder) (any, error) { return d.Bool() }
	for _, c := range []struct {
		in   string
		f    func(d *prototext.Decoder) (any, error)
		want any // nil: an error
	}{
		{"v: 12", i32, int32(12)}, {"v: -0x10", i32, int32(-16)}, {"v: 017", i32, int32(15)}, {"v: - # c\n 3", i32, int32(-3)},
		{"v: 2147483648", i32, nil}, {"v: 1.0", i32, nil}, {"v: 1f", i32, nil}, {"v 1", i32, nil}, {"v: 0xFFFFFFFFFFFFFFFF", u64, uint64(math.MaxUint64)},
		{"v: -1", u64, nil}, {"v: 1.5f", f64, 1.5}, {"v: .5", f64, 0.5}, {"v: -Infinity", f64, math.Inf(-1)}, {"v: 1e400", f64, math.Inf(1)},
		{"v: 5", f64, 5.0}, {"v: 1e", f64, nil}, {`v: "a" 'b' "\x41\101\u00e9\U0001F600\n\?"`, str, "abAAé😀\n?"}, {`v: "\400"`, str, nil},
		{`v: "\ud83d"`, str, nil}, {"v: \"a\nb\"", str, nil}, {"v: \"\xff\"", str, nil}, {`v: "\q"`, str, nil}, {`v: "a`, str, nil},
		// Float values are FLOAT and DEC_INT literals: not OCT_INT or HEX_INT
		// (FloatFieldNoOctal, FloatFieldNoNegativeOctal).
		{"v: 012", f64, nil}, {"v: -012", f64, nil}, {"v: 0x1", f64, nil}, {"v: 0", f64, 0.0}, {"v: -0", f64, math.Copysign(0, -1)}, {"v: 10", f64, 10.0},
		// Escapes name code points, never surrogates, alone or as a UTF-16
		// pair (StringLiteral*UnicodeEscapeSurrogate*).
		{`v: '\ud801\udc37'`, str, nil}, {`v: '\U0000d801\udc37'`, str, nil}, {`v: '\ud801\U0000dc37'`, str, nil}, {`v: "\udc37"`, str, nil},
		{`v: "\U0000d800"`, str, nil}, {`v: "\U00010437"`, str, "\U00010437"}, {`v: "\ud7ff\ue000"`, str, "\ud7ff\ue000"},
		{"v: t", boo, true}, {"v: False", boo, false}, {"v: 1", boo, true}, {"v: 2", boo, nil}, {"v: TRUE", boo, nil},
	} {
		got, err := read(c.in, c.f)
		if c.want == nil {
			if err == nil {
				t.Errorf("%q: got %v, want an error", c.in, got)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q: got %v (%v), want %v", c.in, got, err, c.want)
		}
	}
}

// TestErrorPosition: errors carry the line and column (in runes) of the
// offending token and wrap the sentinel.
func TestErrorPosition(t *testing.T) {
	d := prototext.NewDecoder([]byte("a: 1\n  é: {\n  b: ]"), prototext.UnmarshalOptions{})
	d.MessageStart()
	d.Next()
	d.Int32()
	_, err := d.Next()
	var pe *prototext.Error
	if !errors.As(err, &pe) || pe.Line != 2 || pe.Column != 3 || !errors.Is(err, prototext.ErrSyntax) {
		t.Fatalf("got %v (%+v), want a syntax error at 2:3", err, pe)
	}
	if !strings.Contains(err.Error(), "line 2:3") {
		t.Errorf("message %q lacks the position", err)
	}
}

// TestErrorQuotesValueOnly: an error about a string value quotes the
// value as written, adjacent strings included, without the space,
// newline or comment after it (google.golang.org/protobuf's prototext
// quotes those too).
func TestErrorQuotesValueOnly(t *testing.T) {
	i32 := func(d *prototext.Decoder) error { _, err := d.Int32(); return err }
	f64 := func(d *prototext.Decoder) error { _, err := d.Float64(); return err }
	boo := func(d *prototext.Decoder) error { _, err := d.Bool(); return err }
	for _, c := range []struct {
		in   string
		f    func(d *prototext.Decoder) error
		want string
	}{
		{`v: "x" `, i32, `invalid value for int32 type: "x"`},
		{"v: \"x\"\n", i32, `invalid value for int32 type: "x"`},
		{"v: \"x\" # a comment\n}", f64, `invalid value for double type: "x"`},
		{"v: \"a\" 'b'  \n\n", boo, `invalid value for bool type: "a" 'b'`},
		{"v: \"x\"}", i32, `invalid value for int32 type: "x"`},
	} {
		d := prototext.NewDecoder([]byte(c.in), prototext.UnmarshalOptions{})
		if err := d.MessageStart(); err != nil {
			t.Fatal(err)
		}
		if _, err := d.Next(); err != nil {
			t.Fatal(err)
		}
		err := c.f(d)
		var pe *prototext.Error
		if !errors.As(err, &pe) || !strings.HasSuffix(err.Error(), c.want) || pe.Line != 1 || pe.Column != 4 {
			t.Errorf("%q: got %q (%+v), want one ending %q at 1:4", c.in, err, pe, c.want)
		}
	}
}

// TestDepthLimit: the recursion limit defaults to wire.DefaultMaxDepth.
func TestDepthLimit(t *testing.T) {
	d := prototext.NewDecoder([]byte(strings.Repeat("a {", 200)), prototext.UnmarshalOptions{})
	var err error
	for i := 0; i < 200 && err == nil; i++ {
		if err = d.MessageStart(); err == nil {
			_, err = d.Next()
		}
	}
	if !errors.Is(err, wire.ErrDepth) {
		t.Errorf("got %v, want wire.ErrDepth", err)
	}
}

// TestUnknownGroupDepth: unknown fields nested in groups as deep as
// generated Unmarshal accepts them (wire.MaxUnknownGroupDepth levels) are
// all written under EmitUnknown; one level more (which Unmarshal rejects)
// writes nothing for that field.
func TestUnknownGroupDepth(t *testing.T) {
	nest := func(k int) []byte {
		return []byte(strings.Repeat("\x0b", k) + "\x08\x07" + strings.Repeat("\x0c", k))
	}
	for _, k := range []int{1, 2, wire.MaxUnknownGroupDepth, wire.MaxUnknownGroupDepth + 1} {
		b := nest(k)
		if n := wire.ConsumeFieldValue(1, wire.StartGroupType, b[1:], wire.MaxUnknownGroupDepth); (n > 0) != (k <= wire.MaxUnknownGroupDepth) {
			t.Fatalf("%d levels: ConsumeFieldValue gives %d", k, n)
		}
		e, err := prototext.NewEncoder(nil, prototext.MarshalOptions{EmitUnknown: true})
		if err != nil {
			t.Fatal(err)
		}
		e.Unknown(&b)
		want := ""
		if k <= wire.MaxUnknownGroupDepth {
			want = strings.Repeat("1:{", k) + "1:7" + strings.Repeat("}", k)
		}
		if got := string(e.Bytes()); got != want {
			t.Errorf("%d levels: got %q, want %q", k, got, want)
		}
	}
}
