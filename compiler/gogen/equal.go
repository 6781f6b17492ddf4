package gogen

import (
	"github.com/dave/jennifer/jen"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// This file prints Reset, Clone and Equal.

func (g *generator) genReset(jf *jen.File, mn *messageNames) {
	jf.Comment("// Reset clears every field of m, unknown fields included.")
	jf.Func().Params(recv(mn)).Id("Reset").Params().Block(jen.Op("*").Id("m").Op("=").Id(mn.goName).Values())
	jf.Line()
}

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
	for _, fn := range mn.fields {
		fd := fn.desc
		f, cf := mf(fn), jen.Id("c").Dot(fn.goName)
		switch storageOf(fd) {
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
			var cases []jen.Code
			for _, m := range fn.oneof.fields {
				cases = append(cases, jen.Case(jen.Op("*").Id(m.wrapper)).Block(
					jen.Id("c").Dot(fn.oneof.goName).Op("=").Op("&").Id(m.wrapper).Values(jen.Dict{
						jen.Id(m.goName): cloneValue(m.desc, jen.Id("x").Dot(m.goName))})))
			}
			body = append(body, jen.Switch(jen.Id("x").Op(":=").Id("m").Dot(fn.oneof.goName).Assert(jen.Type())).Block(cases...))
		}
	}
	if !g.opts.DropUnknown {
		body = append(body, jen.Id("c").Dot("unknownFields").Op("=").Add(rt("CloneUnknown")).Call(jen.Id("m").Dot("unknownFields")))
	}
	body = append(body, jen.Return(jen.Id("c")))
	jf.Comment("// Clone returns a deep copy of m (nil for a nil m).")
	jf.Func().Params(recv(mn)).Id("Clone").Params().Op("*").Id(mn.goName).Block(body...)
	jf.Line()
}

// valuesDiffer is a condition true when two values of fd differ. Floats
// compare with ==, as IEEE 754 says: NaN differs from itself, -0 equals +0.
func valuesDiffer(fd protoreflect.FieldDescriptor, a, b jen.Code) *jen.Statement {
	switch fd.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return jen.Op("!").Add(a).Dot("Equal").Call(b)
	case protoreflect.BytesKind:
		return jen.Op("!").Qual("bytes", "Equal").Call(a, b)
	}
	return jen.Add(a).Op("!=").Add(b)
}

func (g *generator) genEqual(jf *jen.File, mn *messageNames) {
	no := jen.Return(jen.False())
	body := []jen.Code{
		jen.If(jen.Id("m").Op("==").Id("o")).Block(jen.Return(jen.True())),
		jen.If(jen.Id("m").Op("==").Nil().Op("||").Id("o").Op("==").Nil()).Block(no),
	}
	for _, fn := range mn.fields {
		fd := fn.desc
		f, of := mf(fn), jen.Id("o").Dot(fn.goName)
		switch storageOf(fd) {
		case stImplicit, stMessage:
			body = append(body, jen.If(valuesDiffer(fd, f, of)).Block(no))
		case stPointer:
			body = append(body, jen.If(jen.Parens(f.Clone().Op("==").Nil()).Op("!=").Parens(of.Clone().Op("==").Nil()).Op("||").
				Add(f).Op("!=").Nil().Op("&&").Add(valuesDiffer(fd, jen.Op("*").Add(f), jen.Op("*").Add(of)))).Block(no))
		case stBytes:
			body = append(body, jen.If(jen.Parens(f.Clone().Op("==").Nil()).Op("!=").Parens(of.Clone().Op("==").Nil()).Op("||").
				Add(valuesDiffer(fd, f, of))).Block(no))
		case stRepeated:
			body = append(body,
				jen.If(jen.Len(f).Op("!=").Len(of)).Block(no),
				jen.For(jen.List(jen.Id("k"), jen.Id("v")).Op(":=").Range().Add(f)).Block(
					jen.If(valuesDiffer(fd, jen.Id("v"), of.Clone().Index(jen.Id("k")))).Block(no)))
		case stMap:
			body = append(body,
				jen.If(jen.Len(f).Op("!=").Len(of)).Block(no),
				jen.For(jen.List(jen.Id("k"), jen.Id("v")).Op(":=").Range().Add(f)).Block(
					jen.List(jen.Id("w"), jen.Id("ok")).Op(":=").Add(of).Index(jen.Id("k")),
					jen.If(jen.Op("!").Id("ok").Op("||").Add(valuesDiffer(fd.MapValue(), jen.Id("v"), jen.Id("w")))).Block(no)))
		case stOneof:
			if fn.oneof.fields[0] != fn {
				continue
			}
			// Which member is set is compared first: {count: 0} and
			// {label: ""} differ although both getters return zero.
			cases := []jen.Code{jen.Case(jen.Nil()).Block(jen.If(jen.Id("o").Dot(fn.oneof.goName).Op("!=").Nil()).Block(no))}
			for _, m := range fn.oneof.fields {
				cases = append(cases, jen.Case(jen.Op("*").Id(m.wrapper)).Block(
					jen.List(jen.Id("y"), jen.Id("ok")).Op(":=").Id("o").Dot(fn.oneof.goName).Assert(jen.Op("*").Id(m.wrapper)),
					jen.If(jen.Op("!").Id("ok").Op("||").Add(valuesDiffer(m.desc, jen.Id("x").Dot(m.goName), jen.Id("y").Dot(m.goName)))).Block(no)))
			}
			body = append(body, jen.Switch(jen.Id("x").Op(":=").Id("m").Dot(fn.oneof.goName).Assert(jen.Type())).Block(cases...))
		}
	}
	if !g.opts.DropUnknown {
		body = append(body, jen.Return(rt("UnknownEqual").Call(jen.Id("m").Dot("unknownFields"), jen.Id("o").Dot("unknownFields"))))
	} else {
		body = append(body, jen.Return(jen.True()))
	}
	jf.Comment("// Equal reports whether m and o hold the same field values and unknown fields.")
	jf.Comment("// A nil message equals only another nil message. Floating-point fields compare")
	jf.Comment("// with ==, so NaN is not equal to itself and -0 equals +0. A set oneof member")
	jf.Comment("// differs from any other member and from no member, whatever its value.")
	jf.Func().Params(recv(mn)).Id("Equal").Params(jen.Id("o").Op("*").Id(mn.goName)).Bool().Block(body...)
	jf.Line()
}
