package protojson_test

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	gjson "google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/protoplay/protoplay/runtime/protojson"
	"github.com/protoplay/protoplay/runtime/wire"
)

func compact(t *testing.T, b []byte) string {
	t.Helper()
	// protojson may put a space after the colon of a wrapper? No: a
	// wrapper's form is its bare value, with no spaces.
	return string(bytes.TrimSpace(b))
}

// TestFloatFormat: Float64 and Float32 write what protojson writes.
func TestFloatFormat(t *testing.T) {
	doubles := []float64{0, math.Copysign(0, -1), 1, -1.5, 1e-6, 9.99e-7, 1e-7, 1e20, 1e21, 1.5e300, 5e-324,
		math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN(), 123456789012345678, 0.1, 1.0 / 3}
	for _, v := range doubles {
		e := protojson.NewEncoder(nil, protojson.MarshalOptions{})
		e.Float64(v)
		want, err := gjson.Marshal(wrapperspb.Double(v))
		if err != nil {
			t.Fatal(err)
		}
		if got := string(e.Bytes()); got != compact(t, want) {
			t.Errorf("Float64(%v) = %s, protojson %s", v, got, want)
		}
		f := float32(v)
		e = protojson.NewEncoder(nil, protojson.MarshalOptions{})
		e.Float32(f)
		want, err = gjson.Marshal(wrapperspb.Float(f))
		if err != nil {
			t.Fatal(err)
		}
		if got := string(e.Bytes()); got != compact(t, want) {
			t.Errorf("Float32(%v) = %s, protojson %s", f, got, want)
		}
	}
}

// TestStringEscaping: String escapes what protojson escapes and fails on
// invalid UTF-8 as protojson does.
func TestStringEscaping(t *testing.T) {
	for _, s := range []string{"", "plain", "q\"b\\", "\x00\x01\x1f\x7f", "\b\f\n\r\t", "<>&", "\u2028\u2029", "é日😀", "\xff", "a\xc3"} {
		e := protojson.NewEncoder(nil, protojson.MarshalOptions{})
		err := e.String(s, "f")
		want, werr := gjson.Marshal(wrapperspb.String(s))
		if (err == nil) != (werr == nil) {
			t.Errorf("String(%q): error %v, protojson %v", s, err, werr)
			continue
		}
		if err != nil {
			if !errors.Is(err, protojson.ErrUTF8) {
				t.Errorf("String(%q): %v does not wrap ErrUTF8", s, err)
			}
			continue
		}
		if got := string(e.Bytes()); got != compact(t, want) {
			t.Errorf("String(%q) = %s, protojson %s", s, got, want)
		}
	}
}

// TestNameEscaping: Name writes a json_name holding any text as protojson
// writes the same field's name (issue 24, case 52), and a proto name
// (UseProtoNames) as it is.
func TestNameEscaping(t *testing.T) {
	for _, name := range []string{"plain", "a\"b\\c", "x\ny", "t\x01", "\x00\x1f\x7f", "\b\f\r\t", "<>&/", "\u2028\u2029", "é日😀", ""} {
		fdp := &descriptorpb.FileDescriptorProto{Name: proto.String("n.proto"), Package: proto.String("n"), Syntax: proto.String("proto3"),
			MessageType: []*descriptorpb.DescriptorProto{{Name: proto.String("M"), Field: []*descriptorpb.FieldDescriptorProto{{
				Name: proto.String("f"), Number: proto.Int32(1), JsonName: proto.String(name),
				Type: descriptorpb.FieldDescriptorProto_TYPE_INT32.Enum(), Label: descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum()}}}}}
		fd, err := protodesc.NewFile(fdp, nil)
		if err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		md := fd.Messages().Get(0)
		m := dynamicpb.NewMessage(md)
		m.Set(md.Fields().Get(0), protoreflect.ValueOfInt32(1))
		for _, protoNames := range []bool{false, true} {
			want, err := gjson.MarshalOptions{UseProtoNames: protoNames}.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			e := protojson.NewEncoder(nil, protojson.MarshalOptions{UseProtoNames: protoNames})
			e.StartObject()
			e.Name(name, "f")
			e.Int32(1)
			e.EndObject()
			if got := string(e.Bytes()); got != strings.ReplaceAll(compact(t, want), " ", "") {
				t.Errorf("Name(%q) (UseProtoNames %v) = %s, protojson %s", name, protoNames, got, want)
			}
		}
	}
	// Not UTF-8 (which the generator refuses in a json_name, and protojson
	// fails on): still a JSON string.
	e := protojson.NewEncoder(nil, protojson.MarshalOptions{})
	e.StartObject()
	e.Name("a\xffb", "f")
	e.Int32(1)
	e.EndObject()
	if got := string(e.Bytes()); got != "{\"a\uFFFDb\":1}" {
		t.Errorf("Name of invalid UTF-8 = %q", got)
	}
}

