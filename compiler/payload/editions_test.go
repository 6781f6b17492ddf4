package payload

import (
	"github.com/protoplay/protoplay/compiler/diag"
	"strings"
	"testing"
)

const editionsChecks = `edition = "2023";
package p;
message L {
  int32 a = 1 [features.field_presence = LEGACY_REQUIRED];
  string s = 2;
  string loose = 3 [features.utf8_validation = NONE];
  map<string, string> tags = 4;
  map<string, string> loose_tags = 5 [features.utf8_validation = NONE];
}
message Outer {
  L l = 1;
}
`

// Editions features decide what a payload may hold, as they do for
// google.golang.org/protobuf with protoc-gen-go types: a missing
// LEGACY_REQUIRED field and invalid UTF-8 in a VERIFY string (the default)
// are errors; utf8_validation = NONE allows any bytes. protocompile's own
// descriptors hide both from protobuf-go's codecs, so Decode accepted
// every payload below before NewSchema rebuilt them.
func TestEditionsFeaturesDecide(t *testing.T) {
	s := compileSource(t, editionsChecks)
	for _, c := range []struct {
		typ, in, err string
	}{
		{"p.L", "", "required field p.L.a not set"},
		{"p.Outer", "0a 00", "required field p.L.a not set"},
		{"p.Outer", "0a 02 08 01 0a 02 12 00", ""}, // l in two pieces: merged, then checked
		{"p.L", "08 01 12 01 ff", "field p.L.s contains invalid UTF-8"},
		{"p.L", "08 01 22 03 0a 01 ff", "invalid UTF-8"},
		{"p.L", "08 01 1a 01 ff", ""},
		{"p.L", "08 01 2a 06 0a 01 ff 12 01 ff", ""},
	} {
		md := mustFind(t, s, c.typ)
		// Text output: JSON cannot show the accepted invalid bytes.
		_, err := s.Decode(md, []byte(c.in), DecodeOptions{In: Hex, Out: Text})
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err) || AsError(err).Kind != diag.KindValue) {
			t.Errorf("Decode(%s, %s) = %v, want error %q", c.typ, c.in, err, c.err)
		}
	}
	// Encoding checks the same features.
	md := mustFind(t, s, "p.L")
	if _, err := s.Encode(md, []byte(`{"s": "x"}`), EncodeOptions{In: JSON, Out: Hex}); err == nil || !strings.Contains(err.Error(), "required field p.L.a not set") {
		t.Errorf("Encode without a: %v", err)
	}
	if _, err := s.Encode(md, []byte(`a: 1 loose: "\xff"`), EncodeOptions{In: Text, Out: Hex}); err != nil {
		t.Errorf("Encode with invalid UTF-8 in an unchecked field: %v", err)
	}
	// A descriptor from the compile result works as well as the schema's.
	if got := s.resolve(md); got != md || s.Messages()[0] != md {
		t.Errorf("FindMessage and Messages give the schema's own descriptors")
	}
}

// JSON cannot hold invalid UTF-8 that the schema allows: Decode with JSON
// output says the payload is valid and what to use instead.
func TestDecodeJSONInvalidUTF8(t *testing.T) {
	s := compileSource(t, editionsChecks)
	md := mustFind(t, s, "p.L")
	_, err := s.Decode(md, []byte("08 01 1a 01 ff"), DecodeOptions{In: Hex, Out: JSON})
	if err == nil || !strings.Contains(err.Error(), "JSON cannot represent it: use text or wire output") {
		t.Errorf("Decode to JSON = %v", err)
	}
	out, err := s.Decode(md, []byte("08 01 1a 01 ff"), DecodeOptions{In: Hex, Out: Text})
	if err != nil || !strings.Contains(out.Messages[0], `loose: "\xff"`) {
		t.Errorf("Decode to text = %v, %v", out, err)
	}
}
