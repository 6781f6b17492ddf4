// Package diag holds the two shapes in which every stage of the compiler
// reports a problem: a Diagnostic, positioned in a .proto source file, and
// an Error, the one error type the compiler's API returns, positioned in a
// payload where there is one.
//
// It is a leaf package so that the stages (compiler/frontend,
// compiler/gogen, compiler/payload) can produce these values without
// importing the API package; package compiler gives them their public
// names (compiler.Diagnostic, compiler.Error).
package diag

import (
	"fmt"
	"strings"
)

// Severity says whether a diagnostic stops code generation. It crosses to
// JavaScript as the string itself.
type Severity string

const (
	// SeverityError means the input was rejected; no files are generated.
	SeverityError Severity = "error"
	// SeverityWarning is advice; output is still generated.
	SeverityWarning Severity = "warning"
	// SeverityNote adds a place to an error: where a missing ';' belongs,
	// at the end of the statement before the error's token. It counts as
	// neither an error nor a warning.
	SeverityNote Severity = "note"
)

// Names of the limits, as Diagnostic.Limit and Error.Limit give them: the
// names of the fields of compiler.Limits, the payload limit
// (compiler/payload's MaxInputBytes, MaxDepth, MaxUnknownDepth) and the
// time limit.
const (
	LimitSourceBytes = "MaxSourceBytes"
	LimitFiles       = "MaxFiles"
	LimitNesting     = "MaxNesting"
	LimitLineScan    = "MaxLineScan"
	LimitOutputBytes = "MaxOutputBytes"
	LimitMemoryBytes = "MaxMemoryBytes"
	LimitDeadline    = "Deadline"
)

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
	// Spans are the other places the diagnostic points at (the first
	// definition of a name defined twice, the import a symbol comes from),
	// each with what it says there.
	Spans []Span `json:"spans,omitempty"`
	// Notes and Help are the compiler's explanations and advice, in order.
	Notes []string `json:"notes,omitempty"`
	Help  []string `json:"help,omitempty"`
	// Fixes are suggested edits: applying every edit of one fix to the
	// file's text fixes the problem.
	Fixes []Fix `json:"fixes,omitempty"`
}

// Span is a range of a source file with a label: Line and Column are
// 1-based, Column counts bytes, EndLine/EndColumn are exclusive.
type Span struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
	Message   string `json:"message,omitempty"`
}

// Fix is one suggested change: Title says what it does; applying all its
// Edits (which do not overlap) to the file's text makes it.
type Fix struct {
	Title string `json:"title"`
	Edits []Edit `json:"edits"`
}

// Edit replaces the text of File between Line:Column and
// EndLine:EndColumn (1-based, bytes, end exclusive; equal for an
// insertion) with Text ("" for a deletion). Offset and EndOffset are the
// same positions as byte offsets in the file.
type Edit struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
	Offset    int    `json:"offset"`
	EndOffset int    `json:"endOffset"`
	Text      string `json:"text"`
}

// Key returns a string equal for two diagnostics exactly when they are
// equal in every field (Diagnostic holds slices, so == cannot compare it).
func (d Diagnostic) Key() string {
	return fmt.Sprintf("%#v", d)
}

// Details renders what String leaves out, one item a line, each indented
// by two spaces: "file:line:col: note: ..." for each other span, "note:
// ...", "help: ..." and, for each fix, "fix: title" then each edit as
// "file:line:col-endline:endcol: replace with "text"". Empty when there is
// nothing more to say.
func (d Diagnostic) Details() string {
	var b strings.Builder
	for _, s := range d.Spans {
		msg := strings.TrimPrefix(s.Message, "note: ")
		if msg == "" {
			// The compiler marks a related place without a word.
			msg = "related place"
		}
		fmt.Fprintf(&b, "  %s:%d:%d: note: %s\n", s.File, s.Line, s.Column, indented(msg))
	}
	for _, n := range d.Notes {
		fmt.Fprintf(&b, "  note: %s\n", indented(n))
	}
	for _, h := range d.Help {
		fmt.Fprintf(&b, "  help: %s\n", indented(h))
	}
	for _, f := range d.Fixes {
		fmt.Fprintf(&b, "  fix: %s\n", f.Title)
		for _, e := range f.Edits {
			switch {
			case e.Text == "":
				fmt.Fprintf(&b, "    %s:%d:%d-%d:%d: delete\n", e.File, e.Line, e.Column, e.EndLine, e.EndColumn)
			case e.Offset == e.EndOffset:
				fmt.Fprintf(&b, "    %s:%d:%d: insert %q\n", e.File, e.Line, e.Column, e.Text)
			default:
				fmt.Fprintf(&b, "    %s:%d:%d-%d:%d: replace with %q\n", e.File, e.Line, e.Column, e.EndLine, e.EndColumn, e.Text)
			}
		}
	}
	return b.String()
}

// String renders the diagnostic as protoc does: "file:line:col: message",
// with a "warning: " prefix on warnings; the message's lines after its
// first, if it has several, are indented by two spaces.
func (d Diagnostic) String() string {
	var b strings.Builder
	b.WriteString(d.File)
	if d.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", d.Line, d.Column)
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	switch d.Severity {
	case SeverityWarning:
		b.WriteString("warning: ")
	case SeverityNote:
		b.WriteString("note: ")
	}
	// A message of several lines keeps the first line the diagnostic's
	// own: the others are indented.
	b.WriteString(strings.ReplaceAll(strings.TrimRight(d.Message, "\n"), "\n", "\n  "))
	return b.String()
}

