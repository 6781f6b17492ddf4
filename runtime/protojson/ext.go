package protojson

import (
	"math"
	"slices"
	"strings"

	"github.com/protoplay/protoplay/runtime/wire"
)

// Extensions in ProtoJSON (protobuf.dev/programming-guides/json): an
// extension is an object member named by its full name in brackets,
// "[pkg.ext]", after the message's fields, extensions sorted by full name
// (as protojson orders them). protoplay has no registry: the codecs know
// the extensions listed in MarshalOptions.Extensions and
// UnmarshalOptions.Extensions (generated files declare one list each, of
// the extensions they declare, as Extensions_<file>). Without a list,
// extensions stay unknown fields: not written, and "[pkg.ext]" on input is
// an unknown field.

// findExtension returns the extension of list named name ("pkg.ext")
// that extends message extendee, or nil.
func findExtension(list []*wire.Extension, extendee, name string) *wire.Extension {
	for _, x := range list {
		if x != nil && x.TextName() == name && x.Extendee == extendee {
			return x
		}
	}
	return nil
}

// present returns the extensions of list that extend extendee and have a
// value in the unknown fields u, sorted by full name.
func present(list []*wire.Extension, extendee string, u []byte) []*wire.Extension {
	var out []*wire.Extension
	for _, x := range list {
		if x != nil && x.Extendee == extendee && !slices.Contains(out, x) && x.Has(u) {
			out = append(out, x)
		}
	}
	slices.SortFunc(out, func(a, b *wire.Extension) int { return strings.Compare(a.FullName, b.FullName) })
	return out
}

// Extensions writes the values, held in the unknown fields u, of the
// extensions of message extendee (its full name) that the options list,
// each as a member "[full.name]" (see the top of this file). Generated
// EncodeProtoJSON of a message with extension ranges calls it after the
// fields.
func (e *Encoder) Extensions(extendee string, u *[]byte) error {
	if u == nil || len(e.opts.Extensions) == 0 {
		return nil
	}
	for _, x := range present(e.opts.Extensions, extendee, *u) {
		name := "[" + x.TextName() + "]"
		e.Name(name, name)
		vals := x.Values(*u)
		if x.Kind == wire.MessageKind || x.Kind == wire.GroupKind {
			if !x.Repeated {
				vals = []wire.ExtensionValue{mergeAll(vals)}
			}
		}
		if x.Repeated {
			e.StartArray()
		} else if x.Kind != wire.MessageKind && x.Kind != wire.GroupKind {
			vals = vals[len(vals)-1:]
		}
		for _, v := range vals {
			if err := e.extensionValue(x, v); err != nil {
				return err
			}
		}
		if x.Repeated {
			e.EndArray()
		}
	}
	return nil
}

// mergeAll joins the occurrences of a singular message extension into one
// value: concatenated encodings of a message merge when decoded.
func mergeAll(vals []wire.ExtensionValue) wire.ExtensionValue {
	if len(vals) == 1 {
		return vals[0]
	}
	var b []byte
	for _, v := range vals {
		b = append(b, v.Bytes...)
	}
	return wire.ExtensionValue{Bytes: b}
}

// extensionValue writes one value of x.
func (e *Encoder) extensionValue(x *wire.Extension, v wire.ExtensionValue) error {
	switch x.Kind {
	case wire.Int32Kind, wire.Sfixed32Kind:
		e.Int32(int32(v.Bits))
	case wire.Sint32Kind:
		e.Int32(int32(wire.DecodeZigZag(v.Bits & math.MaxUint32)))
	case wire.Uint32Kind, wire.Fixed32Kind:
		e.Uint32(uint32(v.Bits))
	case wire.Int64Kind, wire.Sfixed64Kind:
		e.Int64(int64(v.Bits))
	case wire.Sint64Kind:
		e.Int64(wire.DecodeZigZag(v.Bits))
	case wire.Uint64Kind, wire.Fixed64Kind:
		e.Uint64(v.Bits)
	case wire.BoolKind:
		e.Bool(v.Bits != 0)
	case wire.FloatKind:
		e.Float32(math.Float32frombits(uint32(v.Bits)))
	case wire.DoubleKind:
		e.Float64(math.Float64frombits(v.Bits))
	case wire.StringKind:
		return e.String(string(v.Bytes), x.FullName)
	case wire.BytesKind:
		e.Bytes64(v.Bytes)
	case wire.EnumKind:
		n := int32(v.Bits)
		p := x.Enum(&n)
		if enc, ok := p.(interface{ EncodeProtoJSON(*Encoder) }); ok {
			enc.EncodeProtoJSON(e)
		} else {
			e.Int32(n)
		}
	case wire.MessageKind, wire.GroupKind:
		msg, ok := x.New().(extensionMessage)
		if !ok {
			return EncodeError(ErrUnsupported, "extension "+x.FullName+": its message type has no ProtoJSON methods")
		}
		if err := x.MergeMessage(msg, []wire.ExtensionValue{v}); err != nil {
			return EncodeError(ErrInvalidValue, "extension "+x.FullName+": "+err.Error())
		}
		return msg.EncodeProtoJSON(e)
	}
	return nil
}

