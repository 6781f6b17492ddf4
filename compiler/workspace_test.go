package compiler

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Tests of the workspace's JSON API, as the wasm bridge calls it;
// wasm/bridge_test.go runs the same methods through syscall/js under Node.

func call(t *testing.T, s *Workspace, method string, req any) (map[string]any, *Error) {
	t.Helper()
	b, _ := json.Marshal(req)
	out, cerr := s.Call(context.Background(), method, b)
	if cerr != nil {
		return nil, cerr
	}
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
	return v, nil
}

func TestSchemaIsReusedForTheSameSources(t *testing.T) {
	s := &Workspace{}
	src := map[string]string{"a.proto": small}
	if _, err := call(t, s, "generate", map[string]any{"files": src}); err != nil {
		t.Fatal(err.Error())
	}
	first := s.cached
	if _, err := call(t, s, "encode", map[string]any{"files": src, "type": "t.M", "input": "{}"}); err != nil {
		t.Fatal(err.Error())
	}
	if s.cached != first {
		t.Error("encode recompiled unchanged sources")
	}
	src2 := map[string]string{"a.proto": small + "\n"}
	if _, err := call(t, s, "encode", map[string]any{"files": src2, "type": "t.M", "input": "{}"}); err != nil {
		t.Fatal(err.Error())
	}
	if s.cached == first {
		t.Error("encode used a stale schema for changed sources")
	}
}

// A call whose compile hits its own time or memory limit does not leave
// that failure cached as the schema's: the next call with the same
// sources and a workable limit compiles again and succeeds (the hostile
// pass saw every later npm call reject in milliseconds with the first
// call's time limit).
func TestLimitErrorIsNotCached(t *testing.T) {
	s := &Workspace{}
	src := map[string]string{"a.proto": small}
	for _, limits := range []map[string]any{{"timeoutMs": 1e-6}, {"memoryBytes": 1}} {
		_, err := call(t, s, "encode", map[string]any{"files": src, "type": "t.M", "input": "{}", "limits": limits})
		if err == nil || err.Kind != KindLimit || (err.Limit != LimitDeadline && err.Limit != LimitMemoryBytes) {
			t.Fatalf("limits %v: err = %+v, want a time or memory limit error", limits, err)
		}
		if _, err := call(t, s, "encode", map[string]any{"files": src, "type": "t.M", "input": "{}"}); err != nil {
			t.Errorf("after a limit error (%v), the same sources with no limit: %v", limits, err)
		}
	}
}

// decode to JSON notes the fields of the payload the type does not
// declare, which ProtoJSON leaves out (the CLI prints the same on stderr);
// text keeps them and gets no note.
func TestDecodeNotesUnknownFields(t *testing.T) {
	s := &Workspace{}
	src := map[string]string{"a.proto": small}
	v, err := call(t, s, "decode", map[string]any{"files": src, "type": "t.M", "input": "50 02 5a 01 78"})
	if err != nil {
		t.Fatal(err.Error())
	}
	if note, _ := v["note"].(string); note != "2 fields of the payload are not in t.M (field 10 at byte 0, field 11 at byte 2) and are left out of the JSON: text output keeps them" {
		t.Errorf("note %q", note)
	}
	v, err = call(t, s, "decode", map[string]any{"files": src, "type": "t.M", "input": "50 02", "out": "text"})
	if err != nil || v["note"] != nil {
		t.Errorf("text: %v, %v", v, err)
	}
}

func TestPayloadCallOnBrokenSchema(t *testing.T) {
	s := &Workspace{}
	_, err := call(t, s, "sample", map[string]any{"files": map[string]string{"a.proto": "message {"}, "type": "M"})
	if err == nil || !strings.Contains(err.Error(), "does not compile") {
		t.Fatalf("err = %+v", err)
	}
	// The error says it is the schema's and carries the diagnostics, so a
	// face needs neither to match its text nor to compile again.
	// (The first error: warnings, such as the missing package's, come too.)
	var first Diagnostic
	for _, d := range err.Diagnostics {
		if d.Severity == "error" {
			first = d
			break
		}
	}
	if err.Kind != KindSchema || first.File != "a.proto" || first.Line != 1 {
		t.Errorf("err = %+v, want KindSchema with a.proto:1 error diagnostics", err)
	}
}

