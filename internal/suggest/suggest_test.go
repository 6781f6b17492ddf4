package suggest

import (
	"slices"
	"strings"
	"testing"
)

func TestDistance(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"name", "name", 0},
		{"nmae", "name", 1}, {"strin", "string", 1}, {"int23", "int32", 1}, {"ab", "ba", 1}, {"abc", "ca", 3},
		{"kitten", "sitting", 3},
		{strings.Repeat("a", 300), strings.Repeat("a", 300), 0},
		{strings.Repeat("a", 300), strings.Repeat("a", 299) + "b", 300},
	}
	for _, c := range cases {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%.10q, %.10q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestClosest(t *testing.T) {
	scalars := []string{"double", "float", "int32", "int64", "uint32", "uint64", "sint32", "sint64",
		"fixed32", "fixed64", "sfixed32", "sfixed64", "bool", "string", "bytes"}
	cases := []struct {
		name string
		cand []string
		n    int
		want []string
	}{
		{"strin", scalars, 3, []string{"string"}},
		{"int23", scalars, 3, []string{"int32"}},        // a swap is one edit
		{"unit64", scalars, 3, []string{"uint64"}},      // likewise
		{"String", scalars, 3, []string{"string"}},      // case is ignored
		{"zzzzzzzz", scalars, 3, nil},                   // nonsense gets nothing
		{"int", scalars, 3, []string{"int32", "int64"}}, // both 2 away, the limit for 3 bytes
		{"hidden", []string{"item"}, 3, nil},            // 4 edits of 6 is not a typo
		{"nmae", []string{"name", "id", "kind"}, 3, []string{"name"}},
		{"ID", []string{"id", "kind", "id"}, 3, []string{"id"}},
		{"fixd32", []string{"fixed32", "fixed64", "bool"}, 1, []string{"fixed32"}},
		{"fixd", []string{"fixed", "fixes", "bool"}, 1, []string{"fixed"}}, // at most n
		{"a", []string{"a", "b"}, 3, []string{"b"}},                        // the name itself is not offered
	}
	for _, c := range cases {
		got := Closest(c.name, c.cand, c.n)
		if !slices.Equal(got, c.want) {
			t.Errorf("Closest(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}
