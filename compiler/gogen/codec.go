package gogen

import (
	"fmt"
	"hash/fnv"
	"sort"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/protoplay/protoplay/compiler/internal/wirekind"
	"github.com/protoplay/protoplay/runtime/wire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// This file prints the wire-format methods: Size, Marshal, MarshalAppend,
// MarshalToSizedBuffer, Unmarshal, UnmarshalDepth, UnmarshalWith and
// UnmarshalGroup.
//
// Marshal computes Size once and then writes the buffer from its end toward
// its start, fields in descending number order, so that a nested message's
// length is known when its prefix is written; the output is in ascending
// field-number order, as protoc-gen-go writes it. No per-message size cache
// is needed, which keeps instances small.

func rt(name string) *jen.Statement { return jen.Qual(RuntimeImportPath, name) }

// methodDoc prints the one-line doc comment of a generated method: what it
// does, and where its contract is written once for every message (runtime/wire's
// package documentation, section "Generated messages").
func methodDoc(jf *jen.File, text string) {
	jf.Comment("// " + text + ` (see wire: "Generated messages").`)
}

// wireTypeNames are runtime/wire's identifiers for the wire types generated
// code compares a tag's wire type with.
var wireTypeNames = map[wire.Type]string{
	wire.VarintType: "VarintType", wire.Fixed64Type: "Fixed64Type", wire.BytesType: "BytesType",
	wire.StartGroupType: "StartGroupType", wire.Fixed32Type: "Fixed32Type",
}

// toWire converts a Go value of kind k to the integer written on the wire
// (uint64 for varints, uint32/uint64 for fixed values).
func toWire(k protoreflect.Kind, v jen.Code) *jen.Statement {
	switch k {
	case protoreflect.BoolKind:
		return rt("EncodeBool").Call(v)
	case protoreflect.Int32Kind, protoreflect.Int64Kind, protoreflect.Uint32Kind, protoreflect.EnumKind:
		// int32 and enum values are sign-extended to 64 bits: -1 takes 10 bytes.
		return jen.Uint64().Call(v)
	case protoreflect.Uint64Kind, protoreflect.Fixed32Kind, protoreflect.Fixed64Kind:
		return jen.Add(v)
	case protoreflect.Sint32Kind:
		return rt("EncodeZigZag").Call(jen.Int64().Call(v))
	case protoreflect.Sint64Kind:
		return rt("EncodeZigZag").Call(v)
	case protoreflect.Sfixed32Kind:
		return jen.Uint32().Call(v)
	case protoreflect.Sfixed64Kind:
		return jen.Uint64().Call(v)
	case protoreflect.FloatKind:
		return jen.Qual("math", "Float32bits").Call(v)
	case protoreflect.DoubleKind:
		return jen.Qual("math", "Float64bits").Call(v)
	}
	panic("toWire: " + k.String())
}

// fromWire converts the integer x read from the wire to a Go value of fd.
func (g *generator) fromWire(fd protoreflect.FieldDescriptor, x jen.Code) *jen.Statement {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return jen.Add(x).Op("!=").Lit(0)
	case protoreflect.Int32Kind, protoreflect.Sfixed32Kind:
		return jen.Int32().Call(x)
	case protoreflect.Int64Kind, protoreflect.Sfixed64Kind:
		return jen.Int64().Call(x)
	case protoreflect.Uint32Kind:
		return jen.Uint32().Call(x)
	case protoreflect.Uint64Kind, protoreflect.Fixed32Kind, protoreflect.Fixed64Kind:
		return jen.Add(x)
	case protoreflect.EnumKind:
		return g.enumType(fd.Enum()).Call(jen.Int32().Call(x))
	case protoreflect.Sint32Kind:
		// Only the low 32 bits of a sint32 varint count.
		return jen.Int32().Call(rt("DecodeZigZag").Call(jen.Add(x).Op("&").Qual("math", "MaxUint32")))
	case protoreflect.Sint64Kind:
		return rt("DecodeZigZag").Call(x)
	case protoreflect.FloatKind:
		return jen.Qual("math", "Float32frombits").Call(x)
	case protoreflect.DoubleKind:
		return jen.Qual("math", "Float64frombits").Call(x)
	}
	panic("fromWire: " + fd.Kind().String())
}

// valueSize is the encoded size of value v of fd, without its tag. Groups
// exclude their two tags.
func valueSize(fd protoreflect.FieldDescriptor, v jen.Code) *jen.Statement {
	switch fd.Kind() {
	case protoreflect.StringKind, protoreflect.BytesKind:
		return rt("SizeBytes").Call(jen.Len(v))
	case protoreflect.MessageKind:
		return rt("SizeBytes").Call(jen.Add(v).Dot("Size").Call())
	case protoreflect.GroupKind:
		return jen.Add(v).Dot("Size").Call()
	}
	switch wirekind.Of(fd.Kind()) {
	case wire.Fixed32Type:
		return jen.Lit(4)
	case wire.Fixed64Type:
		return jen.Lit(8)
	case wire.VarintType:
		if fd.Kind() == protoreflect.BoolKind {
			return jen.Lit(1)
		}
		return rt("SizeVarint").Call(toWire(fd.Kind(), v))
	}
	panic("valueSize: " + fd.Kind().String())
}

// sizeDependsOnValue reports whether valueSize of fd reads the value (it
// does not for fixed-size kinds).
func sizeDependsOnValue(fd protoreflect.FieldDescriptor) bool {
	switch wirekind.Of(fd.Kind()) {
	case wire.Fixed32Type, wire.Fixed64Type:
		return false
	case wire.VarintType:
		return fd.Kind() != protoreflect.BoolKind
	}
	return true
}

// fieldSize is the size of one value with its tag (both tags for groups).
// Varint and LEN values fold the tag's constant length into the size of
// the varint (wire.SizeTagVarint, wire.SizeTagBytes): one instruction less
// per field than tag + size.
func fieldSize(fd protoreflect.FieldDescriptor, v jen.Code) *jen.Statement {
	t := len(tagBytes(fd.Number(), wirekind.Of(fd.Kind())))
	switch fd.Kind() {
	case protoreflect.StringKind, protoreflect.BytesKind:
		return rt("SizeTagBytes").Call(jen.Lit(t), jen.Len(v))
	case protoreflect.MessageKind:
		return rt("SizeTagBytes").Call(jen.Lit(t), jen.Add(v).Dot("Size").Call())
	case protoreflect.GroupKind:
		t *= 2
	case protoreflect.BoolKind:
	default:
		if wirekind.Of(fd.Kind()) == wire.VarintType {
			return rt("SizeTagVarint").Call(jen.Lit(t), toWire(fd.Kind(), v))
		}
	}
	return jen.Lit(t).Op("+").Add(valueSize(fd, v))
}

// putTag writes a precomputed tag backward: the tag's varint bytes are
// known at generation time, so they are stored as constants.
func putTag(num protoreflect.FieldNumber, wt wire.Type) []jen.Code {
	tb := tagBytes(num, wt)
	if len(tb) == 1 {
		return []jen.Code{jen.Id("i").Op("--"), jen.Id("b").Index(jen.Id("i")).Op("=").Add(hexByte(tb[0]))}
	}
	out := []jen.Code{jen.Id("i").Op("-=").Lit(len(tb))}
	for k, c := range tb {
		idx := jen.Id("i")
		if k > 0 {
			idx = jen.Id("i").Op("+").Lit(k)
		}
		out = append(out, jen.Id("b").Index(idx).Op("=").Add(hexByte(c)))
	}
	return out
}

