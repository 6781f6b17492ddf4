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
	"path"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/bufbuild/protocompile"
	"github.com/bufbuild/protocompile/linker"
	"github.com/bufbuild/protocompile/parser"
	"github.com/bufbuild/protocompile/reporter"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/protoplay/protoplay/compiler/gogen"
)

// Limits on what one Compile call accepts. They keep a browser tab and a
// shared CI machine safe from pathological input; each is checked before
// parsing and reported as an error diagnostic.
const (
	// MaxSourceBytes is the largest single source file accepted, in bytes.
	MaxSourceBytes = 8 << 20
	// MaxFiles is the largest number of files one request may name.
	MaxFiles = 10000
)

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
}

// String renders the diagnostic as protoc does: "file:line:col: message",
// with a "warning: " prefix on warnings.
func (d Diagnostic) String() string {
	var b strings.Builder
	b.WriteString(d.File)
	if d.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", d.Line, d.Column)
	}
	b.WriteString(": ")
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
// an error diagnostic saying "internal error". Cancelling ctx stops the
// compilation at the next file boundary with an error diagnostic.
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
	if len(files) > MaxFiles {
		res.Diagnostics = append(res.Diagnostics, Diagnostic{Severity: SeverityError,
			Message: fmt.Sprintf("%d input files exceed the limit of %d", len(files), MaxFiles)})
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
		Resolver: standardResolver(&sourceResolver{req: &req, report: func(err reporter.ErrorWithPos) {
			res.Diagnostics = append(res.Diagnostics, diagnosticOf(err, SeverityError))
		}}),
		Reporter:       rep,
		SourceInfoMode: protocompile.SourceInfoStandard,
		// One goroutine: the result must not depend on scheduling, and
		// GOOS=js has a single thread anyway.
		MaxParallelism: 1,
	}
	linked, err := c.Compile(ctx, files...)
	if err != nil {
		if !errors.Is(err, reporter.ErrInvalidSource) && !res.HasErrors() {
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
	out, gdiags := gogen.Generate(fds, req.Options)
	for _, d := range gdiags {
		res.Diagnostics = append(res.Diagnostics, Diagnostic{
			File: d.File, Line: d.Line, Column: d.Column, Severity: SeverityError, Message: d.Message,
		})
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
	return d
}

func diagnosticOfError(err error) Diagnostic {
	var ewp reporter.ErrorWithPos
	if errors.As(err, &ewp) {
		return diagnosticOf(ewp, SeverityError)
	}
	var fe *fileError
	if errors.As(err, &fe) {
		return Diagnostic{File: fe.name, Severity: SeverityError, Message: fe.err.Error()}
	}
	var pe protocompile.PanicError
	if errors.As(err, &pe) {
		// protocompile recovered from a fault of its own; precheck keeps
		// the known ones from reaching it.
		return Diagnostic{File: pe.File, Severity: SeverityError,
			Message: fmt.Sprintf("internal error in protocompile while compiling this file: %v", pe.Value)}
	}
	return Diagnostic{Severity: SeverityError, Message: err.Error()}
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
	if src, ok := r.req.Sources[name]; ok {
		if len(src) > MaxSourceBytes {
			return protocompile.SearchResult{}, &fileError{name, fmt.Errorf("file is %d bytes, over the limit of %d", len(src), MaxSourceBytes)}
		}
		return r.parsed(name, src)
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
				return protocompile.SearchResult{}, &fileError{name, err}
			}
			data, err := io.ReadAll(io.LimitReader(f, MaxSourceBytes+1))
			f.Close()
			if err != nil {
				return protocompile.SearchResult{}, &fileError{name, err}
			}
			if len(data) > MaxSourceBytes {
				return protocompile.SearchResult{}, &fileError{name, fmt.Errorf("file is over the limit of %d bytes", MaxSourceBytes)}
			}
			return r.parsed(name, string(data))
		}
	}
	return protocompile.SearchResult{}, &fileError{name, errNotFound}
}
