package wirekind

import (
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
)

// TestOf checks Of for every field kind against the oracle: a proto2
// message with one optional field of each kind, every field set, is
// marshaled by google.golang.org/protobuf, and each field's tag must carry
// the wire type Of gives its kind.
func TestOf(t *testing.T) {
	fdp := &descriptorpb.FileDescriptorProto{
		Name:    proto.String("kinds.proto"),
		Package: proto.String("kinds"),
		Syntax:  proto.String("proto2"),
		EnumType: []*descriptorpb.EnumDescriptorProto{{
			Name:  proto.String("E"),
			Value: []*descriptorpb.EnumValueDescriptorProto{{Name: proto.String("ZERO"), Number: proto.Int32(0)}},
		}},
		MessageType: []*descriptorpb.DescriptorProto{{
			Name:       proto.String("M"),
			NestedType: []*descriptorpb.DescriptorProto{{Name: proto.String("Fgroup")}},
		}},
	}
	m := fdp.MessageType[0]
	for k := protoreflect.Kind(1); k <= protoreflect.Sint64Kind; k++ {
		if !k.IsValid() {
			continue
		}
		f := &descriptorpb.FieldDescriptorProto{
			Name:   proto.String("f" + k.String()),
			Number: proto.Int32(int32(k)),
			Label:  descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(),
			Type:   descriptorpb.FieldDescriptorProto_Type(k).Enum(),
		}
		switch k {
		case protoreflect.EnumKind:
			f.TypeName = proto.String(".kinds.E")
		case protoreflect.MessageKind:
			f.TypeName = proto.String(".kinds.M")
		case protoreflect.GroupKind:
			f.TypeName = proto.String(".kinds.M.Fgroup")
		}
		m.Field = append(m.Field, f)
	}
	fd, err := protodesc.NewFile(fdp, nil)
	if err != nil {
		t.Fatal(err)
	}
	md := fd.Messages().ByName("M")
	msg := dynamicpb.NewMessage(md)
	fields := md.Fields()
	for i := 0; i < fields.Len(); i++ {
		f := fields.Get(i)
		if f.Message() != nil {
			msg.Mutable(f)
		} else {
			msg.Set(f, f.Default())
		}
	}
	b, err := proto.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeField(b)
		if n < 0 {
			t.Fatal(protowire.ParseError(n))
		}
		k := fields.ByNumber(num).Kind()
		if got := Of(k); protowire.Type(got) != typ {
			t.Errorf("Of(%v) = %v, protobuf-go writes wire type %d", k, got, typ)
		}
		seen++
		b = b[n:]
	}
	if seen != fields.Len() {
		t.Fatalf("checked %d kinds, want %d", seen, fields.Len())
	}
}
