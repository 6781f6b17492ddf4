package frontend

import (
	"context"
	_ "embed"
	"slices"
	"sync"

	"github.com/bufbuild/protocompile"
	"github.com/bufbuild/protocompile/linker"
	"github.com/bufbuild/protocompile/reporter"
	"github.com/protoplay/protoplay/compiler/gogen"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
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

// std holds the standard files, each linked the first time a compilation
// imports it, with the standard files it imports, and shared by every later
// Compile call: a schema importing only timestamp.proto never pays for
// api.proto or plugin.proto.
var std struct {
	mu    sync.Mutex
	files map[string]*stdFile
}

type stdFile struct {
	once sync.Once
	file linker.File // nil if it failed to link
}

// standardSet holds the standard files (standardFiles), source info
// (comments and spans) included: a FileDescriptorSet, each file after the
// files it imports, written by TestStandardSet (go test ./compiler/frontend
// -run TestStandardSet -update, part of make generate). A file
// google.golang.org/protobuf compiles in is the descriptor of the version
// go.mod pins (TestStandardSetIsPinned fails when they part), with the
// comments protocompile's wellknownimports copy (go.mod's version) gives its
// elements; cpp_features.proto and java_features.proto are protocompile's
// copies compiled (bundled/SOURCES.txt). A compilation links a standard file from its descriptor instead of parsing
// its source: descriptor.proto, which option interpretation needs in every
// compilation, is 1,300 lines of mostly comments, and parsing it was the
// largest part of the first compile in the browser (before the engine has
// compiled the parser's code). The files are the Protocol Buffers
// project's, under its BSD-3-Clause license (bundled/LICENSE).
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
// (standardSet or googleapisSet), nil if it is not one.
func standardDescriptor(name string) *descriptorpb.FileDescriptorProto {
	if b, ok := standardProtos()[name]; ok {
		fdp := new(descriptorpb.FileDescriptorProto)
		if err := proto.Unmarshal(b, fdp); err != nil {
			return nil
		}
		return fdp
	}
	if fdp, ok := googleapis()[name]; ok {
		// A copy: the map is shared by every compilation, and protocompile
		// is free to change what it links.
		return proto.Clone(fdp).(*descriptorpb.FileDescriptorProto)
	}
	return nil
}

// standardFile returns the linked standard file name, if it is one.
func standardFile(name string) (linker.File, bool) {
	if !isStandard(name) {
		return nil, false
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
		c := protocompile.Compiler{
			// The file itself from its descriptor; the standard files it
			// imports linked (and cached) on their own.
			Resolver: protocompile.ResolverFunc(func(path string) (protocompile.SearchResult, error) {
				if path == name {
					return protocompile.SearchResult{Proto: fdp}, nil
				}
				if f, ok := standardFile(path); ok {
					return protocompile.SearchResult{Desc: f}, nil
				}
				return protocompile.SearchResult{}, errNotFound
			}),
			Reporter:       reporter.NewReporter(func(err reporter.ErrorWithPos) error { return err }, nil),
			SourceInfoMode: protocompile.SourceInfoStandard,
			MaxParallelism: 1,
		}
		files, err := c.Compile(context.Background(), name)
		if err == nil && len(files) == 1 {
			e.file = files[0]
		}
		// On failure (which TestStandardSet rules out) the file is not
		// found.
	})
	return e.file, e.file != nil
}

// standardResolver serves the standard files for names the request's own
// sources do not hold.
func standardResolver(r protocompile.Resolver) protocompile.Resolver {
	return protocompile.ResolverFunc(func(name string) (protocompile.SearchResult, error) {
		res, err := r.FindFileByPath(name)
		if err == nil {
			return res, nil
		}
		if f, ok := standardFile(name); ok {
			return protocompile.SearchResult{Desc: f}, nil
		}
		return protocompile.SearchResult{}, err
	})
}
