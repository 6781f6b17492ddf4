//go:build !(js && wasm)

package compiler_test

import (
	"syscall"
	"time"
)

// cpuTime is the process's CPU time so far (user and system, every
// thread), from getrusage; 0 where that fails.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
