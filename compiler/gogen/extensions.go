package gogen

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

// Extensions. Each extension a file declares becomes one statically
// initialised package-level variable, named as protoc-gen-go names it:
// "E_" and the extension's CamelCase name, with the Go name of its message
// and "_" in front for one declared inside a message (E_Foo, E_Msg_Foo).
// Its type is runtime/wire's Ext[*Extendee, V] (ExtList[*Extendee, E] for
// a repeated one), whose Get, Has, Set and Clear read and write the
// extension in the extended message's unknown fields. A message with
// extension ranges has a ProtoUnknownFields method for them and calls
// the ProtoJSON and text runtimes' Extensions hooks; each file with
// extensions declares Extensions_<file>, the list of them for
// MarshalOptions.Extensions and UnmarshalOptions.Extensions. Under
// unknown_fields=drop a message keeps no unknown fields, so no extension
// has a place to live: none is generated.

// ExtensionsListName is the name of the variable a generated file
// declares to list its extensions for the ProtoJSON and text codecs:
// "Extensions_" and the file's path mangled as in ProtoJSONResolverName
// ("a/b_c.proto" gives "Extensions_a_b__c_proto").
func ExtensionsListName(path string) string {
	return "Extensions_" + manglePath(path)
}

// extendable reports whether generated code of md has ProtoUnknownFields
// and the extension hooks of the JSON and text codecs.
func (g *generator) extendable(md protoreflect.MessageDescriptor) bool {
	return md.ExtensionRanges().Len() > 0 && !g.opts.DropUnknown
}

// extensionGoName is the Go name of the variable of extension xd.
func (g *generator) extensionGoName(xd protoreflect.FieldDescriptor) string {
	name := GoCamelCase(string(xd.Name()))
	if md, ok := xd.Parent().(protoreflect.MessageDescriptor); ok {
		name = g.msgs[md.FullName()].goName + "_" + name
	}
	return "E_" + name
}

// fileExtensions returns the extensions f declares, at file level and
// inside its messages, in declaration order (file level first, then
// messages depth first); none under unknown_fields=drop.
func (g *generator) fileExtensions(fd protoreflect.FileDescriptor) []protoreflect.FieldDescriptor {
	if g.opts.DropUnknown {
		return nil
	}
	var out []protoreflect.FieldDescriptor
	for i := 0; i < fd.Extensions().Len(); i++ {
		out = append(out, fd.Extensions().Get(i))
	}
	var msg func(md protoreflect.MessageDescriptor)
	msg = func(md protoreflect.MessageDescriptor) {
		for i := 0; i < md.Extensions().Len(); i++ {
			out = append(out, md.Extensions().Get(i))
		}
		for i := 0; i < md.Messages().Len(); i++ {
			msg(md.Messages().Get(i))
		}
	}
	for i := 0; i < fd.Messages().Len(); i++ {
		msg(fd.Messages().Get(i))
	}
	return out
}

// wireKinds names runtime/wire's Kind constants by protoreflect.Kind
// (both numbered as FieldDescriptorProto.Type).
var wireKinds = map[protoreflect.Kind]string{
	protoreflect.DoubleKind: "DoubleKind", protoreflect.FloatKind: "FloatKind",
	protoreflect.Int64Kind: "Int64Kind", protoreflect.Uint64Kind: "Uint64Kind",
	protoreflect.Int32Kind: "Int32Kind", protoreflect.Fixed64Kind: "Fixed64Kind",
	protoreflect.Fixed32Kind: "Fixed32Kind", protoreflect.BoolKind: "BoolKind",
	protoreflect.StringKind: "StringKind", protoreflect.GroupKind: "GroupKind",
	protoreflect.MessageKind: "MessageKind", protoreflect.BytesKind: "BytesKind",
	protoreflect.Uint32Kind: "Uint32Kind", protoreflect.EnumKind: "EnumKind",
	protoreflect.Sfixed32Kind: "Sfixed32Kind", protoreflect.Sfixed64Kind: "Sfixed64Kind",
	protoreflect.Sint32Kind: "Sint32Kind", protoreflect.Sint64Kind: "Sint64Kind",
}

