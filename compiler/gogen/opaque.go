package gogen

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// This file prints messages of the opaque API (features.(pb.go).api_level
// = API_OPAQUE): hidden struct fields behind protoc-gen-go's exported
// surface (GetX, SetX, HasX, ClearX; WhichO, HasO, ClearO and the case
// constants of each oneof; M_builder{...}.Build()), so that code written
// against protoc-gen-go's opaque code compiles against protoplay's.
//
// The hidden layout is protoplay's own: every explicit-presence scalar,
// string and bytes field is a plain value with a bit in a bitmap
// (protoc-gen-go keeps a *string), so a decoded message holds no pointer
// for them. An unset field always holds its Go zero value (Clear and
// Reset restore it), which Equal relies on.
//
// The wire, JSON and text methods are those of the open API, printed from
// an opaque view of the message's names (opaqueView): the struct field
// names are the hidden ones and the fields with a bit have storage stBit.

// presenceField is the struct field holding an opaque message's presence
// bits.
const presenceField = "xxx_presence"

// hiddenPrefix starts the name of an opaque message's struct fields, as
// in protoc-gen-go.
const hiddenPrefix = "xxx_hidden_"

// opaqueView returns a copy of mn for printing md with the opaque API:
// struct fields named xxx_hidden_<Name>, oneof wrapper types unexported,
// and presence bits for the explicit-presence fields that are neither
// messages, lists nor members of a real oneof.
func opaqueView(mn *messageNames) *messageNames {
	v := *mn
	v.opaque = true
	v.fields = make([]*fieldNames, len(mn.fields))
	v.oneofs = make([]*oneofNames, len(mn.oneofs))
	byOld := map[*fieldNames]*fieldNames{}
	bits := 0
	for i, fn := range mn.fields {
		c := *fn
		c.opaque = true
		if fn.oneof == nil {
			c.goName = hiddenPrefix + fn.goName
			if st := storageOf(fn.desc); st == stPointer || st == stBytes {
				bits++
				c.bit = bits
			}
		}
		if fn.oneof != nil {
			c.wrapper = fn.opaqueWrapper
		}
		v.fields[i] = &c
		byOld[fn] = &c
	}
	for i, o := range mn.oneofs {
		c := *o
		if !o.desc.IsSynthetic() {
			c.goName = hiddenPrefix + o.goName
		}
		c.fields = make([]*fieldNames, len(o.fields))
		for k, fn := range o.fields {
			c.fields[k] = byOld[fn]
			if byOld[fn].oneof != nil {
				byOld[fn].oneof = &c
			}
		}
		v.oneofs[i] = &c
	}
	return &v
}

// unexported lower-cases the first letter of a Go identifier, as
// protoc-gen-go names an opaque message's oneof wrapper types.
func unexported(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[n:]
}

// presenceWordBits is the width of a word of an opaque message's
// presence bitmap. Words of 32 bits, not bytes, although bytes would
// take only the bytes the bits need (GoogleMessage1 proto2: 39 bits, 5
// bytes against 8, its struct 272 bytes against 280): amd64 has a
// one-instruction OR to memory for 32-bit words (ORL $mask, off(reg))
// that the compiler does not emit for a byte (MOVZX, ORL, MOVB), and the
// decoder sets a bit per field it reads, so bytes cost GoogleMessage1
// proto2's decode 2% more instructions (callgrind, self cost of its
// generated methods per decode of the recorded payload: 1,418 -> 1,447).
const presenceWordBits = 32

// presenceWords is the length of mn's presence bitmap, in words of
// presenceWordBits.
func presenceWords(mn *messageNames) int {
	n := 0
	for _, fn := range mn.fields {
		if fn.bit > n {
			n = fn.bit
		}
	}
	return (n + presenceWordBits - 1) / presenceWordBits
}

// presenceWordType is the Go type of a presence bitmap word.
func presenceWordType() jen.Code {
	if presenceWordBits == 8 {
		return jen.Uint8()
	}
	return jen.Uint32()
}

// presenceRank is the layoutRank of the presence bitmap: with the bools
// when its words are bytes, before them (after the 4-byte scalars)
// otherwise.
func presenceRank() int {
	if presenceWordBits == 8 {
		return 4
	}
	return 3
}

