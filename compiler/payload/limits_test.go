package payload

import (
	"bytes"
	"github.com/protoplay/protoplay/compiler/diag"
	"math/rand/v2"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/dynamicpb"
)

// nest90 wraps inner in levels levels of bugcorpus.c90.Deep: through field
// child (LEN), group (a DELIMITED group) or kids (a map value, key 1).
func nest90(how string, levels int, inner []byte) []byte {
	b := inner
	for range levels {
		switch how {
		case "child":
			b = protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), b)
		case "group":
			g := append(protowire.AppendTag(nil, 2, protowire.StartGroupType), b...)
			b = protowire.AppendTag(g, 2, protowire.EndGroupType)
		case "kids":
			entry := protowire.AppendBytes(protowire.AppendTag([]byte{0x08, 0x01}, 2, protowire.BytesType), b)
			b = protowire.AppendBytes(protowire.AppendTag(nil, 3, protowire.BytesType), entry)
		}
	}
	return b
}

func unknownGroups(levels int) []byte {
	start, end := protowire.AppendTag(nil, 100, protowire.StartGroupType), protowire.AppendTag(nil, 100, protowire.EndGroupType)
	return append(bytes.Repeat(start, levels), bytes.Repeat(end, levels)...)
}

// decodeAll runs b through every binary entry point against md and checks
// that they agree: Unmarshal, Decode, WireView and wellFormed. It returns
// Unmarshal's error.
func decodeAll(t *testing.T, s *Schema, name string, b []byte) *diag.Error {
	t.Helper()
	md := mustFind(t, s, "bugcorpus.c90.Deep")
	_, uerr := s.Unmarshal(md, b)
	_, derr := s.Decode(md, []byte(FormatBinaryString(b)), DecodeOptions{In: Hex})
	v, werr := s.WireView(md, b)
	if (uerr == nil) != (derr == nil) || (uerr == nil) != (werr == nil) || (v.Error == nil) != (werr == nil) {
		t.Fatalf("%s: Unmarshal %v, Decode %v, WireView %v disagree", name, uerr, derr, werr)
	}
	if ok := s.wellFormed(md, b); ok != (werr == nil) {
		t.Fatalf("%s: wellFormed %v, WireView %v", name, ok, werr)
	}
	if uerr != nil {
		e := AsError(uerr)
		if w := AsError(werr); e.Offset != w.Offset || e.Message != w.Message {
			t.Fatalf("%s: Unmarshal %v, WireView %v", name, e, w)
		}
		return e
	}
	return nil
}

func FormatBinaryString(b []byte) string {
	s, _ := FormatBinary(b, Hex)
	return string(s)
}

// refAccepts reports whether google.golang.org/protobuf (dynamicpb,
// RecursionLimit MaxDepth) reads b as bugcorpus.c90.Deep.
func refAccepts(t *testing.T, s *Schema, b []byte) bool {
	md := mustFind(t, s, "bugcorpus.c90.Deep")
	return proto.UnmarshalOptions{RecursionLimit: MaxDepth}.Unmarshal(b, dynamicpb.NewMessage(md)) == nil
}

// TestDepthBoundaries: 99, 100 and 101 levels of nesting (the top-level
// message is level 1) through message fields, groups and map values (two
// levels each: the entry and its value) and a map entry with no value. Up
// to MaxDepth is accepted, one more is diag.KindLimit, exactly as
// google.golang.org/protobuf with RecursionLimit MaxDepth decides.
func TestDepthBoundaries(t *testing.T) {
	s := testSchema(t, "90_wire_limits.proto")
	id := []byte{0x20, 0x07}
	keyOnly := []byte{0x1a, 0x02, 0x08, 0x01}
	for _, tc := range []struct {
		name   string
		levels int
		in     []byte
	}{
		{"child", 99, nest90("child", 98, id)},
		{"child", 100, nest90("child", 99, id)},
		{"child", 101, nest90("child", 100, id)},
		{"group", 99, nest90("group", 98, id)},
		{"group", 100, nest90("group", 99, id)},
		{"group", 101, nest90("group", 100, id)},
		{"kids", 99, nest90("kids", 49, id)},
		{"kids then child", 100, nest90("kids", 49, nest90("child", 1, id))},
		{"kids", 101, nest90("kids", 50, id)},
		{"entry without value", 100, nest90("child", 98, keyOnly)},
		{"entry without value", 101, nest90("child", 99, keyOnly)},
	} {
		err := decodeAll(t, s, tc.name, tc.in)
		want := tc.levels <= MaxDepth
		if (err == nil) != want || err != nil && err.Kind != diag.KindLimit {
			t.Errorf("%s, %d levels: %v, want accepted=%v (else diag.KindLimit)", tc.name, tc.levels, err, want)
		}
		if ref := refAccepts(t, s, tc.in); ref != want {
			t.Errorf("%s, %d levels: protobuf-go accepts=%v, want %v", tc.name, tc.levels, ref, want)
		}
	}
}

