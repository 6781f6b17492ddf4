//go:build js && wasm

package main

import (
	"context"
	"strings"
	"syscall/js"
	"testing"
	"time"

	"github.com/protoplay/protoplay/compiler"
)

// These tests run the bridge as the page uses it, under Node with Go's
// lib/wasm runner: GOOS=js GOARCH=wasm go test -exec=$(go env GOROOT)/lib/wasm/go_js_wasm_exec ./wasm/interp

func init() { register(js.Global()) }

// await calls globalThis.protoplay[method](req) and waits for its Promise.
func await(t *testing.T, method string, req any) (js.Value, error) {
	t.Helper()
	p := js.Global().Get("protoplay").Call(method, js.ValueOf(req))
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
	case <-time.After(120 * time.Second):
		t.Fatalf("%s: no answer in 120s", method)
	}
	return js.Undefined(), nil
}

type jsError struct{ v js.Value }

func (e jsError) Error() string { return e.v.Get("message").String() }

// TestLoadCheckRun: the generated code of a small schema, loaded, checked
// against bytes protobuf-go would write, and run by a program.
func TestLoadCheckRun(t *testing.T) {
	res := compiler.Compile(context.Background(), compiler.Request{Sources: map[string]string{"a.proto": `syntax = "proto3";
package t;
option go_package = "example.com/t";
message M { string name = 1; int32 id = 2; repeated M kids = 3; }
`}})
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	var files []any
	for _, g := range res.Generated {
		files = append(files, map[string]any{"name": g.Name, "content": g.Content})
	}
	v, err := await(t, "load", map[string]any{"files": files})
	if err != nil {
		t.Fatal(err)
	}
	if e := v.Get("error"); e.Truthy() {
		t.Fatalf("load: %s", e.Get("message").String())
	}
	if v.Get("types").Length() != 1 || v.Get("types").Index(0).Get("importPath").String() != "example.com/t" {
		t.Fatalf("types: %s", js.Global().Get("JSON").Call("stringify", v.Get("types")).String())
	}
	// name "ab", id 3, kids [{id 1}]
	v, err = await(t, "check", map[string]any{"type": "t.M", "hex": "0a 02 61 62 10 03 1a 02 10 01", "probes": []any{map[string]any{"name": "empty", "hex": ""}}})
	if err != nil {
		t.Fatal(err)
	}
	if !v.Get("pass").Bool() || v.Get("offset").Int() != -1 || v.Get("steps").Length() != 5 {
		t.Fatalf("check: %s", js.Global().Get("JSON").Call("stringify", v).String())
	}
	v, err = await(t, "run", map[string]any{"source": "package main\n\nimport (\n\t\"fmt\"\n\n\tt \"example.com/t\"\n)\n\nfunc main() {\n\tb, _ := (&t.M{Id: 150}).Marshal()\n\tfmt.Printf(\"%x\\n\", b)\n}\n"})
	if err != nil {
		t.Fatal(err)
	}
	if got := v.Get("stdout").String(); got != "109601\n" || v.Get("error").Truthy() {
		t.Fatalf("run: %s", js.Global().Get("JSON").Call("stringify", v).String())
	}
	if _, err := await(t, "check", map[string]any{"type": "t.Nope", "hex": ""}); err == nil || !strings.Contains(err.Error(), "no message type t.Nope") {
		t.Fatalf("check of a missing type: %v", err)
	}
}
