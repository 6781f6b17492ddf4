package wire

import (
	"bytes"
	"math"
	"strings"
)

// This file holds extensions (protobuf.dev/programming-guides/proto2/#extensions,
// protobuf.dev/programming-guides/encoding/#last-one-wins). protoplay has no
// extension registry and no per-message extension storage: an extension's
// values stay in the extended message's unknown fields, as they came on the
// wire or as Set wrote them, so Marshal, Unmarshal, Clone and Equal treat
// them as they treat any unknown field. Generated code declares one
// statically initialised [Ext] (or [ExtList], for a repeated extension) per
// extension, named as protoc-gen-go names it (E_Foo, E_Msg_Foo for one
// declared inside message Msg), and one list of the file's extensions for
// the ProtoJSON and text codecs (runtime/protojson and runtime/prototext
// read and write an extension by "[full.name]" when it is in the list their
// options hold).

// Kind is a field's type as descriptor.proto numbers it
// (FieldDescriptorProto.Type): it fixes the wire type and the conversion of
// the value.
type Kind uint8

// The kinds, numbered as FieldDescriptorProto.Type numbers them.
const (
	DoubleKind   Kind = 1
	FloatKind    Kind = 2
	Int64Kind    Kind = 3
	Uint64Kind   Kind = 4
	Int32Kind    Kind = 5
	Fixed64Kind  Kind = 6
	Fixed32Kind  Kind = 7
	BoolKind     Kind = 8
	StringKind   Kind = 9
	GroupKind    Kind = 10 // a proto2 group, or a message field with editions' DELIMITED encoding
	MessageKind  Kind = 11
	BytesKind    Kind = 12
	Uint32Kind   Kind = 13
	EnumKind     Kind = 14
	Sfixed32Kind Kind = 15
	Sfixed64Kind Kind = 16
	Sint32Kind   Kind = 17
	Sint64Kind   Kind = 18
)

// WireType is the wire type of one (unpacked) value of kind k.
func (k Kind) WireType() Type {
	switch k {
	case DoubleKind, Fixed64Kind, Sfixed64Kind:
		return Fixed64Type
	case FloatKind, Fixed32Kind, Sfixed32Kind:
		return Fixed32Type
	case StringKind, BytesKind, MessageKind:
		return BytesType
	case GroupKind:
		return StartGroupType
	}
	return VarintType
}

// packable reports whether values of kind k may be packed (every scalar
// kind but strings and bytes).
func (k Kind) packable() bool {
	switch k {
	case StringKind, BytesKind, MessageKind, GroupKind:
		return false
	}
	return true
}

// Extension describes one extension field: what the ProtoJSON and text
// codecs need to find it by name in an extended message's unknown fields
// and convert its values. Generated code declares it statically, inside an
// [Ext] or [ExtList]; a file's list of extensions points at those.
type Extension struct {
	// FullName is the extension's full name ("pkg.ext", or "pkg.Msg.ext"
	// for one declared inside message pkg.Msg): ProtoJSON and the text
	// format write it as "[pkg.ext]".
	FullName string
	// Extendee is the full name of the message it extends ("pkg.Target").
	Extendee string
	// Number is its field number.
	Number int32
	// Kind is its type.
	Kind Kind
	// Repeated is set for a repeated extension.
	Repeated bool
	// Packed is set for a repeated scalar extension written packed (proto2
	// [packed = true], proto3, editions repeated_field_encoding = PACKED).
	// Reading accepts both forms whatever it says.
	Packed bool
	// ClosedEnum is set for an EnumKind extension whose enum is closed
	// (proto2, editions enum_type = CLOSED): a number the enum does not
	// declare is not a value of the extension and stays an unknown field,
	// as protobuf does with closed enums.
	ClosedEnum bool
	// New returns a new, empty message of the extension's type, as a
	// pointer to the generated struct (MessageKind and GroupKind only).
	New func() any
	// Enum returns p as a pointer to the enum's Go type, (*E)(p), which has
	// the generated enum methods (String, EncodeProtoJSON, ...) (EnumKind
	// only).
	Enum func(p *int32) any
	// MessageSet is set for a message extension of a message with the
	// legacy message_set_wire_format option: each value is an item, a
	// group of field number 1 holding type_id = 2 (the extension's number)
	// and message = 3 (the value's encoding), instead of a field.
	MessageSet bool
}

