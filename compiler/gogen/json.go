package gogen

import (
	"github.com/dave/jennifer/jen"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// This file prints the ProtoJSON methods (protobuf.dev/programming-guides/json):
// MarshalJSON, UnmarshalJSON (so encoding/json uses ProtoJSON),
// MarshalProtoJSON and UnmarshalProtoJSON (with options), and
// EncodeProtoJSON and DecodeProtoJSON, which write and read one message
// through runtime/protojson's Encoder and Decoder and call each other for
// nested messages. Enums get MarshalJSON, UnmarshalJSON, EncodeProtoJSON and
// DecodeProtoJSON too. The mapping follows
// google.golang.org/protobuf/encoding/protojson, the oracle of the
// differential tests; the intended differences are in docs/json-text.md.

// ProtoJSONImportPath is the import path of the runtime package generated
// ProtoJSON code uses.
const ProtoJSONImportPath = "github.com/protoplay/protoplay/runtime/protojson"

func pj(name string) *jen.Statement { return jen.Qual(ProtoJSONImportPath, name) }

// specialJSON are the well-known types whose ProtoJSON form is not an
// object of their fields. Their EncodeProtoJSON and DecodeProtoJSON are
// hand-written beside the generated code in runtime/wkt; the generator
// prints only the four wrappers around them.
var specialJSON = map[protoreflect.FullName]bool{
	"google.protobuf.Any":         true,
	"google.protobuf.Timestamp":   true,
	"google.protobuf.Duration":    true,
	"google.protobuf.FieldMask":   true,
	"google.protobuf.Struct":      true,
	"google.protobuf.Value":       true,
	"google.protobuf.ListValue":   true,
	"google.protobuf.DoubleValue": true,
	"google.protobuf.FloatValue":  true,
	"google.protobuf.Int64Value":  true,
	"google.protobuf.UInt64Value": true,
	"google.protobuf.Int32Value":  true,
	"google.protobuf.UInt32Value": true,
	"google.protobuf.BoolValue":   true,
	"google.protobuf.StringValue": true,
	"google.protobuf.BytesValue":  true,
}

const (
	nullValueEnum = "google.protobuf.NullValue"
	valueMessage  = "google.protobuf.Value"
)

// isSpecialJSON reports whether md's ProtoJSON methods are hand-written:
// md is one of specialJSON in its well-known file.
func isSpecialJSON(md protoreflect.MessageDescriptor) bool {
	_, wkt := wellKnown[md.ParentFile().Path()]
	return wkt && specialJSON[md.FullName()]
}

// takesNull reports whether JSON null is a value of fd's type rather than
// "not set": google.protobuf.Value and google.protobuf.NullValue.
func takesNull(fd protoreflect.FieldDescriptor) bool {
	if fd.Enum() != nil {
		return fd.Enum().FullName() == nullValueEnum
	}
	return fd.Message() != nil && fd.Message().FullName() == valueMessage
}

// genEnumJSON prints the ProtoJSON methods of an enum.
func (g *generator) genEnumJSON(jf *jen.File, ed protoreflect.EnumDescriptor) {
	en := g.enums[ed.FullName()]
	name := en.goName
	null := ed.FullName() == nullValueEnum

	jf.Comment("// MarshalJSON returns x in ProtoJSON: its name as a JSON string, or its number")
	jf.Comment("// when x is not a declared value.")
	jf.Func().Params(jen.Id("x").Id(name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Id("e").Op(":=").Add(pj("NewEncoder")).Call(jen.Nil(), pj("MarshalOptions").Values()),
		jen.Id("x").Dot("EncodeProtoJSON").Call(jen.Id("e")),
		jen.Return(jen.Id("e").Dot("Bytes").Call(), jen.Nil()),
	)
	jf.Line()
	jf.Comment("// UnmarshalJSON sets x from its ProtoJSON form: a declared value's name, or a")
	jf.Comment("// number that fits in int32.")
	jf.Func().Params(jen.Id("x").Op("*").Id(name)).Id("UnmarshalJSON").Params(jen.Id("b").Index().Byte()).Error().Block(
		jen.Id("d").Op(":=").Add(pj("NewDecoder")).Call(jen.Id("b"), pj("UnmarshalOptions").Values()),
		jen.If(jen.List(jen.Id("_"), jen.Err()).Op(":=").Id("x").Dot("DecodeProtoJSON").Call(jen.Id("d")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Return(jen.Id("d").Dot("End").Call()),
	)
	jf.Line()

	var cases []jen.Code
	done := map[protoreflect.EnumNumber]bool{}
	vals := ed.Values()
	for i := 0; i < vals.Len(); i++ {
		v := vals.Get(i)
		if done[v.Number()] {
			continue
		}
		done[v.Number()] = true
		cases = append(cases, jen.Case(jen.Lit(int(v.Number()))).Block(
			jen.Id("e").Dot("Enum").Call(jen.Int32().Call(jen.Id("x")), jen.Lit(string(v.Name())))))
	}
	cases = append(cases, jen.Default().Block(jen.Id("e").Dot("Enum").Call(jen.Int32().Call(jen.Id("x")), jen.Lit(""))))
	encBody := []jen.Code{jen.Switch(jen.Id("x")).Block(cases...)}
	if null {
		encBody = []jen.Code{jen.Id("e").Dot("Null").Call()}
	}
	if null {
		jf.Comment("// EncodeProtoJSON writes x to e: null, the ProtoJSON form of every NullValue.")
	} else {
		jf.Comment("// EncodeProtoJSON writes x to e: its name, or its number under UseEnumNumbers")
		jf.Comment("// or when x is not a declared value.")
	}
	jf.Func().Params(jen.Id("x").Id(name)).Id("EncodeProtoJSON").Params(jen.Id("e").Op("*").Add(pj("Encoder"))).Block(encBody...)
	jf.Line()

	var names []jen.Code
	for i := 0; i < vals.Len(); i++ {
		v := vals.Get(i)
		names = append(names, jen.Case(jen.Lit(string(v.Name()))).Block(
			jen.Op("*").Id("x").Op("=").Lit(int(v.Number())),
			jen.Return(jen.True(), jen.Nil())))
	}
	var body []jen.Code
	if null {
		body = append(body, jen.If(jen.Id("d").Dot("ReadNull").Call()).Block(
			jen.Op("*").Id("x").Op("=").Lit(0),
			jen.Return(jen.True(), jen.Nil())))
	}
	body = append(body,
		jen.List(jen.Id("name"), jen.Id("num"), jen.Id("isName"), jen.Err()).Op(":=").Id("d").Dot("EnumValue").Call(),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.False(), jen.Err())),
		jen.If(jen.Op("!").Id("isName")).Block(
			jen.Op("*").Id("x").Op("=").Id(name).Call(jen.Id("num")),
			jen.Return(jen.True(), jen.Nil())),
		jen.Switch(jen.Id("name")).Block(names...),
		jen.Return(jen.False(), jen.Id("d").Dot("UnknownEnumName").Call(jen.Lit(string(ed.FullName())))),
	)
	jf.Comment("// DecodeProtoJSON reads an enum value from d into x: a declared value's name, or")
	jf.Comment("// any number that fits in int32 (protojson does not check numbers, not even for")
	jf.Comment("// closed enums). ok is false, and x unchanged, for an unknown name under")
	jf.Comment("// DiscardUnknown; without it an unknown name is an error.")
	jf.Func().Params(jen.Id("x").Op("*").Id(name)).Id("DecodeProtoJSON").Params(jen.Id("d").Op("*").Add(pj("Decoder"))).Params(jen.Id("ok").Bool(), jen.Err().Error()).Block(body...)
	jf.Line()
}

// genJSON prints the ProtoJSON methods of a message.
func (g *generator) genJSON(jf *jen.File, mn *messageNames) {
	if !g.has(FeatureJSON) {
		return
	}
	g.emitText(jf, g.expand(make([]byte, 0, 1024), jsonWrappers, mn), ProtoJSONImportPath)
	if isSpecialJSON(mn.desc) {
		return // EncodeProtoJSON and DecodeProtoJSON are hand-written.
	}
	g.genEncodeJSON(jf, mn)
	g.genDecodeJSON(jf, mn)
}

// jsonWrappers are a message's ProtoJSON entry points (see expand).
const jsonWrappers = `// MarshalJSON is MarshalProtoJSON with the default options, for encoding/json.
func (m *%T) MarshalJSON() ([]byte, error) {
	return %JMarshal(m, %JMarshalOptions{})
}

// MarshalProtoJSON returns m in ProtoJSON (see protojson.Marshal).
func (m *%T) MarshalProtoJSON(o %JMarshalOptions) ([]byte, error) {
	return %JMarshal(m, o)
}

// UnmarshalJSON is UnmarshalProtoJSON with the default options, for encoding/json.
func (m *%T) UnmarshalJSON(b []byte) error {
	return %JUnmarshal(b, m, %JUnmarshalOptions{})
}

// UnmarshalProtoJSON replaces m with the ProtoJSON message in b (see protojson.Unmarshal).
func (m *%T) UnmarshalProtoJSON(b []byte, o %JUnmarshalOptions) error {
	return %JUnmarshal(b, m, o)
}`

// encodeValue writes one value v of fd (an element, for repeated fields
// and map values).
func (g *generator) encodeValue(fd protoreflect.FieldDescriptor, v jen.Code) []jen.Code {
	call := func(m string) []jen.Code { return []jen.Code{jen.Id("e").Dot(m).Call(v)} }
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
		return call("Bytes64")
	case protoreflect.StringKind:
		return []jen.Code{jen.If(jen.Err().Op(":=").Id("e").Dot("String").Call(v, jen.Lit(string(fd.FullName()))), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))}
	case protoreflect.EnumKind:
		return []jen.Code{jen.Add(v).Dot("EncodeProtoJSON").Call(jen.Id("e"))}
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return []jen.Code{jen.If(jen.Err().Op(":=").Add(v).Dot("EncodeProtoJSON").Call(jen.Id("e")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))}
	}
	panic("encodeValue: " + fd.Kind().String())
}

