package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/internal/cliflag"
)

// inputMax is how much standard input a payload command reads with --in
// in: a binary payload's MaxInputBytes, or its hex or base64 text's
// MaxTextInputBytes.
func inputMax(in string) int {
	if in == "binary" {
		return compiler.MaxInputBytes
	}
	return compiler.MaxTextInputBytes
}

// readInput reads standard input, refusing more than max bytes
// (compiler.MaxInputBytes for a value, compiler.MaxTextInputBytes for a
// payload, which may be hex or base64 text).
func readInput(stdin io.Reader, max int) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(stdin, int64(max)+1))
	if err != nil {
		return nil, err
	}
	if len(b) > max {
		limit := "MaxInputBytes"
		if max == compiler.MaxTextInputBytes {
			limit = "MaxTextInputBytes: MaxInputBytes of payload as hex or base64"
		}
		return nil, fmt.Errorf("at byte %d: standard input exceeds the limit of %d bytes (%s)", max, max, limit)
	}
	return b, nil
}

// loadSchema compiles files and returns their schema, printing
// diagnostics to stderr: every one when warnings is true (check), the
// errors only otherwise (encode and decode, whose output is the payload,
// not a review of the schema: gen and check report its warnings). ok is
// false when the caller should exit 1.
func loadSchema(roots *schemaFlags, files []string, warnings bool, stderr io.Writer) (*compiler.Schema, bool) {
	res, err := compileFiles(context.Background(), roots, files, compiler.Request{NoGenerate: true})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return nil, false
	}
	if printDiagnostics(stderr, res, warnings) {
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

// encodeStream encodes the JSON values of input, one after another (JSON
// Lines, or any whitespace between them), as a length-delimited stream:
// each message preceded by its size as a varint, the form decode
// --delimited and protobuf's writeDelimitedTo use, written in out. A
// value that fails is named by its index and the byte of the input where
// it starts.
func encodeStream(s *compiler.Schema, typ string, input []byte, out compiler.Encoding) ([]byte, error) {
	var stream []byte
	dec := json.NewDecoder(bytes.NewReader(input))
	for i := 0; ; i++ {
		after := int(dec.InputOffset())
		var raw json.RawMessage
		if err := dec.Decode(&raw); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("value %d, after byte %d of the input: not JSON: %v", i, after, err)
		}
		start := int(dec.InputOffset()) - len(raw) // the value's first byte
		b, err := s.Encode(typ, raw, compiler.JSON, compiler.Binary)
		if err != nil {
			return nil, fmt.Errorf("value %d, at byte %d of the input: %w", i, start, err)
		}
		stream = protowire.AppendVarint(stream, uint64(len(b)))
		stream = append(stream, b...)
	}
	return compiler.FormatBinary(stream, out)
}

// notProto is the first of files whose name does not end in .proto, or
// "": a payload or value file given where the schema's files go.
func notProto(files []string) string {
	for _, f := range files {
		if !strings.HasSuffix(f, ".proto") {
			return f
		}
	}
	return ""
}

// isSet reports whether the flag called name was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// writeOut writes the output buffered by a command to stdout: all of it
// once the work is done, nothing when a limit stopped it.
func writeOut(stdout io.Writer, out *bytes.Buffer) { stdout.Write(out.Bytes()) }

