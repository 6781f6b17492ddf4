package frontend

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
)

// printProto returns .proto source text declaring what fdp declares, for a
// compiler that takes sources only: the embedded googleapis files are
// descriptors (see googleapisSet). It prints what those files use:
// proto2 and proto3 syntax, messages with fields (labels, maps, oneofs,
// proto3 optional, defaults), nested types, reserved and extension
// ranges, enums, services with streaming methods, extensions, and
// options standard and custom (a custom option's value decoded with the
// extensions the googleapis files declare). There are no comments: the
// descriptors carry no source info. TestGoogleAPIsSourcesRoundTrip
// compiles every printed file back to its descriptor.
func printProto(fdp *descriptorpb.FileDescriptorProto) string {
	p := &protoPrinter{types: googleapisTypes()}
	p.file(fdp)
	return p.b.String()
}

// googleapisTypes resolves the extensions the googleapis files declare
// (google.api.http, google.api.field_behavior, ...), for decoding custom
// option values.
var googleapisTypes = sync.OnceValue(func() *protoregistry.Types {
	types := new(protoregistry.Types)
	files := new(protoregistry.Files)
	var add func(name string)
	done := map[string]bool{}
	add = func(name string) {
		if done[name] {
			return
		}
		done[name] = true
		f, ok := googleapis()[name]
		if !ok {
			return
		}
		for _, dep := range f.GetDependency() {
			add(dep)
		}
		fd, err := protodesc.NewFile(f, resolverWithGlobal{files})
		if err != nil {
			return
		}
		if files.RegisterFile(fd) != nil {
			return
		}
		xs := fd.Extensions()
		for i := 0; i < xs.Len(); i++ {
			_ = types.RegisterExtension(dynamicpb.NewExtensionType(xs.Get(i)))
		}
		var walk func(ms protoreflect.MessageDescriptors)
		walk = func(ms protoreflect.MessageDescriptors) {
			for i := 0; i < ms.Len(); i++ {
				m := ms.Get(i)
				for j := 0; j < m.Extensions().Len(); j++ {
					_ = types.RegisterExtension(dynamicpb.NewExtensionType(m.Extensions().Get(j)))
				}
				walk(m.Messages())
			}
		}
		walk(fd.Messages())
	}
	for _, name := range GoogleAPIsFiles() {
		add(name)
	}
	return types
})

// resolverWithGlobal resolves from files, then from the well-known types
// linked into the binary (descriptor.proto, any.proto, ...).
type resolverWithGlobal struct{ files *protoregistry.Files }

func (r resolverWithGlobal) FindFileByPath(p string) (protoreflect.FileDescriptor, error) {
	if fd, err := r.files.FindFileByPath(p); err == nil {
		return fd, nil
	}
	return protoregistry.GlobalFiles.FindFileByPath(p)
}

func (r resolverWithGlobal) FindDescriptorByName(n protoreflect.FullName) (protoreflect.Descriptor, error) {
	if d, err := r.files.FindDescriptorByName(n); err == nil {
		return d, nil
	}
	return protoregistry.GlobalFiles.FindDescriptorByName(n)
}

type protoPrinter struct {
	b      strings.Builder
	indent int
	types  *protoregistry.Types
	proto3 bool
}

func (p *protoPrinter) line(format string, args ...any) {
	if format == "" {
		p.b.WriteByte('\n')
		return
	}
	p.b.WriteString(strings.Repeat("  ", p.indent))
	fmt.Fprintf(&p.b, format, args...)
	p.b.WriteByte('\n')
}

func (p *protoPrinter) file(f *descriptorpb.FileDescriptorProto) {
	switch f.GetSyntax() {
	case "proto3":
		p.proto3 = true
		p.line(`syntax = "proto3";`)
	case "editions":
		p.line(`edition = %s;`, quote(strings.TrimPrefix(f.GetEdition().String(), "EDITION_")))
	default:
		p.line(`syntax = "proto2";`)
	}
	p.line("")
	if f.GetPackage() != "" {
		p.line("package %s;", f.GetPackage())
		p.line("")
	}
	public := map[int32]bool{}
	for _, i := range f.GetPublicDependency() {
		public[i] = true
	}
	weak := map[int32]bool{}
	for _, i := range f.GetWeakDependency() {
		weak[i] = true
	}
	for i, dep := range f.GetDependency() {
		switch {
		case public[int32(i)]:
			p.line("import public %s;", quote(dep))
		case weak[int32(i)]:
			p.line("import weak %s;", quote(dep))
		default:
			p.line("import %s;", quote(dep))
		}
	}
	if len(f.GetDependency()) > 0 {
		p.line("")
	}
	for _, o := range p.options(f.GetOptions()) {
		p.line("option %s;", o)
	}
	if f.GetOptions() != nil {
		p.line("")
	}
	for _, m := range f.GetMessageType() {
		p.message(m)
		p.line("")
	}
	for _, e := range f.GetEnumType() {
		p.enum(e)
		p.line("")
	}
	p.extensions(f.GetExtension())
	for _, s := range f.GetService() {
		p.line("service %s {", s.GetName())
		p.indent++
		for _, o := range p.options(s.GetOptions()) {
			p.line("option %s;", o)
		}
		for _, m := range s.GetMethod() {
			in, out := m.GetInputType(), m.GetOutputType()
			if m.GetClientStreaming() {
				in = "stream " + in
			}
			if m.GetServerStreaming() {
				out = "stream " + out
			}
			opts := p.options(m.GetOptions())
			if len(opts) == 0 {
				p.line("rpc %s(%s) returns (%s);", m.GetName(), in, out)
				continue
			}
			p.line("rpc %s(%s) returns (%s) {", m.GetName(), in, out)
			p.indent++
			for _, o := range opts {
				p.line("option %s;", o)
			}
			p.indent--
			p.line("}")
		}
		p.indent--
		p.line("}")
		p.line("")
	}
}

