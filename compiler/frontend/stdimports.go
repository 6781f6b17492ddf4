package frontend

import (
	"context"
	"embed"
	"io"
	"slices"
	"sync"

	"github.com/bufbuild/protocompile"
	"github.com/bufbuild/protocompile/linker"
	"github.com/bufbuild/protocompile/reporter"
	"github.com/bufbuild/protocompile/wellknownimports"
	"github.com/protoplay/protoplay/compiler/gogen"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"
)

// standardFiles are the files every compilation can import without
// supplying them, as protoc bundles them: the well-known type files
// (gogen.WellKnownFiles, descriptor.proto included), plugin.proto and the
// language feature files (cpp, go, java). protocompile's wellknownimports
// holds the source of all but go_features.proto, which protoplay embeds
// (see bundledFiles).
var standardFiles = append(gogen.WellKnownFiles(),
	"google/protobuf/compiler/plugin.proto",
	"google/protobuf/cpp_features.proto",
	"google/protobuf/go_features.proto",
	"google/protobuf/java_features.proto",
)

// std holds the standard files, each compiled from source (with comments)
// the first time a compilation imports it, with the standard files it
// imports, and shared by every later Compile call. Parsing descriptor.proto
// alone costs milliseconds and tens of thousands of allocations natively
// (hundreds of milliseconds in the browser's first compile), which the
// playground would otherwise pay on every keystroke; a schema importing only
// timestamp.proto never pays for api.proto or plugin.proto.
var std struct {
	mu    sync.Mutex
	files map[string]*stdFile
}

type stdFile struct {
	once sync.Once
	file linker.File // nil if it failed to compile
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

// standardFile returns the compiled standard file name, if it is one.
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
		bundled := bundledSources()
		c := protocompile.Compiler{
			// The file itself from protocompile's bundled sources; the
			// standard files it imports compiled (and cached) on their own.
			Resolver: protocompile.ResolverFunc(func(path string) (protocompile.SearchResult, error) {
				if path != name {
					if f, ok := standardFile(path); ok {
						return protocompile.SearchResult{Desc: f}, nil
					}
				}
				if fdp, ok := googleapis()[path]; ok {
					return protocompile.SearchResult{Proto: proto.Clone(fdp).(*descriptorpb.FileDescriptorProto)}, nil
				}
				return bundled.FindFileByPath(path)
			}),
			Reporter:       reporter.NewReporter(func(err reporter.ErrorWithPos) error { return err }, nil),
			SourceInfoMode: protocompile.SourceInfoStandard,
			MaxParallelism: 1,
		}
		files, err := c.Compile(context.Background(), name)
		if err == nil && len(files) == 1 {
			e.file = files[0]
		}
		// On failure the file is compiled with each request instead.
	})
	return e.file, e.file != nil
}

func notFound(string) (protocompile.SearchResult, error) {
	return protocompile.SearchResult{}, errNotFound
}

// bundledFiles holds the source of the standard files protocompile does not
// bundle: google/protobuf/go_features.proto, copied unchanged from
// google.golang.org/protobuf v1.36.12 (src/google/protobuf), the version
// whose gofeaturespb package this module links. It is the protobuf
// project's file, under its BSD-3-Clause license (bundled/LICENSE).
//
//go:embed bundled/google/protobuf/*.proto
var bundledFiles embed.FS

// bundledSources resolves the source text of every standard file:
// protocompile's copies, then bundledFiles.
func bundledSources() protocompile.Resolver {
	return protocompile.CompositeResolver{
		wellknownimports.WithStandardImports(protocompile.ResolverFunc(notFound)),
		&protocompile.SourceResolver{Accessor: func(path string) (io.ReadCloser, error) {
			return bundledFiles.Open("bundled/" + path)
		}},
	}
}

// standardResolver serves the precompiled standard files for names the
// request's own sources do not hold; a standard file that failed to
// precompile is compiled from its bundled source with the request.
func standardResolver(r protocompile.Resolver) protocompile.Resolver {
	bundled := bundledSources()
	return protocompile.ResolverFunc(func(name string) (protocompile.SearchResult, error) {
		res, err := r.FindFileByPath(name)
		if err == nil {
			return res, nil
		}
		if f, ok := standardFile(name); ok {
			return protocompile.SearchResult{Desc: f}, nil
		}
		if res, berr := bundled.FindFileByPath(name); berr == nil {
			return res, nil
		}
		return protocompile.SearchResult{}, err
	})
}
