//go:build js && wasm

// Command wasm is protoplay's core built for the browser (GOOS=js
// GOARCH=wasm). It installs globalThis.protoplay, a Promise-based API whose
// methods take and return plain objects:
//
//	compile({files})                      -> {diagnostics, messages, elapsedMs}
//	generate({files, options})            -> {diagnostics, messages, generated, elapsedMs}
//	encode({files, type, input, in})      -> {hex, base64, size}
//	decode({files, type, input, encoding}) -> {value, encoding, hex, base64, size}
//	wireView({files, type, input, encoding}) -> payload.View
//	decodeRaw({input, encoding})          -> payload.View
//	sample({files, type})                 -> {value}
//	check({files})                        -> {results}
//
// files maps file names to .proto text. A failed call rejects with an
// Error whose message says why and whose detail, when the input was at
// fault, is a payload.Error with its position. When the API is ready the
// program calls globalThis.protoplayReady() if it is defined.
//
// A call never runs inside the syscall/js callback that received it: the
// callback starts a goroutine and returns the Promise at once, so the JS
// event loop (and the Worker's message handling) is never blocked waiting
// for Go.
package main

import (
	"os"
	"runtime/debug"
	"syscall/js"
)

func main() {
	tuneGC()
	register(js.Global())
	if ready := js.Global().Get("protoplayReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {} // serve calls until the Worker is terminated
}

// register installs the API object as global.protoplay.
func register(global js.Value) {
	s := &session{}
	jsonObj := global.Get("JSON")
	promise := global.Get("Promise")
	errorCtor := global.Get("Error")
	api := global.Get("Object").New()
	for name := range methods {
		api.Set(name, js.FuncOf(func(this js.Value, args []js.Value) any {
			// Copy the argument out now: JS may change the object after
			// the call returns.
			var req string
			if len(args) > 0 && args[0].Type() != js.TypeUndefined {
				req = jsonObj.Call("stringify", args[0]).String()
			} else {
				req = "{}"
			}
			// The executor runs synchronously inside Promise's constructor,
			// so it can be released as soon as the Promise exists.
			exec := js.FuncOf(func(this js.Value, pargs []js.Value) any {
				resolve, reject := pargs[0], pargs[1]
				go func() {
					out, cerr := s.call(name, []byte(req))
					if cerr != nil {
						e := errorCtor.New(cerr.Message)
						if cerr.Detail != nil {
							e.Set("detail", jsonObj.Call("parse", mustJSON(cerr.Detail)))
						}
						reject.Invoke(e)
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
	api.Set("version", js.ValueOf(version()))
	global.Set("protoplay", api)
}

// tuneGC trades memory for speed. A compile allocates several times the
// heap it leaves live, and GOOS=js collects on the one thread that also
// compiles, so the default GOGC=100 collects on nearly every call. At 400
// the median recompile of a 900-line schema measured ~20% faster in
// Chromium (site/measure_test.go). The soft limit makes the collector work
// harder well before the page's 1 GiB limit replaces the Worker. GOGC or
// GOMEMLIMIT in the Worker's environment (the page's ?gogc=) win.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(640 << 20)
	}
}