// TestUnknownGroupDepth: up to MaxUnknownDepth groups nested in one unknown
// field are accepted wherever it is, also inside the deepest message
// allowed and inside a map entry; one more is diag.KindLimit. protobuf-go
// accepts all of these (its limit there is 10,000), so every payload it
// accepts within MaxUnknownDepth is accepted.
func TestUnknownGroupDepth(t *testing.T) {
	s := testSchema(t, "90_wire_limits.proto")
	for _, levels := range []int{MaxUnknownDepth - 1, MaxUnknownDepth, MaxUnknownDepth + 1} {
		g := unknownGroups(levels)
		ins := map[string][]byte{
			"top":        g,
			"deep child": nest90("child", MaxDepth-1, g),
			"deep group": nest90("group", MaxDepth-1, g),
			"deep kids":  nest90("kids", 49, nest90("child", 1, g)),
			"map entry":  protowire.AppendBytes(protowire.AppendTag(nil, 3, protowire.BytesType), append([]byte{0x08, 0x01}, g...)),
		}
		for name, b := range ins {
			err := decodeAll(t, s, name, b)
			want := levels <= MaxUnknownDepth
			if (err == nil) != want || err != nil && (err.Kind != diag.KindLimit || !strings.Contains(err.Message, "MaxUnknownDepth")) {
				t.Errorf("%s, %d nested unknown groups: %v, want accepted=%v (else diag.KindLimit)", name, levels, err, want)
			}
			if !refAccepts(t, s, b) {
				t.Errorf("%s, %d nested unknown groups: protobuf-go rejects", name, levels)
			}
		}
		// Without a schema every group is unknown, counted from the top.
		_, err := DecodeRaw(g)
		if want := levels <= MaxUnknownDepth; (err == nil) != want {
			t.Errorf("DecodeRaw of %d nested groups: %v, want accepted=%v", levels, err, want)
		}
	}
}

