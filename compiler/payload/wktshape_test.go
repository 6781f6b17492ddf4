package payload

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestOwnWellKnownFile: a schema that brings its own google/protobuf/
// any.proto or timestamp.proto with other fields has them written and read
// as ordinary messages by JSON, text and the wire view alike (the hostile
// pass saw the wire view use the schema's Any, JSON and text the standard
// one: its field dropped, a type URL written into an int32). The standard
// files keep their own forms.
func TestOwnWellKnownFile(t *testing.T) {
	fsys := fstest.MapFS{
		"google/protobuf/any.proto":       {Data: []byte("syntax = \"proto3\";\npackage google.protobuf;\nmessage Any { int32 evil = 1; }\n")},
		"google/protobuf/timestamp.proto": {Data: []byte("syntax = \"proto3\";\npackage google.protobuf;\nmessage Timestamp { string when = 1; }\n")},
		"u.proto": {Data: []byte("syntax = \"proto3\";\npackage u;\nimport \"google/protobuf/any.proto\";\nimport \"google/protobuf/timestamp.proto\";\n" +
			"message U { google.protobuf.Any a = 1; google.protobuf.Timestamp t = 2; }\n")},
	}
	s := compileFS(t, fsys, []string{"."}, "u.proto")
	md := mustFind(t, s, "u.U")
	in := []byte("\x0a\x02\x08\x01\x12\x03\x0a\x01x") // a {evil: 1} t {when: "x"}
	for f, want := range map[Format]string{JSON: `{"a":{"evil":1},"t":{"when":"x"}}`, Text: `a:{evil:1}t:{when:"x"}`} {
		d, err := s.Decode(md, in, DecodeOptions{In: Binary, Out: f})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if got := strings.Join(strings.Fields(d.Messages[0]), ""); got != want {
			t.Errorf("%s: %s, want %s", f, got, want)
		}
		back, err := s.Encode(md, []byte(d.Messages[0]), EncodeOptions{In: f})
		if err != nil || string(back) != string(in) {
			t.Errorf("%s back: %x, %v; want %x", f, back, err, in)
		}
	}
	std := compileSource(t, "syntax = \"proto3\";\npackage v;\nimport \"google/protobuf/timestamp.proto\";\nmessage V { google.protobuf.Timestamp t = 1; }\n")
	d, err := std.Decode(mustFind(t, std, "v.V"), []byte("\x0a\x02\x08\x01"), DecodeOptions{In: Binary, Out: JSON})
	if err != nil || !strings.Contains(d.Messages[0], `"1970-01-01T00:00:01Z"`) {
		t.Errorf("the standard Timestamp: %v, %v", d, err)
	}
}