// extensions prints extension fields, one extend block per extendee in
// their order.
func (p *protoPrinter) extensions(xs []*descriptorpb.FieldDescriptorProto) {
	for i := 0; i < len(xs); {
		j := i
		for j < len(xs) && xs[j].GetExtendee() == xs[i].GetExtendee() {
			j++
		}
		p.line("extend %s {", xs[i].GetExtendee())
		p.indent++
		for _, x := range xs[i:j] {
			p.field(x, nil)
		}
		p.indent--
		p.line("}")
		p.line("")
		i = j
	}
}

func (p *protoPrinter) message(m *descriptorpb.DescriptorProto) {
	p.line("message %s {", m.GetName())
	p.indent++
	for _, o := range p.options(m.GetOptions()) {
		p.line("option %s;", o)
	}
	entries := map[string]*descriptorpb.DescriptorProto{}
	for _, n := range m.GetNestedType() {
		if n.GetOptions().GetMapEntry() {
			entries["."+n.GetName()] = n
		}
	}
	mapEntry := func(f *descriptorpb.FieldDescriptorProto) *descriptorpb.DescriptorProto {
		if f.GetLabel() != descriptorpb.FieldDescriptorProto_LABEL_REPEATED || f.GetType() != descriptorpb.FieldDescriptorProto_TYPE_MESSAGE {
			return nil
		}
		t := f.GetTypeName()
		if i := strings.LastIndexByte(t, '.'); i >= 0 {
			return entries[t[i:]]
		}
		return nil
	}
	printed := map[int32]bool{}
	for _, f := range m.GetField() {
		if f.OneofIndex != nil && !f.GetProto3Optional() {
			oi := f.GetOneofIndex()
			if printed[oi] {
				continue
			}
			printed[oi] = true
			od := m.GetOneofDecl()[oi]
			p.line("oneof %s {", od.GetName())
			p.indent++
			for _, o := range p.options(od.GetOptions()) {
				p.line("option %s;", o)
			}
			for _, of := range m.GetField() {
				if of.OneofIndex != nil && of.GetOneofIndex() == oi && !of.GetProto3Optional() {
					p.field(of, nil)
				}
			}
			p.indent--
			p.line("}")
			continue
		}
		p.field(f, mapEntry(f))
	}
	for _, n := range m.GetNestedType() {
		if !n.GetOptions().GetMapEntry() {
			p.message(n)
		}
	}
	for _, e := range m.GetEnumType() {
		p.enum(e)
	}
	p.extensions(m.GetExtension())
	for _, r := range m.GetExtensionRange() {
		rng := rangeText(r.GetStart(), r.GetEnd()-1, 536870911)
		if opts := p.options(r.GetOptions()); len(opts) > 0 {
			p.line("extensions %s [%s];", rng, strings.Join(opts, ", "))
		} else {
			p.line("extensions %s;", rng)
		}
	}
	p.reserved(len(m.GetReservedRange()), func(i int) string {
		r := m.GetReservedRange()[i]
		return rangeText(r.GetStart(), r.GetEnd()-1, 536870911)
	}, m.GetReservedName())
	p.indent--
	p.line("}")
}

func (p *protoPrinter) reserved(n int, rng func(int) string, names []string) {
	if n > 0 {
		rs := make([]string, n)
		for i := range rs {
			rs[i] = rng(i)
		}
		p.line("reserved %s;", strings.Join(rs, ", "))
	}
	if len(names) > 0 {
		qs := make([]string, len(names))
		for i, n := range names {
			qs[i] = quote(n)
		}
		p.line("reserved %s;", strings.Join(qs, ", "))
	}
}

