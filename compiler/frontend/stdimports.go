package frontend

import (
	"embed"
	"io/fs"
	"slices"
	"sync"

	"github.com/bufbuild/protocompile/wellknownimports"
	"github.com/protoplay/protoplay/compiler/gogen"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"
)

// standardFiles are the files every compilation can import without
// supplying them, as protoc bundles them: the well-known type files
// (gogen.WellKnownFiles, descriptor.proto included), plugin.proto and the
// language feature files (cpp, go, java); see standardSource.
var standardFiles = append(gogen.WellKnownFiles(),
	"google/protobuf/compiler/plugin.proto",
	"google/protobuf/cpp_features.proto",
	"google/protobuf/go_features.proto",
	"google/protobuf/java_features.proto",
)

// bundledSources holds the source of go_features.proto as
// google.golang.org/protobuf ships it (see bundled/LICENSE): the
// compiler's own copy may be of another version.
//
//go:embed bundled/google/protobuf/go_features.proto
var bundledSources embed.FS

// standardSource returns the source text of the standard file name:
// go_features.proto from bundled/, the other well-known type and feature
// files from protocompile's wellknownimports (the text protoc bundles, of
// the version the compiler is built for), the googleapis files printed
// from their descriptors (googleapisSource). The compiler parses a
// standard file once per session; a LinkCache keeps it between compiles.
func standardSource(name string) (string, bool) {
	if !isStandard(name) {
		return "", false
	}
	if v, ok := standardSources.Load(name); ok {
		return v.(string), true
	}
	text, ok := readStandardSource(name)
	if ok {
		standardSources.Store(name, text)
	}
	return text, ok
}

// standardSources memoizes standardSource, by path.
var standardSources sync.Map

func readStandardSource(name string) (string, bool) {
	if name == "google/protobuf/go_features.proto" {
		b, err := bundledSources.ReadFile("bundled/" + name)
		return string(b), err == nil
	}
	if slices.Contains(standardFiles, name) {
		b, err := fs.ReadFile(wellknownimports.FS(), name)
		return string(b), err == nil
	}
	return googleapisSource(name)
}

// googleapisSet holds the descriptors (without source info, so without
// comments) of the common googleapis files: google/api (annotations.proto,
// http.proto, field_behavior.proto, resource.proto, client.proto, ...),
// google/type, google/rpc and google/longrunning/operations.proto, as a
// FileDescriptorSet written by internal/googleapis-gen from the Go packages
// Google publishes for them (googleapis/SOURCES.txt names the versions and
// files). They are Google's, under the Apache License 2.0
// (googleapis/LICENSE). A compilation imports them as it imports the
// well-known types; a file of the same name in the request's sources wins.
//
//go:embed googleapis/googleapis.binpb
var googleapisSet []byte

var googleapis = sync.OnceValue(func() map[string]*descriptorpb.FileDescriptorProto {
	var set descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(googleapisSet, &set); err != nil {
		panic("frontend: embedded googleapis.binpb: " + err.Error())
	}
	m := make(map[string]*descriptorpb.FileDescriptorProto, len(set.File))
	for _, f := range set.File {
		m[f.GetName()] = f
	}
	return m
})

// GoogleAPIsFiles returns the googleapis files every compilation can
// import (see googleapisSet), sorted by path.
func GoogleAPIsFiles() []string {
	names := make([]string, 0, len(googleapis()))
	for name := range googleapis() {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// isStandard reports whether name is a standard file: a well-known type or
// feature file (standardFiles) or a googleapis file (googleapisSet).
func isStandard(name string) bool {
	if slices.Contains(standardFiles, name) {
		return true
	}
	_, ok := googleapis()[name]
	return ok
}

// googleapisSource returns the source text of the googleapis file name,
// printed from its embedded descriptor (see printProto).
func googleapisSource(name string) (string, bool) {
	fdp, ok := googleapis()[name]
	if !ok {
		return "", false
	}
	return printProto(fdp), true
}