// extensionsKey is the text of everything f's extensions piece prints
// besides f's names and the options, for its cache key: each extension's
// descriptor, the Go names and packages of its extendee and value type,
// and its comments.
func (g *generator) extensionsKey(f *fileNames, xs []protoreflect.FieldDescriptor) string {
	var b strings.Builder
	b.WriteString("extensions\x00")
	b.WriteString(ExtensionsListName(f.desc.Path()))
	for _, xd := range xs {
		ext := g.msgs[xd.ContainingMessage().FullName()]
		fmt.Fprintf(&b, "\x00%s|%s|%d|%d|%v|%v|%s|%s|%s", xd.FullName(), g.extensionGoName(xd), xd.Number(), xd.Kind(), xd.IsList(), xd.IsPacked(),
			ext.file.importPath, ext.goName, xd.ContainingMessage().FullName())
		switch xd.Kind() {
		case protoreflect.EnumKind:
			en := g.enums[xd.Enum().FullName()]
			fmt.Fprintf(&b, "|%s|%s|%v|%s", en.file.importPath, en.goName, xd.Enum().IsClosed(), en.values[0])
			if xd.HasDefault() {
				ev := xd.DefaultEnumValue()
				fmt.Fprintf(&b, "|%s", g.enums[ev.Parent().FullName()].values[ev.Index()])
			}
		case protoreflect.MessageKind, protoreflect.GroupKind:
			mn := g.msgs[xd.Message().FullName()]
			fmt.Fprintf(&b, "|%s|%s", mn.file.importPath, mn.goName)
		default:
			if xd.HasDefault() {
				fmt.Fprintf(&b, "|%#v", xd.Default().Interface())
			}
		}
		fmt.Fprintf(&b, "|%v", isMessageSet(xd.ContainingMessage()))
		loc := xd.ParentFile().SourceLocations().ByDescriptor(xd)
		fmt.Fprintf(&b, "|%q|%q|%v", loc.LeadingComments, loc.TrailingComments, isDeprecated(xd))
	}
	return b.String()
}

// genExtensions prints f's extension variables and its list of them.
func (g *generator) genExtensions(jf *jen.File, f *fileNames, xs []protoreflect.FieldDescriptor) {
	var list []jen.Code
	for _, xd := range xs {
		name := g.extensionGoName(xd)
		extendee := jen.Op("*").Add(g.msgType(xd.ContainingMessage()))
		fields := jen.Dict{
			jen.Id("FullName"): jen.Lit(string(xd.FullName())),
			jen.Id("Extendee"): jen.Lit(string(xd.ContainingMessage().FullName())),
			jen.Id("Number"):   jen.Lit(int(xd.Number())),
			jen.Id("Kind"):     rt(wireKinds[xd.Kind()]),
		}
		if xd.IsList() {
			fields[jen.Id("Repeated")] = jen.True()
			if xd.IsPacked() {
				fields[jen.Id("Packed")] = jen.True()
			}
		}
		switch xd.Kind() {
		case protoreflect.EnumKind:
			if xd.Enum().IsClosed() {
				fields[jen.Id("ClosedEnum")] = jen.True()
			}
			fields[jen.Id("Enum")] = jen.Func().Params(jen.Id("p").Op("*").Int32()).Any().Block(
				jen.Return(jen.Parens(jen.Op("*").Add(g.enumType(xd.Enum()))).Call(jen.Id("p"))))
		case protoreflect.MessageKind, protoreflect.GroupKind:
			fields[jen.Id("New")] = jen.Func().Params().Any().Block(jen.Return(jen.New(g.msgType(xd.Message()))))
			if isMessageSet(xd.ContainingMessage()) {
				fields[jen.Id("MessageSet")] = jen.True()
			}
		}
		val := jen.Dict{jen.Id("Extension"): rt("Extension").Values(fields)}
		var typ *jen.Statement
		if xd.IsList() {
			typ = rt("ExtList").Types(extendee, g.elemType(xd))
		} else {
			typ = rt("Ext").Types(extendee, g.elemType(xd))
			if def := g.extensionDefault(xd); def != nil {
				val[jen.Id("Default")] = def
			}
		}
		lines := docComments(xd, true, isDeprecated(xd))
		if len(lines) > 0 {
			lines = append(lines, jen.Comment("//"))
		}
		lines = append(lines, jen.Comment(fmt.Sprintf("// %s is the extension %s of %s: %s.", name, xd.FullName(), xd.ContainingMessage().FullName(), extensionDecl(xd))))
		addDoc(jf, lines)
		jf.Var().Id(name).Op("=").Add(typ).Values(val)
		jf.Line()
		list = append(list, jen.Op("&").Id(name).Dot("Extension"))
	}
	listName := ExtensionsListName(f.desc.Path())
	jf.Comment("// " + listName + " lists the extensions " + safeText(f.desc.Path()) + " declares, for")
	jf.Comment("// the Extensions option of runtime/protojson and runtime/prototext.")
	jf.Var().Id(listName).Op("=").Index().Op("*").Add(rt("Extension")).Add(multiline(list...))
}

