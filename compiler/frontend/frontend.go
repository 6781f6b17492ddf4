// Package frontend is the compiler's first stage: .proto sources (a map of
// path to text, or an fs.FS) in, linked descriptors and positioned
// diagnostics out. Parsing, linking and option interpretation are done by
// github.com/bufbuild/protocompile; this package adds the limits, the
// standard imports (the well-known types and the feature files, as protoc
// bundles them), the checks protocompile lacks (see precheck and
// linkCheck) and the descriptor entry point of the protoc plugin (Link).
//
// It does no I/O of its own beyond reading the fs.FS it is given.
package frontend

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/bufbuild/protocompile"
	"github.com/bufbuild/protocompile/ast"
	"github.com/bufbuild/protocompile/linker"
	"github.com/bufbuild/protocompile/parser"
	"github.com/bufbuild/protocompile/reporter"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/protoplay/protoplay/compiler/diag"
)

// Default limits of one Compile call (see Limits). They keep a browser tab
// and a shared CI machine safe from pathological input; each is reported as
// an error diagnostic naming it (Diagnostic.Limit), never a crash or a
// hang.
const (
	// MaxSourceBytes is the largest single source file accepted, in bytes
	// (8 MiB), checked before the file is parsed.
	MaxSourceBytes = 8 << 20
	// MaxFiles is the largest number of files one request may name.
	MaxFiles = 10000
	// MaxNesting is the deepest nesting of brackets ({ [ ( <, outside
	// strings and comments) in one source file, checked before it is
	// parsed: messages in messages, and above all option values
	// (option (x) = { a: { b: { ... } } }), whose parsing and
	// interpretation cost grows with the square of their depth (a 280 KB
	// file nested 40,000 deep took 20 s and 5.9 GB before this limit).
	// The deepest file in ../shared/corpus nests 6.
	MaxNesting = 100
	// MaxOutputBytes is the most Go one call may generate, in bytes
	// (256 MiB), checked as the output grows: generation holds the output
	// in memory, about 5 times its size at its peak (20,000 small messages
	// make 111 MB of Go).
	MaxOutputBytes = 256 << 20
)

// Limits bound one compilation, front end and backend (package compiler
// checks MaxOutputBytes as the Go backend writes; this package the
// others). A zero field means the default of the same name above; a
// negative one, no limit. Time is bounded by the context's deadline (see
// Compile). Each limit hit is an error diagnostic whose Limit field names
// it.
type Limits struct {
	MaxSourceBytes int
	MaxFiles       int
	MaxNesting     int
	MaxOutputBytes int
	// MaxMemoryBytes bounds the memory the Go runtime holds from the
	// operating system (runtime/metrics /memory/classes/total:bytes less
	// heap/released; under GOOS=js, about the WebAssembly memory's size),
	// checked between stages and after each generated message, so a
	// stage's own peak can pass it before it is seen. 0 (the default):
	// not checked. The process's memory is the whole process's: set it
	// where one compilation is all the process does (the CLI, the wasm).
	MaxMemoryBytes int64
}

// Limit returns v, or def when v is 0; a negative v means no limit.
func Limit(v, def int) int {
	switch {
	case v == 0:
		return def
	case v < 0:
		return math.MaxInt
	}
	return v
}

// StopCheck returns a *diag.Error of kind KindLimit when ctx is done (cancelled or past its
// deadline, which is compared with the clock, so that it holds under
// GOOS=js, where a busy goroutine keeps timers from firing) or the Go
// runtime holds more than maxMem bytes (when maxMem > 0).
func StopCheck(ctx context.Context, maxMem int64) error {
	if dl, ok := ctx.Deadline(); ok && !time.Now().Before(dl) {
		return limitError(diag.LimitDeadline, "compilation stopped at its deadline (time limit)")
	}
	if err := ctx.Err(); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return limitError(diag.LimitDeadline, "compilation stopped at its deadline (time limit)")
		}
		return err
	}
	if maxMem > 0 {
		if m := MemoryInUse(); m > uint64(maxMem) {
			return limitError(diag.LimitMemoryBytes, fmt.Sprintf("compilation stopped: memory in use over %d MiB, the limit (MaxMemoryBytes)", maxMem>>20))
		}
	}
	return nil
}

