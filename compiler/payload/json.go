package payload

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/protoplay/protoplay/compiler/diag"
	"github.com/protoplay/protoplay/runtime/protojson"
	"github.com/protoplay/protoplay/runtime/wire"
	wktany "github.com/protoplay/protoplay/runtime/wkt/anypb"
	wktduration "github.com/protoplay/protoplay/runtime/wkt/durationpb"
	wktfieldmask "github.com/protoplay/protoplay/runtime/wkt/fieldmaskpb"
	wktstruct "github.com/protoplay/protoplay/runtime/wkt/structpb"
	wkttimestamp "github.com/protoplay/protoplay/runtime/wkt/timestamppb"
	wktwrappers "github.com/protoplay/protoplay/runtime/wkt/wrapperspb"
)

// This file is the descriptor-driven adapter through which the payload
// codec reads and writes ProtoJSON: dynJSON implements
// runtime/protojson's Generated and Message interfaces over a dynamicpb
// message, walking its descriptor as generated EncodeProtoJSON and
// DecodeProtoJSON methods do for their own type (compiler/gogen/json.go),
// so the CLI, the playground and the npm package print and read exactly
// what generated MarshalJSON and UnmarshalJSON do: the same Encoder and
// Decoder, field order, number and float formatting, well-known type
// forms (the same hand-written code of runtime/wkt, reached by converting
// through the binary form) and errors. There is no code generation at run
// time. It reads and writes every extension the schema declares ("[full.name]"
// keys, as protojson), as generated code does for the extensions listed in
// the options.

// dynJSON is one dynamic message seen through runtime/protojson and (see
// text.go) runtime/prototext.
type dynJSON struct {
	s *Schema
	m protoreflect.Message
	// lazy is set when m was decoded from raw with the lazyList fields
	// stripped (lazy.go): the writers read those fields from raw.
	lazy bool
	raw  []byte
}

func (s *Schema) jsonOf(m protoreflect.Message) *dynJSON { return &dynJSON{s: s, m: m} }

// resolver makes dynamic messages of the schema's types for
// google.protobuf.Any.
func (s *Schema) resolver() protojson.Resolver {
	return protojson.ResolverFunc(func(name string) protojson.Message {
		d, err := s.Files.FindDescriptorByName(protoreflect.FullName(name))
		if err != nil {
			return nil
		}
		md, ok := d.(protoreflect.MessageDescriptor)
		if !ok {
			return nil
		}
		return s.jsonOf(dynamicpb.NewMessage(md))
	})
}

// marshalJSON writes m as generated MarshalProtoJSON does under o (the
// schema's resolver added).
func (s *Schema) marshalJSON(x *dynJSON, o protojson.MarshalOptions) ([]byte, error) {
	o.Resolver = s.resolver()
	return protojson.Marshal(x, o)
}

// unmarshalJSON reads b into m as generated UnmarshalProtoJSON does under
// o (the schema's resolver and RecursionLimit MaxDepth added).
func (s *Schema) unmarshalJSON(b []byte, m protoreflect.Message, o protojson.UnmarshalOptions) error {
	o.Resolver = s.resolver()
	o.RecursionLimit = MaxDepth
	return protojson.Unmarshal(b, s.jsonOf(m), o)
}

// jsonError turns an error of runtime/protojson into a *diag.Error:
// KindJSON with the line and column (in runes) for input errors, KindLimit
// for nesting over MaxDepth, KindValue otherwise.
func jsonError(err error) *diag.Error {
	var pe *protojson.Error
	if !errors.As(err, &pe) {
		return valueError(err)
	}
	e := &diag.Error{Kind: diag.KindJSON, Message: pe.Msg, Offset: -1, Line: pe.Line, Column: pe.Column}
	switch {
	case errors.Is(err, protojson.ErrDepth):
		e.Kind, e.Limit, e.Message = diag.KindLimit, "MaxDepth", depthMessage
	case pe.Offset < 0:
		e.Kind = diag.KindValue
	}
	return e
}