// putValue writes value v of fd backward, without its tag (for groups: the
// contents and the end tag; the caller writes the start tag). nest is the
// error returned for an error err from a nested message: err re-rooted at
// the field (see nestAt).
func putValue(fd protoreflect.FieldDescriptor, v jen.Code, nest jen.Code) []jen.Code {
	switch fd.Kind() {
	case protoreflect.StringKind:
		if validatesUTF8(fd) {
			// As protobuf-go's Marshal: a string that must be valid UTF-8
			// on the wire is checked when written, not only when read (in
			// the same call: PutValidStringRev returns -1 for invalid).
			return []jen.Code{
				jen.If(jen.Id("i").Op("=").Add(rt("PutValidStringRev")).Call(jen.Id("b"), jen.Id("i"), v).Op(";").Id("i").Op("<").Lit(0)).Block(
					fail(rt("UTF8Error").Call(jen.Lit(-1), jen.Lit(string(fd.FullName()))))),
			}
		}
		return []jen.Code{jen.Id("i").Op("=").Add(rt("PutStringRev")).Call(jen.Id("b"), jen.Id("i"), v)}
	case protoreflect.BytesKind:
		return []jen.Code{jen.Id("i").Op("=").Add(rt("PutBytesRev")).Call(jen.Id("b"), jen.Id("i"), v)}
	case protoreflect.MessageKind, protoreflect.GroupKind:
		var out []jen.Code
		if fd.Kind() == protoreflect.GroupKind {
			out = append(out, putTag(fd.Number(), wire.EndGroupType)...)
		}
		block := []jen.Code{
			jen.List(jen.Id("n"), jen.Err()).Op(":=").Add(v).Dot("MarshalToSizedBuffer").Call(jen.Id("b").Index(jen.Empty(), jen.Id("i"))),
			jen.If(jen.Err().Op("!=").Nil()).Block(fail(nest)),
			jen.Id("i").Op("-=").Id("n"),
		}
		if fd.Kind() == protoreflect.MessageKind {
			block = append(block, jen.Id("i").Op("=").Add(rt("PutVarintRev")).Call(jen.Id("b"), jen.Id("i"), jen.Uint64().Call(jen.Id("n"))))
		}
		// n and err need no block of their own: every caller puts the value
		// inside an if or for statement that holds no other message value.
		return append(out, block...)
	}
	switch wirekind.Of(fd.Kind()) {
	case wire.VarintType:
		return []jen.Code{jen.Id("i").Op("=").Add(rt("PutVarintRev")).Call(jen.Id("b"), jen.Id("i"), toWire(fd.Kind(), v))}
	case wire.Fixed32Type:
		return []jen.Code{jen.Id("i").Op("=").Add(rt("PutFixed32Rev")).Call(jen.Id("b"), jen.Id("i"), toWire(fd.Kind(), v))}
	case wire.Fixed64Type:
		return []jen.Code{jen.Id("i").Op("=").Add(rt("PutFixed64Rev")).Call(jen.Id("b"), jen.Id("i"), toWire(fd.Kind(), v))}
	}
	panic("putValue: " + fd.Kind().String())
}

// nestAt is the error re-rooting an error err from a nested message at the
// singular (or oneof member) field fd, for putValue.
func nestAt(fd protoreflect.FieldDescriptor) jen.Code {
	return rt("Nest").Call(jen.Err(), jen.Lit(-1), jen.Lit(string(fd.Name())))
}

// putField writes one value and its tag backward.
func putField(fd protoreflect.FieldDescriptor, v jen.Code, nest jen.Code) []jen.Code {
	out := putValue(fd, v, nest)
	return append(out, putTag(fd.Number(), wirekind.Of(fd.Kind()))...)
}

// isNonZero is the implicit-presence test: a field is written when this
// holds. Floats compare by bit pattern, so -0.0 is written and +0.0 is not.
func isNonZero(fd protoreflect.FieldDescriptor, v jen.Code) *jen.Statement {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return jen.Add(v)
	case protoreflect.StringKind, protoreflect.BytesKind:
		return jen.Len(v).Op(">").Lit(0)
	case protoreflect.FloatKind:
		return jen.Qual("math", "Float32bits").Call(v).Op("!=").Lit(0)
	case protoreflect.DoubleKind:
		return jen.Qual("math", "Float64bits").Call(v).Op("!=").Lit(0)
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return jen.Add(v).Op("!=").Nil()
	}
	return jen.Add(v).Op("!=").Lit(0)
}

// genMethods prints the methods of a message besides its accessors and
// its ProtoJSON and text methods: the binary codec, Reset, Clone, Equal,
// each family when the features= option asks for it.
func (g *generator) genMethods(jf *jen.File, mn *messageNames) {
	if g.has(FeatureSize) {
		g.genSize(jf, mn)
	}
	if g.has(FeatureMarshal) {
		g.genMarshal(jf, mn)
	}
	if g.has(FeatureUnmarshal) {
		g.genUnmarshal(jf, mn)
		if mn.opaque && g.validated(mn.desc) {
			g.genValidate(jf, mn)
		}
	}
	g.genRequired(jf, mn)
	g.genReset(jf, mn)
	if g.has(FeatureClone) {
		g.genClone(jf, mn)
	}
	if g.has(FeatureEqual) {
		g.genEqual(jf, mn)
	}
	g.genExtendable(jf, mn)
}

// has reports whether the features= option asks for every family in f.
func (g *generator) has(f Features) bool { return g.opts.Features.Has(f) }

func recv(mn *messageNames) *jen.Statement { return jen.Id("m").Op("*").Id(mn.goName) }

func mf(fn *fieldNames) *jen.Statement { return jen.Id("m").Dot(fn.goName) }

func (g *generator) genSize(jf *jen.File, mn *messageNames) {
	// A lazy field is sized from its pending encoding when Marshal
	// writes that as it is (sizeLazy), else decoded first.
	body := []jen.Code{jen.If(jen.Id("m").Op("==").Nil()).Block(jen.Return(jen.Lit(0)))}
	// Implicit-presence bools, by the length of their tag: a record is the
	// tag and one byte, so each group adds (tag length + 1) times the
	// number of true bools, counted without a branch (wire.EncodeBool is a
	// zero-extension): two instructions a bool instead of three.
	var bools [6][]jen.Code
	for _, fn := range mn.fields {
		fd := fn.desc
		f := mf(fn)
		switch fn.storage() {
		case stBit:
			body = append(body, jen.If(hasBit(jen.Id("m"), fn)).Block(jen.Id("n").Op("+=").Add(fieldSize(fd, f))))
		case stImplicit:
			if fd.Kind() == protoreflect.BoolKind {
				t := len(tagBytes(fd.Number(), wire.VarintType))
				bools[t] = append(bools[t], f)
				continue
			}
			body = append(body, jen.If(isNonZero(fd, f)).Block(jen.Id("n").Op("+=").Add(fieldSize(fd, f))))
		case stPointer:
			body = append(body, jen.If(f.Clone().Op("!=").Nil()).Block(jen.Id("n").Op("+=").Add(fieldSize(fd, jen.Op("*").Add(f)))))
		case stBytes, stMessage:
			if fn.lazy {
				body = append(body, g.sizeLazy(fn)...)
				continue
			}
			body = append(body, jen.If(f.Clone().Op("!=").Nil()).Block(jen.Id("n").Op("+=").Add(fieldSize(fd, f))))
		case stRepeated:
			body = append(body, g.sizeRepeated(fn)...)
		case stMap:
			k, v := fd.MapKey(), fd.MapValue()
			entry := jen.Lit(len(tagBytes(fd.Number(), wire.BytesType))).Op("+").Add(rt("SizeBytes")).Call(
				fieldSize(k, jen.Id("k")).Op("+").Add(fieldSize(v, jen.Id("v"))))
			var vars []jen.Code
			switch kUsed, vUsed := sizeDependsOnValue(k), sizeDependsOnValue(v); {
			case kUsed && vUsed:
				vars = []jen.Code{jen.Id("k"), jen.Id("v")}
			case kUsed:
				vars = []jen.Code{jen.Id("k")}
			case vUsed:
				vars = []jen.Code{jen.Id("_"), jen.Id("v")}
			default:
				// Fixed-size entries: no loop needed.
				body = append(body, jen.Id("n").Op("+=").Len(f).Op("*").Parens(entry))
				continue
			}
			body = append(body, jen.For(jen.List(vars...).Op(":=").Range().Add(f)).Block(jen.Id("n").Op("+=").Add(entry)))
		case stOneof:
			if fn.oneof.fields[0] != fn {
				continue
			}
			// A nil wrapper pointer is no member, as in protobuf-go.
			body = append(body, oneofSwitch("x", jen.Id("m").Dot(fn.oneof.goName), fn.oneof, func(m *fieldNames) []jen.Code {
				return []jen.Code{jen.Id("n").Op("+=").Add(fieldSize(m.desc, jen.Id("x").Dot(m.goName)))}
			}))
		}
	}
	for t, fs := range bools {
		switch len(fs) {
		case 0:
		case 1:
			body = append(body, jen.If(fs[0]).Block(jen.Id("n").Op("+=").Lit(t+1)))
		default:
			var sum *jen.Statement
			for k, f := range fs {
				if k == 0 {
					sum = rt("EncodeBool").Call(f)
				} else {
					sum = sum.Op("+").Add(rt("EncodeBool").Call(f))
				}
			}
			body = append(body, jen.Id("n").Op("+=").Lit(t+1).Op("*").Int().Call(sum))
		}
	}
	if !g.opts.DropUnknown {
		// Spelled out, not a wire helper: the inlined helper costs an
		// instruction more on the common path (no unknown fields).
		body = append(body, jen.If(jen.Id("m").Dot("unknownFields").Op("!=").Nil()).Block(
			jen.Id("n").Op("+=").Len(jen.Op("*").Id("m").Dot("unknownFields"))))
	}
	body = append(body, jen.Return(jen.Id("n")))
	methodDoc(jf, "Size is the length in bytes of m's wire encoding")
	jf.Func().Params(recv(mn)).Id("Size").Params().Params(jen.Id("n").Int()).Block(body...)
	jf.Line()
}

