package structpb_test

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	ref "google.golang.org/protobuf/types/known/structpb"

	"github.com/protoplay/protoplay/runtime/wkt/structpb"
)

var deterministic = proto.MarshalOptions{Deterministic: true}

// goValues are inputs NewValue accepts, with what AsInterface gives back.
var goValues = []struct {
	name string
	in   any
	out  any
}{
	{"nil", nil, nil},
	{"true", true, true},
	{"false", false, false},
	{"int", -7, float64(-7)},
	{"int8", int8(math.MinInt8), float64(math.MinInt8)},
	{"int16", int16(math.MaxInt16), float64(math.MaxInt16)},
	{"int32", int32(math.MinInt32), float64(math.MinInt32)},
	{"int64", int64(math.MaxInt64), float64(math.MaxInt64)},
	{"int64 2^53+1", int64(1<<53 + 1), float64(1 << 53)},
	{"uint", uint(7), float64(7)},
	{"uint8", uint8(255), float64(255)},
	{"uint16", uint16(65535), float64(65535)},
	{"uint32", uint32(math.MaxUint32), float64(math.MaxUint32)},
	{"uint64", uint64(math.MaxUint64), float64(math.MaxUint64)},
	{"float32", float32(1.5), 1.5},
	{"float64", 0.1, 0.1},
	{"negative zero", math.Copysign(0, -1), math.Copysign(0, -1)},
	{"max float", math.MaxFloat64, math.MaxFloat64},
	{"smallest float", math.SmallestNonzeroFloat64, math.SmallestNonzeroFloat64},
	{"NaN", math.NaN(), "NaN"},
	{"+Inf", math.Inf(1), "Infinity"},
	{"-Inf", math.Inf(-1), "-Infinity"},
	{"float32 Inf", float32(math.Inf(-1)), "-Infinity"},
	{"string", "héllo", "héllo"},
	{"empty string", "", ""},
	{"bytes", []byte{0, 1, 0xfe, 0xff}, "AAH+/w=="},
	{"empty bytes", []byte{}, ""},
	{"nil bytes", []byte(nil), ""},
	{"empty map", map[string]any{}, map[string]any{}},
	{"nil map", map[string]any(nil), map[string]any{}},
	{"empty list", []any{}, []any{}},
	{"nil list", []any(nil), []any{}},
	{"map", map[string]any{"a": 1, "b": "x", "": nil}, map[string]any{"a": float64(1), "b": "x", "": nil}},
	{"list", []any{1, "x", true, nil}, []any{float64(1), "x", true, nil}},
	{
		"nested",
		map[string]any{
			"list":   []any{[]any{[]any{}}, map[string]any{"k": []any{math.NaN(), math.Inf(1)}}},
			"struct": map[string]any{"inner": map[string]any{"deep": []byte("hi")}},
			"num":    uint16(3),
		},
		map[string]any{
			"list":   []any{[]any{[]any{}}, map[string]any{"k": []any{"NaN", "Infinity"}}},
			"struct": map[string]any{"inner": map[string]any{"deep": "aGk="}},
			"num":    float64(3),
		},
	},
	{"deep list", []any{[]any{[]any{[]any{[]any{"bottom"}}}}}, []any{[]any{[]any{[]any{[]any{"bottom"}}}}}},
}

func TestNewValueAsInterface(t *testing.T) {
	for _, tt := range goValues {
		t.Run(tt.name, func(t *testing.T) {
			v, err := structpb.NewValue(tt.in)
			if err != nil {
				t.Fatalf("NewValue: %v", err)
			}
			got := v.AsInterface()
			if !sameValue(got, tt.out) {
				t.Errorf("AsInterface = %#v, want %#v", got, tt.out)
			}

			// protobuf-go, given the same Go value, must make the same
			// message: same deterministic bytes and same AsInterface.
			want, err := ref.NewValue(tt.in)
			if err != nil {
				t.Fatalf("protobuf-go NewValue: %v", err)
			}
			if w := want.AsInterface(); !sameValue(got, w) {
				t.Errorf("AsInterface = %#v, protobuf-go gives %#v", got, w)
			}
			ours, err := v.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			theirs, err := deterministic.Marshal(want)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(ours, theirs) {
				t.Errorf("Marshal = %x, protobuf-go writes %x", ours, theirs)
			}

			// Decode each side's bytes with the other.
			var back structpb.Value
			if err := back.Unmarshal(theirs); err != nil {
				t.Fatal(err)
			}
			if !sameValue(back.AsInterface(), tt.out) {
				t.Errorf("protoplay decodes protobuf-go's bytes to %#v, want %#v", back.AsInterface(), tt.out)
			}
			var theirBack ref.Value
			if err := proto.Unmarshal(ours, &theirBack); err != nil {
				t.Fatal(err)
			}
			if !sameValue(theirBack.AsInterface(), tt.out) {
				t.Errorf("protobuf-go decodes protoplay's bytes to %#v, want %#v", theirBack.AsInterface(), tt.out)
			}
		})
	}
}

