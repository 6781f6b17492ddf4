package gogen

import (
	"github.com/dave/jennifer/jen"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// This file prints Reset, Clone and Equal.

func (g *generator) genReset(jf *jen.File, mn *messageNames) {
	g.emitText(jf, g.expand(make([]byte, 0, 192), resetText, mn))
}

const resetText = `// Reset clears every field of m, unknown fields included (see wire: "Generated messages").
func (m *%T) Reset() {
	*m = %T{}
}`

// cloneValue is a deep copy of one value of fd.
func cloneValue(fd protoreflect.FieldDescriptor, v jen.Code) *jen.Statement {
	switch fd.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return jen.Add(v).Dot("Clone").Call()
	case protoreflect.BytesKind:
		return jen.Qual("bytes", "Clone").Call(v)
	}
	return jen.Add(v)
}

func (g *generator) genClone(jf *jen.File, mn *messageNames) {
	body := []jen.Code{
		jen.If(jen.Id("m").Op("==").Nil()).Block(jen.Return(jen.Nil())),
		jen.Id("c").Op(":=").New(jen.Id(mn.goName)),
		jen.Op("*").Id("c").Op("=").Op("*").Id("m"),
	}
	body = append(forceLazy(mn, "m"), body...)
	for _, fn := range mn.fields {
		fd := fn.desc
		f, cf := mf(fn), jen.Id("c").Dot(fn.goName)
		switch fn.storage() {
		case stBit:
			// The presence bits came with *c = *m.
			if fd.Kind() == protoreflect.BytesKind {
				body = append(body, cf.Clone().Op("=").Qual("bytes", "Clone").Call(f))
			}
		case stImplicit:
			if fd.Kind() == protoreflect.BytesKind {
				body = append(body, cf.Clone().Op("=").Qual("bytes", "Clone").Call(f))
			}
		case stPointer:
			body = append(body, jen.If(f.Clone().Op("!=").Nil()).Block(
				jen.Id("v").Op(":=").Op("*").Add(f),
				cf.Clone().Op("=").Op("&").Id("v")))
		case stBytes, stMessage:
			body = append(body, cf.Clone().Op("=").Add(cloneValue(fd, f)))
			if fn.lazy {
				// The getter decoded the bytes: the clone needs none.
				body = append(body, jen.Id("c").Dot(lazyName(fn)).Op("=").Nil())
			}
		case stRepeated:
			switch fd.Kind() {
			case protoreflect.MessageKind, protoreflect.GroupKind, protoreflect.BytesKind:
				body = append(body, jen.If(f.Clone().Op("!=").Nil()).Block(
					cf.Clone().Op("=").Make(g.fieldType(fd), jen.Len(f)),
					jen.For(jen.List(jen.Id("k"), jen.Id("v")).Op(":=").Range().Add(f)).Block(
						cf.Clone().Index(jen.Id("k")).Op("=").Add(cloneValue(fd, jen.Id("v"))))))
			default:
				body = append(body, cf.Clone().Op("=").Qual("slices", "Clone").Call(f))
			}
		case stMap:
			v := fd.MapValue()
			if v.Kind() == protoreflect.MessageKind || v.Kind() == protoreflect.BytesKind {
				body = append(body, jen.If(f.Clone().Op("!=").Nil()).Block(
					cf.Clone().Op("=").Make(g.fieldType(fd), jen.Len(f)),
					jen.For(jen.List(jen.Id("k"), jen.Id("v")).Op(":=").Range().Add(f)).Block(
						cf.Clone().Index(jen.Id("k")).Op("=").Add(cloneValue(v, jen.Id("v"))))))
			} else {
				body = append(body, cf.Clone().Op("=").Qual("maps", "Clone").Call(f))
			}
		case stOneof:
			if fn.oneof.fields[0] != fn {
				continue
			}
			// A nil wrapper pointer is no member: the copy has none.
			body = append(body,
				jen.Id("c").Dot(fn.oneof.goName).Op("=").Nil(),
				oneofSwitch("x", jen.Id("m").Dot(fn.oneof.goName), fn.oneof, func(m *fieldNames) []jen.Code {
					return []jen.Code{jen.Id("c").Dot(fn.oneof.goName).Op("=").Op("&").Id(m.wrapper).Values(jen.Dict{
						jen.Id(m.goName): cloneValue(m.desc, jen.Id("x").Dot(m.goName))})}
				}))
		}
	}
	if !g.opts.DropUnknown {
		body = append(body, jen.Id("c").Dot("unknownFields").Op("=").Add(rt("CloneUnknown")).Call(jen.Id("m").Dot("unknownFields")))
	}
	body = append(body, jen.Return(jen.Id("c")))
	methodDoc(jf, "Clone returns a deep copy of m")
	jf.Func().Params(recv(mn)).Id("Clone").Params().Op("*").Id(mn.goName).Block(body...)
	jf.Line()
}

