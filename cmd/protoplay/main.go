// Command protoplay compiles .proto files to lean Go code and works with
// protobuf payloads from the command line.
//
//	protoplay gen    [-I DIR]... [-o DIR] [--opt KEY=VALUE]... FILE.proto...
//	protoplay encode [-I DIR]... --type PKG.Message FILE.proto [--in json|text] [--out binary|hex|base64]
//	protoplay decode [-I DIR]... --type PKG.Message FILE.proto [--in auto|binary|hex|base64] [--out json|text|wire]
//	protoplay decode --raw [--in auto|binary|hex|base64]
//	protoplay check  [-I DIR]... [--generated] FILE.proto...
//	protoplay serve  [--addr HOST:PORT]
//
// Exit status: 0 on success (and for -h), 1 when the input is rejected, 2
// on bad usage.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
)

// command is one subcommand: it parses its own flags from args and returns
// the process exit status.
type command struct {
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

var commands = map[string]command{
	"gen":    {"generate Go code from .proto files", runGen},
	"encode": {"encode a JSON or text value to binary, hex or base64", runEncode},
	"decode": {"decode a payload to JSON or text, or list its bytes (--raw, --out wire)", runDecode},
	"check":  {"round-trip a sample of every message type through binary and JSON", runCheck},
	"serve":  {"serve the playground page on a local address", runServe},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 2 && args[0] == "help" {
		if _, ok := commands[args[1]]; ok {
			// "protoplay help gen" is "protoplay gen -h".
			args = []string{args[1], "-h"}
		}
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "protoplay: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	return cmd.run(args[1:], stdin, stdout, stderr)
}

// parseStatus is the exit status for a command whose flags did not parse:
// 0 when -h or --help asked for the usage (which the flag set printed), 2
// for bad usage.
func parseStatus(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: protoplay <command> [flags] [args]")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'protoplay <command> -h' for a command's flags.")
}