// bitOf is the word index and mask of fn's presence bit.
func bitOf(fn *fieldNames) (int, jen.Code) {
	i := fn.bit - 1
	return i / presenceWordBits, jen.Id(fmt.Sprintf("0x%x", uint32(1)<<(i%presenceWordBits)))
}

// hasBit is the condition that fn's presence bit is set in recv.
func hasBit(recv jen.Code, fn *fieldNames) *jen.Statement {
	w, mask := bitOf(fn)
	return jen.Add(recv).Dot(presenceField).Index(jen.Lit(w)).Op("&").Add(mask).Op("!=").Lit(0)
}

// setBit sets fn's presence bit in recv.
func setBit(recv jen.Code, fn *fieldNames) *jen.Statement {
	w, mask := bitOf(fn)
	return jen.Add(recv).Dot(presenceField).Index(jen.Lit(w)).Op("|=").Add(mask)
}

// clearBit clears fn's presence bit in recv.
func clearBit(recv jen.Code, fn *fieldNames) *jen.Statement {
	w, mask := bitOf(fn)
	return jen.Add(recv).Dot(presenceField).Index(jen.Lit(w)).Op("&^=").Add(mask)
}

// goZero is the Go zero value of the struct field holding fn.
func (g *generator) goZero(fn *fieldNames) *jen.Statement {
	fd := fn.desc
	switch fn.storage() {
	case stMap, stRepeated, stMessage, stPointer, stBytes:
		return jen.Nil()
	}
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return jen.False()
	case protoreflect.StringKind:
		return jen.Lit("")
	case protoreflect.BytesKind, protoreflect.MessageKind, protoreflect.GroupKind:
		return jen.Nil()
	}
	return jen.Lit(0)
}

// opaqueFieldType is the Go type of the struct field holding fn.
func (g *generator) opaqueFieldType(fn *fieldNames) *jen.Statement {
	if fn.storage() == stBit {
		return g.elemType(fn.desc)
	}
	return g.fieldType(fn.desc)
}

// accessorType is the type GetX returns and SetX takes (a hybrid
// message's open struct holds an explicit-presence scalar as a pointer,
// stPointer; its setter takes the value).
func (g *generator) accessorType(fn *fieldNames) *jen.Statement {
	switch fn.storage() {
	case stBit, stOneof, stPointer:
		return g.elemType(fn.desc)
	}
	return g.fieldType(fn.desc)
}

func (g *generator) genOpaqueMessage(jf *jen.File, md protoreflect.MessageDescriptor) {
	mn := opaqueView(g.msgs[md.FullName()])
	g.markLazy(mn)
	for i := 0; i < md.Enums().Len(); i++ {
		g.genEnum(jf, md.Enums().Get(i))
	}

	// The hidden layout: fields that hold pointers (strings, bytes,
	// slices, maps, messages, oneofs, the unknown fields) first, so that
	// the collector, which scans an object only up to its last pointer
	// word, stops before the scalars; then the scalars by decreasing
	// alignment, so that no padding falls between them.
	var groups [5][]jen.Code
	for _, fn := range mn.fields {
		if fn.oneof != nil {
			if fn.oneof.fields[0] == fn {
				groups[0] = append(groups[0], jen.Id(fn.oneof.goName).Id(fn.oneof.iface))
			}
			continue
		}
		rank := layoutRank(fn)
		groups[rank] = append(groups[rank], jen.Id(fn.goName).Add(g.opaqueFieldType(fn)))
		if fn.lazy {
			groups[rank] = append(groups[rank], jen.Id(lazyName(fn)).Index().Byte())
			groups[4] = append(groups[4], jen.Id(canonName(fn)).Bool())
		}
	}
	if !g.opts.DropUnknown {
		groups[0] = append(groups[0], jen.Comment("// unknownFields holds the fields this schema does not declare, as read (nil: none)."))
		groups[0] = append(groups[0], jen.Id("unknownFields").Op("*").Index().Byte())
	}
	if n := presenceWords(mn); n > 0 {
		groups[presenceRank()] = append([]jen.Code{
			jen.Comment("// xxx_presence has a bit for each explicit-presence field held as a value."),
			jen.Id(presenceField).Index(jen.Lit(n)).Add(presenceWordType()),
		}, groups[presenceRank()]...)
	}
	var fields []jen.Code
	for _, grp := range groups {
		fields = append(fields, grp...)
	}
	doc := docComments(md, false, isDeprecated(md))
	if len(doc) > 0 {
		doc = append(doc, jen.Comment("//"))
	}
	doc = append(doc, jen.Comment("// "+mn.goName+" has the opaque API: its fields are read and written through its methods."))
	addDoc(jf, doc)
	jf.Type().Id(mn.goName).Struct(fields...)
	jf.Line()

	g.genDefaults(jf, mn)
	g.genOpaqueAccessors(jf, mn)
	g.genOpaqueBuilder(jf, mn)
	g.genOpaqueOneofTypes(jf, mn)
	g.genMethods(jf, mn)
	g.genJSON(jf, mn)
	g.genText(jf, mn)
}

