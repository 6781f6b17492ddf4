package main

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func gcPercent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

// gen runs with GOGC at genGCPercent while the live heap is small, back
// at 100 once a collection finds more than genGCBigHeap live, and as
// before after; GOGC in the environment wins.
func TestTuneGenGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("GOGC", "")
	restore := tuneGenGC()
	if p := gcPercent(); p != genGCPercent {
		t.Fatalf("GOGC during gen = %d, want %d", p, genGCPercent)
	}
	runtime.GC() // a small live heap: no change
	time.Sleep(50 * time.Millisecond)
	if p := gcPercent(); p != genGCPercent {
		t.Fatalf("GOGC after a collection of a small heap = %d, want %d", p, genGCPercent)
	}
	big := make([][]byte, 0, 160)
	for range 160 {
		big = append(big, make([]byte, 1<<20))
	}
	deadline := time.Now().Add(5 * time.Second)
	for gcPercent() != 100 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if p := gcPercent(); p != 100 {
		t.Fatalf("GOGC with %d MiB live = %d, want 100", len(big), p)
	}
	runtime.KeepAlive(big)
	restore()
	if p := gcPercent(); p != 100 {
		t.Fatalf("GOGC after gen = %d, want the earlier 100", p)
	}

	debug.SetGCPercent(70)
	t.Setenv("GOGC", "70")
	restore = tuneGenGC()
	if p := gcPercent(); p != 70 {
		t.Fatalf("GOGC=70 in the environment: GOGC during gen = %d", p)
	}
	restore()
}
