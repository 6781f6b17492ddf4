//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"strings"
	"syscall/js"
	"testing"
	"time"

	"github.com/protoplay/protoplay/compiler"
)

// These tests run the bridge as the page uses it, under Node with Go's
// lib/wasm runner: GOOS=js GOARCH=wasm go test -exec=$(go env GOROOT)/lib/wasm/go_js_wasm_exec ./wasm

func init() { register(js.Global()) }

// await calls globalThis.protoplay[method](req) and waits for its Promise.
// The test goroutine blocks on a channel, which hands control back to the
// JS event loop until the Promise settles.
func await(t *testing.T, method string, req map[string]any) (js.Value, error) {
	t.Helper()
	p := js.Global().Get("protoplay").Call(method, js.ValueOf(req))
	if p.Get("then").Type() != js.TypeFunction {
		t.Fatalf("%s did not return a Promise", method)
	}
	type settled struct {
		v   js.Value
		err error
	}
	ch := make(chan settled, 1)
	onOK := js.FuncOf(func(_ js.Value, a []js.Value) any { ch <- settled{v: a[0]}; return nil })
	onErr := js.FuncOf(func(_ js.Value, a []js.Value) any { ch <- settled{err: jsError{a[0]}}; return nil })
	defer onOK.Release()
	defer onErr.Release()
	p.Call("then", onOK, onErr)
	select {
	case s := <-ch:
		return s.v, s.err
	case <-time.After(60 * time.Second):
		t.Fatalf("%s: no answer in 60s", method)
	}
	return js.Undefined(), nil
}

type jsError struct{ v js.Value }

func (e jsError) Error() string { return e.v.Get("message").String() }

// small is a schema every test can use.
const small = `syntax = "proto3";
package t;
message M { string name = 1; int32 id = 2; repeated M kids = 3; }
`

func files(src string) map[string]any {
	return map[string]any{"a.proto": src}
}

func TestGenerateReturnsGoAndMessages(t *testing.T) {
	v, err := await(t, "generate", map[string]any{"files": files(small), "options": "paths=source_relative"})
	if err != nil {
		t.Fatal(err)
	}
	if n := v.Get("diagnostics").Length(); n != 0 {
		t.Fatalf("%d diagnostics, want 0", n)
	}
	gen := v.Get("generated")
	if gen.Length() != 1 || gen.Index(0).Get("name").String() != "a.pb.go" {
		t.Fatalf("generated %s, want one file a.pb.go", js.Global().Get("JSON").Call("stringify", gen).String())
	}
	if !strings.Contains(gen.Index(0).Get("content").String(), "type M struct") {
		t.Error("generated Go has no type M")
	}
	if got := v.Get("messages").Index(0).Get("name").String(); got != "t.M" {
		t.Errorf("messages[0] = %q, want t.M", got)
	}
}

func TestSyntaxErrorIsADiagnosticNotARejection(t *testing.T) {
	v, err := await(t, "generate", map[string]any{"files": files("syntax = \"proto3\";\nmessage M {\n  int32 x = ;\n}\n")})
	if err != nil {
		t.Fatal(err)
	}
	e, ok := firstError(v.Get("diagnostics"))
	if !ok {
		t.Fatal("no error diagnostic")
	}
	if e.Get("line").Int() != 3 || e.Get("file").String() != "a.proto" {
		t.Errorf("error at %s:%d, want a.proto:3", e.Get("file"), e.Get("line").Int())
	}
	if v.Get("generated").Length() != 0 {
		t.Error("output generated despite an error")
	}
}

