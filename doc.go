// Package protoplay holds the sources of protoplay's runtime (runtime/wire,
// runtime/protojson, runtime/prototext and the well-known type packages under runtime/wkt),
// embedded, for the generator option runtime=local: it writes these
// packages beside the generated code, under the output's own module path,
// so that the output builds with no network and no
// github.com/protoplay/protoplay module (see compiler/gogen's
// Options.Runtime); protoplay check --generated builds against them too.
//
// Only the packages' .go files are embedded, not their tests;
// TestRuntimeSourcesComplete checks the list against runtime/.
//
// The playground's core (site/build) is built with the tag
// protoplay_lazyruntime, which leaves them out (about 106 KB of its brotli
// size): runtime_sources_lazy.go then gets them, when first asked for,
// from the loader the wasm program installs (LoadRuntimeSources), which
// fetches them as a separate asset.
package protoplay
