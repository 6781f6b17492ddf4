package compiler_test

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/protoplay/protoplay/compiler"
)

// workProbe is a context whose deadline is read at each of the core's
// deadline checks (frontend.StopCheck and the checks made with it, which
// read the deadline and compare it with the clock, as they must under
// GOOS=js, where no timer fires while the core computes), and which
// records the work done up to each read: the bytes allocated since the
// probe was made and the process's CPU time. Its deadline passes once
// expireAfter bytes have been allocated (0: never): it is seen at the
// next check.
type workProbe struct {
	context.Context
	expireAfter uint64

	mu       sync.Mutex
	start    workMark
	marks    []workMark
	done     chan struct{}
	doneOnce sync.Once
}

type workMark struct {
	alloc uint64        // bytes allocated by the process so far
	cpu   time.Duration // the process's CPU time so far
	pcs   [12]uintptr   // where the check was made
}

func newWorkProbe(expireAfter uint64) *workProbe {
	p := &workProbe{Context: context.Background(), expireAfter: expireAfter, done: make(chan struct{})}
	p.start = markWork()
	return p
}

// markWork is the work done so far, and where it is asked from.
func markWork() workMark {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	m := workMark{alloc: s[0].Value.Uint64(), cpu: cpuTime()}
	runtime.Callers(3, m.pcs[:])
	return m
}

func (p *workProbe) Deadline() (time.Time, bool) {
	m := markWork()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.marks = append(p.marks, m)
	if p.expireAfter > 0 && m.alloc-p.start.alloc >= p.expireAfter {
		p.doneOnce.Do(func() { close(p.done) })
		return time.Unix(1, 0), true
	}
	return time.Now().Add(time.Hour), true
}

func (p *workProbe) Done() <-chan struct{} { return p.done }