func (g *generator) sizeRepeated(fn *fieldNames) []jen.Code {
	fd := fn.desc
	f := mf(fn)
	tag := len(tagBytes(fd.Number(), wirekind.Of(fd.Kind())))
	if fd.IsPacked() {
		var elems *jen.Statement
		switch wirekind.Of(fd.Kind()) {
		case wire.Fixed32Type:
			elems = jen.Id("l").Op(":=").Lit(4).Op("*").Len(f)
		case wire.Fixed64Type:
			elems = jen.Id("l").Op(":=").Lit(8).Op("*").Len(f)
		default:
			if fd.Kind() == protoreflect.BoolKind {
				elems = jen.Id("l").Op(":=").Len(f)
			}
		}
		var body []jen.Code
		if elems != nil {
			body = append(body, elems)
		} else {
			body = append(body, jen.Id("l").Op(":=").Lit(0),
				jen.For(jen.List(jen.Id("_"), jen.Id("x")).Op(":=").Range().Add(f)).Block(
					jen.Id("l").Op("+=").Add(valueSize(fd, jen.Id("x")))))
		}
		lenTag := len(tagBytes(fd.Number(), wire.BytesType))
		body = append(body, jen.Id("n").Op("+=").Lit(lenTag).Op("+").Add(rt("SizeBytes")).Call(jen.Id("l")))
		return []jen.Code{jen.If(jen.Len(f).Op(">").Lit(0)).Block(body...)}
	}
	switch wirekind.Of(fd.Kind()) {
	case wire.Fixed32Type:
		return []jen.Code{jen.Id("n").Op("+=").Len(f).Op("*").Lit(tag + 4)}
	case wire.Fixed64Type:
		return []jen.Code{jen.Id("n").Op("+=").Len(f).Op("*").Lit(tag + 8)}
	}
	if fd.Kind() == protoreflect.BoolKind {
		return []jen.Code{jen.Id("n").Op("+=").Len(f).Op("*").Lit(tag + 1)}
	}
	return []jen.Code{jen.For(jen.List(jen.Id("_"), jen.Id("x")).Op(":=").Range().Add(f)).Block(
		jen.Id("n").Op("+=").Add(fieldSize(fd, jen.Id("x"))))}
}

func (g *generator) genMarshal(jf *jen.File, mn *messageNames) {
	g.emitText(jf, g.expand(make([]byte, 0, 1024), marshalWrappers, mn), "slices")

	// Each message checks its own required fields as it is written, so
	// Marshal covers the whole tree in the one pass. A nil m (an absent
	// singular field is never written) is an element, map value or oneof
	// member: an empty message, which lacks all its required fields.
	body := []jen.Code{jen.If(jen.Id("m").Op("==").Nil()).Block(fail(jen.Nil()))}
	if hasRequired(mn) {
		// missingRequired fails for a nil m.
		body = []jen.Code{jen.If(jen.Err().Op(":=").Id("m").Dot("missingRequired").Call().Op(";").Err().Op("!=").Nil()).Block(
			fail(jen.Err()))}
	}
	if g.opts.DropUnknown {
		body = append(body, jen.Id("i").Op(":=").Len(jen.Id("b")))
	} else {
		body = append(body, jen.Id("i").Op(":=").Add(rt("PutUnknownRev")).Call(jen.Id("b"), jen.Len(jen.Id("b")), jen.Id("m").Dot("unknownFields")))
	}
	fields := sortedFields(mn)
	for k := len(fields) - 1; k >= 0; k-- {
		body = append(body, g.marshalField(fields[k])...)
	}
	body = append(body, jen.Return(jen.Len(jen.Id("b")).Op("-").Id("i"), jen.Nil()))
	methodDoc(jf, "MarshalToSizedBuffer writes m's encoding backward at the end of b")
	jf.Func().Params(recv(mn)).Id("MarshalToSizedBuffer").Params(jen.Id("b").Index().Byte()).Params(jen.Int(), jen.Error()).Block(body...)
	jf.Line()
}

func (g *generator) marshalField(fn *fieldNames) []jen.Code {
	fd := fn.desc
	f := mf(fn)
	nest := nestAt(fd)
	switch fn.storage() {
	case stBit:
		return []jen.Code{jen.If(hasBit(jen.Id("m"), fn)).Block(putField(fd, f, nest)...)}
	case stImplicit:
		return []jen.Code{jen.If(isNonZero(fd, f)).Block(putField(fd, f, nest)...)}
	case stPointer:
		return []jen.Code{jen.If(f.Clone().Op("!=").Nil()).Block(putField(fd, jen.Op("*").Add(f), nest)...)}
	case stBytes, stMessage:
		if fn.lazy {
			return g.marshalLazy(fn)
		}
		return []jen.Code{jen.If(f.Clone().Op("!=").Nil()).Block(putField(fd, f, nest)...)}
	case stOneof:
		// A nil wrapper pointer is no member, as in protobuf-go.
		return []jen.Code{jen.If(jen.List(jen.Id("x"), jen.Id("ok")).Op(":=").Id("m").Dot(fn.oneof.goName).Assert(jen.Op("*").Id(fn.wrapper)).Op(";").Id("ok").Op("&&").Id("x").Op("!=").Nil()).Block(
			putField(fd, jen.Id("x").Dot(fn.goName), nest)...)}
	case stRepeated:
		elem := f.Clone().Index(jen.Id("k"))
		loop := func(body []jen.Code) *jen.Statement {
			return jen.For(jen.Id("k").Op(":=").Len(f).Op("-").Lit(1), jen.Id("k").Op(">=").Lit(0), jen.Id("k").Op("--")).Block(body...)
		}
		if fd.IsPacked() {
			body := []jen.Code{
				jen.Id("j").Op(":=").Id("i"),
				loop(putValue(fd, elem, nest)),
				jen.Id("i").Op("=").Add(rt("PutVarintRev")).Call(jen.Id("b"), jen.Id("i"), jen.Uint64().Call(jen.Id("j").Op("-").Id("i"))),
			}
			body = append(body, putTag(fd.Number(), wire.BytesType)...)
			return []jen.Code{jen.If(jen.Len(f).Op(">").Lit(0)).Block(body...)}
		}
		return []jen.Code{loop(putField(fd, elem, rt("NestIndex").Call(jen.Err(), jen.Lit(string(fd.Name())), jen.Id("k"))))}
	case stMap:
		return g.marshalMap(fn)
	}
	panic("marshalField")
}

func (g *generator) marshalMap(fn *fieldNames) []jen.Code {
	fd := fn.desc
	f := mf(fn)
	k, v := fd.MapKey(), fd.MapValue()
	entry := []jen.Code{
		jen.Id("v").Op(":=").Add(f).Index(jen.Id("key")),
		jen.Id("j").Op(":=").Id("i"),
	}
	entry = append(entry, putField(v, jen.Id("v"), rt("NestKey").Call(jen.Err(), jen.Lit(string(fd.Name())), jen.Id("key")))...)
	entry = append(entry, putField(k, jen.Id("key"), nil)...)
	entry = append(entry, jen.Id("i").Op("=").Add(rt("PutVarintRev")).Call(jen.Id("b"), jen.Id("i"), jen.Uint64().Call(jen.Id("j").Op("-").Id("i"))))
	entry = append(entry, putTag(fd.Number(), wire.BytesType)...)
	if k.Kind() == protoreflect.BoolKind {
		// Written backward, so true first: the output has false, then true.
		return []jen.Code{jen.For(jen.List(jen.Id("_"), jen.Id("key")).Op(":=").Range().Index(jen.Lit(2)).Bool().Values(jen.True(), jen.False())).Block(
			append([]jen.Code{jen.If(jen.List(jen.Id("_"), jen.Id("ok")).Op(":=").Add(f).Index(jen.Id("key")).Op(";").Op("!").Id("ok")).Block(jen.Continue())}, entry...)...)}
	}
	return []jen.Code{jen.If(jen.Len(f).Op(">").Lit(0)).Block(
		jen.Id("keys").Op(":=").Make(jen.Index().Add(g.elemType(k)), jen.Lit(0), jen.Len(f)),
		jen.For(jen.Id("key").Op(":=").Range().Add(f)).Block(jen.Id("keys").Op("=").Append(jen.Id("keys"), jen.Id("key"))),
		jen.Qual("slices", "Sort").Call(jen.Id("keys")),
		jen.For(jen.Id("k").Op(":=").Len(jen.Id("keys")).Op("-").Lit(1), jen.Id("k").Op(">=").Lit(0), jen.Id("k").Op("--")).Block(
			append([]jen.Code{jen.Id("key").Op(":=").Id("keys").Index(jen.Id("k"))}, entry...)...),
	)}
}

