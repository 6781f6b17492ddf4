package gogen

import (
	"math"
	"sort"
	"strconv"

	"github.com/bufbuild/protocompile/protoutil"
	"github.com/dave/jennifer/jen"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

// storage is how a field is held in the Go struct.
type storage int

const (
	stImplicit storage = iota // T; the zero value means unset (proto3 implicit presence)
	stPointer                 // *T; nil means unset (explicit presence scalars)
	stBytes                   // []byte; nil means unset (explicit presence bytes, as protoc-gen-go)
	stMessage                 // *M; nil means unset (messages and groups)
	stRepeated                // []T
	stMap                     // map[K]V
	stOneof                   // a member of a real oneof, held in a wrapper type
	stBit                     // T and a bit of the presence bitmap (explicit presence scalars and bytes, opaque API)
)

// storage is how fn is held: storageOf its descriptor, or stBit for a
// field of an opaque view with a presence bit.
func (fn *fieldNames) storage() storage {
	if fn.bit > 0 {
		return stBit
	}
	return storageOf(fn.desc)
}

func storageOf(fd protoreflect.FieldDescriptor) storage {
	switch {
	case fd.IsMap():
		return stMap
	case fd.IsList():
		return stRepeated
	case fd.ContainingOneof() != nil && !fd.ContainingOneof().IsSynthetic():
		return stOneof
	case fd.Message() != nil:
		return stMessage
	case fd.Kind() == protoreflect.BytesKind && fd.HasPresence():
		return stBytes
	case fd.HasPresence():
		return stPointer
	}
	return stImplicit
}

var utf8ValidationField = (&descriptorpb.FeatureSet{}).ProtoReflect().Descriptor().Fields().ByName("utf8_validation")

// validatesUTF8 reports whether a string field must hold valid UTF-8 on
// the wire: proto3 strings and editions utf8_validation = VERIFY.
func validatesUTF8(fd protoreflect.FieldDescriptor) bool {
	if fd.Kind() != protoreflect.StringKind {
		return false
	}
	v, err := protoutil.ResolveFeature(fd, utf8ValidationField)
	if err != nil || !v.IsValid() {
		return fd.ParentFile().Syntax() == protoreflect.Proto3
	}
	return descriptorpb.FeatureSet_Utf8Validation(v.Enum()) == descriptorpb.FeatureSet_VERIFY
}

// scalarGoType names the Go type that holds a value of scalar kind k, or ""
// for bytes, enums, messages and groups.
func scalarGoType(k protoreflect.Kind) string {
	switch k {
	case protoreflect.BoolKind:
		return "bool"
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return "int32"
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return "uint32"
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return "int64"
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return "uint64"
	case protoreflect.FloatKind:
		return "float32"
	case protoreflect.DoubleKind:
		return "float64"
	case protoreflect.StringKind:
		return "string"
	}
	return ""
}

// elemType is the Go type of one value of fd (the element for repeated
// fields, the value for maps is handled by the caller).
func (g *generator) elemType(fd protoreflect.FieldDescriptor) *jen.Statement {
	if t := scalarGoType(fd.Kind()); t != "" {
		return jen.Id(t)
	}
	switch fd.Kind() {
	case protoreflect.BytesKind:
		return jen.Index().Byte()
	case protoreflect.EnumKind:
		return g.enumType(fd.Enum())
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return jen.Op("*").Add(g.msgType(fd.Message()))
	}
	panic("unknown kind " + fd.Kind().String())
}

// fieldType is the Go type of the struct field holding fd.
func (g *generator) fieldType(fd protoreflect.FieldDescriptor) *jen.Statement {
	switch storageOf(fd) {
	case stMap:
		return jen.Map(g.elemType(fd.MapKey())).Add(g.elemType(fd.MapValue()))
	case stRepeated:
		return jen.Index().Add(g.elemType(fd))
	case stPointer:
		return jen.Op("*").Add(g.elemType(fd))
	}
	return g.elemType(fd)
}

// zeroValue is the value an unset field of fd reads as when it has no
// explicit default: the Go zero value, or for enums the first declared value.
func (g *generator) zeroValue(fd protoreflect.FieldDescriptor) *jen.Statement {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return jen.False()
	case protoreflect.StringKind:
		return jen.Lit("")
	case protoreflect.BytesKind, protoreflect.MessageKind, protoreflect.GroupKind:
		return jen.Nil()
	case protoreflect.EnumKind:
		return g.firstEnumValue(fd.Enum())
	}
	return jen.Lit(0)
}

