package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/internal/cliflag"
)

// readInput reads standard input, refusing more than compiler.MaxInputBytes.
func readInput(stdin io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(stdin, compiler.MaxInputBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > compiler.MaxInputBytes {
		return nil, fmt.Errorf("standard input exceeds the limit of %d bytes", compiler.MaxInputBytes)
	}
	return b, nil
}

// loadSchema compiles files and returns their schema, printing
// diagnostics to stderr. ok is false when the caller should exit 1.
func loadSchema(roots, files []string, stderr io.Writer) (*compiler.Schema, bool) {
	res, err := compileFiles(context.Background(), roots, files, compiler.Request{NoGenerate: true})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return nil, false
	}
	if printDiagnostics(stderr, res) {
		return nil, false
	}
	s, err := res.Schema()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return nil, false
	}
	return s, true
}

// inputError reports err for command name and returns the exit status:
// 2 for a usage error, 1 otherwise.
func inputError(stderr io.Writer, name string, err error) int {
	fmt.Fprintf(stderr, "protoplay %s: %v\n", name, err)
	var pe *compiler.Error
	if errors.As(err, &pe) && pe.Kind == compiler.KindUsage {
		return 2
	}
	return 1
}

func oneOf(v string, allowed ...string) bool {
	for _, a := range allowed {
		if v == a {
			return true
		}
	}
	return false
}

func runEncode(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("protoplay encode", flag.ContinueOnError)
	roots := importFlags(fs)
	typ := fs.String("type", "", "message type `PKG.Message` of the value (required)")
	in := fs.String("in", "json", "input format: json or text")
	out := fs.String("out", "binary", "output encoding: binary, hex or base64")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: protoplay encode [-I DIR]... --type PKG.Message FILE.proto... [--in json|text] [--out binary|hex|base64]")
		fmt.Fprintln(fs.Output(), "Reads a value from standard input and writes its binary encoding to standard output.")
		fs.PrintDefaults()
	}
	files, err := cliflag.Parse(fs, args, stdout, stderr)
	if err != nil {
		return cliflag.Status(err)
	}
	if *typ == "" || len(files) == 0 || !oneOf(*in, "json", "text") || !oneOf(*out, "binary", "hex", "base64") {
		fs.Usage()
		return 2
	}
	s, ok := loadSchema(*roots, files, stderr)
	if !ok {
		return 1
	}
	input, err := readInput(stdin)
	if err != nil {
		return inputError(stderr, "encode", err)
	}
	b, err := s.Encode(*typ, input, compiler.Format(*in), compiler.Encoding(*out))
	if err != nil {
		return inputError(stderr, "encode", err)
	}
	stdout.Write(b)
	if *out != "binary" {
		fmt.Fprintln(stdout)
	}
	return 0
}

