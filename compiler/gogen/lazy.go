package gogen

import (
	"github.com/dave/jennifer/jen"
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
// the input, concatenated: occurrences merge). Unmarshal validates each
// occurrence as it is read, by decoding it into a scratch message, so
// that its errors and CheckInitialized's are exactly those of the eager
// decoding (protobuf-go validates its lazy fields too, and reads no
// unverified_lazy); it keeps the bytes instead of the message. The getter
// decodes them on first access and publishes the message with
// wire.PublishMessage (a compare-and-swap: of readers decoding at once,
// all use the first one published), so any number of goroutines may read
// a decoded message concurrently, as protoc-gen-go promises. Every other
// method that reads the field (Size, Marshal, Equal, Clone,
// CheckInitialized, ProtoJSON and text) calls the getter first, so that
// it then reads a published *T; the setter and Clear store the pointer
// and drop the bytes, and HasX is true when either is present.

// lazyPrefix starts the name of the struct field holding a lazy field's
// pending encoding.
const lazyPrefix = "xxx_lazy_"

// isLazy reports whether fn, a field of an opaque view, is decoded on
// first access.
func (g *generator) isLazy(fn *fieldNames) bool {
	fd := fn.desc
	if !fn.opaque || fn.oneof != nil || fd.IsList() || fd.Kind() != protoreflect.MessageKind || !g.has(FeatureUnmarshal) {
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
// else validated and appended to the pending encoding.
func (g *generator) unmarshalLazy(fn *fieldNames) []jen.Code {
	fd := fn.desc
	f := mf(fn)
	path := string(fd.Name())
	nest := func(base jen.Code) jen.Code { return rt("Nest").Call(jen.Err(), base, jen.Lit(path)) }
	raw := jen.Id("m").Dot(lazyName(fn))
	return []jen.Code{
		jen.If(f.Clone().Op("!=").Nil()).Block(subDecode(fd, f, nest)...).Else().Block(
			jen.List(jen.Id("v"), jen.Id("n")).Op(":=").Add(rt("ConsumeBytes")).Call(jen.Id("b").Index(jen.Id("i"), jen.Empty())),
			jen.If(jen.Id("n").Op("<").Lit(0)).Block(fail(rt("ErrorAt").Call(jen.Id("i"), jen.Id("n")))),
			jen.Var().Id("vd").Add(rt("Decoder")),
			jen.If(jen.Err().Op(":=").New(g.msgType(fd.Message())).Dot("UnmarshalWith").Call(jen.Op("&").Id("vd"), jen.Id("v"), jen.Id("depth").Op("-").Lit(1)).Op(";").Err().Op("!=").Nil()).Block(
				fail(nest(jen.Id("i").Op("+").Id("n").Op("-").Len(jen.Id("v"))))),
			jen.If(raw.Clone().Op("==").Nil()).Block(raw.Clone().Op("=").Index().Byte().Values()),
			raw.Clone().Op("=").Append(raw, jen.Id("v").Op("...")),
			jen.Id("i").Op("+=").Id("n"),
		),
		jen.Continue(),
	}
}