func runEncode(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("protoplay encode", flag.ContinueOnError)
	roots := importFlags(fs)
	typ := fs.String("type", "", "message type `PKG.Message` of the value (required)")
	in := fs.String("in", "json", "input format: json or text")
	out := fs.String("out", "binary", "output encoding: binary, hex or base64")
	delimited := fs.Bool("delimited", false, "read JSON values one after another (JSON Lines) and write a stream of messages, each preceded by its varint length, as decode --delimited reads")
	var lim workLimits
	lim.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: protoplay encode [-I DIR]... [--descriptor_set_in FILES] --type PKG.Message FILE.proto... [--in json|text] [--out binary|hex|base64] [--delimited] [--timeout D] [--max-memory N]")
		fmt.Fprintln(fs.Output(), "Reads a value from standard input and writes its binary encoding to standard output.")
		fs.PrintDefaults()
	}
	files, err := cliflag.Parse(fs, args, stdout, stderr)
	if err != nil {
		return cliflag.Status(err)
	}
	switch {
	case notProto(files) != "":
		return cliflag.Usage(fs, "%s is not a .proto file: encode reads the value from standard input (protoplay encode ... < %s)", notProto(files), notProto(files))
	case *typ == "":
		return cliflag.Usage(fs, "--type is required: the full name of the message to encode, such as pkg.Msg")
	case len(files) == 0 && !roots.hasSets():
		return cliflag.Usage(fs, "no .proto file named (give the FILE.proto that defines --type, or --descriptor_set_in)")
	case !oneOf(*in, "json", "text"):
		return cliflag.Usage(fs, "--in %q: want json or text", *in)
	case !oneOf(*out, "binary", "hex", "base64"):
		return cliflag.Usage(fs, "--out %q: want binary, hex or base64", *out)
	case *delimited && *in != "json":
		return cliflag.Usage(fs, "--delimited reads JSON values one after another: --in text does not apply")
	}
	var buf bytes.Buffer
	status := 0
	err = lim.run(func(ctx context.Context) error {
		s, ok := loadSchema(roots, files, false, stderr)
		if !ok {
			status = 1
			return nil
		}
		input, err := readInput(stdin, compiler.MaxInputBytes)
		if err != nil {
			return err
		}
		var b []byte
		if *delimited {
			b, err = encodeStream(s, *typ, input, compiler.Encoding(*out))
		} else {
			b, err = s.Encode(*typ, input, compiler.Format(*in), compiler.Encoding(*out))
		}
		if err != nil {
			return err
		}
		buf.Write(b)
		if *out != "binary" {
			buf.WriteByte('\n')
		}
		return nil
	})
	if err != nil {
		return inputError(stderr, "encode", err)
	}
	writeOut(stdout, &buf)
	return status
}

func runDecode(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("protoplay decode", flag.ContinueOnError)
	roots := importFlags(fs)
	typ := fs.String("type", "", "message type `PKG.Message` of the payload (required unless --raw), or auto: rank the schema's message types by how well the payload fits each, print the ranking to standard error, and decode with the best")
	in := fs.String("in", "auto", "input encoding: auto, binary, hex or base64")
	out := fs.String("out", "json", fmt.Sprintf("output: json, text, or wire (an annotated byte-by-byte listing of at most %d fields)", compiler.MaxViewFields))
	raw := fs.Bool("raw", false, "decode without a schema, like protoc --decode_raw, as a listing")
	delimited := fs.Bool("delimited", false, "read a stream of messages, each preceded by its varint length")
	var lim workLimits
	lim.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: protoplay decode [-I DIR]... [--descriptor_set_in FILES] --type PKG.Message|auto FILE.proto... [--in auto|binary|hex|base64] [--out json|text|wire] [--delimited] [--timeout D] [--max-memory N]")
		fmt.Fprintln(fs.Output(), "       protoplay decode --raw [--in auto|binary|hex|base64] [--delimited] [--timeout D] [--max-memory N]")
		fmt.Fprintln(fs.Output(), "Reads a payload from standard input and writes it decoded to standard output.")
		fmt.Fprintf(fs.Output(), "A listing (--raw, --out wire) shows the first %d fields and packed elements (MaxViewFields), and messages of a stream, in byte order; the rest are checked and counted on a last line.\n", compiler.MaxViewFields)
		fs.PrintDefaults()
	}
	files, err := cliflag.Parse(fs, args, stdout, stderr)
	if err != nil {
		return cliflag.Status(err)
	}
	switch {
	case !oneOf(*in, "auto", "binary", "hex", "base64"):
		return cliflag.Usage(fs, "--in %q: want auto, binary, hex or base64", *in)
	case !oneOf(*out, "json", "text", "wire"):
		return cliflag.Usage(fs, "--out %q: want json, text or wire", *out)
	case notProto(files) != "":
		return cliflag.Usage(fs, "%s is not a .proto file: decode reads the payload from standard input (protoplay decode ... < %s)", notProto(files), notProto(files))
	case *raw && isSet(fs, "out"):
		return cliflag.Usage(fs, "--raw writes a listing of the bytes: --out does not apply (give --type and a .proto file to decode as json or text)")
	case *raw && (*typ != "" || len(files) > 0 || roots.hasSets()):
		return cliflag.Usage(fs, "--raw decodes without a schema: give no --type, .proto file or --descriptor_set_in with it")
	case !*raw && *typ == "":
		return cliflag.Usage(fs, "--type is required (the full name of the message, such as pkg.Msg), or --raw to decode without a schema")
	case !*raw && len(files) == 0 && !roots.hasSets():
		return cliflag.Usage(fs, "no .proto file named (give the FILE.proto that defines --type, or --descriptor_set_in), or --raw to decode without a schema")
	}
	var buf bytes.Buffer
	status := 0
	err = lim.run(func(ctx context.Context) error {
		var s *compiler.Schema
		if !*raw {
			var ok bool
			if s, ok = loadSchema(roots, files, false, stderr); !ok {
				status = 1
				return nil
			}
		}
		input, err := readInput(stdin, inputMax(*in))
		if err != nil {
			return err
		}
		if *typ == "auto" {
			best, err := rankTypes(s, input, compiler.Encoding(*in), *delimited, stderr)
			if err != nil {
				return err
			}
			*typ = best
		}
		if !*raw && *out != "wire" {
			// On an error in a stream, the messages before it are
			// written too.
			used, _, err := s.DecodeEach(*typ, input, compiler.DecodeOptions{In: compiler.Encoding(*in), Out: compiler.Format(*out), Delimited: *delimited},
				func(text string) error {
					buf.WriteString(text)
					return nil
				})
			if err == nil && *out == "json" && !*delimited {
				noteUnknown(stderr, s, *typ, input, used)
			}
			return err
		}
		view := compiler.DecodeRaw
		if !*raw {
			view = func(p []byte) (*compiler.View, error) { return s.WireView(*typ, p) }
		}
		return listing(&buf, input, compiler.Encoding(*in), *delimited, view)
	})
	if err != nil {
		if !isLimit(err) {
			writeOut(stdout, &buf)
		}
		return inputError(stderr, "decode", err)
	}
	writeOut(stdout, &buf)
	return status
}

