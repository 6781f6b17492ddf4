package casetest

import (
	"bytes"
	"errors"
	"testing"

	c90 "gentest/example.com/bugcorpus/c90"
	c91 "gentest/example.com/bugcorpus/c91"

	"github.com/protoplay/protoplay/runtime/wire"
)

// c90Nest wraps inner in levels levels of Deep: through field child (LEN),
// group (a DELIMITED group) or kids (a map value, key 1).
func c90Nest(how string, levels int, inner []byte) []byte {
	b := inner
	for range levels {
		switch how {
		case "child":
			b = wire.AppendBytes(wire.AppendTag(nil, 1, wire.BytesType), b)
		case "group":
			g := wire.AppendTag(nil, 2, wire.StartGroupType)
			g = append(g, b...)
			b = wire.AppendTag(g, 2, wire.EndGroupType)
		case "kids":
			entry := []byte{0x08, 0x01}
			entry = wire.AppendBytes(wire.AppendTag(entry, 2, wire.BytesType), b)
			b = wire.AppendBytes(wire.AppendTag(nil, 3, wire.BytesType), entry)
		}
	}
	return b
}

// c90UnknownGroups is levels nested groups of the unknown field 100.
func c90UnknownGroups(levels int) []byte {
	start, end := wire.AppendTag(nil, 100, wire.StartGroupType), wire.AppendTag(nil, 100, wire.EndGroupType)
	return append(bytes.Repeat(start, levels), bytes.Repeat(end, levels)...)
}

// c90Depths are payloads with their nesting depth, the top-level message
// being level 1: 99, 100 and 101 levels through each kind of nesting.
func c90Depths() []struct {
	name   string
	levels int
	in     []byte
} {
	id := []byte{0x20, 0x07}
	keyOnly := []byte{0x1a, 0x02, 0x08, 0x01} // a map entry with no value
	type depthCase = struct {
		name   string
		levels int
		in     []byte
	}
	return []depthCase{
		{"child", 99, c90Nest("child", 98, id)},
		{"child", 100, c90Nest("child", 99, id)},
		{"child", 101, c90Nest("child", 100, id)},
		{"group", 99, c90Nest("group", 98, id)},
		{"group", 100, c90Nest("group", 99, id)},
		{"group", 101, c90Nest("group", 100, id)},
		// Each map level is two: the entry and its value.
		{"kids", 99, c90Nest("kids", 49, id)},
		{"kids then child", 100, c90Nest("kids", 49, c90Nest("child", 1, id))},
		{"kids", 101, c90Nest("kids", 50, id)},
		{"entry without value", 100, c90Nest("child", 98, keyOnly)},
		{"entry without value", 101, c90Nest("child", 99, keyOnly)},
	}
}

func TestC90DepthBoundaries(t *testing.T) {
	for _, tc := range c90Depths() {
		err := new(c90.Deep).Unmarshal(tc.in)
		if tc.levels <= wire.DefaultMaxDepth && err != nil {
			t.Errorf("%s, %d levels: %v, want success", tc.name, tc.levels, err)
		}
		if tc.levels > wire.DefaultMaxDepth && !errors.Is(err, wire.ErrDepth) {
			t.Errorf("%s, %d levels: %v, want ErrDepth", tc.name, tc.levels, err)
		}
	}
	// A decoded deepest message keeps its value.
	var m c90.Deep
	if err := m.Unmarshal(c90Nest("kids", 49, c90Nest("child", 1, []byte{0x20, 0x07}))); err != nil {
		t.Fatal(err)
	}
	p := &m
	for range 49 {
		p = p.Kids[1]
	}
	if p.GetChild().GetId() != 7 {
		t.Errorf("innermost id = %d", p.GetChild().GetId())
	}
}

func TestC90UnknownGroupDepth(t *testing.T) {
	lim := wire.MaxUnknownGroupDepth
	for _, levels := range []int{lim - 1, lim, lim + 1} {
		groups := c90UnknownGroups(levels)
		if levels == lim && len(groups) != 400 {
			t.Fatalf("%d groups are %d bytes", levels, len(groups))
		}
		// At the top, inside the deepest message allowed (through each
		// kind of nesting), and inside a map entry.
		ins := map[string][]byte{
			"top":        groups,
			"deep child": c90Nest("child", wire.DefaultMaxDepth-1, groups),
			"deep group": c90Nest("group", wire.DefaultMaxDepth-1, groups),
			"deep kids":  c90Nest("kids", 49, c90Nest("child", 1, groups)),
			"map entry":  wire.AppendBytes(wire.AppendTag(nil, 3, wire.BytesType), append([]byte{0x08, 0x01}, groups...)),
		}
		for name, in := range ins {
			var m c90.Deep
			err := m.Unmarshal(in)
			if levels <= lim && err != nil {
				t.Errorf("%s: %d nested unknown groups: %v, want success", name, levels, err)
			}
			if levels > lim && !errors.Is(err, wire.ErrDepth) {
				t.Errorf("%s: %d nested unknown groups: %v, want ErrDepth", name, levels, err)
			}
			if levels <= lim && name == "top" {
				// Kept as unknown fields and written back as they came.
				if out, err := m.Marshal(); err != nil || !bytes.Equal(out, in) {
					t.Errorf("re-encoded %d groups: %x, %v", levels, out, err)
				}
			}
		}
	}
}

