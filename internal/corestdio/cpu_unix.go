//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package corestdio

import "syscall"

// processCPUms is the CPU time (user and system) the process has used,
// in milliseconds.
func processCPUms() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	ms := func(t syscall.Timeval) float64 { return float64(t.Sec)*1000 + float64(t.Usec)/1000 }
	return ms(ru.Utime) + ms(ru.Stime)
}
