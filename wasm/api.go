package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"runtime/debug"
	"sort"
	"sync"
	"time"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
	"github.com/protoplay/protoplay/compiler/payload"
)

// This file is the bridge's platform-free half: each JS method is a
// function from a JSON request to a JSON-encodable result, so the same
// code runs under `go test` natively and behind syscall/js in main.go.
// Every decision about protobuf lives in compiler/; this file only
// translates shapes and keeps the last compile result.

// methods maps the JS API's method names to their implementations.
var methods = map[string]func(s *session, c *callCtx, req []byte) (any, error){
	"compile":   (*session).compile,
	"generate":  (*session).generate,
	"encode":    (*session).encode,
	"decode":    (*session).decode,
	"decodeRaw": (*session).decodeRaw,
	"wireView":  (*session).wireView,
	"sample":    (*session).sample,
	"check":     (*session).check,
}

// session holds the last successful schema so that the payload methods,
// which the page calls many times per edit of the JSON or hex, do not
// recompile it. A call names its sources every time; they are compared
// with the cached ones, which is cheaper than hashing for the sizes a page
// holds and cannot give a false hit.
type session struct {
	mu     sync.Mutex
	cached *schemaEntry
}

type schemaEntry struct {
	sources map[string]string
	res     *compiler.Result
	schema  *payload.Schema // nil when res has errors
}

// Requests. Sources map a file name (relative to an import root, as in
// an import statement) to its text.

type sourcesRequest struct {
	Files map[string]string `json:"files"`
}

type generateRequest struct {
	Files map[string]string `json:"files"`
	// Options are generator options as "k=v,k=v" (gogen.ParseOptions).
	Options string `json:"options"`
}

type typeRequest struct {
	Files map[string]string `json:"files"`
	// Type is a message's full name, "pkg.Message".
	Type string `json:"type"`
}

type encodeRequest struct {
	typeRequest
	// Input is the value, as JSON (default) or text format.
	Input string         `json:"input"`
	In    payload.Format `json:"in"`
}

type decodeRequest struct {
	typeRequest
	// Input is the payload as hex or base64 text; Encoding says which,
	// "auto" (the default) detects it.
	Input    string           `json:"input"`
	Encoding payload.Encoding `json:"encoding"`
	Out      payload.Format   `json:"out"`
}

type rawRequest struct {
	Input    string           `json:"input"`
	Encoding payload.Encoding `json:"encoding"`
}

// Results.

// Message names one message type of the compiled files, for a type picker.
type Message struct {
	Name string `json:"name"`
	File string `json:"file"`
}

type compileResult struct {
	Diagnostics []compiler.Diagnostic `json:"diagnostics"`
	Messages    []Message             `json:"messages"`
	// Generated is empty for compile and when there are errors.
	Generated []gogen.File `json:"generated"`
	// ElapsedMs is the time spent in the core, in milliseconds.
	ElapsedMs float64 `json:"elapsedMs"`
}

type bytesResult struct {
	Hex    string `json:"hex"`
	Base64 string `json:"base64"`
	Size   int    `json:"size"`
}

type decodeResult struct {
	bytesResult
	// Value is the decoded message in the requested format.
	Value string `json:"value"`
	// Encoding is the input encoding used ("hex" or "base64").
	Encoding payload.Encoding `json:"encoding"`
}

type sampleResult struct {
	Value string `json:"value"`
}

// viewResult is a wire view with the bytes it describes, normalised, so
// the page can draw them whatever encoding came in.
type viewResult struct {
	*payload.View
	Hex    string `json:"hex"`
	Base64 string `json:"base64"`
}

func viewOf(v *payload.View, b []byte) *viewResult {
	bs := bytesOf(b)
	return &viewResult{View: v, Hex: bs.Hex, Base64: bs.Base64}
}

type checkResult struct {
	Results []payload.CheckResult `json:"results"`
}

func (s *session) compile(c *callCtx, req []byte) (any, error) {
	var r generateRequest
	if err := unmarshal(req, &r); err != nil {
		return nil, err
	}
	return s.run(c, r, true)
}

func (s *session) generate(c *callCtx, req []byte) (any, error) {
	var r generateRequest
	if err := unmarshal(req, &r); err != nil {
		return nil, err
	}
	return s.run(c, r, false)
}

func (s *session) run(c *callCtx, r generateRequest, noGenerate bool) (*compileResult, error) {
	start := time.Now()
	opts, err := gogen.ParseOptions(r.Options)
	if err != nil {
		return nil, err
	}
	res := compiler.Compile(c.ctx, compiler.Request{
		Sources:    r.Files,
		Options:    opts,
		NoGenerate: noGenerate,
		Limits:     c.limits,
	})
	e := s.remember(r.Files, res)
	out := &compileResult{
		Diagnostics: nonNil(res.Diagnostics),
		Messages:    messagesOf(e),
		Generated:   nonNil(res.Generated),
	}
	out.ElapsedMs = float64(time.Since(start).Microseconds()) / 1000
	return out, nil
}

