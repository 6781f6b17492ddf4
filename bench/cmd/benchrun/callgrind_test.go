package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestInstrRows: the rows counted under callgrind are the targets, then
// exactly the opaque rows whose wall-time median is more than 10% above
// protoplay's open row on the same message, in the suite's row order.
func TestInstrRows(t *testing.T) {
	r, _ := parseBench(strings.Join([]string{
		"BenchmarkSize/flat3/pp-2 100 2.0 ns/op 0 B/op 0 allocs/op",
		"BenchmarkSize/flat3/ppo-2 100 3.0 ns/op 0 B/op 0 allocs/op",
		"BenchmarkSize/flat5/pp-2 100 10.0 ns/op 0 B/op 0 allocs/op",
		"BenchmarkSize/flat5/ppo-2 100 10.9 ns/op 0 B/op 0 allocs/op", // within 10%: not counted
		"BenchmarkAttributeSetting/gm2/pp-2 100 6.0 ns/op 0 B/op 0 allocs/op",
		"BenchmarkAttributeSetting/gm2/ppo-2 100 9.0 ns/op 0 B/op 0 allocs/op",
		"BenchmarkAttributeSetting/flat0/pp-2 100 1.0 ns/op 0 B/op 0 allocs/op",
		"BenchmarkAttributeSetting/flat0/ppo-2 100 1.0 ns/op 0 B/op 0 allocs/op", // equal: not counted
		"BenchmarkDeserialize/mixed/pp-2 100 10 ns/op 0 B/op 0 allocs/op",
		"BenchmarkDeserialize/mixed/ppo-2 100 9 ns/op 0 B/op 0 allocs/op", // faster: not counted
		"BenchmarkSizeOf/gm2/pp-2 100 1 ns/op 328 sizeof-B 0 B/op 0 allocs/op",
		"BenchmarkSizeOf/gm2/ppo-2 100 2 ns/op 264 sizeof-B 0 B/op 0 allocs/op", // bytes, not time
	}, "\n"))
	rows := instrRows(r)
	if len(rows) != len(instrTargets)+2 {
		t.Fatalf("%d rows, want the %d targets and 2 slower opaque rows: %+v", len(rows), len(instrTargets), rows[len(instrTargets):])
	}
	got := fmt.Sprint(rows[len(instrTargets)].Row, "/", rows[len(instrTargets)].Msg, " ", rows[len(instrTargets)+1].Row, "/", rows[len(instrTargets)+1].Msg)
	if want := "AttributeSetting/gm2 Size/flat3"; got != want {
		t.Errorf("slower opaque rows %s, want %s", got, want)
	}
	for _, x := range rows[len(instrTargets):] {
		if x.Ref != PeerPP.Dir || x.PP != PeerPPO.Dir || x.Target != 1 {
			t.Errorf("row %+v: want protoplay against protoplay opaque, target 1", x)
		}
	}
}

// TestPrintInstructions: a row is met when protoplay's count over the
// reference's is at most the target; a failed row says why and keeps the
// table's shape.
func TestPrintInstructions(t *testing.T) {
	var out strings.Builder
	printInstructions(func(format string, args ...any) { fmt.Fprintf(&out, format, args...) }, []InstrRow{
		{Row: "Deserialize", Msg: "gm2", Ref: "hp", PP: "ppo", RefIr: 2_250_000, PPIr: 1_500_000, Target: 0.7, TargetFor: "t1"},
		{Row: "Deserialize", Msg: "gm2", Ref: "hp", PP: "ppo", RefIr: 2_000_000, PPIr: 1_500_000, Target: 0.7, TargetFor: "t2"},
		{Row: "Size", Msg: "flat3", Ref: "pp", PP: "ppo", RefIr: 20.5, PPIr: 20.5, Target: 1, TargetFor: "t3"},
		{Row: "Size", Msg: "flat0", Ref: "pp", PP: "ppo", Target: 1, TargetFor: "t4", Err: "valgrind: exit status 1 | a|b"},
	})
	got := out.String()
	for _, want := range []string{
		"| deserialize (fresh message, direct call) | gm2 | hyperpb | 2250000 | protoplay opaque | 1500000 | **0.67** | t1 | **yes** |",
		"| deserialize (fresh message, direct call) | gm2 | hyperpb | 2000000 | protoplay opaque | 1500000 | **0.75** | t2 | no |",
		"| size | flat3 | protoplay | 20.5 | protoplay opaque | 20.5 | **1.00** | t3 | **yes** |",
		"| size | flat0 | protoplay | | protoplay opaque | | | t4 | failed: valgrind: exit status 1 / a/b |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	out.Reset()
	printInstructions(func(format string, args ...any) { fmt.Fprintf(&out, format, args...) }, nil)
	if out.Len() != 0 {
		t.Errorf("no rows printed %q", out.String())
	}
}
