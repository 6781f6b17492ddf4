package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/protoplay/protoplay/internal/version"
)

// -h and --help print a command's usage on stdout and exit 0; "protoplay
// help CMD" is "protoplay CMD -h". No command, an unknown one and bad
// flags print the usage on stderr and exit 2.
func TestHelpExitStatus(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		code   int
		stdout bool // the usage on stdout (else stderr)
		want   string
	}{
		{[]string{"-h"}, 0, true, "usage: protoplay <command>"},
		{[]string{"--help"}, 0, true, "usage: protoplay <command>"},
		{[]string{"help"}, 0, true, "usage: protoplay <command>"},
		{[]string{}, 2, false, "usage: protoplay <command>"},
		{[]string{"frobnicate"}, 2, false, "usage: protoplay <command>"},
		{[]string{"help", "frobnicate"}, 2, false, "usage: protoplay <command>"},
		{[]string{"gen", "-h"}, 0, true, "usage: protoplay gen"},
		{[]string{"gen", "--help"}, 0, true, "usage: protoplay gen"},
		{[]string{"gen", "x.proto", "--opt", "paths=import", "--help"}, 0, true, "usage: protoplay gen"},
		{[]string{"encode", "-h"}, 0, true, "usage: protoplay encode"},
		{[]string{"decode", "--help"}, 0, true, "usage: protoplay decode"},
		{[]string{"check", "-h"}, 0, true, "usage: protoplay check"},
		{[]string{"serve", "--help"}, 0, true, "usage: protoplay serve"},
		{[]string{"version", "-h"}, 0, true, "usage: protoplay version"},
		{[]string{"help", "decode"}, 0, true, "usage: protoplay decode"},
		{[]string{"gen"}, 2, false, "usage: protoplay gen"},
		{[]string{"gen", "--bogus"}, 2, false, "usage: protoplay gen"},
		{[]string{"gen", "x.proto", "-o"}, 2, false, "flag needs an argument: -o"},
		{[]string{"gen", "--opt", "paths=sideways", "x.proto"}, 2, false, `option paths="sideways"`},
		{[]string{"decode", "--bogus"}, 2, false, "usage: protoplay decode"},
		{[]string{"serve", "--bogus"}, 2, false, "usage: protoplay serve"},
		{[]string{"serve", "extra"}, 2, false, "usage: protoplay serve"},
		{[]string{"version", "extra"}, 2, false, "usage: protoplay version"},
		// A command line that parses but lacks what the command needs
		// says what, before the usage.
		{[]string{"gen"}, 2, false, "protoplay gen: no .proto file named (give FILE.proto..., or --descriptor_set_in)\nusage: protoplay gen"},
		{[]string{"gen", "-o", "x.proto"}, 2, false, "protoplay gen: no .proto file named"},
		{[]string{"encode", "x.proto"}, 2, false, "protoplay encode: --type is required"},
		{[]string{"encode", "--type", "a.B"}, 2, false, "protoplay encode: no .proto file named"},
		{[]string{"encode", "--type", "a.B", "x.proto", "--in", "yaml"}, 2, false, `protoplay encode: --in "yaml": want json or text`},
		{[]string{"decode", "x.proto"}, 2, false, "protoplay decode: --type is required"},
		{[]string{"decode", "--type", "a.B"}, 2, false, "protoplay decode: no .proto file named"},
		{[]string{"decode", "--raw", "--type", "a.B"}, 2, false, "protoplay decode: --raw decodes without a schema"},
		{[]string{"decode", "--raw", "--out", "yaml"}, 2, false, `protoplay decode: --out "yaml": want json, text or wire`},
		{[]string{"check"}, 2, false, "protoplay check: no .proto file named"},
		{[]string{"serve", "extra"}, 2, false, `protoplay serve: unexpected argument "extra"`},
		{[]string{"serve", "--addr", ""}, 2, false, `protoplay serve: --addr "": want HOST:PORT`},
		{[]string{"serve", "--addr", "localhost"}, 2, false, `protoplay serve: --addr "localhost": want HOST:PORT`},
		// Limits: a negative value is refused, not taken as "no limit".
		{[]string{"gen", "--timeout", "-1s", "x.proto"}, 2, false, `invalid value "-1s" for flag -timeout: not a duration of 0 or more`},
		{[]string{"decode", "--raw", "--timeout=-1s"}, 2, false, `invalid value "-1s" for flag -timeout`},
		{[]string{"gen", "--max-files", "-1", "x.proto"}, 2, false, `invalid value "-1" for flag -max-files: not a count of 0 or more`},
		{[]string{"gen", "--max-nesting", "-1", "x.proto"}, 2, false, `invalid value "-1" for flag -max-nesting`},
		// protoc's flags: what to type instead, before the usage.
		{[]string{"gen", "--go_out=x", "a.proto"}, 2, false, "flag provided but not defined: -go_out\n--go_out is protoc's: protoplay gen writes its output to -o DIR"},
		{[]string{"gen", "--protoplay_opt", "paths=source_relative", "a.proto"}, 2, false, "--protoplay_opt is protoc's: give generator options as --opt KEY=VALUE"},
		{[]string{"gen", "--plugin=protoc-gen-go", "a.proto"}, 2, false, "--plugin is protoc's"},
	} {
		var out, errb bytes.Buffer
		code := run(tc.args, strings.NewReader(""), &out, &errb)
		where, other := &errb, &out
		if tc.stdout {
			where, other = &out, &errb
		}
		if code != tc.code || !strings.Contains(where.String(), tc.want) || other.Len() != 0 {
			t.Errorf("protoplay %s: exit %d, stdout %q, stderr %q; want exit %d and %q on %s only", strings.Join(tc.args, " "), code, out.String(), errb.String(), tc.code, tc.want, map[bool]string{true: "stdout", false: "stderr"}[tc.stdout])
		}
	}
}