// readsBit reports whether the getter of fd, held with a presence bit,
// reads the bit: only when the value of an unset field (its default, or
// a closed enum's first value) is not the Go zero value the field then
// holds.
func readsBit(fd protoreflect.FieldDescriptor) bool {
	if fd.HasDefault() {
		return true
	}
	ed := fd.Enum()
	return ed != nil && ed.Values().Len() > 0 && ed.Values().Get(0).Number() != 0
}

// layoutRank is the group of fn's struct field in an opaque message's
// layout: 0 holds pointers, 1 scalars of 8 bytes, 2 of 4 bytes, 4 bools
// (the presence bitmap goes in presenceRank).
func layoutRank(fn *fieldNames) int {
	switch fn.storage() {
	case stBit, stImplicit:
	default:
		return 0
	}
	switch fn.desc.Kind() {
	case protoreflect.StringKind, protoreflect.BytesKind, protoreflect.MessageKind, protoreflect.GroupKind:
		return 0
	case protoreflect.BoolKind:
		return 4
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind,
		protoreflect.Uint64Kind, protoreflect.Fixed64Kind, protoreflect.DoubleKind:
		return 1
	}
	return 2
}

// deprecatedDoc prints the deprecation line of fd's accessors.
func deprecatedDoc(jf *jen.File, fd protoreflect.FieldDescriptor) {
	if isDeprecated(fd) {
		jf.Comment("// Deprecated: Marked as deprecated in " + safeText(fd.ParentFile().Path()) + ".")
	}
}

// hasPresenceAPI reports whether fn has HasX and ClearX: a singular field
// with explicit presence.
func hasPresenceAPI(fn *fieldNames) bool {
	return fn.desc.HasPresence() && !fn.desc.IsList()
}

// genHybridAccessors prints, for an API_HYBRID message in its open form
// (the .pb.go file under !protoopaque), the opaque API's methods beside
// the open struct's exported fields, as protoc-gen-go's hybrid code has
// them: SetX, HasX, ClearX, WhichO with its case constants, and the
// builder. The getters are the open API's.
//
// As in protoc-gen-go, a hybrid message's accessors of a field whose
// GetX, SetX, HasX or ClearX is another field's camel name are Get_X,
// Set_X, Has_X and Clear_X (fieldNames.hybridInfix); the open getter
// GetX_ of a field whose open name took "_" suffixes stays, and the
// getters protoc-gen-go's hybrid code has beside it (Get_X, and GetX_
// by protoc-gen-go's own field naming) call it (hybridGetterAliases).
// The _protoopaque.pb.go file has the opaque API's names.
func (g *generator) genHybridAccessors(jf *jen.File, mn *messageNames) {
	r := recv(mn)
	aliases := hybridGetterAliases(mn)
	for _, fn := range mn.fields {
		for _, name := range aliases[fn] {
			jf.Comment("// " + name + " is Get" + fn.goName + ", under the name protoc-gen-go's hybrid code gives it.")
			jf.Func().Params(r.Clone()).Id(name).Params().Add(g.accessorType(fn)).Block(
				jen.Return(jen.Id("m").Dot("Get" + fn.goName).Call()))
			jf.Line()
		}
	}
	g.genAccessors(jf, mn, false)
	g.genOpaqueBuilder(jf, mn)
	g.genOneofCaseTypes(jf, mn)
}

