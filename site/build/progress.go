package main

import (
	"fmt"
	"io"
	"os"
	"time"
)

// progress prints what the build is doing as it goes, one line per step
// with the time since the build started and, when a step ends, how long
// it took: a first build spends minutes in the go command and in
// compression, and should not look hung.
type progress struct {
	w     io.Writer
	start time.Time
}

func newProgress() *progress { return &progress{w: os.Stderr, start: time.Now()} }

// step prints that what has begun and returns the function that prints
// it done, with its duration and a detail (a size; may be empty).
func (p *progress) step(format string, args ...any) (done func(detail string)) {
	what := fmt.Sprintf(format, args...)
	t0 := time.Now()
	p.printf("%s ...", what)
	return func(detail string) {
		if detail != "" {
			detail = ", " + detail
		}
		p.printf("%s: done in %.1fs%s", what, time.Since(t0).Seconds(), detail)
	}
}

func (p *progress) printf(format string, args ...any) {
	fmt.Fprintf(p.w, "site/build: [%6.1fs] %s\n", time.Since(p.start).Seconds(), fmt.Sprintf(format, args...))
}

// mb formats a byte count in megabytes (or kilobytes below one).
func mb(n int) string {
	if n < 1e6 {
		return fmt.Sprintf("%.1f KB", float64(n)/1e3)
	}
	return fmt.Sprintf("%.2f MB", float64(n)/1e6)
}
