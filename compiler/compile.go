// Package compiler is protoplay's core: it turns .proto sources into linked
// descriptors, structured diagnostics and generated Go files.
//
// The package does no I/O of its own. Sources arrive as a map of path to text
// or as an fs.FS; results leave as values. That is what lets the browser
// (GOOS=js), the CLI and the protoc plugin run exactly the same code and get
// the same bytes for the same input.
//
// Parsing, linking and option interpretation are done by
// github.com/bufbuild/protocompile; the Go backend lives in compiler/gogen.
package compiler

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
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/bufbuild/protocompile"
	"github.com/bufbuild/protocompile/ast"
	"github.com/bufbuild/protocompile/linker"
	"github.com/bufbuild/protocompile/parser"
	"github.com/bufbuild/protocompile/reporter"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/protoplay/protoplay/compiler/gogen"
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

// Limits bound one Compile call. A zero field means the default of the
// same name above; a negative one, no limit. Time is bounded by the
// context's deadline (see Compile). Each limit hit is an error diagnostic
// whose Limit field names it.
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

// limit returns v, or def when v is 0; a negative v means no limit.
func limit(v, def int) int {
	switch {
	case v == 0:
		return def
	case v < 0:
		return math.MaxInt
	}
	return v
}

// Names of the limits, as Diagnostic.Limit gives them.
const (
	LimitSourceBytes = "MaxSourceBytes"
	LimitFiles       = "MaxFiles"
	LimitNesting     = "MaxNesting"
	LimitOutputBytes = "MaxOutputBytes"
	LimitMemoryBytes = "MaxMemoryBytes"
	LimitDeadline    = "Deadline"
)

// LimitError is an error from a limit: which one (a Limit* name) and its
// message, which gives the value.
type LimitError struct {
	Limit string
	Msg   string
}

func (e *LimitError) Error() string { return e.Msg }

// stopCheck returns a *LimitError when ctx is done (cancelled or past its
// deadline, which is compared with the clock, so that it holds under
// GOOS=js, where a busy goroutine keeps timers from firing) or the Go
// runtime holds more than maxMem bytes (when maxMem > 0).
func stopCheck(ctx context.Context, maxMem int64) error {
	if dl, ok := ctx.Deadline(); ok && !time.Now().Before(dl) {
		return &LimitError{LimitDeadline, "compilation stopped at its deadline (time limit)"}
	}
	if err := ctx.Err(); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return &LimitError{LimitDeadline, "compilation stopped at its deadline (time limit)"}
		}
		return err
	}
	if maxMem > 0 {
		if m := MemoryInUse(); m > uint64(maxMem) {
			return &LimitError{LimitMemoryBytes, fmt.Sprintf("compilation stopped: memory in use over %d MiB, the limit (MaxMemoryBytes)", maxMem>>20)}
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
	// Files are the files to compile and generate code for, named relative
	// to an import root. Imports they name are compiled too but produce no
	// output. When empty, every key of Sources is compiled.
	Files []string
	// Options are the Go generator options (see gogen.ParseOptions).
	Options gogen.Options
	// NoGenerate skips the Go backend; only descriptors and diagnostics are
	// produced.
	NoGenerate bool
	// Limits bound the call; the zero value is the defaults.
	Limits Limits
}

// Severity says whether a diagnostic stops code generation.
type Severity int

const (
	// SeverityError means the input was rejected; no files are generated.
	SeverityError Severity = iota + 1
	// SeverityWarning is advice; output is still generated.
	SeverityWarning
)

func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityWarning:
		return "warning"
	}
	return fmt.Sprintf("Severity(%d)", int(s))
}

// Diagnostic is one error or warning about the input, positioned in a source
// file. Line and Column are 1-based; Column counts bytes. Line is 0 when the
// position is unknown (for example, a missing file). EndLine/EndColumn, when
// non-zero, mark the exclusive end of the offending span.
type Diagnostic struct {
	File      string   `json:"file"`
	Line      int      `json:"line"`
	Column    int      `json:"column"`
	EndLine   int      `json:"endLine,omitempty"`
	EndColumn int      `json:"endColumn,omitempty"`
	Severity  Severity `json:"severity"`
	Message   string   `json:"message"`
	// Limit, on an error that a limit stopped the compilation, names it:
	// one of the Limit* constants, such as "MaxOutputBytes" or
	// "Deadline". A face can then say how to raise it.
	Limit string `json:"limit,omitempty"`
}

