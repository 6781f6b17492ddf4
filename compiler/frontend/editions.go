package frontend

import (
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

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
