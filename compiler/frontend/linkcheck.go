package frontend

import (
	"slices"
	"strconv"
	"strings"

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
	}
	return out
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