// String renders the diagnostic as protoc does: "file:line:col: message",
// with a "warning: " prefix on warnings.
func (d Diagnostic) String() string {
	var b strings.Builder
	b.WriteString(d.File)
	if d.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", d.Line, d.Column)
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	if d.Severity == SeverityWarning {
		b.WriteString("warning: ")
	}
	b.WriteString(d.Message)
	return b.String()
}

// Result is the output of one compilation.
type Result struct {
	// Files are the linked descriptors of Request.Files, in request order.
	// Each also implements protoreflect.FileDescriptor; imports are reachable
	// through it. Nil when any error was reported.
	Files linker.Files
	// Diagnostics holds every error and warning, sorted by file, line and
	// column.
	Diagnostics []Diagnostic
	// Generated holds the Go files, sorted by path. Nil when any error was
	// reported.
	Generated []gogen.File
}

// HasErrors reports whether any diagnostic is an error.
func (r *Result) HasErrors() bool {
	for _, d := range r.Diagnostics {
		if d.Severity == SeverityError {
			return true
		}
	}
	return false
}

// Err returns nil if the result has no errors, or an error whose message
// lists each error diagnostic on its own line.
func (r *Result) Err() error {
	var lines []string
	for _, d := range r.Diagnostics {
		if d.Severity == SeverityError {
			lines = append(lines, d.String())
		}
	}
	if len(lines) == 0 {
		return nil
	}
	return &DiagnosticsError{Diagnostics: r.Diagnostics, msg: strings.Join(lines, "\n")}
}

// DiagnosticsError is the error returned by Result.Err.
type DiagnosticsError struct {
	Diagnostics []Diagnostic
	msg         string
}

func (e *DiagnosticsError) Error() string { return e.msg }

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
func Compile(ctx context.Context, req Request) (res *Result) {
	res = &Result{}
	defer func() {
		if p := recover(); p != nil {
			res.Files, res.Generated = nil, nil
			res.Diagnostics = append(res.Diagnostics, Diagnostic{
				Severity: SeverityError,
				Message:  fmt.Sprintf("internal error: %v\n%s", p, debug.Stack()),
			})
		}
		res.Diagnostics = tidyDiagnostics(res.Diagnostics)
	}()

	files := append([]string(nil), req.Files...) // cleaned below; the caller's slice stays as given
	if len(files) == 0 {
		for name := range req.Sources {
			files = append(files, name)
		}
		sort.Strings(files)
	}
	if len(files) == 0 {
		res.Diagnostics = append(res.Diagnostics, Diagnostic{Severity: SeverityError, Message: "no input files"})
		return res
	}
	if maxFiles := limit(req.Limits.MaxFiles, MaxFiles); len(files) > maxFiles {
		res.Diagnostics = append(res.Diagnostics, Diagnostic{Severity: SeverityError, Limit: LimitFiles,
			Message: fmt.Sprintf("%d input files exceed the limit of %d (MaxFiles)", len(files), maxFiles)})
		return res
	}
	if err := stopCheck(ctx, req.Limits.MaxMemoryBytes); err != nil {
		res.Diagnostics = append(res.Diagnostics, diagnosticOfError(err))
		return res
	}
	for i, f := range files {
		files[i] = path.Clean(strings.ReplaceAll(f, "\\", "/"))
	}

	rep := reporter.NewReporter(
		func(err reporter.ErrorWithPos) error {
			res.Diagnostics = append(res.Diagnostics, diagnosticOf(err, SeverityError))
			return nil // keep going: report as many errors as the parser can find
		},
		func(err reporter.ErrorWithPos) {
			res.Diagnostics = append(res.Diagnostics, diagnosticOf(err, SeverityWarning))
		},
	)
	c := protocompile.Compiler{
		Resolver: standardResolver(&sourceResolver{req: &req, ctx: ctx, report: func(err reporter.ErrorWithPos) {
			res.Diagnostics = append(res.Diagnostics, diagnosticOf(err, SeverityError))
		}}),
		Reporter:       rep,
		SourceInfoMode: protocompile.SourceInfoStandard,
		// One goroutine: the result must not depend on scheduling, and
		// GOOS=js has a single thread anyway.
		MaxParallelism: 1,
	}
	linked, err := c.Compile(ctx, files...)
	if err == nil || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		// Say which limit stopped protocompile, if one did.
		if serr := stopCheck(ctx, req.Limits.MaxMemoryBytes); serr != nil {
			err = serr
		}
	}
	if err != nil {
		if errors.As(err, new(*LimitError)) || !errors.Is(err, reporter.ErrInvalidSource) && !res.HasErrors() {
			res.Diagnostics = append(res.Diagnostics, diagnosticOfError(err))
		}
		return res
	}
	res.Diagnostics = append(res.Diagnostics, linkCheck(linked)...)
	if res.HasErrors() {
		return res
	}
	res.Files = linked
	if req.NoGenerate {
		return res
	}
	fds := make([]protoreflect.FileDescriptor, len(linked))
	for i, f := range linked {
		fds[i] = f
	}
	maxOut := limit(req.Limits.MaxOutputBytes, MaxOutputBytes)
	var stopped *LimitError
	out, gdiags := gogen.GenerateWith(fds, req.Options, func(n int) error {
		if n > maxOut {
			stopped = &LimitError{LimitOutputBytes, fmt.Sprintf("generation stopped: over %d bytes of Go, the limit (MaxOutputBytes)", maxOut)}
			return stopped
		}
		if err := stopCheck(ctx, req.Limits.MaxMemoryBytes); err != nil {
			stopped, _ = err.(*LimitError)
			return err
		}
		return nil
	})
	for _, d := range gdiags {
		diag := Diagnostic{File: d.File, Line: d.Line, Column: d.Column, Severity: SeverityError, Message: d.Message}
		if stopped != nil {
			diag.Limit = stopped.Limit
		}
		res.Diagnostics = append(res.Diagnostics, diag)
	}
	if res.HasErrors() {
		return res
	}
	res.Generated = out
	return res
}