func hasRequired(mn *messageNames) bool {
	for _, fn := range mn.fields {
		if fn.desc.Cardinality() == protoreflect.Required {
			return true
		}
	}
	return false
}

// genRequired prints CheckInitialized, and for a message with required
// fields of its own, missingRequired.
//
// Required fields are checked as protobuf does: once, on a whole message,
// not per wire occurrence (a sub-message may arrive in several pieces that
// the parser merges; only the merged value must be complete). Unmarshal
// and UnmarshalDepth call CheckInitialized after decoding; Marshal checks
// each message as it writes it. CheckInitialized visits only the fields
// whose message type can contain a required field somewhere inside
// (canRequire), so a message that cannot gets an empty method and pays
// nothing.
func (g *generator) genRequired(jf *jen.File, mn *messageNames) {
	if hasRequired(mn) {
		var names []jen.Code
		body := []jen.Code{jen.Var().Id("missing").Index().String()}
		for _, fn := range mn.fields {
			if fn.desc.Cardinality() != protoreflect.Required {
				continue
			}
			name := jen.Lit(string(fn.desc.FullName()))
			names = append(names, name)
			missing := mf(fn).Op("==").Nil()
			if fn.storage() == stBit {
				missing = jen.Op("!").Parens(hasBit(jen.Id("m"), fn))
			}
			body = append(body, jen.If(missing).Block(
				jen.Id("missing").Op("=").Append(jen.Id("missing"), name)))
		}
		required := func(fn *fieldNames) bool { return fn.desc.Cardinality() == protoreflect.Required }
		body = append(append(forceLazyIf(mn, required, "m"), jen.If(jen.Id("m").Op("==").Nil()).Block(
			jen.Return(rt("RequiredError").Call(jen.Index().String().Values(names...))))), body...)
		body = append(body,
			jen.If(jen.Len(jen.Id("missing")).Op("==").Lit(0)).Block(jen.Return(jen.Nil())),
			jen.Return(rt("RequiredError").Call(jen.Id("missing"))),
		)
		jf.Comment("// missingRequired names the required fields of m itself that are not set (all, for nil).")
		jf.Func().Params(recv(mn)).Id("missingRequired").Params().Error().Block(body...)
		jf.Line()
	}

	if !g.canRequire(mn.desc) {
		g.emitText(jf, g.expand(make([]byte, 0, 256), checkInitializedNil, mn))
		return
	}
	methodDoc(jf, "CheckInitialized reports a required field unset in m or a message inside it")
	var body []jen.Code
	// check emits the check of v, returning the error re-rooted by nest.
	check := func(v, nest jen.Code) jen.Code {
		return jen.If(jen.Err().Op(":=").Add(v).Dot("CheckInitialized").Call().Op(";").Err().Op("!=").Nil()).Block(jen.Return(nest))
	}
	for _, fn := range sortedFields(mn) {
		fd := fn.desc
		name := string(fd.Name())
		f := mf(fn)
		switch st := fn.storage(); {
		case st == stMap:
			if v := fd.MapValue(); v.Message() == nil || !g.canRequire(v.Message()) {
				continue
			}
			// A nil value (an entry without one) is an empty message.
			body = append(body, jen.For(jen.List(jen.Id("k"), jen.Id("v")).Op(":=").Range().Add(f)).Block(
				check(jen.Id("v"), rt("NestKey").Call(jen.Err(), jen.Lit(name), jen.Id("k")))))
		case fd.Message() == nil || !g.canRequire(fd.Message()):
			continue
		case st == stMessage:
			body = append(body, jen.If(f.Clone().Op("!=").Nil()).Block(
				check(f, rt("Nest").Call(jen.Err(), jen.Lit(-1), jen.Lit(name)))))
		case st == stRepeated:
			body = append(body, jen.For(jen.List(jen.Id("k"), jen.Id("x")).Op(":=").Range().Add(f)).Block(
				check(jen.Id("x"), rt("NestIndex").Call(jen.Err(), jen.Lit(name), jen.Id("k")))))
		case st == stOneof:
			// A nil wrapper sets no member; a wrapper holding nil is an
			// empty message, as for protobuf-go.
			body = append(body, jen.If(jen.List(jen.Id("x"), jen.Id("ok")).Op(":=").Id("m").Dot(fn.oneof.goName).Assert(jen.Op("*").Id(fn.wrapper)).Op(";").Id("ok").Op("&&").Id("x").Op("!=").Nil()).Block(
				check(jen.Id("x").Dot(fn.goName), rt("Nest").Call(jen.Err(), jen.Lit(-1), jen.Lit(name)))))
		}
	}
	var head []jen.Code
	// allSet, for an opaque message whose required fields all have
	// presence bits, is true when every one is set: a test of the bitmap
	// small enough to inline where CheckInitialized is called, before
	// missingRequired's call and list.
	allSet := requiredBitsSet(mn)
	switch {
	case len(body) == 0 && allSet != nil:
		body = []jen.Code{
			jen.If(jen.Id("m").Op("!=").Nil().Op("&&").Add(allSet)).Block(jen.Return(jen.Nil())),
			jen.Return(jen.Id("m").Dot("missingRequired").Call()),
		}
	case len(body) == 0:
		// Only fields of its own to check (canRequire holds, so it has some).
		body = []jen.Code{jen.Return(jen.Id("m").Dot("missingRequired").Call())}
	case hasRequired(mn):
		head = []jen.Code{jen.If(jen.Err().Op(":=").Id("m").Dot("missingRequired").Call().Op(";").Err().Op("!=").Nil()).Block(
			jen.Return(jen.Err()))}
		if allSet != nil {
			head = []jen.Code{jen.If(jen.Id("m").Op("==").Nil().Op("||").Op("!").Parens(allSet)).Block(head...)}
		}
		fallthrough
	default:
		head = append(head, jen.If(jen.Id("m").Op("==").Nil()).Block(jen.Return(jen.Nil())))
		body = append(append(head, body...), jen.Return(jen.Nil()))
	}
	// Only the lazy fields whose type can lack a required field are
	// decoded: the others stay pending.
	canRequire := func(fn *fieldNames) bool { return g.canRequire(fn.desc.Message()) }
	body = append(forceLazyIf(mn, canRequire, "m"), body...)
	jf.Func().Params(recv(mn)).Id("CheckInitialized").Params().Error().Block(body...)
	jf.Line()
}

// requiredBitsSet is, for an opaque message whose required fields all
// have presence bits (stBit), the condition that they are all set in m
// (one masked compare per bitmap word); nil otherwise.
func requiredBitsSet(mn *messageNames) jen.Code {
	masks := map[int]uint32{}
	for _, fn := range mn.fields {
		if fn.desc.Cardinality() != protoreflect.Required {
			continue
		}
		if fn.storage() != stBit {
			return nil
		}
		i := fn.bit - 1
		masks[i/presenceWordBits] |= 1 << (i % presenceWordBits)
	}
	if len(masks) == 0 {
		return nil
	}
	words := make([]int, 0, len(masks))
	for w := range masks {
		words = append(words, w)
	}
	sort.Ints(words)
	var cond *jen.Statement
	for _, w := range words {
		mask := jen.Id(fmt.Sprintf("0x%x", masks[w]))
		c := jen.Id("m").Dot(presenceField).Index(jen.Lit(w)).Op("&").Add(mask).Op("==").Add(mask)
		if cond == nil {
			cond = c
		} else {
			cond = cond.Op("&&").Add(c)
		}
	}
	return cond
}

// canRequire reports whether a message of type md can hold a required
// field that is not set: md has one, or a message field of md (singular,
// repeated, oneof member, map value, group) has a type that can, at any
// depth. Cycles are followed; the answers are memoized per generator.
func (g *generator) canRequire(md protoreflect.MessageDescriptor) bool {
	if g.requireMemo == nil {
		g.requireMemo = map[protoreflect.FullName]bool{}
	}
	if v, ok := g.requireMemo[md.FullName()]; ok {
		return v
	}
	// A search over every type reachable from md: when it finds no
	// required field, none of those types (whose reach is within md's)
	// can hold one either, so all are memoized false.
	seen := map[protoreflect.FullName]bool{}
	var found bool
	var walk func(md protoreflect.MessageDescriptor)
	walk = func(md protoreflect.MessageDescriptor) {
		if found || seen[md.FullName()] {
			return
		}
		if v, ok := g.requireMemo[md.FullName()]; ok {
			found = v
			return
		}
		seen[md.FullName()] = true
		fields := md.Fields()
		for i := 0; i < fields.Len() && !found; i++ {
			fd := fields.Get(i)
			if fd.Cardinality() == protoreflect.Required {
				found = true
				return
			}
			if fd.IsMap() {
				fd = fd.MapValue()
			}
			if sub := fd.Message(); sub != nil {
				walk(sub)
			}
		}
	}
	walk(md)
	if found {
		g.requireMemo[md.FullName()] = true
		return true
	}
	for name := range seen {
		g.requireMemo[name] = false
	}
	return false
}

