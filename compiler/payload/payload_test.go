package payload

import (
	"bytes"
	"encoding/json"
	"errors"
	"github.com/protoplay/protoplay/compiler/diag"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"
)

func testSchema(t testing.TB, file string) *Schema {
	t.Helper()
	return compileFS(t, testdataFS, testdataRoots, file)
}

func TestParseBinary(t *testing.T) {
	cases := []struct {
		in   string
		enc  Encoding
		want []byte
		as   Encoding
	}{
		{"0a 08", Auto, []byte{0x0a, 0x08}, Hex},
		{"0x0a,0x08\n", Auto, []byte{0x0a, 0x08}, Hex},
		{`\x0a\x08`, Auto, []byte{0x0a, 0x08}, Hex},
		{"0xa 0x8", Hex, []byte{0x0a, 0x08}, Hex},
		{"0A08FF", Hex, []byte{0x0a, 0x08, 0xff}, Hex},
		{"CJYB", Auto, []byte{0x08, 0x96, 0x01}, Base64},
		{"CJYB\n", Base64, []byte{0x08, 0x96, 0x01}, Base64},
		{"AP9h", Base64, []byte{0x00, 0xff, 0x61}, Base64},
		{"AP-h", Auto, []byte{0x00, 0xfe, 0x1}[:0], Binary}, // not hex; '-' is URL base64 -> see below
		{"  \n", Auto, []byte{}, Hex},
		{"\x08\x96\x01", Auto, []byte{0x08, 0x96, 0x01}, Binary},
		{"0a08", Binary, []byte("0a08"), Binary},
		{"0a:08:ff", Auto, []byte{0x0a, 0x08, 0xff}, Hex},      // as Wireshark copies bytes
		{"\"CJYB\"\n", Auto, []byte{0x08, 0x96, 0x01}, Base64}, // quoted, as copied from JSON
		{"\"0a08\"", Auto, []byte{0x0a, 0x08}, Hex},
		{"\"\"", Auto, []byte(`""`), Binary},
	}
	for _, c := range cases {
		got, as, err := ParseBinary([]byte(c.in), c.enc)
		if c.in == "AP-h" {
			// URL-safe base64 of 00 fe 1? Check it decodes as base64.
			if err != nil || as != Base64 || len(got) != 3 {
				t.Errorf("ParseBinary(%q) = %x, %s, %v; want 3 bytes of base64", c.in, got, as, err)
			}
			continue
		}
		if err != nil || as != c.as || !bytes.Equal(got, c.want) {
			t.Errorf("ParseBinary(%q, %s) = %x, %s, %v; want %x, %s", c.in, c.enc, got, as, err, c.want, c.as)
		}
	}
	bad := []struct {
		in     string
		enc    Encoding
		offset int
	}{
		{"0a 0g", Hex, 4},
		{"0a 0", Hex, 3},
		{"0a 0x", Hex, 5},
		{"CJY*", Base64, 3},
	}
	for _, c := range bad {
		_, _, err := ParseBinary([]byte(c.in), c.enc)
		var e *diag.Error
		if !errors.As(err, &e) || e.Kind != diag.KindEncoding || e.Offset != c.offset {
			t.Errorf("ParseBinary(%q, %s) error = %#v, want diag.KindEncoding at %d", c.in, c.enc, err, c.offset)
		}
	}
	if _, _, err := ParseBinary(nil, "octal"); AsError(err).Kind != diag.KindUsage {
		t.Errorf("unknown encoding: %v", err)
	}
}

