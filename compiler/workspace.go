package compiler

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"github.com/protoplay/protoplay/compiler/diag"
	"github.com/protoplay/protoplay/compiler/frontend"
)

// A Workspace answers the requests of an editor session (the playground
// page, the npm package): each request names its sources, and the
// workspace keeps the last compiled schema so that the payload requests,
// which a page sends many times per edit of a value or a payload, do not
// compile it again. Sources are compared with the cached ones, which is
// cheaper than hashing for the sizes a page holds and cannot give a false
// hit.
//
// Every method returns either a result or an *Error, never both; a schema
// that does not compile is an *Error of KindSchema carrying its
// diagnostics. A Workspace is safe for concurrent use; the zero value is
// ready.
type Workspace struct {
	// OnMemoryLimit, if set, is told the memory limit of each request
	// that has one (Limits.MemoryBytes), before it runs: the wasm bridge
	// passes it to debug.SetMemoryLimit, so that garbage alone seldom
	// passes it.
	OnMemoryLimit func(bytes int64)

	mu     sync.Mutex
	cached *schemaEntry
	// cachedBase is the last baseline compiled (Breaking, OldReader).
	cachedBase *schemaEntry
	// gen keeps the generated Go of each message and enum of the last
	// compiles, so that an edit prints only what it changed.
	gen GenerateCache
	// link keeps the linked source files of the last compile, so that an
	// edit re-links only the files it changed and those importing them.
	link LinkCache
	// outs keeps, per generator options string (CompileRequest.Options,
	// compared as given), the last generated Go of each file name with
	// the Rev it was given, so that a request with Have gets changes
	// (FileChange). Calls with different options (the page's Go pane and
	// its Go interpreter) do not evict each other's; the last maxOutSets
	// option sets used are kept, most recent first.
	outs []optionsOut
	// revs numbers the contents given a Rev; revPrefix tells this
	// workspace's Revs from another's (a restarted Worker's).
	revs      int
	revPrefix string
}

type fileRev struct{ rev, content string }

type schemaEntry struct {
	sources map[string]string
	res     *Result
	schema  *Schema // nil when res has errors
	err     error   // why schema is nil
}

// Sources are the .proto files of a request: path (relative to an import
// root, as in an import statement) to text. Every file is compiled.
type Sources = map[string]string

// CallLimits bound one request: a time limit and the memory the Go runtime
// may hold (under GOOS=js, about the WebAssembly memory's size), checked
// by the compiler between its stages and after each generated message; a
// hit is an error diagnostic (or an *Error of KindLimit) whose limit is
// "Deadline" or "MaxMemoryBytes". 0 or absent: no limit.
type CallLimits struct {
	// TimeoutMs is the time limit of the request, in milliseconds.
	TimeoutMs float64 `json:"timeoutMs,omitempty"`
	// MemoryBytes bounds the memory the Go runtime holds, in bytes.
	MemoryBytes float64 `json:"memoryBytes,omitempty"`
}

// CompileRequest asks for a schema's diagnostics and message types
// (Compile) or also its Go code (Generate).
type CompileRequest struct {
	Files Sources `json:"files"`
	// Options are generator options, "k=v,k=v" (see ParseOptions).
	Options string      `json:"options,omitempty"`
	Limits  *CallLimits `json:"limits,omitempty"`
	// Imports, for Generate, also generates Go for the bundled files the
	// schema imports (google/type, google/rpc, google/api ...; not the
	// well-known types, whose Go is the runtime's): what running the
	// schema's generated code needs (see Request.GenerateImports).
	Imports bool `json:"imports,omitempty"`
	// Have, when present (even empty), asks for the Go code as changes
	// to the generated files the caller holds (CompileResult.Changes
	// instead of Generated): file name -> the Rev an earlier result of
	// this workspace gave that file's content. A name or Rev the
	// workspace does not know gets the whole file.
	Have map[string]string `json:"have,omitempty"`
}