// specialJSON are the well-known types whose ProtoJSON form is not an
// object of their fields, with the file that must declare them and their
// runtime/wkt type, whose hand-written methods the adapter reuses.
var specialJSON = map[protoreflect.FullName]struct {
	file string
	new  func() protojson.Message
}{
	"google.protobuf.Any":         {"google/protobuf/any.proto", func() protojson.Message { return new(wktany.Any) }},
	"google.protobuf.Timestamp":   {"google/protobuf/timestamp.proto", func() protojson.Message { return new(wkttimestamp.Timestamp) }},
	"google.protobuf.Duration":    {"google/protobuf/duration.proto", func() protojson.Message { return new(wktduration.Duration) }},
	"google.protobuf.FieldMask":   {"google/protobuf/field_mask.proto", func() protojson.Message { return new(wktfieldmask.FieldMask) }},
	"google.protobuf.Struct":      {"google/protobuf/struct.proto", func() protojson.Message { return new(wktstruct.Struct) }},
	"google.protobuf.Value":       {"google/protobuf/struct.proto", func() protojson.Message { return new(wktstruct.Value) }},
	"google.protobuf.ListValue":   {"google/protobuf/struct.proto", func() protojson.Message { return new(wktstruct.ListValue) }},
	"google.protobuf.DoubleValue": {"google/protobuf/wrappers.proto", func() protojson.Message { return new(wktwrappers.DoubleValue) }},
	"google.protobuf.FloatValue":  {"google/protobuf/wrappers.proto", func() protojson.Message { return new(wktwrappers.FloatValue) }},
	"google.protobuf.Int64Value":  {"google/protobuf/wrappers.proto", func() protojson.Message { return new(wktwrappers.Int64Value) }},
	"google.protobuf.UInt64Value": {"google/protobuf/wrappers.proto", func() protojson.Message { return new(wktwrappers.UInt64Value) }},
	"google.protobuf.Int32Value":  {"google/protobuf/wrappers.proto", func() protojson.Message { return new(wktwrappers.Int32Value) }},
	"google.protobuf.UInt32Value": {"google/protobuf/wrappers.proto", func() protojson.Message { return new(wktwrappers.UInt32Value) }},
	"google.protobuf.BoolValue":   {"google/protobuf/wrappers.proto", func() protojson.Message { return new(wktwrappers.BoolValue) }},
	"google.protobuf.StringValue": {"google/protobuf/wrappers.proto", func() protojson.Message { return new(wktwrappers.StringValue) }},
	"google.protobuf.BytesValue":  {"google/protobuf/wrappers.proto", func() protojson.Message { return new(wktwrappers.BytesValue) }},
}

// special returns a new runtime/wkt message for md when md is one of
// specialJSON in its well-known file, else nil.
func special(md protoreflect.MessageDescriptor) protojson.Message {
	if w, ok := specialJSON[md.FullName()]; ok && md.ParentFile().Path() == w.file && standardShape(md) {
		return w.new()
	}
	return nil
}

// Marshal returns the message's binary form, deterministic; a required
// field not set is an error wrapping wire.ErrRequired (with the bytes), as
// generated Marshal reports it.
func (x *dynJSON) Marshal() ([]byte, error) {
	b, err := proto.MarshalOptions{Deterministic: true, AllowPartial: true}.Marshal(x.m.Interface())
	if err != nil {
		return nil, err
	}
	if err := missingRequired(x.m); err != nil {
		return b, fmt.Errorf("%w: %v", wire.ErrRequired, err)
	}
	return b, nil
}

// Unmarshal merges the binary form b into the message, required fields
// not checked.
func (x *dynJSON) Unmarshal(b []byte) error {
	return x.s.unmarshalBinary(proto.UnmarshalOptions{Merge: true, AllowPartial: true, Resolver: x.s.Types, RecursionLimit: MaxDepth}, b, x.m)
}

// CheckInitialized reports a required field not set, wrapping
// wire.ErrRequired.
func (x *dynJSON) CheckInitialized() error {
	if err := missingRequired(x.m); err != nil {
		return fmt.Errorf("%w: %v", wire.ErrRequired, err)
	}
	return nil
}

// Reset clears the message.
func (x *dynJSON) Reset() {
	x.m.Range(func(fd protoreflect.FieldDescriptor, _ protoreflect.Value) bool {
		x.m.Clear(fd)
		return true
	})
	x.m.SetUnknown(nil)
}