// Auto reads text as the format it is written in: a mistake in hex is a
// hex error at its byte, never base64 read by accident ("0a02413", an odd
// number of digits, is valid base64 of 5 bytes); text of base64's alphabet
// that is neither says both why; other bytes are binary.
func TestParseBinaryAutoErrors(t *testing.T) {
	for _, c := range []struct {
		in     string
		offset int
		want   []string // substrings of the message
	}{
		{"0a02413", 6, []string{"at input byte 6: not valid hex: odd number of hex digits", "not tried as base64"}},
		{"0a 02 41 3", 9, []string{"not valid hex: odd number of hex digits"}},
		{"0a 0g", 4, []string{"at input byte 4: not valid hex: not a hex digit: 'g'", "not tried as base64"}},
		{"0x0a,0xzz", 7, []string{"not valid hex: not a hex digit: 'z'"}},
		{"CJYBx", 4, []string{"at input byte 4: not valid base64: invalid base64", "not valid hex either (at input byte 1: not a hex digit: 'J')", "choose binary"}},
		{"CJYB\nCJYBx", 9, []string{"not valid base64", "not valid hex either"}},
	} {
		_, _, err := ParseBinary([]byte(c.in), Auto)
		var e *diag.Error
		if !errors.As(err, &e) || e.Kind != diag.KindEncoding || e.Offset != c.offset {
			t.Errorf("ParseBinary(%q, auto) error = %v, want diag.KindEncoding at input byte %d", c.in, err, c.offset)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(e.Error(), w) {
				t.Errorf("ParseBinary(%q, auto) error %q, want it to say %q", c.in, e.Error(), w)
			}
		}
	}
	// Still read: base64 in groups of four, wrapped base64, binary that
	// happens to hold short printable runs.
	for _, c := range []struct {
		in   string
		want Encoding
	}{
		{"CJYB AQID", Base64},
		{"CJYBCJYBCJYBCJYBCJYBCJYBCJYBCJYBCJYBCJYBCJYBCJYBCJYBCJYBCJYBCJYB\nCJYB", Base64},
		{"\n\x02ab\n\x02cd", Binary},
		{"\x08\x96\x01 \x12\x03tea", Binary},
	} {
		if _, got, err := ParseBinary([]byte(c.in), Auto); err != nil || got != c.want {
			t.Errorf("ParseBinary(%q, auto) = %s, %v; want %s", c.in, got, err, c.want)
		}
	}
}

func TestFormatBinary(t *testing.T) {
	b := []byte{0x08, 0x96, 0x01}
	for enc, want := range map[Encoding]string{Binary: "\x08\x96\x01", Hex: "08 96 01", Base64: "CJYB"} {
		got, err := FormatBinary(b, enc)
		if err != nil || string(got) != want {
			t.Errorf("FormatBinary(%s) = %q, %v; want %q", enc, got, err, want)
		}
		back, _, err := ParseBinary(got, enc)
		if err != nil || !bytes.Equal(back, b) {
			t.Errorf("ParseBinary(FormatBinary(%s)) = %x, %v", enc, back, err)
		}
	}
}

func TestFindMessage(t *testing.T) {
	s := testSchema(t, "wire.proto")
	if md, err := s.FindMessage(".pp.wire.Item"); err != nil || md.FullName() != "pp.wire.Item" {
		t.Fatalf("FindMessage(.pp.wire.Item) = %v, %v", md, err)
	}
	for name, want := range map[string]string{
		"pp.wire.Iten":   "pp.wire.Item",
		"Item":           "pp.wire.Item",
		"pp.wire.extra":  "pp.wire.Item.Extra",
		"protobuf.Any":   "google.protobuf.Any",
		"pp.wire.Item.K": "",
	} {
		_, err := s.FindMessage(name)
		e := AsError(err)
		if e == nil || e.Kind != diag.KindType {
			t.Fatalf("FindMessage(%q) error = %v, want diag.KindType", name, err)
		}
		if want != "" && (len(e.Suggestions) == 0 || e.Suggestions[0] != want) {
			t.Errorf("FindMessage(%q) suggests %v, want %s first", name, e.Suggestions, want)
		}
		if want != "" && !strings.Contains(e.Error(), "did you mean "+want) {
			t.Errorf("FindMessage(%q) error %q does not suggest %s", name, e.Error(), want)
		}
	}
	if _, err := s.FindMessage("pp.wire.Item.Kind"); err == nil || !strings.Contains(err.Error(), "pp.wire.Item.Kind is an enum, not a message") {
		t.Errorf("FindMessage(enum) error = %v", err)
	}
	// The package-level form builds the schema itself.
	res := compileFS(t, testdataFS, testdataRoots, "16_negative_varints.proto")
	if _, err := res.FindMessage("bugcorpus.c16.Reading"); err != nil {
		t.Error(err)
	}
}

