package main

import (
	"bytes"
	"context"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/protoplay/protoplay/compiler"
)

// TestSameLimitsEveryCommand (issue 24 kind 4): gen, encode, decode and
// check all take --timeout and --max-memory, with the same defaults.
func TestSameLimitsEveryCommand(t *testing.T) {
	for _, cmd := range []string{"gen", "encode", "decode", "check"} {
		var out, errb bytes.Buffer
		if code := run([]string{cmd, "-h"}, strings.NewReader(""), &out, &errb); code != 0 {
			t.Fatalf("%s -h: exit %d", cmd, code)
		}
		h := out.String() // -h prints its usage to stdout
		for _, want := range []string{
			"-timeout TIME\n    \tstop with an error after this much wall TIME (e.g. 30s, 5m; 0: no limit) (default " + defaultTimeout.String() + ")",
			"-max-memory BYTES\n    \tstop with an error when the process holds more BYTES of memory from the OS (e.g. 2GiB, 512MiB; 0: no limit) (default " + byteSize(defaultMaxMemory).String() + ")",
		} {
			if !strings.Contains(h, want) {
				t.Errorf("%s -h lacks %q:\n%s", cmd, want, h)
			}
		}
	}
}

// TestWorkLimits: the watchdog stops work that runs past --timeout or
// holds more than --max-memory, with an error naming the flag, and
// returns work's own result otherwise.
func TestWorkLimits(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	l := workLimits{timeout: 20 * time.Millisecond}
	err := l.run(func(ctx context.Context) error {
		select {
		case <-block:
		case <-ctx.Done(): // the limit cancels the work's context
		}
		return nil
	})
	if !isLimit(err) || err.Error() != "stopped: over the time limit of 20ms (raise it with --timeout)" {
		t.Errorf("timeout: %v", err)
	}
	var hold [][]byte
	l = workLimits{maxMemory: 64 << 20}
	err = l.run(func(ctx context.Context) error {
		for i := 0; i < 64; i++ {
			hold = append(hold, bytes.Repeat([]byte{1}, 4<<20))
		}
		<-ctx.Done()
		return nil
	})
	if !isLimit(err) || !strings.Contains(err.Error(), ", over the limit of 64MiB (raise it with --max-memory)") {
		t.Errorf("memory: %v", err)
	}
	runtime.KeepAlive(hold)
	l = workLimits{timeout: time.Hour, maxMemory: 1 << 40}
	if err := l.run(func(context.Context) error { return nil }); err != nil {
		t.Errorf("within the limits: %v", err)
	}
}

// case49Inputs are the payloads of case 49 (testdata/cases/49/make_inputs.py),
// each just under MaxInputBytes.
func case49Inputs() map[string][]byte {
	body := bytes.Repeat([]byte{1}, compiler.MaxInputBytes-10)
	packed := append([]byte{0x22}, appendVarint(nil, uint64(len(body)))...)
	return map[string][]byte{
		"packed8m": append(packed, body...),                                              // field 4, packed, 8M varints of 1
		"delim8m":  bytes.Repeat([]byte{0}, compiler.MaxInputBytes-1),                    // 8M empty records
		"kids8m":   bytes.Repeat([]byte{0x32, 0x00}, (compiler.MaxInputBytes-1)/2),       // 4M empty repeated messages
		"unk8m":    bytes.Repeat([]byte{0xc8, 0x3e, 0x01}, (compiler.MaxInputBytes-1)/3), // field 1001 = 1, repeated
	}
}

