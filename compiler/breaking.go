package compiler

import (
	"context"
	"maps"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/protoplay/protoplay/compiler/breaking"
	"github.com/protoplay/protoplay/compiler/diag"
	"github.com/protoplay/protoplay/compiler/payload"
)

// BreakingChange is one breaking change between two versions of a schema
// (see package breaking): a buf rule ID, a place and buf's message.
type BreakingChange = breaking.Finding

// BreakingRule is one rule of the breaking-change check (see
// breaking.Rules).
type BreakingRule = breaking.Rule

// BreakingRules lists the rules Breaking checks, in buf's order.
func BreakingRules() []BreakingRule { return breaking.Rules }

// Breaking returns the breaking changes from baseline to current under
// the rules of categories and rules (buf breaking's categories FILE,
// PACKAGE, WIRE_JSON, WIRE and rule IDs; both empty means FILE, buf's
// default), sorted by file and position. current and baseline are the
// files to compare, not their imports. An unknown category or rule is an
// *Error of KindUsage; a panic in a rule is recovered as one of
// KindInternal.
func Breaking(current, baseline []protoreflect.FileDescriptor, categories, rules []string) (changes []BreakingChange, err error) {
	use, err := breaking.Select(categories, rules)
	if err != nil {
		return nil, diag.New(KindUsage, "%v", err)
	}
	defer func() {
		if p := recover(); p != nil {
			changes, err = nil, diag.New(KindInternal, "internal error in the breaking-change check: %v", p)
		}
	}()
	return breaking.Compare(current, baseline, use), nil
}

// BreakingRequest asks for the breaking changes from Baseline to Files.
type BreakingRequest struct {
	// Files are the current version's sources.
	Files Sources `json:"files"`
	// Baseline are the earlier version's sources (a descriptor set entry
	// is read as one; see DescriptorSetExtensions).
	Baseline Sources `json:"baseline"`
	// Categories are buf breaking's categories to check: "FILE",
	// "PACKAGE", "WIRE_JSON", "WIRE". With Rules empty too, FILE.
	Categories []string `json:"categories,omitempty"`
	// Rules are rule IDs to check besides the categories'.
	Rules  []string    `json:"rules,omitempty"`
	Limits *CallLimits `json:"limits,omitempty"`
}

// BreakingResult is the answer to a BreakingRequest. Sources that do not
// compile are a result (their diagnostics), not an *Error.
type BreakingResult struct {
	// Changes are the breaking changes, sorted by file and position.
	Changes []BreakingChange `json:"changes"`
	// Diagnostics are the errors of the current sources, and
	// BaselineDiagnostics the baseline's; no changes are listed when
	// either has errors.
	Diagnostics         []Diagnostic `json:"diagnostics"`
	BaselineDiagnostics []Diagnostic `json:"baselineDiagnostics"`
}

// Breaking compares req.Files with req.Baseline (see the function
// Breaking).
func (w *Workspace) Breaking(ctx context.Context, req BreakingRequest) (*BreakingResult, error) {
	if _, err := breaking.Select(req.Categories, req.Rules); err != nil {
		return nil, diag.New(KindUsage, "%v", err)
	}
	ctx, lim, cancel := w.limits(ctx, req.Limits)
	defer cancel()
	out := &BreakingResult{Changes: []BreakingChange{}, Diagnostics: []Diagnostic{}, BaselineDiagnostics: []Diagnostic{}}
	if _, err := w.schema(ctx, req.Files, lim); err != nil {
		w.mu.Lock()
		e := w.cached
		w.mu.Unlock()
		if e == nil || e.res == nil {
			return nil, err
		}
		out.Diagnostics = errorsOf(e.res.Diagnostics)
		return out, nil
	}
	w.mu.Lock()
	cur := w.cached.res.Files
	w.mu.Unlock()
	base := w.baseline(ctx, req.Baseline, lim).res
	if base.HasErrors() {
		out.BaselineDiagnostics = errorsOf(base.Diagnostics)
		return out, nil
	}
	changes, err := Breaking(cur, base.Files, req.Categories, req.Rules)
	if err != nil {
		return nil, err
	}
	out.Changes = nonNil(changes)
	return out, nil
}

// baseline compiles a baseline's sources, reusing the last compile of the
// same sources.
func (w *Workspace) baseline(ctx context.Context, sources Sources, lim Limits) *schemaEntry {
	w.mu.Lock()
	e := w.cachedBase
	w.mu.Unlock()
	if e != nil && maps.Equal(e.sources, sources) {
		return e
	}
	res := Compile(ctx, Request{Sources: sources, NoGenerate: true, Limits: lim})
	e = &schemaEntry{sources: sources, res: res}
	if !res.HasErrors() {
		e.schema, e.err = res.Schema()
	}
	w.mu.Lock()
	w.cachedBase = e
	w.mu.Unlock()
	return e
}

func errorsOf(ds []Diagnostic) []Diagnostic {
	out := []Diagnostic{}
	for _, d := range ds {
		if d.Severity == diag.SeverityError {
			out = append(out, d)
		}
	}
	return out
}

// OldReaderRequest asks what a reader built with Baseline makes of bytes
// written with Files: Input is a payload of Type as the current schema
// writes it.
type OldReaderRequest struct {
	Files    Sources `json:"files"`
	Baseline Sources `json:"baseline"`
	// Type is the message's full name; the baseline must have it too.
	Type string `json:"type"`
	// Input is the payload as hex or base64 text.
	Input string `json:"input"`
	// Encoding says how Input is written; "auto" (the default) detects it.
	Encoding Encoding    `json:"encoding,omitempty"`
	Limits   *CallLimits `json:"limits,omitempty"`
}

// OldReading is what a reader built with the baseline schema makes of a
// payload written with the current one (see payload.ReadAs).
type OldReading = payload.Reading

// ReadingDifference is one field the two schemas read differently (see
// payload.Difference).
type ReadingDifference = payload.Difference

// OldReaderResult is the answer to an OldReaderRequest.
type OldReaderResult struct {
	*OldReading
	Hex    string `json:"hex"`
	Base64 string `json:"base64"`
}

// OldReader decodes req.Input as the baseline schema reads it, beside the
// current schema's reading: the baseline's wire view and value, and each
// field the two read differently. A baseline without errors is needed; its
// errors are an *Error of KindSchema. A type the baseline lacks is an
// *Error of KindType.
func (w *Workspace) OldReader(ctx context.Context, req OldReaderRequest) (*OldReaderResult, error) {
	return payloadCall(w, ctx, req.Files, req.Limits, func(s *Schema) (*OldReaderResult, error) {
		b, _, err := parseText(req.Input, req.Encoding)
		if err != nil {
			return nil, err
		}
		bctx, lim, cancel := w.limits(ctx, req.Limits)
		defer cancel()
		be := w.baseline(bctx, req.Baseline, lim)
		if err := be.res.Err(); err != nil {
			if se, ok := err.(*Error); ok {
				c := *se
				c.Message = "the baseline does not compile:\n" + se.Message
				return nil, &c
			}
			return nil, err
		}
		if be.err != nil {
			return nil, be.err
		}
		r, err := payload.ReadAs(s.p, be.schema.p, req.Type, b)
		if err != nil {
			return nil, err
		}
		bb := bytesOf(b)
		return &OldReaderResult{OldReading: r, Hex: bb.Hex, Base64: bb.Base64}, nil
	})
}