// firstEnumValue names the constant of ed's first declared value: what an
// unset enum field without an explicit default reads as
// (FieldDescriptor.Default in protobuf-go, protoc-gen-go's getters). For
// open enums that value is 0; a closed enum (proto2, editions enum_type =
// CLOSED) may start with any number and need not declare 0 at all.
func (g *generator) firstEnumValue(ed protoreflect.EnumDescriptor) *jen.Statement {
	en := g.enums[ed.FullName()]
	return jen.Qual(en.file.importPath, en.values[0])
}

func (g *generator) genEnum(jf *jen.File, ed protoreflect.EnumDescriptor) {
	en := g.enums[ed.FullName()]
	name := en.goName
	addDoc(jf, docComments(ed, false, isDeprecated(ed)))
	jf.Type().Id(name).Int32()
	jf.Line()

	var consts []jen.Code
	seen := map[string]bool{}
	vals := ed.Values()
	for i := 0; i < vals.Len(); i++ {
		v := vals.Get(i)
		cname := en.values[i]
		if seen[cname] {
			continue
		}
		seen[cname] = true
		consts = append(consts, docComments(v, true, isDeprecated(v))...)
		consts = append(consts, jen.Id(cname).Id(name).Op("=").Lit(int(v.Number())))
	}
	jf.Const().Defs(consts...)
	jf.Line()
	if en.aliases != nil {
		// protoc-gen-go's GENERATE_BOTH: the long names, declared after
		// the short ones.
		var aliases []jen.Code
		for i, a := range en.aliases {
			if a == "" || seen[a] {
				continue
			}
			seen[a] = true
			aliases = append(aliases, jen.Id(a).Id(name).Op("=").Id(en.values[i]))
		}
		jf.Comment("// Old (prefixed) names for " + name + " enum values.")
		jf.Const().Defs(aliases...)
		jf.Line()
	}

	if g.opts.EnumMaps {
		g.genEnumMaps(jf, ed, name)
	}

	// String: the value's name, or its number for values the schema does
	// not declare (open enums keep them).
	var cases []jen.Code
	done := map[protoreflect.EnumNumber]bool{}
	for i := 0; i < vals.Len(); i++ {
		v := vals.Get(i)
		if done[v.Number()] {
			continue
		}
		done[v.Number()] = true
		cases = append(cases, jen.Case(jen.Lit(int(v.Number()))).Block(jen.Return(jen.Lit(string(v.Name())))))
	}
	jf.Comment("// String returns the name of x, or its number when x is not a declared value.")
	jf.Func().Params(jen.Id("x").Id(name)).Id("String").Params().String().Block(
		jen.Switch(jen.Id("x")).Block(cases...),
		jen.Return(jen.Qual("strconv", "Itoa").Call(jen.Int().Call(jen.Id("x")))),
	)
	jf.Line()
	if g.has(FeatureJSON) {
		g.genEnumJSON(jf, ed)
	}
	if g.has(FeatureText) {
		g.genEnumText(jf, ed)
	}
	jf.Comment("// Enum returns a pointer to a copy of x, for explicit-presence fields.")
	jf.Func().Params(jen.Id("x").Id(name)).Id("Enum").Params().Op("*").Id(name).Block(
		jen.Return(jen.Op("&").Id("x")),
	)
	jf.Line()
}

// genEnumMaps prints the name and value maps protoc-gen-go declares for an
// enum under enum_maps=true (see Options.EnumMaps for their cost).
func (g *generator) genEnumMaps(jf *jen.File, ed protoreflect.EnumDescriptor, name string) {
	vals := ed.Values()
	var names, values []jen.Code
	firstByNum := map[protoreflect.EnumNumber]bool{}
	for i := 0; i < vals.Len(); i++ {
		v := vals.Get(i)
		if !firstByNum[v.Number()] {
			firstByNum[v.Number()] = true
			names = append(names, jen.Lit(int(v.Number())).Op(":").Lit(string(v.Name())))
		}
		values = append(values, jen.Lit(string(v.Name())).Op(":").Lit(int(v.Number())))
	}
	en := g.enums[ed.FullName()]
	jf.Comment("// " + en.nameMap + " maps enum numbers to names (the first name, for aliases).")
	jf.Var().Id(en.nameMap).Op("=").Map(jen.Int32()).String().Add(multiline(names...))
	jf.Comment("// " + en.valueMap + " maps enum names to numbers.")
	jf.Var().Id(en.valueMap).Op("=").Map(jen.String()).Int32().Add(multiline(values...))
	jf.Line()
}