func TestEncodeErrors(t *testing.T) {
	s := testSchema(t, "wire.proto")
	md := mustFind(t, s, "pp.wire.Item")
	cases := []struct {
		in           string
		format       Format
		kind         string
		line, column int
		msg          string
	}{
		{`{"id": 1, "bogus": 2}`, JSON, diag.KindJSON, 1, 11, `unknown field "bogus" in pp.wire.Item`},
		// A likely typo names the field meant: the JSON name, or the proto
		// name when the key is nearer it; in text, the text name (a group's
		// type name); inside a nested message, that message's fields.
		{`{"nmae": "x"}`, JSON, diag.KindJSON, 1, 2, `unknown field "nmae" in pp.wire.Item; did you mean "name"?`},
		{`{"child": {"id": 1, "detlas": [1]}}`, JSON, diag.KindJSON, 1, 21, `unknown field "detlas" in pp.wire.Item; did you mean "deltas"?`},
		{`{"Extra": {"flg": true}}`, JSON, diag.KindJSON, 1, 12, `unknown field "flg" in pp.wire.Item.Extra; did you mean "flag"?`},
		{"id: 1\nExtr { flag: true }", Text, diag.KindText, 2, 1, `unknown field "Extr" in pp.wire.Item; did you mean "Extra"?`},
		{`{"ID": 1}`, JSON, diag.KindJSON, 1, 2, `unknown field "ID" in pp.wire.Item; did you mean "id"?`},
		{"blob_: \"x\"", Text, diag.KindText, 1, 1, `unknown field "blob_" in pp.wire.Item; did you mean "blob"?`},
		{`{"zzzzzz": 1}`, JSON, diag.KindJSON, 1, 2, `unknown field "zzzzzz" in pp.wire.Item`},
		{`{"[pp.wire.nope]": 1}`, JSON, diag.KindJSON, 1, 2, `unknown extension "[pp.wire.nope]" of pp.wire.Item`},
		{"{\n  \"id\": 1,\n  \"kind\": \"NOPE\"\n}", JSON, diag.KindJSON, 3, 11, "invalid value for enum field kind"},
		{"{\n  \"id\": 1,", JSON, diag.KindJSON, 2, 11, "unexpected end of input"},
		{`{"id": "x"}`, JSON, diag.KindJSON, 1, 8, "invalid value for int32 field id"},
		{"id: 1\nname: 3", Text, diag.KindText, 2, 7, "invalid value for string type: 3"},
		{`{"child": {"extra": {}}}`, JSON, "", 0, 0, ""},
	}
	for _, c := range cases {
		_, err := s.Encode(md, []byte(c.in), EncodeOptions{In: c.format})
		if c.kind == "" {
			if err != nil {
				t.Errorf("Encode(%q): %v", c.in, err)
			}
			continue
		}
		e := AsError(err)
		if e == nil || e.Kind != c.kind || e.Line != c.line || e.Column != c.column || !strings.Contains(e.Message, c.msg) {
			t.Errorf("Encode(%q) error = %#v, want %s at %d:%d containing %q", c.in, e, c.kind, c.line, c.column, c.msg)
		}
		if e != nil && strings.HasSuffix(c.msg, "zzzzzz\" in pp.wire.Item") && strings.Contains(e.Message, "did you mean") {
			t.Errorf("Encode(%q): a suggestion for nonsense: %s", c.in, e.Message)
		}
	}
	job := mustFind(t, testSchema(t, "30_proto2_required_and_defaults.proto"), "bugcorpus.c30.Job")
	if _, err := (testSchema(t, "30_proto2_required_and_defaults.proto")).Encode(job, []byte(`{"id": "1"}`), EncodeOptions{}); AsError(err).Kind != diag.KindValue || !strings.Contains(err.Error(), "required field bugcorpus.c30.Job.mode not set") {
		t.Errorf("missing required field: %v", err)
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	s := testSchema(t, "wire.proto")
	md := mustFind(t, s, "pp.wire.Item")
	for _, out := range []Encoding{Binary, Hex, Base64} {
		for _, in := range []Format{JSON, Text} {
			src := `{"id": -5, "name": "ü", "deltas": [1, -2], "counts": {"z": "9"}, "extra": {"flag": true}, "[pp.wire.note]": "n"}`
			if in == Text {
				src = `id: -5 name: "ü" deltas: [1, -2] counts {key: "z" value: 9} Extra {flag: true} [pp.wire.note]: "n"`
			}
			enc, err := s.Encode(md, []byte(src), EncodeOptions{In: in, Out: out})
			if err != nil {
				t.Fatalf("Encode(%s -> %s): %v", in, out, err)
			}
			dec, err := s.Decode(md, enc, DecodeOptions{In: out, Out: JSON})
			if err != nil {
				t.Fatalf("Decode(%s): %v", out, err)
			}
			if dec.Encoding != out {
				t.Errorf("Decode reports encoding %s, want %s", dec.Encoding, out)
			}
			want := "{\n  \"id\": -5,\n  \"name\": \"ü\",\n  \"deltas\": [\n    1,\n    -2\n  ],\n  \"counts\": {\n    \"z\": \"9\"\n  },\n  \"extra\": {\n    \"flag\": true\n  },\n  \"[pp.wire.note]\": \"n\"\n}\n"
			if dec.Messages[0] != want {
				t.Errorf("%s -> %s -> JSON = %s, want %s", in, out, dec.Messages[0], want)
			}
		}
	}
}

// TestDecodeAutoBinary: input that Auto reads as hex or base64 but that
// does not decode as the type so read is decoded as the bytes given when
// that succeeds (a small binary message can be all hex digits, "81" being
// field 7 = 49, or of base64's alphabet); when neither does, the error
// says how the input was read. An explicit encoding is never second-guessed.
func TestDecodeAutoBinary(t *testing.T) {
	s := compileSource(t, "syntax = \"proto3\";\npackage a;\nmessage P { string name = 1; int32 age = 7; string slack = 9; }\n")
	md := mustFind(t, s, "a.P")
	slack := "BH" + strings.Repeat("x", 65) // length 67, "C": 69 characters of base64's alphabet, not valid base64
	bin := append([]byte{0x4a, byte(len(slack))}, slack...)
	cases := []struct {
		in   []byte
		opt  Encoding
		as   Encoding
		json string
		err  string
	}{
		{[]byte("81"), Auto, Binary, `"age": 49`, ""},
		{bin, Auto, Binary, `"slack": "` + slack + `"`, ""}, // not valid base64
		{append([]byte{0x4a, 72}, strings.Repeat("Ab3", 24)...), Auto, Binary, `"slack": "` + strings.Repeat("Ab3", 24) + `"`, ""}, // valid base64
		{[]byte("0a 03 41 64 61"), Auto, Hex, `"name": "Ada"`, ""},
		{[]byte(" \n"), Auto, Hex, "{}", ""}, // whitespace that is no message: empty
		// Typed hex with a mistake stays hex: its bytes would parse as
		// unknown fields (6: 98 ...), and it gets no note.
		{[]byte("0b 08 01"), Auto, "", "", "no EGROUP"},
		{[]byte("81"), Hex, "", "", "at byte 0"},
		{[]byte("ff"), Auto, "", "", "(the input was read as hex; choose binary as the input encoding to read its bytes as they are)"},
	}
	for _, c := range cases {
		d, err := s.Decode(md, c.in, DecodeOptions{In: c.opt, Out: JSON})
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("Decode(%q, %s) error %v, want one containing %q", c.in, c.opt, err, c.err)
			}
			if (c.opt != Auto || typed(c.in)) && err != nil && strings.Contains(err.Error(), "was read as") {
				t.Errorf("Decode(%q, %s): a note on an explicit encoding: %v", c.in, c.opt, err)
			}
			continue
		}
		if err != nil || d.Encoding != c.as || len(d.Messages) != 1 || !strings.Contains(d.Messages[0], c.json) {
			t.Errorf("Decode(%q, %s) = %+v, %v; want %s with %s", c.in, c.opt, d, err, c.as, c.json)
		}
	}
	// Bytes that are all whitespace (field 1 fixed64 of eight spaces)
	// are a message, not an empty hex payload.
	w := compileSource(t, "syntax = \"proto3\";\npackage w;\nmessage W { fixed64 a = 1; }\n")
	d, err := w.Decode(mustFind(t, w, "w.W"), []byte("\x09        "), DecodeOptions{Out: JSON})
	if err != nil || d.Encoding != Binary || !strings.Contains(d.Messages[0], `"a": "2314885530818453536"`) {
		t.Errorf("whitespace bytes: %+v, %v", d, err)
	}
}

