package casetest

// Text-format expectations, checked on the generated text methods (the
// expected texts are prototext's compact output, verified with
// google.golang.org/protobuf/encoding/prototext v1.36.12 over dynamicpb; see
// compiler/gogen's TestTextDifferential for the full comparison). These
// run without ../shared.

import (
	"errors"
	"fmt"
	"math"
	"testing"

	c01 "gentest/example.com/bugcorpus/c01"
	c14 "gentest/example.com/bugcorpus/c14"
	c17 "gentest/example.com/bugcorpus/c17"
	c19 "gentest/example.com/bugcorpus/c19"
	c30 "gentest/example.com/bugcorpus/c30"

	"github.com/protoplay/protoplay/runtime/prototext"
	"github.com/protoplay/protoplay/runtime/wire"
)

type textMessage interface {
	MarshalProtoText(prototext.MarshalOptions) ([]byte, error)
	UnmarshalProtoText([]byte, prototext.UnmarshalOptions) error
	String() string
}

func wantText(t *testing.T, m textMessage, o prototext.MarshalOptions, want string) {
	t.Helper()
	got, err := m.MarshalProtoText(o)
	if err != nil {
		t.Fatalf("MarshalProtoText: %v", err)
	}
	if string(got) != want {
		t.Errorf("MarshalProtoText(%+v) = %q, want %q", o, got, want)
	}
}

// Case 01: fields renamed for Go keep their proto names in text; String
// is the compact text (fmt uses it).
func TestTextCase01Names(t *testing.T) {
	m := &c01.Ticket{Token: "a", GetToken_: "b", Reset_: true, String_: "s", Size_: 6, Clone_: true}
	const want = `token:"a" get_token:"b" reset:true string:"s" size:6 clone:true`
	wantText(t, m, prototext.MarshalOptions{}, want)
	if s := fmt.Sprint(m); s != want {
		t.Errorf("fmt.Sprint = %q, want %q", s, want)
	}
	wantText(t, m, prototext.MarshalOptions{Multiline: true}, "token: \"a\"\nget_token: \"b\"\nreset: true\nstring: \"s\"\nsize: 6\nclone: true\n")
	var back c01.Ticket
	if err := back.UnmarshalText([]byte("get_token: 'b' # comment\n size: 0x7; reset: t")); err != nil || back.GetToken_ != "b" || back.Size_ != 7 || !back.Reset_ {
		t.Errorf("UnmarshalText: %v, %v", err, &back)
	}
	if err := back.UnmarshalText([]byte("size: 1 size: 2")); !errors.Is(err, prototext.ErrDuplicate) {
		t.Errorf("a field given twice: %v", err)
	}
	if err := back.UnmarshalText([]byte("6: 1")); !errors.Is(err, prototext.ErrUnknownField) {
		t.Errorf("a field by number: %v", err)
	}
	var pe *prototext.Error
	if err := back.UnmarshalText([]byte("token: \"a\"\n  nope: 1")); !errors.As(err, &pe) || pe.Line != 2 || pe.Column != 3 || !errors.Is(err, prototext.ErrUnknownField) {
		t.Errorf("unknown field: %v", err)
	}
	if s := (*c01.Ticket)(nil).String(); s != "<nil>" {
		t.Errorf("nil String = %q", s)
	}
}

// Case 14: a group in a oneof is written under its type name ("Probe"),
// its lowercase field name is read too; two members of the oneof are an
// error.
func TestTextCase14GroupInOneof(t *testing.T) {
	var m c14.Check
	if err := m.Unmarshal(unhex(t, "0b08050c")); err != nil {
		t.Fatal(err)
	}
	wantText(t, &m, prototext.MarshalOptions{}, `Probe:{depth:5}`)
	var back c14.Check
	for _, in := range []string{`Probe { depth: 5 }`, `probe < depth: 5 >`, `Probe: {depth: 5}`} {
		if err := back.UnmarshalText([]byte(in)); err != nil || !back.Equal(&m) {
			t.Errorf("%s: %v", in, err)
		}
	}
	if err := back.UnmarshalText([]byte(`Probe {depth: 5} host: "h"`)); !errors.Is(err, prototext.ErrDuplicate) {
		t.Errorf("two members of a oneof: %v", err)
	}
}

// Case 17: a closed enum is written by name, an undeclared number (set in
// Go) as a number; on input a name or a declared number, and an undeclared
// number is refused, as protobuf's C++ parser and the conformance suite's
// ClosedEnumFieldWithUnknownNumber require (prototext keeps it); map
// entries in key order.
func TestTextCase17ClosedEnum(t *testing.T) {
	var m c17.Palette
	if err := m.UnmarshalText([]byte(`hue: 1 hues: [RED, 2] by_name { key: "k" value: GREEN } by_name [{key: "a"}]`)); err != nil {
		t.Fatal(err)
	}
	hue := c17.Hue(7)
	m.Hue = &hue
	wantText(t, &m, prototext.MarshalOptions{}, `hue:7 hues:RED hues:GREEN by_name:{key:"a" value:HUE_UNSPECIFIED} by_name:{key:"k" value:GREEN}`)
	for _, in := range []string{`hue: PURPLE`, `hue: 7`, `hues: [RED, 7]`, `by_name { key: "k" value: 7 }`} {
		if err := m.UnmarshalText([]byte(in)); !errors.Is(err, prototext.ErrInvalidValue) {
			t.Errorf("%s: %v, want ErrInvalidValue", in, err)
		}
	}
}

// Case 19: -0, NaN and the infinities; float32 precision; the float
// literal forms on input.
func TestTextCase19Floats(t *testing.T) {
	m := &c19.Measure{Ratio: math.Copysign(0, -1), Gain: 0.1, Samples: []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e21, 1e-7}}
	wantText(t, m, prototext.MarshalOptions{}, `ratio:-0 gain:0.1 samples:nan samples:inf samples:-inf samples:1e+21 samples:1e-07`)
	var back c19.Measure
	if err := back.UnmarshalText([]byte(`ratio: -0 gain: 0.1f samples: [NaN, Infinity, -INF, 1e21, 1E-7]`)); err != nil || !back.Equal(m) || !math.Signbit(back.Ratio) {
		t.Errorf("read back: %v %v", err, &back)
	}
	if err := back.UnmarshalText([]byte(`gain: 1.5.5`)); !errors.Is(err, prototext.ErrSyntax) {
		t.Errorf("gain 1.5.5: %v", err)
	}
}

// Case 30: required fields are checked on both sides unless AllowPartial;
// String does not check them.
func TestTextCase30Required(t *testing.T) {
	off, id := c30.Mode_MODE_OFF, int64(0)
	wantText(t, &c30.Job{Mode: &off, Id: &id}, prototext.MarshalOptions{}, `mode:MODE_OFF id:0`)
	if _, err := (&c30.Job{}).MarshalText(); !errors.Is(err, wire.ErrRequired) {
		t.Errorf("MarshalText of an empty Job: %v", err)
	}
	if s := (&c30.Job{Id: &id}).String(); s != "id:0" {
		t.Errorf("String of a partial Job = %q", s)
	}
	var back c30.Job
	if err := back.UnmarshalText([]byte(`id: 1 parent {}`)); !errors.Is(err, wire.ErrRequired) {
		t.Errorf("Unmarshal without mode: %v", err)
	}
	if err := back.UnmarshalProtoText([]byte(`id: 1`), prototext.UnmarshalOptions{AllowPartial: true}); err != nil || back.GetId() != 1 {
		t.Errorf("AllowPartial: %v", err)
	}
}