func jsonNameCall(fd protoreflect.FieldDescriptor) jen.Code {
	return jen.Id("e").Dot("Name").Call(jen.Lit(fd.JSONName()), jen.Lit(fd.TextName()))
}

func (g *generator) genEncodeJSON(jf *jen.File, mn *messageNames) {
	body := []jen.Code{
		jen.If(jen.Id("m").Op("==").Nil()).Block(jen.Id("m").Op("=").New(jen.Id(mn.goName))),
		jen.Id("e").Dot("StartObject").Call(),
	}
	body = append(forceLazy(mn, "m"), body...)
	null := func(fd protoreflect.FieldDescriptor) jen.Code {
		return jen.Else().If(jen.Id("e").Dot("EmitUnpopulated").Call()).Block(jsonNameCall(fd), jen.Id("e").Dot("Null").Call())
	}
	for _, fn := range mn.fields {
		fd := fn.desc
		f := mf(fn)
		name := jsonNameCall(fd)
		switch fn.storage() {
		case stBit:
			body = append(body, jen.If(hasBit(jen.Id("m"), fn)).Block(
				append([]jen.Code{name}, g.encodeValue(fd, f)...)...).Add(g.nullUnlessSynthetic(fd, null)))
		case stImplicit:
			body = append(body, jen.If(isNonZero(fd, f).Op("||").Id("e").Dot("EmitDefaults").Call()).Block(
				append([]jen.Code{name}, g.encodeValue(fd, f)...)...))
		case stPointer:
			body = append(body, jen.If(f.Clone().Op("!=").Nil()).Block(
				append([]jen.Code{name}, g.encodeValue(fd, deref(fd, f))...)...).Add(g.nullUnlessSynthetic(fd, null)))
		case stBytes, stMessage:
			body = append(body, jen.If(f.Clone().Op("!=").Nil()).Block(
				append([]jen.Code{name}, g.encodeValue(fd, f)...)...).Add(g.nullUnlessSynthetic(fd, null)))
		case stRepeated:
			loop := jen.For(jen.List(jen.Id("_"), jen.Id("x")).Op(":=").Range().Add(f)).Block(g.encodeValue(fd, jen.Id("x"))...)
			body = append(body, jen.If(jen.Len(f).Op(">").Lit(0).Op("||").Id("e").Dot("EmitDefaults").Call()).Block(
				name, jen.Id("e").Dot("StartArray").Call(), loop, jen.Id("e").Dot("EndArray").Call()))
		case stMap:
			body = append(body, jen.If(jen.Len(f).Op(">").Lit(0).Op("||").Id("e").Dot("EmitDefaults").Call()).Block(
				append(append([]jen.Code{name, jen.Id("e").Dot("StartObject").Call()}, g.encodeMap(fn)...), jen.Id("e").Dot("EndObject").Call())...))
		case stOneof:
			o := fn.oneof
			if o.fields[0] != fn {
				continue
			}
			// A nil wrapper pointer is no member, as in protojson.
			body = append(body, oneofSwitch("x", jen.Id("m").Dot(o.goName), o, func(m *fieldNames) []jen.Code {
				return append([]jen.Code{jsonNameCall(m.desc)}, g.encodeValue(m.desc, jen.Id("x").Dot(m.goName))...)
			}))
		}
	}
	if g.extendable(mn.desc) {
		body = append(body, jen.If(jen.Err().Op(":=").Id("e").Dot("Extensions").Call(jen.Lit(string(mn.desc.FullName())), jen.Id("m").Dot("unknownFields")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
	}
	body = append(body, jen.Id("e").Dot("EndObject").Call(), jen.Return(jen.Nil()))
	jf.Comment("// EncodeProtoJSON writes m to e as a ProtoJSON object (see protojson.Generated).")
	jf.Func().Params(recv(mn)).Id("EncodeProtoJSON").Params(jen.Id("e").Op("*").Add(pj("Encoder"))).Error().Block(body...)
	jf.Line()
}

// deref is *f, in parentheses when a method is called on it (enums).
func deref(fd protoreflect.FieldDescriptor, f *jen.Statement) jen.Code {
	if fd.Kind() == protoreflect.EnumKind {
		return jen.Parens(jen.Op("*").Add(f))
	}
	return jen.Op("*").Add(f)
}

// nullUnlessSynthetic is the EmitUnpopulated branch of an explicit-presence
// field: null, except for proto3 optional fields, which protojson leaves out
// like the members of any oneof.
func (g *generator) nullUnlessSynthetic(fd protoreflect.FieldDescriptor, null func(protoreflect.FieldDescriptor) jen.Code) jen.Code {
	if fd.ContainingOneof() != nil {
		return jen.Null()
	}
	return null(fd)
}

// encodeMap writes the entries of a map field in key order (false before
// true, numbers ascending, strings by bytes), as protojson does.
func (g *generator) encodeMap(fn *fieldNames) []jen.Code {
	fd := fn.desc
	kd, vd := fd.MapKey(), fd.MapValue()
	f := mf(fn)
	var key jen.Code
	switch kd.Kind() {
	case protoreflect.BoolKind:
		key = jen.Id("e").Dot("KeyBool").Call(jen.Id("k"))
	case protoreflect.StringKind:
		key = jen.If(jen.Err().Op(":=").Id("e").Dot("Key").Call(jen.Id("k")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		key = jen.Id("e").Dot("KeyUint").Call(jen.Uint64().Call(jen.Id("k")))
	default:
		key = jen.Id("e").Dot("KeyInt").Call(jen.Int64().Call(jen.Id("k")))
	}
	entry := append([]jen.Code{key}, g.encodeValue(vd, jen.Id("v"))...)
	if kd.Kind() == protoreflect.BoolKind {
		return []jen.Code{jen.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Index(jen.Lit(2)).Bool().Values(jen.False(), jen.True())).Block(
			append([]jen.Code{
				jen.List(jen.Id("v"), jen.Id("ok")).Op(":=").Add(f).Index(jen.Id("k")),
				jen.If(jen.Op("!").Id("ok")).Block(jen.Continue()),
			}, entry...)...)}
	}
	// The keys are collected and sorted as the binary Marshal does, not
	// with slices.Sorted(maps.Keys(...)): a range over an iterator is one
	// of the constructs the interpreter (package interp) cannot run.
	return []jen.Code{
		jen.Id("keys").Op(":=").Make(jen.Index().Add(g.elemType(kd)), jen.Lit(0), jen.Len(f)),
		jen.For(jen.Id("key").Op(":=").Range().Add(f)).Block(jen.Id("keys").Op("=").Append(jen.Id("keys"), jen.Id("key"))),
		jen.Qual("slices", "Sort").Call(jen.Id("keys")),
		jen.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Id("keys")).Block(
			append([]jen.Code{jen.Id("v").Op(":=").Add(f).Index(jen.Id("k"))}, entry...)...),
	}
}

// decodeValue reads one value of fd (an element, for repeated fields and
// map values) and passes it to set, which returns the statement storing it.
func (g *generator) decodeValue(fd protoreflect.FieldDescriptor, set func(v jen.Code) jen.Code) []jen.Code {
	read := func(m string) []jen.Code {
		return []jen.Code{
			jen.List(jen.Id("v"), jen.Err()).Op(":=").Id("d").Dot(m).Call(),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
			set(jen.Id("v")),
		}
	}
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return read("Bool")
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return read("Int32")
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return read("Uint32")
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return read("Int64")
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return read("Uint64")
	case protoreflect.FloatKind:
		return read("Float32")
	case protoreflect.DoubleKind:
		return read("Float64")
	case protoreflect.BytesKind:
		return read("Bytes")
	case protoreflect.StringKind:
		return read("String")
	case protoreflect.EnumKind:
		return []jen.Code{
			jen.Var().Id("v").Add(g.enumType(fd.Enum())),
			jen.List(jen.Id("known"), jen.Err()).Op(":=").Id("v").Dot("DecodeProtoJSON").Call(jen.Id("d")),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
			jen.If(jen.Id("known")).Block(set(jen.Id("v"))),
		}
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return []jen.Code{
			jen.Id("v").Op(":=").Add(rt("New")).Types(g.msgType(fd.Message())).Call(jen.Id("d").Dot("Alloc").Call()),
			jen.If(jen.Err().Op(":=").Id("v").Dot("DecodeProtoJSON").Call(jen.Id("d")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
			set(jen.Id("v")),
		}
	}
	panic("decodeValue: " + fd.Kind().String())
}

func (g *generator) genDecodeJSON(jf *jen.File, mn *messageNames) {
	head := []jen.Code{
		jen.If(jen.Err().Op(":=").Id("d").Dot("Enter").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Defer().Id("d").Dot("Leave").Call(),
		jen.If(jen.Err().Op(":=").Id("d").Dot("ObjectStart").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
	}
	head = append(forceLazy(mn, "m"), head...)
	keyRead := func(key string) []jen.Code {
		return []jen.Code{
			jen.List(jen.Id(key), jen.Id("ok"), jen.Err()).Op(":=").Id("d").Dot("KeyRaw").Call(),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
			jen.If(jen.Op("!").Id("ok")).Block(jen.Return(jen.Nil())),
		}
	}
	unknown := jen.If(jen.Err().Op(":=").Id("d").Dot("Unknown").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
	emptyKey := "_"
	if g.extendable(mn.desc) {
		// A member that names no field may name an extension.
		unknown = jen.If(jen.Err().Op(":=").Id("d").Dot("Extension").Call(jen.Id("key"), jen.Lit(string(mn.desc.FullName())), jen.Op("&").Id("m").Dot("unknownFields")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
		emptyKey = "key"
	}
	if len(mn.fields) == 0 {
		body := append(head, jen.For().Block(append(keyRead(emptyKey), unknown)...))
		g.printDecodeJSON(jf, mn, body)
		return
	}

	// The names a field is known by on input: its JSON name, then its
	// text name, the first field to claim a name keeping it (protojson
	// looks up JSON names before text names).
	owner := map[string]*fieldNames{}
	names := map[*fieldNames][]string{}
	claim := func(fn *fieldNames, s string) {
		if _, taken := owner[s]; !taken {
			owner[s] = fn
			names[fn] = append(names[fn], s)
		}
	}
	for _, fn := range mn.fields {
		claim(fn, fn.desc.JSONName())
	}
	for _, fn := range mn.fields {
		claim(fn, fn.desc.TextName())
	}
	nOneofs := 0
	for _, o := range mn.oneofs {
		if !o.desc.IsSynthetic() {
			nOneofs++
		}
	}
	words := (len(mn.fields)+nOneofs)/64 + 1
	head = append(head, jen.Var().Id("seen").Index(jen.Lit(words)).Uint64())

	var cases []jen.Code
	for i, fn := range mn.fields {
		if len(names[fn]) == 0 {
			continue
		}
		fd := fn.desc
		var lits []jen.Code
		for _, s := range names[fn] {
			lits = append(lits, jen.Lit(s))
		}
		c := []jen.Code{jen.If(jen.Err().Op(":=").Id("d").Dot("Mark").Call(jen.Id("seen").Index(jen.Empty(), jen.Empty()), jen.Lit(i)), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))}
		if !takesNull(fd) {
			c = append(c, jen.If(jen.Id("d").Dot("ReadNull").Call()).Block(jen.Continue()))
		}
		f := mf(fn)
		switch fn.storage() {
		case stImplicit, stBytes, stMessage:
			c = append(c, g.decodeValue(fd, func(v jen.Code) jen.Code { return f.Clone().Op("=").Add(v) })...)
		case stBit:
			c = append(c, g.decodeValue(fd, func(v jen.Code) jen.Code {
				return f.Clone().Op("=").Add(v).Line().Add(setBit(jen.Id("m"), fn))
			})...)
		case stPointer:
			c = append(c, g.decodeValue(fd, func(v jen.Code) jen.Code {
				if m := slabMethod(fd.Kind()); m != "" {
					// From the decoder's slabs, as the binary Unmarshal does.
					return f.Clone().Op("=").Id("d").Dot("Alloc").Call().Dot(m).Call(v)
				}
				return f.Clone().Op("=").Op("&").Add(v)
			})...)
		case stOneof:
			bit := len(mn.fields) + oneofOrdinal(mn, fn.oneof)
			c = append(c, jen.If(jen.Err().Op(":=").Id("d").Dot("MarkOneof").Call(jen.Id("seen").Index(jen.Empty(), jen.Empty()), jen.Lit(bit), jen.Lit(string(fn.oneof.desc.FullName()))), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
			c = append(c, g.decodeValue(fd, func(v jen.Code) jen.Code {
				return jen.Id("m").Dot(fn.oneof.goName).Op("=").Op("&").Id(fn.wrapper).Values(jen.Dict{jen.Id(fn.goName): v})
			})...)
		case stRepeated:
			loop := append([]jen.Code{
				jen.List(jen.Id("more"), jen.Err()).Op(":=").Id("d").Dot("ArrayNext").Call(),
				jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
				jen.If(jen.Op("!").Id("more")).Block(jen.Break()),
			}, g.decodeValue(fd, func(v jen.Code) jen.Code { return f.Clone().Op("=").Append(f.Clone(), v) })...)
			c = append(c,
				jen.If(jen.Err().Op(":=").Id("d").Dot("ArrayStart").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
				jen.For().Block(loop...))
		case stMap:
			c = append(c, g.decodeMap(fn)...)
		}
		cases = append(cases, jen.Case(lits...).Block(c...))
	}
	cases = append(cases, jen.Default().Block(unknown))
	body := append(head, jen.For().Block(append(keyRead("key"), jen.Switch(jen.String().Call(jen.Id("key"))).Block(cases...))...))
	g.printDecodeJSON(jf, mn, body)
}

func (g *generator) printDecodeJSON(jf *jen.File, mn *messageNames, body []jen.Code) {
	jf.Comment("// DecodeProtoJSON reads a ProtoJSON object from d into m (see protojson.Generated).")
	jf.Func().Params(recv(mn)).Id("DecodeProtoJSON").Params(jen.Id("d").Op("*").Add(pj("Decoder"))).Error().Block(body...)
	jf.Line()
}

// oneofOrdinal is o's position among mn's real oneofs.
func oneofOrdinal(mn *messageNames, o *oneofNames) int {
	n := 0
	for _, x := range mn.oneofs {
		if x == o {
			return n
		}
		if !x.desc.IsSynthetic() {
			n++
		}
	}
	panic("oneof not in message")
}

// decodeMap reads a map field: an object whose member names are the keys
// (parsed for bool and integer keys), each given at most once.
func (g *generator) decodeMap(fn *fieldNames) []jen.Code {
	fd := fn.desc
	kd, vd := fd.MapKey(), fd.MapValue()
	f := mf(fn)
	var key []jen.Code
	parse := func(m string) []jen.Code {
		return []jen.Code{
			jen.List(jen.Id("k"), jen.Err()).Op(":=").Id("d").Dot(m).Call(jen.Id("key")),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		}
	}
	switch kd.Kind() {
	case protoreflect.StringKind:
		key = []jen.Code{jen.Id("k").Op(":=").Id("key")}
	case protoreflect.BoolKind:
		key = parse("KeyBool")
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		key = parse("KeyInt32")
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		key = parse("KeyInt64")
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		key = parse("KeyUint32")
	default:
		key = parse("KeyUint64")
	}
	loop := []jen.Code{
		jen.List(jen.Id("key"), jen.Id("ok"), jen.Err()).Op(":=").Id("d").Dot("Key").Call(),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.If(jen.Op("!").Id("ok")).Block(jen.Break()),
	}
	loop = append(loop, key...)
	loop = append(loop, jen.If(jen.List(jen.Id("_"), jen.Id("ok")).Op(":=").Add(f).Index(jen.Id("k")), jen.Id("ok")).Block(jen.Return(jen.Id("d").Dot("DuplicateKey").Call())))
	loop = append(loop, g.decodeValue(vd, func(v jen.Code) jen.Code { return f.Clone().Index(jen.Id("k")).Op("=").Add(v) })...)
	// MapStart counts the entries' level of nesting (as binary and text
	// do) when the object has members; MapEnd after the loop undoes it.
	return []jen.Code{
		jen.List(jen.Id("more"), jen.Err()).Op(":=").Id("d").Dot("MapStart").Call(),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.If(f.Clone().Op("==").Nil()).Block(f.Clone().Op("=").Make(g.fieldType(fd))),
		jen.If(jen.Id("more")).Block(
			jen.For().Block(loop...),
			jen.Id("d").Dot("MapEnd").Call(),
		),
	}
}

// ProtoJSONResolverName is the name of the function a generated file
// declares to make its messages by full name for google.protobuf.Any in
// ProtoJSON: "NewMessage_" and the file's path, mangled so that two paths
// never share a name (the files of one Go package may be generated in
// separate runs, where no run sees both names; see checkCollisions).
//
// A path whose segments (joined by "/", the last ending in ".proto") are
// words of ASCII letters and digits joined by single "_" has each "_" made
// "__", then each "/" and the "." made "_":
// "google/protobuf/any.proto" gives "NewMessage_google_protobuf_any_proto",
// "a/b_c.proto" "NewMessage_a_b__c_proto" and "a_b/c.proto"
// "NewMessage_a__b_c_proto". Any other path has every rune other than an
// ASCII letter or digit made "_", then "___" and, for each of those runes
// in order, a code of letters and digits: "s" for "/", "d" for ".", "u" for
// "_", "h" for "-", else "x" and its code point in six hex digits
// ("a.b.proto" gives "NewMessage_a_b_proto___dd"). The first form never
// holds "___" and the second always does, and the code after the last
// "___" says what each "_" before it stands for, so the mapping is
// one-to-one. A package-level name the result would collide with gives it
// "_" suffixes.
func ProtoJSONResolverName(path string) string {
	return "NewMessage_" + manglePath(path)
}

// A resolverPlan is everything a file's resolver function is printed from
// besides the file's names (path, Go package, resolver name) and the
// options: the messages it answers for, with their Go names, and the
// files whose resolvers it asks next. Its key text (key) is therefore
// what the resolver piece's cache key digests.
type resolverPlan struct {
	cases []resolverCase
	deps  []*fileNames
}

type resolverCase struct {
	fullName protoreflect.FullName
	goName   string
}

// resolverPlan gathers what f's resolver prints: every message of f but
// map entries, depth first, and the files of the types f's fields use,
// in the order they are first met.
func (g *generator) resolverPlan(f *fileNames) *resolverPlan {
	p := &resolverPlan{}
	var msg func(md protoreflect.MessageDescriptor)
	msg = func(md protoreflect.MessageDescriptor) {
		if md.IsMapEntry() {
			return
		}
		p.cases = append(p.cases, resolverCase{md.FullName(), g.msgs[md.FullName()].goName})
		for i := 0; i < md.Messages().Len(); i++ {
			msg(md.Messages().Get(i))
		}
	}
	for i := 0; i < f.desc.Messages().Len(); i++ {
		msg(f.desc.Messages().Get(i))
	}
	seen := map[string]bool{f.desc.Path(): true}
	forEachFieldType(f.desc, func(_ protoreflect.FieldDescriptor, d protoreflect.Descriptor) {
		path := d.ParentFile().Path()
		if !seen[path] {
			seen[path] = true
			p.deps = append(p.deps, g.byPath[path])
		}
	})
	return p
}

// key is the text of everything in p, for the piece's cache key.
func (p *resolverPlan) key() string {
	b := []byte("resolver")
	for _, c := range p.cases {
		b = appendStrings(b, string(c.fullName), c.goName)
	}
	b = append(b, 0xff)
	for _, d := range p.deps {
		b = appendStrings(b, d.importPath, d.resolverName)
	}
	return string(b)
}

// gen prints f's resolver function from p: a new message for each
// message type the file declares (nested ones included), else the answer
// of the resolver functions of the files whose types the file's fields
// use (so an Any in a program resolves every type reachable that way).
func (p *resolverPlan) gen(jf *jen.File, f *fileNames) {
	var cases []jen.Code
	for _, c := range p.cases {
		cases = append(cases, jen.Case(jen.Lit(string(c.fullName))).Block(jen.Return(jen.New(jen.Id(c.goName)))))
	}
	var body []jen.Code
	if len(cases) > 0 {
		body = append(body, jen.Switch(jen.Id("name")).Block(cases...))
	}
	for _, dep := range p.deps {
		body = append(body, jen.If(jen.Id("m").Op(":=").Qual(dep.importPath, dep.resolverName).Call(jen.Id("name")), jen.Id("m").Op("!=").Nil()).Block(jen.Return(jen.Id("m"))))
	}
	body = append(body, jen.Return(jen.Nil()))
	jf.Comment("// " + f.resolverName + " returns a new, empty message of the type with the given")
	jf.Comment("// full name (\"pkg.Message\"), if " + safeText(f.desc.Path()) + " declares it or the files whose types its")
	jf.Comment("// fields use do; otherwise nil. protojson.ResolverFunc(" + f.resolverName + ") is a")
	jf.Comment("// resolver for google.protobuf.Any in ProtoJSON (MarshalOptions.Resolver).")
	jf.Func().Id(f.resolverName).Params(jen.Id("name").String()).Add(pj("Message")).Block(body...)
}