// How a value being compared is held, for valuesDiffer.
type eqContext int

const (
	eqImplicit  eqContext = iota // a field with implicit presence: zero means unset
	eqPresent                    // a value known to be set: an explicit-presence field, oneof member, element or map value
	eqContainer                  // eqPresent, where a nil message is an empty one: list elements, map values, oneof members
)

// valuesDiffer is a condition true when two values of fd differ, as
// proto.Equal compares them (google.golang.org/protobuf v1.36, internal/impl
// and reflect/protoreflect equal.go). Floats are equal when both are NaN or
// when == holds; in an implicit-presence field the sign of zero is presence
// as well (-0 is set and encoded, +0 is not), so there -0 differs from +0.
// A message field compares presence and then contents (Equal), except in
// containers, where protobuf-go reads and writes a nil message as an empty
// one: there nil equals any message of size 0.
func valuesDiffer(fd protoreflect.FieldDescriptor, a, b jen.Code, ctx eqContext) *jen.Statement {
	switch fd.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		differ := jen.Op("!").Add(a).Dot("Equal").Call(b)
		if ctx == eqContainer {
			differ = differ.Op("&&").Op("!").Parens(
				jen.Add(a).Op("==").Nil().Op("&&").Add(b).Dot("Size").Call().Op("==").Lit(0).Op("||").
					Add(b).Op("==").Nil().Op("&&").Add(a).Dot("Size").Call().Op("==").Lit(0))
		}
		return differ
	case protoreflect.BytesKind:
		return jen.Op("!").Qual("bytes", "Equal").Call(a, b)
	case protoreflect.FloatKind, protoreflect.DoubleKind:
		isNaN := func(v jen.Code) *jen.Statement {
			if fd.Kind() == protoreflect.FloatKind {
				v = jen.Float64().Call(v)
			}
			return jen.Qual("math", "IsNaN").Call(v)
		}
		bothNaN := jen.Op("!").Parens(isNaN(a).Op("&&").Add(isNaN(b)))
		if ctx == eqImplicit {
			bits := "Float64bits"
			if fd.Kind() == protoreflect.FloatKind {
				bits = "Float32bits"
			}
			return jen.Qual("math", bits).Call(a).Op("!=").Qual("math", bits).Call(b).Op("&&").Add(bothNaN)
		}
		return jen.Add(a).Op("!=").Add(b).Op("&&").Add(bothNaN)
	}
	return jen.Add(a).Op("!=").Add(b)
}