// EncodeProtoJSON writes the message as generated EncodeProtoJSON does:
// fields in declaration order, implicit-presence fields when not zero,
// explicit-presence fields when set, repeated fields and maps when not
// empty (the others too under EmitDefaultValues, and under EmitUnpopulated
// explicit-presence fields not set as null, but for oneof members and
// proto3 optional fields), then extensions sorted by full name, as
// protojson writes them.
func (x *dynJSON) EncodeProtoJSON(e *protojson.Encoder) error {
	md := x.m.Descriptor()
	if w := special(md); w != nil {
		b, err := proto.MarshalOptions{Deterministic: true, AllowPartial: true}.Marshal(x.m.Interface())
		if err != nil {
			return protojson.EncodeError(protojson.ErrInvalidValue, err.Error())
		}
		if err := w.Unmarshal(b); err != nil && !errors.Is(err, wire.ErrRequired) {
			return protojson.EncodeError(protojson.ErrInvalidValue, err.Error())
		}
		return w.EncodeProtoJSON(e)
	}
	e.StartObject()
	fields := md.Fields()
	emitNull, emitDefaults := e.EmitUnpopulated(), e.EmitDefaults()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		set := x.has(fd)
		if !set {
			switch {
			case fd.IsList() || fd.IsMap() || !fd.HasPresence():
				if !emitDefaults {
					continue
				}
				// [], {} or the zero value, below.
			case !emitNull || fd.ContainingOneof() != nil:
				continue // and always oneof members and proto3 optional fields
			default:
				e.Name(fd.JSONName(), fd.TextName())
				e.Null()
				continue
			}
		}
		e.Name(fd.JSONName(), fd.TextName())
		if err := x.encodeField(e, fd, x.m.Get(fd)); err != nil {
			return err
		}
	}
	var exts []protoreflect.FieldDescriptor
	x.m.Range(func(fd protoreflect.FieldDescriptor, _ protoreflect.Value) bool {
		if fd.IsExtension() {
			exts = append(exts, fd)
		}
		return true
	})
	slices.SortFunc(exts, func(a, b protoreflect.FieldDescriptor) int {
		return strings.Compare(string(a.FullName()), string(b.FullName()))
	})
	for _, fd := range exts {
		if err := e.Key("[" + string(extensionName(fd)) + "]"); err != nil {
			return err
		}
		if err := x.encodeField(e, fd, x.m.Get(fd)); err != nil {
			return err
		}
	}
	e.EndObject()
	return nil
}

// extensionName is the name of an extension in its "[...]" key: its full
// name, or for a MessageSet extension the full name of its message type's
// scope (protojson's rule).
func extensionName(fd protoreflect.FieldDescriptor) protoreflect.FullName {
	if isMessageSetExtension(fd) {
		return fd.FullName().Parent()
	}
	return fd.FullName()
}

// isMessageSetExtension reports whether fd is a MessageSet extension
// declared the conventional way: an optional message field named
// message_set_extension, extending a message_set_wire_format message, and
// declared inside its own message type.
func isMessageSetExtension(fd protoreflect.FieldDescriptor) bool {
	if fd.Name() != "message_set_extension" || fd.Message() == nil || fd.Cardinality() != protoreflect.Optional {
		return false
	}
	if fd.Message().FullName() != fd.FullName().Parent() {
		return false
	}
	return isMessageSet(fd.ContainingMessage())
}

// isMessageSet reports whether md has the message_set_wire_format option.
// It reads the option, not protobuf-go's IsMessageSet method, which the
// front end's descriptors leave false (compiler/frontend buildFile).
func isMessageSet(md protoreflect.MessageDescriptor) bool {
	opts, ok := md.Options().(*descriptorpb.MessageOptions)
	return ok && opts.GetMessageSetWireFormat()
}

func (x *dynJSON) encodeField(e *protojson.Encoder, fd protoreflect.FieldDescriptor, v protoreflect.Value) error {
	switch {
	case fd.IsMap():
		return x.encodeMap(e, fd, v.Map())
	case fd.IsList() && x.lazy && lazyList(fd):
		e.StartArray()
		if err := x.rawValues(fd, func(v protoreflect.Value) error { return x.encodeValue(e, fd, v) }); err != nil {
			return err
		}
		e.EndArray()
		return nil
	case fd.IsList() && fd.Kind() == protoreflect.MessageKind:
		e.StartArray()
		if err := x.eachSub(fd, v.List(), func(c *dynJSON) error { return c.EncodeProtoJSON(e) }); err != nil {
			return err
		}
		e.EndArray()
		return nil
	case fd.IsList():
		l := v.List()
		e.StartArray()
		for i := 0; i < l.Len(); i++ {
			if err := x.encodeValue(e, fd, l.Get(i)); err != nil {
				return err
			}
		}
		e.EndArray()
		return nil
	case fd.Kind() == protoreflect.MessageKind:
		return x.sub(fd, v.Message()).EncodeProtoJSON(e)
	}
	return x.encodeValue(e, fd, v)
}

