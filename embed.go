// Package protoplay holds, for tools that write generated code into a Go
// module of their own (protoplay check --generated), the source of
// protoplay's runtime: runtime/wire and runtime/wkt, which generated code
// imports and which use the standard library only.
package protoplay

import "embed"

// RuntimeSource is the source tree of runtime/wire and runtime/wkt (with
// their tests), under the paths "runtime/...", as in this module.
//
//go:embed runtime/wire/*.go runtime/wkt/*.go runtime/wkt/*/*.go
var RuntimeSource embed.FS
