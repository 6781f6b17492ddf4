package compiler

import (
	"context"
	"fmt"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/protoplay/protoplay/compiler/gogen"
)

// SymbolsResult is the answer to Symbols: what an editor needs for hover,
// go-to-definition and completion of a schema that compiles.
type SymbolsResult struct {
	// Symbols are the declarations of the request's files (with their
	// name's position) and the message and enum types of the files they
	// import (with no position).
	Symbols []Declaration `json:"symbols"`
	// References are the type names written in the request's files (field
	// types, extendees, method input and output types), each with the full
	// name of the Declaration it resolves to.
	References []Reference `json:"references"`
}

// Declaration is one declaration. Positions are 1-based lines and byte columns,
// as Diagnostic's; the end is exclusive. Line is 0 for a declaration of an
// imported file the request does not hold.
type Declaration struct {
	// Name is the full name, "pkg.Outer.field".
	Name string `json:"name"`
	// Kind is "message", "enum", "enumValue", "field", "extension",
	// "oneof", "service" or "method".
	Kind      string `json:"kind"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
	// Detail is one line for a hover: for a field, its number, type, wire
	// type and tag bytes and its Go name; for a type, its Go name; for a
	// method, its signature.
	Detail string `json:"detail"`
	// Doc is the declaration's leading comment, if any.
	Doc string `json:"doc,omitempty"`
}

// Reference is a type name written in a file, resolved.
type Reference struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
	// Target is the full name of the Declaration the name resolves to.
	Target string `json:"target"`
}

// Symbols returns the declarations and type references of req.Files (see
// SymbolsResult); an *Error of KindSchema when they do not compile. It
// reuses the workspace's last compile when the sources are the same.
func (w *Workspace) Symbols(ctx context.Context, req CompileRequest) (*SymbolsResult, error) {
	if _, err := w.schemaWithin(ctx, req.Files, req.Limits); err != nil {
		return nil, err
	}
	w.mu.Lock()
	e := w.cached
	w.mu.Unlock()
	return symbolsOf(e.res.Files), nil
}

// Source paths of descriptor.proto's fields used below: the name of every
// declaration is its field 1; FieldDescriptorProto's extendee is 2 and
// type_name 6; MethodDescriptorProto's input_type 2 and output_type 3.
const (
	nameField     = 1
	extendeeField = 2
	typeNameField = 6
	inputField    = 2
	outputField   = 3
)

func symbolsOf(files []protoreflect.FileDescriptor) *SymbolsResult {
	out := &SymbolsResult{Symbols: []Declaration{}, References: []Reference{}}
	own := map[string]bool{}
	for _, f := range files {
		own[f.Path()] = true
	}
	seen := map[string]bool{}
	var imported func(f protoreflect.FileDescriptor)
	imported = func(f protoreflect.FileDescriptor) {
		if seen[f.Path()] {
			return
		}
		seen[f.Path()] = true
		if !own[f.Path()] {
			var types func(ms protoreflect.MessageDescriptors, es protoreflect.EnumDescriptors)
			types = func(ms protoreflect.MessageDescriptors, es protoreflect.EnumDescriptors) {
				for i := 0; i < ms.Len(); i++ {
					m := ms.Get(i)
					if m.IsMapEntry() {
						continue
					}
					out.Symbols = append(out.Symbols, Declaration{Name: string(m.FullName()), Kind: "message", File: f.Path(), Detail: typeDetail(m)})
					types(m.Messages(), m.Enums())
				}
				for i := 0; i < es.Len(); i++ {
					out.Symbols = append(out.Symbols, Declaration{Name: string(es.Get(i).FullName()), Kind: "enum", File: f.Path(), Detail: typeDetail(es.Get(i))})
				}
			}
			types(f.Messages(), f.Enums())
		}
		for i := 0; i < f.Imports().Len(); i++ {
			imported(f.Imports().Get(i).FileDescriptor)
		}
	}
	for _, f := range files {
		s := &symbolWalker{f: f, out: out}
		s.messages(f.Messages())
		s.enums(f.Enums())
		s.fields(f.Extensions(), "extension")
		for i := 0; i < f.Services().Len(); i++ {
			svc := f.Services().Get(i)
			s.add(svc, "service", "service "+string(svc.FullName()))
			for j := 0; j < svc.Methods().Len(); j++ {
				m := svc.Methods().Get(j)
				sig := fmt.Sprintf("rpc %s(%s%s) returns (%s%s)", m.Name(), stream(m.IsStreamingClient()), m.Input().FullName(), stream(m.IsStreamingServer()), m.Output().FullName())
				s.add(m, "method", sig)
				s.ref(m, inputField, m.Input())
				s.ref(m, outputField, m.Output())
			}
		}
	}
	for _, f := range files {
		imported(f)
	}
	return out
}

func stream(on bool) string {
	if on {
		return "stream "
	}
	return ""
}

type symbolWalker struct {
	f   protoreflect.FileDescriptor
	out *SymbolsResult
}

func (s *symbolWalker) messages(ms protoreflect.MessageDescriptors) {
	for i := 0; i < ms.Len(); i++ {
		m := ms.Get(i)
		if m.IsMapEntry() {
			continue
		}
		s.add(m, "message", typeDetail(m))
		s.messages(m.Messages())
		s.enums(m.Enums())
		s.fields(m.Fields(), "field")
		s.fields(m.Extensions(), "extension")
		for j := 0; j < m.Oneofs().Len(); j++ {
			o := m.Oneofs().Get(j)
			if !o.IsSynthetic() {
				s.add(o, "oneof", fmt.Sprintf("oneof %s (%d fields)", o.Name(), o.Fields().Len()))
			}
		}
	}
}

func (s *symbolWalker) enums(es protoreflect.EnumDescriptors) {
	for i := 0; i < es.Len(); i++ {
		e := es.Get(i)
		s.add(e, "enum", typeDetail(e))
		for j := 0; j < e.Values().Len(); j++ {
			v := e.Values().Get(j)
			s.add(v, "enumValue", fmt.Sprintf("enum value %d of %s", v.Number(), e.FullName()))
		}
	}
}

func (s *symbolWalker) fields(fs protoreflect.ExtensionDescriptors, kind string) {
	for i := 0; i < fs.Len(); i++ {
		fd := fs.Get(i)
		detail := fieldDetail(fd)
		if fd.IsExtension() {
			detail += " · extends " + string(fd.ContainingMessage().FullName())
			s.ref(fd, extendeeField, fd.ContainingMessage())
		}
		s.add(fd, kind, detail)
		if t := fieldTypeDesc(fd); t != nil {
			s.ref(fd, typeNameField, t)
		}
	}
}

// fieldTypeDesc is the message or enum a field's type names: a map's
// value type for a map field.
func fieldTypeDesc(fd protoreflect.FieldDescriptor) protoreflect.Descriptor {
	if fd.IsMap() {
		fd = fd.MapValue()
	}
	if m := fd.Message(); m != nil {
		return m
	}
	if e := fd.Enum(); e != nil {
		return e
	}
	return nil
}

// span is the source position of path in s.f, 1-based, or ok=false.
func (s *symbolWalker) span(d protoreflect.Descriptor, field int32) (line, col, endLine, endCol int, ok bool) {
	locs := s.f.SourceLocations()
	base := locs.ByDescriptor(d)
	if base.Path == nil {
		return 0, 0, 0, 0, false
	}
	p := append(append(protoreflect.SourcePath(nil), base.Path...), field)
	loc := locs.ByPath(p)
	if loc.Path == nil {
		return 0, 0, 0, 0, false
	}
	return loc.StartLine + 1, loc.StartColumn + 1, loc.EndLine + 1, loc.EndColumn + 1, true
}

func (s *symbolWalker) add(d protoreflect.Descriptor, kind, detail string) {
	sym := Declaration{Name: string(d.FullName()), Kind: kind, File: s.f.Path(), Detail: detail}
	if l, c, el, ec, ok := s.span(d, nameField); ok {
		sym.Line, sym.Column, sym.EndLine, sym.EndColumn = l, c, el, ec
	}
	if loc := s.f.SourceLocations().ByDescriptor(d); loc.LeadingComments != "" {
		sym.Doc = strings.TrimSpace(loc.LeadingComments)
	}
	s.out.Symbols = append(s.out.Symbols, sym)
}

func (s *symbolWalker) ref(d protoreflect.Descriptor, field int32, target protoreflect.Descriptor) {
	if l, c, el, ec, ok := s.span(d, field); ok {
		s.out.References = append(s.out.References, Reference{File: s.f.Path(), Line: l, Column: c, EndLine: el, EndColumn: ec, Target: string(target.FullName())})
	}
}

func typeDetail(d protoreflect.Descriptor) string {
	kind := "message"
	if _, ok := d.(protoreflect.EnumDescriptor); ok {
		kind = "enum"
	}
	return fmt.Sprintf("%s %s · Go: %s", kind, d.FullName(), gogen.GoName(d))
}

// fieldDetail: "field 3 · repeated string · wire type 2 (LEN) · tag 1a · Go: Email".
func fieldDetail(fd protoreflect.FieldDescriptor) string {
	var typ string
	switch {
	case fd.IsMap():
		typ = fmt.Sprintf("map<%s, %s>", typeName(fd.MapKey()), typeName(fd.MapValue()))
	case fd.Cardinality() == protoreflect.Repeated:
		typ = "repeated " + typeName(fd)
	case fd.Cardinality() == protoreflect.Required:
		typ = "required " + typeName(fd)
	case fd.HasPresence() && fd.Message() == nil && fd.ContainingOneof() == nil:
		typ = "optional " + typeName(fd)
	default:
		typ = typeName(fd)
	}
	wt, wtName := wireType(fd)
	tag := uint64(fd.Number())<<3 | uint64(wt)
	var tagBytes []string
	for {
		b := byte(tag & 0x7f)
		tag >>= 7
		if tag != 0 {
			b |= 0x80
		}
		tagBytes = append(tagBytes, fmt.Sprintf("%02x", b))
		if tag == 0 {
			break
		}
	}
	detail := fmt.Sprintf("field %d · %s · wire type %d (%s) · tag %s", fd.Number(), typ, wt, wtName, strings.Join(tagBytes, " "))
	if o := fd.ContainingOneof(); o != nil && !o.IsSynthetic() {
		detail += " · in oneof " + string(o.Name())
	}
	if !fd.IsExtension() {
		detail += " · Go: " + gogen.GoCamelCase(string(fd.Name()))
	}
	return detail
}

func typeName(fd protoreflect.FieldDescriptor) string {
	if m := fd.Message(); m != nil {
		return string(m.FullName())
	}
	if e := fd.Enum(); e != nil {
		return string(e.FullName())
	}
	return fd.Kind().String()
}

// wireType is the wire type a field's values are written with
// (https://protobuf.dev/programming-guides/encoding/): packed repeated
// scalars and maps as LEN, groups (delimited messages) as SGROUP.
func wireType(fd protoreflect.FieldDescriptor) (int, string) {
	if fd.IsMap() || fd.IsPacked() {
		return 2, "LEN"
	}
	switch fd.Kind() {
	case protoreflect.DoubleKind, protoreflect.Fixed64Kind, protoreflect.Sfixed64Kind:
		return 1, "I64"
	case protoreflect.FloatKind, protoreflect.Fixed32Kind, protoreflect.Sfixed32Kind:
		return 5, "I32"
	case protoreflect.StringKind, protoreflect.BytesKind, protoreflect.MessageKind:
		return 2, "LEN"
	case protoreflect.GroupKind:
		return 3, "SGROUP"
	}
	return 0, "VARINT"
}