// encodeMap writes a map's entries in key order (false before true,
// numbers ascending, strings by bytes), as generated code does.
func (x *dynJSON) encodeMap(e *protojson.Encoder, fd protoreflect.FieldDescriptor, mp protoreflect.Map) error {
	keys := sortedKeys(fd, mp)
	kk := fd.MapKey().Kind()
	e.StartObject()
	for _, k := range keys {
		switch kk {
		case protoreflect.BoolKind:
			e.KeyBool(k.Bool())
		case protoreflect.StringKind:
			if err := e.Key(k.String()); err != nil {
				return err
			}
		case protoreflect.Uint32Kind, protoreflect.Fixed32Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
			e.KeyUint(k.Uint())
		default:
			e.KeyInt(k.Int())
		}
		if err := x.encodeValue(e, fd.MapValue(), mp.Get(k)); err != nil {
			return err
		}
	}
	e.EndObject()
	return nil
}

// encodeValue writes one value of fd's kind (an element, for repeated
// fields and map values).
func (x *dynJSON) encodeValue(e *protojson.Encoder, fd protoreflect.FieldDescriptor, v protoreflect.Value) error {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		e.Bool(v.Bool())
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		e.Int32(int32(v.Int()))
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		e.Uint32(uint32(v.Uint()))
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		e.Int64(v.Int())
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		e.Uint64(v.Uint())
	case protoreflect.FloatKind:
		e.Float32(float32(v.Float()))
	case protoreflect.DoubleKind:
		e.Float64(v.Float())
	case protoreflect.BytesKind:
		e.Bytes64(v.Bytes())
	case protoreflect.StringKind:
		return e.String(v.String(), string(fd.FullName()))
	case protoreflect.EnumKind:
		ed := fd.Enum()
		if ed.FullName() == nullValueEnum {
			e.Null()
			return nil
		}
		name := ""
		if ev := ed.Values().ByNumber(v.Enum()); ev != nil {
			name = string(ev.Name())
		}
		e.Enum(int32(v.Enum()), name)
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return x.s.jsonOf(v.Message()).EncodeProtoJSON(e)
	default:
		return protojson.EncodeError(protojson.ErrUnsupported, "field "+string(fd.FullName())+" has kind "+fd.Kind().String())
	}
	return nil
}

const (
	nullValueEnum = "google.protobuf.NullValue"
	valueMessage  = "google.protobuf.Value"
)

// takesNull reports whether JSON null is a value of fd's type rather than
// "not set": google.protobuf.Value and google.protobuf.NullValue.
func takesNull(fd protoreflect.FieldDescriptor) bool {
	if fd.Enum() != nil {
		return fd.Enum().FullName() == nullValueEnum
	}
	return fd.Message() != nil && fd.Message().FullName() == valueMessage
}

// adopt sets the message to w, a well-known type's generated message that
// DecodeProtoJSON or DecodeProtoText filled, through its binary form (a
// missing required field is not an error here: the caller's check
// reports it).
func (x *dynJSON) adopt(w interface{ Marshal() ([]byte, error) }) error {
	b, err := w.Marshal()
	if err != nil && !errors.Is(err, wire.ErrRequired) {
		return err
	}
	return x.Unmarshal(b)
}