// TestViewInputAgreesWithDecode: a listing (decode --out wire, --raw)
// reads auto-detected input as the JSON decode does.
func TestViewInputAgreesWithDecode(t *testing.T) {
	s := compileSource(t, "syntax = \"proto3\";\npackage a;\nmessage P { string name = 1; int32 age = 7; string slack = 9; fixed64 a = 2; }\n")
	md := mustFind(t, s, "a.P")
	slack := "BH" + strings.Repeat("x", 65)
	inputs := [][]byte{
		[]byte("81"), append([]byte{0x4a, byte(len(slack))}, slack...), append([]byte{0x4a, 72}, strings.Repeat("Ab3", 24)...),
		[]byte("0a 03 41 64 61"), []byte(" \n"), []byte("0b 08 01"), []byte("ff"), []byte("\x11        "), []byte("CAE="), []byte("0801"),
		[]byte("zz"), []byte("0a:03:41:64:61"),
	}
	wire := func(b []byte) (*View, error) { return s.WireView(md, b) }
	for _, in := range inputs {
		d, derr := s.Decode(md, in, DecodeOptions{Out: JSON})
		b, enc, v, verr := ViewInput(in, Auto, wire)
		if derr != nil {
			if verr == nil && (v == nil || v.Error == nil) {
				t.Errorf("ViewInput(%q) = %s %x, no error; Decode: %v", in, enc, b, derr)
			}
			continue
		}
		if verr != nil || enc != d.Encoding {
			t.Errorf("ViewInput(%q) = %s, %v; Decode read it as %s", in, enc, verr, d.Encoding)
		}
	}
	// Bytes that are all whitespace: field 1 fixed64 of eight spaces.
	w := compileSource(t, "syntax = \"proto3\";\npackage w;\nmessage W { fixed64 a = 1; }\n")
	wmd := mustFind(t, w, "w.W")
	if _, enc, v, err := ViewInput([]byte("\x09        "), Auto, func(b []byte) (*View, error) { return w.WireView(wmd, b) }); err != nil || enc != Binary || len(v.Fields) != 1 {
		t.Errorf("whitespace bytes listed as %s, %v, %v", enc, v, err)
	}
	// With no schema there is no type to fit: text that does not list is
	// listed as the bytes given when they list cleanly; whitespace stays
	// an empty payload.
	for _, c := range []struct {
		in  string
		enc Encoding
		n   int
	}{{"81", Binary, 1}, {"0801", Hex, 1}, {" \n", Hex, 0}, {"08 01", Hex, 1}} {
		_, enc, v, err := ViewInput([]byte(c.in), Auto, DecodeRaw)
		if err != nil || enc != c.enc || len(v.Fields) != c.n {
			t.Errorf("raw ViewInput(%q) = %s, %v, %v; want %s with %d fields", c.in, enc, v, err, c.enc, c.n)
		}
	}
	// An explicit encoding is never second-guessed.
	if _, _, v, err := ViewInput([]byte("81"), Hex, DecodeRaw); err == nil && v.Error == nil {
		t.Errorf("ViewInput(81, hex) listed cleanly")
	}
}