// remember caches res as the schema of sources and returns its entry.
func (s *session) remember(sources map[string]string, res *compiler.Result) *schemaEntry {
	e := &schemaEntry{sources: sources, res: res}
	if !res.HasErrors() {
		// NewSchema fails only on duplicate names, which a clean compile
		// rules out; a failure leaves the payload methods reporting it.
		e.schema, _ = payload.NewSchema(res.Files)
	}
	s.mu.Lock()
	s.cached = e
	s.mu.Unlock()
	return e
}

// schemaOf returns the schema of sources, compiling them unless they are
// the cached ones.
func (s *session) schemaOf(c *callCtx, sources map[string]string) (*payload.Schema, error) {
	s.mu.Lock()
	e := s.cached
	s.mu.Unlock()
	if e == nil || !maps.Equal(e.sources, sources) {
		res := compiler.Compile(c.ctx, compiler.Request{Sources: sources, NoGenerate: true, Limits: c.limits})
		e = s.remember(sources, res)
	}
	if err := e.res.Err(); err != nil {
		return nil, fmt.Errorf("the schema does not compile:\n%w", err)
	}
	if e.schema == nil {
		return nil, errors.New("the schema could not be loaded for encoding")
	}
	return e.schema, nil
}

// typeOf returns the schema of sources and the message type name in it.
func (s *session) typeOf(c *callCtx, sources map[string]string, name string) (*payload.Schema, protoreflect.MessageDescriptor, error) {
	sc, err := s.schemaOf(c, sources)
	if err != nil {
		return nil, nil, err
	}
	md, err := sc.FindMessage(name)
	if err != nil {
		return nil, nil, err
	}
	return sc, md, nil
}

func messagesOf(e *schemaEntry) []Message {
	out := []Message{}
	if e.schema == nil {
		return out
	}
	for _, md := range e.schema.Messages() {
		out = append(out, Message{Name: string(md.FullName()), File: md.ParentFile().Path()})
	}
	return out
}

func (s *session) encode(c *callCtx, req []byte) (any, error) {
	var r encodeRequest
	if err := unmarshal(req, &r); err != nil {
		return nil, err
	}
	sc, md, err := s.typeOf(c, r.Files, r.Type)
	if err != nil {
		return nil, err
	}
	b, err := sc.Encode(md, []byte(r.Input), payload.EncodeOptions{In: r.In, Out: payload.Binary})
	if err != nil {
		return nil, err
	}
	return bytesOf(b), nil
}

func (s *session) decode(c *callCtx, req []byte) (any, error) {
	var r decodeRequest
	if err := unmarshal(req, &r); err != nil {
		return nil, err
	}
	sc, md, err := s.typeOf(c, r.Files, r.Type)
	if err != nil {
		return nil, err
	}
	b, enc, err := payload.ParseBinary([]byte(r.Input), textEncoding(r.Encoding))
	if err != nil {
		return nil, err
	}
	d, err := sc.Decode(md, b, payload.DecodeOptions{In: payload.Binary, Out: r.Out})
	if err != nil {
		return nil, err
	}
	out := &decodeResult{bytesResult: bytesOf(b), Encoding: enc}
	if len(d.Messages) > 0 {
		out.Value = d.Messages[0]
	}
	return out, nil
}

func (s *session) wireView(c *callCtx, req []byte) (any, error) {
	var r decodeRequest
	if err := unmarshal(req, &r); err != nil {
		return nil, err
	}
	sc, md, err := s.typeOf(c, r.Files, r.Type)
	if err != nil {
		return nil, err
	}
	b, _, err := payload.ParseBinary([]byte(r.Input), textEncoding(r.Encoding))
	if err != nil {
		return nil, err
	}
	// A malformed payload still has a view of the fields before the
	// fault, with the fault in View.Error.
	v, err := sc.WireView(md, b)
	if v != nil {
		return viewOf(v, b), nil
	}
	return nil, err
}

func (s *session) decodeRaw(c *callCtx, req []byte) (any, error) {
	var r rawRequest
	if err := unmarshal(req, &r); err != nil {
		return nil, err
	}
	b, _, err := payload.ParseBinary([]byte(r.Input), textEncoding(r.Encoding))
	if err != nil {
		return nil, err
	}
	v, err := payload.DecodeRaw(b)
	if v != nil {
		return viewOf(v, b), nil
	}
	return nil, err
}

