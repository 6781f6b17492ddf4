//go:build js && wasm

package compiler_test

import (
	"syscall/js"
	"time"
)

// cpuTime is the process's CPU time so far (user and system), as Node's
// process.cpuUsage() counts it: the wasm core's thread and the engine's
// own (compiler, collector) threads.
func cpuTime() time.Duration {
	u := js.Global().Get("process").Call("cpuUsage")
	return time.Duration(u.Get("user").Float()+u.Get("system").Float()) * time.Microsecond
}
