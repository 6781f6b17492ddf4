// Command protoplay compiles .proto files to lean Go code and works with
// protobuf payloads from the command line.
//
//	protoplay gen    [-I DIR]... [-o DIR] [--opt KEY=VALUE]... FILE.proto...
//	protoplay encode [-I DIR]... --type PKG.Message FILE.proto [--in json|text] [--out binary|hex|base64]
//	protoplay decode [-I DIR]... --type PKG.Message FILE.proto [--in auto|binary|hex|base64] [--out json|text|wire]
//	protoplay decode [--descriptor_set_in FILES] --type auto ...   (rank the message types, decode with the best)
//	protoplay decode --raw [--in auto|binary|hex|base64]
//	protoplay infer  [--name NAME] [--package PKG] [--delimited] [PAYLOAD_FILE...]
//	protoplay check  [-I DIR]... [--generated [--opt KEY=VALUE]...] FILE.proto...
//	protoplay breaking --against DIR_OR_DESCRIPTOR_SET [-I DIR]... [--category C]... [--rule ID]... [FILE.proto...]
//	protoplay serve  [--addr HOST:PORT]
//	protoplay version              (or --version)
//	protoplay core --stdio         (plumbing: the npm package's native core; not in the usage)
//
// Flags and files may come in any order, as protoc and buf take them; -I
// takes its directory as -I DIR, -IDIR, -I=DIR or --proto_path=DIR (see
// internal/cliflag). -h and --help print the usage to standard output.
//
// Exit status: 0 on success (and for -h, --help, --version), 1 when the
// input is rejected (a schema or payload error, a file that cannot be
// read or written, a limit passed), 2 on bad usage (an unknown command or
// flag, a missing argument, a bad flag or option value).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/protoplay/protoplay/internal/cliflag"
	"github.com/protoplay/protoplay/internal/version"
)

// command is one subcommand: it parses its own flags from args and returns
// the process exit status.
type command struct {
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

var commands = map[string]command{
	"gen":      {"generate Go code from .proto files", runGen},
	"encode":   {"encode a JSON or text value to binary, hex or base64", runEncode},
	"decode":   {"decode a payload to JSON or text, or list its bytes (--raw, --out wire)", runDecode},
	"infer":    {"infer a .proto from payloads of one message type", runInfer},
	"check":    {"round-trip a sample of every message type through binary and JSON", runCheck},
	"breaking": {"list the breaking changes from a baseline (buf breaking's rules)", runBreaking},
	"serve":    {"serve the playground page on a local address", runServe},
	"version":  {"print protoplay's version", runVersion},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return cliflag.StatusUsage
	}
	switch {
	case args[0] == "--version" || args[0] == "-version":
		args[0] = "version"
	case cliflag.IsHelp(args[0]) || args[0] == "help" && len(args) == 1:
		usage(stdout)
		return cliflag.StatusOK
	case args[0] == "help":
		// "protoplay help gen" is "protoplay gen -h".
		args = []string{args[1], "-h"}
	}
	cmd, ok := commands[args[0]]
	if !ok {
		cmd, ok = plumbing[args[0]]
	}
	if !ok {
		fmt.Fprintf(stderr, "protoplay: unknown command %q\n", args[0])
		usage(stderr)
		return cliflag.StatusUsage
	}
	return cmd.run(args[1:], stdin, stdout, stderr)
}

// runVersion prints "protoplay vX.Y.Z" (internal/version).
func runVersion(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("protoplay version", flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprintln(fs.Output(), "usage: protoplay version (or protoplay --version)") }
	rest, err := cliflag.Parse(fs, args, stdout, stderr)
	if err != nil {
		return cliflag.Status(err)
	}
	if len(rest) > 0 {
		return cliflag.Usage(fs, "unexpected argument %q", rest[0])
	}
	fmt.Fprintln(stdout, "protoplay", version.String())
	return cliflag.StatusOK
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
	fmt.Fprintln(w, "\nRun 'protoplay <command> -h' for a command's flags. Flags and files may come in any order.")
	fmt.Fprintln(w, "Exit status: 0 ok, 1 the input was rejected, 2 bad usage.")
}