func TestUnknownMethod(t *testing.T) {
	_, err := call(t, &Workspace{}, "nope", map[string]any{})
	if err == nil || !strings.Contains(err.Error(), "unknown method") {
		t.Fatalf("err = %+v", err)
	}
}

func TestMultipleFilesImportEachOtherAndWKTs(t *testing.T) {
	files := map[string]string{
		"a.proto":   "syntax = \"proto3\";\npackage p;\nimport \"b/b.proto\";\nimport \"google/protobuf/duration.proto\";\nmessage A { p.B b = 1; google.protobuf.Duration d = 2; }\n",
		"b/b.proto": "syntax = \"proto3\";\npackage p;\nmessage B { int32 x = 1; }\n",
	}
	v, err := call(t, &Workspace{}, "generate", map[string]any{"files": files})
	if err != nil {
		t.Fatal(err.Error())
	}
	if d := v["diagnostics"].([]any); len(d) != 0 {
		t.Fatalf("diagnostics: %v", d)
	}
	if g := v["generated"].([]any); len(g) != 2 {
		t.Fatalf("%d generated files, want 2", len(g))
	}
}

// Every file protoc bundles resolves in the playground as in the CLI: the
// language feature files included (go_features.proto is embedded by the
// compiler, not found on disk).
func TestBundledFeatureFilesImport(t *testing.T) {
	for _, lang := range []string{"cpp", "go", "java"} {
		files := map[string]string{"a.proto": "edition = \"2023\";\npackage t;\nimport \"google/protobuf/" + lang + "_features.proto\";\nmessage M { int32 x = 1; }\n"}
		v, err := call(t, &Workspace{}, "generate", map[string]any{"files": files})
		if err != nil {
			t.Fatalf("%s: %s", lang, err.Error())
		}
		for _, d := range v["diagnostics"].([]any) {
			if d.(map[string]any)["severity"] == "error" {
				t.Errorf("%s_features.proto: %v", lang, d)
			}
		}
		if g := v["generated"].([]any); len(g) != 1 {
			t.Errorf("%s_features.proto: %d generated files, want 1", lang, len(g))
		}
	}
}

// small is a schema every test can use.
const small = `syntax = "proto3";
package t;
message M { string name = 1; int32 id = 2; repeated M kids = 3; }
`

// manyMessages is a schema that takes seconds to generate.
func manyMessages(n int) string {
	var b strings.Builder
	b.WriteString("syntax = \"proto3\";\npackage big;\n")
	for i := range n {
		b.WriteString("message M" + strconv.Itoa(i) + " { int32 a = 1; string b = 2; }\n")
	}
	return b.String()
}

