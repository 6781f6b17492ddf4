package frontend

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/protoplay/protoplay/compiler/diag"
)

// linkCheck finds, in the compiled files, what protoc rejects and the
// compiler lets through, and returns each as an error diagnostic at the
// element's position. protodesc would refuse such a file too, with no
// position.
//
// The one check today: a map whose value type is an enum must use an enum
// whose first value is 0 (protoc: "Enum value in map must define 0 as the
// first value"), since a map entry with no value on the wire must read as
// the enum's default, and map values have no presence. Only closed (proto2)
// enums can break this.
func linkCheck(set *descriptorpb.FileDescriptorSet) []diag.Diagnostic {
	first := map[string]*descriptorpb.EnumValueDescriptorProto{} // enum full name -> its first value
	var enums func(prefix string, es []*descriptorpb.EnumDescriptorProto, ms []*descriptorpb.DescriptorProto)
	enums = func(prefix string, es []*descriptorpb.EnumDescriptorProto, ms []*descriptorpb.DescriptorProto) {
		for _, e := range es {
			if len(e.GetValue()) > 0 {
				first[prefix+"."+e.GetName()] = e.GetValue()[0]
			}
		}
		for _, m := range ms {
			enums(prefix+"."+m.GetName(), m.GetEnumType(), m.GetNestedType())
		}
	}
	for _, f := range set.GetFile() {
		prefix := ""
		if f.GetPackage() != "" {
			prefix = "." + f.GetPackage()
		}
		enums(prefix, f.GetEnumType(), f.GetMessageType())
	}
	var out []diag.Diagnostic
	for _, f := range set.GetFile() {
		if slices.Contains(standardFiles, f.GetName()) {
			continue
		}
		locs := map[string]*descriptorpb.SourceCodeInfo_Location{}
		for _, l := range f.GetSourceCodeInfo().GetLocation() {
			k := pathKey(l.GetPath())
			if _, ok := locs[k]; !ok {
				locs[k] = l
			}
		}
		var walk func(path []int32, m *descriptorpb.DescriptorProto)
		walk = func(path []int32, m *descriptorpb.DescriptorProto) {
			entries := map[string]*descriptorpb.DescriptorProto{}
			for _, n := range m.GetNestedType() {
				if n.GetOptions().GetMapEntry() {
					entries[n.GetName()] = n
				}
			}
			for i, fd := range m.GetField() {
				// A custom JSON name shaped like an extension's ("[a.b]"):
				// protoc rejects it, as JSON would read it as an
				// extension's key.
				if j := fd.GetJsonName(); len(j) >= 2 && j[0] == '[' && j[len(j)-1] == ']' {
					d := diag.Diagnostic{File: f.GetName(), Severity: diag.SeverityError,
						Message: "json_name " + strconvQuote(j) + " is invalid: a custom JSON name may not start with '[' and end with ']' (the shape of an extension's name)"}
					fieldPath := append(slices.Clone(path), 2, int32(i))
					l := locs[pathKey(append(slices.Clone(fieldPath), 10))]
					if l == nil {
						l = locs[pathKey(fieldPath)]
					}
					setSpan(&d, l)
					out = append(out, d)
				}
				t := fd.GetTypeName()
				entry := entries[t[strings.LastIndexByte(t, '.')+1:]]
				if fd.GetType() != descriptorpb.FieldDescriptorProto_TYPE_MESSAGE || entry == nil || len(entry.GetField()) != 2 {
					continue
				}
				v := entry.GetField()[1]
				fv := first[v.GetTypeName()]
				if v.GetType() != descriptorpb.FieldDescriptorProto_TYPE_ENUM || fv == nil || fv.GetNumber() == 0 {
					continue
				}
				d := diag.Diagnostic{File: f.GetName(), Severity: diag.SeverityError,
					Message: "enum value in map must define 0 as the first value: " + strings.TrimPrefix(v.GetTypeName(), ".") +
						" starts with " + fv.GetName()}
				// Point at the map<K, V> type (FieldDescriptorProto.type_name
				// is field 6), as protoc does, or else at the whole field.
				fieldPath := append(slices.Clone(path), 2, int32(i))
				l := locs[pathKey(append(slices.Clone(fieldPath), 6))]
				if l == nil {
					l = locs[pathKey(fieldPath)]
				}
				setSpan(&d, l)
				out = append(out, d)
			}
			for i, n := range m.GetNestedType() {
				walk(append(slices.Clone(path), 3, int32(i)), n)
			}
		}
		for i, m := range f.GetMessageType() {
			walk([]int32{4, int32(i)}, m)
		}
		out = append(out, openEnumConflicts(f, locs)...)
	}
	return out
}

