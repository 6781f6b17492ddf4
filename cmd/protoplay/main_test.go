package main

import (
	"bytes"
	"strings"
	"testing"
)

// -h and --help print a command's usage on stderr and exit 0, as Go's
// flag package does for a command of its own; "protoplay help CMD" is
// "protoplay CMD -h". Bad flags still exit 2.
func TestHelpExitStatus(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-h"}, 0, "usage: protoplay <command>"},
		{[]string{"help"}, 0, "usage: protoplay <command>"},
		{[]string{}, 2, "usage: protoplay <command>"},
		{[]string{"gen", "-h"}, 0, "usage: protoplay gen"},
		{[]string{"gen", "--help"}, 0, "usage: protoplay gen"},
		{[]string{"encode", "-h"}, 0, "usage: protoplay encode"},
		{[]string{"decode", "-h"}, 0, "usage: protoplay decode"},
		{[]string{"check", "-h"}, 0, "usage: protoplay check"},
		{[]string{"serve", "-h"}, 0, "usage: protoplay serve"},
		{[]string{"help", "decode"}, 0, "usage: protoplay decode"},
		{[]string{"gen", "--bogus"}, 2, "usage: protoplay gen"},
		{[]string{"decode", "--bogus"}, 2, "usage: protoplay decode"},
		{[]string{"serve", "--bogus"}, 2, "usage: protoplay serve"},
	} {
		var out, errb bytes.Buffer
		code := run(tc.args, strings.NewReader(""), &out, &errb)
		if code != tc.code || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("protoplay %s: exit %d, stderr %q; want exit %d and %q", strings.Join(tc.args, " "), code, errb.String(), tc.code, tc.want)
		}
	}
}
