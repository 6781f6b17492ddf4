package protojson

import "testing"

// TestIndentedLen: Marshal sizes the multiline form with indentedLen
// before appendIndented writes it; the two agree on every shape of
// compact JSON (empty and nested objects and arrays, strings with escaped
// quotes and the structural characters inside them), for each indent.
func TestIndentedLen(t *testing.T) {
	for _, src := range []string{
		``,
		`{}`,
		`[]`,
		`{"a":1}`,
		`{"a":[1,2,3],"b":{},"c":[],"d":{"e":{"f":[{}]}}}`,
		`{"q\"{[,:":"x\\","r":"]}"}`,
		`[[[[1]]],[{"a":"b"},{}]]`,
	} {
		for _, indent := range []string{" ", "  ", "\t", "    "} {
			got := indentedLen([]byte(src), len(indent))
			want := len(appendIndented(nil, []byte(src), indent))
			if got != want {
				t.Errorf("indentedLen(%q, %d) = %d, appendIndented wrote %d", src, len(indent), got, want)
			}
		}
	}
}