// openEnumConflicts returns an error for each value of an open enum in f
// whose name, with the enum's name as a prefix removed and in CamelCase,
// is another value's of a different number: protoc rejects it ("Enum name
// ... has the same name as ... if you ignore case and strip out the enum
// name prefix"), and protodesc refuses to link it, with no position
// (reflect/protodesc's validateEnumDeclarations, whose rule this is). The
// compiler only warns. A closed enum (proto2, or features.enum_type =
// CLOSED) may have such names.
func openEnumConflicts(f *descriptorpb.FileDescriptorProto, locs map[string]*descriptorpb.SourceCodeInfo_Location) []diag.Diagnostic {
	var out []diag.Diagnostic
	check := func(path []int32, e *descriptorpb.EnumDescriptorProto, open bool) {
		open = enumTypeOpen(e.GetOptions().GetFeatures(), open)
		if !open {
			return
		}
		prefix := strings.ReplaceAll(strings.ToLower(e.GetName()), "_", "")
		names := map[string]*descriptorpb.EnumValueDescriptorProto{}
		for i, v := range e.GetValue() {
			s := camelEnumValue(trimEnumPrefix(v.GetName(), prefix))
			if v2, ok := names[s]; ok && v.GetNumber() != v2.GetNumber() {
				d := diag.Diagnostic{File: f.GetName(), Severity: diag.SeverityError,
					Message: "enum value name " + v.GetName() + " is the same as " + v2.GetName() +
						" if you ignore case and strip out the enum name prefix (" + s + "); an open enum may not have such names" +
						" (if you are using allow_alias, give both the same number)"}
				valuePath := append(slices.Clone(path), 2, int32(i))
				l := locs[pathKey(append(slices.Clone(valuePath), 1))]
				if l == nil {
					l = locs[pathKey(valuePath)]
				}
				setSpan(&d, l)
				out = append(out, d)
				continue
			}
			if _, ok := names[s]; !ok {
				names[s] = v
			}
		}
	}
	// Open is the default of proto3 and of every edition; proto2's enums
	// are closed. A file's or message's features.enum_type applies to the
	// enums below it.
	open := f.GetSyntax() == "proto3" || f.GetSyntax() == "editions"
	open = enumTypeOpen(f.GetOptions().GetFeatures(), open)
	var walk func(path []int32, m *descriptorpb.DescriptorProto, open bool)
	walk = func(path []int32, m *descriptorpb.DescriptorProto, open bool) {
		open = enumTypeOpen(m.GetOptions().GetFeatures(), open)
		for i, e := range m.GetEnumType() {
			check(append(slices.Clone(path), 4, int32(i)), e, open)
		}
		for i, n := range m.GetNestedType() {
			walk(append(slices.Clone(path), 3, int32(i)), n, open)
		}
	}
	for i, e := range f.GetEnumType() {
		check([]int32{5, int32(i)}, e, open)
	}
	for i, m := range f.GetMessageType() {
		walk([]int32{4, int32(i)}, m, open)
	}
	return out
}

// enumTypeOpen is whether features sets enum_type to OPEN, or inherited
// if it does not set it.
func enumTypeOpen(features *descriptorpb.FeatureSet, inherited bool) bool {
	if features == nil || features.EnumType == nil {
		return inherited
	}
	return features.GetEnumType() == descriptorpb.FeatureSet_OPEN
}

// trimEnumPrefix removes prefix (lower case, without underscores) from
// the enum value name s, ignoring case and underscores, as protoc and
// protobuf-go do; s itself if s does not start with it or is nothing
// more.
func trimEnumPrefix(s, prefix string) string {
	s0 := s
	for len(s) > 0 && len(prefix) > 0 {
		if s[0] == '_' {
			s = s[1:]
			continue
		}
		c := s[0]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[0] {
			return s0
		}
		s, prefix = s[1:], prefix[1:]
	}
	if len(prefix) > 0 {
		return s0
	}
	if s = strings.TrimLeft(s, "_"); s == "" {
		return s0
	}
	return s
}

// camelEnumValue is s in CamelCase: each letter after an underscore (or
// first) upper case, every other lower case, underscores removed.
func camelEnumValue(s string) string {
	var b strings.Builder
	upper := true
	for _, c := range s {
		switch {
		case c == '_':
			upper = true
		case upper:
			b.WriteRune(unicode.ToUpper(c))
			upper = false
		default:
			b.WriteRune(unicode.ToLower(c))
		}
	}
	return b.String()
}

func pathKey(p []int32) string {
	var b strings.Builder
	for _, n := range p {
		b.WriteString(string(rune(n + 1)))
	}
	return b.String()
}

// setSpan positions d at the span of l (source info: 0-based line,
// column, [end line,] end column), if l is not nil.
func setSpan(d *diag.Diagnostic, l *descriptorpb.SourceCodeInfo_Location) {
	span := l.GetSpan()
	if len(span) < 3 {
		return
	}
	d.Line, d.Column = int(span[0])+1, int(span[1])+1
	if len(span) == 3 {
		d.EndLine, d.EndColumn = int(span[0])+1, int(span[2])+1
	} else {
		d.EndLine, d.EndColumn = int(span[2])+1, int(span[3])+1
	}
}

func strconvQuote(s string) string { return strconv.Quote(s) }
