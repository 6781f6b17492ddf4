package gogen

import (
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

// apiLevel is the Go API a message is generated with: protoc-gen-go's
// features.(pb.go).api_level (pb.GoFeatures.APILevel, field 2 of
// pb.GoFeatures in google/protobuf/go_features.proto), whose numbers these
// are.
type apiLevel int

const (
	apiUnspecified apiLevel = 0
	apiOpen        apiLevel = 1 // exported fields, getters
	apiHybrid      apiLevel = 2 // both: x.pb.go (open, with the opaque accessors) and x_protoopaque.pb.go (opaque)
	apiOpaque      apiLevel = 3 // hidden fields behind Get, Set, Has, Clear and a builder
)

// apiLevelNames are the option values of the levels.
var apiLevelNames = map[string]apiLevel{"API_OPEN": apiOpen, "API_HYBRID": apiHybrid, "API_OPAQUE": apiOpaque}

func validAPILevel(s string) bool { _, ok := apiLevelNames[s]; return ok }

// apiLevelFeature is the go feature api_level's field number.
const apiLevelFeature = 2

// APILevel returns the API level protoplay generates md with, as one of
// "API_OPEN", "API_HYBRID" and "API_OPAQUE", by protoc-gen-go v1.36's
// precedence (compiler/protogen's fileAPILevel and messageAPILevel):
//
//  1. features.(pb.go).api_level resolved for md: set on md, else on the
//     message enclosing it, ..., else on its file, else the edition's
//     default (API_OPAQUE from edition 2024, none before);
//  2. else opts.APILevelMap[md's file path] (apilevelM<file>=);
//  3. else opts.DefaultAPILevel (default_api_level=);
//  4. else API_OPEN.
//
// A file whose own level is API_HYBRID is generated as two files, as
// protoc-gen-go writes them (see docs/generated-code.md).
func APILevel(md protoreflect.MessageDescriptor, opts Options) string {
	switch resolveAPILevel(md, &opts) {
	case apiHybrid:
		return "API_HYBRID"
	case apiOpaque:
		return "API_OPAQUE"
	}
	return "API_OPEN"
}

func resolveAPILevel(md protoreflect.MessageDescriptor, opts *Options) apiLevel {
	for d := protoreflect.Descriptor(md); d != nil; d = d.Parent() {
		if n := apiLevel(goFeature(d.Options(), apiLevelFeature)); n != apiUnspecified {
			return n
		}
		if _, ok := d.(protoreflect.FileDescriptor); ok {
			break
		}
	}
	if fileEdition(md.ParentFile()) >= descriptorpb.Edition_EDITION_2024 {
		return apiOpaque
	}
	if l, ok := apiLevelNames[opts.APILevelMap[md.ParentFile().Path()]]; ok {
		return l
	}
	if l, ok := apiLevelNames[opts.DefaultAPILevel]; ok {
		return l
	}
	return apiOpen
}

// fileEdition returns the edition of f (EDITION_PROTO2 or EDITION_PROTO3
// for a syntax file).
func fileEdition(f protoreflect.FileDescriptor) descriptorpb.Edition {
	if e, ok := f.(interface{ Edition() int32 }); ok {
		return descriptorpb.Edition(e.Edition())
	}
	if f.Syntax() == protoreflect.Proto3 {
		return descriptorpb.Edition_EDITION_PROTO3
	}
	return descriptorpb.Edition_EDITION_PROTO2
}

// level is md's API level, resolved once.
func (g *generator) level(md protoreflect.MessageDescriptor) apiLevel {
	if g.levels == nil {
		g.levels = map[protoreflect.FullName]apiLevel{}
	}
	l, ok := g.levels[md.FullName()]
	if !ok {
		l = resolveAPILevel(md, &g.opts)
		g.levels[md.FullName()] = l
	}
	return l
}

// isOpaque reports whether md is printed with the opaque API: API_OPAQUE,
// or any message of a _protoopaque.pb.go file (protoc-gen-go's
// generateFiles sets every message of that file to API_OPAQUE, the open
// ones too).
func (g *generator) isOpaque(md protoreflect.MessageDescriptor) bool {
	return g.protoopaque || g.level(md) == apiOpaque
}

// isHybridOpen reports whether md is printed with the open API and the
// opaque accessors: API_HYBRID, outside a _protoopaque.pb.go file.
func (g *generator) isHybridOpen(md protoreflect.MessageDescriptor) bool {
	return g.level(md) == apiHybrid && !g.protoopaque
}

// fileLevel is fd's own API level, protoc-gen-go's File.APILevel
// (compiler/protogen's fileAPILevel): features.(pb.go).api_level set on
// fd, else the edition's default (API_OPAQUE from edition 2024), else
// apilevelM<file>=, else default_api_level=, else API_OPEN.
func (g *generator) fileLevel(fd protoreflect.FileDescriptor) apiLevel {
	if n := apiLevel(goFeature(fd.Options(), apiLevelFeature)); n != apiUnspecified {
		return n
	}
	if fileEdition(fd) >= descriptorpb.Edition_EDITION_2024 {
		return apiOpaque
	}
	if l, ok := apiLevelNames[g.opts.APILevelMap[fd.Path()]]; ok {
		return l
	}
	if l, ok := apiLevelNames[g.opts.DefaultAPILevel]; ok {
		return l
	}
	return apiOpen
}

// fileIsHybrid reports whether fd is generated as two files, by build
// tag: as in protoc-gen-go, when the file's own level (fileLevel) is
// API_HYBRID, whatever its messages' levels; a message set to API_HYBRID
// in a file of another level gets its hybrid form in the one file.
func (g *generator) fileIsHybrid(fd protoreflect.FileDescriptor) bool {
	return g.fileLevel(fd) == apiHybrid
}

// protoopaqueName is the name of the opaque file of a hybrid one:
// x.pb.go -> x_protoopaque.pb.go.
func protoopaqueName(name string) string {
	return strings.TrimSuffix(name, ".pb.go") + "_protoopaque.pb.go"
}
