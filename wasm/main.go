//go:build js && wasm

// Command wasm is protoplay's core built for the browser (GOOS=js
// GOARCH=wasm). It installs globalThis.protoplay, a Promise-based API with
// one method per entry of compiler.Methods (compile, generate, encode,
// decode, wireView, decodeRaw, sample, check) and the core's version. Each
// method takes a plain object, the JSON of its compiler request type, and
// resolves to the JSON of its result type; the TypeScript contract,
// site/src/lib/api.gen.ts, is generated from those Go types. A failed
// call rejects with an Error whose message says why and whose detail is
// the compiler.Error (kind, message, diagnostics or payload position).
// When the API is ready the program calls globalThis.protoplayReady() if
// it is defined.
//
// A call never runs inside the syscall/js callback that received it: the
// callback starts a goroutine and returns the Promise at once, so the JS
// event loop (and the Worker's message handling) is never blocked waiting
// for Go.
package main

import (
	"context"
	"encoding/json"
	"os"
	"runtime"
	"runtime/debug"
	"syscall/js"
	"time"

	"github.com/protoplay/protoplay/compiler"
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
	ws := &compiler.Workspace{OnMemoryLimit: func(limit int64) { softMemoryLimit(limit) }}
	jsonObj := global.Get("JSON")
	promise := global.Get("Promise")
	errorCtor := global.Get("Error")
	object := global.Get("Object")
	jsArray := global.Get("Array")
	api := global.Get("Object").New()
	for _, m := range compiler.Methods {
		name := m.Name
		api.Set(name, js.FuncOf(func(this js.Value, args []js.Value) any {
			// Copy the argument out now: JS may change the object after
			// the call returns. The sources (files: path -> text) are
			// copied string by string, and the rest goes as JSON: escaping
			// megabytes of .proto text into JSON and parsing it back out
			// cost more than a big schema's edit itself.
			var req string
			var files compiler.Sources
			if len(args) > 0 && args[0].Type() != js.TypeUndefined {
				arg := args[0]
				if f := arg.Get("files"); arg.Type() == js.TypeObject && f.Type() == js.TypeObject && !jsArray.Call("isArray", f).Bool() {
					files = sourcesOf(f, object)
					if files != nil {
						arg = object.Call("assign", object.New(), arg)
						arg.Delete("files")
					}
				}
				req = jsonObj.Call("stringify", arg).String()
			} else {
				req = "{}"
			}
			// The executor runs synchronously inside Promise's constructor,
			// so it can be released as soon as the Promise exists.
			exec := js.FuncOf(func(this js.Value, pargs []js.Value) any {
				resolve, reject := pargs[0], pargs[1]
				go func() {
					if onCall != nil {
						onCall(name, false)
						defer onCall(name, true)
					}
					out, cerr := ws.CallFiles(context.Background(), name, []byte(req), files)
					if cerr != nil {
						e := errorCtor.New(cerr.Error())
						if detail, err := json.Marshal(cerr); err == nil {
							e.Set("detail", jsonObj.Call("parse", string(detail)))
						}
						reject.Invoke(e)
						return
					}
					resolve.Invoke(jsonObj.Call("parse", string(out)))
					if idleGC != nil && (name == "generate" || name == "compile") {
						idleGC.Reset(idleGCDelay)
					}
				}()
				return nil
			})
			p := promise.New(exec)
			exec.Release()
			return p
		}))
	}
	api.Set("version", js.ValueOf(compiler.Version()))
	global.Set("protoplay", api)
}

// onCall, if set, is told when a call starts (done false) and when it
// has answered (done true); the lazy-runtime build prefetches the
// runtime's sources when the calls pause (runtime_lazy.go).
var onCall func(method string, done bool)

// sourcesOf copies a request's files object (path -> text) into Go
// strings; nil when a value is not a string, for the JSON decoder to
// report as it always has.
func sourcesOf(f, object js.Value) compiler.Sources {
	keys := object.Call("keys", f)
	n := keys.Length()
	files := make(compiler.Sources, n)
	for i := 0; i < n; i++ {
		k := keys.Index(i).String()
		v := f.Get(k)
		if v.Type() != js.TypeString {
			return nil
		}
		files[k] = v.String()
	}
	return files
}

// idleGC collects shortly after a compile has answered, while the person
// reads the output, so that the next compile starts on a clean heap and
// (with GOGC at 400) seldom has to stop for a collection of its own. A
// call arriving meanwhile interleaves with it.
var idleGC *time.Timer

const idleGCDelay = 100 * time.Millisecond

// tuneGC trades memory for speed. A compile allocates many times the heap
// it leaves live (17 MB for 4 MB on a 900-line googleapis file), and
// GOOS=js collects on the one thread that also compiles, so the default
// GOGC=100 collected during every compile of that file. With GOGC=1000 and
// the idle collection below, none does: the median recompile measured
// ~25% faster in Chromium (site/measure_test.go), for a heap that peaks
// near 50 MB. The soft limit makes the collector work harder well before
// the page's 1 GiB limit replaces the Worker. GOGC or GOMEMLIMIT in the
// Worker's environment (the page's ?gogc=) win.
// softMemoryLimit tells the Go runtime about a request's memory limit
// (see tuneGC); a no-op when GOMEMLIMIT is set.
var softMemoryLimit = func(limit int64) {}

func tuneGC() {
	idleGC = time.AfterFunc(time.Hour, runtime.GC)
	idleGC.Stop()
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(1000)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(640 << 20)
		// A caller's memory limit (compiler.CallLimits) lowers the soft limit to
		// 7/8 of it, so the collector works harder before the compiler's
		// check sees the memory pass it.
		softMemoryLimit = func(limit int64) {
			if target := limit / 8 * 7; target < debug.SetMemoryLimit(-1) {
				debug.SetMemoryLimit(target)
			}
		}
	}
}