func TestDecodeDelimited(t *testing.T) {
	s := testSchema(t, "wire.proto")
	md := mustFind(t, s, "pp.wire.Item")
	// Three records: {id: 1}, {}, {name: "a"}.
	stream := "02 08 01 00 03 12 01 61"
	dec, err := s.Decode(md, []byte(stream), DecodeOptions{Delimited: true, Out: Text})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"id: 1\n", "\n", "name: \"a\"\n"}
	if strings.Join(dec.Messages, "|") != strings.Join(want, "|") {
		t.Errorf("Decode(stream) = %q, want %q", dec.Messages, want)
	}
	// A truncated record: the error names the record and the stream offset.
	_, err = s.Decode(md, []byte("02 08 01 03 12 05 61"), DecodeOptions{Delimited: true})
	e := AsError(err)
	if e == nil || e.Kind != diag.KindPayload || e.Record != 1 || e.Offset != 5 || e.Path != "name" {
		t.Errorf("Decode(bad stream) error = %#v, want record 1, offset 5, path name", e)
	}
	if !strings.HasPrefix(e.Error(), "message 1: at byte 5 (in name): LEN of 5 bytes") {
		t.Errorf("error text = %q", e.Error())
	}
	_, err = s.Decode(md, []byte("02 08 01 09 12"), DecodeOptions{Delimited: true})
	if e := AsError(err); e == nil || e.Offset != 3 || e.Record != 1 {
		t.Errorf("Decode(length past end) error = %#v", e)
	}
}

