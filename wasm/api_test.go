package main

import (
	"encoding/json"
	"strings"
	"testing"
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