func (g *generator) genUnmarshal(jf *jen.File, mn *messageNames) {
	g.emitText(jf, g.expand(make([]byte, 0, 256), unmarshalWrapper, mn), RuntimeImportPath)

	var cases []jen.Code
	for _, fn := range sortedFields(mn) {
		cases = append(cases, jen.Case(jen.Lit(int(fn.desc.Number()))).Block(g.unmarshalField(fn)...))
	}
	// A message with fields numbered 16 to 2047 decodes their two-byte
	// tags inline too: a second byte of 1 to 0x7f makes a field number of
	// 16 to 2047, always valid (0 would be an overlong one-byte tag, left
	// to ConsumeTag).
	twoByteTag := jen.Null()
	for _, fn := range mn.fields {
		if n := fn.desc.Number(); n >= 16 && n <= 2047 {
			twoByteTag = jen.Else().If(jen.Id("c").Op(">=").Lit(0x80).Op("&&").Id("i").Op("+").Lit(1).Op("<").Len(jen.Id("b")).Op("&&").Id("b").Index(jen.Id("i").Op("+").Lit(1)).Op("-").Lit(1).Op("<").Lit(0x7f)).Block(
				jen.List(jen.Id("num"), jen.Id("typ")).Op("=").List(
					jen.Int32().Call(jen.Id("b").Index(jen.Id("i").Op("+").Lit(1))).Op("<<").Lit(4).Op("|").Int32().Call(jen.Id("c").Op("&").Lit(0x7f)).Op(">>").Lit(3),
					rt("Type").Call(jen.Id("c").Op("&").Lit(7))),
				jen.Id("i").Op("+=").Lit(2),
			)
			break
		}
	}
	loop := []jen.Code{
		jen.Id("start").Op(":=").Id("i"),
		jen.Var().Id("num").Int32(),
		jen.Var().Id("typ").Add(rt("Type")),
		// Tags of fields 1 to 15 are one byte: decode those inline. c >= 8
		// excludes field number 0; wire types 6 and 7 are rejected by
		// ConsumeFieldValue below.
		jen.If(jen.Id("c").Op(":=").Id("b").Index(jen.Id("i")).Op(";").Id("c").Op("<").Lit(0x80).Op("&&").Id("c").Op(">=").Lit(8)).Block(
			jen.List(jen.Id("num"), jen.Id("typ")).Op("=").List(jen.Int32().Call(jen.Id("c").Op(">>").Lit(3)), rt("Type").Call(jen.Id("c").Op("&").Lit(7))),
			jen.Id("i").Op("++"),
		).Add(twoByteTag).Else().Block(
			jen.Var().Id("n").Int(),
			jen.List(jen.Id("num"), jen.Id("typ"), jen.Id("n")).Op("=").Add(rt("ConsumeTag")).Call(jen.Id("b").Index(jen.Id("i"), jen.Empty())),
			jen.If(jen.Id("n").Op("<").Lit(0)).Block(fail(rt("ErrorAt").Call(jen.Id("i"), jen.Id("n")))),
			jen.Id("i").Op("+=").Id("n"),
		),
	}
	if len(cases) > 0 {
		loop = append(loop, jen.Switch(jen.Id("num")).Block(cases...))
	}
	loop = append(loop,
		// An END_GROUP tag ends the group being decoded, if it is that
		// group's; anywhere else it is an error.
		jen.If(jen.Id("typ").Op("==").Add(rt("EndGroupType"))).Block(
			jen.If(jen.Id("num").Op("!=").Id("group").Op("||").Id("group").Op("==").Lit(0)).Block(
				fail(rt("EndGroupError").Call(jen.Id("group"), jen.Id("start")))),
			jen.Return(jen.Id("i"), jen.Nil()),
		),
		// An unknown field's groups are counted on their own (see
		// wire.MaxUnknownGroupDepth), not against depth.
		jen.Id("n").Op(":=").Add(rt("ConsumeFieldValue")).Call(jen.Id("num"), jen.Id("typ"), jen.Id("b").Index(jen.Id("i"), jen.Empty()), rt("MaxUnknownGroupDepth")),
		jen.If(jen.Id("n").Op("<").Lit(0)).Block(fail(rt("ErrorAt").Call(jen.Id("i"), jen.Id("n")))),
		jen.Id("i").Op("+=").Id("n"),
	)
	if !g.opts.DropUnknown && mn.opaque {
		// The opaque API takes the storage from the Decoder (see
		// wire.Decoder.AddUnknown).
		loop = append(loop, jen.Id("d").Dot("AddUnknown").Call(jen.Op("&").Id("m").Dot("unknownFields"), jen.Id("b").Index(jen.Id("start"), jen.Id("i"))))
	} else if !g.opts.DropUnknown {
		loop = append(loop, rt("AddUnknown").Call(jen.Op("&").Id("m").Dot("unknownFields"), jen.Id("b").Index(jen.Id("start"), jen.Id("i"))))
	} else {
		loop = append(loop, jen.Id("_").Op("=").Id("start"))
	}
	body := []jen.Code{
		// depth counts the levels still allowed, this message included,
		// as protobuf-go's RecursionLimit does.
		jen.If(jen.Id("depth").Op("<=").Lit(0)).Block(fail(jen.Op("&").Add(rt("Error")).Values(jen.Id("Err").Op(":").Add(rt("ErrDepth"))))),
		jen.For(jen.Id("i").Op(":=").Lit(0), jen.Id("i").Op("<").Len(jen.Id("b")), jen.Empty()).Block(loop...),
		jen.If(jen.Id("group").Op("!=").Lit(0)).Block(fail(rt("UnterminatedGroupError").Call(jen.Len(jen.Id("b"))))),
	}
	body = append(body, jen.Return(jen.Len(jen.Id("b")), jen.Nil()))
	// The opaque API sizes the Decoder's blocks from the input (see
	// wire.Decoder.SetInput). Only strings and messages are sized so
	// (stringSlow, New, NewIn); a message with neither decodes the same
	// without it, and then the Decoder, which nothing else stores to, is
	// dead once UnmarshalWith inlines: the open API's Flat0 Unmarshal
	// costs 124 instructions and the opaque one's 144 when it zeroed and
	// passed a Decoder for SetInput.
	setInput := mn.opaque && decodesInput(mn.desc)
	depth := unmarshalDepth
	switch {
	case setInput && g.canRequire(mn.desc):
		depth = unmarshalDepthInputRequired
	case setInput:
		depth = unmarshalDepthInput
	case g.canRequire(mn.desc):
		depth = unmarshalDepthRequired
	}
	t := g.expand(make([]byte, 0, 768), depth, mn)
	t = append(t, '\n', '\n')
	g.emitText(jf, g.expand(t, unmarshalWith, mn), RuntimeImportPath)
	if len(mn.fields) == 0 {
		// No field to decode: every field read is an unknown one.
		var u jen.Code = jen.Nil()
		if !g.opts.DropUnknown {
			u = jen.Op("&").Id("m").Dot("unknownFields")
		}
		body = []jen.Code{jen.Return(rt("UnmarshalEmpty").Call(u, jen.Id("b"), jen.Id("group"), jen.Id("depth")))}
	}
	methodDoc(jf, "UnmarshalGroup is UnmarshalWith for m as group number group (0: a message)")
	jf.Func().Params(recv(mn)).Id("UnmarshalGroup").Params(jen.Id("d").Op("*").Add(rt("Decoder")), jen.Id("b").Index().Byte(), jen.Id("group").Int32(), jen.Id("depth").Int()).Params(jen.Int(), jen.Error()).Block(body...)
	jf.Line()
}

