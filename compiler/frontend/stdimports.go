package frontend

import (
	_ "embed"
	"slices"
	"sync"

	"github.com/protoplay/protoplay/compiler/gogen"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

// standardFiles are the files every compilation can import without
// supplying them, as protoc bundles them: the well-known type files
// (gogen.WellKnownFiles, descriptor.proto included), plugin.proto and the
// language feature files (cpp, go, java). Their descriptors are embedded
// (standardSet).
var standardFiles = append(gogen.WellKnownFiles(),
	"google/protobuf/compiler/plugin.proto",
	"google/protobuf/cpp_features.proto",
	"google/protobuf/go_features.proto",
	"google/protobuf/java_features.proto",
)

// standardSet holds the standard files (standardFiles), source info
// (comments and spans) included: a FileDescriptorSet, each file after the
// files it imports, written by TestStandardSet (go test ./compiler/frontend
// -run TestStandardSet -update, part of make generate). A file
// google.golang.org/protobuf compiles in is the descriptor of the version
// go.mod pins (TestStandardSetIsPinned fails when they part), with the
// comments protocompile's wellknownimports copy (go.mod's version) gives its
// elements; cpp_features.proto and java_features.proto are protocompile's
// copies compiled (bundled/SOURCES.txt). The files are the Protocol
// Buffers project's, under its BSD-3-Clause license (bundled/LICENSE).
//
// The compiler takes sources only, so it reads each standard file as the
// text standardSource prints from its descriptor (no comments: descriptor.
// proto's source is 1,300 lines of mostly comments, and parsing them was
// the largest part of the first compile in the browser); what a
// compilation returns for a standard file, and what the files it compiles
// link against, is the embedded descriptor itself (standardLinked).
// TestStandardSourcesCompileToPinned checks that the compiler makes the
// embedded descriptor of each printed source, so that what it resolved
// and the descriptors it returns agree.
//
//go:embed bundled/standard.binpb
var standardSet []byte

// standardProtos splits standardSet into each file's encoded
// FileDescriptorProto, by path, without decoding them: a compilation
// decodes only the files it imports.
var standardProtos = sync.OnceValue(func() map[string][]byte {
	m := make(map[string][]byte, len(standardFiles))
	for b := standardSet; len(b) > 0; {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			panic("frontend: embedded standard.binpb: " + protowire.ParseError(n).Error())
		}
		b = b[n:]
		if num != 1 || typ != protowire.BytesType { // FileDescriptorSet.file
			if n = protowire.ConsumeFieldValue(num, typ, b); n < 0 {
				panic("frontend: embedded standard.binpb: " + protowire.ParseError(n).Error())
			}
			b = b[n:]
			continue
		}
		v, n := protowire.ConsumeBytes(b)
		if n < 0 {
			panic("frontend: embedded standard.binpb: " + protowire.ParseError(n).Error())
		}
		b = b[n:]
		m[protoName(v)] = v
	}
	return m
})

// protoName is the name (field 1) of an encoded FileDescriptorProto, ""
// if it has none.
func protoName(b []byte) string {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return ""
		}
		b = b[n:]
		if num == 1 && typ == protowire.BytesType {
			v, _ := protowire.ConsumeBytes(b)
			return string(v)
		}
		if n = protowire.ConsumeFieldValue(num, typ, b); n < 0 {
			return ""
		}
		b = b[n:]
	}
	return ""
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

// standardDescriptor returns the descriptor of the standard file name
// (standardSet or googleapisSet), a copy the caller may change, nil if it
// is not one.
func standardDescriptor(name string) *descriptorpb.FileDescriptorProto {
	if b, ok := standardProtos()[name]; ok {
		fdp := new(descriptorpb.FileDescriptorProto)
		if err := proto.Unmarshal(b, fdp); err != nil {
			return nil
		}
		return fdp
	}
	if fdp, ok := googleapis()[name]; ok {
		return proto.Clone(fdp).(*descriptorpb.FileDescriptorProto)
	}
	return nil
}

// standardSource returns the source text the compiler reads for the
// standard file name: printed from its embedded descriptor (printProto),
// once per process.
func standardSource(name string) (string, bool) {
	if !isStandard(name) {
		return "", false
	}
	if v, ok := standardTexts.Load(name); ok {
		return v.(string), true
	}
	fdp := standardDescriptor(name)
	if fdp == nil {
		return "", false
	}
	text := printProto(fdp)
	v, _ := standardTexts.LoadOrStore(name, text)
	return v.(string), true
}

// standardTexts memoizes standardSource, by path.
var standardTexts sync.Map

// std holds the protobuf-go descriptors of the standard files, each built
// the first time a compilation imports it (with the standard files it
// imports) and shared by every later compilation, whatever its LinkCache:
// a schema importing only timestamp.proto never pays for api.proto.
var std struct {
	mu    sync.Mutex
	files map[string]*stdFile
}

type stdFile struct {
	once sync.Once
	lf   *linkedFile // nil if it failed to build
}

// standardLinked returns the descriptor of the standard file name built
// from its embedded descriptor (source info included), shared by every
// compilation, or nil if name is not a standard file.
func standardLinked(name string) *linkedFile {
	if !isStandard(name) {
		return nil
	}
	std.mu.Lock()
	if std.files == nil {
		std.files = map[string]*stdFile{}
	}
	e := std.files[name]
	if e == nil {
		e = &stdFile{}
		std.files[name] = e
	}
	std.mu.Unlock()
	e.once.Do(func() {
		fdp := standardDescriptor(name)
		if fdp == nil {
			return
		}
		deps := map[string]*linkedFile{}
		for _, dep := range fdp.GetDependency() {
			lf := standardLinked(dep)
			if lf == nil {
				return
			}
			deps[dep] = lf
		}
		fd, err := newFileDescriptor(fdp, deps)
		if err != nil {
			return // TestStandardSet rules this out
		}
		e.lf = &linkedFile{fd: fd}
	})
	return e.lf
}

// standardFD is standardLinked's descriptor, nil if there is none.
func standardFD(name string) protoreflect.FileDescriptor {
	if lf := standardLinked(name); lf != nil {
		return lf.fd
	}
	return nil
}
