package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Native tests of the bridge's request handling; bridge_test.go runs the
// same methods through syscall/js under Node.

func call(t *testing.T, s *session, method string, req any) (map[string]any, *callError) {
	t.Helper()
	b, _ := json.Marshal(req)
	out, cerr := s.call(method, b)
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
	s := &session{}
	src := map[string]string{"a.proto": small}
	if _, err := call(t, s, "generate", map[string]any{"files": src}); err != nil {
		t.Fatal(err.Message)
	}
	first := s.cached
	if _, err := call(t, s, "encode", map[string]any{"files": src, "type": "t.M", "input": "{}"}); err != nil {
		t.Fatal(err.Message)
	}
	if s.cached != first {
		t.Error("encode recompiled unchanged sources")
	}
	src2 := map[string]string{"a.proto": small + "\n"}
	if _, err := call(t, s, "encode", map[string]any{"files": src2, "type": "t.M", "input": "{}"}); err != nil {
		t.Fatal(err.Message)
	}
	if s.cached == first {
		t.Error("encode used a stale schema for changed sources")
	}
}

func TestPayloadCallOnBrokenSchema(t *testing.T) {
	s := &session{}
	_, err := call(t, s, "sample", map[string]any{"files": map[string]string{"a.proto": "message {"}, "type": "M"})
	if err == nil || !strings.Contains(err.Message, "does not compile") {
		t.Fatalf("err = %+v", err)
	}
}

func TestUnknownMethod(t *testing.T) {
	_, err := call(t, &session{}, "nope", map[string]any{})
	if err == nil || !strings.Contains(err.Message, "unknown method") {
		t.Fatalf("err = %+v", err)
	}
}

func TestMultipleFilesImportEachOtherAndWKTs(t *testing.T) {
	files := map[string]string{
		"a.proto":   "syntax = \"proto3\";\npackage p;\nimport \"b/b.proto\";\nimport \"google/protobuf/duration.proto\";\nmessage A { p.B b = 1; google.protobuf.Duration d = 2; }\n",
		"b/b.proto": "syntax = \"proto3\";\npackage p;\nmessage B { int32 x = 1; }\n",
	}
	v, err := call(t, &session{}, "generate", map[string]any{"files": files})
	if err != nil {
		t.Fatal(err.Message)
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
		v, err := call(t, &session{}, "generate", map[string]any{"files": files})
		if err != nil {
			t.Fatalf("%s: %s", lang, err.Message)
		}
		for _, d := range v["diagnostics"].([]any) {
			if d.(map[string]any)["severity"].(float64) == 1 {
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
// naming the limit, for generate and for the payload calls that compile.
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
		v, err := call(t, &session{}, "generate", map[string]any{"files": files, "limits": tc.limits})
		if err != nil {
			t.Fatal(err.Message)
		}
		if el := time.Since(t0); el > 5*time.Second {
			t.Errorf("%v: took %v", tc.limits, el)
		}
		diags := v["diagnostics"].([]any)
		if len(diags) != 1 || diags[0].(map[string]any)["limit"] != tc.want || len(v["generated"].([]any)) != 0 {
			t.Errorf("%v: %v, %d files", tc.limits, diags, len(v["generated"].([]any)))
		}
		_, cerr := call(t, &session{}, "sample", map[string]any{"files": files, "type": "big.M1", "limits": tc.limits})
		if cerr == nil || !strings.Contains(cerr.Message, "does not compile") || !strings.Contains(cerr.Message, "stopped") {
			t.Errorf("%v: sample: %+v", tc.limits, cerr)
		}
	}
	// Generous limits change nothing.
	v, err := call(t, &session{}, "generate", map[string]any{"files": map[string]string{"a.proto": small},
		"limits": map[string]any{"timeoutMs": 60000, "memoryBytes": 1 << 30}})
	if err != nil || len(v["diagnostics"].([]any)) != 0 || len(v["generated"].([]any)) != 1 {
		t.Errorf("generous limits: %v, %+v", v, err)
	}
	if _, err := call(t, &session{}, "generate", map[string]any{"files": map[string]string{"a.proto": small}, "limits": "soon"}); err == nil || !strings.Contains(err.Message, "bad request") {
		t.Errorf("bad limits: %+v", err)
	}
}
