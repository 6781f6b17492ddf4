package payload

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/bufbuild/protocompile/protoutil"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/protoplay/protoplay/compiler/diag"
	"github.com/protoplay/protoplay/runtime/prototext"
	"github.com/protoplay/protoplay/runtime/wire"
	wktany "github.com/protoplay/protoplay/runtime/wkt/anypb"
)

// This file is the descriptor-driven adapter through which the payload
// codec reads and writes the text format
// (protobuf.dev/reference/protobuf/textformat-spec): dynJSON (json.go)
// also implements runtime/prototext's Generated and Message interfaces,
// walking the message's descriptor as generated EncodeProtoText and
// DecodeProtoText methods do for their own type (compiler/gogen/text.go),
// so the CLI, the playground and the npm package print and read exactly
// what generated MarshalProtoText and UnmarshalProtoText do: the same
// Encoder and Decoder, field order, names, number, string and enum forms,
// accepted inputs and positioned errors. google.protobuf.Any goes through
// runtime/wkt/anypb's hand-written methods (the expanded form), as in
// generated code. Beyond generated code it handles extensions as
// google.golang.org/protobuf/encoding/prototext does: written as
// "[full.name]" after the declared fields, sorted by full name, and read
// by that name when the schema declares them for the message.

// textOptions are the options of the payload's text output: multiline,
// indented by two spaces, unknown fields written by field number.
var textOptions = prototext.MarshalOptions{Multiline: true, Indent: "  ", EmitUnknown: true}

// marshalText writes m as generated MarshalProtoText does under
// textOptions with the schema's resolver (for the expanded form of Any).
// A required field not set is an error wrapping wire.ErrRequired.
func (s *Schema) marshalText(x *dynJSON) ([]byte, error) {
	o := textOptions
	o.Resolver = s.resolver()
	return prototext.Marshal(x, o)
}

// unmarshalText reads b into m as generated UnmarshalProtoText does with
// the schema's resolver and RecursionLimit MaxDepth, required fields not
// checked (ParseValue checks them).
func (s *Schema) unmarshalText(b []byte, m protoreflect.Message) error {
	return prototext.Unmarshal(b, s.jsonOf(m), prototext.UnmarshalOptions{AllowPartial: true, Resolver: s.resolver(), RecursionLimit: MaxDepth})
}

// textError turns an error of runtime/prototext into a *diag.Error:
// KindText with the line and column (in runes) for input errors, KindLimit
// for nesting over MaxDepth, KindValue otherwise (encoding errors).
func textError(err error) *diag.Error {
	var pe *prototext.Error
	if !errors.As(err, &pe) {
		return valueError(err)
	}
	e := &diag.Error{Kind: diag.KindText, Message: pe.Msg, Offset: -1, Line: pe.Line, Column: pe.Column}
	switch {
	case errors.Is(err, prototext.ErrDepth):
		e.Kind, e.Limit, e.Message = diag.KindLimit, "MaxDepth", depthMessage
	case pe.Offset < 0:
		e.Kind = diag.KindValue
	}
	return e
}

// isAny reports whether md is google.protobuf.Any, whose text methods are
// runtime/wkt/anypb's hand-written ones (the standard type: see
// standardShape).
func isAny(md protoreflect.MessageDescriptor) bool {
	return md.FullName() == "google.protobuf.Any" && md.ParentFile().Path() == "google/protobuf/any.proto" && standardShape(md)
}

// textInfo is what decoding a message type's text form needs, computed
// once per type (Schema.textInfos).
type textInfo struct {
	// byName maps the names a field is known by to it: its text name and,
	// for a group-like field, its own lowercase name unless another field
	// claims it (as generated DecodeProtoText's switch).
	byName map[string]protoreflect.FieldDescriptor
	// oneofBit is the bit of each real oneof (by oneof index) in the seen
	// set, after the fields' bits (their index).
	oneofBit []int
	nBits    int
}

