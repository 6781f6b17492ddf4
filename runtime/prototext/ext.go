package prototext

import (
	"math"
	"slices"
	"strings"

	"github.com/protoplay/protoplay/runtime/wire"
)

// Extensions in the text format (protobuf.dev/reference/protobuf/textformat-spec,
// "Fields"): an extension is a field named by its full name in brackets,
// "[pkg.ext]: 1" or "[pkg.ext] { ... }", after the message's fields,
// extensions sorted by full name (as prototext orders them), a repeated one
// as one field per element. protoplay has no registry: the codecs know the
// extensions listed in MarshalOptions.Extensions and
// UnmarshalOptions.Extensions (generated files declare one list each, of
// the extensions they declare, as Extensions_<file>). Without a list,
// extensions stay unknown fields: written by number under EmitUnknown, and
// "[pkg.ext]" on input is an unknown field.

// Extensions writes the values, held in the unknown fields u, of the
// extensions of message extendee (its full name) that the options list,
// then (under EmitUnknown) the other unknown fields, as Unknown does.
// Generated EncodeProtoText of a message with extension ranges calls it in
// place of Unknown.
func (e *Encoder) Extensions(extendee string, u *[]byte) error {
	if u == nil {
		return nil
	}
	var rest *[]byte = u
	if len(e.opts.Extensions) > 0 {
		var xs []*wire.Extension
		for _, x := range e.opts.Extensions {
			if x != nil && x.Extendee == extendee && !slices.Contains(xs, x) && x.Has(*u) {
				xs = append(xs, x)
			}
		}
		slices.SortFunc(xs, func(a, b *wire.Extension) int { return strings.Compare(a.FullName, b.FullName) })
		if len(xs) > 0 {
			c := slices.Clone(*u)
			rest = &c
		}
		for _, x := range xs {
			name := "[" + x.TextName() + "]"
			vals := x.Values(*u)
			switch {
			case x.Repeated:
			case x.Kind == wire.MessageKind || x.Kind == wire.GroupKind:
				var b []byte
				for _, v := range vals {
					b = append(b, v.Bytes...)
				}
				vals = []wire.ExtensionValue{{Bytes: b}}
			default:
				vals = vals[len(vals)-1:]
			}
			for _, v := range vals {
				if err := e.extensionValue(x, name, v); err != nil {
					return err
				}
			}
			if rest != nil {
				x.Remove(&rest)
			}
		}
	}
	e.Unknown(rest)
	return nil
}

// extensionValue writes one value of x as the field name.
func (e *Encoder) extensionValue(x *wire.Extension, name string, v wire.ExtensionValue) error {
	switch x.Kind {
	case wire.Int32Kind, wire.Sfixed32Kind:
		e.Int(name, int64(int32(v.Bits)))
	case wire.Sint32Kind:
		e.Int(name, wire.DecodeZigZag(v.Bits&math.MaxUint32))
	case wire.Uint32Kind, wire.Fixed32Kind:
		e.Uint(name, uint64(uint32(v.Bits)))
	case wire.Int64Kind, wire.Sfixed64Kind:
		e.Int(name, int64(v.Bits))
	case wire.Sint64Kind:
		e.Int(name, wire.DecodeZigZag(v.Bits))
	case wire.Uint64Kind, wire.Fixed64Kind:
		e.Uint(name, v.Bits)
	case wire.BoolKind:
		e.Bool(name, v.Bits != 0)
	case wire.FloatKind:
		e.Float32(name, math.Float32frombits(uint32(v.Bits)))
	case wire.DoubleKind:
		e.Float64(name, math.Float64frombits(v.Bits))
	case wire.StringKind:
		e.String(name, string(v.Bytes))
	case wire.BytesKind:
		e.ByteString(name, v.Bytes)
	case wire.EnumKind:
		n := int32(v.Bits)
		if s, ok := x.Enum(&n).(interface{ String() string }); ok {
			e.Literal(name, s.String())
		} else {
			e.Int(name, int64(n))
		}
	case wire.MessageKind, wire.GroupKind:
		msg, ok := x.New().(extensionMessage)
		if !ok {
			return EncodeError(ErrUnsupported, "extension "+x.FullName+": its message type has no text-format methods")
		}
		if err := x.MergeMessage(msg, []wire.ExtensionValue{v}); err != nil {
			return EncodeError(ErrInvalidValue, "extension "+x.FullName+": "+err.Error())
		}
		e.StartMessage(name)
		if err := msg.EncodeProtoText(e); err != nil {
			return err
		}
		e.EndMessage()
	}
	return nil
}

// extensionMessage is what the codec needs of a message extension's value.
type extensionMessage interface {
	wire.ExtensionMessage
	EncodeProtoText(e *Encoder) error
	DecodeProtoText(d *Decoder) error
}

