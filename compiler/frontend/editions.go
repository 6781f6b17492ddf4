package frontend

import (
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/protoplay/protoplay/compiler/diag"
)

// editionWarnings returns, for each edition 2024 file among files and
// their imports (the standard files aside), one warning at its edition
// declaration: protoplay generates the open API for it, whatever
// features.(pb.go).api_level says (edition 2024's default is the opaque
// API, which protoplay does not generate yet).
func editionWarnings(files []protoreflect.FileDescriptor) []diag.Diagnostic {
	var out []diag.Diagnostic
	seen := map[string]bool{}
	var walk func(f protoreflect.FileDescriptor)
	walk = func(f protoreflect.FileDescriptor) {
		if seen[f.Path()] || isStandard(f.Path()) {
			return
		}
		seen[f.Path()] = true
		for i := 0; i < f.Imports().Len(); i++ {
			walk(f.Imports().Get(i).FileDescriptor)
		}
		if protoEdition(f) < descriptorpb.Edition_EDITION_2024 {
			return
		}
		d := diag.Diagnostic{File: f.Path(), Severity: diag.SeverityWarning,
			Message: "edition 2024: features.(pb.go).api_level is not honoured yet; protoplay generates the open API (API_OPEN) for this file"}
		// The edition declaration: protoc records it at
		// FileDescriptorProto.syntax (field 12), as a syntax statement.
		if loc := f.SourceLocations().ByPath(protoreflect.SourcePath{12}); loc.Path != nil {
			d.Line, d.Column = loc.StartLine+1, loc.StartColumn+1
			d.EndLine, d.EndColumn = loc.EndLine+1, loc.EndColumn+1
		}
		out = append(out, d)
	}
	for _, f := range files {
		walk(f)
	}
	return out
}

// protoEdition returns the edition of f (EDITION_PROTO2 or
// EDITION_PROTO3 for a syntax file).
func protoEdition(f protoreflect.FileDescriptor) descriptorpb.Edition {
	if e, ok := f.(interface{ Edition() int32 }); ok {
		return descriptorpb.Edition(e.Edition())
	}
	if f.Syntax() == protoreflect.Proto3 {
		return descriptorpb.Edition_EDITION_PROTO3
	}
	return descriptorpb.Edition_EDITION_PROTO2
}