func (s *session) sample(c *callCtx, req []byte) (any, error) {
	var r typeRequest
	if err := unmarshal(req, &r); err != nil {
		return nil, err
	}
	sc, md, err := s.typeOf(c, r.Files, r.Type)
	if err != nil {
		return nil, err
	}
	v, err := sc.FormatValue(payload.Sample(md), payload.JSON)
	if err != nil {
		return nil, err
	}
	return &sampleResult{Value: v}, nil
}

func (s *session) check(c *callCtx, req []byte) (any, error) {
	var r sourcesRequest
	if err := unmarshal(req, &r); err != nil {
		return nil, err
	}
	sc, err := s.schemaOf(c, r.Files)
	if err != nil {
		return nil, err
	}
	return &checkResult{Results: nonNil(sc.Check())}, nil
}

// textEncoding maps the page's encodings to payload's; the page never
// sends raw bytes through JSON, so Auto must not fall back to Binary
// silently: text that is neither hex nor base64 is reported.
func textEncoding(e payload.Encoding) payload.Encoding {
	if e == "" {
		return payload.Auto
	}
	return e
}

func bytesOf(b []byte) bytesResult {
	h, _ := payload.FormatBinary(b, payload.Hex)
	b64, _ := payload.FormatBinary(b, payload.Base64)
	return bytesResult{Hex: string(h), Base64: string(b64), Size: len(b)}
}

func unmarshal(req []byte, v any) error {
	if err := json.Unmarshal(req, v); err != nil {
		return fmt.Errorf("bad request: %v", err)
	}
	return nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// callLimits are the limits any request may carry, as
// "limits": {"timeoutMs": 60000, "memoryBytes": 1073741824}: a time limit
// for the call and a bound on the memory the Go runtime holds (under
// GOOS=js, about the WebAssembly memory's size). The compiler checks them
// between its stages and after each generated message, and reports a hit
// as an error diagnostic whose limit is "Deadline" or "MaxMemoryBytes"
// (see compiler.Limits); the caller names its own option in what it tells
// the user. The npm package's Node entry sets them: there the core runs on
// the caller's thread, which nothing else can interrupt. 0 or absent: no
// limit.
type callLimits struct {
	TimeoutMs   float64 `json:"timeoutMs"`
	MemoryBytes float64 `json:"memoryBytes"`
}

// callCtx is what one call runs under: its context (with the deadline)
// and the compiler limits.
type callCtx struct {
	ctx    context.Context
	limits compiler.Limits
}

func newCallCtx(req []byte) (*callCtx, context.CancelFunc, error) {
	var r struct {
		Limits callLimits `json:"limits"`
	}
	if err := unmarshal(req, &r); err != nil {
		return nil, nil, err
	}
	c := &callCtx{ctx: context.Background()}
	cancel := context.CancelFunc(func() {})
	if r.Limits.TimeoutMs > 0 {
		c.ctx, cancel = context.WithTimeout(c.ctx, time.Duration(r.Limits.TimeoutMs*float64(time.Millisecond)))
	}
	if r.Limits.MemoryBytes > 0 {
		c.limits.MaxMemoryBytes = int64(r.Limits.MemoryBytes)
		softMemoryLimit(c.limits.MaxMemoryBytes)
	}
	return c, cancel, nil
}

// softMemoryLimit tells the Go runtime about a caller's memory limit, so
// that garbage alone seldom passes it (main.go sets it under GOOS=js; a
// no-op natively, where the tests share the process).
var softMemoryLimit = func(limit int64) {}

// callError is how a failed call crosses to JS: the message, plus the
// positioned payload error when there is one.
type callError struct {
	Message string         `json:"message"`
	Detail  *payload.Error `json:"detail,omitempty"`
}

func errorOf(err error) callError {
	ce := callError{Message: err.Error()}
	var pe *payload.Error
	if errors.As(err, &pe) {
		ce.Detail = pe
	}
	return ce
}

// call runs one method and returns its JSON result or a callError.
func (s *session) call(method string, req []byte) (result []byte, cerr *callError) {
	defer func() {
		if p := recover(); p != nil {
			cerr = &callError{Message: fmt.Sprintf("internal error in %s: %v", method, p)}
		}
	}()
	m, ok := methods[method]
	if !ok {
		names := make([]string, 0, len(methods))
		for n := range methods {
			names = append(names, n)
		}
		sort.Strings(names)
		return nil, &callError{Message: fmt.Sprintf("unknown method %q (known: %v)", method, names)}
	}
	c, cancel, err := newCallCtx(req)
	if err != nil {
		ce := errorOf(err)
		return nil, &ce
	}
	defer cancel()
	v, err := m(s, c, req)
	if err != nil {
		ce := errorOf(err)
		return nil, &ce
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, &callError{Message: "internal error: " + err.Error()}
	}
	return b, nil
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "null"
	}
	return string(b)
}

// version says which build of the core answers: the Go version and, when
// the build recorded it, the VCS revision.
func version() string {
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
