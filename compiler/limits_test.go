package compiler_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/protoplay/protoplay/compiler"
)

// optionNest is a file whose option value nests levels braces deep inside
// the message's own braces: levels+1 levels of brackets in all.
func optionNest(levels int) string {
	return "syntax = \"proto2\";\npackage o;\nimport \"google/protobuf/descriptor.proto\";\n" +
		"message Opt { optional Opt a = 1; optional int32 v = 2; }\n" +
		"extend google.protobuf.MessageOptions { optional Opt o = 50000; }\n" +
		"message M {\n  option (o) = " + strings.Repeat("{ a: ", levels-1) + "{ v: 1 }" + strings.Repeat(" }", levels-1) + ";\n}\n"
}

// manyMessages is n small messages in one file.
func manyMessages(n int) string {
	var b strings.Builder
	b.WriteString("syntax = \"proto3\";\npackage big;\n")
	for i := range n {
		fmt.Fprintf(&b, "message M%d {\n  int32 a = 1;\n  string b = 2;\n}\n", i)
	}
	return b.String()
}

// limitDiag returns the one error diagnostic naming a limit, failing the
// test unless there is exactly one and no files were generated.
func limitDiag(t *testing.T, res *compiler.Result) compiler.Diagnostic {
	t.Helper()
	var found []compiler.Diagnostic
	for _, d := range res.Diagnostics {
		if d.Limit != "" {
			found = append(found, d)
		}
	}
	if len(found) != 1 || found[0].Severity != compiler.SeverityError || res.Generated != nil {
		t.Fatalf("want one limit error and no output, got %v (%d files generated)", res.Diagnostics, len(res.Generated))
	}
	return found[0]
}

func TestNestingLimit(t *testing.T) {
	// The message's brace plus the option value: exactly MaxNesting is fine.
	ok := optionNest(compiler.MaxNesting - 1)
	if res := compile(map[string]string{"o.proto": ok}); res.Err() != nil {
		t.Fatalf("%d levels: %v", compiler.MaxNesting, res.Err())
	}
	res := compile(map[string]string{"o.proto": optionNest(compiler.MaxNesting)})
	d := limitDiag(t, res)
	// Line 7 is "  option (o) = { a: { a: ...": the message's brace is the
	// first level, the option's 100th brace the 101st, at column 16 + 5*99.
	if d.Limit != compiler.LimitNesting || d.File != "o.proto" || d.Line != 7 || d.Column != 16+5*99 ||
		!strings.Contains(d.Message, "nesting deeper than 100") || !strings.Contains(d.Message, "MaxNesting") {
		t.Errorf("diagnostic %+v", d)
	}
	// Brackets in strings and comments do not count; a lower limit does.
	quiet := "syntax = \"proto3\";\n// " + strings.Repeat("{", 500) + "\n/* " + strings.Repeat("[", 500) + " */\n" +
		"message M { string s = 1 [json_name = \"" + strings.Repeat("(", 500) + "\"]; }\n"
	if res := compile(map[string]string{"q.proto": quiet}); res.Err() != nil {
		t.Errorf("brackets in comments and strings: %v", res.Err())
	}
	res = compiler.Compile(context.Background(), compiler.Request{Sources: map[string]string{"q.proto": quiet},
		Limits: compiler.Limits{MaxNesting: 1}})
	if d := limitDiag(t, res); d.Line != 4 || d.Column != 26 { // the '[' inside "message M {"
		t.Errorf("MaxNesting 1: %+v", d)
	}
	// Files found through an FS are checked too.
	res = compiler.Compile(context.Background(), compiler.Request{FS: fstest.MapFS{"o.proto": {Data: []byte(optionNest(200))}}, Files: []string{"o.proto"}})
	if d := limitDiag(t, res); d.Limit != compiler.LimitNesting {
		t.Errorf("from an FS: %+v", d)
	}
}

// TestLineScanLimit: declarations one after another on a single line made
// the compiler's source positions quadratic (a 168 KB line of 10,000
// fields: 97 s; 8,000 reserved numbers: 14 s). Such a file is refused
// before it is parsed, at the character where the sum of the columns of
// ; { = , passes MaxLineScan; the same declarations one per line compile,
// and so do those characters inside strings and comments.
func TestLineScanLimit(t *testing.T) {
	var oneLine, perLine, reserved strings.Builder
	oneLine.WriteString(`syntax = "proto3"; package s; enum E {`)
	perLine.WriteString("syntax = \"proto3\";\npackage s;\nenum E {\n")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&oneLine, "E%d = %d;", i, i)
		fmt.Fprintf(&perLine, "  E%d = %d;\n", i, i)
	}
	oneLine.WriteString("}\n")
	perLine.WriteString("}\n")
	reserved.WriteString(`syntax = "proto3"; package s; message M { reserved 1`)
	for i := 2; i < 8000; i++ {
		fmt.Fprintf(&reserved, ",%d", i)
	}
	reserved.WriteString("; }\n")
	for name, src := range map[string]string{"enum.proto": oneLine.String(), "reserved.proto": reserved.String()} {
		d := limitDiag(t, compile(map[string]string{name: src}))
		if d.Limit != compiler.LimitLineScan || d.File != name || d.Line != 1 || d.Column < 1000 || !strings.Contains(d.Message, "MaxLineScan") || !strings.Contains(d.Message, "lines of their own") {
			t.Errorf("%s: %+v", name, d)
		}
	}
	if res := compile(map[string]string{"e.proto": perLine.String()}); res.Err() != nil {
		t.Errorf("one declaration per line: %v", res.Err())
	}
	quiet := "syntax = \"proto3\";\n// " + strings.Repeat(";=,{", 1<<14) + "\nmessage M { string s = 1 [json_name = \"" + strings.Repeat(";,=", 1<<12) + "\"]; }\n"
	if res := compile(map[string]string{"q.proto": quiet}); res.Err() != nil {
		t.Errorf("; { = , in comments and strings: %v", res.Err())
	}
}