func (s *Schema) textInfo(md protoreflect.MessageDescriptor) *textInfo {
	if v, ok := s.textInfos.Load(md); ok {
		return v.(*textInfo)
	}
	fields := md.Fields()
	info := &textInfo{byName: make(map[string]protoreflect.FieldDescriptor, fields.Len())}
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		if _, ok := info.byName[fd.TextName()]; !ok {
			info.byName[fd.TextName()] = fd
		}
	}
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		low := strings.ToLower(fd.TextName())
		if _, claimed := info.byName[low]; fd.Kind() == protoreflect.GroupKind && low != fd.TextName() && low == string(fd.Name()) && !claimed {
			info.byName[low] = fd
		}
	}
	oneofs := md.Oneofs()
	info.oneofBit = make([]int, oneofs.Len())
	info.nBits = fields.Len()
	for i := 0; i < oneofs.Len(); i++ {
		if !oneofs.Get(i).IsSynthetic() {
			info.oneofBit[i] = info.nBits
			info.nBits++
		}
	}
	v, _ := s.textInfos.LoadOrStore(md, info)
	return v.(*textInfo)
}

var utf8ValidationField = (&descriptorpb.FeatureSet{}).ProtoReflect().Descriptor().Fields().ByName("utf8_validation")

// checksUTF8 reports whether string field fd must hold valid UTF-8
// (proto3 strings, editions utf8_validation = VERIFY): generated code
// writes and reads those with the Encoder's and Decoder's StringUTF8.
func (s *Schema) checksUTF8(fd protoreflect.FieldDescriptor) bool {
	if v, ok := s.utf8Fields.Load(fd); ok {
		return v.(bool)
	}
	check := fd.ParentFile().Syntax() == protoreflect.Proto3
	if v, err := protoutil.ResolveFeature(fd, utf8ValidationField); err == nil && v.IsValid() {
		check = descriptorpb.FeatureSet_Utf8Validation(v.Enum()) == descriptorpb.FeatureSet_VERIFY
	}
	s.utf8Fields.Store(fd, check)
	return check
}

// textCaches are the per-type caches of the text adapter, embedded in
// Schema; safe for concurrent use.
type textCaches struct {
	textInfos  sync.Map // protoreflect.MessageDescriptor -> *textInfo
	utf8Fields sync.Map // protoreflect.FieldDescriptor -> bool
	// mayFail and emptyMsgs are lazy.go's.
	mayFail   sync.Map // protoreflect.MessageDescriptor -> bool
	emptyMsgs sync.Map // protoreflect.MessageDescriptor -> *dynamicpb.Message
}

// EncodeProtoText writes the message's fields as generated EncodeProtoText
// does: fields in declaration order (a oneof at its first member's place),
// implicit-presence fields when not zero, explicit-presence fields when
// set, repeated fields and maps when not empty (map entries in key
// order); then extensions sorted by full name, as prototext writes them;
// then the unknown fields (under EmitUnknown).
func (x *dynJSON) EncodeProtoText(e *prototext.Encoder) error {
	md := x.m.Descriptor()
	if isAny(md) {
		b, err := proto.MarshalOptions{Deterministic: true, AllowPartial: true}.Marshal(x.m.Interface())
		if err != nil {
			return prototext.EncodeError(prototext.ErrInvalidValue, err.Error())
		}
		w := new(wktany.Any)
		if err := w.Unmarshal(b); err != nil && !errors.Is(err, wire.ErrRequired) {
			return prototext.EncodeError(prototext.ErrInvalidValue, err.Error())
		}
		return w.EncodeProtoText(e)
	}
	fields := md.Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		if od := fd.ContainingOneof(); od != nil && !od.IsSynthetic() {
			if od.Fields().Get(0) != fd {
				continue
			}
			if fd = x.m.WhichOneof(od); fd == nil {
				continue
			}
		} else if !x.has(fd) {
			continue
		}
		if err := x.encodeTextField(e, fd.TextName(), fd, x.m.Get(fd)); err != nil {
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
		if err := x.encodeTextField(e, "["+string(extensionName(fd))+"]", fd, x.m.Get(fd)); err != nil {
			return err
		}
	}
	if u := []byte(x.m.GetUnknown()); len(u) > 0 {
		e.Unknown(&u)
	}
	return nil
}