// CompileResult is the answer to a CompileRequest. A schema with errors is
// a result (its diagnostics), not an *Error.
type CompileResult struct {
	// Diagnostics holds every error and warning, sorted by position.
	Diagnostics []Diagnostic `json:"diagnostics"`
	// Messages lists the message types of the files (empty on errors).
	Messages []Message `json:"messages"`
	// Generated is the Go code; empty for Compile and on errors, and
	// when the request had Have (see Changes).
	Generated []File `json:"generated"`
	// Changes is the Go code when the request had Have: one entry per
	// generated file, in path order, each the whole file or a change to
	// the caller's copy. Absent for Compile and on errors.
	Changes []FileChange `json:"changes,omitempty"`
	// ElapsedMs is the time spent in the core, in milliseconds.
	ElapsedMs float64 `json:"elapsedMs"`
}

// FileChange is a generated file as a change to the caller's copy of it
// (CompileRequest.Have): the content is Base with the text from From to To
// replaced by Insert. An unchanged file is an empty change (From = To,
// Insert empty) with Rev equal to Base.
type FileChange struct {
	// Name is the file's path, as File.Name.
	Name string `json:"name"`
	// Rev names the file's new content; send it back in Have.
	Rev string `json:"rev"`
	// Base is the Rev of the caller's copy the change applies to; empty
	// when Insert is the whole file.
	Base string `json:"base,omitempty"`
	// From and To delimit the replaced text of Base (To exclusive), in
	// UTF-16 code units, as JavaScript indexes strings.
	From int `json:"from"`
	To   int `json:"to"`
	// Insert is the text that replaces it.
	Insert string `json:"insert"`
}

// TypeRequest names a message type of a schema (Sample).
type TypeRequest struct {
	Files Sources `json:"files"`
	// Type is a message's full name, "pkg.Message".
	Type   string      `json:"type"`
	Limits *CallLimits `json:"limits,omitempty"`
}

// EncodeRequest asks for the binary encoding of a value.
type EncodeRequest struct {
	Files Sources `json:"files"`
	// Type is a message's full name, "pkg.Message".
	Type string `json:"type"`
	// Input is the value, in the In form.
	Input string `json:"input"`
	// In is the form of Input: "json" (the default) or "text".
	In     Format      `json:"in,omitempty"`
	Limits *CallLimits `json:"limits,omitempty"`
}

// DecodeRequest asks for a payload decoded as a value (Decode) or as a wire
// view against its type (WireView).
type DecodeRequest struct {
	Files Sources `json:"files"`
	// Type is a message's full name, "pkg.Message".
	Type string `json:"type"`
	// Input is the payload as hex or base64 text.
	Input string `json:"input"`
	// Encoding says how Input is written; "auto" (the default) detects
	// it. "binary" is refused: bytes do not cross as JSON text.
	Encoding Encoding `json:"encoding,omitempty"`
	// Out is the form of Decode's value: "json" (the default) or "text".
	Out    Format      `json:"out,omitempty"`
	Limits *CallLimits `json:"limits,omitempty"`
}

// RawRequest asks for a payload decoded without a schema (DecodeRaw).
type RawRequest struct {
	// Input is the payload as hex or base64 text.
	Input string `json:"input"`
	// Encoding says how Input is written; "auto" (the default) detects it.
	Encoding Encoding    `json:"encoding,omitempty"`
	Limits   *CallLimits `json:"limits,omitempty"`
}

// CheckRequest asks for the round-trip checks of every message type.
type CheckRequest struct {
	Files  Sources     `json:"files"`
	Limits *CallLimits `json:"limits,omitempty"`
}

// Bytes is a binary payload in the two text encodings the page shows.
type Bytes struct {
	Hex    string `json:"hex"`
	Base64 string `json:"base64"`
	// Size is the payload's length in bytes.
	Size int `json:"size"`
}