func appendVarint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// TestCase49DecodeBounded (case 49): decode's output grows at most
// linearly with its input, and a wire listing stops at MaxViewFields
// rows however many fields or records the payload holds, saying how many
// it left out and from which byte; the rest is still checked.
func TestCase49DecodeBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes 8 MB payloads")
	}
	proto := filepath.Join("..", "..", "testdata", "cases", "49", "49_g.proto")
	in := case49Inputs()
	cases := []struct {
		input string
		args  []string
		max   int    // most output bytes
		last  string // the output's last line starts so
	}{
		{"packed8m", []string{"--type", "g.M", "--out", "wire"}, 8 << 20, "100004  "},
		{"kids8m", []string{"--type", "g.M", "--out", "wire"}, 8 << 20, "200000  "},
		{"unk8m", []string{"--raw"}, 8 << 20, "300000  "},
		{"delim8m", []string{"--raw", "--delimited"}, 16 << 20, "# ... "},
		{"delim8m", []string{"--type", "g.M", "--delimited"}, 4 * compiler.MaxInputBytes, "{}"},
		{"packed8m", []string{"--type", "g.M"}, 8 * compiler.MaxInputBytes, "}"},
	}
	for _, c := range cases {
		t.Run(c.input+" "+strings.Join(c.args, " "), func(t *testing.T) {
			args := append([]string{"decode", "--in", "binary"}, c.args...)
			if !contains(c.args, "--raw") {
				args = append(args, "-I", filepath.Dir(proto), filepath.Base(proto))
			}
			var out, errb bytes.Buffer
			if code := run(args, bytes.NewReader(in[c.input]), &out, &errb); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			if out.Len() > c.max {
				t.Errorf("%d bytes of output for %d of input, over %d", out.Len(), len(in[c.input]), c.max)
			}
			lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			last := strings.TrimLeft(lines[len(lines)-1], " ")
			if !strings.HasPrefix(last, strings.TrimLeft(c.last, " ")) {
				t.Errorf("last line %q, want it to start with %q", last, c.last)
			}
			if strings.Contains(c.last, "  ") && !strings.Contains(last, "checked but not listed (MaxViewFields = "+strconv.Itoa(compiler.MaxViewFields)+")") {
				t.Errorf("last line %q does not name MaxViewFields", last)
			}
		})
	}
}

// TestCommandLimitsStop: a command over a limit stops with an error naming
// the limit (and, for the input size, the byte offset) and writes nothing.
func TestCommandLimitsStop(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes 8 MB payloads")
	}
	dir := filepath.Join("..", "..", "testdata", "cases", "49")
	packed := case49Inputs()["packed8m"]
	decode := []string{"decode", "--in", "binary", "-I", dir, "--type", "g.M", "49_g.proto"}
	for _, c := range []struct {
		name  string
		args  []string
		input []byte
		want  string
	}{
		{"timeout", append(decode, "--timeout", "1ns"), packed, "protoplay decode: stopped: over the time limit of 1ns (raise it with --timeout)"},
		{"input one byte over", decode, append(bytes.Repeat([]byte{0x08, 0x01}, compiler.MaxInputBytes/2), 0), "protoplay decode: at byte 8388608: standard input exceeds the limit of 8388608 bytes (MaxInputBytes)"},
		{"encode timeout", []string{"encode", "-I", dir, "--type", "g.M", "49_g.proto", "--timeout", "1ns"}, []byte(`{"p": [1, 2]}`), "protoplay encode: stopped: over the time limit of 1ns (raise it with --timeout)"},
		{"check timeout", []string{"check", "-I", dir, "49_g.proto", "--timeout", "1ns"}, nil, "protoplay check: stopped: over the time limit of 1ns (raise it with --timeout)"},
	} {
		var out, errb bytes.Buffer
		if code := run(c.args, bytes.NewReader(c.input), &out, &errb); code != 1 || out.Len() != 0 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%s: exit %d, %d bytes out, stderr %q; want exit 1, nothing, %q", c.name, code, out.Len(), errb.String(), c.want)
		}
	}
	// At the input limit: decoded.
	var out, errb bytes.Buffer
	if code := run(decode, bytes.NewReader(bytes.Repeat([]byte{0x08, 0x01}, compiler.MaxInputBytes/2)), &out, &errb); code != 0 {
		t.Errorf("input at the limit: exit %d, %s", code, errb.String())
	}
	// After a limit, the next run in the same process works.
	if code := run(decode, bytes.NewReader([]byte{0x20, 0x07}), &out, &errb); code != 0 {
		t.Errorf("after a limit: exit %d, %s", code, errb.String())
	}
}
