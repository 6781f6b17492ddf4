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
	"time"

	protoplay "github.com/protoplay/protoplay"
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

	// The .zip's module, offline before the sources came: the error
	// names the module's runtime, not runtime=local (which the caller
	// never chose). (A plain compile first: the failed runtime=local
	// generates above left the workspace's schema entry with their error.)
	if _, err := await(t, "compile", map[string]any{"files": files(src)}); err != nil {
		t.Fatal(err)
	}
	if _, err := await(t, "module", map[string]any{"files": files(src)}); err == nil || !strings.Contains(err.Error(), "the module's copy of the runtime (example.com/m/protoplay/runtime)") || strings.Contains(err.Error(), "runtime=local") {
		t.Fatalf("module offline: %v, want an error naming the module's copy of the runtime", err)
	}

	// The asset as site/build writes it: path -> content of runtime/'s
	// non-test .go files.
	asset := runtimeAsset(t)
	body, _ := json.Marshal(asset)
	good := "data:application/json;base64," + base64.StdEncoding.EncodeToString(body)

	// The prefetch: once a compile has answered and the calls pause, the
	// sources load in the background, without a call needing them; a
	// failed prefetch is tried again after the next compile.
	loads := 0
	load := protoplay.LoadRuntimeSources
	protoplay.LoadRuntimeSources = func() (map[string]string, error) { loads++; return load() }
	defer func() { protoplay.LoadRuntimeSources = load }()
	prefetchIdle = 20 * time.Millisecond
	plain := map[string]any{"files": files(src)}
	pause := func(step string, want int) {
		t.Helper()
		if _, err := await(t, "generate", plain); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		for i := 0; i < 100 && loads < want; i++ {
			time.Sleep(20 * time.Millisecond)
		}
		if loads < want {
			t.Fatalf("%s: %d loads of the runtime's sources, want %d", step, loads, want)
		}
	}
	pause("a prefetch that fails (the bad asset)", 1)
	os.Setenv("PROTOPLAY_RUNTIME_URL", good)
	pause("the prefetch tried again after the next compile", 2)
	// Offline from now on: the sources came with the prefetch.
	os.Setenv("PROTOPLAY_RUNTIME_URL", "data:application/json,offline")
	if v, err := await(t, "module", map[string]any{"files": files(src)}); err != nil {
		t.Fatalf("module after the prefetch, offline: %v", err)
	} else if s := js.Global().Get("JSON").Call("stringify", v).String(); !strings.Contains(s, "runtime/wire/wire.go") {
		t.Fatalf("module after the prefetch, offline: no runtime/wire/wire.go in %.300s", s)
	}
	pause("no more loads once loaded", 2)
	time.Sleep(100 * time.Millisecond)
	if loads != 2 {
		t.Fatalf("%d loads, want 2: a loaded runtime is not fetched again", loads)
	}
	os.Setenv("PROTOPLAY_RUNTIME_URL", good)
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

// runtimeAsset is the runtime asset as site/build writes it: path ->
// content of runtime/'s non-test .go files.
func runtimeAsset(t *testing.T) map[string]string {
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
	return asset
}
