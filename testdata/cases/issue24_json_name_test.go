package casetest

// Issue 24, kind 2: schema text is escaped on its way into JSON (case 52).

import (
	"encoding/json"
	"testing"

	b52 "gentest/example.com/bughunt/b52"

	"github.com/protoplay/protoplay/runtime/protojson"
)

// Case 52: json_names holding '"', '\\', a newline and a control character
// are escaped as protojson escapes them, read back, and valid for
// encoding/json; proto names (UseProtoNames) stay plain.
func TestCase52JSONNameEscaping(t *testing.T) {
	m := &b52.M{Q: 1, N: 2, C: 3, U: 4}
	// protojson.Marshal of the same value (protobuf-go v1.36.12): DEL and
	// U+2028 are kept as they are.
	want := "{\"a\\\"b\\\\c\":1,\"x\\ny\":2,\"t\\u0001\":3,\"é\x7f\u2028\\t/\":4}"
	got, err := m.MarshalJSON()
	if err != nil || string(got) != want {
		t.Fatalf("MarshalJSON = %s, %v\nwant %s", got, err, want)
	}
	if !json.Valid(got) {
		t.Errorf("MarshalJSON output is not valid JSON: %s", got)
	}
	var back b52.M
	if err := back.UnmarshalJSON(got); err != nil || !back.Equal(m) {
		t.Errorf("UnmarshalJSON(%s) = %v, %v; want %v", got, err, &back, m)
	}
	if _, err := json.Marshal(map[string]any{"m": m}); err != nil {
		t.Errorf("encoding/json of a value holding the message: %v", err)
	}
	wantJSON(t, m, protojson.MarshalOptions{UseProtoNames: true}, `{"q":1,"n":2,"c":3,"u":4}`)
}