// DecodeProtoJSON reads one JSON object into the message as generated
// DecodeProtoJSON does: members by JSON name, then by proto name (the
// first field to claim a name keeps it); each field at most once and one
// member per oneof; null leaves a field unset (but for Value and
// NullValue); unknown members and enum names fail unless DiscardUnknown.
// A "[full.name]" member is an extension of the message, found in the
// schema.
func (x *dynJSON) DecodeProtoJSON(d *protojson.Decoder) error {
	md := x.m.Descriptor()
	if w := special(md); w != nil {
		if err := w.DecodeProtoJSON(d); err != nil {
			return err
		}
		if err := x.adopt(w); err != nil {
			return d.InvalidValue(err.Error())
		}
		return nil
	}
	if err := d.Enter(); err != nil {
		return err
	}
	defer d.Leave()
	if err := d.ObjectStart(); err != nil {
		return err
	}
	fields := md.Fields()
	oneofs := md.Oneofs()
	nReal := 0
	oneofBit := make(map[protoreflect.FullName]int)
	for i := 0; i < oneofs.Len(); i++ {
		if od := oneofs.Get(i); !od.IsSynthetic() {
			oneofBit[od.FullName()] = fields.Len() + nReal
			nReal++
		}
	}
	seen := make([]uint64, (fields.Len()+nReal)/64+1)
	var extSeen map[protoreflect.FieldNumber]bool
	for {
		key, ok, err := d.Key()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		fd := x.fieldByName(key)
		if fd == nil {
			if fd = x.extensionByName(key); fd == nil {
				if err := d.Unknown(); err != nil {
					return explainUnknownName(err, md, key, true)
				}
				continue
			}
			if extSeen[fd.Number()] {
				return d.Mark([]uint64{1}, 0) // the duplicate-field error
			}
			if extSeen == nil {
				extSeen = map[protoreflect.FieldNumber]bool{}
			}
			extSeen[fd.Number()] = true
		} else if err := d.Mark(seen, fd.Index()); err != nil {
			return err
		}
		if !takesNull(fd) && d.ReadNull() {
			continue
		}
		if od := fd.ContainingOneof(); od != nil && !od.IsSynthetic() {
			if err := d.MarkOneof(seen, oneofBit[od.FullName()], string(od.FullName())); err != nil {
				return err
			}
		}
		if err := x.decodeField(d, fd); err != nil {
			return err
		}
	}
}

// fieldByName is the field key names: by JSON name first, then by text
// name, as generated code and protojson look them up.
func (x *dynJSON) fieldByName(key string) protoreflect.FieldDescriptor {
	fields := x.m.Descriptor().Fields()
	if fd := fields.ByJSONName(key); fd != nil {
		return fd
	}
	return fields.ByTextName(key)
}

// extensionByName is the extension of the message a "[full.name]" key
// names, found in the schema, or nil.
func (x *dynJSON) extensionByName(key string) protoreflect.FieldDescriptor {
	if len(key) < 3 || key[0] != '[' || key[len(key)-1] != ']' {
		return nil
	}
	name := protoreflect.FullName(key[1 : len(key)-1])
	md := x.m.Descriptor()
	xt, err := x.s.Types.FindExtensionByName(name)
	if err != nil && isMessageSet(md) {
		xt, err = x.s.Types.FindExtensionByName(name.Append("message_set_extension"))
	}
	if err != nil || xt.TypeDescriptor().ContainingMessage().FullName() != md.FullName() {
		return nil
	}
	return xt.TypeDescriptor()
}

func (x *dynJSON) decodeField(d *protojson.Decoder, fd protoreflect.FieldDescriptor) error {
	switch {
	case fd.IsMap():
		return x.decodeMap(d, fd)
	case fd.IsList():
		if err := d.ArrayStart(); err != nil {
			return err
		}
		l := x.m.Mutable(fd).List()
		for {
			more, err := d.ArrayNext()
			if err != nil {
				return err
			}
			if !more {
				return nil
			}
			v, ok, err := x.decodeValue(d, fd, l.NewElement)
			if err != nil {
				return err
			}
			if ok {
				l.Append(v)
			}
		}
	}
	v, ok, err := x.decodeValue(d, fd, func() protoreflect.Value { return x.m.NewField(fd) })
	if err != nil || !ok {
		return err
	}
	x.m.Set(fd, v)
	return nil
}

// decodeMap reads a map field: an object whose member names are the keys
// (parsed for bool and integer keys), each given at most once.
//
// A map with entries counts one level of nesting for them (MapStart), as
// the binary and text readers count map entries.
func (x *dynJSON) decodeMap(d *protojson.Decoder, fd protoreflect.FieldDescriptor) error {
	more, err := d.MapStart()
	if err != nil {
		return err
	}
	mp := x.m.Mutable(fd).Map()
	if !more {
		return nil
	}
	defer d.MapEnd()
	for {
		key, ok, err := d.Key()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		var k protoreflect.Value
		switch fd.MapKey().Kind() {
		case protoreflect.StringKind:
			k = protoreflect.ValueOfString(key)
		case protoreflect.BoolKind:
			v, err := d.KeyBool(key)
			if err != nil {
				return err
			}
			k = protoreflect.ValueOfBool(v)
		case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
			v, err := d.KeyInt32(key)
			if err != nil {
				return err
			}
			k = protoreflect.ValueOfInt32(v)
		case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
			v, err := d.KeyInt64(key)
			if err != nil {
				return err
			}
			k = protoreflect.ValueOfInt64(v)
		case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
			v, err := d.KeyUint32(key)
			if err != nil {
				return err
			}
			k = protoreflect.ValueOfUint32(v)
		default:
			v, err := d.KeyUint64(key)
			if err != nil {
				return err
			}
			k = protoreflect.ValueOfUint64(v)
		}
		mk := k.MapKey()
		if mp.Has(mk) {
			return d.DuplicateKey()
		}
		v, ok, err := x.decodeValue(d, fd.MapValue(), mp.NewValue)
		if err != nil {
			return err
		}
		if ok {
			mp.Set(mk, v)
		}
	}
}

