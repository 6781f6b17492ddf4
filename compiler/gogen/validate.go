package gogen

import (
	"github.com/dave/jennifer/jen"
	"github.com/protoplay/protoplay/compiler/internal/wirekind"
	"github.com/protoplay/protoplay/runtime/wire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// This file prints ValidateGroup, the validate-only pass over a message's
// encoding that Unmarshal runs on each occurrence of a lazy field (see
// lazy.go). Only the messages that a lazy field of their own file can
// reach have it (see validated): an opaque file without lazy fields
// prints none.
//
// ValidateGroup(b, group, depth) walks b as UnmarshalGroup(d, b, group,
// depth) would, allocating nothing, and returns the bytes it consumed, or
// -1 where UnmarshalGroup would fail (a bad tag, a truncated value, a bad
// varint, a packed field of partial elements, invalid UTF-8 in a string
// that must be valid, the depth limit, a bad or missing END_GROUP, the
// same in a sub-message, map entry or group at any depth). It is never
// more lenient than UnmarshalGroup: where it returns -1, Unmarshal decodes
// the occurrence into a scratch message to report UnmarshalGroup's own
// error (so the errors stay those of eager decoding, byte for byte).
// Required fields are not its concern: CheckInitialized decodes the lazy
// fields whose type can lack one.
//
// Its second result, canon, is true when Marshal of the decoded message
// writes b back unchanged, so that Marshal and Size of an untouched lazy
// field can copy its bytes: known fields in Marshal's order (sortedFields:
// the other fields by number, then each oneof's members), each once
// (repeated fields expanded as Marshal writes them, in one run), at most
// one member per oneof, tags, lengths and varints in the fewest bytes,
// varints in their type's range, implicit-presence fields not zero,
// declared closed-enum values, unknown fields only after the known ones,
// sub-messages and groups canonical themselves; and no map field, and no
// type that can lack a required field (Marshal reports those), where canon
// is always false. A false canon only costs a decode.

// validateMethod is the name of the validate-only pass.
const validateMethod = "ValidateGroup"

// hasValidate reports whether md's type, referenced from a message of
// the file being printed, certainly has ValidateGroup in this build: it
// is declared in the same file and printed with it (see validated).
func (g *generator) hasValidate(md, from protoreflect.MessageDescriptor) bool {
	return md.ParentFile().Path() == from.ParentFile().Path() && g.validated(md)
}

// validated reports whether md is printed with ValidateGroup in the
// current view: md is printed with the opaque API, and it is the type of
// a lazy field (see isLazy) declared in md's own file, or is reached from
// such a type through message fields (map values and groups included) of
// opaque messages of that file. The rule reads only md's file and the
// options, so a file's output does not depend on the files generated
// with it; the piece cache keys each message's answer (keyer.subtree,
// keyer.typeRef), since a lazy option elsewhere in the file changes it.
// A call of the validation of a type without the method (another file's,
// or one no lazy field of its file reaches) goes through an interface
// assertion, falling back to a scratch decode (validateCall).
func (g *generator) validated(md protoreflect.MessageDescriptor) bool {
	if !g.isOpaque(md) {
		return false
	}
	fd := md.ParentFile()
	key := validatedKey{fd.Path(), g.protoopaque}
	set, ok := g.validateSets[key]
	if !ok {
		set = g.validateSet(fd)
		if g.validateSets == nil {
			g.validateSets = map[validatedKey]map[protoreflect.FullName]bool{}
		}
		g.validateSets[key] = set
	}
	return set[md.FullName()]
}

// validatedKey identifies a file's set of messages with ValidateGroup in
// one view (protoopaque: see generator.protoopaque).
type validatedKey struct {
	path        string
	protoopaque bool
}

// validateSet returns the messages of fd that get ValidateGroup (see
// validated).
func (g *generator) validateSet(fd protoreflect.FileDescriptor) map[protoreflect.FullName]bool {
	set := map[protoreflect.FullName]bool{}
	var reach func(md protoreflect.MessageDescriptor)
	reach = func(md protoreflect.MessageDescriptor) {
		if md == nil || md.ParentFile().Path() != fd.Path() || set[md.FullName()] {
			return
		}
		if md.IsMapEntry() {
			reach(md.Fields().ByNumber(2).Message())
			return
		}
		if !g.isOpaque(md) {
			return
		}
		set[md.FullName()] = true
		for i := 0; i < md.Fields().Len(); i++ {
			reach(md.Fields().Get(i).Message())
		}
	}
	var roots func(mds protoreflect.MessageDescriptors)
	roots = func(mds protoreflect.MessageDescriptors) {
		for i := 0; i < mds.Len(); i++ {
			md := mds.Get(i)
			if !md.IsMapEntry() && g.isOpaque(md) {
				for j := 0; j < md.Fields().Len(); j++ {
					f := md.Fields().Get(j)
					od := f.ContainingOneof()
					if g.lazyCandidate(f, od != nil && !od.IsSynthetic()) {
						reach(f.Message())
					}
				}
			}
			roots(md.Messages())
		}
	}
	roots(fd.Messages())
	return set
}

// validateCall emits "k, c := <md's ValidateGroup>(buf, group, depth)":
// a direct call when md certainly has the method, else one through an
// interface assertion, falling back to a decode into a scratch message
// (c false) for a type without it (another file's open message).
func (g *generator) validateCall(md, from protoreflect.MessageDescriptor, buf, group, depth jen.Code) []jen.Code {
	args := []jen.Code{buf, group, depth}
	if g.hasValidate(md, from) {
		return []jen.Code{jen.List(jen.Id("k"), jen.Id("c")).Op(":=").Parens(jen.Op("*").Add(g.msgType(md))).Call(jen.Nil()).Dot(validateMethod).Call(args...)}
	}
	iface := jen.Interface(jen.Id(validateMethod).Params(jen.Index().Byte(), jen.Int32(), jen.Int()).Params(jen.Int(), jen.Bool()))
	return []jen.Code{
		jen.Var().Id("k").Int(),
		jen.Var().Id("c").Bool(),
		jen.If(jen.List(jen.Id("vx"), jen.Id("ok")).Op(":=").Any().Call(jen.Parens(jen.Op("*").Add(g.msgType(md))).Call(jen.Nil())).Assert(iface), jen.Id("ok")).Block(
			jen.List(jen.Id("k"), jen.Id("c")).Op("=").Id("vx").Dot(validateMethod).Call(args...),
		).Else().Block(
			jen.Var().Id("vd").Add(rt("Decoder")),
			jen.Var().Err().Error(),
			jen.If(jen.List(jen.Id("k"), jen.Err()).Op("=").New(g.msgType(md)).Dot("UnmarshalGroup").Call(jen.Op("&").Id("vd"), buf, group, depth), jen.Err().Op("!=").Nil()).Block(
				jen.Id("k").Op("=").Lit(-1)),
		),
	}
}

// varintClass is the wire.Varint* class of a varint field of kind k.
func varintClass(k protoreflect.Kind) string {
	switch k {
	case protoreflect.Int32Kind, protoreflect.EnumKind:
		return "VarintInt32"
	case protoreflect.Uint32Kind, protoreflect.Sint32Kind:
		return "VarintUint32"
	case protoreflect.BoolKind:
		return "VarintBool"
	}
	return "VarintAny"
}

// implicitPresence reports whether fd is written only when not zero.
func implicitPresence(fd protoreflect.FieldDescriptor) bool {
	return !fd.HasPresence() && !fd.IsList() && !fd.IsMap()
}

var invalid = jen.Return(jen.Lit(-1), jen.False())

// validateValue emits the check of one non-group value of fd at
// buf[pos:], declaring nv as its length (returning -1, false when it does
// not decode). With track, it also ANDs canon with the value's own
// canonical form (not its tag's). depth is the message's depth.
func (g *generator) validateValue(fd protoreflect.FieldDescriptor, from protoreflect.MessageDescriptor, buf, pos, nv string, depth jen.Code, track bool) []jen.Code {
	at := jen.Id(buf).Index(jen.Id(pos), jen.Empty())
	failIf := jen.If(jen.Id(nv).Op("<").Lit(0)).Block(invalid)
	canon := func(cond jen.Code) jen.Code {
		if !track {
			return jen.Null()
		}
		return jen.Id("canon").Op("=").Id("canon").Op("&&").Add(cond)
	}
	implicit := track && implicitPresence(fd)
	switch fd.Kind() {
	case protoreflect.MessageKind:
		out := []jen.Code{jen.List(jen.Id("x"), jen.Id(nv)).Op(":=").Add(rt("ConsumeBytes")).Call(at), failIf}
		out = append(out, g.validateCall(fd.Message(), from, jen.Id("x"), jen.Lit(0), depth)...)
		out = append(out, jen.If(jen.Id("k").Op("<").Lit(0)).Block(invalid))
		if track {
			out = append(out, canon(jen.Id("c").Op("&&").Id(nv).Op("==").Add(rt("SizeBytes")).Call(jen.Len(jen.Id("x")))))
		} else {
			out = append(out, jen.Id("_").Op("=").Id("c"))
		}
		return out
	case protoreflect.StringKind, protoreflect.BytesKind:
		x := "x"
		if !track && !validatesUTF8(fd) {
			x = "_"
		}
		out := []jen.Code{jen.List(jen.Id(x), jen.Id(nv)).Op(":=").Add(rt("ConsumeBytes")).Call(at), failIf}
		if validatesUTF8(fd) {
			out = append(out, jen.If(jen.Op("!").Add(rt("ValidUTF8")).Call(jen.Id("x"))).Block(invalid))
		}
		cond := jen.Id(nv).Op("==").Add(rt("SizeBytes")).Call(jen.Len(jen.Id("x")))
		if implicit {
			cond = cond.Op("&&").Len(jen.Id("x")).Op(">").Lit(0)
		}
		return append(out, canon(cond))
	}
	switch wirekind.Of(fd.Kind()) {
	case wire.VarintType:
		closed := closedEnumCheck(fd, jen.Int32().Call(jen.Id("x")))
		x := "x"
		if !track {
			x = "_"
		}
		out := []jen.Code{jen.List(jen.Id(x), jen.Id(nv)).Op(":=").Add(rt("ConsumeVarint")).Call(at), failIf}
		cond := rt("CanonVarint").Call(jen.Id("x"), jen.Id(nv), rt(varintClass(fd.Kind())))
		if implicit {
			cond = cond.Op("&&").Id("x").Op("!=").Lit(0)
		}
		out = append(out, canon(cond))
		if track && closed != nil {
			// An undeclared value goes to the unknown fields, which
			// Marshal writes last.
			out = append(out, jen.If(closed).Block(jen.Id("canon").Op("=").False()))
		}
		return out
	case wire.Fixed32Type, wire.Fixed64Type:
		fn := "ConsumeFixed32"
		if wirekind.Of(fd.Kind()) == wire.Fixed64Type {
			fn = "ConsumeFixed64"
		}
		x := "x"
		if !implicit {
			x = "_"
		}
		out := []jen.Code{jen.List(jen.Id(x), jen.Id(nv)).Op(":=").Add(rt(fn)).Call(at), failIf}
		if implicit {
			// Floats too: Marshal writes them when their bits are not 0.
			out = append(out, canon(jen.Id("x").Op("!=").Lit(0)))
		}
		return out
	}
	panic("validateValue: " + fd.Kind().String())
}

// genValidate prints mn's ValidateGroup (see the top of this file).
func (g *generator) genValidate(jf *jen.File, mn *messageNames) {
	md := mn.desc
	track := !g.canRequire(md)
	fields := sortedFields(mn)
	// rank is each field's place in Marshal's order; a oneof's members
	// share one, so that two of them are not canonical.
	rank := map[*fieldNames]int{}
	oneofRank := map[*oneofNames]int{}
	for _, fn := range fields {
		if fn.oneof != nil {
			r, ok := oneofRank[fn.oneof]
			if !ok {
				r = len(rank) + len(oneofRank) + 1
				oneofRank[fn.oneof] = r
			}
			rank[fn] = r
			continue
		}
		rank[fn] = len(rank) + len(oneofRank) + 1
	}
	depth := jen.Id("depth").Op("-").Lit(1)
	// order is the canonical test of a known field's tag (of wire type
	// wt; again: a repeated field's next element may follow), then the
	// update of last.
	order := func(fn *fieldNames, wt wire.Type, again bool) []jen.Code {
		if !track {
			return nil
		}
		op := "<"
		if again {
			op = "<="
		}
		r := rank[fn]
		return []jen.Code{
			jen.Id("canon").Op("=").Id("canon").Op("&&").Op("!").Id("unk").Op("&&").Id("n").Op("==").Lit(len(tagBytes(fn.desc.Number(), wt))).Op("&&").Id("last").Op(op).Lit(r),
			jen.Id("last").Op("=").Lit(r),
		}
	}
	var cases []jen.Code
	for _, fn := range fields {
		fd := fn.desc
		var body []jen.Code
		switch {
		case fd.IsMap():
			body = append(body, checkWire(wire.BytesType))
			if track {
				body = append(body, jen.Id("canon").Op("=").False())
			}
			body = append(body, g.validateMap(fd, md)...)
		case fd.Kind() == protoreflect.GroupKind:
			body = append(body, checkWire(wire.StartGroupType))
			body = append(body, order(fn, wire.StartGroupType, fd.IsList())...)
			body = append(body, g.validateCall(fd.Message(), md, jen.Id("b").Index(jen.Id("i"), jen.Empty()), jen.Id("num"), depth)...)
			body = append(body, jen.If(jen.Id("k").Op("<").Lit(0)).Block(invalid))
			if track {
				body = append(body, jen.Id("canon").Op("=").Id("canon").Op("&&").Id("c"))
			} else {
				body = append(body, jen.Id("_").Op("=").Id("c"))
			}
			body = append(body, jen.Id("i").Op("+=").Id("k"), jen.Continue())
		default:
			wt := wirekind.Of(fd.Kind())
			if fd.IsList() && wt != wire.BytesType {
				// The packed form, which the decoder takes whatever the
				// field's encoding.
				packed := []jen.Code{
					jen.List(jen.Id("p"), jen.Id("n")).Op(":=").Add(rt("ConsumeBytes")).Call(jen.Id("b").Index(jen.Id("i"), jen.Empty())),
					jen.If(jen.Id("n").Op("<").Lit(0)).Block(invalid),
					jen.List(jen.Id("ok"), jen.Id("c")).Op(":=").Add(rt("ValidatePacked")).Call(jen.Id("p"), rt(wireTypeNames[wt]), rt(varintClass(fd.Kind()))),
					jen.If(jen.Op("!").Id("ok")).Block(invalid),
				}
				if track {
					if fd.IsPacked() && closedEnumCheck(fd, jen.Id("v")) == nil {
						packed = append(packed, jen.Id("canon").Op("=").Id("canon").Op("&&").Id("c").Op("&&").Id("n").Op("==").Add(rt("SizeBytes")).Call(jen.Len(jen.Id("p"))))
					} else {
						// Expanded on the wire by Marshal, or holding
						// closed-enum values that may be undeclared.
						packed = append(packed, jen.Id("_").Op("=").Id("c"), jen.Id("canon").Op("=").False())
					}
				} else {
					packed = append(packed, jen.Id("_").Op("=").Id("c"))
				}
				packed = append(packed, jen.Id("i").Op("+=").Id("n"), jen.Continue())
				// The tag test is the LEN tag's (as long as the element
				// one: the wire type is in the low bits).
				body = append(body, jen.If(jen.Id("typ").Op("==").Add(rt("BytesType"))).Block(append(order(fn, wire.BytesType, false), packed...)...))
			}
			body = append(body, checkWire(wt))
			body = append(body, order(fn, wt, fd.IsList())...)
			if track && fd.IsList() && fd.IsPacked() {
				body = append(body, jen.Id("canon").Op("=").False())
			}
			body = append(body, g.validateValue(fd, md, "b", "i", "n", depth, track)...)
			body = append(body, jen.Id("i").Op("+=").Id("n"), jen.Continue())
		}
		cases = append(cases, jen.Case(jen.Lit(int(fd.Number()))).Block(body...))
	}

	loop := []jen.Code{
		jen.List(jen.Id("num"), jen.Id("typ"), jen.Id("n")).Op(":=").Add(rt("ConsumeTag")).Call(jen.Id("b").Index(jen.Id("i"), jen.Empty())),
		jen.If(jen.Id("n").Op("<").Lit(0)).Block(invalid),
		jen.Id("i").Op("+=").Id("n"),
	}
	if len(cases) > 0 {
		loop = append(loop, jen.Switch(jen.Id("num")).Block(cases...))
	}
	endCanon := jen.Id("canon").Op("&&").Id("n").Op("==").Add(rt("SizeTag")).Call(jen.Id("num"))
	if !track {
		endCanon = jen.False()
	}
	loop = append(loop,
		jen.If(jen.Id("typ").Op("==").Add(rt("EndGroupType"))).Block(
			jen.If(jen.Id("num").Op("!=").Id("group").Op("||").Id("group").Op("==").Lit(0)).Block(invalid),
			jen.Return(jen.Id("i"), endCanon),
		),
		jen.Id("n").Op("=").Add(rt("ConsumeFieldValue")).Call(jen.Id("num"), jen.Id("typ"), jen.Id("b").Index(jen.Id("i"), jen.Empty()), rt("MaxUnknownGroupDepth")),
		jen.If(jen.Id("n").Op("<").Lit(0)).Block(invalid),
		jen.Id("i").Op("+=").Id("n"),
	)
	var head []jen.Code
	var result jen.Code = jen.False()
	if track {
		result = jen.Id("canon")
		head = append(head, jen.Id("canon").Op(":=").True())
		if len(cases) > 0 {
			head = append(head, jen.List(jen.Id("last"), jen.Id("unk")).Op(":=").List(jen.Lit(0), jen.False()))
		}
		switch {
		case g.opts.DropUnknown:
			// Marshal drops them.
			loop = append(loop, jen.Id("canon").Op("=").False())
		case len(cases) > 0:
			loop = append(loop, jen.Id("unk").Op("=").True())
		}
	}
	body := []jen.Code{
		jen.If(jen.Id("depth").Op("<=").Lit(0)).Block(invalid),
	}
	body = append(body, head...)
	body = append(body,
		jen.For(jen.Id("i").Op(":=").Lit(0), jen.Id("i").Op("<").Len(jen.Id("b")), jen.Empty()).Block(loop...),
		jen.If(jen.Id("group").Op("!=").Lit(0)).Block(invalid),
		jen.Return(jen.Len(jen.Id("b")), result),
	)
	methodDoc(jf, validateMethod+" reports whether UnmarshalGroup decodes b (-1: no) and whether Marshal would write it back unchanged")
	jf.Func().Params(jen.Op("*").Id(mn.goName)).Id(validateMethod).Params(jen.Id("b").Index().Byte(), jen.Id("group").Int32(), jen.Id("depth").Int()).Params(jen.Int(), jen.Bool()).Block(body...)
	jf.Line()
}

// validateMap emits the check of one entry of the map field fd (its
// wire type checked), as unmarshalMap decodes it.
func (g *generator) validateMap(fd protoreflect.FieldDescriptor, from protoreflect.MessageDescriptor) []jen.Code {
	k, v := fd.MapKey(), fd.MapValue()
	entry := func(e protoreflect.FieldDescriptor, num int) jen.Code {
		wt := wirekind.Of(e.Kind())
		read := g.validateValue(e, from, "p", "j", "m", jen.Id("depth").Op("-").Lit(2), false)
		return jen.If(jen.Id("knum").Op("==").Lit(num).Op("&&").Id("ktyp").Op("==").Add(rt(wireTypeNames[wt]))).Block(
			append(read, jen.Id("j").Op("+=").Id("m"), jen.Continue())...)
	}
	return []jen.Code{
		jen.List(jen.Id("p"), jen.Id("n")).Op(":=").Add(rt("ConsumeBytes")).Call(jen.Id("b").Index(jen.Id("i"), jen.Empty())),
		jen.If(jen.Id("n").Op("<").Lit(0).Op("||").Id("depth").Op("<").Lit(2)).Block(invalid),
		jen.For(jen.Id("j").Op(":=").Lit(0), jen.Id("j").Op("<").Len(jen.Id("p")), jen.Empty()).Block(
			jen.List(jen.Id("knum"), jen.Id("ktyp"), jen.Id("m")).Op(":=").Add(rt("ConsumeTag")).Call(jen.Id("p").Index(jen.Id("j"), jen.Empty())),
			jen.If(jen.Id("m").Op("<").Lit(0)).Block(invalid),
			jen.Id("j").Op("+=").Id("m"),
			entry(k, 1),
			entry(v, 2),
			jen.Id("m").Op("=").Add(rt("ConsumeFieldValue")).Call(jen.Id("knum"), jen.Id("ktyp"), jen.Id("p").Index(jen.Id("j"), jen.Empty()), rt("MaxUnknownGroupDepth")),
			jen.If(jen.Id("m").Op("<").Lit(0)).Block(invalid),
			jen.Id("j").Op("+=").Id("m"),
		),
		jen.Id("i").Op("+=").Id("n"),
		jen.Continue(),
	}
}