// MemoryInUse is the memory the Go runtime holds from the operating system,
// in bytes, as Limits.MaxMemoryBytes counts it: runtime/metrics
// /memory/classes/total:bytes less /memory/classes/heap/released:bytes.
func MemoryInUse() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64() - s[1].Value.Uint64()
}

// limitError is the error of a limit hit: a *diag.Error of kind KindLimit
// naming it.
func limitError(name, msg string) *diag.Error {
	return &diag.Error{Kind: diag.KindLimit, Limit: name, Message: msg, Offset: -1}
}

// Request is the input of the front end.
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
	// Files are the files to compile, named relative to an import root.
	// Imports they name are compiled too. When empty, every key of Sources
	// is compiled.
	Files []string
	// Limits bound the call; the zero value is the defaults.
	Limits Limits
	// Cache, if set, keeps the linked source files between compiles that
	// share it and reuses those that did not change (see LinkCache).
	Cache *LinkCache
}

// Result is the output of the front end.
type Result struct {
	// Files are the linked descriptors of Request.Files, in request order;
	// imports are reachable through them. Nil when any error was reported.
	Files []protoreflect.FileDescriptor
	// Diagnostics holds every error and warning, sorted by file, line and
	// column.
	Diagnostics []diag.Diagnostic
}

// HasErrors reports whether any diagnostic is an error.
func (r *Result) HasErrors() bool { return HasErrors(r.Diagnostics) }

// HasErrors reports whether any of ds is an error.
func HasErrors(ds []diag.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == diag.SeverityError {
			return true
		}
	}
	return false
}

// Recover turns a panic of a stage into an error diagnostic saying
// "internal error", appended to *ds; call it deferred. onPanic, if not nil,
// runs first (to drop partial results).
func Recover(ds *[]diag.Diagnostic, onPanic func()) {
	if p := recover(); p != nil {
		if onPanic != nil {
			onPanic()
		}
		*ds = append(*ds, diag.Errorf("internal error: %v\n%s", p, debug.Stack()))
	}
}

// Compile parses and links the requested files. It never panics: a panic
// inside protocompile or a check is returned as an error diagnostic saying
// "internal error". A limit of req.Limits that is hit, a cancelled ctx or
// one past its deadline stop the compilation with an error diagnostic
// (with Limit set, for limits and the deadline): the deadline and
// MaxMemoryBytes are checked before parsing, between files and after
// linking; the input limits before each file is parsed. A file's parse and
// link are bounded by MaxSourceBytes and MaxNesting.
func Compile(ctx context.Context, req Request) (res *Result) {
	res = &Result{}
	defer func() {
		Recover(&res.Diagnostics, func() { res.Files = nil })
		res.Diagnostics = Tidy(res.Diagnostics)
	}()

	files := append([]string(nil), req.Files...) // cleaned below; the caller's slice stays as given
	if len(files) == 0 {
		for name := range req.Sources {
			files = append(files, name)
		}
		sort.Strings(files)
	}
	if len(files) == 0 {
		res.Diagnostics = append(res.Diagnostics, diag.Errorf("no input files"))
		return res
	}
	if maxFiles := Limit(req.Limits.MaxFiles, MaxFiles); len(files) > maxFiles {
		d := diag.Errorf("%d input files exceed the limit of %d (MaxFiles)", len(files), maxFiles)
		d.Limit = diag.LimitFiles
		res.Diagnostics = append(res.Diagnostics, d)
		return res
	}
	if err := StopCheck(ctx, req.Limits.MaxMemoryBytes); err != nil {
		res.Diagnostics = append(res.Diagnostics, diagnosticOfError(err))
		return res
	}
	for i, f := range files {
		files[i] = path.Clean(strings.ReplaceAll(f, "\\", "/"))
	}

	defer func() {
		res.Diagnostics = append(res.Diagnostics, missingSemicolonNotes(&req, res.Diagnostics)...)
		res.Diagnostics = append(res.Diagnostics, missingImportErrors(&req, files, res.Diagnostics)...)
	}()
	cache := req.Cache.lookup(&req)
	linked, err := compileFilesCached(ctx, &req, files, false, cache, &res.Diagnostics)
	res.Diagnostics = append(res.Diagnostics, cache.warningsOfReused()...)
	if err == nil || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		// Say which limit stopped protocompile, if one did.
		if serr := StopCheck(ctx, req.Limits.MaxMemoryBytes); serr != nil {
			err = serr
		}
	}
	if err != nil {
		if isLimit(err) || !errors.Is(err, reporter.ErrInvalidSource) && !res.HasErrors() {
			res.Diagnostics = append(res.Diagnostics, diagnosticOfError(err))
		} else if errors.Is(err, reporter.ErrInvalidSource) {
			res.Diagnostics = append(res.Diagnostics, linkErrors(ctx, &req, files)...)
		}
		return res
	}
	res.Diagnostics = append(res.Diagnostics, linkCheck(linked)...)
	if res.HasErrors() {
		return res
	}
	cache.store(linked, res.Diagnostics)
	res.Files = descriptors(linked)
	return res
}