func TestLimits(t *testing.T) {
	s := testSchema(t, "wire.proto")
	md := mustFind(t, s, "pp.wire.Item")
	big := make([]byte, MaxInputBytes+1)
	check := func(name string, err error) {
		t.Helper()
		if e := AsError(err); e == nil || e.Kind != diag.KindLimit {
			t.Errorf("%s over MaxInputBytes: error = %v, want diag.KindLimit", name, err)
		}
	}
	_, _, err := ParseBinary(big, Binary)
	check("ParseBinary", err)
	_, err = DecodeRaw(big)
	check("DecodeRaw", err)
	_, err = s.WireView(md, big)
	check("WireView", err)
	_, err = s.Encode(md, big, EncodeOptions{})
	check("Encode", err)
	_, err = s.Decode(md, big, DecodeOptions{In: Binary})
	check("Decode", err)

	// Nesting: MaxDepth levels decode, one more is a limit error, for
	// binary, JSON and text alike.
	chain := mustFind(t, testSchema(t, "20_recursive_message_defaults.proto"), "bugcorpus.c20.Chain")
	cs := testSchema(t, "20_recursive_message_defaults.proto")
	ok, _, _ := ParseBinary([]byte(nestHex(1, MaxDepth-1)), Hex)
	if _, err := cs.Unmarshal(chain, ok); err != nil {
		t.Errorf("depth %d: %v", MaxDepth, err)
	}
	deep, _, _ := ParseBinary([]byte(nestHex(1, MaxDepth)), Hex)
	if _, err := cs.Unmarshal(chain, deep); AsError(err).Kind != diag.KindLimit {
		t.Errorf("depth %d: error = %v, want diag.KindLimit", MaxDepth+1, err)
	}
	deepJSON := strings.Repeat(`{"next":`, MaxDepth) + "{}" + strings.Repeat("}", MaxDepth)
	if _, err := cs.Encode(chain, []byte(deepJSON), EncodeOptions{}); err == nil {
		t.Errorf("JSON nested %d deep was accepted", MaxDepth+1)
	}
}

