package gogen

import (
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// This file prints the text-format methods
// (protobuf.dev/reference/protobuf/textformat-spec): MarshalText and
// UnmarshalText (encoding.TextMarshaler and TextUnmarshaler),
// MarshalProtoText and UnmarshalProtoText (with options), String (the
// compact form, as protoc-gen-go's messages have), and EncodeProtoText and
// DecodeProtoText, which write and read one message through
// runtime/prototext's Encoder and Decoder and call each other for nested
// messages. Enums get DecodeProtoText (their String is the name written).
// The mapping follows google.golang.org/protobuf/encoding/prototext, the
// oracle of the differential tests; the intended differences are in
// docs/json-text.md.

// ProtoTextImportPath is the import path of the runtime package generated
// text-format code uses.
const ProtoTextImportPath = "github.com/protoplay/protoplay/runtime/prototext"

func pt(name string) *jen.Statement { return jen.Qual(ProtoTextImportPath, name) }

// isSpecialText reports whether md's EncodeProtoText and DecodeProtoText
// are hand-written (google.protobuf.Any, for its expanded form, in
// runtime/wkt/anypb).
func isSpecialText(md protoreflect.MessageDescriptor) bool {
	_, wkt := wellKnown[md.ParentFile().Path()]
	return wkt && md.FullName() == "google.protobuf.Any"
}

// genEnumText prints the text-format method of an enum: DecodeProtoText.
func (g *generator) genEnumText(jf *jen.File, ed protoreflect.EnumDescriptor) {
	name := g.enums[ed.FullName()].goName
	var cases []jen.Code
	vals := ed.Values()
	for i := 0; i < vals.Len(); i++ {
		v := vals.Get(i)
		cases = append(cases, jen.Case(jen.Lit(string(v.Name()))).Block(
			jen.Op("*").Id("x").Op("=").Lit(int(v.Number())),
			jen.Return(jen.Nil())))
	}
	// An open enum takes any int32 number; a closed one only the numbers it
	// declares, as protobuf's C++ parser and the conformance suite's
	// ClosedEnumFieldWithUnknownNumber require (prototext takes any).
	number := []jen.Code{jen.Op("*").Id("x").Op("=").Id(name).Call(jen.Id("num")), jen.Return(jen.Nil())}
	if ed.IsClosed() {
		var nums []jen.Code
		seen := map[protoreflect.EnumNumber]bool{}
		for i := 0; i < vals.Len(); i++ {
			if n := vals.Get(i).Number(); !seen[n] {
				seen[n] = true
				nums = append(nums, jen.Lit(int(n)))
			}
		}
		number = []jen.Code{jen.Switch(jen.Id("num")).Block(jen.Case(nums...).Block(number...)),
			jen.Return(jen.Id("d").Dot("UnknownEnum").Call(jen.Lit(string(ed.FullName()))))}
		jf.Comment("// DecodeProtoText reads an enum value from d into x: a declared value's name or")
		jf.Comment("// number (the enum is closed).")
	} else {
		jf.Comment("// DecodeProtoText reads an enum value from d into x: a declared value's name, or")
		jf.Comment("// any number that fits in int32 (the enum is open).")
	}
	jf.Func().Params(jen.Id("x").Op("*").Id(name)).Id("DecodeProtoText").Params(jen.Id("d").Op("*").Add(pt("Decoder"))).Error().Block(
		jen.List(jen.Id("name"), jen.Id("num"), jen.Id("isName"), jen.Err()).Op(":=").Id("d").Dot("EnumValue").Call(),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.If(jen.Op("!").Id("isName")).Block(number...),
		jen.Switch(jen.Id("name")).Block(cases...),
		jen.Return(jen.Id("d").Dot("UnknownEnum").Call(jen.Lit(string(ed.FullName())))),
	)
	jf.Line()
}

// genText prints the text-format methods of a message.
func (g *generator) genText(jf *jen.File, mn *messageNames) {
	if !g.has(FeatureText) {
		return
	}
	g.emitText(jf, g.expand(make([]byte, 0, 1536), textWrappers, mn), ProtoTextImportPath, ProtoJSONImportPath)
	if isSpecialText(mn.desc) {
		return // EncodeProtoText and DecodeProtoText are hand-written.
	}
	g.genEncodeText(jf, mn)
	g.genDecodeText(jf, mn)
}

// textWrappers are a message's text-format entry points and String (see
// expand).
const textWrappers = `// MarshalText implements encoding.TextMarshaler (see prototext.MarshalResolving).
func (m *%T) MarshalText() ([]byte, error) {
	return %XMarshalResolving(m, %R)
}

// MarshalProtoText returns m in the text format (see prototext.Marshal).
func (m *%T) MarshalProtoText(o %XMarshalOptions) ([]byte, error) {
	return %XMarshal(m, o)
}

// UnmarshalText implements encoding.TextUnmarshaler (see prototext.UnmarshalResolving).
func (m *%T) UnmarshalText(b []byte) error {
	return %XUnmarshalResolving(b, m, %R)
}

// UnmarshalProtoText replaces m with the text-format message in b (see prototext.Unmarshal).
func (m *%T) UnmarshalProtoText(b []byte, o %XUnmarshalOptions) error {
	return %XUnmarshal(b, m, o)
}

// String returns m in the compact text format for people, "<nil>" for nil (see prototext.Format).
func (m *%T) String() string {
	if m == nil {
		return "<nil>"
	}
	return %XFormat(m, %JResolverFunc(%R))
}`

// textName is the name fd has in the text format: the group's type name
// for group-like fields, the field name otherwise.
func textName(fd protoreflect.FieldDescriptor) string { return fd.TextName() }

// encodeTextValue writes one value v of fd under name (an element, for
// repeated fields; a map entry's key or value).
func (g *generator) encodeTextValue(fd protoreflect.FieldDescriptor, name string, v jen.Code) []jen.Code {
	n := jen.Lit(name)
	call := func(m string, v jen.Code) []jen.Code { return []jen.Code{jen.Id("e").Dot(m).Call(n, v)} }
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return call("Bool", v)
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return call("Int", jen.Int64().Call(v))
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return call("Int", v)
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return call("Uint", jen.Uint64().Call(v))
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return call("Uint", v)
	case protoreflect.FloatKind:
		return call("Float32", v)
	case protoreflect.DoubleKind:
		return call("Float64", v)
	case protoreflect.BytesKind:
		return call("ByteString", v)
	case protoreflect.StringKind:
		if validatesUTF8(fd) {
			return []jen.Code{jen.If(jen.Err().Op(":=").Id("e").Dot("StringUTF8").Call(n, v, jen.Lit(string(fd.FullName()))), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))}
		}
		return call("String", v)
	case protoreflect.EnumKind:
		return call("Literal", jen.Add(v).Dot("String").Call())
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return []jen.Code{
			jen.Id("e").Dot("StartMessage").Call(n),
			jen.If(jen.Err().Op(":=").Add(v).Dot("EncodeProtoText").Call(jen.Id("e")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
			jen.Id("e").Dot("EndMessage").Call(),
		}
	}
	panic("encodeTextValue: " + fd.Kind().String())
}

func (g *generator) genEncodeText(jf *jen.File, mn *messageNames) {
	body := append(forceLazy(mn, "m"), jen.If(jen.Id("m").Op("==").Nil()).Block(jen.Return(jen.Nil())))
	for _, fn := range mn.fields {
		fd := fn.desc
		f := mf(fn)
		name := textName(fd)
		switch fn.storage() {
		case stBit:
			body = append(body, jen.If(hasBit(jen.Id("m"), fn)).Block(g.encodeTextValue(fd, name, f)...))
		case stImplicit:
			body = append(body, jen.If(isNonZero(fd, f)).Block(g.encodeTextValue(fd, name, f)...))
		case stPointer:
			body = append(body, jen.If(f.Clone().Op("!=").Nil()).Block(g.encodeTextValue(fd, name, deref(fd, f))...))
		case stBytes, stMessage:
			body = append(body, jen.If(f.Clone().Op("!=").Nil()).Block(g.encodeTextValue(fd, name, f)...))
		case stRepeated:
			body = append(body, jen.For(jen.List(jen.Id("_"), jen.Id("x")).Op(":=").Range().Add(f)).Block(g.encodeTextValue(fd, name, jen.Id("x"))...))
		case stMap:
			body = append(body, g.encodeTextMap(fn)...)
		case stOneof:
			o := fn.oneof
			if o.fields[0] != fn {
				continue
			}
			// A nil wrapper pointer is no member, as in prototext.
			body = append(body, oneofSwitch("x", jen.Id("m").Dot(o.goName), o, func(m *fieldNames) []jen.Code {
				return g.encodeTextValue(m.desc, textName(m.desc), jen.Id("x").Dot(m.goName))
			}))
		}
	}
	if g.extendable(mn.desc) {
		body = append(body, jen.If(jen.Err().Op(":=").Id("e").Dot("Extensions").Call(jen.Lit(string(mn.desc.FullName())), jen.Id("m").Dot("unknownFields")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
	} else if !g.opts.DropUnknown {
		body = append(body, jen.Id("e").Dot("Unknown").Call(jen.Id("m").Dot("unknownFields")))
	}
	body = append(body, jen.Return(jen.Nil()))
	jf.Comment("// EncodeProtoText writes m's fields to e in the text format (see prototext.Generated).")
	jf.Func().Params(recv(mn)).Id("EncodeProtoText").Params(jen.Id("e").Op("*").Add(pt("Encoder"))).Error().Block(body...)
	jf.Line()
}

// encodeTextMap writes a map field's entries in key order (false before
// true, numbers ascending, strings by bytes), as prototext does, each as
// name {key: k value: v}.
func (g *generator) encodeTextMap(fn *fieldNames) []jen.Code {
	fd := fn.desc
	kd, vd := fd.MapKey(), fd.MapValue()
	f := mf(fn)
	entry := []jen.Code{jen.Id("e").Dot("StartMessage").Call(jen.Lit(textName(fd)))}
	entry = append(entry, g.encodeTextValue(kd, "key", jen.Id("k"))...)
	entry = append(entry, g.encodeTextValue(vd, "value", jen.Id("v"))...)
	entry = append(entry, jen.Id("e").Dot("EndMessage").Call())
	if kd.Kind() == protoreflect.BoolKind {
		return []jen.Code{jen.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Index(jen.Lit(2)).Bool().Values(jen.False(), jen.True())).Block(
			append([]jen.Code{
				jen.List(jen.Id("v"), jen.Id("ok")).Op(":=").Add(f).Index(jen.Id("k")),
				jen.If(jen.Op("!").Id("ok")).Block(jen.Continue()),
			}, entry...)...)}
	}
	return []jen.Code{jen.If(jen.Len(f).Op(">").Lit(0)).Block(
		jen.Id("keys").Op(":=").Make(jen.Index().Add(g.elemType(kd)), jen.Lit(0), jen.Len(f)),
		jen.For(jen.Id("key").Op(":=").Range().Add(f)).Block(jen.Id("keys").Op("=").Append(jen.Id("keys"), jen.Id("key"))),
		jen.Qual("slices", "Sort").Call(jen.Id("keys")),
		jen.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Id("keys")).Block(
			append([]jen.Code{jen.Id("v").Op(":=").Add(f).Index(jen.Id("k"))}, entry...)...),
	)}
}

// decodeTextValue reads one value of fd into a new variable v and passes
// it to set, which returns the statement storing it.
func (g *generator) decodeTextValue(fd protoreflect.FieldDescriptor, set func(v jen.Code) jen.Code) []jen.Code {
	errRet := jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
	if m := textReader(fd); m != nil {
		return []jen.Code{jen.List(jen.Id("v"), jen.Err()).Op(":=").Add(m), errRet, set(jen.Id("v"))}
	}
	if fd.Kind() == protoreflect.EnumKind {
		return []jen.Code{
			jen.Var().Id("v").Add(g.enumType(fd.Enum())),
			jen.If(jen.Err().Op(":=").Id("v").Dot("DecodeProtoText").Call(jen.Id("d")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
			set(jen.Id("v")),
		}
	}
	return []jen.Code{
		jen.Id("v").Op(":=").New(g.msgType(fd.Message())),
		jen.If(jen.Err().Op(":=").Id("v").Dot("DecodeProtoText").Call(jen.Id("d")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		set(jen.Id("v")),
	}
}

// textReader is the Decoder call that reads a scalar value of fd, or nil
// for enums and messages.
func textReader(fd protoreflect.FieldDescriptor) *jen.Statement {
	call := func(m string, args ...jen.Code) *jen.Statement { return jen.Id("d").Dot(m).Call(args...) }
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return call("Bool")
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return call("Int32")
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return call("Uint32")
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return call("Int64")
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return call("Uint64")
	case protoreflect.FloatKind:
		return call("Float32")
	case protoreflect.DoubleKind:
		return call("Float64")
	case protoreflect.BytesKind:
		return call("Bytes")
	case protoreflect.StringKind:
		if validatesUTF8(fd) {
			return call("StringUTF8", jen.Lit(string(fd.FullName())))
		}
		return call("String")
	}
	return nil
}

func isMessageKind(fd protoreflect.FieldDescriptor) bool {
	return fd.Kind() == protoreflect.MessageKind || fd.Kind() == protoreflect.GroupKind
}

func (g *generator) genDecodeText(jf *jen.File, mn *messageNames) {
	errRet := func() jen.Code { return jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())) }
	body := []jen.Code{
		jen.If(jen.Err().Op(":=").Id("d").Dot("MessageStart").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Defer().Id("d").Dot("Leave").Call(),
	}
	body = append(forceLazy(mn, "m"), body...)
	nOneofs := 0
	for _, o := range mn.oneofs {
		if !o.desc.IsSynthetic() {
			nOneofs++
		}
	}
	needSeen := false
	for _, fn := range mn.fields {
		if st := fn.storage(); st != stRepeated && st != stMap {
			needSeen = true
		}
	}
	if needSeen {
		body = append(body, jen.Var().Id("seen").Index(jen.Lit((len(mn.fields)+nOneofs)/64+1)).Uint64())
	}
	cases := []jen.Code{jen.Case(jen.Lit("")).Block(jen.Return(jen.Nil()))}
	// The names a field is known by: its text name and, for a group-like
	// field, its own (lowercase) name too, unless another field claims it
	// (as prototext's Fields.ByTextName does).
	claimed := map[string]bool{}
	for _, fn := range mn.fields {
		claimed[textName(fn.desc)] = true
	}
	var nums []jen.Code
	for i, fn := range mn.fields {
		fd := fn.desc
		nums = append(nums, jen.Lit(strconv.Itoa(int(fd.Number()))))
		f := mf(fn)
		mark := jen.If(jen.Err().Op(":=").Id("d").Dot("Mark").Call(jen.Id("seen").Index(jen.Empty(), jen.Empty()), jen.Lit(i)), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
		var c []jen.Code
		switch fn.storage() {
		case stImplicit, stBytes, stMessage:
			c = append(c, mark)
			c = append(c, g.decodeTextValue(fd, func(v jen.Code) jen.Code { return f.Clone().Op("=").Add(v) })...)
		case stBit:
			c = append(c, mark)
			c = append(c, g.decodeTextValue(fd, func(v jen.Code) jen.Code {
				return f.Clone().Op("=").Add(v).Line().Add(setBit(jen.Id("m"), fn))
			})...)
		case stPointer:
			c = append(c, mark)
			c = append(c, g.decodeTextValue(fd, func(v jen.Code) jen.Code { return f.Clone().Op("=").Op("&").Add(v) })...)
		case stOneof:
			bit := len(mn.fields) + oneofOrdinal(mn, fn.oneof)
			c = append(c, jen.If(jen.Err().Op(":=").Id("d").Dot("MarkOneof").Call(jen.Id("seen").Index(jen.Empty(), jen.Empty()), jen.Lit(bit), jen.Lit(string(fn.oneof.desc.FullName()))), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
			c = append(c, g.decodeTextValue(fd, func(v jen.Code) jen.Code {
				return jen.Id("m").Dot(fn.oneof.goName).Op("=").Op("&").Id(fn.wrapper).Values(jen.Dict{jen.Id(fn.goName): v})
			})...)
		case stRepeated:
			loop := append([]jen.Code{
				jen.List(jen.Id("more"), jen.Err()).Op(":=").Id("d").Dot("ListNext").Call(jen.Id("list"), jen.Id("i")),
				errRet(),
				jen.If(jen.Op("!").Id("more")).Block(jen.Break()),
			}, g.decodeTextValue(fd, func(v jen.Code) jen.Code { return f.Clone().Op("=").Append(f.Clone(), v) })...)
			c = append(c,
				jen.List(jen.Id("list"), jen.Err()).Op(":=").Id("d").Dot("ListStart").Call(jen.Lit(!isMessageKind(fd))),
				errRet(),
				jen.For(jen.Id("i").Op(":=").Lit(0), jen.Empty(), jen.Id("i").Op("++")).Block(loop...))
		case stMap:
			c = append(c, g.decodeTextMap(fn)...)
		}
		names := []jen.Code{jen.Lit(textName(fd))}
		if low := strings.ToLower(textName(fd)); fd.Kind() == protoreflect.GroupKind && low != textName(fd) && low == string(fd.Name()) && !claimed[low] {
			claimed[low] = true
			names = append(names, jen.Lit(low))
		}
		cases = append(cases, jen.Case(names...).Block(c...))
	}
	if len(nums) > 0 {
		cases = append(cases, jen.Case(nums...).Block(jen.Return(jen.Id("d").Dot("ByNumber").Call())))
	}
	if rn := mn.desc.ReservedNames(); rn.Len() > 0 {
		var lits []jen.Code
		for i := 0; i < rn.Len(); i++ {
			if mn.desc.Fields().ByTextName(string(rn.Get(i))) == nil {
				lits = append(lits, jen.Lit(string(rn.Get(i))))
			}
		}
		if len(lits) > 0 {
			cases = append(cases, jen.Case(lits...).Block(jen.If(jen.Err().Op(":=").Id("d").Dot("Skip").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))))
		}
	}
	if g.extendable(mn.desc) {
		// A name that names no field may name an extension.
		cases = append(cases, jen.Default().Block(jen.If(jen.Err().Op(":=").Id("d").Dot("Extension").Call(jen.Id("name"), jen.Lit(string(mn.desc.FullName())), jen.Op("&").Id("m").Dot("unknownFields")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))))
	} else {
		cases = append(cases, jen.Default().Block(jen.If(jen.Err().Op(":=").Id("d").Dot("Unknown").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))))
	}
	body = append(body, jen.For().Block(
		jen.List(jen.Id("name"), jen.Err()).Op(":=").Id("d").Dot("Next").Call(),
		errRet(),
		jen.Switch(jen.Id("name")).Block(cases...),
	))
	jf.Comment("// DecodeProtoText reads a text-format message from d into m (see prototext.Generated).")
	jf.Func().Params(recv(mn)).Id("DecodeProtoText").Params(jen.Id("d").Op("*").Add(pt("Decoder"))).Error().Block(body...)
	jf.Line()
}

// decodeTextMap reads a map field's value: one entry {key: k value: v} or
// a list of them; a later entry for a key replaces an earlier one.
func (g *generator) decodeTextMap(fn *fieldNames) []jen.Code {
	fd := fn.desc
	kd, vd := fd.MapKey(), fd.MapValue()
	f := mf(fn)
	errRet := func() jen.Code { return jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())) }
	var readValue []jen.Code
	switch {
	case isMessageKind(vd):
		readValue = []jen.Code{jen.Id("v").Op("=").New(g.msgType(vd.Message())), jen.Err().Op("=").Id("v").Dot("DecodeProtoText").Call(jen.Id("d"))}
	case vd.Kind() == protoreflect.EnumKind:
		readValue = []jen.Code{jen.Err().Op("=").Id("v").Dot("DecodeProtoText").Call(jen.Id("d"))}
	default:
		readValue = []jen.Code{jen.List(jen.Id("v"), jen.Err()).Op("=").Add(textReader(vd))}
	}
	entry := []jen.Code{
		jen.List(jen.Id("which"), jen.Err()).Op(":=").Id("d").Dot("Entry").Call(jen.Op("&").Id("kv"), jen.Lit(isMessageKind(vd))),
		errRet(),
		jen.If(jen.Id("which").Op("==").Lit(0)).Block(jen.Break()),
		jen.If(jen.Id("which").Op("==").Lit(1)).Block(jen.List(jen.Id("k"), jen.Err()).Op("=").Add(textReader(kd))).Else().Block(readValue...),
		errRet(),
	}
	loop := []jen.Code{
		jen.List(jen.Id("more"), jen.Err()).Op(":=").Id("d").Dot("MapNext").Call(jen.Id("list"), jen.Id("i")),
		errRet(),
		jen.If(jen.Op("!").Id("more")).Block(jen.Break()),
		jen.Var().Id("k").Add(g.elemType(kd)),
		jen.Var().Id("v").Add(g.elemType(vd)),
		jen.Var().Id("kv").Uint8(),
		jen.For().Block(entry...),
	}
	if isMessageKind(vd) {
		loop = append(loop, jen.If(jen.Id("v").Op("==").Nil()).Block(jen.Id("v").Op("=").New(g.msgType(vd.Message()))))
	}
	loop = append(loop, f.Clone().Index(jen.Id("k")).Op("=").Id("v"))
	return []jen.Code{
		jen.List(jen.Id("list"), jen.Err()).Op(":=").Id("d").Dot("MapStart").Call(),
		errRet(),
		jen.If(f.Clone().Op("==").Nil()).Block(f.Clone().Op("=").Make(g.fieldType(fd))),
		jen.For(jen.Id("i").Op(":=").Lit(0), jen.Empty(), jen.Id("i").Op("++")).Block(loop...),
		jen.Id("d").Dot("MapEnd").Call(),
	}
}