func diagnosticOf(err reporter.ErrorWithPos, sev Severity) Diagnostic {
	start, end := err.Start(), err.End()
	d := Diagnostic{
		File:     start.Filename,
		Line:     start.Line,
		Column:   start.Col,
		Severity: sev,
		Message:  err.Unwrap().Error(),
	}
	if end.Line > 0 && (end.Line != start.Line || end.Col != start.Col) {
		d.EndLine, d.EndColumn = end.Line, end.Col
	}
	var le *LimitError
	if errors.As(err.Unwrap(), &le) {
		d.Limit = le.Limit
	}
	return d
}

func diagnosticOfError(err error) Diagnostic {
	var ewp reporter.ErrorWithPos
	if errors.As(err, &ewp) {
		return diagnosticOf(ewp, SeverityError)
	}
	d := Diagnostic{Severity: SeverityError, Message: err.Error()}
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
	var le *LimitError
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

// tidyDiagnostics sorts ds by position and drops exact repeats: protocompile
// validates some options twice and would report, for example, a deprecated
// feature's warning twice at the same place.
func tidyDiagnostics(ds []Diagnostic) []Diagnostic {
	sortDiagnostics(ds)
	seen := make(map[Diagnostic]bool, len(ds))
	out := ds[:0]
	for _, d := range ds {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

func sortDiagnostics(ds []Diagnostic) {
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
	if err != nil {
		return protocompile.SearchResult{Source: strings.NewReader(src)}, nil
	}
	if errs := precheck(file); len(errs) > 0 {
		for _, e := range errs {
			r.report(e)
		}
		return protocompile.SearchResult{}, &fileError{name, errPrecheck}
	}
	return protocompile.SearchResult{AST: file}, nil
}

func (r *sourceResolver) FindFileByPath(name string) (protocompile.SearchResult, error) {
	src, err := r.find(name)
	if err != nil {
		return protocompile.SearchResult{}, err
	}
	if err := stopCheck(r.ctx, r.req.Limits.MaxMemoryBytes); err != nil {
		return protocompile.SearchResult{}, err
	}
	if err := checkNesting(name, src, limit(r.req.Limits.MaxNesting, MaxNesting)); err != nil {
		return protocompile.SearchResult{}, err
	}
	return r.parsed(name, src)
}

// find returns the text of the file called name, from Sources or FS,
// checked against MaxSourceBytes.
func (r *sourceResolver) find(name string) (string, error) {
	maxBytes := limit(r.req.Limits.MaxSourceBytes, MaxSourceBytes)
	tooBig := func(size string) error {
		return &fileError{name, &LimitError{LimitSourceBytes, fmt.Sprintf("file is %s bytes, over the limit of %d (MaxSourceBytes)", size, maxBytes)}}
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
					&LimitError{LimitNesting, fmt.Sprintf("nesting deeper than %d levels of { [ ( < (MaxNesting)", max)})
			}
		case c == '}' || c == ']' || c == ')' || c == '>':
			depth--
		}
		col++
	}
	return nil
}