// DecodeResult is the answer to Decode.
type DecodeResult struct {
	Bytes
	// Value is the decoded message in the requested form.
	Value string `json:"value"`
	// Encoding is the input encoding used ("hex" or "base64").
	Encoding Encoding `json:"encoding"`
	// Note, for JSON, says which fields of the payload its type does not
	// declare, which ProtoJSON leaves out ("2 fields of the payload are
	// not in a.Item (field 2 at byte 5, ...) and are left out of the
	// JSON: text output keeps them"); empty when there are none.
	Note string `json:"note,omitempty"`
}

// ViewResult is a wire view with the bytes it describes, normalised, so
// that a page can draw them whatever encoding came in. A malformed payload
// is a ViewResult whose View.Error says where it broke, not an *Error.
type ViewResult struct {
	*View
	Hex    string `json:"hex"`
	Base64 string `json:"base64"`
}

// SampleResult is the answer to Sample.
type SampleResult struct {
	// Value is a value of the type with every field set, as JSON.
	Value string `json:"value"`
}

// CheckReport is the answer to Check.
type CheckReport struct {
	Results []CheckResult `json:"results"`
}

// Compile returns the diagnostics and message types of req.Files.
func (w *Workspace) Compile(ctx context.Context, req CompileRequest) (*CompileResult, error) {
	return w.compile(ctx, req, true)
}

// Generate returns the diagnostics, message types and Go code of
// req.Files.
func (w *Workspace) Generate(ctx context.Context, req CompileRequest) (*CompileResult, error) {
	return w.compile(ctx, req, false)
}

func (w *Workspace) compile(ctx context.Context, req CompileRequest, noGenerate bool) (*CompileResult, error) {
	start := time.Now()
	opts, err := ParseOptions(req.Options)
	if err != nil {
		return nil, err
	}
	ctx, lim, cancel := w.limits(ctx, req.Limits)
	defer cancel()
	res := Compile(ctx, Request{Sources: req.Files, Options: opts, NoGenerate: noGenerate, GenerateImports: req.Imports, Limits: lim, Cache: &w.gen, LinkCache: &w.link})
	// A failed generate is not the schema's verdict: its errors may be the
	// generator's (a Go name collision, runtime=local's sources not
	// loaded, the time limit while printing), which Encode, Decode and the
	// rest do not share. Only a compile that generated nothing, or a
	// generate that succeeded, becomes the schema those calls reuse; after
	// a failed generate they compile the sources once more without it.
	var e *schemaEntry
	if noGenerate || res.Err() == nil {
		e = w.remember(req.Files, res)
	}
	out := &CompileResult{Diagnostics: nonNil(res.Diagnostics), Messages: []Message{}, Generated: nonNil(res.Generated)}
	if !noGenerate && len(res.Generated) > 0 {
		changes := w.delta(req.Options, res.Generated, req.Have)
		if req.Have != nil {
			out.Generated, out.Changes = []File{}, changes
		}
	}
	if e != nil && e.schema != nil {
		out.Messages = e.schema.Messages()
	}
	out.ElapsedMs = float64(time.Since(start).Microseconds()) / 1000
	return out, nil
}

// payloadCall runs f, a payload call, on the schema of files under the
// call's limits cl: the time and memory limits bound compiling the
// schema (when it is not the cached one), and are checked again once f
// returns, so that a call over either fails with the KindLimit error
// naming it (LimitDeadline, LimitMemoryBytes), whatever part of the call
// used the time or memory, and the next call starts afresh. The payload
// work between the checks is bounded by its input (MaxInputBytes,
// MaxViewFields, MaxDepth); the page and the npm package also end a core
// that runs past the time limit.
func payloadCall[T any](w *Workspace, ctx context.Context, files Sources, cl *CallLimits, f func(*Schema) (T, error)) (T, error) {
	var zero T
	ctx, lim, cancel := w.limits(ctx, cl)
	defer cancel()
	s, err := w.schema(ctx, files, lim)
	if err != nil {
		return zero, err
	}
	v, err := f(s)
	if lerr := callStop(ctx, lim.MaxMemoryBytes); lerr != nil {
		return zero, lerr
	}
	return v, err
}

