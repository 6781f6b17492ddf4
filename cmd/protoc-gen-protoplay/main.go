// Command protoc-gen-protoplay is protoplay's Go generator as a protoc
// plugin: protoc (or buf) writes a CodeGeneratorRequest to its stdin and it
// answers with a CodeGeneratorResponse on stdout. It runs the same backend
// as `protoplay gen`, so both give the same bytes for the same input.
//
//	protoc --plugin=protoc-gen-protoplay=bin/protoc-gen-protoplay \
//	    --protoplay_out=OUT [--protoplay_opt=paths=source_relative] -I DIR FILE.proto
//
// Parameters are those of `protoplay gen --opt` (see gogen.ParseOptions).
// Errors in the input are returned in the response's error field, which
// protoc prints and exits non-zero; this program itself exits non-zero only
// when it cannot read the request or write the response.
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) > 1 {
		fmt.Fprintln(os.Stderr, "protoc-gen-protoplay: a protoc plugin; run it through protoc --protoplay_out=DIR (or buf), not directly")
		os.Exit(2)
	}
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "protoc-gen-protoplay:", err)
		os.Exit(1)
	}
}
