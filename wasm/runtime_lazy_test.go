//go:build js && wasm && protoplay_lazyruntime

package main

import (
	"encoding/base64"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall/js"
	"testing"
)

// The playground's build of the core (the tag protoplay_lazyruntime) has no
// runtime sources: runtime=local output fetches them from
// PROTOPLAY_RUNTIME_URL when first needed. Run with
// GOOS=js GOARCH=wasm go test -tags protoplay_lazyruntime -exec=... ./wasm
func TestLazyRuntimeSources(t *testing.T) {
	const src = "syntax = \"proto3\";\npackage t;\noption go_package = \"example.com/m/t\";\nmessage M { string name = 1; }\n"
	req := map[string]any{"files": files(src), "options": "runtime=local"}

	// Without the variable, or with a bad asset, the call fails and says
	// why; a later call tries again.
	failure := func() string {
		v, err := await(t, "generate", req)
		if err != nil {
			return err.Error()
		}
		return js.Global().Get("JSON").Call("stringify", v.Get("diagnostics")).String()
	}
	os.Unsetenv("PROTOPLAY_RUNTIME_URL")
	if got := failure(); !strings.Contains(got, "PROTOPLAY_RUNTIME_URL") {
		t.Fatalf("no URL: %s, want an error naming PROTOPLAY_RUNTIME_URL", got)
	}
	os.Setenv("PROTOPLAY_RUNTIME_URL", "data:application/json,not-json")
	if got := failure(); !strings.Contains(got, "data:application/json") {
		t.Fatalf("bad asset: %s, want an error naming the URL", got)
	}

	// The asset as site/build writes it: path -> content of runtime/'s
	// non-test .go files.
	asset := map[string]string{}
	err := filepath.WalkDir("../runtime", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || strings.Contains(p, "testdata") {
			return err
		}
		b, err := os.ReadFile(p)
		asset[strings.TrimPrefix(filepath.ToSlash(p), "../")] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(asset)
	os.Setenv("PROTOPLAY_RUNTIME_URL", "data:application/json;base64,"+base64.StdEncoding.EncodeToString(body))
	v, err := await(t, "generate", req)
	if err != nil {
		t.Fatal(err)
	}
	if n := v.Get("diagnostics").Length(); n != 0 {
		t.Fatalf("diagnostics: %s", js.Global().Get("JSON").Call("stringify", v.Get("diagnostics")).String())
	}
	gen := v.Get("generated")
	var wire string
	for i := 0; i < gen.Length(); i++ {
		if name := gen.Index(i).Get("name").String(); strings.HasSuffix(name, "/protoplay/runtime/wire/wire.go") {
			wire = gen.Index(i).Get("content").String()
		}
	}
	if wire != asset["runtime/wire/wire.go"] {
		t.Errorf("runtime/wire/wire.go in the output differs from the asset's (found: %v)", wire != "")
	}
	// Loaded once: the next call does not need the URL.
	os.Setenv("PROTOPLAY_RUNTIME_URL", "data:application/json,gone")
	if v, err := await(t, "generate", req); err != nil {
		t.Errorf("second call: %v", err)
	} else if n := v.Get("diagnostics").Length(); n != 0 {
		t.Errorf("second call: %d diagnostics", n)
	}
}