// hybridGetterAliases returns, for a hybrid message's open form, the
// getters of each field beside its open getter Get<goName>: protoc-gen-go's
// hybrid getter (GetX or Get_X) and its backward-compatible one
// (Get<protoc-gen-go's GoName>), each unless it is the open getter or a
// name the message already has (a method, a struct field, an earlier
// getter).
func hybridGetterAliases(mn *messageNames) map[*fieldNames][]string {
	taken := map[string]bool{}
	for _, n := range reservedMethods {
		taken[n] = true
	}
	for _, fn := range mn.fields {
		taken["Get"+fn.goName] = true
		if fn.oneof == nil {
			taken[fn.goName] = true
		}
		for _, p := range []string{"Set", "Has", "Clear"} {
			if p == "Set" || hasPresenceAPI(fn) {
				taken[fn.accessor(p, true)] = true
			}
		}
	}
	for _, o := range mn.oneofs {
		if o.desc.IsSynthetic() {
			continue
		}
		taken[o.goName] = true
		taken["Get"+o.goName] = true
		for _, p := range []string{"Has", "Clear", "Which"} {
			taken[o.accessor(p, true)] = true
		}
	}
	out := map[*fieldNames][]string{}
	for _, fn := range mn.fields {
		for _, name := range []string{fn.accessor("Get", true), "Get" + fn.api} {
			if !taken[name] {
				taken[name] = true
				out[fn] = append(out[fn], name)
			}
		}
	}
	return out
}

func (g *generator) genOpaqueAccessors(jf *jen.File, mn *messageNames) {
	g.genAccessors(jf, mn, true)
}