// extensionMessage is what the codec needs of a message extension's value.
type extensionMessage interface {
	wire.ExtensionMessage
	EncodeProtoJSON(e *Encoder) error
	DecodeProtoJSON(d *Decoder) error
}

// Extension reads the value of the member just named, key, into the
// unknown fields *u of a message of type extendee (its full name), when key
// is "[full.name]" of an extension of extendee that the options list;
// any other key is handled by Unknown. A singular extension given twice is
// ErrDuplicate; null leaves the extension unset. Generated DecodeProtoJSON
// of a message with extension ranges calls it for the members that name
// no field.
func (d *Decoder) Extension(key []byte, extendee string, u **[]byte) error {
	var x *wire.Extension
	if len(key) > 2 && key[0] == '[' && key[len(key)-1] == ']' && len(d.opts.Extensions) > 0 {
		x = findExtension(d.opts.Extensions, extendee, string(key[1:len(key)-1]))
	}
	if x == nil {
		return d.Unknown()
	}
	if *u != nil && x.Has(**u) {
		return d.ErrorAt(d.keyPos, ErrDuplicate, "duplicate field "+d.tokenText(d.keyPos))
	}
	d.fieldPos = d.keyPos
	if d.ReadNull() {
		return nil
	}
	var vals []wire.ExtensionValue
	if x.Repeated {
		if err := d.ArrayStart(); err != nil {
			return err
		}
		for {
			more, err := d.ArrayNext()
			if err != nil {
				return err
			}
			if !more {
				break
			}
			v, ok, err := d.extensionValue(x)
			if err != nil {
				return err
			}
			if ok {
				vals = append(vals, v)
			}
		}
	} else {
		v, ok, err := d.extensionValue(x)
		if err != nil {
			return err
		}
		if ok {
			vals = append(vals, v)
		}
	}
	if len(vals) > 0 {
		wire.AddUnknown(u, x.AppendValues(nil, vals))
	}
	return nil
}

// extensionValue reads one value of x; ok is false for an enum name
// skipped under DiscardUnknown.
func (d *Decoder) extensionValue(x *wire.Extension) (v wire.ExtensionValue, ok bool, err error) {
	switch x.Kind {
	case wire.Int32Kind, wire.Sfixed32Kind:
		n, err := d.Int32()
		return wire.ExtensionValue{Bits: uint64(int64(n))}, true, err
	case wire.Sint32Kind:
		n, err := d.Int32()
		return wire.ExtensionValue{Bits: uint64(uint32(wire.EncodeZigZag(int64(n))))}, true, err
	case wire.Uint32Kind, wire.Fixed32Kind:
		n, err := d.Uint32()
		return wire.ExtensionValue{Bits: uint64(n)}, true, err
	case wire.Int64Kind, wire.Sfixed64Kind:
		n, err := d.Int64()
		return wire.ExtensionValue{Bits: uint64(n)}, true, err
	case wire.Sint64Kind:
		n, err := d.Int64()
		return wire.ExtensionValue{Bits: wire.EncodeZigZag(n)}, true, err
	case wire.Uint64Kind, wire.Fixed64Kind:
		n, err := d.Uint64()
		return wire.ExtensionValue{Bits: n}, true, err
	case wire.BoolKind:
		b, err := d.Bool()
		return wire.ExtensionValue{Bits: wire.EncodeBool(b)}, true, err
	case wire.FloatKind:
		f, err := d.Float32()
		return wire.ExtensionValue{Bits: uint64(math.Float32bits(f))}, true, err
	case wire.DoubleKind:
		f, err := d.Float64()
		return wire.ExtensionValue{Bits: math.Float64bits(f)}, true, err
	case wire.StringKind:
		s, err := d.String()
		return wire.ExtensionValue{Bytes: []byte(s)}, true, err
	case wire.BytesKind:
		b, err := d.Bytes()
		return wire.ExtensionValue{Bytes: b}, true, err
	case wire.EnumKind:
		var n int32
		p := x.Enum(&n)
		dec, isEnum := p.(interface {
			DecodeProtoJSON(*Decoder) (bool, error)
		})
		if !isEnum {
			return v, false, d.InvalidValue("extension " + x.FullName + ": its enum type has no ProtoJSON methods")
		}
		known, err := dec.DecodeProtoJSON(d)
		return wire.ExtensionValue{Bits: uint64(int64(n))}, known, err
	case wire.MessageKind, wire.GroupKind:
		msg, isMsg := x.New().(extensionMessage)
		if !isMsg {
			return v, false, d.InvalidValue("extension " + x.FullName + ": its message type has no ProtoJSON methods")
		}
		if err := msg.DecodeProtoJSON(d); err != nil {
			return v, false, err
		}
		b, err := msg.MarshalAppend(nil)
		if err != nil {
			return v, false, d.ErrorAt(d.keyPos, ErrInvalidValue, "extension "+x.FullName+": "+err.Error())
		}
		return wire.ExtensionValue{Bytes: b}, true, nil
	}
	return v, false, d.InvalidValue("extension " + x.FullName + ": unknown kind")
}