// TextName is the name ProtoJSON and the text format give x between
// brackets: its full name, or for a MessageSet extension declared the
// conventional way (a message extension named message_set_extension inside
// its own message type) the full name of that type, as protojson and
// prototext name it.
func (x *Extension) TextName() string {
	if x.MessageSet && x.Kind == MessageKind {
		if p, ok := strings.CutSuffix(x.FullName, ".message_set_extension"); ok {
			return p
		}
	}
	return x.FullName
}

// The field numbers of a MessageSet item (message_set_wire_format).
const (
	messageSetItem    = 1
	messageSetTypeID  = 2
	messageSetMessage = 3
)

// parseMessageSetItem returns the type_id and message of the MessageSet item
// whose contents (up to its END_GROUP tag) are b; ok is false when b is not
// an item.
func parseMessageSetItem(b []byte) (typeID uint64, msg []byte, ok bool) {
	hasID := false
	for len(b) > 0 {
		num, typ, n := ConsumeTag(b)
		if n < 0 {
			return 0, nil, false
		}
		b = b[n:]
		switch {
		case num == messageSetTypeID && typ == VarintType:
			v, m := ConsumeVarint(b)
			if m < 0 {
				return 0, nil, false
			}
			typeID, hasID, b = v, true, b[m:]
			continue
		case num == messageSetMessage && typ == BytesType:
			v, m := ConsumeBytes(b)
			if m < 0 {
				return 0, nil, false
			}
			msg, b = append(msg, v...), b[m:]
			continue
		}
		m := ConsumeFieldValue(num, typ, b, MaxUnknownGroupDepth)
		if m < 0 {
			return 0, nil, false
		}
		b = b[m:]
	}
	return typeID, msg, hasID
}

// isItem reports whether the record of field num, wire type typ and
// value val (a group's contents with its END_GROUP tag) is a MessageSet
// item of x.
func (x *Extension) isItem(num int32, typ Type, val []byte) ([]byte, bool) {
	if num != messageSetItem || typ != StartGroupType {
		return nil, false
	}
	g, n := ConsumeGroup(num, val, MaxUnknownGroupDepth)
	if n < 0 {
		return nil, false
	}
	id, msg, ok := parseMessageSetItem(g)
	if !ok || id != uint64(uint32(x.Number)) {
		return nil, false
	}
	if msg == nil {
		msg = []byte{}
	}
	return msg, true
}

// ExtensionMessage is what an extension needs of a message value: the
// methods every generated message has on its pointer type (see "Generated
// messages" in the package documentation).
type ExtensionMessage interface {
	UnmarshalWith(d *Decoder, b []byte, depth int) error
	MarshalAppend(b []byte) ([]byte, error)
	Size() int
}

// Extendable is what an extension needs of the message it extends: the
// address of its unknown-field storage (nil for a nil message). Generated
// messages that declare extension ranges have the method.
type Extendable interface {
	ProtoUnknownFields() **[]byte
}

// ExtensionValue is one value of an extension as the wire holds it: Bits
// is the varint, or the fixed32 or fixed64 bits, of a numeric kind; Bytes
// is the value of a string, bytes or message (the LEN payload) or the
// contents of a group (up to its END_GROUP tag). Bytes alias the input.
type ExtensionValue struct {
	Bits  uint64
	Bytes []byte
}

// accepts reports whether a record of wire type typ holds values of x: the
// wire type of its kind, or LEN for a packed run of a repeated scalar. A
// record of another wire type with x's number is not x's: it stays an
// unknown field, as in protobuf.
func (x *Extension) accepts(typ Type) bool {
	return typ == x.Kind.WireType() || (x.Repeated && typ == BytesType && x.Kind.packable())
}

// Values returns the values of x held in the unknown fields u, in wire
// order, packed runs expanded. Records of x's number with another wire
// type, and undeclared numbers of a closed enum, are left out. u is assumed
// to parse (generated Unmarshal keeps only complete fields); a malformed
// tail ends the scan.
func (x *Extension) Values(u []byte) []ExtensionValue {
	var out []ExtensionValue
	x.scan(u, func(_, _ int, v ExtensionValue) { out = append(out, v) })
	return out
}

// Has reports whether the unknown fields u hold a value of x.
func (x *Extension) Has(u []byte) bool {
	has := false
	x.scan(u, func(_, _ int, _ ExtensionValue) { has = true })
	return has
}

