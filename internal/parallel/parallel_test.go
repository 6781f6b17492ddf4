package parallel

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// TestFor: every iteration runs once, on a goroutine numbered below
// Workers, one goroutine per number; GOMAXPROCS 1 is one goroutine.
func TestFor(t *testing.T) {
	for _, procs := range []int{1, 2, 5} {
		func() {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			for _, n := range []int{0, 1, 3, 100} {
				if got, want := Workers(n), min(procs, n); got != want {
					t.Errorf("GOMAXPROCS %d: Workers(%d) = %d, want %d", procs, n, got, want)
				}
				calls := make([]atomic.Int32, n)
				busy := make([]atomic.Int32, max(Workers(n), 1))
				For(n, func(w, i int) {
					if busy[w].Add(1) != 1 {
						t.Errorf("worker %d runs two calls at once", w)
					}
					calls[i].Add(1)
					runtime.Gosched()
					busy[w].Add(-1)
				})
				for i := range calls {
					if c := calls[i].Load(); c != 1 {
						t.Errorf("GOMAXPROCS %d, n %d: iteration %d ran %d times", procs, n, i, c)
					}
				}
			}
		}()
	}
}

// TestForPanic: a panic in an iteration comes back on the caller's
// goroutine, after the loop.
func TestForPanic(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	defer func() {
		if r := recover(); r != "boom" {
			t.Errorf("recovered %v, want boom", r)
		}
	}()
	For(10, func(_, i int) {
		if i == 3 {
			panic("boom")
		}
	})
	t.Error("For returned after a panic")
}
