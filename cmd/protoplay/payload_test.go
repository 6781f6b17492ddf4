package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const shopProto = `syntax = "proto3";
package shop;
message Order {
  int32 id = 1;
  string item = 2;
  repeated sint32 deltas = 3;
  map<string, int64> stock = 4;
  Order parent = 5;
  int32 qty = 6;
}
`

// runIn runs protoplay in-process in a directory holding shop.proto.
func runIn(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "shop.proto"), []byte(shopProto), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.proto"), []byte("syntax = \"proto3\";\nmessage {"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, a := range args {
		if strings.HasSuffix(a, ".proto") {
			args[i] = filepath.Join(dir, a)
		}
	}
	args = append([]string{args[0], "-I", dir}, args[1:]...)
	if args[0] == "decode" && contains(args, "--raw") {
		args = append(args[:1], args[3:]...) // --raw takes no -I
	}
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestEncodeDecodeCommands(t *testing.T) {
	cases := []struct {
		name, stdin string
		args        []string
		code        int
		out, errOut string // substrings expected
	}{
		{"encode hex", `{"id": 150, "item": "tea"}`, []string{"encode", "--type", "shop.Order", "shop.proto", "--out", "hex"}, 0, "08 96 01 12 03 74 65 61\n", ""},
		{"encode text base64", `id: 150`, []string{"encode", "--type", "shop.Order", "--in", "text", "--out", "base64", "shop.proto"}, 0, "CJYB\n", ""},
		{"encode binary", `{"id": 1}`, []string{"encode", "--type", "shop.Order", "shop.proto"}, 0, "\x08\x01", ""},
		{"decode json", "08 96 01 12 03 74 65 61", []string{"decode", "--type", "shop.Order", "shop.proto"}, 0, "{\n  \"id\": 150,\n  \"item\": \"tea\"\n}\n", ""},
		{"decode base64 text", "CJYB", []string{"decode", "--type", "shop.Order", "shop.proto", "--out", "text"}, 0, "id: 150\n", ""},
		{"decode binary", "\x08\x96\x01", []string{"decode", "--in", "binary", "--type", "shop.Order", "shop.proto"}, 0, "\"id\": 150", ""},
		// encode's binary output of {"qty": 49} is "01", all hex digits.
		{"decode binary that reads as hex", "01", []string{"decode", "--type", "shop.Order", "shop.proto"}, 0, "{\n  \"qty\": 49\n}\n", ""},
		{"wire listing of binary that reads as hex", "01", []string{"decode", "--type", "shop.Order", "--out", "wire", "shop.proto"}, 0, "shop.Order, 2 bytes\noffset  bytes  field\n     0  30 31  6 qty (int32, VARINT) = 49\n", ""},
		{"raw listing of binary that reads as hex", "01", []string{"decode", "--raw"}, 0, "raw, 2 bytes\noffset  bytes  field\n     0  30 31  6 (varint, VARINT) = 49", ""},
		{"raw listing of hex", "0801", []string{"decode", "--raw"}, 0, "raw, 2 bytes\noffset  bytes  field\n     0  08 01  1 (varint, VARINT) = 1", ""},
		{"payload file where the schema goes", "", []string{"decode", "--raw", "pl.hex"}, 2, "", "protoplay decode: pl.hex is not a .proto file: decode reads the payload from standard input (protoplay decode ... < pl.hex)"},
		{"value file where the schema goes", "", []string{"encode", "--type", "shop.Order", "shop.proto", "v.json"}, 2, "", "protoplay encode: v.json is not a .proto file: encode reads the value from standard input"},
		{"auto type that explains nothing", "78 01", []string{"decode", "--type", "auto", "shop.proto"}, 1, "", "protoplay decode: no message type of the schema explains any byte of the payload"},
		{"raw with out", "08 01", []string{"decode", "--raw", "--out", "json"}, 2, "", "protoplay decode: --raw writes a listing of the bytes: --out does not apply"},
		{"decode hex that is not the type", "ff", []string{"decode", "--type", "shop.Order", "shop.proto"}, 1, "", "(the input was read as hex; choose binary as the input encoding to read its bytes as they are)"},
		// encode --delimited writes what decode --delimited reads.
		{"encode stream", "{\"id\": 150}\n{\"id\": 1}\n", []string{"encode", "--delimited", "--type", "shop.Order", "shop.proto", "--out", "hex"}, 0, "03 08 96 01 02 08 01\n", ""},
		{"encode stream error", "{\"id\": 150}\n{\"idd\": 1}\n", []string{"encode", "--delimited", "--type", "shop.Order", "shop.proto"}, 1, "", "protoplay encode: value 1, at byte 12 of the input: line 1, column 2: unknown field \"idd\" in shop.Order; did you mean \"id\"?"},
		{"encode stream of text", "id: 1", []string{"encode", "--delimited", "--in", "text", "--type", "shop.Order", "shop.proto"}, 2, "", "--in text does not apply"},
		{"decode stream", "03 08 96 01 02 08 01", []string{"decode", "--delimited", "--type", "shop.Order", "shop.proto", "--out", "text"}, 0, "id: 150\nid: 1\n", ""},
		{"decode wire", "08 96 01 1a 02 01 04", []string{"decode", "--type", "shop.Order", "shop.proto", "--out", "wire"}, 0, "     3  1a 02     3 deltas (sint32, LEN 2, packed) [", ""},
		{"decode raw", "08 96 01 12 03 74 65 61", []string{"decode", "--raw"}, 0, "     3  12 03     2 (string, LEN 3) = \"tea\"", ""},
		{"decode raw stream", "03 08 96 01 02 08 01", []string{"decode", "--raw", "--delimited"}, 0, "# message 1 at byte 5", ""},

		{"unknown type", "", []string{"decode", "--type", "shop.Ordr", "shop.proto"}, 1, "", `unknown message type "shop.Ordr"; did you mean shop.Order?`},
		{"bad json", "{\"id\": 1,\n\"nope\": 2}", []string{"encode", "--type", "shop.Order", "shop.proto"}, 1, "", "protoplay encode: line 2, column 1: unknown field \"nope\""},
		{"bad payload", "2a 05 08 96", []string{"decode", "--type", "shop.Order", "shop.proto"}, 1, "", "protoplay decode: at byte 1 (in parent): LEN of 5 bytes exceeds the 2 remaining"},
		{"bad nested payload", "2a 02 08 96", []string{"decode", "--type", "shop.Order", "shop.proto"}, 1, "", "at byte 3 (in parent.id): unexpected end of input in varint"},
		{"bad wire listing", "08 96 01 0f", []string{"decode", "--type", "shop.Order", "shop.proto", "--out", "wire"}, 1, "error at byte 3: invalid wire type 7", "invalid wire type 7"},
		{"bad raw", "0a 05", []string{"decode", "--raw"}, 1, "", "at byte 1 (in #1): LEN of 5 bytes exceeds the 0 remaining"},
		{"bad hex", "0a 0g", []string{"decode", "--in", "hex", "--raw"}, 1, "", "at input byte 4: not a hex digit: 'g'"},
		{"compile error", "{}", []string{"encode", "--type", "shop.Order", "bad.proto"}, 1, "", "bad.proto:2:9"},

		{"no type", "", []string{"encode", "shop.proto"}, 2, "", "usage: protoplay encode"},
		{"bad out", "", []string{"decode", "--type", "shop.Order", "shop.proto", "--out", "xml"}, 2, "", "usage: protoplay decode"},
		{"raw with type", "", []string{"decode", "--raw", "--type", "shop.Order"}, 2, "", "usage: protoplay decode"},
		{"bad flag", "", []string{"encode", "--bogus"}, 2, "", "flag provided but not defined"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runIn(t, c.stdin, c.args...)
			if code != c.code || !strings.Contains(out, c.out) || !strings.Contains(errOut, c.errOut) {
				t.Errorf("exit %d (want %d)\nstdout:\n%s\nwant it to contain:\n%s\nstderr:\n%s\nwant it to contain:\n%s", code, c.code, out, c.out, errOut, c.errOut)
			}
		})
	}
}