// Extension reads the value of the field just named, name, into the
// unknown fields *u of a message of type extendee (its full name), when
// name is "[full.name]" of an extension of extendee that the options list;
// any other name is handled by Unknown. A singular extension given twice
// is ErrDuplicate. Generated DecodeProtoText of a message with extension
// ranges calls it for the names that name no field.
func (d *Decoder) Extension(name string, extendee string, u **[]byte) error {
	var x *wire.Extension
	if len(name) > 2 && name[0] == '[' && name[len(name)-1] == ']' {
		full := name[1 : len(name)-1]
		for _, y := range d.opts.Extensions {
			if y != nil && y.TextName() == full && y.Extendee == extendee {
				x = y
				break
			}
		}
	}
	if x == nil {
		return d.Unknown()
	}
	if !x.Repeated && *u != nil && x.Has(**u) {
		return d.t.errorAt(d.name.pos, ErrDuplicate, "non-repeated field \""+string(d.name.raw)+"\" is repeated")
	}
	msg := x.Kind == wire.MessageKind || x.Kind == wire.GroupKind
	if !x.Repeated {
		if !msg {
			if err := d.checkSep(); err != nil {
				return err
			}
		}
		v, err := d.extensionValue(x)
		if err != nil {
			return err
		}
		wire.AddUnknown(u, x.AppendValues(nil, []wire.ExtensionValue{v}))
		return nil
	}
	list, err := d.ListStart(!msg)
	if err != nil {
		return err
	}
	var vals []wire.ExtensionValue
	for i := 0; ; i++ {
		more, err := d.ListNext(list, i)
		if err != nil {
			return err
		}
		if !more {
			break
		}
		v, err := d.extensionValue(x)
		if err != nil {
			return err
		}
		vals = append(vals, v)
	}
	if len(vals) > 0 {
		wire.AddUnknown(u, x.AppendValues(nil, vals))
	}
	return nil
}

// extensionValue reads one value of x.
func (d *Decoder) extensionValue(x *wire.Extension) (wire.ExtensionValue, error) {
	var v wire.ExtensionValue
	switch x.Kind {
	case wire.Int32Kind, wire.Sfixed32Kind:
		n, err := d.Int32()
		return wire.ExtensionValue{Bits: uint64(int64(n))}, err
	case wire.Sint32Kind:
		n, err := d.Int32()
		return wire.ExtensionValue{Bits: uint64(uint32(wire.EncodeZigZag(int64(n))))}, err
	case wire.Uint32Kind, wire.Fixed32Kind:
		n, err := d.Uint32()
		return wire.ExtensionValue{Bits: uint64(n)}, err
	case wire.Int64Kind, wire.Sfixed64Kind:
		n, err := d.Int64()
		return wire.ExtensionValue{Bits: uint64(n)}, err
	case wire.Sint64Kind:
		n, err := d.Int64()
		return wire.ExtensionValue{Bits: wire.EncodeZigZag(n)}, err
	case wire.Uint64Kind, wire.Fixed64Kind:
		n, err := d.Uint64()
		return wire.ExtensionValue{Bits: n}, err
	case wire.BoolKind:
		b, err := d.Bool()
		return wire.ExtensionValue{Bits: wire.EncodeBool(b)}, err
	case wire.FloatKind:
		f, err := d.Float32()
		return wire.ExtensionValue{Bits: uint64(math.Float32bits(f))}, err
	case wire.DoubleKind:
		f, err := d.Float64()
		return wire.ExtensionValue{Bits: math.Float64bits(f)}, err
	case wire.StringKind:
		s, err := d.String()
		return wire.ExtensionValue{Bytes: []byte(s)}, err
	case wire.BytesKind:
		b, err := d.Bytes()
		return wire.ExtensionValue{Bytes: b}, err
	case wire.EnumKind:
		var n int32
		dec, ok := x.Enum(&n).(interface{ DecodeProtoText(*Decoder) error })
		if !ok {
			return v, d.InvalidValue("extension " + x.FullName + ": its enum type has no text-format methods")
		}
		err := dec.DecodeProtoText(d)
		return wire.ExtensionValue{Bits: uint64(int64(n))}, err
	case wire.MessageKind, wire.GroupKind:
		msg, ok := x.New().(extensionMessage)
		if !ok {
			return v, d.InvalidValue("extension " + x.FullName + ": its message type has no text-format methods")
		}
		if err := msg.DecodeProtoText(d); err != nil {
			return v, err
		}
		b, err := msg.MarshalAppend(nil)
		if err != nil {
			return v, d.t.errorAt(d.name.pos, ErrInvalidValue, "extension "+x.FullName+": "+err.Error())
		}
		return wire.ExtensionValue{Bytes: b}, nil
	}
	return v, d.InvalidValue("extension " + x.FullName + ": unknown kind")
}
