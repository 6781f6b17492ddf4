package cliflag

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// multi is a repeatable string flag, as -I is.
type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

type parsed struct {
	I, Opt []string
	O      string
	Raw    bool
	Pos    []string
}

func parse(args ...string) (parsed, string, string, error) {
	var p parsed
	fs := flag.NewFlagSet("protoplay gen", flag.ContinueOnError)
	var roots, opts multi
	fs.Var(&roots, "I", "import root")
	fs.Var(&roots, "proto_path", "same as -I")
	fs.Var(&opts, "opt", "option")
	fs.StringVar(&p.O, "o", ".", "output dir")
	fs.BoolVar(&p.Raw, "raw", false, "raw")
	fs.Usage = func() { fmt.Fprintln(fs.Output(), "usage: protoplay gen"); fs.PrintDefaults() }
	var out, errb bytes.Buffer
	pos, err := Parse(fs, args, &out, &errb)
	p.I, p.Opt, p.Pos = roots, opts, pos
	return p, out.String(), errb.String(), err
}

// Flags and files in any order, every -I form protoc and buf users type,
// "--" ending the flags, and a flag's value never taken for a flag.
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want parsed
	}{
		{[]string{"-o", "out", "x.proto", "--opt", "paths=source_relative"},
			parsed{O: "out", Opt: []string{"paths=source_relative"}, Pos: []string{"x.proto"}}},
		{[]string{"x.proto", "--opt", "a=b", "y.proto", "-o=out", "--raw"},
			parsed{O: "out", Opt: []string{"a=b"}, Raw: true, Pos: []string{"x.proto", "y.proto"}}},
		{[]string{"-I.", "-Iproto", "-I", "a", "-I=b", "--proto_path=c", "--proto_path", "d", "-proto_path=e", "x.proto"},
			parsed{O: ".", I: []string{".", "proto", "a", "b", "c", "d", "e"}, Pos: []string{"x.proto"}}},
		{[]string{"-I../shared/x=y", "x.proto"},
			parsed{O: ".", I: []string{"../shared/x=y"}, Pos: []string{"x.proto"}}},
		{[]string{"-oout", "x.proto"},
			parsed{O: "out", Pos: []string{"x.proto"}}},
		{[]string{"x.proto", "--", "-o", "--opt"},
			parsed{O: ".", Pos: []string{"x.proto", "-o", "--opt"}}},
		{[]string{"-o", "-h", "x.proto"},
			parsed{O: "-h", Pos: []string{"x.proto"}}},
		{[]string{"-", "--raw"},
			parsed{O: ".", Raw: true, Pos: []string{"-"}}},
	} {
		got, out, errOut, err := parse(tc.args...)
		if err != nil || !reflect.DeepEqual(got, tc.want) || out != "" || errOut != "" {
			t.Errorf("Parse(%q) = %+v, %v (stdout %q, stderr %q); want %+v", tc.args, got, err, out, errOut, tc.want)
		}
	}
}

// -h, -help and --help, anywhere before "--", print the usage to stdout
// and give StatusOK; a bad flag prints to stderr and gives StatusUsage.
func TestParseHelpAndErrors(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"--help"}, {"-help"}, {"x.proto", "-o", "out", "--help"}} {
		_, out, errOut, err := parse(args...)
		if !errors.Is(err, flag.ErrHelp) || Status(err) != StatusOK || !strings.HasPrefix(out, "usage: protoplay gen") || !strings.Contains(out, "-opt") || errOut != "" {
			t.Errorf("Parse(%q): %v (status %d), stdout %q, stderr %q; want the usage on stdout and status 0", args, err, Status(err), out, errOut)
		}
	}
	for _, args := range [][]string{{"--bogus"}, {"x.proto", "-o"}, {"-Xfoo"}, {"--raw=maybe"}} {
		_, out, errOut, err := parse(args...)
		if err == nil || Status(err) != StatusUsage || out != "" || !strings.Contains(errOut, "usage: protoplay gen") {
			t.Errorf("Parse(%q): %v (status %d), stdout %q, stderr %q; want an error, the usage on stderr and status 2", args, err, Status(err), out, errOut)
		}
	}
	if _, _, _, err := parse("--", "--help"); err != nil {
		t.Errorf(`"--help" after "--" is a positional argument, got %v`, err)
	}
}