// addDoc adds comment lines above the next top-level declaration, one
// statement per line.
func addDoc(jf *jen.File, lines []jen.Code) {
	for _, l := range lines {
		jf.Add(l)
	}
}

// multiline renders items as a composite literal body, one per line.
func multiline(items ...jen.Code) *jen.Statement {
	return jen.Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, items...)
}

func (g *generator) genMessage(jf *jen.File, md protoreflect.MessageDescriptor) {
	if md.IsMapEntry() {
		return
	}
	if g.isOpaque(md) {
		g.genOpaqueMessage(jf, md)
		return
	}
	mn := g.msgs[md.FullName()]
	for i := 0; i < md.Enums().Len(); i++ {
		g.genEnum(jf, md.Enums().Get(i))
	}

	// The struct.
	var fields []jen.Code
	for _, fn := range mn.fields {
		fd := fn.desc
		if fn.oneof != nil {
			if fn.oneof.fields[0] == fn {
				o := fn.oneof
				fields = append(fields, docComments(o.desc, false, false)...)
				var members []string
				for _, m := range o.fields {
					members = append(members, "*"+m.wrapper)
				}
				fields = append(fields, jen.Comment("// Types that are assignable to "+o.goName+": "+joinComma(members)))
				fields = append(fields, jen.Id(o.goName).Id(o.iface))
			}
			continue
		}
		fields = append(fields, docComments(fd, true, isDeprecated(fd))...)
		// No json tag: encoding/json calls the generated MarshalJSON and
		// UnmarshalJSON, which speak ProtoJSON; a tag would name a mapping
		// that is not used and not ProtoJSON.
		fields = append(fields, jen.Id(fn.goName).Add(g.fieldType(fd)))
	}
	if !g.opts.DropUnknown {
		fields = append(fields, jen.Comment("// unknownFields holds the fields this schema does not declare, as read (nil: none)."))
		fields = append(fields, jen.Id("unknownFields").Op("*").Index().Byte())
	}
	addDoc(jf, docComments(md, false, isDeprecated(md)))
	jf.Type().Id(mn.goName).Struct(fields...)
	jf.Line()

	g.genDefaults(jf, mn)
	g.genGetters(jf, mn)
	g.genOneofTypes(jf, mn)
	if g.isHybridOpen(md) {
		g.genHybridAccessors(jf, mn)
	}
	g.genMethods(jf, mn)
	g.genJSON(jf, mn)
	g.genText(jf, mn)
	// Nested messages follow, each generated on its own by renderFile.
}

func joinComma(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}