func rangeText(start, end, max int32) string {
	switch {
	case start == end:
		return strconv.Itoa(int(start))
	case end == max:
		return fmt.Sprintf("%d to max", start)
	}
	return fmt.Sprintf("%d to %d", start, end)
}

var scalarNames = map[descriptorpb.FieldDescriptorProto_Type]string{
	descriptorpb.FieldDescriptorProto_TYPE_DOUBLE: "double", descriptorpb.FieldDescriptorProto_TYPE_FLOAT: "float",
	descriptorpb.FieldDescriptorProto_TYPE_INT64: "int64", descriptorpb.FieldDescriptorProto_TYPE_UINT64: "uint64",
	descriptorpb.FieldDescriptorProto_TYPE_INT32: "int32", descriptorpb.FieldDescriptorProto_TYPE_FIXED64: "fixed64",
	descriptorpb.FieldDescriptorProto_TYPE_FIXED32: "fixed32", descriptorpb.FieldDescriptorProto_TYPE_BOOL: "bool",
	descriptorpb.FieldDescriptorProto_TYPE_STRING: "string", descriptorpb.FieldDescriptorProto_TYPE_BYTES: "bytes",
	descriptorpb.FieldDescriptorProto_TYPE_UINT32: "uint32", descriptorpb.FieldDescriptorProto_TYPE_SFIXED32: "sfixed32",
	descriptorpb.FieldDescriptorProto_TYPE_SFIXED64: "sfixed64", descriptorpb.FieldDescriptorProto_TYPE_SINT32: "sint32",
	descriptorpb.FieldDescriptorProto_TYPE_SINT64: "sint64",
}

func fieldType(f *descriptorpb.FieldDescriptorProto) string {
	if s, ok := scalarNames[f.GetType()]; ok {
		return s
	}
	return f.GetTypeName()
}

// field prints a field or extension; entry, if not nil, is its map entry
// message.
func (p *protoPrinter) field(f *descriptorpb.FieldDescriptorProto, entry *descriptorpb.DescriptorProto) {
	var b strings.Builder
	switch {
	case entry != nil:
		fmt.Fprintf(&b, "map<%s, %s> ", fieldType(entry.GetField()[0]), fieldType(entry.GetField()[1]))
	case f.GetLabel() == descriptorpb.FieldDescriptorProto_LABEL_REPEATED:
		b.WriteString("repeated " + fieldType(f) + " ")
	case f.GetLabel() == descriptorpb.FieldDescriptorProto_LABEL_REQUIRED:
		b.WriteString("required " + fieldType(f) + " ")
	case f.GetProto3Optional() || !p.proto3 && f.OneofIndex == nil:
		b.WriteString("optional " + fieldType(f) + " ")
	default:
		b.WriteString(fieldType(f) + " ")
	}
	fmt.Fprintf(&b, "%s = %d", f.GetName(), f.GetNumber())
	var opts []string
	if f.DefaultValue != nil {
		opts = append(opts, "default = "+defaultText(f))
	}
	if f.JsonName != nil && f.GetJsonName() != jsonName(f.GetName()) {
		opts = append(opts, "json_name = "+quote(f.GetJsonName()))
	}
	opts = append(opts, p.options(f.GetOptions())...)
	if len(opts) > 0 {
		fmt.Fprintf(&b, " [%s]", strings.Join(opts, ", "))
	}
	p.line("%s;", b.String())
}

// jsonName is protoc's default JSON name of a field: its name in lower
// camel case (an underscore dropped, the letter after it capitalized).
func jsonName(name string) string {
	var b strings.Builder
	up := false
	for _, c := range name {
		switch {
		case c == '_':
			up = true
		case up && 'a' <= c && c <= 'z':
			b.WriteRune(c - 'a' + 'A')
			up = false
		default:
			b.WriteRune(c)
			up = false
		}
	}
	return b.String()
}

func defaultText(f *descriptorpb.FieldDescriptorProto) string {
	v := f.GetDefaultValue()
	switch f.GetType() {
	case descriptorpb.FieldDescriptorProto_TYPE_STRING:
		return quote(v)
	case descriptorpb.FieldDescriptorProto_TYPE_BYTES:
		// The descriptor holds bytes C-escaped; unescape then quote.
		s, err := strconv.Unquote(`"` + v + `"`)
		if err != nil {
			return quote(v)
		}
		return quote(s)
	}
	return v
}

func (p *protoPrinter) enum(e *descriptorpb.EnumDescriptorProto) {
	p.line("enum %s {", e.GetName())
	p.indent++
	for _, o := range p.options(e.GetOptions()) {
		p.line("option %s;", o)
	}
	for _, v := range e.GetValue() {
		if opts := p.options(v.GetOptions()); len(opts) > 0 {
			p.line("%s = %d [%s];", v.GetName(), v.GetNumber(), strings.Join(opts, ", "))
		} else {
			p.line("%s = %d;", v.GetName(), v.GetNumber())
		}
	}
	p.reserved(len(e.GetReservedRange()), func(i int) string {
		r := e.GetReservedRange()[i]
		return rangeText(r.GetStart(), r.GetEnd(), math.MaxInt32)
	}, e.GetReservedName())
	p.indent--
	p.line("}")
}