// decodeValue reads one value of fd's kind; newMsg makes the message a
// message value is read into. ok is false for an enum name the enum does
// not declare under DiscardUnknown: the value is left out.
func (x *dynJSON) decodeValue(d *protojson.Decoder, fd protoreflect.FieldDescriptor, newMsg func() protoreflect.Value) (v protoreflect.Value, ok bool, err error) {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		b, err := d.Bool()
		return protoreflect.ValueOfBool(b), true, err
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		n, err := d.Int32()
		return protoreflect.ValueOfInt32(n), true, err
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		n, err := d.Uint32()
		return protoreflect.ValueOfUint32(n), true, err
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		n, err := d.Int64()
		return protoreflect.ValueOfInt64(n), true, err
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		n, err := d.Uint64()
		return protoreflect.ValueOfUint64(n), true, err
	case protoreflect.FloatKind:
		f, err := d.Float32()
		return protoreflect.ValueOfFloat32(f), true, err
	case protoreflect.DoubleKind:
		f, err := d.Float64()
		return protoreflect.ValueOfFloat64(f), true, err
	case protoreflect.BytesKind:
		b, err := d.Bytes()
		return protoreflect.ValueOfBytes(b), true, err
	case protoreflect.StringKind:
		s, err := d.String()
		return protoreflect.ValueOfString(s), true, err
	case protoreflect.EnumKind:
		ed := fd.Enum()
		if ed.FullName() == nullValueEnum && d.ReadNull() {
			return protoreflect.ValueOfEnum(0), true, nil
		}
		name, num, isName, err := d.EnumValue()
		if err != nil {
			return v, false, err
		}
		if !isName {
			return protoreflect.ValueOfEnum(protoreflect.EnumNumber(num)), true, nil
		}
		if ev := ed.Values().ByName(protoreflect.Name(name)); ev != nil {
			return protoreflect.ValueOfEnum(ev.Number()), true, nil
		}
		return v, false, d.UnknownEnumName(string(ed.FullName()))
	case protoreflect.MessageKind, protoreflect.GroupKind:
		mv := newMsg()
		if err := x.s.jsonOf(mv.Message()).DecodeProtoJSON(d); err != nil {
			return v, false, err
		}
		return mv, true, nil
	}
	return v, false, d.InvalidValue("field " + string(fd.FullName()) + " has kind " + fd.Kind().String())
}

// sortedKeys returns the keys of mp, a map of field fd, in the order
// generated code writes map entries in ProtoJSON and the text format:
// false before true, numbers ascending, strings by bytes.
func sortedKeys(fd protoreflect.FieldDescriptor, mp protoreflect.Map) []protoreflect.MapKey {
	keys := make([]protoreflect.MapKey, 0, mp.Len())
	mp.Range(func(k protoreflect.MapKey, _ protoreflect.Value) bool {
		keys = append(keys, k)
		return true
	})
	kk := fd.MapKey().Kind()
	slices.SortFunc(keys, func(a, b protoreflect.MapKey) int {
		switch kk {
		case protoreflect.BoolKind:
			ab, bb := a.Bool(), b.Bool()
			switch {
			case ab == bb:
				return 0
			case !ab:
				return -1
			}
			return 1
		case protoreflect.StringKind:
			return strings.Compare(a.String(), b.String())
		case protoreflect.Uint32Kind, protoreflect.Fixed32Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
			au, bu := a.Uint(), b.Uint()
			switch {
			case au < bu:
				return -1
			case au > bu:
				return 1
			}
			return 0
		}
		ai, bi := a.Int(), b.Int()
		switch {
		case ai < bi:
			return -1
		case ai > bi:
			return 1
		}
		return 0
	})
	return keys
}