func (g *generator) genDefaults(jf *jen.File, mn *messageNames) {
	var consts, vars []jen.Code
	for _, fn := range mn.fields {
		fd := fn.desc
		if !fd.HasDefault() || fd.IsList() || fd.IsMap() {
			continue
		}
		name := fn.defaultName
		def := fd.Default()
		switch fd.Kind() {
		case protoreflect.EnumKind:
			ev := fd.DefaultEnumValue()
			consts = append(consts, jen.Id(name).Op("=").Qual(g.enums[ev.Parent().FullName()].file.importPath, g.enums[ev.Parent().FullName()].values[ev.Index()]))
		case protoreflect.BytesKind:
			vars = append(vars, jen.Id(name).Op("=").Index().Byte().Call(jen.Lit(string(def.Bytes()))))
		case protoreflect.FloatKind, protoreflect.DoubleKind:
			f := def.Float()
			typ := jen.Float64()
			if fd.Kind() == protoreflect.FloatKind {
				typ = jen.Float32()
			}
			switch {
			case math.IsInf(f, 1):
				vars = append(vars, jen.Id(name).Op("=").Add(typ).Call(jen.Qual("math", "Inf").Call(jen.Lit(1))))
			case math.IsInf(f, -1):
				vars = append(vars, jen.Id(name).Op("=").Add(typ).Call(jen.Qual("math", "Inf").Call(jen.Lit(-1))))
			case math.IsNaN(f):
				vars = append(vars, jen.Id(name).Op("=").Add(typ).Call(jen.Qual("math", "NaN").Call()))
			case f == 0 && math.Signbit(f):
				// A Go constant has no negative zero: float64(-0) is +0.
				vars = append(vars, jen.Id(name).Op("=").Add(typ).Call(jen.Qual("math", "Copysign").Call(jen.Lit(0), jen.Lit(-1))))
			default:
				bits := 64
				if fd.Kind() == protoreflect.FloatKind {
					bits = 32
				}
				consts = append(consts, jen.Id(name).Op("=").Add(typ).Call(jen.Id(strconv.FormatFloat(f, 'g', -1, bits))))
			}
		case protoreflect.StringKind:
			consts = append(consts, jen.Id(name).Op("=").String().Call(jen.Lit(def.String())))
		case protoreflect.BoolKind:
			consts = append(consts, jen.Id(name).Op("=").Bool().Call(jen.Lit(def.Bool())))
		case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
			consts = append(consts, jen.Id(name).Op("=").Int32().Call(jen.Lit(int(def.Int()))))
		case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
			consts = append(consts, jen.Id(name).Op("=").Int64().Call(jen.Lit(def.Int())))
		case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
			consts = append(consts, jen.Id(name).Op("=").Uint32().Call(jen.Lit(uint32(def.Uint()))))
		case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
			consts = append(consts, jen.Id(name).Op("=").Uint64().Call(jen.Lit(def.Uint())))
		}
	}
	if len(consts) > 0 {
		jf.Comment("// Default values for " + mn.goName + " fields.")
		jf.Const().Defs(consts...)
	}
	if len(vars) > 0 {
		jf.Comment("// Default values for " + mn.goName + " fields that cannot be constants.")
		jf.Var().Defs(vars...)
	}
	if len(consts)+len(vars) > 0 {
		jf.Line()
	}
}

// defaultOrZero is what a getter returns for an unset field.
func (g *generator) defaultOrZero(mn *messageNames, fn *fieldNames) *jen.Statement {
	fd := fn.desc
	if fd.HasDefault() {
		if fd.Kind() == protoreflect.BytesKind {
			return jen.Append(jen.Index().Byte().Call(jen.Nil()), jen.Id(fn.defaultName).Op("..."))
		}
		return jen.Id(fn.defaultName)
	}
	return g.zeroValue(fd)
}

// genGetters prints the getters of a message's oneofs and fields, as
// direct text (see emitText) but for those with a doc comment
// (deprecated fields), which jennifer prints.
func (g *generator) genGetters(jf *jen.File, mn *messageNames) {
	var t []byte
	var paths []string
	flush := func() {
		if len(t) > 0 {
			g.emitText(jf, t, paths...)
			t, paths = nil, nil
		}
	}
	start := func() {
		if len(t) > 0 {
			t = append(t, '\n', '\n')
		}
		t = append(t, "func (m *"...)
		t = append(t, mn.goName...)
		t = append(t, ") Get"...)
	}
	for _, o := range mn.oneofs {
		if o.desc.IsSynthetic() {
			continue
		}
		start()
		t = append(t, o.goName...)
		t = append(t, "() "...)
		t = append(t, o.iface...)
		t = append(t, " {\n\tif m != nil {\n\t\treturn m."...)
		t = append(t, o.goName...)
		t = append(t, "\n\t}\n\treturn nil\n}"...)
	}
	for _, fn := range mn.fields {
		fd := fn.desc
		if isDeprecated(fd) {
			flush()
			g.genGetter(jf, mn, fn)
			continue
		}
		start()
		t = append(t, fn.goName...)
		t = append(t, "() "...)
		st := storageOf(fd)
		if st == stPointer || st == stOneof {
			t = g.elemText(t, fd, &paths)
		} else {
			t = g.fieldText(t, fd, &paths)
		}
		t = append(t, " {\n\t"...)
		switch st {
		case stPointer, stBytes:
			if st == stBytes && !fd.HasDefault() {
				t = append(t, "if m != nil {\n\t\treturn m."...)
				t = append(t, fn.goName...)
				t = append(t, "\n\t}\n\treturn "...)
				t = g.zeroOfText(t, fd, &paths)
				break
			}
			t = append(t, "if m != nil && m."...)
			t = append(t, fn.goName...)
			t = append(t, " != nil {\n\t\treturn "...)
			if st == stPointer {
				t = append(t, '*')
			}
			t = append(t, "m."...)
			t = append(t, fn.goName...)
			t = append(t, "\n\t}\n\treturn "...)
			t = g.defaultOrZeroText(t, fn, &paths)
		case stImplicit, stMessage, stRepeated, stMap:
			t = append(t, "if m != nil {\n\t\treturn m."...)
			t = append(t, fn.goName...)
			t = append(t, "\n\t}\n\treturn "...)
			t = g.zeroOfText(t, fd, &paths)
		case stOneof:
			t = append(t, "if x, ok := m.Get"...)
			t = append(t, fn.oneof.goName...)
			t = append(t, "().(*"...)
			t = append(t, fn.wrapper...)
			t = append(t, "); ok && x != nil {\n\t\treturn x."...)
			t = append(t, fn.goName...)
			t = append(t, "\n\t}\n\treturn "...)
			t = g.defaultOrZeroText(t, fn, &paths)
		}
		t = append(t, "\n}"...)
	}
	flush()
}