// options returns each option set in opts as "name = value" (a repeated
// option once per element), standard options first by field number, then
// custom ones by field number. Custom options held as unknown bytes are
// decoded with googleapisTypes first.
func (p *protoPrinter) options(opts proto.Message) []string {
	if opts == nil || !opts.ProtoReflect().IsValid() {
		return nil
	}
	m := opts.ProtoReflect()
	if len(m.GetUnknown()) > 0 {
		data, err := proto.Marshal(opts)
		if err == nil {
			fresh := m.New()
			uo := proto.UnmarshalOptions{Resolver: p.types}
			if uo.Unmarshal(data, fresh.Interface()) == nil {
				m = fresh
			}
		}
	}
	type opt struct {
		fd protoreflect.FieldDescriptor
		v  protoreflect.Value
	}
	var set []opt
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		set = append(set, opt{fd, v})
		return true
	})
	sort.Slice(set, func(i, j int) bool {
		a, b := set[i].fd, set[j].fd
		if a.IsExtension() != b.IsExtension() {
			return !a.IsExtension()
		}
		return a.Number() < b.Number()
	})
	var out []string
	for _, o := range set {
		name := string(o.fd.Name())
		if o.fd.IsExtension() {
			name = "(" + string(o.fd.FullName()) + ")"
		}
		if o.fd.IsList() {
			l := o.v.List()
			for i := 0; i < l.Len(); i++ {
				out = append(out, name+" = "+valueText(o.fd, l.Get(i), 0))
			}
			continue
		}
		out = append(out, name+" = "+valueText(o.fd, o.v, 0))
	}
	return out
}

// valueText is v, a value of fd (one element of a list), in the text
// format's syntax as an option value takes it.
func valueText(fd protoreflect.FieldDescriptor, v protoreflect.Value, depth int) string {
	switch fd.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return messageText(v.Message(), depth)
	case protoreflect.EnumKind:
		if ev := fd.Enum().Values().ByNumber(v.Enum()); ev != nil {
			return string(ev.Name())
		}
		return strconv.Itoa(int(v.Enum()))
	case protoreflect.StringKind:
		return quote(v.String())
	case protoreflect.BytesKind:
		return quote(string(v.Bytes()))
	case protoreflect.BoolKind:
		return strconv.FormatBool(v.Bool())
	case protoreflect.FloatKind, protoreflect.DoubleKind:
		f := v.Float()
		switch {
		case math.IsInf(f, 1):
			return "inf"
		case math.IsInf(f, -1):
			return "-inf"
		case math.IsNaN(f):
			return "nan"
		}
		bits := 64
		if fd.Kind() == protoreflect.FloatKind {
			bits = 32
		}
		return strconv.FormatFloat(f, 'g', -1, bits)
	}
	return v.String()
}

func messageText(m protoreflect.Message, depth int) string {
	var parts []string
	type fv struct {
		fd protoreflect.FieldDescriptor
		v  protoreflect.Value
	}
	var set []fv
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		set = append(set, fv{fd, v})
		return true
	})
	sort.Slice(set, func(i, j int) bool { return set[i].fd.Number() < set[j].fd.Number() })
	for _, f := range set {
		name := string(f.fd.Name())
		if f.fd.IsExtension() {
			name = "[" + string(f.fd.FullName()) + "]"
		} else if f.fd.Kind() == protoreflect.GroupKind {
			name = string(f.fd.Message().Name())
		}
		if f.fd.IsList() {
			l := f.v.List()
			for i := 0; i < l.Len(); i++ {
				parts = append(parts, name+": "+valueText(f.fd, l.Get(i), depth+1))
			}
			continue
		}
		if f.fd.IsMap() {
			f.v.Map().Range(func(k protoreflect.MapKey, v protoreflect.Value) bool {
				parts = append(parts, name+": { key: "+valueText(f.fd.MapKey(), k.Value(), depth+1)+" value: "+valueText(f.fd.MapValue(), v, depth+1)+" }")
				return true
			})
			continue
		}
		parts = append(parts, name+": "+valueText(f.fd, f.v, depth+1))
	}
	if len(parts) == 0 {
		return "{}"
	}
	return "{ " + strings.Join(parts, " ") + " }"
}

// quote returns s as a protobuf string literal: printable ASCII as is,
// quotes and backslashes escaped, every other byte as an octal escape
// (so that any bytes, valid UTF-8 or not, read back the same).
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, `\%03o`, c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
