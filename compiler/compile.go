// Package compiler compiles Protocol Buffers schemas to Go and works with
// protobuf messages against them: give it .proto sources and it returns
// their diagnostics and generated Go files, then encodes JSON or text
// values to bytes, decodes bytes back, and lists a payload's fields byte by
// byte. The examples show each operation.
//
// It is protoplay's one public surface: every request, result and error
// that a face (the CLI, the protoc plugin, the wasm bridge and through it
// the page and the npm package, the conformance testee, the benchmarks)
// sees is declared here, in the role esbuild gives pkg/api.
//
// Two entry points share it:
//
//   - Compile turns .proto sources (a map of path to text, or an fs.FS with
//     import roots) into descriptors, diagnostics and generated Go files;
//     Result.Schema then gives the schema-driven payload operations (encode,
//     decode, wire view, sample, check) by message type name.
//   - A Workspace answers the JSON-shaped requests of the browser and the
//     npm package (CompileRequest, EncodeRequest, ...), keeping the last
//     schema so that payload requests do not recompile it. Call dispatches
//     a request by method name; the TypeScript contract
//     (site/src/lib/api.gen.ts) is generated from these types.
//
// The stages live in subpackages: compiler/frontend (protocompile: sources
// to linked descriptors and diagnostics), compiler/gogen (Go naming and
// backend) and compiler/payload (encode/decode/inspect with
// google.golang.org/protobuf). Problems are reported in two shapes,
// declared in compiler/diag and named here: a Diagnostic, positioned in a
// source file, and an Error, the one error type every function of this
// package returns.
//
// The package does no I/O of its own. That is what lets the browser
// (GOOS=js), the CLI and the protoc plugin run exactly the same code and get
// the same bytes for the same input.
package compiler

import (
	"context"
	"fmt"
	"io/fs"
	"slices"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/protoplay/protoplay/compiler/descheck"
	"github.com/protoplay/protoplay/compiler/diag"
	"github.com/protoplay/protoplay/compiler/frontend"
	"github.com/protoplay/protoplay/compiler/gogen"
)

type (
	// Diagnostic is one error or warning about the input, positioned in a
	// source file (see diag.Diagnostic).
	Diagnostic = diag.Diagnostic
	// Severity is "error", "warning" or "note".
	Severity = diag.Severity
	// Error is the one error type of this package (see diag.Error): every
	// error it returns is an *Error with a Kind.
	Error = diag.Error
	// Limits bound one compilation (see frontend.Limits).
	Limits = frontend.Limits
	// Options are the Go generator's options (see gogen.Options and
	// ParseOptions).
	Options = gogen.Options
	// File is one generated Go file: a slash-separated path relative to the
	// output root, and its content.
	File = gogen.File
)

// Severities of a Diagnostic.
const (
	SeverityError   = diag.SeverityError
	SeverityWarning = diag.SeverityWarning
	SeverityNote    = diag.SeverityNote
)

// Kinds of Error (see diag.Error).
const (
	KindSchema   = diag.KindSchema
	KindPayload  = diag.KindPayload
	KindEncoding = diag.KindEncoding
	KindJSON     = diag.KindJSON
	KindText     = diag.KindText
	KindValue    = diag.KindValue
	KindType     = diag.KindType
	KindLimit    = diag.KindLimit
	KindUsage    = diag.KindUsage
	KindInternal = diag.KindInternal
)

// Default limits of one compilation (see Limits and frontend's constants
// of the same names).
const (
	MaxSourceBytes = frontend.MaxSourceBytes
	MaxFiles       = frontend.MaxFiles
	MaxNesting     = frontend.MaxNesting
	MaxLineScan    = frontend.MaxLineScan
	MaxOutputBytes = frontend.MaxOutputBytes
	// LineScanPerByte is how much MaxLineScan grows per byte of a file.
	LineScanPerByte = frontend.LineScanPerByte
)

// Names of the limits, as Diagnostic.Limit and Error.Limit give them.
const (
	LimitSourceBytes = diag.LimitSourceBytes
	LimitFiles       = diag.LimitFiles
	LimitNesting     = diag.LimitNesting
	LimitLineScan    = diag.LimitLineScan
	LimitOutputBytes = diag.LimitOutputBytes
	LimitMemoryBytes = diag.LimitMemoryBytes
	LimitDeadline    = diag.LimitDeadline
)

// ParseOptions parses protoc-style generator parameters, "k=v,k=v" (see
// gogen.ParseOptions). A bad parameter is an *Error of KindUsage.
func ParseOptions(param string) (Options, error) {
	o, err := gogen.ParseOptions(param)
	if err != nil {
		return o, diag.New(KindUsage, "%v", err)
	}
	return o, nil
}

// GoCamelCase is protoc-gen-go's name mangling, which protoplay shares:
// the Go name of a field or oneof called s ("foo_bar" -> "FooBar"),
// before collision suffixes (see gogen.GoCamelCase).
func GoCamelCase(s string) string { return gogen.GoCamelCase(s) }