// scan calls f for each value of x in u, with the bounds of its record
// (a packed record's values share them).
func (x *Extension) scan(u []byte, f func(start, end int, v ExtensionValue)) {
	for i := 0; i < len(u); {
		num, typ, n := ConsumeTag(u[i:])
		if n < 0 {
			return
		}
		m := ConsumeFieldValue(num, typ, u[i+n:], MaxUnknownGroupDepth)
		if m < 0 {
			return
		}
		start, val := i, u[i+n:i+n+m]
		i += n + m
		if x.MessageSet {
			if msg, ok := x.isItem(num, typ, val); ok {
				f(start, i, ExtensionValue{Bytes: msg})
			}
			continue
		}
		if num != x.Number || !x.accepts(typ) {
			continue
		}
		switch {
		case typ == BytesType && x.Kind.packable():
			p, _ := ConsumeBytes(val)
			for len(p) > 0 {
				v, k := x.consumeScalar(p)
				if k < 0 {
					break
				}
				p = p[k:]
				if x.keep(v) {
					f(start, i, v)
				}
			}
		case typ == BytesType:
			p, _ := ConsumeBytes(val)
			f(start, i, ExtensionValue{Bytes: p})
		case typ == StartGroupType:
			g, _ := ConsumeGroup(num, val, MaxUnknownGroupDepth)
			f(start, i, ExtensionValue{Bytes: g})
		default:
			v, _ := x.consumeScalar(val)
			if x.keep(v) {
				f(start, i, v)
			}
		}
	}
}

// consumeScalar reads one numeric value of x from the front of b.
func (x *Extension) consumeScalar(b []byte) (ExtensionValue, int) {
	switch x.Kind.WireType() {
	case Fixed32Type:
		v, n := ConsumeFixed32(b)
		return ExtensionValue{Bits: uint64(v)}, n
	case Fixed64Type:
		v, n := ConsumeFixed64(b)
		return ExtensionValue{Bits: v}, n
	}
	v, n := ConsumeVarint(b)
	return ExtensionValue{Bits: v}, n
}

// keep reports whether v is a value of x: false only for a number a closed
// enum does not declare.
func (x *Extension) keep(v ExtensionValue) bool {
	if x.Kind != EnumKind || !x.ClosedEnum || x.Enum == nil {
		return true
	}
	n := int32(v.Bits)
	return EnumDeclared(x.Enum(&n))
}

// EnumDeclared reports whether e, a generated enum value or a pointer to
// one, is a number its enum declares: generated String methods return the
// value's name, an identifier, for a declared number and the number in
// decimal otherwise.
func EnumDeclared(e any) bool {
	s, ok := e.(interface{ String() string })
	if !ok {
		return true
	}
	name := s.String()
	return name != "" && name[0] != '-' && (name[0] < '0' || name[0] > '9')
}

// scanRecord calls f for each number in val, the value of a VARINT or
// packed LEN record of x, reporting whether it is a value of x (see keep).
func (x *Extension) scanRecord(typ Type, val []byte, f func(v ExtensionValue, isValue bool)) {
	if typ == BytesType {
		p, _ := ConsumeBytes(val)
		for len(p) > 0 {
			v, k := x.consumeScalar(p)
			if k < 0 {
				return
			}
			p = p[k:]
			f(v, x.keep(v))
		}
		return
	}
	v, k := x.consumeScalar(val)
	if k >= 0 {
		f(v, x.keep(v))
	}
}

// Remove deletes the records holding values of x from the unknown fields
// *u (records of x's number with another wire type stay, and so do a
// closed enum's undeclared numbers); storage emptied becomes nil.
func (x *Extension) Remove(u **[]byte) {
	if *u == nil {
		return
	}
	b := **u
	var out []byte
	last, cut := 0, false
	for i := 0; i < len(b); {
		num, typ, n := ConsumeTag(b[i:])
		if n < 0 {
			break
		}
		m := ConsumeFieldValue(num, typ, b[i+n:], MaxUnknownGroupDepth)
		if m < 0 {
			break
		}
		var mine bool
		if x.MessageSet {
			_, mine = x.isItem(num, typ, b[i+n:i+n+m])
		} else {
			mine = num == x.Number && x.accepts(typ)
		}
		if mine {
			if !cut {
				out = make([]byte, 0, len(b))
				cut = true
			}
			out = append(out, b[last:i]...)
			last = i + n + m
			// A closed enum's undeclared numbers are unknown fields, not
			// values of x: they stay, one varint record each.
			if x.Kind == EnumKind && x.ClosedEnum {
				x.scanRecord(typ, b[i+n:i+n+m], func(v ExtensionValue, isValue bool) {
					if !isValue {
						out = AppendTag(out, x.Number, VarintType)
						out = AppendVarint(out, v.Bits)
					}
				})
			}
		}
		i += n + m
	}
	if !cut {
		return
	}
	out = append(out, b[last:]...)
	if len(out) == 0 {
		*u = nil
		return
	}
	**u = out
}