func (p *workProbe) Err() error {
	select {
	case <-p.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

// where names the innermost functions of a check's stack, from the first
// outside package context.
func (m workMark) where() string {
	var names []string
	frames := runtime.CallersFrames(m.pcs[:])
	for {
		f, more := frames.Next()
		if f.Function != "" && !strings.HasPrefix(f.Function, "context.") {
			names = append(names, fmt.Sprintf("%s:%d", f.Function[strings.LastIndex(f.Function, "/")+1:], f.Line))
		}
		if !more || len(names) == 3 {
			break
		}
	}
	return strings.Join(names, " < ")
}

// TestDeadlineCheckedOften: the core reads its deadline often enough, all
// through a compile of a schema of ten files of 100 messages (front end
// and Go), that a deadline passing at any point stops it after a small
// part of the compile's work: the work is counted in bytes allocated
// (what the core did, whatever the machine's load), with the CPU time
// logged beside it. The deadline passes just after the check that begins
// each of the longest stretches between two checks of a whole compile in
// turn, and midway and late in the compile. Two bounds, each a share of
// the whole compile's work: no stretch between two checks of the whole
// compile is over 1/maxStretchShare, and once a check has seen the
// deadline the work to the call's return is at most 1/maxUnwindShare (the
// work after the deadline is then at most the rest of the stretch it
// passed in, plus that). The
// npm package's and the page's hosts replace a core that has not answered
// some time after its limit (nodethread.ts graceMs, the page's
// compileDeadlineMs a second before its call limit), which on a busy
// machine is a fraction of a second of CPU. The largest step the core
// cannot check inside is protocompile's compile of the sources (parse,
// lowering, linking and descriptors, all files in one step), then
// protodesc.NewFile of one file: each grows with the source's size, which
// MaxSourceBytes bounds. The test runs at GOMAXPROCS 1: its marks are the
// process's allocation counter, which measures the stretches of one
// goroutine only when the front end's queries run one at a time (as in
// the wasm core; queryParallelism); with N processors each of N queries
// runs on to its own next check, so up to N stretches follow a deadline.
func TestDeadlineCheckedOften(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	srcs := compiler.Sources{}
	for i := range 10 {
		srcs[fmt.Sprintf("f%d.proto", i)] = strings.Replace(manyMessages(100), "package big;", fmt.Sprintf("package big%d;", i), 1)
	}
	run := func(expireAfter uint64) (*workProbe, workMark, *compiler.CompileResult) {
		t.Helper()
		p := newWorkProbe(expireAfter)
		res, err := (&compiler.Workspace{}).Generate(p, compiler.CompileRequest{Files: srcs})
		if err != nil {
			t.Fatal(err)
		}
		return p, markWork(), res
	}
	full, end, res := run(0)
	if len(res.Generated) != len(srcs) {
		t.Fatalf("the whole compile: %d files, %v", len(res.Generated), res.Diagnostics)
	}
	total, totalCPU := end.alloc-full.start.alloc, end.cpu-full.start.cpu
	marks := append(append([]workMark{full.start}, full.marks...), end)
	worst := 1
	for i := 2; i < len(marks); i++ {
		if marks[i].alloc-marks[i-1].alloc > marks[worst].alloc-marks[worst-1].alloc {
			worst = i
		}
	}
	t.Logf("%d checks over %.0f MB allocated and %v of CPU; the largest stretch between two, %.1f MB (%.1f%%) and %v of CPU, from %s to %s",
		len(full.marks), mb(total), totalCPU.Round(time.Millisecond), mb(marks[worst].alloc-marks[worst-1].alloc),
		100*float64(marks[worst].alloc-marks[worst-1].alloc)/float64(total), (marks[worst].cpu - marks[worst-1].cpu).Round(time.Millisecond),
		marks[worst-1].where(), marks[worst].where())
	if stretch := marks[worst].alloc - marks[worst-1].alloc; stretch > total/maxStretchShare {
		t.Errorf("the largest stretch between two checks, %d bytes allocated from %s to %s, is over 1/%d of the whole compile's %d",
			stretch, marks[worst-1].where(), marks[worst].where(), maxStretchShare, total)
	}
	// The deadline passes just after the check that begins each of the
	// six longest stretches between two checks (the front end's passes,
	// mostly): the worst moment, as the whole stretch follows; and midway
	// through the compile and near its end (printing Go).
	longest := make([]int, 0, len(marks)-1)
	for i := 1; i < len(marks); i++ {
		longest = append(longest, i)
	}
	slices.SortFunc(longest, func(a, b int) int {
		return cmp.Compare(marks[b].alloc-marks[b-1].alloc, marks[a].alloc-marks[a-1].alloc)
	})
	var points []uint64
	for _, i := range longest[:min(6, len(longest))] {
		points = append(points, marks[i-1].alloc-full.start.alloc+1)
	}
	points = append(points, total/2, total*8/9)
	for _, expire := range points {
		p, end, res := run(expire)
		at := fmt.Sprintf("%.1f%% into the work", 100*float64(expire)/float64(total))
		if len(res.Generated) != 0 || len(res.Diagnostics) == 0 || res.Diagnostics[0].Limit != compiler.LimitDeadline {
			t.Errorf("deadline %s: %d files, %v", at, len(res.Generated), res.Diagnostics)
			continue
		}
		// The first check that saw the deadline passed, and the one
		// before it: the stretch the deadline passed in.
		prev, seen, found := p.start, workMark{}, false
		for _, m := range p.marks {
			if m.alloc-p.start.alloc >= expire {
				seen, found = m, true
				break
			}
			prev = m
		}
		if !found {
			t.Errorf("deadline %s: no check saw it, yet the compile stopped on it", at)
			continue
		}
		after, stretch, unwind := end.alloc-p.start.alloc-expire, seen.alloc-prev.alloc, end.alloc-seen.alloc
		t.Logf("deadline %s: seen by %s; %.1f MB (%.1f%%) allocated after it: in a stretch of %.1f MB (%.1f%%) between two checks, then %.2f MB (%.2f%%) to the return",
			at, seen.where(), mb(after), 100*float64(after)/float64(total), mb(stretch), 100*float64(stretch)/float64(total), mb(unwind), 100*float64(unwind)/float64(total))
		if stretch > total/maxStretchShare {
			t.Errorf("deadline %s: it passed in a stretch of %d bytes allocated between two checks (%s to %s), over 1/%d of the whole compile's %d",
				at, stretch, prev.where(), seen.where(), maxStretchShare, total)
		}
		if unwind > total/maxUnwindShare {
			t.Errorf("deadline %s: %d bytes allocated from the check that saw it (%s) to the return, over 1/%d of the whole compile's %d",
				at, unwind, seen.where(), maxUnwindShare, total)
		}
	}
}

// maxStretchShare: no stretch of a compile between two reads of its
// deadline is over this fraction (1/maxStretchShare) of the whole
// compile's work. The largest, protocompile's one step (see
// TestDeadlineCheckedOften), measured 1.7-1.8% of this test's compile; a
// bound at that measure (it was 1/60 of the work after the deadline,
// which adds the return to the stretch) failed one run in three at load
// 10 on the stretch's run-to-run spread alone.
const maxStretchShare = 40

// maxUnwindShare: once a check has seen the deadline, the work to the
// call's return is at most this fraction (1/maxUnwindShare) of the whole
// compile's.
const maxUnwindShare = 100

func mb(n uint64) float64 { return float64(n) / (1 << 20) }