// extensionDecl is xd as a .proto declaration, "repeated int32 codes = 101".
func extensionDecl(xd protoreflect.FieldDescriptor) string {
	typ := xd.Kind().String()
	switch xd.Kind() {
	case protoreflect.EnumKind:
		typ = string(xd.Enum().FullName())
	case protoreflect.MessageKind, protoreflect.GroupKind:
		typ = string(xd.Message().FullName())
	}
	return fmt.Sprintf("%s %s %s = %d", xd.Cardinality(), typ, xd.Name(), xd.Number())
}

// extensionDefault is what Get of singular extension xd returns when the
// message holds no value, or nil for V's zero value: its explicit default,
// or an enum's first value.
func (g *generator) extensionDefault(xd protoreflect.FieldDescriptor) jen.Code {
	if xd.Kind() == protoreflect.EnumKind {
		ev := xd.DefaultEnumValue()
		if !xd.HasDefault() {
			ev = xd.Enum().Values().Get(0)
		}
		en := g.enums[ev.Parent().FullName()]
		return jen.Qual(en.file.importPath, en.values[ev.Index()])
	}
	if !xd.HasDefault() {
		return nil
	}
	def := xd.Default()
	switch xd.Kind() {
	case protoreflect.BytesKind:
		return jen.Index().Byte().Call(jen.Lit(string(def.Bytes())))
	case protoreflect.StringKind:
		return jen.Lit(def.String())
	case protoreflect.BoolKind:
		return jen.Lit(def.Bool())
	case protoreflect.FloatKind, protoreflect.DoubleKind:
		f := def.Float()
		typ, bits := jen.Float64(), 64
		if xd.Kind() == protoreflect.FloatKind {
			typ, bits = jen.Float32(), 32
		}
		switch {
		case math.IsInf(f, 1):
			return typ.Call(jen.Qual("math", "Inf").Call(jen.Lit(1)))
		case math.IsInf(f, -1):
			return typ.Call(jen.Qual("math", "Inf").Call(jen.Lit(-1)))
		case math.IsNaN(f):
			return typ.Call(jen.Qual("math", "NaN").Call())
		case f == 0 && math.Signbit(f):
			return typ.Call(jen.Qual("math", "Copysign").Call(jen.Lit(0), jen.Lit(-1)))
		}
		return jen.Id(strconv.FormatFloat(f, 'g', -1, bits))
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return jen.Id(strconv.FormatUint(def.Uint(), 10))
	}
	return jen.Id(strconv.FormatInt(def.Int(), 10))
}

// genExtendable prints ProtoUnknownFields for a message with extension
// ranges: what runtime/wire's Ext needs to reach its extensions.
func (g *generator) genExtendable(jf *jen.File, mn *messageNames) {
	if !g.extendable(mn.desc) {
		return
	}
	jf.Comment("// ProtoUnknownFields returns the address of m's unknown fields, where its")
	jf.Comment("// extensions live (nil for a nil m), for wire.Ext and wire.ExtList.")
	jf.Func().Params(recv(mn)).Id("ProtoUnknownFields").Params().Op("**").Index().Byte().Block(
		jen.If(jen.Id("m").Op("==").Nil()).Block(jen.Return(jen.Nil())),
		jen.Return(jen.Op("&").Id("m").Dot("unknownFields")),
	)
	jf.Line()
}

// isMessageSet reports whether md has the legacy message_set_wire_format
// option: its extensions are written as MessageSet items.
func isMessageSet(md protoreflect.MessageDescriptor) bool {
	mo, ok := md.Options().(*descriptorpb.MessageOptions)
	return ok && mo.GetMessageSetWireFormat()
}
