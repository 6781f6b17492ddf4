package frontend

import (
	"github.com/protoplay/protoplay/compiler/diag"
	"slices"

	"github.com/bufbuild/protocompile/linker"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// linkCheck finds, in linked files, what protoc rejects and protocompile
// (v0.14.1) lets through, and returns each as an error diagnostic at the
// element's position. Checks that need the parse tree only live in precheck;
// these need resolved types, which may come from another file.
//
// The one check today: a map whose value type is an enum must use an enum
// whose first value is 0 (protoc: "Enum value in map must define 0 as the
// first value"), since a map entry with no value on the wire must read as
// the enum's default, and map values have no presence. Only closed (proto2)
// enums can break this; protodesc rejects such a file too.
func linkCheck(files linker.Files) []diag.Diagnostic {
	var out []diag.Diagnostic
	var walk func(f protoreflect.FileDescriptor, md protoreflect.MessageDescriptor)
	walk = func(f protoreflect.FileDescriptor, md protoreflect.MessageDescriptor) {
		for i := 0; i < md.Fields().Len(); i++ {
			fd := md.Fields().Get(i)
			if !fd.IsMap() {
				continue
			}
			ed := fd.MapValue().Enum()
			if ed == nil || ed.Values().Len() == 0 || ed.Values().Get(0).Number() == 0 {
				continue
			}
			d := diag.Diagnostic{File: f.Path(), Severity: diag.SeverityError,
				Message: "enum value in map must define 0 as the first value: " + string(ed.FullName()) +
					" starts with " + string(ed.Values().Get(0).Name())}
			loc := f.SourceLocations().ByDescriptor(fd)
			// Point at the map<K, V> type (FieldDescriptorProto.type_name
			// is field 6), as protoc does, or else at the whole field.
			path := append(append(protoreflect.SourcePath(nil), loc.Path...), 6)
			if tl := f.SourceLocations().ByPath(path); tl.Path != nil {
				loc = tl
			}
			if loc.Path != nil {
				d.Line, d.Column = loc.StartLine+1, loc.StartColumn+1
				d.EndLine, d.EndColumn = loc.EndLine+1, loc.EndColumn+1
			}
			out = append(out, d)
		}
		for i := 0; i < md.Messages().Len(); i++ {
			walk(f, md.Messages().Get(i))
		}
	}
	// Imported files too: protoc rejects a schema whose import breaks the
	// rule. The standard files keep it.
	seen := map[string]bool{}
	var file func(f protoreflect.FileDescriptor)
	file = func(f protoreflect.FileDescriptor) {
		if seen[f.Path()] || slices.Contains(standardFiles, f.Path()) {
			return
		}
		seen[f.Path()] = true
		for i := 0; i < f.Imports().Len(); i++ {
			file(f.Imports().Get(i).FileDescriptor)
		}
		for i := 0; i < f.Messages().Len(); i++ {
			walk(f, f.Messages().Get(i))
		}
	}
	for _, f := range files {
		file(f)
	}
	return out
}