// noteUnknown says on w when a payload decoded to JSON held fields that
// are not in its type's schema (see compiler.Schema.UnknownFieldsNote).
func noteUnknown(w io.Writer, s *compiler.Schema, typ string, input []byte, enc compiler.Encoding) {
	b, _, err := compiler.ParseBinary(input, enc)
	if err != nil {
		return
	}
	if note, n := s.UnknownFieldsNote(typ, b); n > 0 {
		verb := "are"
		if n == 1 {
			verb = "is"
		}
		fmt.Fprintf(w, "protoplay decode: note: %s and %s left out of the JSON: --out text keeps them, --out wire lists them\n", note, verb)
	}
}

// listing writes the wire listing of input (a stream of records when
// delimited) to w. Listings are cut at compiler.MaxViewFields rows: a
// view lists at most that many fields and elements, and a stream stops
// listing messages once its headers and fields reach that many, checking
// the rest and saying how many were left out.
func listing(w *bytes.Buffer, input []byte, enc compiler.Encoding, delimited bool, view func([]byte) (*compiler.View, error)) error {
	if !delimited {
		b, _, v, err := compiler.ViewInput(input, enc, view)
		if v != nil {
			w.WriteString(compiler.Listing(v, b))
		}
		return err
	}
	b, _, err := compiler.ParseBinary(input, enc)
	if err != nil {
		return err
	}
	rows, i := 0, 0
	unlisted, unlistedFrom := 0, 0
	err = compiler.EachDelimited(b, func(r compiler.Record) error {
		defer func() { i++ }()
		v, err := view(r.Bytes)
		if rows < compiler.MaxViewFields {
			fmt.Fprintf(w, "# message %d at byte %d (offsets below are within the message)\n", i, r.Offset)
			if v != nil {
				w.WriteString(compiler.Listing(v, r.Bytes))
				rows += 1 + listedFields(v.Fields)
			}
		} else {
			if unlisted == 0 {
				unlistedFrom = r.Offset
			}
			unlisted++
		}
		if err != nil {
			if pe, ok := err.(*compiler.Error); ok {
				pe.Record = i
			}
			return err
		}
		return nil
	})
	if unlisted > 0 {
		fmt.Fprintf(w, "# ... %d more messages from byte %d on, checked but not listed (MaxViewFields = %d)\n", unlisted, unlistedFrom, compiler.MaxViewFields)
	}
	return err
}

// listedFields counts the fields and elements of a view's tree.
func listedFields(fs []compiler.Field) int {
	n := len(fs)
	for _, f := range fs {
		n += listedFields(f.Children)
	}
	return n
}