// TestNestedOptionAggregates is the input: a 280 KB file of option
// values nested 40,000 deep took 20 s and 5.9 GB; it is now refused before
// it is parsed.
func TestNestedOptionAggregates(t *testing.T) {
	src := optionNest(40000)
	if len(src) < 270_000 {
		t.Fatalf("input is %d bytes", len(src))
	}
	t0 := time.Now()
	res := compile(map[string]string{"o.proto": src})
	if d := limitDiag(t, res); d.Limit != compiler.LimitNesting {
		t.Errorf("%+v", d)
	}
	if el := time.Since(t0); el > 2*time.Second {
		t.Errorf("took %v", el)
	}
}

func TestInputLimits(t *testing.T) {
	srcs := map[string]string{"a.proto": "syntax = \"proto3\";\nmessage A {}\n", "b.proto": "syntax = \"proto3\";\nmessage B {}\n"}
	res := compiler.Compile(context.Background(), compiler.Request{Sources: srcs, Limits: compiler.Limits{MaxFiles: 1}})
	if d := limitDiag(t, res); d.Limit != compiler.LimitFiles || d.Message != "2 input files exceed the limit of 1 (MaxFiles)" {
		t.Errorf("%+v", d)
	}
	res = compiler.Compile(context.Background(), compiler.Request{Sources: srcs, Files: []string{"a.proto"}, Limits: compiler.Limits{MaxSourceBytes: 20}})
	if d := limitDiag(t, res); d.Limit != compiler.LimitSourceBytes || d.File != "a.proto" || d.Message != "file is 32 bytes, over the limit of 20 (MaxSourceBytes)" {
		t.Errorf("%+v", d)
	}
	res = compiler.Compile(context.Background(), compiler.Request{FS: fstest.MapFS{"a.proto": {Data: []byte(srcs["a.proto"])}},
		Files: []string{"a.proto"}, Limits: compiler.Limits{MaxSourceBytes: 20}})
	if d := limitDiag(t, res); d.Limit != compiler.LimitSourceBytes || d.File != "a.proto" {
		t.Errorf("from an FS: %+v", d)
	}
	// A negative limit is none (the compiler's own limit, an option
	// value nested at most 100 deep, stays).
	res = compiler.Compile(context.Background(), compiler.Request{Sources: map[string]string{"o.proto": optionNest(40)},
		Limits: compiler.Limits{MaxNesting: 10}})
	if d := limitDiag(t, res); d.Limit != compiler.LimitNesting {
		t.Errorf("MaxNesting 10: %+v", d)
	}
	res = compiler.Compile(context.Background(), compiler.Request{Sources: map[string]string{"o.proto": optionNest(40)},
		Limits: compiler.Limits{MaxNesting: -1}})
	if res.Err() != nil {
		t.Errorf("MaxNesting -1: %v", res.Err())
	}
}

func TestOutputLimit(t *testing.T) {
	srcs := map[string]string{"big.proto": manyMessages(50)}
	full := compile(srcs)
	if full.Err() != nil {
		t.Fatal(full.Err())
	}
	size := len(full.Generated[0].Content)
	res := compiler.Compile(context.Background(), compiler.Request{Sources: srcs, Limits: compiler.Limits{MaxOutputBytes: size / 2}})
	d := limitDiag(t, res)
	if d.Limit != compiler.LimitOutputBytes || d.File != "big.proto" || !strings.Contains(d.Message, fmt.Sprintf("over %d bytes of Go", size/2)) {
		t.Errorf("%+v", d)
	}
	res = compiler.Compile(context.Background(), compiler.Request{Sources: srcs, Limits: compiler.Limits{MaxOutputBytes: size}})
	if res.Err() != nil || len(res.Generated) != 1 {
		t.Errorf("limit = output size: %v", res.Err())
	}
}

func TestDeadline(t *testing.T) {
	srcs := map[string]string{"big.proto": manyMessages(3000)}
	// Already past: stopped before parsing.
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	if d := limitDiag(t, compiler.Compile(ctx, compiler.Request{Sources: srcs})); d.Limit != compiler.LimitDeadline {
		t.Errorf("%+v", d)
	}
	// Passing during generation (3,000 messages take seconds to generate):
	// stopped after the message being printed.
	ctx, cancel = context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	res := compiler.Compile(ctx, compiler.Request{Sources: srcs})
	el := time.Since(t0)
	if d := limitDiag(t, res); d.Limit != compiler.LimitDeadline || d.Message != "compilation stopped at its deadline (time limit)" {
		t.Errorf("%+v", d)
	}
	if el > 3*time.Second {
		t.Errorf("stopped after %v", el)
	}
	// A cancelled context is not a limit, but stops too.
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if res := compiler.Compile(ctx, compiler.Request{Sources: srcs}); !res.HasErrors() || res.Generated != nil {
		t.Errorf("cancelled: %v", res.Diagnostics)
	}
}

func TestMemoryLimit(t *testing.T) {
	if compiler.MemoryInUse() == 0 {
		t.Fatal("MemoryInUse is 0")
	}
	res := compiler.Compile(context.Background(), compiler.Request{Sources: map[string]string{"a.proto": "syntax = \"proto3\";\nmessage A {}\n"},
		Limits: compiler.Limits{MaxMemoryBytes: 1 << 20}})
	if d := limitDiag(t, res); d.Limit != compiler.LimitMemoryBytes || d.Message != "compilation stopped: memory in use over 1 MiB, the limit (MaxMemoryBytes)" {
		t.Errorf("%+v", d)
	}
}