// genAccessors prints the opaque API's methods of mn: the getters when
// getters is set (the open API has its own), the setters, Has, Clear and
// Which.
func (g *generator) genAccessors(jf *jen.File, mn *messageNames, getters bool) {
	r := recv(mn)
	m := jen.Id("m")
	hybrid := g.isHybridOpen(mn.desc)
	// Getters: the value, or the default (the explicit default or the Go
	// zero, the first value for an enum) when unset or m is nil.
	for _, fn := range mn.fields {
		if !getters {
			break
		}
		fd := fn.desc
		f := mf(fn)
		var body []jen.Code
		switch {
		case fn.lazy:
			body = g.lazyGetter(fn)
		case fn.storage() == stBit:
			cond := m.Clone().Op("!=").Nil()
			if readsBit(fd) {
				cond = cond.Op("&&").Add(hasBit(m, fn))
			}
			body = []jen.Code{
				jen.If(cond).Block(jen.Return(f)),
				jen.Return(g.defaultOrZero(mn, fn)),
			}
		case fn.storage() == stOneof:
			body = []jen.Code{
				jen.If(m.Clone().Op("!=").Nil()).Block(
					jen.If(jen.List(jen.Id("x"), jen.Id("ok")).Op(":=").Add(m).Dot(fn.oneof.goName).Assert(jen.Op("*").Id(fn.wrapper)).Op(";").Id("ok")).Block(
						jen.Return(jen.Id("x").Dot(fn.goName)))),
				jen.Return(g.defaultOrZero(mn, fn)),
			}
		default:
			body = []jen.Code{
				jen.If(m.Clone().Op("!=").Nil()).Block(jen.Return(f)),
				jen.Return(g.goZero(fn)),
			}
		}
		addDoc(jf, docComments(fd, true, false))
		deprecatedDoc(jf, fd)
		jf.Func().Params(r.Clone()).Id(fn.accessor("Get", hybrid)).Params().Add(g.accessorType(fn)).Block(body...)
		jf.Line()
	}
	// Setters. A nil []byte is stored as an empty one, so that SetX(nil)
	// of a bytes field with presence sets it; a nil message clears a
	// oneof member. A field held in the struct stores v first and
	// replaces a nil one after: a test and a branch not taken, where
	// rewriting v before the store costs three conditional moves of
	// the slice's words and their setup on every call (cmd/compile
	// turns that branch into CMOVs), about ten instructions an inlined
	// setter.
	for _, fn := range mn.fields {
		fd := fn.desc
		f := mf(fn)
		var body []jen.Code
		nilBytes := fd.Kind() == protoreflect.BytesKind && !fd.IsList()
		storeFirst := nilBytes && fn.storage() != stOneof
		if nilBytes && !storeFirst {
			body = append(body, jen.If(jen.Id("v").Op("==").Nil()).Block(jen.Id("v").Op("=").Index().Byte().Values()))
		}
		switch fn.storage() {
		case stBit:
			body = append(body, f.Clone().Op("=").Id("v"), setBit(m, fn))
		case stPointer:
			// The open struct of a hybrid message: a pointer to a copy.
			body = append(body, f.Clone().Op("=").Op("&").Id("v"))
		case stOneof:
			if fd.Message() != nil {
				body = append(body, jen.If(jen.Id("v").Op("==").Nil()).Block(
					m.Clone().Dot(fn.oneof.goName).Op("=").Nil(),
					jen.Return()))
			}
			if !hybrid {
				// An opaque message owns its oneof wrapper: the
				// wrapper type is unexported, and the builder, the
				// decoders and Clone each make their own, so no other
				// message holds it and the member's new value can
				// go into the wrapper already set, without an
				// allocation. (A hybrid message's open form exports
				// the oneof, whose wrapper a program may share.)
				body = append(body, jen.If(jen.List(jen.Id("x"), jen.Id("ok")).Op(":=").Add(m).Dot(fn.oneof.goName).Assert(jen.Op("*").Id(fn.wrapper)).Op(";").Id("ok").Op("&&").Id("x").Op("!=").Nil()).Block(
					jen.Id("x").Dot(fn.goName).Op("=").Id("v"),
					jen.Return()))
			}
			body = append(body, m.Clone().Dot(fn.oneof.goName).Op("=").Op("&").Id(fn.wrapper).Values(jen.Dict{jen.Id(fn.goName): jen.Id("v")}))
		default:
			body = append(body, f.Clone().Op("=").Id("v"))
		}
		if storeFirst {
			body = append(body, jen.If(jen.Id("v").Op("==").Nil()).Block(f.Clone().Op("=").Index().Byte().Values()))
		}
		if fn.lazy {
			body = append(body, m.Clone().Dot(lazyName(fn)).Op("=").Nil())
		}
		deprecatedDoc(jf, fd)
		jf.Func().Params(r.Clone()).Id(fn.accessor("Set", hybrid)).Params(jen.Id("v").Add(g.accessorType(fn))).Block(body...)
		jf.Line()
	}
	// Has: explicit presence only, a oneof before its first member.
	for _, fn := range mn.fields {
		if !hasPresenceAPI(fn) {
			continue
		}
		if o := fn.oneof; o != nil && o.fields[0] == fn {
			jf.Func().Params(r.Clone()).Id(o.accessor("Has", hybrid)).Params().Bool().Block(
				jen.If(m.Clone().Op("==").Nil()).Block(jen.Return(jen.False())),
				jen.Return(m.Clone().Dot(o.goName).Op("!=").Nil()))
			jf.Line()
		}
		var ret jen.Code
		switch fn.storage() {
		case stBit:
			ret = jen.Return(hasBit(m, fn))
		case stMessage:
			if fn.lazy {
				ret = jen.Return(lazyHas(fn))
			} else {
				ret = jen.Return(mf(fn).Op("!=").Nil())
			}
		case stOneof:
			ret = jen.List(jen.Id("_"), jen.Id("ok")).Op(":=").Add(m).Dot(fn.oneof.goName).Assert(jen.Op("*").Id(fn.wrapper)).Line().Return(jen.Id("ok"))
		default:
			ret = jen.Return(mf(fn).Op("!=").Nil())
		}
		deprecatedDoc(jf, fn.desc)
		jf.Func().Params(r.Clone()).Id(fn.accessor("Has", hybrid)).Params().Bool().Block(
			jen.If(m.Clone().Op("==").Nil()).Block(jen.Return(jen.False())),
			ret)
		jf.Line()
	}
	// Clear: the field unset, holding its zero value.
	for _, fn := range mn.fields {
		if !hasPresenceAPI(fn) {
			continue
		}
		if o := fn.oneof; o != nil && o.fields[0] == fn {
			jf.Func().Params(r.Clone()).Id(o.accessor("Clear", hybrid)).Params().Block(
				m.Clone().Dot(o.goName).Op("=").Nil())
			jf.Line()
		}
		var body []jen.Code
		switch fn.storage() {
		case stBit:
			body = []jen.Code{clearBit(m, fn), mf(fn).Op("=").Add(g.goZero(fn))}
		case stOneof:
			body = []jen.Code{jen.If(jen.List(jen.Id("_"), jen.Id("ok")).Op(":=").Add(m).Dot(fn.oneof.goName).Assert(jen.Op("*").Id(fn.wrapper)).Op(";").Id("ok")).Block(
				m.Clone().Dot(fn.oneof.goName).Op("=").Nil())}
		default:
			body = []jen.Code{mf(fn).Op("=").Nil()}
		}
		if fn.lazy {
			body = append(body, m.Clone().Dot(lazyName(fn)).Op("=").Nil())
		}
		deprecatedDoc(jf, fn.desc)
		jf.Func().Params(r.Clone()).Id(fn.accessor("Clear", hybrid)).Params().Block(body...)
		jf.Line()
	}
	// Which, with the case constants.
	for _, o := range mn.oneofs {
		if o.desc.IsSynthetic() {
			continue
		}
		caseType, notSet := o.caseType, o.notSet
		consts := []jen.Code{jen.Id(notSet).Id(caseType).Op("=").Lit(0)}
		var cases []jen.Code
		for _, fn := range o.fields {
			name := fn.caseName
			consts = append(consts, jen.Id(name).Id(caseType).Op("=").Lit(int(fn.desc.Number())))
			cases = append(cases, jen.Case(jen.Op("*").Id(fn.wrapper)).Block(jen.Return(jen.Id(name))))
		}
		cases = append(cases, jen.Default().Block(jen.Return(jen.Id(notSet))))
		jf.Const().Defs(consts...)
		jf.Line()
		jf.Func().Params(r.Clone()).Id(o.accessor("Which", hybrid)).Params().Id(caseType).Block(
			jen.If(m.Clone().Op("==").Nil()).Block(jen.Return(jen.Id(notSet))),
			jen.Switch(m.Clone().Dot(o.goName).Assert(jen.Type())).Block(cases...))
		jf.Line()
	}
}