// TestCallLimits: a request's limits stop the compiler with a diagnostic
// naming the limit, for generate, and with a KindLimit error naming it for
// the payload calls that compile.
func TestCallLimits(t *testing.T) {
	files := map[string]string{"big.proto": manyMessages(3000)}
	for _, tc := range []struct {
		limits map[string]any
		want   string
	}{
		{map[string]any{"timeoutMs": 50}, "Deadline"},
		{map[string]any{"memoryBytes": 1 << 20}, "MaxMemoryBytes"},
	} {
		t0 := time.Now()
		v, err := call(t, &Workspace{}, "generate", map[string]any{"files": files, "limits": tc.limits})
		if err != nil {
			t.Fatal(err.Error())
		}
		if el := time.Since(t0); el > 5*time.Second {
			t.Errorf("%v: took %v", tc.limits, el)
		}
		diags := v["diagnostics"].([]any)
		if len(diags) != 1 || diags[0].(map[string]any)["limit"] != tc.want || len(v["generated"].([]any)) != 0 {
			t.Errorf("%v: %v, %d files", tc.limits, diags, len(v["generated"].([]any)))
		}
		_, cerr := call(t, &Workspace{}, "sample", map[string]any{"files": files, "type": "big.M1", "limits": tc.limits})
		// The call's limit, not the schema's fault: KindLimit naming it
		// (and not cached, see TestLimitErrorIsNotCached).
		if cerr == nil || cerr.Kind != KindLimit || cerr.Limit != tc.want || !strings.Contains(cerr.Error(), "stopped") {
			t.Errorf("%v: sample: %+v", tc.limits, cerr)
		}
	}
	// Generous limits change nothing.
	v, err := call(t, &Workspace{}, "generate", map[string]any{"files": map[string]string{"a.proto": small},
		"limits": map[string]any{"timeoutMs": 60000, "memoryBytes": 1 << 30}})
	if err != nil || len(v["diagnostics"].([]any)) != 0 || len(v["generated"].([]any)) != 1 {
		t.Errorf("generous limits: %v, %+v", v, err)
	}
	if _, err := call(t, &Workspace{}, "generate", map[string]any{"files": map[string]string{"a.proto": small}, "limits": "soon"}); err == nil || !strings.Contains(err.Error(), "bad generate request") {
		t.Errorf("bad limits: %+v", err)
	}
}

// TestErrorsCrossAsJSON: every failure of Call is an *Error whose JSON has
// a kind and a message; payload errors keep their position, schema errors
// their diagnostics with severity as a word.
func TestErrorsCrossAsJSON(t *testing.T) {
	w := &Workspace{}
	src := map[string]string{"a.proto": small}
	for _, tc := range []struct {
		method string
		req    map[string]any
		kind   string
		field  string // a JSON field the error must carry
	}{
		{"decode", map[string]any{"files": src, "type": "t.M", "input": "0a 05 68"}, KindPayload, "offset"},
		{"decode", map[string]any{"files": src, "type": "t.M", "input": "zz!"}, KindEncoding, "offset"},
		{"encode", map[string]any{"files": src, "type": "t.M", "input": "{\n\"nope\": 1}"}, KindJSON, "line"},
		{"sample", map[string]any{"files": src, "type": "t.N"}, KindType, "suggestions"},
		{"check", map[string]any{"files": map[string]string{"a.proto": "syntax = \"proto3\";\nmessage M { int32 x = 1; int32 y = 1; }\n"}}, KindSchema, "diagnostics"},
		{"generate", map[string]any{"files": src, "options": "nope=1"}, KindUsage, "message"},
		{"nope", map[string]any{}, KindUsage, "message"},
	} {
		b, _ := json.Marshal(tc.req)
		_, err := w.Call(context.Background(), tc.method, b)
		if err == nil {
			t.Errorf("%s %v: no error", tc.method, tc.req)
			continue
		}
		out, _ := json.Marshal(err)
		var m map[string]any
		json.Unmarshal(out, &m)
		if m["kind"] != tc.kind || m["message"] == "" || m[tc.field] == nil {
			t.Errorf("%s %v: error JSON %s, want kind %q with %q", tc.method, tc.req, out, tc.kind, tc.field)
		}
		if tc.kind == KindSchema {
			var d map[string]any
			for _, x := range m["diagnostics"].([]any) {
				if x.(map[string]any)["severity"] == "error" {
					d = x.(map[string]any)
					break
				}
			}
			if d["severity"] != "error" || d["line"] != 2.0 {
				t.Errorf("schema diagnostic %v, want severity \"error\" on line 2", d)
			}
		}
	}
}