// The binary codec's entry points (see expand).
const (
	marshalWrappers = `// Marshal returns the wire encoding of m (see wire: "Generated messages").
func (m *%T) Marshal() ([]byte, error) {
	b := make([]byte, m.Size())
	n, err := m.MarshalToSizedBuffer(b)
	if err != nil {
		return nil, err
	}
	return b[len(b)-n:], nil
}

// MarshalAppend appends the wire encoding of m to b (see wire: "Generated messages").
func (m *%T) MarshalAppend(b []byte) ([]byte, error) {
	start, size := len(b), m.Size()
	b = %SGrow(b, size)
	end := start + size
	if _, err := m.MarshalToSizedBuffer(b[:end]); err != nil {
		return b[:start], err
	}
	return b[:end], nil
}`
	unmarshalWrapper = `// Unmarshal replaces m with the message encoded in b (see wire: "Generated messages").
func (m *%T) Unmarshal(b []byte) error {
	m.Reset()
	return m.UnmarshalDepth(b, %WDefaultMaxDepth)
}`
	unmarshalDepthDoc = `// UnmarshalDepth merges the message in b into m, nesting at most depth levels (see wire: "Generated messages").
func (m *%T) UnmarshalDepth(b []byte, depth int) error {
	var d %WDecoder
`
	unmarshalDepth = unmarshalDepthDoc + `	return m.UnmarshalWith(&d, b, depth)
}`
	unmarshalDepthInput = unmarshalDepthDoc + `	d.SetInput(b)
	return m.UnmarshalWith(&d, b, depth)
}`
	unmarshalDepthRequiredTail = `	if err := m.UnmarshalWith(&d, b, depth); err != nil {
		return err
	}
	return m.CheckInitialized()
}`
	unmarshalDepthRequired      = unmarshalDepthDoc + unmarshalDepthRequiredTail
	unmarshalDepthInputRequired = unmarshalDepthDoc + "\td.SetInput(b)\n" + unmarshalDepthRequiredTail
	unmarshalWith               = `// UnmarshalWith is UnmarshalDepth allocating from d, not checking required fields (see wire: "Generated messages").
func (m *%T) UnmarshalWith(d *%WDecoder, b []byte, depth int) error {
	_, err := m.UnmarshalGroup(d, b, 0, depth)
	return err
}`
	checkInitializedNil = `// CheckInitialized reports a required field unset in m or a message inside it (see wire: "Generated messages").
func (m *%T) CheckInitialized() error {
	return nil
}`
)

// fail emits the return of err from UnmarshalGroup, with no bytes consumed.
func fail(err jen.Code) jen.Code {
	return jen.Return(jen.Lit(0), err)
}

// slabMethod is the wire.Decoder method that hands out a *T for a scalar of
// kind k (Int32 for int32, ..., StringPtr for string), or "" for enums, whose
// named types have no slab.
func slabMethod(k protoreflect.Kind) string {
	switch t := scalarGoType(k); t {
	case "":
		return ""
	case "string":
		return "StringPtr"
	default:
		return strings.ToUpper(t[:1]) + t[1:]
	}
}

// checkWire emits "if typ != T { break }": a value of the wrong wire type is
// kept as an unknown field, as the protobuf spec asks of parsers.
func checkWire(wt wire.Type) jen.Code {
	return jen.If(jen.Id("typ").Op("!=").Add(rt(wireTypeNames[wt]))).Block(jen.Break())
}

// consume emits the read of one non-message value of fd from buf[pos:] and
// returns the statements and the expression of the value they read (of the
// raw value x, which stays valid after the caller advances pos by n: see
// advance). Errors carry base+pos as offset.
func (g *generator) consume(fd protoreflect.FieldDescriptor, buf, pos string, base jen.Code) ([]jen.Code, *jen.Statement) {
	errAt := func() jen.Code {
		off := jen.Id(pos)
		if base != nil {
			off = jen.Add(base).Op("+").Id(pos)
		}
		return jen.If(jen.Id("n").Op("<").Lit(0)).Block(fail(rt("ErrorAt").Call(off, jen.Id("n"))))
	}
	if fd.Kind() == protoreflect.StringKind {
		// One call reads the length, checks the bytes (when they must be
		// UTF-8) and copies them (see wire.Decoder.ConsumeString).
		off := jen.Id(pos)
		if base != nil {
			off = jen.Add(base).Op("+").Id(pos)
		}
		read := jen.List(jen.Id("x"), jen.Id("n")).Op(":=").Id("d")
		if validatesUTF8(fd) {
			return []jen.Code{
				read.Dot("ConsumeValidString").Call(jen.Id(buf).Index(jen.Id(pos), jen.Empty())),
				jen.If(jen.Id("n").Op("<").Lit(0)).Block(fail(rt("StringErrorAt").Call(off, jen.Id("n"), jen.Lit(string(fd.FullName()))))),
			}, jen.Id("x")
		}
		return []jen.Code{
			read.Dot("ConsumeString").Call(jen.Id(buf).Index(jen.Id(pos), jen.Empty())),
			errAt(),
		}, jen.Id("x")
	}
	var fn string
	switch fd.Kind() {
	case protoreflect.BytesKind:
		fn = "ConsumeBytes"
	default:
		switch wirekind.Of(fd.Kind()) {
		case wire.VarintType:
			fn = "ConsumeVarint"
		case wire.Fixed32Type:
			fn = "ConsumeFixed32"
		case wire.Fixed64Type:
			fn = "ConsumeFixed64"
		}
	}
	raw := "x"
	out := []jen.Code{
		jen.List(jen.Id(raw), jen.Id("n")).Op(":=").Add(rt(fn)).Call(jen.Id(buf).Index(jen.Id(pos), jen.Empty())),
		errAt(),
	}
	if fd.Kind() == protoreflect.BytesKind {
		return out, jen.Append(jen.Index().Byte().Values(), jen.Id(raw).Op("..."))
	}
	return out, g.fromWire(fd, jen.Id(raw))
}

// advance emits pos += n, after a value read by consume.
func advance(pos string) jen.Code { return jen.Id(pos).Op("+=").Id("n") }

// closedEnumCheck is a condition true when v (an enum value) is not declared
// by fd's closed enum. The set is spelled out as ranges, so it needs no
// method on the enum type (which may live in another package).
func closedEnumCheck(fd protoreflect.FieldDescriptor, v jen.Code) jen.Code {
	ed := fd.Enum()
	if ed == nil || !ed.IsClosed() {
		return nil
	}
	var nums []int
	vals := ed.Values()
	for i := 0; i < vals.Len(); i++ {
		nums = append(nums, int(vals.Get(i).Number()))
	}
	sort.Ints(nums)
	var conds []jen.Code
	for i := 0; i < len(nums); {
		j := i
		for j+1 < len(nums) && nums[j+1] <= nums[j]+1 {
			j++
		}
		if nums[i] == nums[j] {
			conds = append(conds, jen.Add(v).Op("!=").Lit(nums[i]))
		} else {
			conds = append(conds, jen.Parens(jen.Add(v).Op("<").Lit(nums[i]).Op("||").Add(v).Op(">").Lit(nums[j])))
		}
		i = j + 1
	}
	out := jen.Add(conds[0])
	for _, c := range conds[1:] {
		out = out.Op("&&").Add(c)
	}
	return out
}

// unknownAdd keeps raw bytes as an unknown field (nothing under
// unknown_fields=drop).
func (g *generator) unknownAdd(raw jen.Code) jen.Code {
	if g.opts.DropUnknown {
		return jen.Null()
	}
	return rt("AddUnknown").Call(jen.Op("&").Id("m").Dot("unknownFields"), raw)
}