// TestViewAllocationBound checks the documented allocation bound on
// payloads that maximize fields per byte and nesting.
func TestViewAllocationBound(t *testing.T) {
	s := testSchema(t, "wire.proto")
	md := mustFind(t, s, "pp.wire.Item")
	n := 1 << 16
	payloads := map[string][]byte{
		"tiny fields":   bytes.Repeat([]byte{0x08, 0x01}, n/2),
		"empty LEN":     bytes.Repeat([]byte{0x32, 0x00}, n/2),
		"empty groups":  bytes.Repeat([]byte{0x53, 0x54}, n/2),
		"packed":        append([]byte{0x1a, 0xfc, 0xff, 0x03}, bytes.Repeat([]byte{0x01}, n-4)...),
		"bytes":         append([]byte{0x4a, 0xfc, 0xff, 0x03}, bytes.Repeat([]byte{0xff, 0x01}, (n-4)/2)...),
		"nested groups": []byte(strings.Repeat("\x0b", MaxDepth-1) + strings.Repeat("\x0c", MaxDepth-1)),
	}
	deep, _, _ := ParseBinary([]byte(nestHex(6, MaxDepth-1)), Hex)
	payloads["nested messages"] = deep
	for name, p := range payloads {
		bound := uint64(MaxViewBytesPerInputByte*len(p) + MaxViewOverhead)
		raw := allocated(func() { DecodeRaw(p) })
		wire := allocated(func() { s.WireView(md, p) })
		t.Logf("%s (%d bytes): DecodeRaw %d B/byte, WireView %d B/byte", name, len(p), raw/uint64(len(p)), wire/uint64(len(p)))
		if raw > bound || wire > bound {
			t.Errorf("%s: allocated %d (raw) and %d (wire) bytes, bound %d", name, raw, wire, bound)
		}
	}
}

// allocated returns the bytes f allocates on the heap.
func allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

func TestViewJSONShape(t *testing.T) {
	s := testSchema(t, "14_group_in_oneof.proto")
	md := mustFind(t, s, "bugcorpus.c14.Check")
	v, err := s.WireView(md, []byte{0x0b, 0x08, 0x05, 0x0c})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(v)
	want := `{"type":"bugcorpus.c14.Check","size":4,"fields":[{"offset":0,"length":4,"tagLength":1,"tag":"0b","number":1,"wireType":3,"name":"probe","type":"group bugcorpus.c14.Check.Probe","nested":true,"valueOffset":1,"valueLength":2,"children":[{"offset":1,"length":2,"tagLength":1,"tag":"08","number":1,"wireType":0,"name":"depth","type":"int32","valueOffset":2,"valueLength":1,"value":"5"}]}]}`
	if string(got) != want {
		t.Errorf("View JSON =\n%s\nwant\n%s", got, want)
	}
	_, err = s.WireView(md, []byte{0x0b, 0x08, 0x05, 0x14})
	got, _ = json.Marshal(AsError(err))
	if want := `{"kind":"payload","message":"EGROUP for field 2 does not close the group of field 1","offset":3,"path":"probe"}`; string(got) != want {
		t.Errorf("Error JSON = %s, want %s", got, want)
	}
}

// TestSample pins the sample of a small type and checks determinism.
func TestSample(t *testing.T) {
	s := testSchema(t, "wire.proto")
	md := mustFind(t, s, "pp.wire.Item")
	a, err := s.FormatValue(Sample(md), JSON)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := s.FormatValue(Sample(md), JSON)
	if a != b {
		t.Fatal("Sample is not deterministic")
	}
	path := filepath.Join("testdata", "golden", "sample_item.json")
	if *update {
		os.WriteFile(path, []byte(a), 0o644)
	}
	want, err := os.ReadFile(path)
	if err != nil || a != string(want) {
		t.Errorf("sample of pp.wire.Item differs from %s (go test -update rewrites it); got:\n%s", path, a)
	}
	// Every field of a oneof-free type is set; only the first oneof case.
	m := Sample(mustFind(t, testSchema(t, "23_unsafe_unmarshal_empty_strings.proto"), "bugcorpus.c23.Labels"))
	var set []string
	m.Range(func(fd protoreflect.FieldDescriptor, _ protoreflect.Value) bool {
		set = append(set, string(fd.Name()))
		return true
	})
	sort.Strings(set)
	if strings.Join(set, ",") != "by_key,name,tags" {
		t.Errorf("Labels sample sets %v, want by_key,name,tags", set)
	}
}