func runCheck(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("protoplay check", flag.ContinueOnError)
	roots := importFlags(fs)
	generated := fs.Bool("generated", false, "check the generated Go code instead: build it with the go command on PATH and, for every message type, decode the sample's reference encoding with the generated Unmarshal and compare Marshal, Size, Clone and Equal, and require the probes (the empty payload, invalid UTF-8) to be refused exactly as the reference refuses them: the checks the playground runs in the browser")
	var opts multiFlag
	fs.Var(&opts, "opt", "with --generated: generator option `KEY=VALUE` the code is generated with (repeatable, or several comma-separated, as gen's --opt): default_api_level=API_OPEN|API_HYBRID|API_OPAQUE, apilevelM<file>=<level>, unknown_fields=keep|drop, enum_maps=true|false, default_import_prefix=PATH; the options that place the files are the check's own")
	var lim workLimits
	lim.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: protoplay check [-I DIR]... [--descriptor_set_in FILES] [--generated [--opt KEY=VALUE]...] [--timeout D] [--max-memory N] FILE.proto...")
		fmt.Fprintln(fs.Output(), "For every message type: sample -> binary -> value, sample -> JSON -> value, binary -> JSON -> binary;")
		fmt.Fprintln(fs.Output(), "with --generated: reference binary -> generated Unmarshal -> Marshal, Size, Clone, Equal; probes refused as the reference refuses them.")
		fs.PrintDefaults()
	}
	files, err := cliflag.Parse(fs, args, stdout, stderr)
	if err != nil {
		return cliflag.Status(err)
	}
	if len(files) == 0 && !roots.hasSets() {
		return cliflag.Usage(fs, "no .proto file named (give FILE.proto..., or --descriptor_set_in)")
	}
	gen, err := parseOpts(opts)
	if err != nil {
		fmt.Fprintln(stderr, "protoplay check:", err)
		return 2
	}
	if len(opts) > 0 && !*generated {
		fmt.Fprintln(stderr, "protoplay check: --opt applies to the generated code: give --generated too")
		return 2
	}
	var buf bytes.Buffer
	status := 0
	err = lim.run(func(ctx context.Context) error {
		if *generated {
			status = runCheckGenerated(ctx, roots, files, gen, "", &buf, stderr)
			return nil
		}
		s, ok := loadSchema(roots, files, true, stderr)
		if !ok {
			status = 1
			return nil
		}
		failed := 0
		results := s.Check()
		for _, r := range results {
			if r.Pass {
				fmt.Fprintf(&buf, "ok    %s (sample: %d bytes)\n", r.Type, r.Size)
				continue
			}
			failed++
			where := ""
			if r.Path != "" {
				where = " at " + r.Path
			}
			fmt.Fprintf(&buf, "FAIL  %s: %s step%s: %s\n", r.Type, r.Step, where, r.Message)
		}
		fmt.Fprintf(&buf, "%d message types, %d failed\n", len(results), failed)
		if failed > 0 {
			status = 1
		}
		return nil
	})
	if err != nil {
		return inputError(stderr, "check", err)
	}
	writeOut(stdout, &buf)
	return status
}

// rankTypes ranks the schema's message types by how well input (the first
// message, when delimited) fits each, prints the ranking to w, and
// returns the best type's name.
func rankTypes(s *compiler.Schema, input []byte, enc compiler.Encoding, delimited bool, w io.Writer) (string, error) {
	b, _, err := compiler.ParseBinary(input, enc)
	if err != nil {
		return "", err
	}
	what := "the payload"
	if delimited {
		recs, err := compiler.SplitDelimited(b)
		if len(recs) == 0 {
			if err == nil {
				err = errors.New("the stream holds no message")
			}
			return "", err
		}
		b, what = recs[0].Bytes, "the stream's first message"
	}
	fits, err := s.RankTypes(b, 5)
	if err != nil {
		return "", err
	}
	if len(fits) == 0 {
		return "", errors.New("the schema has no message type")
	}
	fmt.Fprintf(w, "# message types by how well %s fits (score: share of its %d bytes explained)\n", what, len(b))
	for _, f := range fits {
		fmt.Fprintf(w, "# %2d  %.3f  %s  (%d known fields, %d unknown, %d with another wire type, %d bad strings)\n",
			f.Rank, f.Score, f.Type, f.Known, f.Unknown, f.Mismatched, f.BadStrings)
	}
	if fits[0].Score == 0 && len(b) > 0 {
		// No type explains a byte: decoding with the first would print
		// {} and exit 0 over bytes of another schema.
		return "", fmt.Errorf("no message type of the schema explains any byte of %s: it may be of another schema (decode --raw lists its fields)", what)
	}
	if len(fits) > 1 && fits[1].Rank == 1 {
		fmt.Fprintf(w, "# the types ranked 1 fit the bytes equally; pass --type to choose another\n")
	}
	fmt.Fprintf(w, "# decoding as %s\n", fits[0].Type)
	return fits[0].Type, nil
}
