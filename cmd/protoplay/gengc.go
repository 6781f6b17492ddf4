package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// gen's garbage collector settings. A gen allocates many times the heap
// it keeps live (googleapis' 122 files: about 1.1 GB allocated for a live
// heap under 100 MB), so with the default GOGC=100 the collector ran
// dozens of cycles, about a tenth of the process's CPU on 2 cores, where
// the other core prints and formats. genGCPercent lets the heap grow to
// four times its live size while the live heap is small; once a
// collection finds more than genGCBigHeap live (a schema of thousands of
// messages), GOGC goes back to 100, so that a large gen peaks near twice
// its live heap as before (and never above the --max-memory soft limit).
const (
	genGCPercent = 300
	genGCBigHeap = 128 << 20
)

// tuneGenGC sets GOGC to genGCPercent for a gen, unless the environment
// sets GOGC, and returns the function that puts the previous setting back.
// After each collection (a cleanup of an object dropped before it), the
// live heap is read; past genGCBigHeap, GOGC returns to 100 for the rest
// of the gen.
func tuneGenGC() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	t := &gcTuner{prev: debug.SetGCPercent(genGCPercent)}
	t.arm()
	return t.stop
}

type gcTuner struct {
	mu      sync.Mutex
	prev    int
	stopped bool // stop ran, or the live heap passed genGCBigHeap
}

// arm makes an object that the next collection frees, whose cleanup
// checks the live heap and arms again.
func (t *gcTuner) arm() {
	sentinel := new([16]byte)
	runtime.AddCleanup(sentinel, func(t *gcTuner) { t.afterGC() }, t)
}

func (t *gcTuner) afterGC() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return
	}
	if liveHeap() > genGCBigHeap {
		debug.SetGCPercent(100)
		t.stopped = true
		return
	}
	t.arm()
}

func (t *gcTuner) stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.stopped = true
	debug.SetGCPercent(t.prev)
}

// liveHeap is the heap the last collection found live, in bytes.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
