package casetest

import (
	"errors"
	"testing"

	b32kinds "gentest/example.com/bughunt/b32/kinds"

	"github.com/protoplay/protoplay/runtime/wire"
)

// wantAt wants err to be a *wire.Error wrapping sentinel at the given input
// offset (-1: none) and field path.
func wantAt(t *testing.T, what string, err, sentinel error, offset int, path string) {
	t.Helper()
	var we *wire.Error
	if !errors.As(err, &we) || !errors.Is(err, sentinel) || we.Offset != offset || we.Path != path {
		t.Errorf("%s: got %v, want %v at byte %d, path %q", what, err, sentinel, offset, path)
	}
}

// Issue 12, error paths: an error inside a map value names the entry by its
// key ("by_id[5]", as runtime/wire's docs promise), in Unmarshal as in
// Marshal and CheckInitialized, wherever the key comes in the entry; the
// offset stays the bad value's. Map keys of kind int32, bool and string.
func TestMapValueErrorPaths(t *testing.T) {
	for _, c := range []struct {
		what, in string
		want     error
		offset   int
		path     string
	}{
		// by_id = 6, entry {key: 5, value: Leaf{s: "\xff"}}; the bad string's
		// length starts at byte 7 (key first) or byte 5 (value first).
		{"int32 key before the value", "32 07 08 05 12 03 1a 01 ff", wire.ErrUTF8, 7, "by_id[5]"},
		{"int32 key after the value", "32 07 12 03 1a 01 ff 08 05", wire.ErrUTF8, 5, "by_id[5]"},
		{"no key: the zero key", "32 05 12 03 1a 01 ff", wire.ErrUTF8, 5, "by_id[0]"},
		{"last of two keys", "32 09 08 01 12 03 1a 01 ff 08 02", wire.ErrUTF8, 7, "by_id[2]"},
		{"bool key", "3a 07 08 01 12 03 1a 01 ff", wire.ErrUTF8, 7, "by_flag[true]"},
		// plain = 10 holds by_name = 3 {"k": Plain{x: truncated varint}}.
		{"string key, nested", "52 09 1a 07 0a 01 6b 12 02 10 80", wire.ErrTruncated, 10, `plain.by_name["k"]`},
		{"string key after the value, nested", "52 09 1a 07 12 02 10 80 0a 01 6b", wire.ErrTruncated, 7, `plain.by_name["k"]`},
	} {
		var m b32kinds.Node
		wantAt(t, c.what, m.Unmarshal(unhex(t, c.in)), c.want, c.offset, c.path)
	}

	// A map entry is a level of nesting: past the depth limit the error is
	// at the entry's contents, with its key, for scalar and message values.
	wantAt(t, "tags at depth 1", new(b32kinds.Node).UnmarshalDepth(unhex(t, "5a 06 0a 01 6b 12 01 76"), 1), wire.ErrDepth, 2, `tags["k"]`)
	wantAt(t, "by_id at depth 1", new(b32kinds.Node).UnmarshalDepth(unhex(t, "32 04 08 05 12 00"), 1), wire.ErrDepth, 2, "by_id[5]")
	// At depth 2 the entry fits but its value message does not.
	wantAt(t, "by_id value at depth 2", new(b32kinds.Node).UnmarshalDepth(unhex(t, "32 04 08 05 12 00"), 2), wire.ErrDepth, 6, "by_id[5]")
	if err := new(b32kinds.Node).UnmarshalDepth(unhex(t, "32 08 08 05 12 04 08 01 10 02"), 3); err != nil {
		t.Errorf("by_id at depth 3: %v", err)
	}
}

// The same bad value gets the same path from Marshal, Unmarshal and
// CheckInitialized: map values by key, list elements by index, singular
// fields and oneof members by name.
func TestErrorPathsAgree(t *testing.T) {
	bad := "\xff"
	ok := func() *b32kinds.Leaf { return &b32kinds.Leaf{A: ptr[int32](1), B: ptr[int32](2)} }
	for _, c := range []struct {
		path       string
		incomplete *b32kinds.Node // lacks Leaf.b at path
		badUTF8    *b32kinds.Node // holds invalid UTF-8 in Leaf.s at path
		encoded    string         // the wire form of badUTF8
	}{
		{"by_id[-1]",
			&b32kinds.Node{ById: map[int32]*b32kinds.Leaf{7: ok(), -1: {A: ptr[int32](1)}}},
			&b32kinds.Node{ById: map[int32]*b32kinds.Leaf{-1: {A: ptr[int32](1), B: ptr[int32](2), S: ptr(bad)}}},
			"32 14 08 ff ff ff ff ff ff ff ff ff 01 12 07 08 01 10 02 1a 01 ff"},
		{"by_flag[false]",
			&b32kinds.Node{ByFlag: map[bool]*b32kinds.Leaf{false: {A: ptr[int32](1)}}},
			&b32kinds.Node{ByFlag: map[bool]*b32kinds.Leaf{false: {A: ptr[int32](1), B: ptr[int32](2), S: ptr(bad)}}},
			"3a 0b 08 00 12 07 08 01 10 02 1a 01 ff"},
		{"child.leaves[1]",
			&b32kinds.Node{Child: &b32kinds.Node{Leaves: []*b32kinds.Leaf{ok(), {A: ptr[int32](1)}}}},
			&b32kinds.Node{Child: &b32kinds.Node{Leaves: []*b32kinds.Leaf{ok(), {A: ptr[int32](1), B: ptr[int32](2), S: ptr(bad)}}}},
			"0a 0f 1a 04 08 01 10 02 1a 07 08 01 10 02 1a 01 ff"},
		{"one",
			&b32kinds.Node{Pick: &b32kinds.Node_One{One: &b32kinds.Leaf{A: ptr[int32](1)}}},
			&b32kinds.Node{Pick: &b32kinds.Node_One{One: &b32kinds.Leaf{A: ptr[int32](1), B: ptr[int32](2), S: ptr(bad)}}},
			"42 07 08 01 10 02 1a 01 ff"},
	} {
		_, err := c.incomplete.Marshal()
		wantAt(t, c.path+" Marshal", err, wire.ErrRequired, -1, c.path)
		wantAt(t, c.path+" CheckInitialized", c.incomplete.CheckInitialized(), wire.ErrRequired, -1, c.path)
		_, err = c.badUTF8.Marshal()
		wantAt(t, c.path+" Marshal UTF-8", err, wire.ErrUTF8, -1, c.path)
		var m b32kinds.Node
		err = m.Unmarshal(unhex(t, c.encoded))
		var we *wire.Error
		if !errors.As(err, &we) || !errors.Is(err, wire.ErrUTF8) || we.Path != c.path {
			t.Errorf("%s Unmarshal UTF-8: got %v, want ErrUTF8 at path %q", c.path, err, c.path)
		}
	}
	var m b32kinds.Node
	wantAt(t, "by_id incomplete Unmarshal", m.Unmarshal(unhex(t, "32 06 08 05 12 02 08 01")), wire.ErrRequired, -1, "by_id[5]")
	wantAt(t, "leaves incomplete Unmarshal", m.Unmarshal(unhex(t, "1a 04 08 01 10 02 1a 02 08 01")), wire.ErrRequired, -1, "leaves[1]")
}