// TestOverlongTags: a tag longer than MaxTagBytes is a payload error at the
// tag's offset in every entry point, although protobuf-go reads it.
func TestOverlongTags(t *testing.T) {
	s := testSchema(t, "90_wire_limits.proto")
	for _, tc := range []struct {
		name, hex string
		offset    int
		path      string
	}{
		{"9-byte tag of field 1 (the issue's input)", "88 80 80 80 80 80 80 80 00 d2 09", 0, ""},
		{"6-byte tag", "a0 80 80 80 80 00 07", 0, ""},
		{"after a field", "20 01 a0 80 80 80 80 80 00 07", 2, ""},
		{"inside child", "0a 07 a0 80 80 80 80 00 07", 2, "child"},
		{"inside group", "13 a0 80 80 80 80 00 07 14", 1, "group"},
		{"END_GROUP tag", "13 94 80 80 80 80 00", 1, "group"},
		{"map entry key", "1a 09 88 80 80 80 80 00 01 12 00", 2, "kids[0]"},
		{"inside an unknown group", "a3 06 88 80 80 80 80 00 01 a4 06", 2, "#100"},
		{"5 continuation bytes at the end", "20 01 a0 80 80 80 80", 2, ""},
	} {
		b, _, err := ParseBinary([]byte(tc.hex), Hex)
		if err != nil {
			t.Fatal(err)
		}
		e := decodeAll(t, s, tc.name, b)
		if e == nil || e.Kind != diag.KindPayload || e.Offset != tc.offset || e.Path != tc.path || !strings.Contains(e.Message, "longer than 5 bytes") {
			t.Errorf("%s: %v (path %q), want a payload error at byte %d path %q", tc.name, e, pathOf(e), tc.offset, tc.path)
		}
		// Without a schema, a LEN value whose bytes hold an overlong tag is
		// not a message: DecodeRaw shows it as bytes.
		v, err := DecodeRaw(b)
		if inLen := tc.path == "child" || tc.path == "kids[0]"; inLen {
			if err != nil || v.Fields[0].Nested {
				t.Errorf("%s: DecodeRaw: %v, nested %v; want the LEN shown as bytes", tc.name, err, err == nil && v.Fields[0].Nested)
			}
		} else if err == nil || AsError(err).Offset != tc.offset {
			t.Errorf("%s: DecodeRaw: %v, want an error at byte %d", tc.name, err, tc.offset)
		}
		if strings.HasPrefix(tc.name, "9-byte") && !refAccepts(t, s, b) {
			t.Errorf("protobuf-go rejects %s; the test means to show it reads it", tc.hex)
		}
	}
	for _, hex := range []string{"a0 80 80 80 00 07", "f8 ff ff ff 0f 01", "1a 08 88 80 80 80 00 01 12 00"} {
		b, _, _ := ParseBinary([]byte(hex), Hex)
		if e := decodeAll(t, s, hex, b); e != nil {
			t.Errorf("%s (tags of at most 5 bytes): %v", hex, e)
		}
		if _, err := DecodeRaw(b); err != nil {
			t.Errorf("DecodeRaw(%s): %v", hex, err)
		}
	}
}

func pathOf(e *diag.Error) string {
	if e == nil {
		return ""
	}
	return e.Path
}

// TestWellFormedMatchesWireView: on mutations of payloads that reach every
// branch, wellFormed says yes exactly when WireView finds no error.
func TestWellFormedMatchesWireView(t *testing.T) {
	ws := testSchema(t, "wire.proto")
	item := mustFind(t, ws, "pp.wire.Item")
	ds := testSchema(t, "90_wire_limits.proto")
	deep := mustFind(t, ds, "bugcorpus.c90.Deep")
	itemBytes, _, _ := ParseBinary([]byte(itemHex), Hex)
	seeds := [][]byte{
		itemBytes,
		nest90("kids", 3, []byte{0x20, 0x07, 0x2a, 0x02, 0x01, 0x02}),
		nest90("group", 3, unknownGroups(3)),
		nest90("child", 2, []byte{0xa0, 0x80, 0x80, 0x80, 0x00, 0x07}),
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 20000 {
		b := append([]byte(nil), seeds[i%len(seeds)]...)
		for range 1 + r.IntN(3) {
			switch k := r.IntN(4); {
			case k == 0 && len(b) > 0:
				b[r.IntN(len(b))] = byte(r.IntN(256))
			case k == 1 && len(b) > 0:
				b = b[:r.IntN(len(b))]
			case k == 2:
				j := r.IntN(len(b) + 1)
				b = append(b[:j], append([]byte{byte(r.IntN(256))}, b[j:]...)...)
			case k == 3 && len(b) > 1:
				j := r.IntN(len(b))
				b = append(b[:j], b[j+1:]...)
			}
		}
		if _, err := ws.WireView(item, b); ws.wellFormed(item, b) != (err == nil) {
			t.Fatalf("pp.wire.Item % x: wellFormed %v, WireView %v", b, !(err == nil), err)
		}
		if _, err := ds.WireView(deep, b); ds.wellFormed(deep, b) != (err == nil) {
			t.Fatalf("bugcorpus.c90.Deep % x: wellFormed %v, WireView %v", b, !(err == nil), err)
		}
	}
}