func TestCheckCommand(t *testing.T) {
	code, out, errOut := runIn(t, "", "check", "shop.proto")
	if code != 0 || !strings.Contains(out, "ok    shop.Order (sample: ") || !strings.Contains(out, "1 message types, 0 failed") {
		t.Errorf("check: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := runIn(t, "", "check", "bad.proto"); code != 1 || !strings.Contains(errOut, "bad.proto:2:9") {
		t.Errorf("check bad.proto: exit %d, stderr %s", code, errOut)
	}
	if code, _, _ := runIn(t, "", "check"); code != 2 {
		t.Errorf("check without files: exit %d, want 2", code)
	}
}

// TestSchemaWarningsInGenAndCheckOnly: a schema that compiles with
// warnings (a missing package, a required field, a redundant default, a
// group) has them printed by gen and check, which review the schema, and
// not by encode and decode, whose output is the payload; its errors are
// printed by all four.
func TestSchemaWarningsInGenAndCheckOnly(t *testing.T) {
	dir := t.TempDir()
	const warn = "syntax = \"proto2\";\nmessage W {\n  required int32 x = 1;\n  optional int32 y = 2 [default = 0];\n  optional group G = 3 { optional int32 z = 1; }\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "warn.proto"), []byte(warn), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "both.proto"), []byte(warn+"message E { optional Missing m = 1; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	wantWarnings := []string{
		"warn.proto:3:3: warning: required fields are deprecated",
		"warn.proto:4:35: warning: redundant custom default",
		"warn.proto:5:12: warning: group syntax is deprecated",
	}
	cases := []struct {
		name, stdin string
		args        []string
		warnings    bool
	}{
		{"gen", "", []string{"gen", "-o", filepath.Join(dir, "out"), "warn.proto"}, true},
		{"check", "", []string{"check", "warn.proto"}, true},
		{"encode", `{"x": 1}`, []string{"encode", "--type", "W", "--out", "hex", "warn.proto"}, false},
		{"decode", "0801", []string{"decode", "--type", "W", "--in", "hex", "warn.proto"}, false},
		{"decode auto", "0801", []string{"decode", "--type", "auto", "--in", "hex", "warn.proto"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{c.args[0], "-I", dir}, c.args[1:]...)
			var out, errb bytes.Buffer
			if code := run(args, strings.NewReader(c.stdin), &out, &errb); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			for _, w := range wantWarnings {
				if got := strings.Contains(errb.String(), w); got != c.warnings {
					t.Errorf("%q printed: %v, want %v; standard error:\n%s", w, got, c.warnings, errb.String())
				}
			}
			if !c.warnings && strings.Contains(errb.String(), "warning:") {
				t.Errorf("a warning on standard error:\n%s", errb.String())
			}
			// The same schema with an error: every command prints the
			// error and exits 1.
			for i, a := range args {
				if a == "warn.proto" {
					args[i] = "both.proto"
				}
			}
			errb.Reset()
			if code := run(args, strings.NewReader(c.stdin), &out, &errb); code != 1 || !strings.Contains(errb.String(), "both.proto:7:22: cannot find `Missing` in this scope") {
				t.Errorf("with an error: exit %d, standard error:\n%s", code, errb.String())
			}
		})
	}
}

// Fields the type does not declare are left out of ProtoJSON, so decode
// to JSON says on stderr how many there were and where (bytes decoded as
// the wrong type, or by an older schema); text keeps them and says
// nothing, and a payload with none gets no note.
func TestDecodeNotesUnknownFields(t *testing.T) {
	// shop.Order{id: 7, item: "x"} and fields 9 (varint) and 10 (LEN).
	const in = "08 07 12 01 78 48 01 52 02 61 62"
	code, out, errOut := runIn(t, in, "decode", "--in", "hex", "--type", "shop.Order", "shop.proto")
	const note = "protoplay decode: note: 2 fields of the payload are not in shop.Order (field 9 at byte 5, field 10 at byte 7) and are left out of the JSON: --out text keeps them, --out wire lists them\n"
	if code != 0 || !strings.Contains(out, `"item": "x"`) || errOut != note {
		t.Errorf("exit %d, stdout %q, stderr %q; want the note %q", code, out, errOut, note)
	}
	// One inside a nested message, named by its path; in a map value,
	// with the entry's index (map<string, int64> stock: its value has no
	// fields, so the unknown field is the entry's own).
	code, _, errOut = runIn(t, "2a 02 48 01", "decode", "--in", "hex", "--type", "shop.Order", "shop.proto")
	if code != 0 || !strings.Contains(errOut, "1 field of the payload is not in shop.Order (field parent.9 at byte 2) and is left out") {
		t.Errorf("nested: exit %d, stderr %q", code, errOut)
	}
	code, _, errOut = runIn(t, "22 03 0a 01 61 22 05 0a 01 62 48 01", "decode", "--in", "hex", "--type", "shop.Order", "shop.proto")
	if code != 0 || !strings.Contains(errOut, "(field stock[1].9 at byte 10)") {
		t.Errorf("in a map entry: exit %d, stderr %q", code, errOut)
	}
	for _, args := range [][]string{
		{"decode", "--in", "hex", "--type", "shop.Order", "--out", "text", "shop.proto"},
	} {
		if code, out, errOut := runIn(t, in, args...); code != 0 || errOut != "" || !strings.Contains(out, "9: 1") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	if code, _, errOut := runIn(t, "08 07", "decode", "--in", "hex", "--type", "shop.Order", "shop.proto"); code != 0 || errOut != "" {
		t.Errorf("no unknown field: exit %d, stderr %q", code, errOut)
	}
}