// genGetter prints fn's getter with jennifer.
func (g *generator) genGetter(jf *jen.File, mn *messageNames, fn *fieldNames) {
	recv := jen.Id("m").Op("*").Id(mn.goName)
	fd := fn.desc
	var body []jen.Code
	ret := g.fieldType(fd)
	switch storageOf(fd) {
	case stPointer:
		ret = g.elemType(fd)
		body = []jen.Code{
			jen.If(jen.Id("m").Op("!=").Nil().Op("&&").Id("m").Dot(fn.goName).Op("!=").Nil()).Block(
				jen.Return(jen.Op("*").Id("m").Dot(fn.goName))),
			jen.Return(g.defaultOrZero(mn, fn)),
		}
	case stBytes:
		if fd.HasDefault() {
			body = []jen.Code{
				jen.If(jen.Id("m").Op("!=").Nil().Op("&&").Id("m").Dot(fn.goName).Op("!=").Nil()).Block(
					jen.Return(jen.Id("m").Dot(fn.goName))),
				jen.Return(g.defaultOrZero(mn, fn)),
			}
			break
		}
		fallthrough
	case stImplicit, stMessage, stRepeated, stMap:
		body = []jen.Code{
			jen.If(jen.Id("m").Op("!=").Nil()).Block(jen.Return(jen.Id("m").Dot(fn.goName))),
			jen.Return(g.zeroOf(fd)),
		}
	case stOneof:
		ret = g.elemType(fd)
		body = []jen.Code{
			jen.If(jen.List(jen.Id("x"), jen.Id("ok")).Op(":=").Id("m").Dot("Get" + fn.oneof.goName).Call().Assert(jen.Op("*").Id(fn.wrapper)).Op(";").Id("ok").Op("&&").Id("x").Op("!=").Nil()).Block(
				jen.Return(jen.Id("x").Dot(fn.goName))),
			jen.Return(g.defaultOrZero(mn, fn)),
		}
	}
	if isDeprecated(fd) {
		jf.Comment("// Deprecated: Marked as deprecated in " + safeText(fd.ParentFile().Path()) + ".")
	}
	jf.Func().Params(recv).Id("Get" + fn.goName).Params().Add(ret).Block(body...)
	jf.Line()
}

// elemText, fieldText, zeroOfText and defaultOrZeroText append the Go
// text of elemType, fieldType, zeroOf and defaultOrZero, as jennifer
// prints them, to b, and the import paths their names are qualified by
// to paths.
func (g *generator) elemText(b []byte, fd protoreflect.FieldDescriptor, paths *[]string) []byte {
	if t := scalarGoType(fd.Kind()); t != "" {
		return append(b, t...)
	}
	switch fd.Kind() {
	case protoreflect.BytesKind:
		return append(b, "[]byte"...)
	case protoreflect.EnumKind:
		en := g.enums[fd.Enum().FullName()]
		*paths = append(*paths, en.file.importPath)
		return g.qual(b, en.file.importPath, en.goName)
	case protoreflect.MessageKind, protoreflect.GroupKind:
		mn := g.msgs[fd.Message().FullName()]
		*paths = append(*paths, mn.file.importPath)
		return g.qual(append(b, '*'), mn.file.importPath, mn.goName)
	}
	panic("unknown kind " + fd.Kind().String())
}