// callStop is the KindLimit error for a payload call past its deadline or
// its memory limit (maxMem bytes, 0 for none), or nil.
func callStop(ctx context.Context, maxMem int64) error {
	if dl, ok := ctx.Deadline(); ok && !time.Now().Before(dl) {
		return &Error{Kind: KindLimit, Limit: LimitDeadline, Offset: -1, Message: "the call ran past its time limit (limits.timeoutMs)"}
	}
	if maxMem > 0 {
		if m := MemoryInUse(); m > uint64(maxMem) {
			return &Error{Kind: KindLimit, Limit: LimitMemoryBytes, Offset: -1,
				Message: fmt.Sprintf("the call stopped: memory in use over %s, its limit (limits.memoryBytes)", frontend.MiB(maxMem))}
		}
	}
	return nil
}

// Encode returns the binary encoding of req.Input, a value of req.Type.
func (w *Workspace) Encode(ctx context.Context, req EncodeRequest) (*Bytes, error) {
	return payloadCall(w, ctx, req.Files, req.Limits, func(s *Schema) (*Bytes, error) {
		b, err := s.Encode(req.Type, []byte(req.Input), req.In, Binary)
		if err != nil {
			return nil, err
		}
		return bytesOf(b), nil
	})
}

// Decode decodes req.Input, a payload of req.Type, as a value.
func (w *Workspace) Decode(ctx context.Context, req DecodeRequest) (*DecodeResult, error) {
	return payloadCall(w, ctx, req.Files, req.Limits, func(s *Schema) (*DecodeResult, error) {
		b, enc, err := parseText(req.Input, req.Encoding)
		if err != nil {
			return nil, err
		}
		d, err := s.Decode(req.Type, b, DecodeOptions{In: Binary, Out: req.Out})
		if err != nil {
			return nil, err
		}
		out := &DecodeResult{Bytes: *bytesOf(b), Encoding: enc}
		if len(d.Messages) > 0 {
			out.Value = d.Messages[0]
		}
		if req.Out == "" || req.Out == JSON {
			if note, n := s.UnknownFieldsNote(req.Type, b); n == 1 {
				out.Note = note + " and is left out of the JSON: text output keeps it"
			} else if n > 1 {
				out.Note = note + " and are left out of the JSON: text output keeps them"
			}
		}
		return out, nil
	})
}

// WireView decodes req.Input, a payload of req.Type, as a wire view; a
// malformed payload gives the view up to the fault, with View.Error set.
func (w *Workspace) WireView(ctx context.Context, req DecodeRequest) (*ViewResult, error) {
	return payloadCall(w, ctx, req.Files, req.Limits, func(s *Schema) (*ViewResult, error) {
		b, _, err := parseText(req.Input, req.Encoding)
		if err != nil {
			return nil, err
		}
		return viewOf(s.WireView(req.Type, b))(b)
	})
}

// DecodeRaw decodes req.Input without a schema, as a wire view.
func (w *Workspace) DecodeRaw(ctx context.Context, req RawRequest) (*ViewResult, error) {
	b, _, err := parseText(req.Input, req.Encoding)
	if err != nil {
		return nil, err
	}
	return viewOf(DecodeRaw(b))(b)
}

// Sample returns a value of req.Type with every field set, as JSON.
func (w *Workspace) Sample(ctx context.Context, req TypeRequest) (*SampleResult, error) {
	return payloadCall(w, ctx, req.Files, req.Limits, func(s *Schema) (*SampleResult, error) {
		v, err := s.Sample(req.Type, JSON)
		if err != nil {
			return nil, err
		}
		return &SampleResult{Value: v}, nil
	})
}

// Check runs the round-trip checks on every message type of req.Files.
func (w *Workspace) Check(ctx context.Context, req CheckRequest) (*CheckReport, error) {
	return payloadCall(w, ctx, req.Files, req.Limits, func(s *Schema) (*CheckReport, error) {
		return &CheckReport{Results: nonNil(s.Check())}, nil
	})
}