// builderFieldType is the type of fn's field in M_builder, as
// protoc-gen-go's: *T for an explicit-presence scalar, string or enum
// (nil: unset) and for a oneof member that is not a message or bytes;
// the field's own type otherwise.
func (g *generator) builderFieldType(fn *fieldNames) *jen.Statement {
	fd := fn.desc
	switch fn.storage() {
	case stBit, stOneof:
		if fd.Kind() == protoreflect.BytesKind || fd.Message() != nil {
			return g.elemType(fd)
		}
		return jen.Op("*").Add(g.elemType(fd))
	}
	return g.fieldType(fd)
}

func (g *generator) genOpaqueBuilder(jf *jen.File, mn *messageNames) {
	bName := mn.builder
	fields := []jen.Code{jen.Id("_").Index(jen.Lit(0)).Func().Params().Comment("// Prevents comparability and use of unkeyed literals for the builder."), jen.Line()}
	build := []jen.Code{
		jen.Id("m0").Op(":=").Op("&").Id(mn.goName).Values(),
		jen.List(jen.Id("b"), jen.Id("x")).Op(":=").List(jen.Op("&").Id("b0"), jen.Id("m0")),
		jen.List(jen.Id("_"), jen.Id("_")).Op("=").List(jen.Id("b"), jen.Id("x")),
	}
	x := jen.Id("x")
	for _, fn := range mn.fields {
		fd := fn.desc
		bf := jen.Id("b").Dot(fn.camel)
		if o := fn.oneof; o != nil && o.fields[0] == fn {
			fields = append(fields, jen.Comment("// Fields of oneof "+o.goName+":"))
		}
		fields = append(fields, append(docComments(fd, false, isDeprecated(fd)), jen.Id(fn.camel).Add(g.builderFieldType(fn)))...)
		if o := fn.oneof; o != nil && o.fields[len(o.fields)-1] == fn {
			fields = append(fields, jen.Comment("// -- end of "+o.goName))
		}
		ptr := fd.Kind() != protoreflect.BytesKind && fd.Message() == nil
		val := bf.Clone()
		if ptr {
			val = jen.Op("*").Add(bf)
		}
		switch fn.storage() {
		case stOneof:
			build = append(build, jen.If(bf.Clone().Op("!=").Nil()).Block(
				x.Clone().Dot(fn.oneof.goName).Op("=").Op("&").Id(fn.wrapper).Values(jen.Dict{jen.Id(fn.goName): val})))
		case stBit:
			build = append(build, jen.If(bf.Clone().Op("!=").Nil()).Block(
				setBit(x, fn),
				x.Clone().Dot(fn.goName).Op("=").Add(val)))
		default:
			build = append(build, x.Clone().Dot(fn.goName).Op("=").Add(bf))
		}
	}
	build = append(build, jen.Return(jen.Id("m0")))
	if direct := directBuild(mn); direct != nil {
		build = direct
	}
	jf.Comment("// " + bName + " holds field values for a new " + mn.goName + " (nil: unset); Build returns it.")
	if isDeprecated(mn.desc) {
		jf.Comment("//")
		jf.Comment("// Deprecated: Marked as deprecated in " + safeText(mn.desc.ParentFile().Path()) + ".")
	}
	jf.Type().Id(bName).Struct(fields...)
	jf.Line()
	jf.Func().Params(jen.Id("b0").Id(bName)).Id("Build").Params().Op("*").Id(mn.goName).Block(build...)
	jf.Line()
}