// ProtoJSONResolverName is the name of the function the Go file generated
// for the .proto file at path declares to make its message types (and,
// through its fields, the types it uses) by full name, for
// google.protobuf.Any in ProtoJSON ("NewMessage_google_protobuf_any_proto";
// see gogen.ProtoJSONResolverName).
func ProtoJSONResolverName(path string) string { return gogen.ProtoJSONResolverName(path) }

// WellKnownImportPath returns the Go import path of protoplay's package
// for a well-known type's file (google/protobuf/timestamp.proto:
// github.com/protoplay/protoplay/runtime/wkt/timestamppb), which
// generated code imports; false for other files.
func WellKnownImportPath(path string) (string, bool) { return gogen.WellKnownImportPath(path) }

// ExtensionsListName is the name of the variable the Go file generated for
// the .proto file at path declares, when the file declares extensions, to
// list them for the Extensions option of ProtoJSON and the text format
// ("Extensions_google_protobuf_any_proto"; see gogen.ExtensionsListName).
func ExtensionsListName(path string) string { return gogen.ExtensionsListName(path) }

// Rehome returns base with options that place every file reachable from
// files (but the well-known types) under module, keeping each file's own
// import path below it (see gogen.Rehome): for writing a schema's
// generated packages into one module of their own.
func Rehome(files []protoreflect.FileDescriptor, module string, base Options) Options {
	return gogen.Rehome(files, module, base)
}

// MemoryInUse is the memory the Go runtime holds from the operating system,
// in bytes, as Limits.MaxMemoryBytes counts it.
func MemoryInUse() uint64 { return frontend.MemoryInUse() }

// Request is the input of one compilation.
type Request struct {
	// Sources maps a path (slash-separated, relative to an import root) to
	// the file's text. It is consulted before FS.
	Sources map[string]string
	// FS, if set, is searched for files not found in Sources. Paths are
	// looked up under each entry of ImportPaths, in order, as protoc's -I
	// flags are.
	FS fs.FS
	// ImportPaths are the roots searched in FS. Empty means the FS root.
	ImportPaths []string
	// ImportPathNames, when set, are ImportPaths as the user named them
	// (a command line's -I values where ImportPaths are their paths in
	// FS), in the same order: the note of a missing file lists them.
	ImportPathNames []string
	// Files are the files to compile and generate code for, named relative
	// to an import root. Imports they name are compiled too but produce no
	// output. When empty, every key of Sources is compiled, and every file
	// of the descriptor sets but the standard google/protobuf/*.proto ones
	// (imports only). A name that a descriptor set holds is taken
	// from the set, as protoc's --descriptor_set_in does.
	Files []string
	// DescriptorSets are compiled schemas given as input (protoc's
	// --descriptor_set_in, buf images): their files are checked as
	// protodesc.NewFiles checks them, linked as GenerateFromDescriptors
	// links a plugin's request, and join the result after the compiled
	// sources, to be generated and used like them. A Sources entry whose name ends in one
	// of DescriptorSetExtensions is a descriptor set too. A source file
	// cannot import a set's file. Problems are error diagnostics whose
	// File is the set's Name.
	DescriptorSets []DescriptorSet
	// Options are the Go generator options (see ParseOptions).
	Options Options
	// NoGenerate skips the Go backend; only descriptors and diagnostics are
	// produced.
	NoGenerate bool
	// GenerateImports also generates Go for the files that Files import,
	// directly or not, that are not in Sources: the bundled files
	// (googleapis's google/type, google/rpc, google/api ...), whose
	// go_package Go code the generated code imports and which no module
	// serves in protoplay's form. The well-known types are left out: their
	// Go is the runtime's (runtime/wkt). The playground's interpreter
	// needs them to run a schema that imports such a file. It is for
	// requests whose files are all in Sources (FS nil).
	GenerateImports bool
	// Limits bound the call; the zero value is the defaults.
	Limits Limits
	// Cache, if set, keeps the generated Go of each message and enum
	// between calls that share it, and reuses what did not change (see
	// gogen.Cache): the output is byte for byte that of a call without
	// it. A Workspace keeps one.
	Cache *GenerateCache
	// LinkCache, if set, keeps the linked source files between calls that
	// share it and reuses those that did not change, nor their imports
	// (see frontend.LinkCache). A Workspace keeps one.
	LinkCache *LinkCache
}

// LinkCache keeps linked source files between compilations (see
// frontend.LinkCache); the zero value is ready.
type LinkCache = frontend.LinkCache

// GenerateCache keeps generated pieces between compilations (see
// gogen.Cache); the zero value is ready.
type GenerateCache = gogen.Cache

// Result is the output of one compilation.
type Result struct {
	// Files are the linked descriptors of Request.Files, in request order;
	// imports are reachable through them. Nil when any error was reported.
	Files []protoreflect.FileDescriptor
	// Diagnostics holds every error and warning, sorted by file, line and
	// column.
	Diagnostics []Diagnostic
	// Generated holds the Go files, sorted by path. Nil when any error was
	// reported.
	Generated []File
}

// HasErrors reports whether any diagnostic is an error.
func (r *Result) HasErrors() bool { return frontend.HasErrors(r.Diagnostics) }

