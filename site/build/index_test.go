package main

import (
	"os"
	"regexp"
	"testing"
)

// The page must not preload the core (<link rel="preload" ... .wasm): in
// Chromium a fetch() served from a preload gets none of the wasm code
// cache (V8.WasmCodeCaching counted a miss on every visit), so each visit
// compiled the module's functions again; without the preload the second
// visit's first compile took 235–653 ms in the core instead of 910–3,158 ms
// (TestMeasure, six alternating runs on a loaded machine).
func TestIndexDoesNotPreloadTheCore(t *testing.T) {
	html, err := os.ReadFile("../index.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, tag := range regexp.MustCompile(`<link\b[^>]*>`).FindAll(html, -1) {
		if regexp.MustCompile(`rel="?(preload|prefetch)`).Match(tag) && regexp.MustCompile(`protoplay\.wasm|\.wasm\b`).Match(tag) {
			t.Errorf("site/index.html preloads the core: %s", tag)
		}
	}
}