// A generate that fails in the generator (here distinct proto names
// that collide as Go names, cases/04) must not make Encode answer "the
// schema does not compile": the schema links, and the codec needs no Go.
func TestFailedGenerateDoesNotPoisonSchema(t *testing.T) {
	s := &Workspace{}
	src := map[string]string{"c.proto": "syntax = \"proto3\";\npackage c;\nmessage tally_sheet { int32 a = 1; }\nmessage TallySheet { int32 b = 1; }\n"}
	r, cerr := call(t, s, "generate", map[string]any{"files": src})
	if cerr != nil {
		t.Fatal(cerr.Error())
	}
	if ds, _ := r["diagnostics"].([]any); len(ds) == 0 {
		t.Fatal("generate of colliding Go names gave no diagnostic; the test needs a generator-only error")
	}
	b, cerr := call(t, s, "encode", map[string]any{"files": src, "type": "c.TallySheet", "input": `{"b": 150}`})
	if cerr != nil {
		t.Fatalf("encode after a failed generate: %v", cerr.Error())
	}
	if hex, _ := b["hex"].(string); strings.ReplaceAll(hex, " ", "") != "089601" {
		t.Fatalf("encode after a failed generate: hex %q, want 08 96 01", hex)
	}
	// A schema that does not link still says so.
	bad := map[string]string{"c.proto": "syntax = \"proto3\";\npackage c;\nmessage M { Missing m = 1; }\n"}
	if _, cerr := call(t, s, "generate", map[string]any{"files": bad}); cerr != nil {
		t.Fatal(cerr.Error())
	}
	if _, cerr := call(t, s, "encode", map[string]any{"files": bad, "type": "c.M", "input": "{}"}); cerr == nil || !strings.Contains(cerr.Error(), "does not compile") {
		t.Fatalf("encode of a schema that does not link: %v, want \"does not compile\"", cerr)
	}
}

// TestPayloadCallLimits (issue 24 kind 4): the payload calls (encode,
// decode, wireView, sample, check) honour the call's time and memory
// limits as a compile does, also on a cached schema: over either, the call
// fails with the KindLimit error naming it; the next call without them
// works.
func TestPayloadCallLimits(t *testing.T) {
	w := &Workspace{}
	src := map[string]string{"a.proto": small}
	if _, err := call(t, w, "compile", map[string]any{"files": src}); err != nil {
		t.Fatal(err.Error())
	}
	big := strings.Repeat("08 01 ", 200_000) // 200,000 fields of t.M
	reqs := map[string]map[string]any{
		"encode":   {"files": src, "type": "t.M", "input": "{}"},
		"decode":   {"files": src, "type": "t.M", "input": big, "encoding": "hex"},
		"wireView": {"files": src, "type": "t.M", "input": big, "encoding": "hex"},
		"sample":   {"files": src, "type": "t.M"},
		"check":    {"files": src},
	}
	for method, req := range reqs {
		for _, tc := range []struct {
			limits map[string]any
			limit  string
		}{
			{map[string]any{"memoryBytes": 1 << 20}, LimitMemoryBytes},
		} {
			req["limits"] = tc.limits
			_, err := call(t, w, method, req)
			if err == nil || err.Kind != KindLimit || err.Limit != tc.limit || !strings.Contains(err.Message, "limits.memoryBytes") {
				t.Errorf("%s with %v: %+v, want a %s limit error", method, tc.limits, err, tc.limit)
			}
			delete(req, "limits")
			if _, err := call(t, w, method, req); err != nil {
				t.Errorf("%s after the limit: %v", method, err)
			}
		}
	}
	// The time limit: a decode of 200,000 fields takes longer than a
	// microsecond.
	req := reqs["decode"]
	req["limits"] = map[string]any{"timeoutMs": 0.001}
	if _, err := call(t, w, "decode", req); err == nil || err.Kind != KindLimit || err.Limit != LimitDeadline || !strings.Contains(err.Message, "limits.timeoutMs") {
		t.Errorf("decode over its time limit: %+v", err)
	}
	if w.cached == nil || w.cached.err != nil {
		t.Error("a payload call over its limit dropped the schema")
	}
}
