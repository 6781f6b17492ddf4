package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/protoplay/protoplay/compiler"
)

// workLimits are the limits every command shares, with the same flags
// and defaults: --timeout (defaultTimeout) bounds the wall time of the
// command's work and --max-memory (defaultMaxMemory) the memory the
// process holds from the OS. A command over either stops with an error
// naming the limit and the flag that raises it, and writes no output.
type workLimits struct {
	timeout   time.Duration
	maxMemory byteSize
}

func (l *workLimits) register(fs *flag.FlagSet) {
	l.maxMemory = defaultMaxMemory
	l.timeout = defaultTimeout
	fs.Var((*duration)(&l.timeout), "timeout", "stop with an error after this much wall `TIME` (e.g. 30s, 5m; 0: no limit)")
	fs.Var(&l.maxMemory, "max-memory", "stop with an error when the process holds more `BYTES` of memory from the OS (e.g. 2GiB, 512MiB; 0: no limit)")
}

// duration is a flag value of a time.Duration that is not negative (a
// negative limit would silently mean none).
type duration time.Duration

func (d *duration) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil || v < 0 {
		return fmt.Errorf("not a duration of 0 or more: %q (want e.g. 30s or 5m)", s)
	}
	*d = duration(v)
	return nil
}

func (d *duration) String() string { return time.Duration(*d).String() }

// count is a flag value of an int that is not negative.
type count int

func (c *count) Set(s string) error {
	v, err := strconv.Atoi(s)
	if err != nil || v < 0 {
		return fmt.Errorf("not a count of 0 or more: %q", s)
	}
	*c = count(v)
	return nil
}

func (c *count) String() string { return strconv.Itoa(int(*c)) }

// limitError is the error of workLimits.run when a limit stopped the
// work.
type limitError struct{ msg string }

func (e *limitError) Error() string { return e.msg }

// isLimit reports whether err is a limitError.
func isLimit(err error) bool {
	var le *limitError
	return errors.As(err, &le)
}

func (l *workLimits) timeoutError() error {
	return &limitError{fmt.Sprintf("stopped: over the time limit of %v (raise it with --timeout)", l.timeout)}
}

func (l *workLimits) memoryError(m uint64) error {
	return &limitError{fmt.Sprintf("stopped: memory in use %s, over the limit of %s (raise it with --max-memory)", byteSize(m).ceilMiB(), l.maxMemory)}
}

// limitGrace is how long run waits, after a limit stopped the work, for
// the work to see its context cancelled and clean up: stop the child
// processes it started (check --generated's go build and harness) and
// remove its temporary files. Work that ignores its context is left to
// the process's exit.
const limitGrace = 5 * time.Second

// run runs work under the limits. A watchdog reads the clock and the
// process's memory every memoryPoll and returns an error naming the limit
// as soon as one is passed, whatever work is doing: it cancels work's
// context and waits up to limitGrace for work to return, so that child
// processes are killed and temporary files removed before the process
// exits. Otherwise it returns work's error. While work runs, the garbage
// collector works harder as the memory limit nears, so garbage alone
// seldom passes it.
func (l *workLimits) run(work func(ctx context.Context) error) error {
	if l.maxMemory > 0 {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(int64(l.maxMemory)))
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- work(ctx) }()
	stop := func(err error) error {
		cancel()
		grace := time.NewTimer(limitGrace)
		defer grace.Stop()
		select {
		case <-done:
		case <-grace.C:
		}
		return err
	}
	var deadline <-chan time.Time
	if l.timeout > 0 {
		t := time.NewTimer(l.timeout)
		defer t.Stop()
		deadline = t.C
	}
	tick := time.NewTicker(memoryPoll)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			return err
		case <-deadline:
			return stop(l.timeoutError())
		case <-tick.C:
			if l.maxMemory > 0 {
				if m := compiler.MemoryInUse(); m > uint64(l.maxMemory) {
					return stop(l.memoryError(m))
				}
			}
		}
	}
}
