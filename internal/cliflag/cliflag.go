// Package cliflag parses a subcommand's command line the way protoc and
// buf users type it, on top of the standard flag package:
//
//   - flags and positional arguments in any order
//     (`gen -o out x.proto --opt paths=source_relative`); "--" ends the
//     flags, and everything after it is positional;
//   - a one-letter flag that takes a value may carry it attached, as
//     protoc's -IDIR (`-I.`, `-Iproto`), besides `-I DIR` and `-I=DIR`;
//     long flags take `--name VALUE` and `--name=VALUE` (flag's own forms,
//     so `--proto_path=DIR` works);
//   - -h, -help and --help print the usage to standard output and are not
//     an error for the caller's exit status (Status gives 0); a bad flag
//     prints the error and the usage to standard error (Status gives 2).
//
// Exit statuses, as every protoplay command uses them: StatusOK (0),
// StatusInput (1) when the input (a schema, a payload, a file) is at
// fault, StatusUsage (2) for a bad command line.
package cliflag

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Exit statuses of protoplay's commands.
const (
	// StatusOK: the command did what it was asked (and -h, --help,
	// --version).
	StatusOK = 0
	// StatusInput: the input was rejected (a schema error, a bad payload,
	// a file that cannot be read or written, a limit passed).
	StatusInput = 1
	// StatusUsage: the command line is wrong (an unknown command or flag,
	// a missing argument, a bad flag value).
	StatusUsage = 2
)

// Parse parses args into fs and returns the positional arguments, in
// order. fs's Usage must write to fs.Output(): on a help request Parse
// points the output at stdout, calls fs.Usage and returns flag.ErrHelp;
// otherwise the output is stderr, where the flag package writes the error
// and the usage for a bad flag.
func Parse(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) ([]string, error) {
	flags, pos, help := split(fs, args)
	if help {
		fs.SetOutput(stdout)
		fs.Usage()
		fs.SetOutput(stderr)
		return nil, flag.ErrHelp
	}
	fs.SetOutput(stderr)
	usage := fs.Usage
	fs.Usage = func() {
		// After the flag package's "flag provided but not defined: -x",
		// before the usage: what to type instead of protoc's flags.
		if hint := protocHint(fs, flags); hint != "" {
			fmt.Fprintln(fs.Output(), hint)
		}
		usage()
	}
	err := fs.Parse(flags)
	fs.Usage = usage
	if err != nil {
		return nil, err
	}
	// split gives fs only flags and their values.
	return append(pos, fs.Args()...), nil
}

// protocHint returns what to type instead of the first of protoc's flags
// among flags that fs does not define (--go_out=DIR, --go_opt=..., any
// --NAME_out or --NAME_opt, --plugin), or "".
func protocHint(fs *flag.FlagSet, flags []string) string {
	for _, a := range flags {
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if fs.Lookup(name) != nil {
			continue
		}
		switch {
		case strings.HasSuffix(name, "_out"):
			return fmt.Sprintf("--%s is protoc's: protoplay gen writes its output to -o DIR, and takes generator options as --opt KEY=VALUE", name)
		case strings.HasSuffix(name, "_opt"):
			return fmt.Sprintf("--%s is protoc's: give generator options as --opt KEY=VALUE (repeatable, or comma-separated)", name)
		case name == "plugin":
			return "--plugin is protoc's: protoplay runs its generator itself (to use it from protoc, see protoc-gen-protoplay)"
		}
	}
	return ""
}

// Usage reports a command line that parsed but is incomplete or
// inconsistent: it writes fs's name ("protoplay gen"), ": " and the
// message to fs.Output(), then the usage, and returns StatusUsage.
func Usage(fs *flag.FlagSet, format string, args ...any) int {
	fmt.Fprintf(fs.Output(), "%s: %s\n", fs.Name(), fmt.Sprintf(format, args...))
	fs.Usage()
	return StatusUsage
}

// Status is the exit status for the error Parse returned: StatusOK for
// a help request, StatusUsage otherwise.
func Status(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return StatusOK
	}
	return StatusUsage
}

// IsHelp reports whether arg asks for help: -h, -help or --help.
func IsHelp(arg string) bool {
	return arg == "-h" || arg == "-help" || arg == "--help"
}

// split separates args into the flags with their values, one-letter
// flags' attached values split off ("-Iproto" -> "-I", "proto"), and the
// positional arguments, and reports whether a help flag (one fs does not
// define itself) comes before "--". It walks args as the flag package
// does, so a flag's value is never taken for a flag or a positional
// argument ("-o -h" writes to a directory named -h).
func split(fs *flag.FlagSet, args []string) (flags, pos []string, help bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return flags, append(pos, args[i+1:]...), help
		}
		if len(a) < 2 || a[0] != '-' {
			pos = append(pos, a) // a positional argument, or "-"
			continue
		}
		name := strings.TrimPrefix(a[1:], "-")
		name, _, hasValue := strings.Cut(name, "=")
		f := fs.Lookup(name)
		if f == nil && IsHelp(a) {
			help = true
			continue
		}
		if f == nil && a[1] != '-' && len(name) > 1 {
			// -IDIR: a one-letter flag with its value attached.
			if short := fs.Lookup(a[1:2]); short != nil && !isBool(short) {
				flags = append(flags, a[:2], a[2:])
				continue
			}
		}
		flags = append(flags, a)
		if f != nil && !hasValue && !isBool(f) && i+1 < len(args) {
			// The flag's value, whatever it looks like.
			i++
			flags = append(flags, args[i])
		}
	}
	return flags, pos, help
}

// isBool reports whether f is a boolean flag, which takes no separate
// value.
func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}
