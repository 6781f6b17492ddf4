package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/internal/cliflag"
)

// runInfer is protoplay infer: a .proto inferred from payloads (see
// compiler.Infer).
func runInfer(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("protoplay infer", flag.ContinueOnError)
	in := fs.String("in", "auto", "input encoding of each payload: auto, binary, hex or base64")
	name := fs.String("name", "Inferred", "the top-level message's `NAME`")
	pkg := fs.String("package", "", "the file's `PACKAGE` (none by default)")
	delimited := fs.Bool("delimited", false, "each input is a stream of messages, each preceded by its varint length: every message is a sample")
	out := fs.String("o", "", "write the .proto to `FILE` instead of standard output")
	var lim workLimits
	lim.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: protoplay infer [--name NAME] [--package PKG] [--in auto|binary|hex|base64] [--delimited] [-o FILE] [PAYLOAD_FILE...]")
		fmt.Fprintln(fs.Output(), "Reads payloads of one message type (each file one payload, or standard input) and writes a .proto (edition 2023)")
		fmt.Fprintln(fs.Output(), "under which they all decode with no unknown field; each field's comment says what was seen.")
		fmt.Fprintf(fs.Output(), "At most %d payloads (MaxInferSamples), %d bytes in all (MaxInputBytes); message types nest at most %d deep (MaxInferDepth).\n", compiler.MaxInferSamples, compiler.MaxInputBytes, compiler.MaxInferDepth)
		fs.PrintDefaults()
	}
	files, err := cliflag.Parse(fs, args, stdout, stderr)
	if err != nil {
		return cliflag.Status(err)
	}
	if !oneOf(*in, "auto", "binary", "hex", "base64") {
		return cliflag.Usage(fs, "--in %q: want auto, binary, hex or base64", *in)
	}
	var buf bytes.Buffer
	err = lim.run(func(context.Context) error {
		var inputs [][]byte
		if len(files) == 0 {
			b, err := readInput(stdin, inputMax(*in))
			if err != nil {
				return err
			}
			inputs = append(inputs, b)
		}
		total := 0
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				return err
			}
			if total += len(b); total > compiler.MaxInputBytes {
				return fmt.Errorf("%s: the payloads exceed %d bytes together (MaxInputBytes)", f, compiler.MaxInputBytes)
			}
			inputs = append(inputs, b)
		}
		var samples [][]byte
		for i, raw := range inputs {
			b, _, err := compiler.ParseBinary(raw, compiler.Encoding(*in))
			if err != nil {
				return inputNamed(files, i, err)
			}
			if !*delimited {
				samples = append(samples, b)
				continue
			}
			err = compiler.EachDelimited(b, func(r compiler.Record) error {
				samples = append(samples, r.Bytes)
				if len(samples) > compiler.MaxInferSamples {
					return &compiler.Error{Kind: compiler.KindLimit, Limit: "MaxInferSamples", Offset: r.Offset,
						Message: fmt.Sprintf("more than %d messages (MaxInferSamples)", compiler.MaxInferSamples)}
				}
				return nil
			})
			if err != nil {
				return inputNamed(files, i, err)
			}
		}
		text, err := compiler.Infer(samples, compiler.InferOptions{Name: *name, Package: *pkg})
		if err != nil {
			if e, ok := err.(*compiler.Error); ok && !*delimited && e.Kind != compiler.KindUsage {
				return inputNamed(files, e.Record, err)
			}
			return err
		}
		buf.WriteString(text)
		return nil
	})
	if err != nil {
		return inputError(stderr, "infer", err)
	}
	if *out != "" {
		if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
			return inputError(stderr, "infer", err)
		}
		return 0
	}
	writeOut(stdout, &buf)
	return 0
}

// inputNamed prefixes err with the name of the i-th payload file, when
// the payloads came from files.
func inputNamed(files []string, i int, err error) error {
	if i < 0 || i >= len(files) {
		return err
	}
	if e, ok := err.(*compiler.Error); ok {
		c := *e
		c.Record = 0 // the file says which
		err = &c
	}
	return fmt.Errorf("%s: %w", files[i], err)
}