func (g *generator) genEqual(jf *jen.File, mn *messageNames) {
	no := jen.Return(jen.False())
	body := []jen.Code{
		jen.If(jen.Id("m").Op("==").Id("o")).Block(jen.Return(jen.True())),
		jen.If(jen.Id("m").Op("==").Nil().Op("||").Id("o").Op("==").Nil()).Block(no),
	}
	body = append(forceLazy(mn, "m", "o"), body...)
	for _, fn := range mn.fields {
		fd := fn.desc
		f, of := mf(fn), jen.Id("o").Dot(fn.goName)
		switch fn.storage() {
		case stBit:
			// An unset field holds its zero value (see opaque.go), so
			// the values compare alike once the bits do.
			if fn.bit == 1 {
				body = append(body, jen.If(jen.Id("m").Dot(presenceField).Op("!=").Id("o").Dot(presenceField)).Block(no))
			}
			body = append(body, jen.If(valuesDiffer(fd, f, of, eqPresent)).Block(no))
		case stImplicit:
			body = append(body, jen.If(valuesDiffer(fd, f, of, eqImplicit)).Block(no))
		case stMessage:
			body = append(body, jen.If(valuesDiffer(fd, f, of, eqPresent)).Block(no))
		case stPointer:
			body = append(body, jen.If(jen.Parens(f.Clone().Op("==").Nil()).Op("!=").Parens(of.Clone().Op("==").Nil()).Op("||").
				Add(f).Op("!=").Nil().Op("&&").Add(valuesDiffer(fd, jen.Op("*").Add(f), jen.Op("*").Add(of), eqPresent))).Block(no))
		case stBytes:
			body = append(body, jen.If(jen.Parens(f.Clone().Op("==").Nil()).Op("!=").Parens(of.Clone().Op("==").Nil()).Op("||").
				Add(valuesDiffer(fd, f, of, eqPresent))).Block(no))
		case stRepeated:
			body = append(body,
				jen.If(jen.Len(f).Op("!=").Len(of)).Block(no),
				jen.For(jen.List(jen.Id("k"), jen.Id("v")).Op(":=").Range().Add(f)).Block(
					jen.If(valuesDiffer(fd, jen.Id("v"), of.Clone().Index(jen.Id("k")), eqContainer)).Block(no)))
		case stMap:
			body = append(body,
				jen.If(jen.Len(f).Op("!=").Len(of)).Block(no),
				jen.For(jen.List(jen.Id("k"), jen.Id("v")).Op(":=").Range().Add(f)).Block(
					jen.List(jen.Id("w"), jen.Id("ok")).Op(":=").Add(of).Index(jen.Id("k")),
					jen.If(jen.Op("!").Id("ok").Op("||").Add(valuesDiffer(fd.MapValue(), jen.Id("v"), jen.Id("w"), eqContainer))).Block(no)))
		case stOneof:
			if fn.oneof.fields[0] != fn {
				continue
			}
			body = append(body, equalOneof(fn.oneof, fn.oneof.desc.Index() == firstOneof(mn))...)
		}
	}
	if !g.opts.DropUnknown {
		body = append(body, jen.Return(rt("UnknownEqual").Call(jen.Id("m").Dot("unknownFields"), jen.Id("o").Dot("unknownFields"))))
	} else {
		body = append(body, jen.Return(jen.True()))
	}
	methodDoc(jf, "Equal reports whether m and o are equal, as proto.Equal defines it")
	jf.Func().Params(recv(mn)).Id("Equal").Params(jen.Id("o").Op("*").Id(mn.goName)).Bool().Block(body...)
	jf.Line()
}

// equalOneof compares a oneof of m and o: which member is set first, then
// its value. {count: 0} and {label: ""} differ although both getters return
// zero. A nil wrapper pointer ((*M_A)(nil)) counts as no member, as in
// protobuf-go.
//
// The statements use a variable set, which the first real oneof (first)
// declares and later ones assign.
func equalOneof(o *oneofNames, first bool) []jen.Code {
	no := jen.Return(jen.False())
	mo, oo := jen.Id("m").Dot(o.goName), jen.Id("o").Dot(o.goName)
	decl := jen.Id("set").Op("=").False()
	if first {
		decl = jen.Id("set").Op(":=").False()
	}
	return []jen.Code{
		decl,
		oneofSwitch("x", mo, o, func(m *fieldNames) []jen.Code {
			return []jen.Code{
				jen.Id("set").Op("=").True(),
				jen.List(jen.Id("y"), jen.Id("ok")).Op(":=").Add(oo).Assert(jen.Op("*").Id(m.wrapper)),
				jen.If(jen.Op("!").Id("ok").Op("||").Id("y").Op("==").Nil().Op("||").
					Add(valuesDiffer(m.desc, jen.Id("x").Dot(m.goName), jen.Id("y").Dot(m.goName), eqContainer))).Block(no),
			}
		}),
		// m has no member: neither may o.
		jen.If(jen.Op("!").Id("set").Op("&&").Add(oo).Op("!=").Nil()).Block(
			oneofSwitch("y", oo, o, func(*fieldNames) []jen.Code { return []jen.Code{no} })),
	}
}

// firstOneof is the index of mn's first real (not synthetic) oneof, or -1.
func firstOneof(mn *messageNames) int {
	for _, o := range mn.oneofs {
		if !o.desc.IsSynthetic() {
			return o.desc.Index()
		}
	}
	return -1
}

// oneofSwitch is "switch x := v.(type) { case *M_A: if x != nil { ... } ... }"
// over the members of o, x being the name given, with body(m) as member
// m's block. A nil wrapper pointer ((*M_A)(nil)) is no member, as in
// protobuf-go, so it runs no body.
func oneofSwitch(x string, v jen.Code, o *oneofNames, body func(m *fieldNames) []jen.Code) jen.Code {
	var cases []jen.Code
	for _, m := range o.fields {
		cases = append(cases, jen.Case(jen.Op("*").Id(m.wrapper)).Block(
			jen.If(jen.Id(x).Op("!=").Nil()).Block(body(m)...)))
	}
	return jen.Switch(jen.Id(x).Op(":=").Add(v).Assert(jen.Type())).Block(cases...)
}