// TestSeparators: the encoder places commas itself.
func TestSeparators(t *testing.T) {
	e := protojson.NewEncoder([]byte("prefix:"), protojson.MarshalOptions{UseProtoNames: true})
	e.StartObject()
	e.Name("fooBar", "foo_bar")
	e.StartArray()
	e.Int64(-1)
	e.Uint64(2)
	e.StartObject()
	e.EndObject()
	e.Null()
	e.EndArray()
	e.KeyInt(-3)
	e.Bool(true)
	e.KeyBool(false)
	e.Bytes64([]byte{0xfb, 0xff})
	e.Name("e", "e")
	e.Enum(2, "TWO")
	e.EndObject()
	want := `prefix:{"foo_bar":["-1","2",{},null],"-3":true,"false":"+/8=","e":"TWO"}`
	if got := string(e.Bytes()); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestDecoderErrors: errors are *Error values with the position of the
// offending token and the right sentinel.
func TestDecoderErrors(t *testing.T) {
	cases := []struct {
		in         string
		read       func(d *protojson.Decoder) error
		sentinel   error
		line, col  int
		offset     int
		msgContain string
	}{
		{"  \n  x", func(d *protojson.Decoder) error { return d.ObjectStart() }, protojson.ErrSyntax, 2, 3, 5, "unexpected token x"},
		{`{"a" 1}`, keyThen(nil), protojson.ErrSyntax, 1, 6, 5, `missing ":"`},
		{`{"a": tru}`, keyThen(func(d *protojson.Decoder) error { _, err := d.Bool(); return err }), protojson.ErrSyntax, 1, 7, 6, "unexpected token tru"},
		{"{\"a\":\n \"x\"}", keyThen(func(d *protojson.Decoder) error { _, err := d.Int32(); return err }), protojson.ErrInvalidValue, 2, 2, 7, "invalid value for int32"},
		{`{"a": 4294967296}`, keyThen(func(d *protojson.Decoder) error { _, err := d.Uint32(); return err }), protojson.ErrInvalidValue, 1, 7, 6, "invalid value for uint32"},
		{`{"a": "NaN"}`, keyThen(func(d *protojson.Decoder) error { _, err := d.Int64(); return err }), protojson.ErrInvalidValue, 1, 7, 6, ""},
		{`{"a": "!!"}`, keyThen(func(d *protojson.Decoder) error { _, err := d.Bytes(); return err }), protojson.ErrInvalidValue, 1, 7, 6, "bytes"},
		{`{"日本": "\q"}`, keyThen(func(d *protojson.Decoder) error { _, err := d.String(); return err }), protojson.ErrSyntax, 1, 9, 12, "invalid escape"},
		// A surrogate escape with no pair after it is named, at itself
		// (it read as an unexpected end of input when few bytes followed).
		{`{"s": "\ud800"}`, keyThen(func(d *protojson.Decoder) error { _, err := d.String(); return err }), protojson.ErrSyntax, 1, 8, 7, `lone surrogate "\\ud800"`},
		{`{"s": "\udc00 and more text"}`, keyThen(func(d *protojson.Decoder) error { _, err := d.String(); return err }), protojson.ErrSyntax, 1, 8, 7, "lone surrogate"},
		{`{"s": "\ud800`, keyThen(func(d *protojson.Decoder) error { _, err := d.String(); return err }), protojson.ErrSyntax, 1, 14, 13, "end of input"},
		{`{"a": 1`, keyThen(func(d *protojson.Decoder) error {
			if _, err := d.Int32(); err != nil {
				return err
			}
			_, _, err := d.Key()
			return err
		}), protojson.ErrSyntax, 1, 8, 7, "end of input"},
		{`{"x": 1}`, keyThen(func(d *protojson.Decoder) error { return d.Unknown() }), protojson.ErrUnknownField, 1, 2, 1, `unknown field "x"`},
	}
	for _, c := range cases {
		d := protojson.NewDecoder([]byte(c.in), protojson.UnmarshalOptions{})
		err := c.read(d)
		var pe *protojson.Error
		if !errors.As(err, &pe) {
			t.Errorf("%q: got %v, want a *protojson.Error", c.in, err)
			continue
		}
		if !errors.Is(err, c.sentinel) || pe.Line != c.line || pe.Column != c.col || pe.Offset != c.offset || !strings.Contains(pe.Msg, c.msgContain) {
			t.Errorf("%q: got %v (line %d col %d offset %d), want %v at %d:%d offset %d containing %q", c.in, err, pe.Line, pe.Column, pe.Offset, c.sentinel, c.line, c.col, c.offset, c.msgContain)
		}
	}
}

func keyThen(f func(d *protojson.Decoder) error) func(d *protojson.Decoder) error {
	return func(d *protojson.Decoder) error {
		if err := d.ObjectStart(); err != nil {
			return err
		}
		if _, _, err := d.Key(); err != nil {
			return err
		}
		if f == nil {
			return nil
		}
		return f(d)
	}
}

// TestDepthLimit: Enter fails with wire.ErrDepth past the limit, which
// defaults to wire.DefaultMaxDepth; Skip counts nesting too.
func TestDepthLimit(t *testing.T) {
	d := protojson.NewDecoder(nil, protojson.UnmarshalOptions{})
	for i := 0; i < wire.DefaultMaxDepth; i++ {
		if err := d.Enter(); err != nil {
			t.Fatalf("level %d: %v", i+1, err)
		}
	}
	if err := d.Enter(); !errors.Is(err, wire.ErrDepth) {
		t.Fatalf("level %d: got %v, want wire.ErrDepth", wire.DefaultMaxDepth+1, err)
	}
	deep := strings.Repeat("[", 5) + strings.Repeat("]", 5)
	d = protojson.NewDecoder([]byte(deep), protojson.UnmarshalOptions{RecursionLimit: 4})
	if err := d.Skip(); !errors.Is(err, protojson.ErrDepth) {
		t.Errorf("Skip of 5 levels under a limit of 4: %v", err)
	}
	d = protojson.NewDecoder([]byte(deep), protojson.UnmarshalOptions{RecursionLimit: 5})
	if err := d.Skip(); err != nil {
		t.Errorf("Skip of 5 levels under a limit of 5: %v", err)
	}
}

// FuzzSkip: Skip on any input returns (never panics or loops), and accepts
// exactly the single JSON values encoding/json's Valid accepts, except for
// invalid UTF-8 in strings, which protojson (and so the Decoder) rejects.
func FuzzSkip(f *testing.F) {
	for _, s := range []string{`{}`, `[1, "a", {"b": null}]`, `"\ud800"`, `1e`, `-0.5E+3`, `{"a":}`, `[1,]`, `tru`, `"\u00e9"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d := protojson.NewDecoder([]byte(s), protojson.UnmarshalOptions{RecursionLimit: 10000})
		err := d.Skip()
		if err == nil {
			err = d.End()
		}
		valid := jsonValid(s)
		if (err == nil) != valid {
			t.Errorf("%q: Skip error %v, but valid JSON = %v", s, err, valid)
		}
	})
}