// Err returns nil if the result has no errors, or an *Error of KindSchema
// holding the diagnostics, whose message lists each error diagnostic on
// its own line.
func (r *Result) Err() error {
	if e := diag.Schema(r.Diagnostics); e != nil {
		return e
	}
	return nil
}

// Compile parses, links and (unless req.NoGenerate) generates Go for the
// requested files. It never panics: a panic inside any stage is returned as
// an error diagnostic saying "internal error". A limit of req.Limits that
// is hit, a cancelled ctx or one past its deadline stop the compilation
// with an error diagnostic (with Limit set, for limits and the deadline):
// the deadline and MaxMemoryBytes are checked before parsing, between
// files, after linking and after each generated message; the input limits
// before each file is parsed; MaxOutputBytes as the output grows. No stage
// runs unchecked for long: a file's parse and link are bounded by
// MaxSourceBytes and MaxNesting, and generation time grows linearly with
// the output.
func Compile(ctx context.Context, req Request) *Result {
	fe := withSets(ctx, req)
	res := &Result{Files: fe.Files, Diagnostics: fe.Diagnostics}
	if res.HasErrors() || req.NoGenerate {
		return res
	}
	maxOut := frontend.Limit(req.Limits.MaxOutputBytes, MaxOutputBytes)
	files := res.Files
	if req.GenerateImports {
		files = append(slices.Clip(files), bundledImports(files, req.Sources)...)
	}
	res.Generated, res.Diagnostics = generate(files, req.Options, req.Cache, res.Diagnostics, func(n int) error {
		if n > maxOut {
			return &Error{Kind: KindLimit, Limit: LimitOutputBytes, Offset: -1,
				Message: fmt.Sprintf("generation stopped: over %d bytes of Go, the limit (MaxOutputBytes)", maxOut)}
		}
		return frontend.StopCheck(ctx, req.Limits.MaxMemoryBytes)
	})
	if res.HasErrors() {
		res.Files = nil
	}
	return res
}

// ImportClosure returns the files that files import, directly or not,
// that are not among files themselves: each once, every file after the
// files it imports (a depth-first walk's post-order).
func ImportClosure(files []protoreflect.FileDescriptor) []protoreflect.FileDescriptor {
	var out []protoreflect.FileDescriptor
	seen := map[string]bool{}
	for _, fd := range files {
		seen[fd.Path()] = true
	}
	var walk func(fd protoreflect.FileDescriptor)
	walk = func(fd protoreflect.FileDescriptor) {
		imps := fd.Imports()
		for i := 0; i < imps.Len(); i++ {
			imp := imps.Get(i).FileDescriptor
			if !seen[imp.Path()] {
				seen[imp.Path()] = true
				walk(imp)
				out = append(out, imp)
			}
		}
	}
	for _, fd := range files {
		walk(fd)
	}
	return out
}

// bundledImports returns the files of files' import closure that are not
// in sources and are not well-known types (whose Go is runtime/wkt).
func bundledImports(files []protoreflect.FileDescriptor, sources Sources) []protoreflect.FileDescriptor {
	var out []protoreflect.FileDescriptor
	for _, imp := range ImportClosure(files) {
		_, inSources := sources[imp.Path()]
		if _, wkt := gogen.WellKnownImportPath(imp.Path()); !inSources && !wkt {
			out = append(out, imp)
		}
	}
	return out
}

// generate runs the Go backend on files, appending its diagnostics to ds;
// a panic in it becomes an "internal error" diagnostic and no files.
func generate(files []protoreflect.FileDescriptor, opts Options, cache *GenerateCache, in []Diagnostic, check func(int) error) (out []File, ds []Diagnostic) {
	ds = in
	defer func() { ds = frontend.Tidy(ds) }()
	defer frontend.Recover(&ds, func() { out = nil })
	out, gds := gogen.GenerateCached(files, opts, check, cache)
	ds = append(ds, gds...)
	if frontend.HasErrors(gds) {
		out = nil
	}
	return out, ds
}

// GenerateFromDescriptors is the protoc plugin's entry point: it links the
// files of a CodeGeneratorRequest (protos: the files to generate and their
// whole import closure, as protoc sends them) with the same linker Compile
// uses, and generates Go for files. The descriptors are first checked as
// protodesc.NewFiles checks them (see package descheck): the linker trusts
// what a parser would have refused. Problems, in the request or in
// generation, are error diagnostics; it never panics.
func GenerateFromDescriptors(protos []*descriptorpb.FileDescriptorProto, files []string, opts Options) *Result {
	if ds := descheck.Files(protos); len(ds) > 0 {
		return &Result{Diagnostics: ds}
	}
	fe := frontend.Link(protos, files)
	res := &Result{Files: fe.Files, Diagnostics: fe.Diagnostics}
	if res.HasErrors() {
		return res
	}
	res.Generated, res.Diagnostics = generate(res.Files, opts, nil, res.Diagnostics, nil)
	if res.HasErrors() {
		res.Files = nil
	}
	return res
}
