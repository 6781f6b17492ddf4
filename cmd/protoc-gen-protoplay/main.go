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
	"io"
	"os"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/internal/version"
)

func main() {
	os.Exit(cli(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// cli is the plugin's command line: no arguments reads a
// CodeGeneratorRequest from stdin and writes the response to stdout;
// --version prints the version (protoplay's, internal/version, then the
// Go toolchain and the revision it was built from, as protoc-gen-go's
// --version does); anything else is a
// usage error (exit 2).
func cli(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 1 && (args[0] == "--version" || args[0] == "-version") {
		fmt.Fprintf(stdout, "protoc-gen-protoplay %s (%s)\n", version.String(), compiler.Version())
		return 0
	}
	if len(args) > 0 {
		fmt.Fprintln(stderr, "protoc-gen-protoplay: a protoc plugin; run it through protoc --protoplay_out=DIR (or buf), not directly (--version prints its version)")
		return 2
	}
	if err := run(stdin, stdout); err != nil {
		fmt.Fprintln(stderr, "protoc-gen-protoplay:", err)
		return 1
	}
	return 0
}
