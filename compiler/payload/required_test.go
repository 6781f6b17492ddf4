package payload

import (
	"strings"
	"testing"

	"github.com/protoplay/protoplay/compiler/diag"
)

// Required fields are enforced whatever the descriptor behind them: a
// proto2 `required` field, and an editions LEGACY_REQUIRED field in a file
// that NewSchema cannot rebuild with protodesc (here because it has a
// MessageSet message), where protocompile's descriptor leaves the field
// out of RequiredNumbers and google.golang.org/protobuf's own check sees
// nothing. Found on test_messages_proto2_editions.proto, where an empty
// payload for TestAllRequiredTypesProto2 decoded to {}.
func TestRequiredFieldsEnforced(t *testing.T) {
	const body = `
message Set {
  option message_set_wire_format = true;
  extensions 4 to max;
}
message R {
  %s int32 x = 1%s;
  R child = 2;
  %s R kids = 3;
  map<string, R> by = 4;
}
`
	schemas := map[string]string{
		"proto2": `syntax = "proto2";
package t;
` + strings.NewReplacer("%s int32 x = 1%s", "required int32 x = 1", "R child", "optional R child", "%s R kids", "repeated R kids").Replace(body),
		"editions": `edition = "2023";
package t;
` + strings.NewReplacer("%s int32 x = 1%s", "int32 x = 1 [features.field_presence = LEGACY_REQUIRED]", "%s R kids", "repeated R kids").Replace(body),
	}
	for name, src := range schemas {
		s := compileSource(t, src)
		md, err := s.FindMessage("t.R")
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			json string
			hex  string // the same value in binary
			path string // the field whose required x is missing, and where
		}{
			{`{}`, ``, "t.R.x not set"},
			{`{"x": 1, "child": {}}`, `08 01 12 00`, "t.R.x not set (in child)"},
			{`{"x": 1, "kids": [{"x": 2}, {}]}`, `08 01 1a 02 08 02 1a 00`, "t.R.x not set (in kids[1])"},
			{`{"x": 1, "by": {"k": {}}}`, `08 01 22 05 0a 01 6b 12 00`, `t.R.x not set (in by["k"])`},
			{`{"x": 1, "child": {"x": 2, "kids": [{}]}}`, `08 01 12 04 08 02 1a 00`, "t.R.x not set (in child.kids[0])"},
		} {
			if _, err := s.Encode(md, []byte(tc.json), EncodeOptions{}); err == nil || !strings.Contains(err.Error(), "required field "+tc.path) || err.(*diag.Error).Kind != diag.KindValue {
				t.Errorf("%s: encode %s: %v, want a value error naming %s", name, tc.json, err, tc.path)
			}
			b, _, err := ParseBinary([]byte(tc.hex), Hex)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Decode(md, b, DecodeOptions{In: Binary}); err == nil || !strings.Contains(err.Error(), "required field "+tc.path) {
				t.Errorf("%s: decode %q: %v, want a value error naming %s", name, tc.hex, err, tc.path)
			}
		}
		// Complete values pass.
		if _, err := s.Encode(md, []byte(`{"x": 1, "child": {"x": 2}, "kids": [{"x": 3}], "by": {"k": {"x": 4}}}`), EncodeOptions{}); err != nil {
			t.Errorf("%s: complete value rejected: %v", name, err)
		}
	}
}