// encodeTextField writes field fd's value v under name: each element of a
// list, each entry of a map in key order as name {key: k value: v}.
func (x *dynJSON) encodeTextField(e *prototext.Encoder, name string, fd protoreflect.FieldDescriptor, v protoreflect.Value) error {
	switch {
	case fd.IsMap():
		mp := v.Map()
		kd, vd := fd.MapKey(), fd.MapValue()
		for _, k := range sortedKeys(fd, mp) {
			e.StartMessage(name)
			if err := x.encodeTextValue(e, "key", kd, k.Value()); err != nil {
				return err
			}
			if err := x.encodeTextValue(e, "value", vd, mp.Get(k)); err != nil {
				return err
			}
			e.EndMessage()
		}
		return nil
	case fd.IsList() && x.lazy && lazyList(fd):
		return x.rawValues(fd, func(v protoreflect.Value) error { return x.encodeTextValue(e, name, fd, v) })
	case fd.IsList() && fd.Kind() == protoreflect.MessageKind:
		return x.eachSub(fd, v.List(), func(c *dynJSON) error {
			e.StartMessage(name)
			if err := c.EncodeProtoText(e); err != nil {
				return err
			}
			e.EndMessage()
			return nil
		})
	case fd.IsList():
		l := v.List()
		for i := 0; i < l.Len(); i++ {
			if err := x.encodeTextValue(e, name, fd, l.Get(i)); err != nil {
				return err
			}
		}
		return nil
	case fd.Kind() == protoreflect.MessageKind:
		e.StartMessage(name)
		if err := x.sub(fd, v.Message()).EncodeProtoText(e); err != nil {
			return err
		}
		e.EndMessage()
		return nil
	}
	return x.encodeTextValue(e, name, fd, v)
}

// encodeTextValue writes one value of fd's kind under name.
func (x *dynJSON) encodeTextValue(e *prototext.Encoder, name string, fd protoreflect.FieldDescriptor, v protoreflect.Value) error {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		e.Bool(name, v.Bool())
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind,
		protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		e.Int(name, v.Int())
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		e.Uint(name, v.Uint())
	case protoreflect.FloatKind:
		e.Float32(name, float32(v.Float()))
	case protoreflect.DoubleKind:
		e.Float64(name, v.Float())
	case protoreflect.BytesKind:
		e.ByteString(name, v.Bytes())
	case protoreflect.StringKind:
		if x.s.checksUTF8(fd) {
			return e.StringUTF8(name, v.String(), string(fd.FullName()))
		}
		e.String(name, v.String())
	case protoreflect.EnumKind:
		// A declared value's name (the first declared, for aliases), else
		// the number, as generated String methods write it.
		if ev := fd.Enum().Values().ByNumber(v.Enum()); ev != nil {
			e.Literal(name, string(ev.Name()))
		} else {
			e.Literal(name, strconv.Itoa(int(v.Enum())))
		}
	case protoreflect.MessageKind, protoreflect.GroupKind:
		e.StartMessage(name)
		if err := x.s.jsonOf(v.Message()).EncodeProtoText(e); err != nil {
			return err
		}
		e.EndMessage()
	default:
		return prototext.EncodeError(prototext.ErrUnsupported, "field "+string(fd.FullName())+" has kind "+fd.Kind().String())
	}
	return nil
}

func isMessageKind(fd protoreflect.FieldDescriptor) bool {
	return fd.Kind() == protoreflect.MessageKind || fd.Kind() == protoreflect.GroupKind
}