func (g *generator) fieldText(b []byte, fd protoreflect.FieldDescriptor, paths *[]string) []byte {
	switch storageOf(fd) {
	case stMap:
		b = g.elemText(append(b, "map["...), fd.MapKey(), paths)
		return g.elemText(append(b, ']'), fd.MapValue(), paths)
	case stRepeated:
		return g.elemText(append(b, "[]"...), fd, paths)
	case stPointer:
		return g.elemText(append(b, '*'), fd, paths)
	}
	return g.elemText(b, fd, paths)
}

func (g *generator) zeroOfText(b []byte, fd protoreflect.FieldDescriptor, paths *[]string) []byte {
	switch storageOf(fd) {
	case stMap, stRepeated, stMessage, stPointer, stBytes:
		return append(b, "nil"...)
	}
	return g.zeroValueText(b, fd, paths)
}

func (g *generator) zeroValueText(b []byte, fd protoreflect.FieldDescriptor, paths *[]string) []byte {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return append(b, "false"...)
	case protoreflect.StringKind:
		return append(b, `""`...)
	case protoreflect.BytesKind, protoreflect.MessageKind, protoreflect.GroupKind:
		return append(b, "nil"...)
	case protoreflect.EnumKind:
		en := g.enums[fd.Enum().FullName()]
		*paths = append(*paths, en.file.importPath)
		return g.qual(b, en.file.importPath, en.values[0])
	}
	return append(b, '0')
}

func (g *generator) defaultOrZeroText(b []byte, fn *fieldNames, paths *[]string) []byte {
	fd := fn.desc
	if fd.HasDefault() {
		if fd.Kind() == protoreflect.BytesKind {
			b = append(b, "append([]byte(nil), "...)
			b = append(b, fn.defaultName...)
			return append(b, "...)"...)
		}
		return append(b, fn.defaultName...)
	}
	return g.zeroValueText(b, fd, paths)
}

// zeroOf is the zero value of the struct field holding fd.
func (g *generator) zeroOf(fd protoreflect.FieldDescriptor) *jen.Statement {
	switch storageOf(fd) {
	case stMap, stRepeated, stMessage, stPointer, stBytes:
		return jen.Nil()
	}
	return g.zeroValue(fd)
}

func (g *generator) genOneofTypes(jf *jen.File, mn *messageNames) {
	for _, o := range mn.oneofs {
		if o.desc.IsSynthetic() {
			continue
		}
		jf.Type().Id(o.iface).Interface(jen.Id(o.iface).Params())
		jf.Line()
		for _, fn := range o.fields {
			addDoc(jf, docComments(fn.desc, true, isDeprecated(fn.desc)))
			jf.Type().Id(fn.wrapper).Struct(
				jen.Id(fn.goName).Add(g.elemType(fn.desc)),
			)
			jf.Line()
		}
		for _, fn := range o.fields {
			jf.Func().Params(jen.Op("*").Id(fn.wrapper)).Id(o.iface).Params().Block()
			jf.Line()
		}
	}
}

// sortedFields returns the message's fields in the order Marshal writes
// them, which is protoc-gen-go's (google.golang.org/protobuf's
// order.LegacyFieldOrder): fields outside real oneofs by number, then the
// members of each oneof, oneofs in declaration order, members by number.
// Matching it makes protoplay's bytes identical to protoc-gen-go's.
func sortedFields(mn *messageNames) []*fieldNames {
	out := append([]*fieldNames(nil), mn.fields...)
	sort.SliceStable(out, func(i, j int) bool {
		x, y := out[i], out[j]
		if (x.oneof != nil) != (y.oneof != nil) {
			return x.oneof == nil
		}
		if x.oneof != nil && x.oneof != y.oneof {
			return x.oneof.desc.Index() < y.oneof.desc.Index()
		}
		return x.desc.Number() < y.desc.Number()
	})
	return out
}