// AppendValues appends the wire encoding of vals as values of x to b: one
// record per value, or one packed record for a packed repeated scalar (none
// for no values). Bytes of a MessageKind value are the message's encoding,
// of a GroupKind value the group's contents.
func (x *Extension) AppendValues(b []byte, vals []ExtensionValue) []byte {
	if len(vals) == 0 {
		return b
	}
	if x.Packed && x.Kind.packable() {
		n := 0
		for _, v := range vals {
			n += x.sizeScalar(v)
		}
		b = AppendTag(b, x.Number, BytesType)
		b = AppendVarint(b, uint64(n))
		for _, v := range vals {
			b = x.appendScalar(b, v)
		}
		return b
	}
	for _, v := range vals {
		if x.MessageSet {
			b = AppendTag(b, messageSetItem, StartGroupType)
			b = AppendTag(b, messageSetTypeID, VarintType)
			b = AppendVarint(b, uint64(uint32(x.Number)))
			b = AppendTag(b, messageSetMessage, BytesType)
			b = AppendBytes(b, v.Bytes)
			b = AppendTag(b, messageSetItem, EndGroupType)
			continue
		}
		switch typ := x.Kind.WireType(); typ {
		case BytesType:
			b = AppendTag(b, x.Number, typ)
			b = AppendBytes(b, v.Bytes)
		case StartGroupType:
			b = AppendTag(b, x.Number, StartGroupType)
			b = append(b, v.Bytes...)
			b = AppendTag(b, x.Number, EndGroupType)
		default:
			b = AppendTag(b, x.Number, typ)
			b = x.appendScalar(b, v)
		}
	}
	return b
}

func (x *Extension) sizeScalar(v ExtensionValue) int {
	switch x.Kind.WireType() {
	case Fixed32Type:
		return 4
	case Fixed64Type:
		return 8
	}
	return SizeVarint(v.Bits)
}

func (x *Extension) appendScalar(b []byte, v ExtensionValue) []byte {
	switch x.Kind.WireType() {
	case Fixed32Type:
		return AppendFixed32(b, uint32(v.Bits))
	case Fixed64Type:
		return AppendFixed64(b, v.Bits)
	}
	return AppendVarint(b, v.Bits)
}

// Set replaces the values of x in the unknown fields *u with vals (see
// Remove and AppendValues), allocating the storage on first use.
func (x *Extension) Set(u **[]byte, vals []ExtensionValue) {
	x.Remove(u)
	if len(vals) == 0 {
		return
	}
	var b []byte
	if *u != nil {
		b = **u
	}
	b = x.AppendValues(b, vals)
	if *u == nil {
		*u = &b
		return
	}
	**u = b
}

// MergeMessage merges the values vals of x, a MessageKind or GroupKind
// extension, into msg, as the wire merges the occurrences of a message
// field: each value's fields in turn, the last one of a scalar winning,
// repeated fields concatenated.
func (x *Extension) MergeMessage(msg ExtensionMessage, vals []ExtensionValue) error {
	var d Decoder
	for _, v := range vals {
		if err := msg.UnmarshalWith(&d, v.Bytes, DefaultMaxDepth-1); err != nil {
			return Nest(err, -1, "["+x.FullName+"]")
		}
	}
	return nil
}

