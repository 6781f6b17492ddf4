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
	"io/fs"
	"math"
	"runtime/debug"
	"runtime/metrics"
	"time"

	"google.golang.org/protobuf/reflect/protoreflect"

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
	// MaxLineScan bounds, in one source file, the sum of the byte
	// columns of the ; { = , outside strings and comments (how far into
	// its line each is), checked before the file is parsed. The compiler
	// finds the column of each source position by reading its line from
	// the start, so declarations written one after another on a single
	// line cost time that grows with the square of the line's length
	// (one line of 10,000 fields, 168 KB: 97 s; 8,000 reserved numbers:
	// 14 s). The sum may reach MaxLineScan plus LineScanPerByte for each
	// byte of the file: a file of any size whose declarations are on lines
	// of their own sums a few per byte (a 6.3 MB file of 63,000 lines of
	// about 100 bytes: about 4), so only long lines of many declarations
	// pass it. At 2^24 a small file takes about a second at most; the
	// highest file in ../shared/corpus sums 0.5 M
	// (unittest_enormous_descriptor.proto).
	MaxLineScan = 1 << 24
	// LineScanPerByte is the allowance MaxLineScan grows by per byte of
	// the file.
	LineScanPerByte = 16
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
			return limitError(diag.LimitMemoryBytes, fmt.Sprintf("compilation stopped: memory in use over %s, the limit (MaxMemoryBytes)", MiB(maxMem)))
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
	// ImportPathNames, when set, are ImportPaths as the user named them
	// (a command line's -I values where ImportPaths are their paths in
	// FS), in the same order: the note of a missing file lists them.
	ImportPathNames []string
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

// MiB formats a byte count for a limit's message: whole MiB when it is
// one, else MiB with a fraction, or bytes below one MiB (a limit of 1
// byte is not "0 MiB").
func MiB(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}
