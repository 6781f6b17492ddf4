package casetest

// Issue 24, kind 1: a typed-nil oneof wrapper is no member in every method
// (case 54). The expected texts are protobuf-go v1.36.12's (protojson,
// prototext, and protoc-gen-go's String on the same schema). compiler/gogen's
// TestTypedNilOneof covers every method of every schema with a oneof.

import (
	"errors"
	"fmt"
	"testing"

	b54 "gentest/example.com/bughunt/b54"

	"github.com/protoplay/protoplay/runtime/protojson"
	"github.com/protoplay/protoplay/runtime/wkt/structpb"
)

// Case 54: {O: (*M_Sub)(nil)} and the other members set to a typed nil
// read as an empty message in the JSON and text encoders, String and fmt.
func TestCase54TypedNilOneof(t *testing.T) {
	for _, m := range []*b54.M{{O: (*b54.M_Sub)(nil)}, {O: (*b54.M_S)(nil)}, {O: (*b54.M_N)(nil)}} {
		name := fmt.Sprintf("%T", m.O)
		if b, err := m.MarshalJSON(); err != nil || string(b) != "{}" {
			t.Errorf("%s: MarshalJSON = %s, %v; want {}", name, b, err)
		}
		if b, err := m.MarshalProtoJSON(protojson.MarshalOptions{EmitUnpopulated: true}); err != nil || string(b) != "{}" {
			t.Errorf("%s: MarshalProtoJSON(EmitUnpopulated) = %s, %v; want {} (oneof members are never emitted unset)", name, b, err)
		}
		if b, err := m.MarshalText(); err != nil || len(b) != 0 {
			t.Errorf("%s: MarshalText = %q, %v; want empty", name, b, err)
		}
		if s := m.String(); s != "" {
			t.Errorf("%s: String = %q, want empty", name, s)
		}
		if s := fmt.Sprint(m); s != "" {
			t.Errorf("%s: fmt.Sprint = %q, want empty", name, s)
		}
		if b, err := m.Marshal(); err != nil || len(b) != 0 || m.Size() != 0 {
			t.Errorf("%s: Marshal = %x, %v (Size %d); want empty", name, b, err, m.Size())
		}
		if !m.Equal(&b54.M{}) || !(&b54.M{}).Equal(m) || m.Clone().O != nil {
			t.Errorf("%s: Equal/Clone do not treat the nil wrapper as no member", name)
		}
	}
}

// Case 54, the hand-written google.protobuf.Value encoder: a typed-nil
// kind is no kind, which protojson refuses with the same error as an unset
// one; the text format (generated) writes nothing.
func TestCase54TypedNilValueKind(t *testing.T) {
	values := []*structpb.Value{{Kind: (*structpb.Value_NullValue)(nil)}, {Kind: (*structpb.Value_NumberValue)(nil)},
		{Kind: (*structpb.Value_StringValue)(nil)}, {Kind: (*structpb.Value_BoolValue)(nil)},
		{Kind: (*structpb.Value_StructValue)(nil)}, {Kind: (*structpb.Value_ListValue)(nil)}, {}}
	for _, v := range values {
		name := fmt.Sprintf("%T", v.Kind)
		_, err := v.MarshalJSON()
		if !errors.Is(err, protojson.ErrInvalidValue) || err.Error() != "protojson: google.protobuf.Value: none of the oneof fields is set" {
			t.Errorf("%s: MarshalJSON error = %v, want protojson's \"none of the oneof fields is set\"", name, err)
		}
		if s := v.String(); s != "" {
			t.Errorf("%s: String = %q, want empty", name, s)
		}
		if got := v.AsInterface(); got != nil {
			t.Errorf("%s: AsInterface = %v, want nil", name, got)
		}
	}
}