// Value returns the value of singular extension x in the unknown fields
// u, as a Go value: the last one on the wire for a scalar (int32, int64,
// uint32, uint64, bool, float32, float64, string or []byte, a copy; for an
// enum, x.Enum of its number, a pointer to the enum's Go type), or for a
// message a new message (x.New) that all the values were merged into. It
// returns nil when u holds no value of x. A message value that does not
// decode is returned as far as it decoded. [Ext.Get] is built on it.
func (x *Extension) Value(u []byte) any {
	vals := x.Values(u)
	if len(vals) == 0 {
		return nil
	}
	if x.Kind == MessageKind || x.Kind == GroupKind {
		msg := x.New()
		_ = x.MergeMessage(msg.(ExtensionMessage), vals)
		return msg
	}
	return x.goValue(vals[len(vals)-1])
}

// List returns the elements of repeated extension x in the unknown fields
// u, in wire order, as Go values (see Value; each message element is a new
// message); nil for none. [ExtList.Get] is built on it.
func (x *Extension) List(u []byte) []any {
	vals := x.Values(u)
	if len(vals) == 0 {
		return nil
	}
	out := make([]any, len(vals))
	for i, v := range vals {
		if x.Kind == MessageKind || x.Kind == GroupKind {
			msg := x.New()
			_ = x.MergeMessage(msg.(ExtensionMessage), vals[i:i+1])
			out[i] = msg
			continue
		}
		out[i] = x.goValue(v)
	}
	return out
}

// goValue converts v, a value of x (not a message), to its Go value.
func (x *Extension) goValue(v ExtensionValue) any {
	switch x.Kind {
	case Int32Kind:
		return int32(v.Bits)
	case Sint32Kind:
		return int32(DecodeZigZag(v.Bits & math.MaxUint32))
	case Sfixed32Kind:
		return int32(uint32(v.Bits))
	case Uint32Kind, Fixed32Kind:
		return uint32(v.Bits)
	case Int64Kind, Sfixed64Kind:
		return int64(v.Bits)
	case Sint64Kind:
		return DecodeZigZag(v.Bits)
	case Uint64Kind, Fixed64Kind:
		return v.Bits
	case BoolKind:
		return v.Bits != 0
	case FloatKind:
		return math.Float32frombits(uint32(v.Bits))
	case DoubleKind:
		return math.Float64frombits(v.Bits)
	case StringKind:
		return string(v.Bytes)
	case BytesKind:
		return append([]byte{}, v.Bytes...)
	case EnumKind:
		n := int32(v.Bits)
		return x.Enum(&n)
	}
	return nil
}

// EncodeValue converts v, a Go value of x (of the types Value returns, but
// an enum's number as an int32, and a message as the generated message
// pointer, nil for an empty message), to its wire form. It fails only for
// a message whose MarshalAppend fails (a required field not set, invalid
// UTF-8), or for a value of the wrong Go type (ErrValue).
func (x *Extension) EncodeValue(v any) (ExtensionValue, error) {
	switch t := v.(type) {
	case int32:
		switch x.Kind {
		case Sint32Kind:
			return ExtensionValue{Bits: uint64(uint32(EncodeZigZag(int64(t))))}, nil
		case Sfixed32Kind:
			return ExtensionValue{Bits: uint64(uint32(t))}, nil
		}
		return ExtensionValue{Bits: uint64(int64(t))}, nil
	case int64:
		if x.Kind == Sint64Kind {
			return ExtensionValue{Bits: EncodeZigZag(t)}, nil
		}
		return ExtensionValue{Bits: uint64(t)}, nil
	case uint32:
		return ExtensionValue{Bits: uint64(t)}, nil
	case uint64:
		return ExtensionValue{Bits: t}, nil
	case bool:
		return ExtensionValue{Bits: EncodeBool(t)}, nil
	case float32:
		return ExtensionValue{Bits: uint64(math.Float32bits(t))}, nil
	case float64:
		return ExtensionValue{Bits: math.Float64bits(t)}, nil
	case string:
		return ExtensionValue{Bytes: []byte(t)}, nil
	case []byte:
		return ExtensionValue{Bytes: bytes.Clone(t)}, nil
	case ExtensionMessage:
		if t.Size() == 0 {
			// Also a nil message: every generated Size takes one.
			return ExtensionValue{Bytes: []byte{}}, nil
		}
		b, err := t.MarshalAppend(nil)
		if err != nil {
			return ExtensionValue{}, Nest(err, -1, "["+x.FullName+"]")
		}
		return ExtensionValue{Bytes: b}, nil
	}
	return ExtensionValue{}, &Error{Offset: -1, Err: ErrValue, Detail: "[" + x.FullName + "]: not a value of the extension"}
}