func TestBadOptionRejects(t *testing.T) {
	_, err := await(t, "generate", map[string]any{"files": files(small), "options": "nope=1"})
	if err == nil || !strings.Contains(err.Error(), "unknown option") {
		t.Fatalf("err = %v, want unknown option", err)
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	f := files(small)
	enc, err := await(t, "encode", map[string]any{"files": f, "type": "t.M", "input": `{"name":"hi","id":7}`})
	if err != nil {
		t.Fatal(err)
	}
	if got := enc.Get("hex").String(); got != "0a 02 68 69 10 07" {
		t.Fatalf("hex = %q", got)
	}
	dec, err := await(t, "decode", map[string]any{"files": f, "type": "t.M", "input": enc.Get("base64").String()})
	if err != nil {
		t.Fatal(err)
	}
	if dec.Get("encoding").String() != "base64" || !strings.Contains(dec.Get("value").String(), `"name": "hi"`) {
		t.Fatalf("decode = %s", js.Global().Get("JSON").Call("stringify", dec).String())
	}
}

func TestDecodeErrorCarriesOffset(t *testing.T) {
	_, err := await(t, "decode", map[string]any{"files": files(small), "type": "t.M", "input": "0a 05 68"})
	if err == nil {
		t.Fatal("truncated payload decoded")
	}
	d := err.(jsError).v.Get("detail")
	if d.Type() != js.TypeObject || d.Get("kind").String() != "payload" || d.Get("offset").Int() != 1 {
		t.Fatalf("detail = %v, want a payload error at byte 1 (the length prefix)", d)
	}
}

func TestSchemaErrorCarriesDiagnostics(t *testing.T) {
	_, err := await(t, "sample", map[string]any{"files": files("message {"), "type": "M"})
	if err == nil {
		t.Fatal("sample of a broken schema answered")
	}
	d := err.(jsError).v.Get("detail")
	if _, ok := firstError(d.Get("diagnostics")); d.Get("kind").String() != "schema" || !ok {
		t.Fatalf("detail = %s, want kind schema with error diagnostics", js.Global().Get("JSON").Call("stringify", d).String())
	}
}

func TestWireViewAndRawDecode(t *testing.T) {
	f := files(small)
	v, err := await(t, "wireView", map[string]any{"files": f, "type": "t.M", "input": "0a0268691007"})
	if err != nil {
		t.Fatal(err)
	}
	fs := v.Get("fields")
	if fs.Length() != 2 || fs.Index(0).Get("name").String() != "name" || fs.Index(1).Get("offset").Int() != 4 {
		t.Fatalf("wire view = %s", js.Global().Get("JSON").Call("stringify", v).String())
	}
	r, err := await(t, "decodeRaw", map[string]any{"input": "0a0268691007"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Get("fields").Length() != 2 || r.Get("fields").Index(1).Get("number").Int() != 2 {
		t.Fatalf("raw view = %s", js.Global().Get("JSON").Call("stringify", r).String())
	}
}

func TestSampleAndCheck(t *testing.T) {
	f := files(small)
	s, err := await(t, "sample", map[string]any{"files": f, "type": "t.M"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s.Get("value").String(), `"name"`) {
		t.Errorf("sample = %s", s.Get("value"))
	}
	c, err := await(t, "check", map[string]any{"files": f})
	if err != nil {
		t.Fatal(err)
	}
	rs := c.Get("results")
	if rs.Length() != 1 || !rs.Index(0).Get("pass").Bool() {
		t.Fatalf("check = %s", js.Global().Get("JSON").Call("stringify", c).String())
	}
}

func TestUnknownTypeSuggests(t *testing.T) {
	_, err := await(t, "sample", map[string]any{"files": files(small), "type": "t.N"})
	if err == nil || !strings.Contains(err.Error(), "t.M") {
		t.Fatalf("err = %v, want a suggestion of t.M", err)
	}
}

func TestCallsDoNotBlockTheEventLoop(t *testing.T) {
	// A timer set before a call must be able to fire while Go works: the
	// Promise is returned before the work starts.
	fired := make(chan struct{}, 1)
	cb := js.FuncOf(func(js.Value, []js.Value) any { fired <- struct{}{}; return nil })
	defer cb.Release()
	p := js.Global().Get("protoplay").Call("generate", js.ValueOf(map[string]any{"files": files(small)}))
	js.Global().Call("setTimeout", cb, 0)
	if p.Get("then").Type() != js.TypeFunction {
		t.Fatal("no Promise")
	}
	select {
	case <-fired:
	case <-time.After(30 * time.Second):
		t.Fatal("timer never fired")
	}
}

// TestFilesCrossAsStrings checks the sources' own path through the bridge
// (sourcesOf, beside the JSON of the rest): text outside ASCII arrives
// intact, the caller's object is left as it was, a request without files
// still works, and a file whose text is not a string is refused as the
// JSON decoder refuses it.
func TestFilesCrossAsStrings(t *testing.T) {
	src := "syntax = \"proto3\";\npackage t;\n// café ∑ 😀 \"quoted\" \\ back\\slash\tand tab\nmessage M { string s = 1 [json_name = \"😀\"]; }\n"
	req := js.ValueOf(map[string]any{"files": files(src), "options": "paths=source_relative"})
	p := js.Global().Get("protoplay").Call("generate", req)
	if req.Get("files").Get("a.proto").String() != src || req.Get("options").String() != "paths=source_relative" {
		t.Fatal("the caller's request object was changed")
	}
	_ = p
	v, err := await(t, "generate", map[string]any{"files": files(src), "options": "paths=source_relative"})
	if err != nil {
		t.Fatal(err)
	}
	if n := v.Get("diagnostics").Length(); n != 0 {
		t.Fatalf("%d diagnostics: %s", n, js.Global().Get("JSON").Call("stringify", v.Get("diagnostics")).String())
	}
	gen := v.Get("generated").Index(0).Get("content").String()
	for _, want := range []string{"café ∑ 😀 \"quoted\" \\ back\\slash", "type M struct"} {
		if !strings.Contains(gen, want) {
			t.Errorf("generated Go lacks %q", want)
		}
	}
	// The same text through the JSON path (the whole request stringified,
	// as before) gives the same Go.
	jsonOnly, cerr := testWorkspace.Call(context.Background(), "generate", []byte(js.Global().Get("JSON").Call("stringify", js.ValueOf(map[string]any{"files": files(src), "options": "paths=source_relative"})).String()))
	if cerr != nil {
		t.Fatal(cerr)
	}
	var res compiler.CompileResult
	if err := json.Unmarshal(jsonOnly, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Generated) != 1 || res.Generated[0].Content != gen {
		t.Error("the Go of the files passed as strings differs from the Go of the same request as JSON")
	}

	if _, err := await(t, "decodeRaw", map[string]any{"input": "0801"}); err != nil {
		t.Errorf("a request without files: %v", err)
	}
	if _, err := await(t, "generate", map[string]any{"files": map[string]any{"a.proto": 42}}); err == nil || !strings.Contains(err.Error(), "bad generate request") {
		t.Errorf("a file that is a number: err = %v, want a bad request", err)
	}
	if _, err := await(t, "generate", map[string]any{"files": []any{"x"}}); err == nil || !strings.Contains(err.Error(), "bad generate request") {
		t.Errorf("files as an array: err = %v, want a bad request", err)
	}
}

var testWorkspace = &compiler.Workspace{}

// TestBytesMethods: the bridge answers rankTypes, infer and stream, and a
// descriptor set sent as a base64 file.
func TestBytesMethods(t *testing.T) {
	f := files(small)
	r, err := await(t, "rankTypes", map[string]any{"files": f, "input": "0a0268691007"})
	if err != nil {
		t.Fatal(err)
	}
	if fits := r.Get("fits"); fits.Length() != 1 || fits.Index(0).Get("type").String() != "t.M" || fits.Index(0).Get("score").Float() != 1 {
		t.Fatalf("rankTypes = %s", js.Global().Get("JSON").Call("stringify", r).String())
	}
	inf, err := await(t, "infer", map[string]any{"inputs": []any{"0a0268691007"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(inf.Get("content").String(), "string field1 = 1;") {
		t.Fatalf("infer = %s", inf.Get("content"))
	}
	s, err := await(t, "stream", map[string]any{"files": f, "type": "t.M", "input": "060a02686910070210 01"})
	if err != nil {
		t.Fatal(err)
	}
	if ms := s.Get("messages"); ms.Length() != 2 || ms.Index(1).Get("offset").Int() != 8 || !strings.Contains(ms.Index(1).Get("value").String(), "1") {
		t.Fatalf("stream = %s", js.Global().Get("JSON").Call("stringify", s).String())
	}
}

// firstError returns the first diagnostic of severity "error" in ds (the
// compiler also reports warnings, such as a file-wide missing package,
// which sort before a file's errors).
func firstError(ds js.Value) (js.Value, bool) {
	for i := 0; i < ds.Length(); i++ {
		if d := ds.Index(i); d.Get("severity").String() == "error" {
			return d, true
		}
	}
	return js.Undefined(), false
}
