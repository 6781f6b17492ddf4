// Package parallel runs the iterations of a loop on every processor.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Workers is the number of goroutines For runs n iterations on:
// GOMAXPROCS, at most n (0 when n is 0).
func Workers(n int) int {
	return min(runtime.GOMAXPROCS(0), max(n, 0))
}

// For calls fn(w, i) once for each i in [0, n), on Workers(n) goroutines
// numbered w = 0, 1, ...: the iterations are handed out in increasing
// order, and every call with one w runs on the same goroutine, one after
// another (so fn may keep state per w without a lock). For returns when
// every call has. A panic in fn stops the handing out; once the other
// goroutines are done, For raises it again on the caller's goroutine
// (where a recover can see it).
func For(n int, fn func(w, i int)) {
	var (
		next     atomic.Int64
		panicked atomic.Pointer[any]
		wg       sync.WaitGroup
	)
	for w := range Workers(n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					panicked.CompareAndSwap(nil, &r)
				}
			}()
			for panicked.Load() == nil {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				fn(w, i)
			}
		}()
	}
	wg.Wait()
	if p := panicked.Load(); p != nil {
		panic(*p)
	}
}
