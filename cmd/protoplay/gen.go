package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
)

func runGen(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("protoplay gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	roots := importFlags(fs)
	out := fs.String("o", ".", "output `DIR`; files go to DIR/<path chosen by the paths= option>")
	var opts multiFlag
	fs.Var(&opts, "opt", "generator option `KEY=VALUE` (repeatable): paths=import|source_relative, module=PREFIX, M<file>=<import path>, unknown_fields=keep|drop, default_import_prefix=PATH")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: protoplay gen [-I DIR]... [-o DIR] [--opt KEY=VALUE]... FILE.proto...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	var o gogen.Options
	for _, kv := range opts {
		if err := o.Set(kv); err != nil {
			fmt.Fprintln(stderr, "protoplay gen:", err)
			return 2
		}
	}
	res, err := compileFiles(*roots, fs.Args(), compiler.Request{Options: o})
	if err != nil {
		fmt.Fprintln(stderr, "protoplay gen:", err)
		return 1
	}
	if printDiagnostics(stderr, res) {
		return 1
	}
	// Everything is generated in memory first, so an error leaves no file
	// behind; a failure while writing names the file.
	for _, f := range res.Generated {
		path := filepath.Join(*out, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			fmt.Fprintln(stderr, "protoplay gen:", err)
			return 1
		}
		if err := os.WriteFile(path, []byte(f.Content), 0o644); err != nil {
			fmt.Fprintln(stderr, "protoplay gen:", err)
			return 1
		}
	}
	return 0
}