// indented indents the lines of a note after its first by four spaces, so
// that only a diagnostic's first line starts a line of Details' output
// unindented (a compiler's note may be wrapped: "the range for field
// numbers is ...,\nminus ...").
func indented(s string) string {
	return strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}

// Errorf returns an error diagnostic at no position.
func Errorf(format string, args ...any) Diagnostic {
	return Diagnostic{Severity: SeverityError, Message: fmt.Sprintf(format, args...)}
}

// Kinds of Error.
const (
	KindSchema   = "schema"   // the schema does not compile: Diagnostics say why and where
	KindPayload  = "payload"  // malformed binary payload: Offset and Path say where
	KindEncoding = "encoding" // hex or base64 text that does not decode: Offset is the input byte
	KindJSON     = "json"     // bad JSON input: Line and Column say where
	KindText     = "text"     // bad text-format input: Line and Column say where
	KindValue    = "value"    // a value that cannot be represented (missing required field, bad UTF-8, ...)
	KindType     = "type"     // unknown message type name: Suggestions lists near names
	KindLimit    = "limit"    // a limit stopped the work: Limit names it
	KindUsage    = "usage"    // a request that is malformed or names an option value that does not exist
	KindInternal = "internal" // a fault of protoplay itself (a recovered panic): please report it
)

// Error is the one error type of the compiler's API: why a request was
// rejected, positioned as precisely as the input allows. Every error the
// compiler package returns is an *Error; results embed it too (the wire
// view's fault).
type Error struct {
	// Kind is one of the Kind constants.
	Kind string `json:"kind"`
	// Message says what is wrong, without position.
	Message string `json:"message"`
	// Diagnostics, for KindSchema, are the schema's diagnostics, errors
	// and warnings, sorted by file, line and column.
	Diagnostics []Diagnostic `json:"diagnostics,omitempty"`
	// Offset is the byte offset in the binary payload where decoding
	// failed (KindPayload, KindLimit; KindValue for a string that must be
	// UTF-8 and is not), or the offset in the input text (KindEncoding);
	// -1 when not applicable.
	Offset int `json:"offset"`
	// Path is the field path reached when the error was found, for example
	// "child.items[2].name"; unknown fields appear as their field number
	// ("#7"). Empty at the top level.
	Path string `json:"path,omitempty"`
	// Line and Column (1-based; Column counts bytes as reported by
	// google.golang.org/protobuf) position KindJSON and KindText errors;
	// 0 when unknown.
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`
	// Record is the 0-based index of the message in a length-delimited
	// stream; 0 for a single message.
	Record int `json:"record,omitempty"`
	// Suggestions lists the nearest known names for a KindType error.
	Suggestions []string `json:"suggestions,omitempty"`
	// Limit names the limit of a KindLimit error (a Limit* constant or a
	// payload limit such as "MaxInputBytes").
	Limit string `json:"limit,omitempty"`
}

// New returns an *Error of the kind with a formatted message and no
// position.
func New(kind string, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...), Offset: -1}
}

// Schema returns the KindSchema error of diagnostics, or nil when none of
// them is an error. Its message lists each error diagnostic on its own
// line, as protoc prints them.
func Schema(diagnostics []Diagnostic) *Error {
	var lines []string
	for _, d := range diagnostics {
		if d.Severity == SeverityError {
			lines = append(lines, d.String())
		}
	}
	if len(lines) == 0 {
		return nil
	}
	return &Error{Kind: KindSchema, Message: strings.Join(lines, "\n"), Diagnostics: diagnostics, Offset: -1}
}

// Error renders the error with its position first: "at byte 12 (in
// a.b): ...", "at input byte 3: ...", "line 2, column 5: ...", prefixed
// with "message N: " for a record of a stream after the first.
func (e *Error) Error() string {
	var b strings.Builder
	if e.Record > 0 {
		fmt.Fprintf(&b, "message %d: ", e.Record)
	}
	switch {
	case (e.Kind == KindPayload || e.Kind == KindLimit || e.Kind == KindValue) && e.Offset >= 0:
		fmt.Fprintf(&b, "at byte %d", e.Offset)
		if e.Path != "" {
			fmt.Fprintf(&b, " (in %s)", shortPath(e.Path))
		}
		b.WriteString(": ")
	case e.Kind == KindEncoding && e.Offset >= 0:
		fmt.Fprintf(&b, "at input byte %d: ", e.Offset)
	case e.Line > 0:
		fmt.Fprintf(&b, "line %d, column %d: ", e.Line, e.Column)
	case e.Path != "":
		fmt.Fprintf(&b, "%s: ", shortPath(e.Path))
	}
	b.WriteString(e.Message)
	return b.String()
}

// shortPath elides the middle of a path deeper than 8 fields, for
// messages; Error.Path keeps it whole.
func shortPath(p string) string {
	parts := strings.Split(p, ".")
	if len(parts) <= 8 {
		return p
	}
	return strings.Join(parts[:3], ".") + fmt.Sprintf(".(%d more).", len(parts)-6) + strings.Join(parts[len(parts)-3:], ".")
}