// missingImportErrors repeats each "file not found" error of an import at
// every other import of the same file, as protoc reports "Import ... was
// not found" for each importer: protocompile resolves a file once and
// reports a failure only at the first import that asked for it, so a
// file that several files import (and that was deleted or misnamed)
// would show one error among them. The importers looked at are the
// request's Sources and its files to compile (the CLI's roots); they are
// parsed again only here, when such an error was reported.
func missingImportErrors(req *Request, files []string, ds []diag.Diagnostic) []diag.Diagnostic {
	missing := map[string]diag.Diagnostic{} // import path -> the error reported
	for _, d := range ds {
		if d.Severity != diag.SeverityError {
			continue
		}
		if name, ok := strings.CutSuffix(d.Message, ": "+errNotFound.Error()); ok && d.Line > 0 {
			if _, seen := missing[name]; !seen {
				missing[name] = d
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	names := append([]string(nil), files...)
	for name := range req.Sources {
		names = append(names, name)
	}
	sort.Strings(names)
	names = slices.Compact(names)
	r := &sourceResolver{req: req}
	var out []diag.Diagnostic
	for _, name := range names {
		src, err := r.find(name)
		if err != nil {
			continue
		}
		var file *ast.FileNode
		for _, decl := range importsOf(name, src, &file) {
			d, ok := missing[decl.Name.AsString()]
			if !ok {
				continue
			}
			at := file.NodeInfo(decl.Name).Start()
			d.File, d.Line, d.Column, d.EndLine, d.EndColumn = name, at.Line, at.Col, 0, 0
			if end := file.NodeInfo(decl.Name).End(); end.Line > 0 {
				d.EndLine, d.EndColumn = end.Line, end.Col
			}
			out = append(out, d)
		}
	}
	return out
}

// importsOf returns the import declarations of the file name with text
// src, and sets *file to its AST; none when it does not parse or imports
// nothing (a quick look at the text first).
func importsOf(name, src string, file **ast.FileNode) []*ast.ImportNode {
	if !strings.Contains(src, "import") {
		return nil
	}
	f, err := parser.Parse(name, strings.NewReader(src), reporter.NewHandler(nil))
	if err != nil {
		return nil
	}
	*file = f
	var imps []*ast.ImportNode
	for _, decl := range f.Decls {
		if imp, ok := decl.(*ast.ImportNode); ok {
			imps = append(imps, imp)
		}
	}
	return imps
}

// missingSemicolonNotes adds, for each "expecting ';'" syntax error whose
// token starts a later line than the previous token ends, a note at the
// end of that previous token: the error stands where protoc puts it (the
// next token), the note where the ';' belongs.
func missingSemicolonNotes(req *Request, ds []diag.Diagnostic) []diag.Diagnostic {
	var notes []diag.Diagnostic
	r := &sourceResolver{req: req}
	for _, d := range ds {
		if d.Severity != diag.SeverityError || d.Line < 1 || !strings.Contains(d.Message, "expecting ';'") {
			continue
		}
		src, err := r.find(d.File)
		if err != nil {
			continue
		}
		line, col, ok := previousTokenEnd(src, d.Line, d.Column)
		if !ok || line >= d.Line {
			continue
		}
		notes = append(notes, diag.Diagnostic{File: d.File, Line: line, Column: col, Severity: diag.SeverityNote,
			Message: fmt.Sprintf("missing ';' here, at the end of the statement before line %d", d.Line)})
	}
	return notes
}

// previousTokenEnd returns the 1-based line and byte column just after the
// last token of src before line:col, skipping blanks and comments (// and
// /* */, outside strings).
func previousTokenEnd(src string, line, col int) (int, int, bool) {
	// Byte offset of line:col.
	off, l := 0, 1
	for l < line {
		i := strings.IndexByte(src[off:], '\n')
		if i < 0 {
			return 0, 0, false
		}
		off += i + 1
		l++
	}
	off += col - 1
	if off > len(src) {
		return 0, 0, false
	}
	// Where each line's code ends, comments stripped, scanning forward
	// (comments cannot be told apart going backwards).
	last := -1 // offset just after the last code byte before off
	inBlock := false
	for i := 0; i < off; i++ {
		c := src[i]
		switch {
		case inBlock:
			if c == '*' && i+1 < len(src) && src[i+1] == '/' {
				inBlock = false
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < off && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			inBlock = true
			i++
		case c == '"' || c == '\'':
			q := c
			for i++; i < off && src[i] != q && src[i] != '\n'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
			last = i + 1
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
		default:
			last = i + 1
		}
	}
	if last < 0 {
		return 0, 0, false
	}
	nl := strings.LastIndexByte(src[:last], '\n')
	return strings.Count(src[:last], "\n") + 1, last - nl, true
}

// compileFiles runs protocompile on files, appending its errors and
// warnings to *ds. With noValidate, the sources' parse results are handed
// to the linker without protocompile's validation (see linkErrors).
func compileFiles(ctx context.Context, req *Request, files []string, noValidate bool, ds *[]diag.Diagnostic) (linker.Files, error) {
	return compileFilesCached(ctx, req, files, noValidate, nil, ds)
}

// compileFilesCached is compileFiles serving the source files cache holds
// (if not nil) from it.
func compileFilesCached(ctx context.Context, req *Request, files []string, noValidate bool, cache *linkLookup, ds *[]diag.Diagnostic) (linker.Files, error) {
	rep := reporter.NewReporter(
		func(err reporter.ErrorWithPos) error {
			*ds = append(*ds, diagnosticOf(err, diag.SeverityError))
			return nil // keep going: report as many errors as the parser can find
		},
		func(err reporter.ErrorWithPos) {
			*ds = append(*ds, diagnosticOf(err, diag.SeverityWarning))
		},
	)
	c := protocompile.Compiler{
		Resolver: standardResolver(&sourceResolver{req: req, ctx: ctx, noValidate: noValidate, cache: cache, report: func(err reporter.ErrorWithPos) {
			*ds = append(*ds, diagnosticOf(err, diag.SeverityError))
		}}),
		Reporter:       rep,
		SourceInfoMode: protocompile.SourceInfoStandard,
		// One goroutine: the result must not depend on scheduling, and
		// GOOS=js has a single thread anyway.
		MaxParallelism: 1,
	}
	return c.Compile(ctx, files...)
}

// linkErrors returns the errors and warnings of linking and option
// interpretation for a compilation whose first pass stopped at protocompile's
// validation (a proto3 enum whose first value is not zero, a field number
// used twice): protocompile does not link a file that failed validation, so
// its unresolved types, duplicate names and bad options would only show
// once the first errors were fixed. It links again without validation and
// keeps only what that pass reports; exact repeats are dropped by Tidy. It
// returns nothing when a file does not parse (syntax errors: nothing to
// link) or precheck rejected it, and drops the second pass's internal
// errors and limits (the first pass reports those).
func linkErrors(ctx context.Context, req *Request, files []string) []diag.Diagnostic {
	var ds []diag.Diagnostic
	ok := true
	func() {
		defer func() {
			if recover() != nil {
				ok = false
			}
		}()
		_, err := compileFiles(ctx, req, files, true, &ds)
		if err != nil && !errors.Is(err, reporter.ErrInvalidSource) {
			ok = false
		}
	}()
	if !ok {
		return nil
	}
	out := ds[:0]
	for _, d := range ds {
		if d.Limit == "" && !strings.HasPrefix(d.Message, "internal error") {
			out = append(out, d)
		}
	}
	return out
}

func descriptors(linked linker.Files) []protoreflect.FileDescriptor {
	fds := make([]protoreflect.FileDescriptor, len(linked))
	for i, f := range linked {
		fds[i] = f
	}
	return fds
}

// Link links already-parsed files, as a protoc plugin receives them in a
// CodeGeneratorRequest (protos holds the files to generate and their whole
// import closure), and returns the linked descriptors of files, in order.
// Only protos are consulted, never the standard files. Problems are error
// diagnostics, positioned where the descriptors' source_code_info allows.
//
// It links with protocompile, the linker Compile uses, rather than with
// protodesc.NewFiles: protodesc refuses MessageSet messages
// (message_set_wire_format, found in test_messages_proto2.proto) unless the
// binary is built with the protolegacy tag, while Compile accepts them; the
// same linker also means the backend sees the same descriptor
// implementation whichever face asked.
func Link(protos []*descriptorpb.FileDescriptorProto, files []string) (res *Result) {
	res = &Result{}
	defer func() {
		Recover(&res.Diagnostics, func() { res.Files = nil })
		res.Diagnostics = Tidy(res.Diagnostics)
	}()
	byName := make(map[string]*descriptorpb.FileDescriptorProto, len(protos))
	for _, f := range protos {
		byName[f.GetName()] = f
	}
	if len(files) == 0 {
		res.Diagnostics = append(res.Diagnostics, diag.Errorf("no files to generate"))
		return res
	}
	for _, name := range files {
		if byName[name] == nil {
			d := diag.Errorf("not among the request's proto_file entries")
			d.File = name
			res.Diagnostics = append(res.Diagnostics, d)
		}
	}
	if res.HasErrors() {
		return res
	}
	c := protocompile.Compiler{
		Resolver: protocompile.ResolverFunc(func(name string) (protocompile.SearchResult, error) {
			if f := byName[name]; f != nil {
				return protocompile.SearchResult{Proto: proto.Clone(f).(*descriptorpb.FileDescriptorProto)}, nil
			}
			return protocompile.SearchResult{}, &fileError{name, errors.New("imported but not among the request's proto_file entries")}
		}),
		Reporter: reporter.NewReporter(func(err reporter.ErrorWithPos) error {
			res.Diagnostics = append(res.Diagnostics, diagnosticOf(err, diag.SeverityError))
			return nil
		}, func(err reporter.ErrorWithPos) {
			res.Diagnostics = append(res.Diagnostics, diagnosticOf(err, diag.SeverityWarning))
		}),
		SourceInfoMode: protocompile.SourceInfoStandard, // keeps the request's source_code_info
		MaxParallelism: 1,
	}
	linked, err := c.Compile(context.Background(), files...)
	if err != nil {
		if !errors.Is(err, reporter.ErrInvalidSource) || !res.HasErrors() {
			res.Diagnostics = append(res.Diagnostics, diagnosticOfError(err))
		}
		return res
	}
	res.Files = descriptors(linked)
	return res
}

func isLimit(err error) bool {
	var e *diag.Error
	return errors.As(err, &e) && e.Kind == diag.KindLimit
}

func diagnosticOf(err reporter.ErrorWithPos, sev diag.Severity) diag.Diagnostic {
	start, end := err.Start(), err.End()
	d := diag.Diagnostic{
		File:     start.Filename,
		Line:     start.Line,
		Column:   start.Col,
		Severity: sev,
		Message:  err.Unwrap().Error(),
	}
	if end.Line > 0 && (end.Line != start.Line || end.Col != start.Col) {
		d.EndLine, d.EndColumn = end.Line, end.Col
	}
	var le *diag.Error
	if errors.As(err.Unwrap(), &le) {
		d.Limit = le.Limit
	}
	return d
}

func diagnosticOfError(err error) diag.Diagnostic {
	var ewp reporter.ErrorWithPos
	if errors.As(err, &ewp) {
		return diagnosticOf(ewp, diag.SeverityError)
	}
	d := diag.Errorf("%s", err.Error())
	var fe *fileError
	if errors.As(err, &fe) {
		d.File, d.Message = fe.name, fe.err.Error()
	}
	var pe protocompile.PanicError
	if errors.As(err, &pe) {
		// protocompile recovered from a fault of its own; precheck keeps
		// the known ones from reaching it.
		d.File = pe.File
		d.Message = fmt.Sprintf("internal error in protocompile while compiling this file: %v", pe.Value)
	}
	var le *diag.Error
	if errors.As(err, &le) {
		d.Limit = le.Limit
	}
	return d
}

// errNotFound is the error for a file that is neither in the sources nor
// under an import path; it matches fs.ErrNotExist.
var errNotFound = fmt.Errorf("file not found in the sources or import paths: %w", fs.ErrNotExist)

type fileError struct {
	name string
	err  error
}

func (e *fileError) Error() string { return e.name + ": " + e.err.Error() }
func (e *fileError) Unwrap() error { return e.err }

// Tidy sorts ds by position and drops exact repeats: protocompile
// validates some options twice and would report, for example, a deprecated
// feature's warning twice at the same place.
func Tidy(ds []diag.Diagnostic) []diag.Diagnostic {
	sortDiagnostics(ds)
	seen := make(map[diag.Diagnostic]bool, len(ds))
	out := ds[:0]
	for _, d := range ds {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

func sortDiagnostics(ds []diag.Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
}

// sourceResolver finds files in Request.Sources, then in Request.FS under
// each import path. Files it cannot find fall through to the standard
// files (see standardResolver).
type sourceResolver struct {
	req    *Request
	ctx    context.Context
	report func(reporter.ErrorWithPos) // receives the errors of precheck
	// noValidate hands parsed files to the linker without protocompile's
	// validation (the second pass of linkErrors); a file that does not
	// parse, or that precheck rejects, is then an error reported nowhere.
	noValidate bool
	// cache, if not nil, serves source files linked by an earlier compile.
	cache *linkLookup
}

// errPrecheck stops the compilation of a file that precheck rejected; its
// errors are already reported.
var errPrecheck = errors.New("the file has errors")

// parsed parses a file's text for protocompile, so that precheck can see
// it before linking. A file that does not parse is handed back as text, for
// protocompile to parse again and report its syntax errors as it always
// does; a file precheck rejects is not handed on at all.
func (r *sourceResolver) parsed(name, src string) (protocompile.SearchResult, error) {
	file, err := parser.Parse(name, strings.NewReader(src), reporter.NewHandler(nil))
	if r.noValidate {
		if err != nil || len(precheck(file, src)) > 0 {
			return protocompile.SearchResult{}, &fileError{name, errPrecheck}
		}
		res, err := parser.ResultFromAST(file, false, reporter.NewHandler(nil))
		if err != nil {
			return protocompile.SearchResult{}, &fileError{name, errPrecheck}
		}
		return protocompile.SearchResult{ParseResult: res}, nil
	}
	if err != nil {
		return protocompile.SearchResult{Source: strings.NewReader(src)}, nil
	}
	if errs := precheck(file, src); len(errs) > 0 {
		for _, e := range errs {
			r.report(e)
		}
		return protocompile.SearchResult{}, &fileError{name, errPrecheck}
	}
	return protocompile.SearchResult{AST: file}, nil
}

func (r *sourceResolver) FindFileByPath(name string) (protocompile.SearchResult, error) {
	if f, ok := r.cache.find(name); ok {
		return protocompile.SearchResult{Desc: f}, nil
	}
	src, err := r.find(name)
	if err != nil {
		return protocompile.SearchResult{}, err
	}
	if err := StopCheck(r.ctx, r.req.Limits.MaxMemoryBytes); err != nil {
		return protocompile.SearchResult{}, err
	}
	if err := checkNesting(name, src, Limit(r.req.Limits.MaxNesting, MaxNesting)); err != nil {
		return protocompile.SearchResult{}, err
	}
	return r.parsed(name, src)
}

// find returns the text of the file called name, from Sources or FS,
// checked against MaxSourceBytes.
func (r *sourceResolver) find(name string) (string, error) {
	maxBytes := Limit(r.req.Limits.MaxSourceBytes, MaxSourceBytes)
	tooBig := func(size string) error {
		return &fileError{name, limitError(diag.LimitSourceBytes, fmt.Sprintf("file is %s bytes, over the limit of %d (MaxSourceBytes)", size, maxBytes))}
	}
	if src, ok := r.req.Sources[name]; ok {
		if len(src) > maxBytes {
			return "", tooBig(strconv.Itoa(len(src)))
		}
		return src, nil
	}
	if r.req.FS != nil {
		roots := r.req.ImportPaths
		if len(roots) == 0 {
			roots = []string{"."}
		}
		for _, root := range roots {
			p := path.Join(root, name)
			f, err := r.req.FS.Open(p)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return "", &fileError{name, err}
			}
			data, err := io.ReadAll(io.LimitReader(f, int64(maxBytes)+1))
			f.Close()
			if err != nil {
				return "", &fileError{name, err}
			}
			if len(data) > maxBytes {
				return "", tooBig("more than " + strconv.Itoa(maxBytes))
			}
			return string(data), nil
		}
	}
	return "", &fileError{name, errNotFound}
}

// checkNesting returns an error positioned at the first bracket of src
// ({ [ ( <) nested deeper than max, outside strings and comments (the
// lexical rules of https://protobuf.dev/reference/protobuf/proto3-spec/),
// or nil. It reads src once and allocates nothing.
func checkNesting(name, src string, max int) error {
	depth, line, col := 0, 1, 1
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\n':
			line, col = line+1, 1
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			start := i
			i++
			col++
			for {
				i++
				col++
				if i >= len(src) {
					return nil // unterminated: the parser reports it
				}
				if src[i] == '\n' {
					line, col = line+1, 0
				}
				if src[i] == '/' && src[i-1] == '*' && i-1 > start+1 {
					break
				}
			}
		case c == '"' || c == '\'':
			// A string ends at its quote or, unterminated, at the end of
			// the line (the parser reports that).
			for i+1 < len(src) && src[i+1] != c && src[i+1] != '\n' {
				i++
				col++
				if src[i] == '\\' && i+1 < len(src) && src[i+1] != '\n' {
					i++
					col++
				}
			}
			if i+1 < len(src) && src[i+1] == c {
				i++
				col++
			}
		case c == '{' || c == '[' || c == '(' || c == '<':
			if depth++; depth > max {
				pos := ast.SourcePos{Filename: name, Line: line, Col: col}
				return reporter.Error(ast.NewSourceSpan(pos, ast.SourcePos{Filename: name, Line: line, Col: col + 1}),
					limitError(diag.LimitNesting, fmt.Sprintf("nesting deeper than %d levels of { [ ( < (MaxNesting)", max)))
			}
		case c == '}' || c == ']' || c == ')' || c == '>':
			depth--
		}
		col++
	}
	return nil
}