// DecodeProtoText reads one message as generated DecodeProtoText does:
// fields by text name (and a group-like field by its lowercase name), each
// non-repeated field at most once and one member per oneof; a declared
// field given by number is an error; a reserved name's value is skipped;
// other names are unknown fields (an error, skipped under DiscardUnknown).
// A "[full.name]" is an extension of the message, found in the schema, or
// (outside an Any) an unknown field; as in prototext, an extension given
// by number is an error too.
func (x *dynJSON) DecodeProtoText(d *prototext.Decoder) error {
	md := x.m.Descriptor()
	if isAny(md) {
		w := new(wktany.Any)
		if err := w.DecodeProtoText(d); err != nil {
			return err
		}
		if err := x.adopt(w); err != nil {
			return d.InvalidValue(err.Error())
		}
		return nil
	}
	if err := d.MessageStart(); err != nil {
		return err
	}
	defer d.Leave()
	info := x.s.textInfo(md)
	seen := make([]uint64, info.nBits/64+1)
	var extSeen map[protoreflect.FieldNumber]bool
	for {
		name, err := d.Next()
		if err != nil {
			return err
		}
		if name == "" {
			return nil
		}
		fd := info.byName[name]
		if fd == nil {
			switch {
			case name[0] == '[':
				fd = x.extensionByName(name)
			case name[0] >= '0' && name[0] <= '9':
				if x.declaresNumber(name) {
					return d.ByNumber()
				}
			case md.ReservedNames().Has(protoreflect.Name(name)):
				if err := d.Skip(); err != nil {
					return err
				}
				continue
			}
			if fd == nil {
				if err := d.Unknown(); err != nil {
					return explainUnknownName(err, md, name, false)
				}
				continue
			}
			if fd.Cardinality() != protoreflect.Repeated {
				if extSeen[fd.Number()] {
					return d.Mark([]uint64{1}, 0) // the duplicate-field error
				}
				if extSeen == nil {
					extSeen = map[protoreflect.FieldNumber]bool{}
				}
				extSeen[fd.Number()] = true
			}
		} else if fd.Cardinality() != protoreflect.Repeated {
			if od := fd.ContainingOneof(); od != nil && !od.IsSynthetic() {
				err = d.MarkOneof(seen, info.oneofBit[od.Index()], string(od.FullName()))
			} else {
				err = d.Mark(seen, fd.Index())
			}
			if err != nil {
				return err
			}
		}
		if err := x.decodeTextField(d, fd); err != nil {
			return err
		}
	}
}

// declaresNumber reports whether name, a field number as the Decoder
// returns it, is the number of a field of the message or of an extension
// of it in the schema.
func (x *dynJSON) declaresNumber(name string) bool {
	n, err := strconv.Atoi(name)
	if err != nil || strconv.Itoa(n) != name {
		return false
	}
	md := x.m.Descriptor()
	if md.Fields().ByNumber(protoreflect.FieldNumber(n)) != nil {
		return true
	}
	_, err = x.s.Types.FindExtensionByNumber(md.FullName(), protoreflect.FieldNumber(n))
	return err == nil
}

// decodeTextField reads the value of field fd: a map's entries, a list's
// elements (one value or a list [a, b]), or one value.
func (x *dynJSON) decodeTextField(d *prototext.Decoder, fd protoreflect.FieldDescriptor) error {
	switch {
	case fd.IsMap():
		return x.decodeTextMap(d, fd)
	case fd.IsList():
		list, err := d.ListStart(!isMessageKind(fd))
		if err != nil {
			return err
		}
		l := x.m.Mutable(fd).List()
		for i := 0; ; i++ {
			more, err := d.ListNext(list, i)
			if err != nil {
				return err
			}
			if !more {
				return nil
			}
			v, err := x.decodeTextValue(d, fd, l.NewElement)
			if err != nil {
				return err
			}
			l.Append(v)
		}
	}
	v, err := x.decodeTextValue(d, fd, func() protoreflect.Value { return x.m.NewField(fd) })
	if err != nil {
		return err
	}
	x.m.Set(fd, v)
	return nil
}