func TestC90OverlongTags(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		offset   int
		path     string
	}{
		{"9-byte tag of field 1 (the issue's input)", "88 80 80 80 80 80 80 80 00 d2 09", 0, ""},
		{"6-byte tag of id", "a0 80 80 80 80 00 07", 0, ""},
		{"10-byte tag of id", "a0 80 80 80 80 80 80 80 80 00 07", 0, ""},
		{"overlong after a good field", "20 01 a0 80 80 80 80 80 00 07", 2, ""},
		{"overlong inside child", "0a 07 a0 80 80 80 80 00 07", 2, "child"},
		{"overlong inside group", "13 a0 80 80 80 80 00 07 14", 1, "group"},
		{"overlong END_GROUP tag", "13 94 80 80 80 80 00", 1, "group"},
		{"overlong key tag in a map entry", "1a 09 88 80 80 80 80 00 01 12 00", 2, ""},
		{"overlong unknown field tag", "f8 ff ff ff 8f 00 01", 0, ""},
		{"5 continuation bytes at the end", "20 01 a0 80 80 80 80", 2, ""},
	} {
		var m c90.Deep
		err := m.Unmarshal(unhex(t, tc.in))
		var we *wire.Error
		if !errors.Is(err, wire.ErrTagOverlong) || !errors.As(err, &we) || we.Offset != tc.offset || we.Path != tc.path {
			t.Errorf("%s: %s: got %v, want ErrTagOverlong at byte %d path %q", tc.name, tc.in, err, tc.offset, tc.path)
		}
	}
	// Tags of up to 5 bytes are fine, minimal or not.
	for _, tc := range []struct{ name, in, want string }{
		{"5-byte tag of id", "a0 80 80 80 00 07", "20 07"},
		{"2-byte tag of id", "a0 00 07", "20 07"},
		{"5-byte tag of field 2^29-1 (unknown)", "f8 ff ff ff 0f 01", "f8 ff ff ff 0f 01"},
		{"5-byte tag inside a map entry", "1a 08 88 80 80 80 00 01 12 00", "1a 04 08 01 12 00"},
	} {
		var m c90.Deep
		if err := m.Unmarshal(unhex(t, tc.in)); err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if out, _ := m.Marshal(); !bytes.Equal(out, unhex(t, tc.want)) {
			t.Errorf("%s: re-encoded %x, want %s", tc.name, out, tc.want)
		}
	}
}

func TestC91TwoByteTags(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"80 01 05", "80 01 05"},
		{"f8 7f 02", "f8 7f 02"},
		{"82 80 01 00", ""},
		{"88 00 07", "08 07"},
		{"88 01 05", "88 01 05"},
		{"8a 01 02 c3 28", "8a 01 02 c3 28"},
		{"92 01 02 68 69", "92 01 02 68 69"},
		{"1a 06 8a 00 01 61 10 07", "1a 05 0a 01 61 10 07"},
		{"1a 04 18 01 10 07", "1a 04 0a 00 10 07"},
	} {
		roundTrip(t, &c91.Two{}, c.in, c.want)
	}
	var m c91.Two
	if err := m.Unmarshal(unhex(t, "80 01 05 f8 7f 02 92 01 02 68 69 88 00 07")); err != nil || m.S16 != 5 || m.Z != 1 || m.S != "hi" || m.A != 7 {
		t.Errorf("fields: %v, %+v", err, &m)
	}
	for _, c := range []struct {
		in  string
		err error
	}{
		{"92 01 02 c3 28", wire.ErrUTF8},
		{"80", wire.ErrTruncated},
		{"80 01", wire.ErrTruncated},
		{"86 01 00", wire.ErrWireType},
		{"84 01", wire.ErrWireType},
		{"1a 02 0f 00", wire.ErrWireType},
		{"1a 02 00 01", wire.ErrFieldNumber},
		{"1a 01 80", wire.ErrTruncated},
		{"1a 04 0a 01 61 98", wire.ErrTruncated},
	} {
		if err := new(c91.Two).Unmarshal(unhex(t, c.in)); !errors.Is(err, c.err) {
			t.Errorf("%s: %v, want %v", c.in, err, c.err)
		}
	}
}
