// Package protoplay holds, for tools that write generated code into a Go
// module of their own (protoplay check --generated), the source of
// protoplay's runtime: runtime/wire, runtime/protojson and runtime/wkt,
// which generated code imports and which use the standard library only.
package protoplay

import "embed"

// RuntimeSource is the source tree of every package under runtime/ (with
// their tests), under the paths "runtime/...", as in this module;
// TestRuntimeSourceComplete checks that no package is left out.
//
//go:embed runtime/*/*.go runtime/*/*/*.go
var RuntimeSource embed.FS
