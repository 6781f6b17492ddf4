package gogen

import (
	"github.com/dave/jennifer/jen"
	"github.com/protoplay/protoplay/runtime/wire"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

// This file prints the lazy message fields of the opaque API: a singular
// message field marked [lazy = true] or [unverified_lazy = true], or
// named in the generator option lazy= (Options.Lazy), in a message of the
// opaque API (or the opaque form of a hybrid one; the open API's exported
// *T cannot be lazy, and is decoded eagerly as before).
//
// Such a field is the hidden *T of any message field plus
// xxx_lazy_<Name>, the encodings of its occurrences as read (a copy of
// the input, concatenated: occurrences merge), and xxx_canon_<Name>,
// whether that encoding is canonical. Unmarshal checks each occurrence as
// it is read with the type's ValidateGroup (validate.go), a walk that
// allocates nothing; where that finds it bad, a decode into a scratch
// message reports the error, so that Unmarshal's errors and
// CheckInitialized's are exactly those of the eager decoding. It keeps
// the bytes instead of the message. unverified_lazy is validated the same
// way: protobuf-go decodes such a field eagerly (only [lazy = true] is
// lazy there), so it reports the field's errors from Unmarshal, and a
// getter has no error to return.
//
// The getter decodes the bytes on first access and publishes the message
// with wire.PublishMessage (a compare-and-swap: of readers decoding at
// once, all use the first one published), so any number of goroutines
// may read a decoded message concurrently, as protoc-gen-go promises.
// Size and Marshal write a canonical pending encoding as it is, without
// decoding it (the decoded message would be written as the same bytes),
// and decode the others first. Every other method that reads the field
// (Equal, Clone, CheckInitialized, ProtoJSON and text) calls the getter
// first, so that it then reads a published *T; the setter and Clear
// store the pointer and drop the bytes, and HasX is true when either is
// present.

// lazyPrefix starts the name of the struct field holding a lazy field's
// pending encoding.
const lazyPrefix = "xxx_lazy_"

// isLazy reports whether fn, a field of an opaque view, is decoded on
// first access.
func (g *generator) isLazy(fn *fieldNames) bool {
	return fn.opaque && g.lazyCandidate(fn.desc, fn.oneof != nil)
}

// lazyCandidate reports whether fd, a field of a message printed with the
// opaque API (inOneof: a member of a real oneof), is lazy.
func (g *generator) lazyCandidate(fd protoreflect.FieldDescriptor, inOneof bool) bool {
	if inOneof || fd.IsList() || fd.Kind() != protoreflect.MessageKind || !g.has(FeatureUnmarshal) {
		return false
	}
	if o, ok := fd.Options().(*descriptorpb.FieldOptions); ok && (o.GetLazy() || o.GetUnverifiedLazy()) {
		return true
	}
	return g.opts.Lazy[string(fd.FullName())]
}

// markLazy sets fieldNames.lazy on the fields of the opaque view mn that
// are lazy.
func (g *generator) markLazy(mn *messageNames) {
	for _, fn := range mn.fields {
		fn.lazy = g.isLazy(fn)
	}
}

// lazyName is the struct field holding fn's pending encoding.
func lazyName(fn *fieldNames) string {
	return lazyPrefix + fn.goName[len(hiddenPrefix):]
}

// forceLazy returns, for each lazy field of mn, a call of its getter on
// each of recvs (expressions of type *M, nil allowed): done first, it
// lets the rest of a method read the fields' struct fields directly.
func forceLazy(mn *messageNames, recvs ...string) []jen.Code {
	return forceLazyIf(mn, func(*fieldNames) bool { return true }, recvs...)
}

// forceLazyIf is forceLazy for the lazy fields for which keep holds.
func forceLazyIf(mn *messageNames, keep func(*fieldNames) bool, recvs ...string) []jen.Code {
	var out []jen.Code
	for _, fn := range mn.fields {
		if !fn.lazy || !keep(fn) {
			continue
		}
		for _, r := range recvs {
			out = append(out, jen.Id("_").Op("=").Id(r).Dot(fn.accessor("Get", false)).Call())
		}
	}
	return out
}

// lazyGetter is the body of a lazy field's getter.
func (g *generator) lazyGetter(fn *fieldNames) []jen.Code {
	m := jen.Id("m")
	f := mf(fn)
	raw := m.Clone().Dot(lazyName(fn))
	return []jen.Code{
		jen.If(m.Clone().Op("==").Nil()).Block(jen.Return(jen.Nil())),
		jen.If(jen.Id("x").Op(":=").Add(rt("LoadMessage")).Call(jen.Op("&").Add(f)), jen.Id("x").Op("!=").Nil().Op("||").Add(raw).Op("==").Nil()).Block(
			jen.Return(jen.Id("x"))),
		jen.Comment("// The bytes were validated by Unmarshal: decoding them cannot fail."),
		jen.Id("x").Op(":=").New(g.msgType(fn.desc.Message())),
		jen.Var().Id("d").Add(rt("Decoder")),
		jen.Id("_").Op("=").Id("x").Dot("UnmarshalWith").Call(jen.Op("&").Id("d"), raw, rt("DefaultMaxDepth")),
		jen.Return(rt("PublishMessage").Call(jen.Op("&").Add(f), jen.Id("x"))),
	}
}

// lazyHas is the condition of a lazy field's HasX (m non-nil).
func lazyHas(fn *fieldNames) *jen.Statement {
	return rt("LoadMessage").Call(jen.Op("&").Add(mf(fn))).Op("!=").Nil().Op("||").Id("m").Dot(lazyName(fn)).Op("!=").Nil()
}

// unmarshalLazy is the decoding of an occurrence of a lazy field (its
// wire type checked): merged into the message if it is decoded already,
// else validated (see validate.go) and appended to the pending encoding.
// Where ValidateGroup finds the occurrence bad, a decode into a scratch
// message reports the eager decoder's own error. The pending encoding is
// canonical (Marshal may copy it) when it is one occurrence that
// ValidateGroup finds canonical.
func (g *generator) unmarshalLazy(fn *fieldNames, from protoreflect.MessageDescriptor) []jen.Code {
	fd := fn.desc
	f := mf(fn)
	path := string(fd.Name())
	nest := func(base jen.Code) jen.Code { return rt("Nest").Call(jen.Err(), base, jen.Lit(path)) }
	raw := jen.Id("m").Dot(lazyName(fn))
	check := append([]jen.Code{
		jen.List(jen.Id("v"), jen.Id("n")).Op(":=").Add(rt("ConsumeBytes")).Call(jen.Id("b").Index(jen.Id("i"), jen.Empty())),
		jen.If(jen.Id("n").Op("<").Lit(0)).Block(fail(rt("ErrorAt").Call(jen.Id("i"), jen.Id("n")))),
	}, g.validateCall(fd.Message(), from, jen.Id("v"), jen.Lit(0), jen.Id("depth").Op("-").Lit(1))...)
	check = append(check,
		jen.If(jen.Id("k").Op("<").Lit(0)).Block(
			jen.Var().Id("vd").Add(rt("Decoder")),
			jen.If(jen.Err().Op(":=").New(g.msgType(fd.Message())).Dot("UnmarshalWith").Call(jen.Op("&").Id("vd"), jen.Id("v"), jen.Id("depth").Op("-").Lit(1)).Op(";").Err().Op("!=").Nil()).Block(
				fail(nest(jen.Id("i").Op("+").Id("n").Op("-").Len(jen.Id("v"))))),
			jen.Id("c").Op("=").False(),
		),
		jen.Id("m").Dot(canonName(fn)).Op("=").Id("c").Op("&&").Add(raw).Op("==").Nil(),
		jen.If(raw.Clone().Op("==").Nil()).Block(raw.Clone().Op("=").Index().Byte().Values()),
		raw.Clone().Op("=").Append(raw, jen.Id("v").Op("...")),
		jen.Id("i").Op("+=").Id("n"),
	)
	return []jen.Code{
		jen.If(f.Clone().Op("!=").Nil()).Block(subDecode(fd, f, nest)...).Else().Block(check...),
		jen.Continue(),
	}
}

// canonName is the struct field telling whether fn's pending encoding is
// canonical: written back unchanged by Marshal (read only while the
// encoding is pending).
func canonName(fn *fieldNames) string {
	return lazyCanonPrefix + fn.goName[len(hiddenPrefix):]
}

// lazyCanonPrefix starts the name of canonName's field.
const lazyCanonPrefix = "xxx_canon_"

// lazyRaw is the condition under which Size and Marshal write fn's
// pending encoding as it is: there is one, canonical, and no goroutine
// has decoded it (a decoded message may have been changed through the
// getter's pointer). The message decoded from a canonical encoding is
// written as that encoding, so a getter racing with Size and Marshal
// changes no byte.
func lazyRaw(fn *fieldNames) *jen.Statement {
	return jen.Id("raw").Op(":=").Id("m").Dot(lazyName(fn)).Op(";").Id("raw").Op("!=").Nil().Op("&&").Id("m").Dot(canonName(fn)).Op("&&").Add(rt("LoadMessage")).Call(jen.Op("&").Add(mf(fn))).Op("==").Nil()
}

// sizeLazy is Size's term for the lazy field fn.
func (g *generator) sizeLazy(fn *fieldNames) []jen.Code {
	fd := fn.desc
	return []jen.Code{jen.If(lazyRaw(fn)).Block(
		jen.Id("n").Op("+=").Add(rt("SizeTagBytes")).Call(jen.Lit(len(tagBytes(fd.Number(), wire.BytesType))), jen.Len(jen.Id("raw"))),
	).Else().If(jen.Id("x").Op(":=").Id("m").Dot(fn.accessor("Get", false)).Call(), jen.Id("x").Op("!=").Nil()).Block(
		jen.Id("n").Op("+=").Add(fieldSize(fd, jen.Id("x"))),
	)}
}

// marshalLazy is MarshalToSizedBuffer's writing of the lazy field fn.
func (g *generator) marshalLazy(fn *fieldNames) []jen.Code {
	fd := fn.desc
	copyRaw := []jen.Code{
		jen.Id("i").Op("-=").Len(jen.Id("raw")),
		jen.Copy(jen.Id("b").Index(jen.Id("i"), jen.Empty()), jen.Id("raw")),
		jen.Id("i").Op("=").Add(rt("PutVarintRev")).Call(jen.Id("b"), jen.Id("i"), jen.Uint64().Call(jen.Len(jen.Id("raw")))),
	}
	copyRaw = append(copyRaw, putTag(fd.Number(), wire.BytesType)...)
	return []jen.Code{jen.If(lazyRaw(fn)).Block(copyRaw...).Else().If(jen.Id("x").Op(":=").Id("m").Dot(fn.accessor("Get", false)).Call(), jen.Id("x").Op("!=").Nil()).Block(
		putField(fd, jen.Id("x"), nestAt(fd))...,
	)}
}