// schemaWithin is schema under the call limits cl, which bound the
// compile only.
func (w *Workspace) schemaWithin(ctx context.Context, sources Sources, cl *CallLimits) (*Schema, error) {
	ctx, lim, cancel := w.limits(ctx, cl)
	defer cancel()
	return w.schema(ctx, sources, lim)
}

// remember caches res as the schema of sources and returns its entry. A
// compile stopped by the call's time or memory limit is not cached: those
// limits are the call's, not the sources', and the next call compiles
// again.
func (w *Workspace) remember(sources Sources, res *Result) *schemaEntry {
	e := &schemaEntry{sources: sources, res: res}
	e.schema, e.err = res.Schema()
	for _, d := range res.Diagnostics {
		if d.Limit == LimitDeadline || d.Limit == LimitMemoryBytes {
			// The call's limit, said as one: not the schema's fault.
			e.schema, e.err = nil, &Error{Kind: KindLimit, Limit: d.Limit, Message: d.Message, Offset: -1}
			return e
		}
	}
	w.mu.Lock()
	w.cached = e
	w.mu.Unlock()
	return e
}

// schema returns the schema of sources, compiling them unless they are the
// cached ones; an *Error of KindSchema when they do not compile.
//
// ctx and lim are the call's (see Workspace.limits).
func (w *Workspace) schema(ctx context.Context, sources Sources, lim Limits) (*Schema, error) {
	w.mu.Lock()
	e := w.cached
	w.mu.Unlock()
	if e == nil || !maps.Equal(e.sources, sources) {
		e = w.remember(sources, Compile(ctx, Request{Sources: sources, NoGenerate: true, Limits: lim, LinkCache: &w.link}))
	}
	if e.err != nil {
		var se *Error
		if errors.As(e.err, &se) && se.Kind == KindSchema {
			c := *se
			c.Message = "the schema does not compile:\n" + se.Message
			return nil, &c
		}
		return nil, e.err
	}
	return e.schema, nil
}

// limits applies a request's CallLimits: a deadline on ctx and the
// compiler's memory limit.
func (w *Workspace) limits(ctx context.Context, cl *CallLimits) (context.Context, Limits, context.CancelFunc) {
	var lim Limits
	cancel := context.CancelFunc(func() {})
	if cl == nil {
		return ctx, lim, cancel
	}
	if cl.TimeoutMs > 0 {
		ctx, cancel = context.WithTimeout(ctx, time.Duration(cl.TimeoutMs*float64(time.Millisecond)))
	}
	if cl.MemoryBytes > 0 {
		lim.MaxMemoryBytes = int64(cl.MemoryBytes)
		if w.OnMemoryLimit != nil {
			w.OnMemoryLimit(lim.MaxMemoryBytes)
		}
	}
	return ctx, lim, cancel
}

// parseText reads a request's payload, which is text: requests never carry
// raw bytes through JSON, so Auto (the default) that detects neither hex
// nor base64 reports the text as bad hex, where ParseBinary would fall
// back to Binary, and Binary itself is refused.
func parseText(input string, enc Encoding) ([]byte, Encoding, error) {
	switch enc {
	case Binary:
		return nil, enc, diag.New(KindUsage, "encoding %q cannot be sent as text; use hex or base64", enc)
	case "", Auto:
		b, used, err := ParseBinary([]byte(input), Auto)
		if err == nil && used == Binary {
			return ParseBinary([]byte(input), Hex)
		}
		return b, used, err
	}
	return ParseBinary([]byte(input), enc)
}

func bytesOf(b []byte) *Bytes {
	h, _ := FormatBinary(b, Hex)
	b64, _ := FormatBinary(b, Base64)
	return &Bytes{Hex: string(h), Base64: string(b64), Size: len(b)}
}