func runDecode(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("protoplay decode", flag.ContinueOnError)
	roots := importFlags(fs)
	typ := fs.String("type", "", "message type `PKG.Message` of the payload (required unless --raw)")
	in := fs.String("in", "auto", "input encoding: auto, binary, hex or base64")
	out := fs.String("out", "json", "output: json, text, or wire (an annotated byte-by-byte listing)")
	raw := fs.Bool("raw", false, "decode without a schema, like protoc --decode_raw, as a listing")
	delimited := fs.Bool("delimited", false, "read a stream of messages, each preceded by its varint length")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: protoplay decode [-I DIR]... --type PKG.Message FILE.proto... [--in auto|binary|hex|base64] [--out json|text|wire] [--delimited]")
		fmt.Fprintln(fs.Output(), "       protoplay decode --raw [--in auto|binary|hex|base64] [--delimited]")
		fmt.Fprintln(fs.Output(), "Reads a payload from standard input and writes it decoded to standard output.")
		fs.PrintDefaults()
	}
	files, err := cliflag.Parse(fs, args, stdout, stderr)
	if err != nil {
		return cliflag.Status(err)
	}
	if !oneOf(*in, "auto", "binary", "hex", "base64") || !oneOf(*out, "json", "text", "wire") ||
		(*raw && (*typ != "" || len(files) > 0)) || (!*raw && (*typ == "" || len(files) == 0)) {
		fs.Usage()
		return 2
	}
	var s *compiler.Schema
	if !*raw {
		var ok bool
		if s, ok = loadSchema(*roots, files, stderr); !ok {
			return 1
		}
	}
	input, err := readInput(stdin)
	if err != nil {
		return inputError(stderr, "decode", err)
	}
	if !*raw && *out != "wire" {
		dec, err := s.Decode(*typ, input, compiler.DecodeOptions{In: compiler.Encoding(*in), Out: compiler.Format(*out), Delimited: *delimited})
		if dec != nil {
			for _, m := range dec.Messages {
				io.WriteString(stdout, m)
			}
		}
		if err != nil {
			return inputError(stderr, "decode", err)
		}
		return 0
	}
	// A listing: raw, or the wire view against the type.
	b, _, err := compiler.ParseBinary(input, compiler.Encoding(*in))
	if err != nil {
		return inputError(stderr, "decode", err)
	}
	view := compiler.DecodeRaw
	if !*raw {
		view = func(p []byte) (*compiler.View, error) { return s.WireView(*typ, p) }
	}
	recs := []compiler.Record{{Bytes: b}}
	if *delimited {
		if recs, err = compiler.SplitDelimited(b); err != nil {
			return inputError(stderr, "decode", err)
		}
	}
	status := 0
	for i, r := range recs {
		if *delimited {
			fmt.Fprintf(stdout, "# message %d at byte %d (offsets below are within the message)\n", i, r.Offset)
		}
		v, err := view(r.Bytes)
		if v != nil {
			io.WriteString(stdout, compiler.Listing(v, r.Bytes))
		}
		if err != nil {
			if pe, ok := err.(*compiler.Error); ok && *delimited {
				pe.Record = i
			}
			fmt.Fprintf(stderr, "protoplay decode: %v\n", err)
			status = 1
			break
		}
	}
	return status
}

func runCheck(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("protoplay check", flag.ContinueOnError)
	roots := importFlags(fs)
	generated := fs.Bool("generated", false, "check the generated Go code instead: build it with the go command on PATH and, for every message type, decode the sample's reference encoding with the generated Unmarshal and compare Marshal, Size, Clone and Equal, and require the probes (the empty payload, invalid UTF-8) to be refused exactly as the reference refuses them: the checks the playground runs in the browser")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: protoplay check [-I DIR]... [--generated] FILE.proto...")
		fmt.Fprintln(fs.Output(), "For every message type: sample -> binary -> value, sample -> JSON -> value, binary -> JSON -> binary;")
		fmt.Fprintln(fs.Output(), "with --generated: reference binary -> generated Unmarshal -> Marshal, Size, Clone, Equal; probes refused as the reference refuses them.")
		fs.PrintDefaults()
	}
	files, err := cliflag.Parse(fs, args, stdout, stderr)
	if err != nil {
		return cliflag.Status(err)
	}
	if len(files) == 0 {
		fs.Usage()
		return 2
	}
	if *generated {
		return runCheckGenerated(*roots, files, "", stdout, stderr)
	}
	s, ok := loadSchema(*roots, files, stderr)
	if !ok {
		return 1
	}
	failed := 0
	results := s.Check()
	for _, r := range results {
		if r.Pass {
			fmt.Fprintf(stdout, "ok    %s (sample: %d bytes)\n", r.Type, r.Size)
			continue
		}
		failed++
		where := ""
		if r.Path != "" {
			where = " at " + r.Path
		}
		fmt.Fprintf(stdout, "FAIL  %s: %s step%s: %s\n", r.Type, r.Step, where, r.Message)
	}
	fmt.Fprintf(stdout, "%d message types, %d failed\n", len(results), failed)
	if failed > 0 {
		return 1
	}
	return 0
}