// --version and version print "protoplay vX.Y.Z" on stdout and exit 0.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"-version"}, {"version"}} {
		var out, errb bytes.Buffer
		code := run(args, strings.NewReader(""), &out, &errb)
		if want := "protoplay " + version.String() + "\n"; code != 0 || out.String() != want || errb.Len() != 0 {
			t.Errorf("protoplay %s: exit %d, stdout %q, stderr %q; want exit 0 and %q", args[0], code, out.String(), errb.String(), want)
		}
		if !strings.HasPrefix(out.String(), "protoplay v0.") && !strings.HasPrefix(out.String(), "protoplay v1") {
			t.Errorf("protoplay %s: %q is not a version", args[0], out.String())
		}
	}
}

// gen takes flags and files in any order, as protoc and buf users type
// them, and every form of -I: -I DIR, -IDIR (-I.), -I=DIR,
// --proto_path=DIR and --proto_path DIR. Each run writes the same file.
func TestGenFlagOrderAndImportForms(t *testing.T) {
	src := t.TempDir()
	if err := os.MkdirAll(filepath.Join(src, "proto", "shop"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "proto", "shop", "shop.proto"), []byte(`syntax = "proto3";
package shop;
option go_package = "example.com/m/shop";
message Order { int32 id = 1; }
`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(src)
	for _, args := range [][]string{
		{"-o", "OUT", "shop/shop.proto", "--opt", "paths=source_relative", "-I", "proto"},
		{"shop/shop.proto", "-IOUT_I", "-oOUT", "--opt=paths=source_relative"},
		{"-I=proto", "shop/shop.proto", "-o=OUT", "--opt", "paths=source_relative"},
		{"--proto_path=proto", "--opt", "paths=source_relative", "shop/shop.proto", "-o", "OUT"},
		{"--proto_path", "proto", "--opt", "paths=source_relative", "-o", "OUT", "--", "shop/shop.proto"},
	} {
		out := t.TempDir()
		for i, a := range args {
			args[i] = strings.ReplaceAll(strings.ReplaceAll(a, "OUT_I", "proto"), "OUT", out)
		}
		if code, errs := runGenArgs(t, args...); code != 0 {
			t.Errorf("gen %q: exit %d: %s", args, code, errs)
			continue
		}
		if got := files(t, out); !contains(got, "shop/shop.pb.go") {
			t.Errorf("gen %q wrote %q, want shop/shop.pb.go (paths=source_relative)", args, got)
		}
	}
	// -I. (the current directory, attached): the file named relative to it.
	t.Chdir(filepath.Join(src, "proto"))
	out := t.TempDir()
	if code, errs := runGenArgs(t, "shop/shop.proto", "-I.", "-o", out, "--opt", "paths=source_relative"); code != 0 {
		t.Fatalf("gen -I.: exit %d: %s", code, errs)
	}
	if got := files(t, out); !contains(got, "shop/shop.pb.go") {
		t.Errorf("gen -I. wrote %q, want shop/shop.pb.go", got)
	}
}

// A payload that is not valid in the format it is written in says so, at
// its byte, and exits 1: a mistyped hex string (an odd number of digits)
// is not read as base64; text that is neither hex nor base64 names both.
func TestDecodeFormatErrors(t *testing.T) {
	for _, tc := range []struct{ stdin, want string }{
		{"0a02413", "protoplay decode: at input byte 6: not valid hex: odd number of hex digits (the input is written as hex, so it was not tried as base64"},
		{"0a 0g", "protoplay decode: at input byte 4: not valid hex: not a hex digit: 'g'"},
		{"CJYBx", "protoplay decode: at input byte 4: not valid base64: invalid base64; not valid hex either (at input byte 1: not a hex digit: 'J')"},
	} {
		for _, args := range [][]string{{"decode", "--raw"}, {"decode", "--type", "shop.Order", "shop.proto"}, {"decode", "--type", "shop.Order", "shop.proto", "--out", "wire"}} {
			code, out, errOut := runIn(t, tc.stdin, append([]string(nil), args...)...)
			if code != 1 || out != "" || !strings.Contains(errOut, tc.want) {
				t.Errorf("%q | protoplay %s: exit %d, stdout %q, stderr %q; want exit 1 and %q", tc.stdin, strings.Join(args, " "), code, out, errOut, tc.want)
			}
		}
	}
}
