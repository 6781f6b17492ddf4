// Package wirekind maps a field's kind to the wire type its values are
// written with, for the code generator (compiler/gogen) and the payload
// codec (compiler/payload), in runtime/wire's terms.
package wirekind

import (
	"github.com/protoplay/protoplay/runtime/wire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Of returns the wire type one value of kind k is written with
// (https://protobuf.dev/programming-guides/encoding/#structure): VARINT for
// bool, enum and the int, uint and sint kinds; I32 for fixed32, sfixed32
// and float; I64 for fixed64, sfixed64 and double; SGROUP for a group
// (delimited) field; LEN for string, bytes and message. A packed repeated
// field is one LEN value holding elements of this type.
func Of(k protoreflect.Kind) wire.Type {
	switch k {
	case protoreflect.BoolKind, protoreflect.EnumKind, protoreflect.Int32Kind, protoreflect.Sint32Kind,
		protoreflect.Uint32Kind, protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Uint64Kind:
		return wire.VarintType
	case protoreflect.Fixed32Kind, protoreflect.Sfixed32Kind, protoreflect.FloatKind:
		return wire.Fixed32Type
	case protoreflect.Fixed64Kind, protoreflect.Sfixed64Kind, protoreflect.DoubleKind:
		return wire.Fixed64Type
	case protoreflect.GroupKind:
		return wire.StartGroupType
	}
	return wire.BytesType
}