// viewOf pairs a view with its bytes; a view with a fault is still a
// result (the fault is in View.Error).
func viewOf(v *View, err error) func([]byte) (*ViewResult, error) {
	return func(b []byte) (*ViewResult, error) {
		if v == nil {
			return nil, err
		}
		bs := bytesOf(b)
		return &ViewResult{View: v, Hex: bs.Hex, Base64: bs.Base64}, nil
	}
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// Method is one entry of the workspace's JSON API: a name, the request
// type it reads and the result type it answers with. Call dispatches on
// it; the TypeScript contract is generated from it.
type Method struct {
	Name    string
	Request any // a zero value of the request type
	Result  any // a zero value of the result type
	call    func(w *Workspace, ctx context.Context, req []byte, files Sources) (any, error)
}

// method builds a Method from a Workspace method.
func method[Req, Res any](name string, f func(*Workspace, context.Context, Req) (*Res, error)) Method {
	return Method{Name: name, Request: *new(Req), Result: *new(Res),
		call: func(w *Workspace, ctx context.Context, b []byte, files Sources) (any, error) {
			var req Req
			if err := json.Unmarshal(b, &req); err != nil {
				return nil, diag.New(KindUsage, "bad %s request: %v", name, err)
			}
			if files != nil {
				// The request's Files field, which the JSON leaves out.
				if v := reflect.ValueOf(&req).Elem(); v.Kind() == reflect.Struct {
					if fv := v.FieldByName("Files"); fv.IsValid() && fv.Type() == reflect.TypeFor[Sources]() {
						fv.Set(reflect.ValueOf(files))
					}
				}
			}
			return f(w, ctx, req)
		}}
}

// Methods lists the workspace's JSON API, in the order of its
// documentation.
var Methods = []Method{
	method("compile", (*Workspace).Compile),
	method("generate", (*Workspace).Generate),
	method("encode", (*Workspace).Encode),
	method("decode", (*Workspace).Decode),
	method("wireView", (*Workspace).WireView),
	method("decodeRaw", (*Workspace).DecodeRaw),
	method("sample", (*Workspace).Sample),
	method("check", (*Workspace).Check),
	method("rankTypes", (*Workspace).RankTypes),
	method("infer", (*Workspace).Infer),
	method("stream", (*Workspace).Stream),
	method("symbols", (*Workspace).Symbols),
	method("module", (*Workspace).Module),
	method("breaking", (*Workspace).Breaking),
	method("oldReader", (*Workspace).OldReader),
}

// Call runs the method called name on a JSON request and returns its JSON
// result, or the *Error that answers it instead: an unknown method or a
// malformed request is KindUsage, a panic KindInternal. This is the whole
// of the wasm bridge's protocol.
func (w *Workspace) Call(ctx context.Context, name string, req []byte) (result []byte, err *Error) {
	return w.CallFiles(ctx, name, req, nil)
}

// CallFiles is Call with the request's sources given apart from its JSON:
// files, when not nil, is the request's Files (for the methods whose
// request has them), whatever the JSON says. The wasm bridge passes a
// page's sources this way, copied from JavaScript strings, which is many
// times cheaper for megabytes of .proto text than escaping them into JSON
// and parsing them out again on every edit.
func (w *Workspace) CallFiles(ctx context.Context, name string, req []byte, files Sources) (result []byte, err *Error) {
	defer func() {
		if p := recover(); p != nil {
			result, err = nil, diag.New(KindInternal, "internal error in %s: %v\n%s", name, p, debug.Stack())
		}
	}()
	for _, m := range Methods {
		if m.Name != name {
			continue
		}
		v, cerr := m.call(w, ctx, req, files)
		if cerr != nil {
			return nil, asError(cerr)
		}
		b, jerr := json.Marshal(v)
		if jerr != nil {
			return nil, diag.New(KindInternal, "internal error: %v", jerr)
		}
		return b, nil
	}
	names := make([]string, len(Methods))
	for i, m := range Methods {
		names[i] = m.Name
	}
	return nil, diag.New(KindUsage, "unknown method %q (known: %v)", name, names)
}

// Version says which build of the core answers: the Go version and, when
// the build recorded it, the VCS revision.
func Version() string {
	v := runtime.Version()
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += " " + s.Value[:12]
			}
		}
	}
	return v
}