// TestChecksTestdata runs the checks on every schema in testdata, so they
// run without the shared corpus too.
func TestChecksTestdata(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.proto"))
	for _, f := range files {
		s := testSchema(t, filepath.Base(f))
		for _, r := range s.Check() {
			if !r.Pass {
				t.Errorf("%s: %s: step %s at %q: %s", filepath.Base(f), r.Type, r.Step, r.Path, r.Message)
			}
		}
	}
}

func TestFirstDifference(t *testing.T) {
	s := testSchema(t, "wire.proto")
	md := mustFind(t, s, "pp.wire.Item")
	parse := func(j string) protoreflect.ProtoMessage {
		m, err := s.ParseValue(md, []byte(j), JSON)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	cases := []struct{ a, b, path string }{
		{`{"counts": {"a": "1", "b": "2"}}`, `{"counts": {"a": "1", "b": "3"}}`, `counts["b"]`},
		{`{"child": {"deltas": [1, 2]}}`, `{"child": {"deltas": [1]}}`, `child.deltas[1]`},
		{`{"child": {"extra": {"flag": true}}}`, `{"child": {"extra": {}}}`, `child.extra.flag`},
		{`{"[pp.wire.note]": "x"}`, `{}`, `[pp.wire.note]`},
		{`{"ratio": 0.5}`, `{"ratio": 0.5}`, ``},
	}
	for _, c := range cases {
		p, ok := FirstDifference(parse(c.a), parse(c.b))
		if p != c.path || ok != (c.path == "") {
			t.Errorf("FirstDifference(%s, %s) = %q, %v; want %q", c.a, c.b, p, ok, c.path)
		}
	}
}

// TestWireTypeName checks the spec's names for the six wire types and the
// "wire type N" form for everything else, out-of-byte values included.
func TestWireTypeName(t *testing.T) {
	want := map[int]string{
		0: "VARINT", 1: "I64", 2: "LEN", 3: "SGROUP", 4: "EGROUP", 5: "I32",
		6: "wire type 6", 7: "wire type 7", -1: "wire type -1", 256: "wire type 256",
	}
	for wt, name := range want {
		if got := WireTypeName(wt); got != name {
			t.Errorf("WireTypeName(%d) = %q, want %q", wt, got, name)
		}
	}
}

// TestParseBinaryTextSize: MaxInputBytes bounds the payload, not its text:
// hex of a 5 MiB payload (10 MiB of text; the npm package sends bytes to
// the core as hex) is read; a payload over the limit is refused whatever
// its form, and text over MaxTextInputBytes before it is parsed.
func TestParseBinaryTextSize(t *testing.T) {
	payload := bytes.Repeat([]byte{0x08, 0x01}, 5<<19) // 5 MiB
	hexText, _ := FormatBinary(payload, Hex)           // "08 01 ...": 15 MiB
	for _, in := range [][]byte{[]byte(strings.ReplaceAll(string(hexText), " ", "")), hexText} {
		b, enc, err := ParseBinary(in, Auto)
		if err != nil || enc != Hex || len(b) != len(payload) {
			t.Errorf("hex text of %d bytes: %d bytes, %s, %v", len(in), len(b), enc, err)
		}
	}
	over := bytes.Repeat([]byte("0801"), MaxInputBytes/2+1)
	if _, _, err := ParseBinary(over, Hex); AsError(err) == nil || AsError(err).Limit != "MaxInputBytes" {
		t.Errorf("hex of a payload over MaxInputBytes: %v", err)
	}
	if _, _, err := ParseBinary(make([]byte, MaxTextInputBytes+1), Auto); AsError(err) == nil || AsError(err).Limit != "MaxInputBytes" || !strings.Contains(err.Error(), "of text") {
		t.Errorf("text over MaxTextInputBytes: %v", err)
	}
}