func (g *generator) unmarshalField(fn *fieldNames) []jen.Code {
	fd := fn.desc
	f := mf(fn)
	st := fn.storage()
	if st == stMap {
		return g.unmarshalMap(fn)
	}
	kind := fd.Kind()
	if kind == protoreflect.MessageKind || kind == protoreflect.GroupKind {
		return g.unmarshalMessage(fn)
	}
	wt := wirekind.Of(kind)
	var out []jen.Code
	if st == stRepeated && fd.IsPacked() || st == stRepeated && wt != wire.BytesType {
		// Packable: the decoder takes the packed and the expanded form.
		elem, x := g.consume(fd, "p", "j", jen.Id("off"))
		if c := closedEnumCheck(fd, jen.Id("v")); c != nil {
			elem = append(elem, jen.Id("v").Op(":=").Add(x), advance("j"), jen.If(c).Block(
				g.unknownAdd(rt("AppendVarint").Call(rt("AppendTag").Call(jen.Nil(), jen.Lit(int(fd.Number())), rt("VarintType")), jen.Uint64().Call(jen.Id("v")))),
				jen.Continue()),
				f.Clone().Op("=").Append(f, jen.Id("v")))
		} else {
			elem = append(elem, advance("j"), f.Clone().Op("=").Append(f, x))
		}
		var prealloc jen.Code = jen.Null()
		switch wt {
		case wire.Fixed32Type:
			prealloc = f.Clone().Op("=").Qual("slices", "Grow").Call(f, jen.Len(jen.Id("p")).Op("/").Lit(4))
		case wire.Fixed64Type:
			prealloc = f.Clone().Op("=").Qual("slices", "Grow").Call(f, jen.Len(jen.Id("p")).Op("/").Lit(8))
		case wire.VarintType:
			prealloc = f.Clone().Op("=").Qual("slices", "Grow").Call(f, rt("CountVarints").Call(jen.Id("p")))
		}
		out = append(out, jen.If(jen.Id("typ").Op("==").Add(rt("BytesType"))).Block(
			jen.List(jen.Id("p"), jen.Id("n")).Op(":=").Add(rt("ConsumeBytes")).Call(jen.Id("b").Index(jen.Id("i"), jen.Empty())),
			jen.If(jen.Id("n").Op("<").Lit(0)).Block(fail(rt("ErrorAt").Call(jen.Id("i"), jen.Id("n")))),
			jen.Id("off").Op(":=").Id("i").Op("+").Id("n").Op("-").Len(jen.Id("p")),
			prealloc,
			jen.For(jen.Id("j").Op(":=").Lit(0), jen.Id("j").Op("<").Len(jen.Id("p")), jen.Empty()).Block(
				elem...),
			jen.Id("i").Op("+=").Id("n"),
			jen.Continue(),
		))
	}
	out = append(out, checkWire(wt))
	read, x := g.consume(fd, "b", "i", nil)
	if fn.opaque && kind == protoreflect.BytesKind {
		// The opaque API carves bytes out of the Decoder's text blocks
		// (see wire.Decoder.ConsumeBytes).
		read = []jen.Code{
			jen.List(jen.Id("x"), jen.Id("n")).Op(":=").Id("d").Dot("ConsumeBytes").Call(jen.Id("b").Index(jen.Id("i"), jen.Empty())),
			jen.If(jen.Id("n").Op("<").Lit(0)).Block(fail(rt("ErrorAt").Call(jen.Id("i"), jen.Id("n")))),
		}
		x = jen.Id("x")
	}
	out = append(out, read...)
	// The value is stored straight from x unless it is checked first (a
	// closed enum) or its address is taken (an enum with explicit presence).
	v := x
	c := closedEnumCheck(fd, jen.Id("v"))
	if c != nil || st == stPointer && slabMethod(fd.Kind()) == "" {
		out = append(out, jen.Id("v").Op(":=").Add(x))
		v = jen.Id("v")
	}
	out = append(out, advance("i"))
	if c != nil {
		out = append(out, jen.If(c).Block(g.unknownAdd(jen.Id("b").Index(jen.Id("start"), jen.Id("i"))), jen.Continue()))
	}
	switch st {
	case stImplicit, stBytes:
		out = append(out, f.Clone().Op("=").Add(v))
	case stBit:
		out = append(out, f.Clone().Op("=").Add(v), setBit(jen.Id("m"), fn))
	case stPointer:
		if m := slabMethod(fd.Kind()); m != "" {
			out = append(out, f.Clone().Op("=").Id("d").Dot(m).Call(v))
		} else {
			out = append(out, f.Clone().Op("=").Op("&").Add(v))
		}
	case stRepeated:
		if fn.opaque && wt != wire.BytesType {
			// The opaque API carves repeated scalars out of the
			// Decoder's scalar arena (see wire.MakeSlice).
			out = append(out, jen.If(f.Clone().Op("==").Nil()).Block(
				f.Clone().Op("=").Add(rt("MakeSlice")).Types(g.elemType(fd)).Call(jen.Id("d"), rt("CountRun").Call(jen.Id("b").Index(jen.Id("start"), jen.Empty()), rt(wireTypeNames[wt])))))
		} else {
			out = append(out, presize(f, g.fieldType(fd), wt))
		}
		out = append(out, f.Clone().Op("=").Append(f, v))
	case stOneof:
		out = append(out, jen.Id("m").Dot(fn.oneof.goName).Op("=").Op("&").Id(fn.wrapper).Values(jen.Dict{jen.Id(fn.goName): v}))
	}
	return append(out, jen.Continue())
}

// presize emits, for the repeated field f of Go type typ whose element was
// just read as a field of wire type wt starting at b[start], the making of
// f with room for that element and the ones of the same field right after
// it (see wire.CountRun), when f is still nil: one allocation instead of
// one per doubling.
func presize(f *jen.Statement, typ jen.Code, wt wire.Type) jen.Code {
	return jen.If(f.Clone().Op("==").Nil()).Block(
		f.Clone().Op("=").Make(typ, jen.Lit(0), rt("CountRun").Call(jen.Id("b").Index(jen.Id("start"), jen.Empty()), rt(wireTypeNames[wt]))))
}

// subDecode emits the decode of a LEN-encoded message (or a group) for fd
// into target (an expression of type *T, already non-nil).
//
// nest builds the error returned for a failure inside the value, from the
// nested error (err) and the value's input offset (base).
func subDecode(fd protoreflect.FieldDescriptor, target jen.Code, nest func(base jen.Code) jen.Code) []jen.Code {
	if fd.Kind() == protoreflect.GroupKind {
		// One pass: the group's decoder finds its own END_GROUP tag.
		return []jen.Code{
			jen.List(jen.Id("n"), jen.Err()).Op(":=").Add(target).Dot("UnmarshalGroup").Call(jen.Id("d"), jen.Id("b").Index(jen.Id("i"), jen.Empty()), jen.Id("num"), jen.Id("depth").Op("-").Lit(1)),
			jen.If(jen.Err().Op("!=").Nil()).Block(
				fail(nest(jen.Id("i")))),
			jen.Id("i").Op("+=").Id("n"),
		}
	}
	return []jen.Code{
		jen.List(jen.Id("v"), jen.Id("n")).Op(":=").Add(rt("ConsumeBytes")).Call(jen.Id("b").Index(jen.Id("i"), jen.Empty())),
		jen.If(jen.Id("n").Op("<").Lit(0)).Block(fail(rt("ErrorAt").Call(jen.Id("i"), jen.Id("n")))),
		jen.If(jen.Err().Op(":=").Add(target).Dot("UnmarshalWith").Call(jen.Id("d"), jen.Id("v"), jen.Id("depth").Op("-").Lit(1)).Op(";").Err().Op("!=").Nil()).Block(
			fail(nest(jen.Id("i").Op("+").Id("n").Op("-").Len(jen.Id("v"))))),
		jen.Id("i").Op("+=").Id("n"),
	}
}

// slabSlot is the slot wire.NewIn looks in first for the slab of md's
// messages: the FNV-1a hash of md's full name, modulo 64 (the Decoder
// takes it modulo its own number of slots, 8), so that the few types of
// one decode seldom share a slot. It depends on the name alone, so a
// file's output does not change when another file's messages do.
func slabSlot(md protoreflect.MessageDescriptor) int {
	h := fnv.New32a()
	h.Write([]byte(md.FullName()))
	return int(h.Sum32() % 64)
}

func (g *generator) unmarshalMessage(fn *fieldNames) []jen.Code {
	fd := fn.desc
	f := mf(fn)
	path := string(fd.Name())
	nest := func(base jen.Code) jen.Code { return rt("Nest").Call(jen.Err(), base, jen.Lit(path)) }
	typ := g.msgType(fd.Message())
	// newMsg allocates a message of typ from the Decoder: the opaque API
	// sizes its slabs from the input and finds them at the type's slot
	// (see wire.NewIn).
	newMsg := func() jen.Code {
		if fn.opaque {
			return rt("NewIn").Types(typ).Call(jen.Id("d"), jen.Id("b").Index(jen.Id("i"), jen.Empty()), jen.Lit(slabSlot(fd.Message())))
		}
		return rt("New").Types(typ).Call(jen.Id("d"))
	}
	out := []jen.Code{checkWire(wirekind.Of(fd.Kind()))}
	switch fn.storage() {
	case stMessage:
		if fn.lazy {
			return append(out, g.unmarshalLazy(fn, fn.desc.ContainingMessage())...)
		}
		out = append(out, jen.If(f.Clone().Op("==").Nil()).Block(f.Clone().Op("=").Add(newMsg())))
		out = append(out, subDecode(fd, f, nest)...)
	case stRepeated:
		out = append(out, jen.Id("e").Op(":=").Add(newMsg()))
		// The element's index is len(f): it is appended once decoded.
		out = append(out, subDecode(fd, jen.Id("e"), func(base jen.Code) jen.Code {
			return rt("NestIndexAt").Call(jen.Err(), base, jen.Lit(path), jen.Len(f))
		})...)
		if fd.Kind() == protoreflect.MessageKind {
			out = append(out, presize(f, g.fieldType(fd), wire.BytesType))
		}
		if fd.Kind() == protoreflect.GroupKind && fn.opaque {
			// A run of groups cannot be counted ahead without decoding
			// them: a full slice grows from the input left (see
			// wire.AppendIn; the element is b[start:i] now). Otherwise
			// the element is appended in place: `f = append(f, e)` on
			// the field itself writes back only the length, where
			// assigning a call's result writes the slice's pointer too,
			// a pointer write per element that takes a write barrier
			// whenever the collector is marking (GoogleMessage2, opaque:
			// 1.96 M -> 1.88 M instructions per decode).
			out = append(out, jen.If(jen.Len(f).Op("<").Cap(f)).Block(
				f.Clone().Op("=").Append(f, jen.Id("e")),
			).Else().Block(
				f.Clone().Op("=").Add(rt("AppendIn")).Call(jen.Id("d"), f, jen.Id("e"), jen.Id("b"), jen.Id("start"), jen.Id("i")),
			))
		} else {
			out = append(out, f.Clone().Op("=").Append(f, jen.Id("e")))
		}
	case stOneof:
		// A second occurrence of the same member merges into it.
		out = append(out,
			jen.Var().Id("e").Op("*").Add(typ),
			jen.If(jen.List(jen.Id("w"), jen.Id("ok")).Op(":=").Id("m").Dot(fn.oneof.goName).Assert(jen.Op("*").Id(fn.wrapper)).Op(";").Id("ok").Op("&&").Id("w").Op("!=").Nil().Op("&&").Id("w").Dot(fn.goName).Op("!=").Nil()).Block(
				jen.Id("e").Op("=").Id("w").Dot(fn.goName),
			).Else().Block(
				jen.Id("e").Op("=").Add(newMsg()),
				jen.Id("m").Dot(fn.oneof.goName).Op("=").Op("&").Id(fn.wrapper).Values(jen.Dict{jen.Id(fn.goName): jen.Id("e")}),
			))
		out = append(out, subDecode(fd, jen.Id("e"), nest)...)
	}
	return append(out, jen.Continue())
}

