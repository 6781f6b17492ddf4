package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/protoplay/protoplay/internal/cliflag"
	"github.com/protoplay/protoplay/internal/corestdio"
)

// plumbing are the commands for other programs, not people: left out of
// the usage, each still answers -h.
var plumbing = map[string]command{
	"core": {"serve the core's JSON API on standard input and output (the npm package's native core)", runCore},
}

// runCore is `protoplay core --stdio`: the core of the npm package, as
// its Node host starts it when this binary is installed for the platform
// (internal/corestdio has the protocol: length-prefixed JSON frames, the
// requests of compiler.Methods).
func runCore(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("protoplay core", flag.ContinueOnError)
	stdio := fs.Bool("stdio", false, "serve on standard input and output (the only mode)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: protoplay core --stdio")
		fmt.Fprintln(fs.Output(), "\nPlumbing for the npm package's Node host: serves the core's JSON API (compiler.Methods)")
		fmt.Fprintln(fs.Output(), "in frames of a 4-byte little-endian length and a JSON message, until standard input ends.")
	}
	rest, err := cliflag.Parse(fs, args, stdout, stderr)
	if err != nil {
		return cliflag.Status(err)
	}
	switch {
	case len(rest) > 0:
		return cliflag.Usage(fs, "unexpected argument %q", rest[0])
	case !*stdio:
		return cliflag.Usage(fs, "--stdio is required")
	}
	// Frames are written whole, one Write each.
	if err := corestdio.Serve(stdin, stdout); err != nil {
		fmt.Fprintln(stderr, "protoplay core:", err)
		return cliflag.StatusInput
	}
	return cliflag.StatusOK
}
