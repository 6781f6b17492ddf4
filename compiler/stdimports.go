package compiler

import (
	"context"
	"sync"

	"github.com/bufbuild/protocompile"
	"github.com/bufbuild/protocompile/linker"
	"github.com/bufbuild/protocompile/reporter"
	"github.com/bufbuild/protocompile/wellknownimports"
)

// standardFiles are the files every compilation can import without
// supplying them: the well-known types, descriptor.proto, plugin.proto and
// the language feature files, as protoc bundles them.
var standardFiles = []string{
	"google/protobuf/any.proto",
	"google/protobuf/api.proto",
	"google/protobuf/compiler/plugin.proto",
	"google/protobuf/cpp_features.proto",
	"google/protobuf/descriptor.proto",
	"google/protobuf/duration.proto",
	"google/protobuf/empty.proto",
	"google/protobuf/field_mask.proto",
	"google/protobuf/java_features.proto",
	"google/protobuf/source_context.proto",
	"google/protobuf/struct.proto",
	"google/protobuf/timestamp.proto",
	"google/protobuf/type.proto",
	"google/protobuf/wrappers.proto",
}

// std holds the standard files, compiled from source (with comments) once
// per process and shared by every Compile call. Parsing descriptor.proto
// alone costs milliseconds and tens of thousands of allocations, which the
// playground would otherwise pay on every keystroke.
var std struct {
	once  sync.Once
	files map[string]linker.File
}

// standardFile returns the compiled standard file name, if it is one.
func standardFile(name string) (linker.File, bool) {
	std.once.Do(func() {
		std.files = map[string]linker.File{}
		c := protocompile.Compiler{
			Resolver:       wellknownimports.WithStandardImports(protocompile.ResolverFunc(notFound)),
			Reporter:       reporter.NewReporter(func(err reporter.ErrorWithPos) error { return err }, nil),
			SourceInfoMode: protocompile.SourceInfoStandard,
			MaxParallelism: 1,
		}
		files, err := c.Compile(context.Background(), standardFiles...)
		if err != nil {
			return // fall back to compiling them with each request
		}
		for _, f := range files {
			std.files[f.Path()] = f
		}
	})
	f, ok := std.files[name]
	return f, ok
}

func notFound(string) (protocompile.SearchResult, error) {
	return protocompile.SearchResult{}, errNotFound
}

// standardResolver serves the precompiled standard files for names the
// request's own sources do not hold, and compiles any other bundled file
// (such as go_features.proto) from protocompile's copies.
func standardResolver(r protocompile.Resolver) protocompile.Resolver {
	bundled := wellknownimports.WithStandardImports(protocompile.ResolverFunc(notFound))
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