// sameValue is reflect.DeepEqual except that it tells -0 from +0.
func sameValue(a, b any) bool {
	if !reflect.DeepEqual(a, b) {
		return false
	}
	fa, ok1 := a.(float64)
	fb, ok2 := b.(float64)
	if ok1 && ok2 {
		return math.Signbit(fa) == math.Signbit(fb)
	}
	return true
}

func TestNewStructAndList(t *testing.T) {
	in := map[string]any{"a": []any{1, map[string]any{"b": false}}, "c": nil}
	s, err := structpb.NewStruct(in)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"a": []any{float64(1), map[string]any{"b": false}}, "c": nil}
	if got := s.AsMap(); !reflect.DeepEqual(got, want) {
		t.Errorf("AsMap = %#v, want %#v", got, want)
	}
	refStruct, err := ref.NewStruct(in)
	if err != nil {
		t.Fatal(err)
	}
	ours, _ := s.Marshal()
	theirs, _ := deterministic.Marshal(refStruct)
	if !bytes.Equal(ours, theirs) {
		t.Errorf("Struct Marshal = %x, protobuf-go writes %x", ours, theirs)
	}

	l, err := structpb.NewList([]any{"x", []any{}, map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := l.AsSlice(), []any{"x", []any{}, map[string]any{}}; !reflect.DeepEqual(got, want) {
		t.Errorf("AsSlice = %#v, want %#v", got, want)
	}
	refList, _ := ref.NewList([]any{"x", []any{}, map[string]any{}})
	ours, _ = l.Marshal()
	theirs, _ = deterministic.Marshal(refList)
	if !bytes.Equal(ours, theirs) {
		t.Errorf("ListValue Marshal = %x, protobuf-go writes %x", ours, theirs)
	}
}

func TestNewKindConstructors(t *testing.T) {
	s := &structpb.Struct{Fields: map[string]*structpb.Value{"k": structpb.NewStringValue("v")}}
	l := &structpb.ListValue{Values: []*structpb.Value{structpb.NewNullValue()}}
	tests := []struct {
		v    *structpb.Value
		kind any
		want any
	}{
		{structpb.NewNullValue(), &structpb.Value_NullValue{}, nil},
		{structpb.NewBoolValue(true), &structpb.Value_BoolValue{BoolValue: true}, true},
		{structpb.NewNumberValue(2.5), &structpb.Value_NumberValue{NumberValue: 2.5}, 2.5},
		{structpb.NewStringValue("s"), &structpb.Value_StringValue{StringValue: "s"}, "s"},
		{structpb.NewStructValue(s), &structpb.Value_StructValue{StructValue: s}, map[string]any{"k": "v"}},
		{structpb.NewListValue(l), &structpb.Value_ListValue{ListValue: l}, []any{nil}},
	}
	for _, tt := range tests {
		if !reflect.DeepEqual(any(tt.v.Kind), tt.kind) {
			t.Errorf("Kind = %#v, want %#v", tt.v.Kind, tt.kind)
		}
		if got := tt.v.AsInterface(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("AsInterface = %#v, want %#v", got, tt.want)
		}
	}
	if structpb.NewStructValue(s).GetStructValue() != s || structpb.NewListValue(l).GetListValue() != l {
		t.Error("NewStructValue/NewListValue copied their argument")
	}
}

func TestNilAndEmpty(t *testing.T) {
	var v *structpb.Value
	if got := v.AsInterface(); got != nil {
		t.Errorf("nil Value: AsInterface = %#v", got)
	}
	if got := (&structpb.Value{}).AsInterface(); got != nil {
		t.Errorf("Value without kind: AsInterface = %#v", got)
	}
	var s *structpb.Struct
	if m := s.AsMap(); m == nil || len(m) != 0 {
		t.Errorf("nil Struct: AsMap = %#v, want an empty non-nil map", m)
	}
	var l *structpb.ListValue
	if sl := l.AsSlice(); sl == nil || len(sl) != 0 {
		t.Errorf("nil ListValue: AsSlice = %#v, want an empty non-nil slice", sl)
	}
	// Set oneof members holding nil messages, as protobuf-go handles them.
	if m := (&structpb.Value{Kind: &structpb.Value_StructValue{}}).AsInterface(); !reflect.DeepEqual(m, map[string]any{}) {
		t.Errorf("nil StructValue: AsInterface = %#v", m)
	}
	if sl := (&structpb.Value{Kind: &structpb.Value_ListValue{}}).AsInterface(); !reflect.DeepEqual(sl, []any{}) {
		t.Errorf("nil ListValue: AsInterface = %#v", sl)
	}
	if x := (&structpb.Value{Kind: (*structpb.Value_NumberValue)(nil)}).AsInterface(); x != nil {
		t.Errorf("nil *Value_NumberValue: AsInterface = %#v", x)
	}
	// Struct fields holding nil Values read as null.
	s = &structpb.Struct{Fields: map[string]*structpb.Value{"n": nil}}
	if m := s.AsMap(); !reflect.DeepEqual(m, map[string]any{"n": nil}) {
		t.Errorf("AsMap = %#v", m)
	}
}

func TestNewValueErrors(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"unsupported", struct{}{}, "structpb: unsupported Go type"},
		{"typed slice", []string{"a"}, "structpb: unsupported Go type"},
		{"typed map", map[string]int{"a": 1}, "structpb: unsupported Go type"},
		{"pointer", new(int), "structpb: unsupported Go type"},
		{"bad UTF-8", "a\xffb", `structpb: invalid UTF-8 in string "a\xffb"`},
		{"bad key", map[string]any{"\xff": 1}, `structpb: invalid UTF-8 in map key "\xff"`},
		{"nested", map[string]any{"a": []any{1, 2, map[string]any{"b": complex(1, 2)}}}, `structpb: unsupported Go type (want nil, bool, a number, string, []byte, map[string]any or []any) at ["a"][2]["b"]`},
		{"nested UTF-8", []any{[]any{"ok", "\xc0"}}, `structpb: invalid UTF-8 in string "\xc0" at [0][1]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := structpb.NewValue(tt.in)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("NewValue = %v, %v; want error starting %q", v, err, tt.want)
			}
			if v != nil {
				t.Errorf("NewValue returned %v with its error", v)
			}
			if _, err := ref.NewValue(tt.in); err == nil {
				t.Errorf("protobuf-go accepts what protoplay rejects")
			}
		})
	}
	if _, err := structpb.NewStruct(map[string]any{"x": []any{make(chan int)}}); err == nil || !strings.HasSuffix(err.Error(), `at ["x"][0]`) {
		t.Errorf("NewStruct error = %v, want one ending at [\"x\"][0]", err)
	}
	if _, err := structpb.NewList([]any{nil, uintptr(1)}); err == nil || !strings.HasSuffix(err.Error(), "at [1]") {
		t.Errorf("NewList error = %v, want one ending at [1]", err)
	}
}

// TestDecodeProtobufGoNaN checks the JSON-style rendering of numbers JSON
// cannot hold, on a Struct built by protobuf-go.
func TestDecodeProtobufGoNaN(t *testing.T) {
	in := map[string]any{"nan": math.NaN(), "inf": []any{math.Inf(1), math.Inf(-1)}}
	theirs, err := ref.NewStruct(in)
	if err != nil {
		t.Fatal(err)
	}
	b, err := proto.Marshal(theirs)
	if err != nil {
		t.Fatal(err)
	}
	var ours structpb.Struct
	if err := ours.Unmarshal(b); err != nil {
		t.Fatal(err)
	}
	if got, want := ours.AsMap(), theirs.AsMap(); !reflect.DeepEqual(got, want) {
		t.Errorf("AsMap = %#v, protobuf-go gives %#v", got, want)
	}
	if !math.IsNaN(ours.Fields["nan"].GetNumberValue()) {
		t.Errorf("NaN did not survive the wire: %v", ours.Fields["nan"])
	}
}