// directBuild is the body of Build as one composite literal, when every
// field of mn is copied from the builder as it is (no presence bit, no
// oneof), else nil. The literal costs cmd/compile's inliner about a node a
// field where m0's field assignments cost about six, so Build inlines
// for more messages, and a function building a message (a literal of the
// builder and its Build) stays under the inlining budget where an open
// struct's literal does: the caller then knows the message is not nil
// and the getters' nil checks go (Flat10's ten getters: 58 instructions
// against the open struct's 21 when Build was not inlined).
func directBuild(mn *messageNames) []jen.Code {
	var elems []jen.Code
	for _, fn := range mn.fields {
		switch fn.storage() {
		case stOneof, stBit:
			return nil
		}
		elems = append(elems, jen.Line().Id(fn.goName).Op(":").Add(jen.Id("b0").Dot(fn.camel)))
	}
	if len(elems) > 0 {
		elems = append(elems, jen.Line())
	}
	return []jen.Code{jen.Return(jen.Op("&").Id(mn.goName).Values(elems...))}
}

func (g *generator) genOpaqueOneofTypes(jf *jen.File, mn *messageNames) {
	g.genOneofCaseTypes(jf, mn)
	g.genOneofTypes(jf, mn)
}

// genOneofCaseTypes prints the type of each real oneof's case constants
// (WhichO's result), with its String method.
func (g *generator) genOneofCaseTypes(jf *jen.File, mn *messageNames) {
	for _, o := range mn.oneofs {
		if o.desc.IsSynthetic() {
			continue
		}
		caseType := o.caseType
		jf.Comment("// " + caseType + " is the field number of the member of oneof " + string(o.desc.Name()) + " that is set (0: none).")
		jf.Type().Id(caseType).Int32()
		jf.Line()
		var cases []jen.Code
		for _, fn := range o.fields {
			cases = append(cases, jen.Case(jen.Lit(int(fn.desc.Number()))).Block(jen.Return(jen.Lit(string(fn.desc.Name())))))
		}
		cases = append(cases, jen.Case(jen.Lit(0)).Block(jen.Return(jen.Lit("not set"))))
		jf.Comment("// String returns the name of the member, \"not set\" for none.")
		jf.Func().Params(jen.Id("x").Id(caseType)).Id("String").Params().String().Block(
			jen.Switch(jen.Id("x")).Block(cases...),
			jen.Return(jen.Qual("strconv", "Itoa").Call(jen.Int().Call(jen.Id("x")))))
		jf.Line()
	}
}
