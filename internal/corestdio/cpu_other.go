//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly || windows)

package corestdio

import "time"

var start = time.Now()

// processCPUms is, where the process's CPU time cannot be read, the time
// on the clock since the process started, in milliseconds: the host then
// ends an overrunning core by the clock alone.
func processCPUms() float64 { return float64(time.Since(start).Microseconds()) / 1000 }