func (g *generator) unmarshalMap(fn *fieldNames) []jen.Code {
	fd := fn.desc
	f := mf(fn)
	k, v := fd.MapKey(), fd.MapValue()
	path := string(fd.Name())
	keyRead, kx := g.consume(k, "p", "j", jen.Id("off"))
	keyRead = append(keyRead, advance("j"), jen.Id("key").Op("=").Add(kx))
	var valRead []jen.Code
	isMsg := v.Kind() == protoreflect.MessageKind
	if isMsg {
		// The entry is one level below m and its value message two, as
		// protobuf-go counts them (see wire.DefaultMaxDepth).
		valRead = []jen.Code{
			jen.List(jen.Id("x"), jen.Id("n")).Op(":=").Add(rt("ConsumeBytes")).Call(jen.Id("p").Index(jen.Id("j"), jen.Empty())),
			jen.If(jen.Id("n").Op("<").Lit(0)).Block(fail(rt("ErrorAt").Call(jen.Id("off").Op("+").Id("j"), jen.Id("n")))),
			jen.If(jen.Id("val").Op("==").Nil()).Block(jen.Id("val").Op("=").Add(rt("New")).Types(g.msgType(v.Message())).Call(jen.Id("d"))),
			// An error waits for the end of the entry, which may hold the
			// key after the value: its path names the key.
			jen.If(jen.Err().Op(":=").Id("val").Dot("UnmarshalWith").Call(jen.Id("d"), jen.Id("x"), jen.Id("depth").Op("-").Lit(2)).Op(";").Err().Op("!=").Nil()).Block(
				jen.Id("verr").Op("=").Add(rt("Nest")).Call(jen.Err(), jen.Id("off").Op("+").Id("j").Op("+").Id("n").Op("-").Len(jen.Id("x")), jen.Lit(""))),
			jen.Id("j").Op("+=").Id("n"),
		}
	} else {
		var vx *jen.Statement
		valRead, vx = g.consume(v, "p", "j", jen.Id("off"))
		valRead = append(valRead, advance("j"), jen.Id("val").Op("=").Add(vx))
	}
	entryLoop := jen.For(jen.Id("j").Op(":=").Lit(0), jen.Id("j").Op("<").Len(jen.Id("p")), jen.Empty()).Block(
		// The entry's tags are one byte (fields 1 and 2): decoded inline,
		// as in the message loop (wire types 6 and 7 fail in
		// ConsumeFieldValue below).
		jen.Var().Id("knum").Int32(),
		jen.Var().Id("ktyp").Add(rt("Type")),
		jen.If(jen.Id("c").Op(":=").Id("p").Index(jen.Id("j")).Op(";").Id("c").Op("<").Lit(0x80).Op("&&").Id("c").Op(">=").Lit(8)).Block(
			jen.List(jen.Id("knum"), jen.Id("ktyp")).Op("=").List(jen.Int32().Call(jen.Id("c").Op(">>").Lit(3)), rt("Type").Call(jen.Id("c").Op("&").Lit(7))),
			jen.Id("j").Op("++"),
		).Else().Block(
			jen.Var().Id("n").Int(),
			jen.List(jen.Id("knum"), jen.Id("ktyp"), jen.Id("n")).Op("=").Add(rt("ConsumeTag")).Call(jen.Id("p").Index(jen.Id("j"), jen.Empty())),
			jen.If(jen.Id("n").Op("<").Lit(0)).Block(fail(rt("ErrorAt").Call(jen.Id("off").Op("+").Id("j"), jen.Id("n")))),
			jen.Id("j").Op("+=").Id("n"),
		),
		jen.If(jen.Id("knum").Op("==").Lit(1).Op("&&").Id("ktyp").Op("==").Add(rt(wireTypeNames[wirekind.Of(k.Kind())]))).Block(
			append(keyRead, jen.Continue())...),
		jen.If(jen.Id("knum").Op("==").Lit(2).Op("&&").Id("ktyp").Op("==").Add(rt(wireTypeNames[wirekind.Of(v.Kind())]))).Block(
			append(valRead, jen.Continue())...),
		jen.Id("n").Op(":=").Add(rt("ConsumeFieldValue")).Call(jen.Id("knum"), jen.Id("ktyp"), jen.Id("p").Index(jen.Id("j"), jen.Empty()), rt("MaxUnknownGroupDepth")),
		jen.If(jen.Id("n").Op("<").Lit(0)).Block(fail(rt("ErrorAt").Call(jen.Id("off").Op("+").Id("j"), jen.Id("n")))),
		jen.Id("j").Op("+=").Id("n"),
	)
	out := []jen.Code{
		checkWire(wire.BytesType),
		jen.List(jen.Id("p"), jen.Id("n")).Op(":=").Add(rt("ConsumeBytes")).Call(jen.Id("b").Index(jen.Id("i"), jen.Empty())),
		jen.If(jen.Id("n").Op("<").Lit(0)).Block(fail(rt("ErrorAt").Call(jen.Id("i"), jen.Id("n")))),
		jen.Id("off").Op(":=").Id("i").Op("+").Id("n").Op("-").Len(jen.Id("p")),
		jen.Id("i").Op("+=").Id("n"),
		jen.Var().Id("key").Add(g.elemType(k)),
		jen.Var().Id("val").Add(g.elemType(v)),
	}
	if isMsg {
		out = append(out, jen.Var().Id("verr").Error())
	}
	out = append(out,
		entryLoop,
		// A map entry is a level of nesting (a message on the wire), even
		// with a scalar value. Its errors are reported once it is read, at
		// the path of its key (a value message at depth-2 < 0 fails at once).
		jen.If(jen.Id("depth").Op("<").Lit(2)).Block(fail(rt("NestKeyAt").Call(
			jen.Op("&").Add(rt("Error")).Values(jen.Id("Err").Op(":").Add(rt("ErrDepth"))), jen.Id("off"), jen.Lit(path), jen.Id("key")))),
	)
	if isMsg {
		out = append(out,
			jen.If(jen.Id("verr").Op("!=").Nil()).Block(fail(rt("NestKeyAt").Call(jen.Id("verr"), jen.Lit(0), jen.Lit(path), jen.Id("key")))),
			jen.If(jen.Id("val").Op("==").Nil()).Block(jen.Id("val").Op("=").Add(rt("New")).Types(g.msgType(v.Message())).Call(jen.Id("d"))))
	}
	if c := closedEnumCheck(v, jen.Id("val")); c != nil {
		// An undeclared closed-enum value sends the whole entry to the
		// unknown fields; the key stays absent.
		out = append(out, jen.If(c).Block(g.unknownAdd(jen.Id("b").Index(jen.Id("start"), jen.Id("i"))), jen.Continue()))
	}
	out = append(out,
		// Sized for the entries that follow this one (see wire.CountRun).
		jen.If(f.Clone().Op("==").Nil()).Block(f.Clone().Op("=").Make(g.fieldType(fd), rt("CountRun").Call(jen.Id("b").Index(jen.Id("start"), jen.Empty()), rt("BytesType")))),
		f.Clone().Index(jen.Id("key")).Op("=").Id("val"),
		jen.Continue(),
	)
	return out
}

// decodesInput reports whether decoding md can size a Decoder block from
// the input (see wire.Decoder.SetInput): md has a string field or a
// message field (a group, a map's entry) of its own.
func decodesInput(md protoreflect.MessageDescriptor) bool {
	fields := md.Fields()
	for i := range fields.Len() {
		switch fields.Get(i).Kind() {
		case protoreflect.StringKind, protoreflect.MessageKind, protoreflect.GroupKind:
			return true
		}
	}
	return false
}