// decodeTextMap reads a map field's value: one entry {key: k value: v} or
// a list of them; a missing key or value is the zero value (an empty
// message); a later entry for a key replaces an earlier one.
func (x *dynJSON) decodeTextMap(d *prototext.Decoder, fd protoreflect.FieldDescriptor) error {
	list, err := d.MapStart()
	if err != nil {
		return err
	}
	mp := x.m.Mutable(fd).Map()
	kd, vd := fd.MapKey(), fd.MapValue()
	for i := 0; ; i++ {
		more, err := d.MapNext(list, i)
		if err != nil {
			return err
		}
		if !more {
			break
		}
		k, v := zeroValue(kd), protoreflect.Value{}
		var kv uint8
		for {
			which, err := d.Entry(&kv, isMessageKind(vd))
			if err != nil {
				return err
			}
			if which == 0 {
				break
			}
			if which == 1 {
				k, err = x.decodeTextValue(d, kd, nil)
			} else {
				v, err = x.decodeTextValue(d, vd, mp.NewValue)
			}
			if err != nil {
				return err
			}
		}
		if !v.IsValid() {
			if isMessageKind(vd) {
				v = mp.NewValue()
			} else {
				v = zeroValue(vd)
			}
		}
		mp.Set(k.MapKey(), v)
	}
	d.MapEnd()
	return nil
}

// zeroValue is the Go zero value of a scalar or enum field's kind, which
// generated code stores for a map entry's missing key or value.
func zeroValue(fd protoreflect.FieldDescriptor) protoreflect.Value {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(false)
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32(0)
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64(0)
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32(0)
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return protoreflect.ValueOfUint64(0)
	case protoreflect.FloatKind:
		return protoreflect.ValueOfFloat32(0)
	case protoreflect.DoubleKind:
		return protoreflect.ValueOfFloat64(0)
	case protoreflect.StringKind:
		return protoreflect.ValueOfString("")
	case protoreflect.BytesKind:
		return protoreflect.ValueOfBytes(nil)
	case protoreflect.EnumKind:
		return protoreflect.ValueOfEnum(0)
	}
	return protoreflect.Value{}
}

// decodeTextValue reads one value of fd's kind; newMsg makes the message a
// message value is read into.
func (x *dynJSON) decodeTextValue(d *prototext.Decoder, fd protoreflect.FieldDescriptor, newMsg func() protoreflect.Value) (protoreflect.Value, error) {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		b, err := d.Bool()
		return protoreflect.ValueOfBool(b), err
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		n, err := d.Int32()
		return protoreflect.ValueOfInt32(n), err
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		n, err := d.Uint32()
		return protoreflect.ValueOfUint32(n), err
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		n, err := d.Int64()
		return protoreflect.ValueOfInt64(n), err
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		n, err := d.Uint64()
		return protoreflect.ValueOfUint64(n), err
	case protoreflect.FloatKind:
		f, err := d.Float32()
		return protoreflect.ValueOfFloat32(f), err
	case protoreflect.DoubleKind:
		f, err := d.Float64()
		return protoreflect.ValueOfFloat64(f), err
	case protoreflect.BytesKind:
		b, err := d.Bytes()
		return protoreflect.ValueOfBytes(b), err
	case protoreflect.StringKind:
		var s string
		var err error
		if x.s.checksUTF8(fd) {
			s, err = d.StringUTF8(string(fd.FullName()))
		} else {
			s, err = d.String()
		}
		return protoreflect.ValueOfString(s), err
	case protoreflect.EnumKind:
		name, num, isName, err := d.EnumValue()
		if err != nil {
			return protoreflect.Value{}, err
		}
		if !isName {
			// A closed enum takes only the numbers it declares (as the
			// generated DecodeProtoText does).
			if fd.Enum().IsClosed() && fd.Enum().Values().ByNumber(protoreflect.EnumNumber(num)) == nil {
				return protoreflect.Value{}, d.UnknownEnum(string(fd.Enum().FullName()))
			}
			return protoreflect.ValueOfEnum(protoreflect.EnumNumber(num)), nil
		}
		if ev := fd.Enum().Values().ByName(protoreflect.Name(name)); ev != nil {
			return protoreflect.ValueOfEnum(ev.Number()), nil
		}
		return protoreflect.Value{}, d.UnknownEnum(string(fd.Enum().FullName()))
	case protoreflect.MessageKind, protoreflect.GroupKind:
		mv := newMsg()
		if err := x.s.jsonOf(mv.Message()).DecodeProtoText(d); err != nil {
			return protoreflect.Value{}, err
		}
		return mv, nil
	}
	return protoreflect.Value{}, d.InvalidValue("field " + string(fd.FullName()) + " has kind " + fd.Kind().String())
}
