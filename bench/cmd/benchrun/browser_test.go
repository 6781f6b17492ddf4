package main

import (
	"fmt"
	"strings"
	"testing"
)

// measureOutput is the shape of TestMeasure's verbose output that
// parseMeasure reads: report lines, "edit result" lines, and lines of no
// interest.
const measureOutput = `=== RUN   TestMeasure/small
    measure_test.go:149: example.proto (42 lines): edit -> output median 14 ms, p95 23 ms (time in the core: median 8 ms, p95 14 ms), 40 edits
    measure_test.go:153:   the interpreter meanwhile: 0 rounds
    measure_test.go:171: edit result {"Schema":"example","Edits":40,"P50":14,"P95":23,"CoreP50":8,"CoreP95":14,"NativeP50":1.3,"NativeP95":3.6,"First":588,"Full":112,"NativeFirst":44.3,"NativeFull":19.4,"Load":"1.97"}
=== RUN   TestMeasure/big
    measure_test.go:171: edit result {"Schema":"storage.proto","Edits":40,"P50":34,"P95":47,"CoreP50":27,"CoreP95":38,"NativeP50":7,"NativeP95":14.8,"First":1887,"Full":532,"NativeFirst":137.4,"NativeFull":163.9,"Load":"2.31"}
=== RUN   TestMeasure/dlp
    measure_test.go:171: edit result {"Schema":"dlp.proto","Edits":40,"P50":283,"P95":389,"CoreP50":270,"CoreP95":372,"NativeP50":87,"NativeP95":130.1,"First":6106,"Full":5377,"NativeFirst":1475.5,"NativeFull":1283.4,"Load":"1.69"}
--- PASS: TestMeasure (159.99s)
`

func TestParseMeasureAndTargets(t *testing.T) {
	b := &Browser{WasmBrotli: 2_218_115}
	if err := b.parseMeasure(measureOutput); err != nil {
		t.Fatal(err)
	}
	if len(b.Lines) != 1 || !strings.HasPrefix(b.Lines[0], "example.proto (42 lines): edit -> output") {
		t.Errorf("report lines %q", b.Lines)
	}
	if len(b.Edits) != 3 || b.Edits[2].Schema != "dlp.proto" || b.Edits[2].P95 != 389 || b.Edits[1].NativeP50 != 7 {
		t.Fatalf("edit results %+v", b.Edits)
	}
	var w strings.Builder
	printEdits(func(f string, a ...any) { fmt.Fprintf(&w, f, a...) }, b)
	out := w.String()
	for _, want := range []string{
		"| storage.proto | 40 | 34 / 47 | 27 / 38 | 7.0 / 14.8 | 3.9x | 1887 / 532 | 3.5x |",
		"| storage.proto: edit -> new Go p95 <= 100 ms | 47 ms | **yes** |",
		"| dlp.proto: edit -> new Go p95 <= 300 ms | 389 ms | no |",
		"| example: first compile <= 3x a warm one | 5.2x | no |",
		"| dlp.proto: first compile <= 3x a warm one | 1.1x | **yes** |",
		"| dlp.proto: wasm/native <= 2x (edit, core medians) | 3.1x | no |",
		"| core wasm <= 2000000 bytes brotli | 2218115 | no |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "example: edit -> new Go p95") {
		t.Errorf("the example has no p95 target:\n%s", out)
	}
}

func TestParseMeasureBadResult(t *testing.T) {
	b := &Browser{}
	err := b.parseMeasure("    measure_test.go:171: edit result {\"Schema\":\"dlp.proto\",\"P95\":\"slow\"}\n")
	if err == nil || !strings.Contains(err.Error(), "edit result") {
		t.Fatalf("want an error naming the edit result, got %v", err)
	}
}
