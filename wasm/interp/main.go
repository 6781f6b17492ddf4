//go:build js && wasm

// Command interp is the interpreter's module for the browser (GOOS=js
// GOARCH=wasm; site/dist/interp-HASH.wasm): github.com/traefik/yaegi
// with protoplay's runtime and the standard library packages generated
// code imports linked in as compiled symbols (package interp/symbols). It
// installs globalThis.protoplay with one Promise-based method per entry of
// interp.Methods (load, check, run) and the Go version that built it, the
// same shape as the core's module (wasm/main.go), so that the same Worker
// script (site/src/lib/worker.ts) runs either. Each method takes a plain
// object, the JSON of its interp request type (interp.LoadRequest,
// CheckRequest, RunRequest), and resolves to the JSON of its result; a
// failed call rejects with an Error whose message says why. While run
// runs a program, each write of its output is passed to
// globalThis.protoplayOutput(stream, text) when that is defined
// (interp.Session.Output). When the API
// is ready the program calls globalThis.protoplayReady() if it is defined.
//
// The logic is interp.Session, which builds and tests natively; this file
// only wires JS calls to it. Calls run one at a time, in order. A program
// that never returns blocks the module for good: the page ends the Worker.
package main

import (
	"runtime"
	"syscall/js"

	"github.com/protoplay/protoplay/interp"
)

func main() {
	register(js.Global())
	if ready := js.Global().Get("protoplayReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {} // serve calls until the Worker is terminated
}

// register installs the API object as global.protoplay.
func register(global js.Value) {
	s := &interp.Session{}
	// A running program's output goes to globalThis.protoplayOutput as it
	// is written (the Worker posts it to the page), so that what a
	// runaway program printed survives its Worker being ended.
	s.Output = func(stream, text string) {
		if out := global.Get("protoplayOutput"); out.Type() == js.TypeFunction {
			out.Invoke(stream, text)
		}
	}
	jsonObj := global.Get("JSON")
	promise := global.Get("Promise")
	errorCtor := global.Get("Error")
	api := global.Get("Object").New()
	// One call at a time: the session is not safe for concurrent use, and
	// a call's goroutine yields whenever it blocks.
	lock := make(chan struct{}, 1)
	for _, name := range interp.Methods {
		api.Set(name, js.FuncOf(func(this js.Value, args []js.Value) any {
			req := "{}"
			if len(args) > 0 && args[0].Type() != js.TypeUndefined {
				req = jsonObj.Call("stringify", args[0]).String()
			}
			exec := js.FuncOf(func(this js.Value, pargs []js.Value) any {
				resolve, reject := pargs[0], pargs[1]
				go func() {
					lock <- struct{}{}
					out, err := s.Call(name, []byte(req))
					<-lock
					if err != nil {
						reject.Invoke(errorCtor.New(err.Error()))
						return
					}
					resolve.Invoke(jsonObj.Call("parse", string(out)))
				}()
				return nil
			})
			p := promise.New(exec)
			exec.Release()
			return p
		}))
	}
	api.Set("version", js.ValueOf(runtime.Version()))
	global.Set("protoplay", api)
}
