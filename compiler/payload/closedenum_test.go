package payload

import (
	"bytes"
	"math/rand"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/protoplay/protoplay/runtime/wkt/descriptorpb"
)

// TestClosedEnumUnknownValues: a closed enum's undeclared number read from
// binary input is kept as an unknown field, the field untouched, as
// protoplay's generated code keeps it, which passes the conformance suite's
// closed-enum tests (the oracle: runtime/wkt/descriptorpb, whose Label,
// Type and OptionTargetType are proto2 enums; protobuf-go's descriptorpb
// keeps the numbers in the fields, see docs/conformance.md). Singular and
// repeated fields, the packed form of an unpacked list, a nested message
// and other unknown fields around them are compared by re-encoding both
// messages, which writes the unknown fields in the order read.
func TestClosedEnumUnknownValues(t *testing.T) {
	s := compileSource(t, "syntax = \"proto2\";\npackage x;\nimport \"google/protobuf/descriptor.proto\";\nmessage Unused { optional google.protobuf.FieldDescriptorProto f = 1; }\n")
	md := mustFind(t, s, "google.protobuf.FieldDescriptorProto")
	varint := func(b []byte, num protowire.Number, v uint64) []byte {
		return protowire.AppendVarint(protowire.AppendTag(b, num, protowire.VarintType), v)
	}
	lenField := func(b []byte, num protowire.Number, v []byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(b, num, protowire.BytesType), v)
	}
	// Records of FieldDescriptorProto: label (4), type (5), name (1),
	// an unknown field (99), options (8) with targets (19, repeated
	// OptionTargetType, 0 to 9 declared) in either form.
	record := func(r *rand.Rand) []byte {
		nums := []uint64{0, 1, 2, 3, 7, 9, 10, 18, 19, 1 << 31, 1<<32 - 1, 1<<64 - 1}
		pick := func() uint64 { return nums[r.Intn(len(nums))] }
		switch r.Intn(6) {
		case 0:
			return varint(nil, 4, pick())
		case 1:
			return varint(nil, 5, pick())
		case 2:
			return lenField(nil, 1, []byte("n"))
		case 3:
			return varint(nil, 99, pick())
		case 4:
			return lenField(nil, 8, varint(varint(nil, 19, pick()), 1, 1))
		default:
			var packed []byte
			for range 1 + r.Intn(4) {
				packed = protowire.AppendVarint(packed, pick())
			}
			return lenField(nil, 8, lenField(varint(nil, 3, 1), 19, packed))
		}
	}
	r := rand.New(rand.NewSource(1))
	inputs := [][]byte{varint(nil, 4, 7), varint(varint(nil, 4, 1), 4, 7)}
	for range 400 {
		var in []byte
		for range 1 + r.Intn(6) {
			in = append(in, record(r)...)
		}
		inputs = append(inputs, in)
	}
	opts := proto.MarshalOptions{Deterministic: true}
	for _, in := range inputs {
		want := new(descriptorpb.FieldDescriptorProto)
		if err := want.Unmarshal(in); err != nil {
			t.Fatalf("%x: %v", in, err)
		}
		got := dynamicpb.NewMessage(md)
		if err := s.unmarshalBinary(proto.UnmarshalOptions{Resolver: s.Types}, in, got); err != nil {
			t.Fatalf("%x: %v", in, err)
		}
		wb, _ := want.Marshal()
		gb, _ := opts.Marshal(got)
		if !bytes.Equal(wb, gb) {
			t.Fatalf("input %x:\ngenerated code re-encodes %x\npayload re-encodes        %x", in, wb, gb)
		}
	}
}

// TestClosedEnumMapEntry: a map entry whose value is a closed enum's
// undeclared number goes to the unknown fields whole (as generated code
// keeps it), the key absent; a field 19000 of the input itself, the
// placeholders' number, stays as it was.
func TestClosedEnumMapEntry(t *testing.T) {
	s := compileSource(t, "syntax = \"proto2\";\npackage r;\nmessage R { enum E { A = 0; B = 1; } map<string, E> me = 5; map<string, R> sub = 6; optional E e = 3; }\n")
	md := mustFind(t, s, "r.R")
	entry := func(key string, v uint64) []byte {
		e := protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), []byte(key))
		return protowire.AppendBytes(protowire.AppendTag(nil, 5, protowire.BytesType), protowire.AppendVarint(protowire.AppendTag(e, 2, protowire.VarintType), v))
	}
	own := protowire.AppendBytes(protowire.AppendTag(nil, 19000, protowire.BytesType), []byte("mine"))
	bad, good := entry("k", 7), entry("l", 1)
	undeclared := protowire.AppendVarint(protowire.AppendTag(nil, 3, protowire.VarintType), 9)
	inner := append(append([]byte{}, own...), bad...)
	nested := protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), []byte("s"))
	nested = protowire.AppendBytes(protowire.AppendTag(nested, 2, protowire.BytesType), append(inner, undeclared...))
	in := append(append(append(append([]byte{}, bad...), own...), good...), protowire.AppendBytes(protowire.AppendTag(nil, 6, protowire.BytesType), nested)...)
	m := dynamicpb.NewMessage(md)
	if err := s.unmarshalBinary(proto.UnmarshalOptions{Resolver: s.Types}, in, m); err != nil {
		t.Fatal(err)
	}
	me := m.Get(md.Fields().ByName("me")).Map()
	if me.Len() != 1 || me.Get(protoreflectString("l")).Enum() != 1 {
		t.Errorf("map holds %v, want only l: B", me)
	}
	if u := []byte(m.GetUnknown()); !bytes.Equal(u, append(append([]byte{}, bad...), own...)) {
		t.Errorf("unknown fields %x, want the entry then field 19000: %x%x", u, bad, own)
	}
	sub := m.Get(md.Fields().ByName("sub")).Map().Get(protoreflectString("s")).Message()
	if u := []byte(sub.GetUnknown()); !bytes.Equal(u, append(inner, undeclared...)) || sub.Has(md.Fields().ByName("e")) {
		t.Errorf("nested: unknown fields %x, e set %v; want %x%x, e unset", u, sub.Has(md.Fields().ByName("e")), inner, undeclared)
	}
}

func protoreflectString(s string) protoreflect.MapKey { return protoreflect.ValueOfString(s).MapKey() }
