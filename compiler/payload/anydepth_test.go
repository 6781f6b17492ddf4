package payload

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// TestAnyDepth: messages inside google.protobuf.Any values count toward
// MaxDepth when a binary payload is decoded, as the JSON and text readers
// count them, so that what decode accepts encode takes back, and a payload
// of Any inside Any thousands deep is refused at once (it used to decode
// into output growing with the square of its depth) with the offset of
// the first message too deep.
func TestAnyDepth(t *testing.T) {
	s := compileSource(t, "syntax = \"proto3\";\npackage t;\nimport \"google/protobuf/any.proto\";\nmessage M { google.protobuf.Any any = 9; map<string, M> kids = 2; }\n")
	md := mustFind(t, s, "t.M")
	url := []byte("type.googleapis.com/google.protobuf.Any")
	nest := func(n int) []byte {
		var a []byte
		for range n {
			in := protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), url)
			a = protowire.AppendBytes(protowire.AppendTag(in, 2, protowire.BytesType), a)
		}
		return protowire.AppendBytes(protowire.AppendTag(nil, 9, protowire.BytesType), a)
	}
	accepted := 0
	for n := 90; n <= 110; n++ {
		b := nest(n)
		d, err := s.Decode(md, b, DecodeOptions{In: Binary, Out: JSON})
		if err != nil {
			e := AsError(err)
			if e.Kind != "limit" || e.Limit != "MaxDepth" || e.Offset <= 0 || e.Offset > len(b) || !strings.Contains(e.Message, "google.protobuf.Any") {
				t.Fatalf("%d Any levels: %+v", n, e)
			}
			continue
		}
		accepted = n
		// What decode writes, encode reads back, to the same value.
		back, err := s.Encode(md, []byte(d.Messages[0]), EncodeOptions{In: JSON})
		if err != nil {
			t.Errorf("%d Any levels decode, but their JSON does not encode: %v", n, err)
			continue
		}
		if d2, err := s.Decode(md, back, DecodeOptions{In: Binary, Out: JSON}); err != nil || d2.Messages[0] != d.Messages[0] {
			t.Errorf("%d Any levels: the re-encoded bytes decode to another value (%v)", n, err)
		}
	}
	if accepted < 90 || accepted >= 110 {
		t.Errorf("deepest accepted: %d Any levels", accepted)
	}
	if _, err := s.Decode(md, nest(3000), DecodeOptions{In: Binary, Out: JSON}); AsError(err) == nil || AsError(err).Limit != "MaxDepth" {
		t.Errorf("3,000 Any levels: %v", err)
	}
	// Map values and Any values add up.
	kid := func(v []byte) []byte {
		e := protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), []byte("k"))
		e = protowire.AppendBytes(protowire.AppendTag(e, 2, protowire.BytesType), v)
		return protowire.AppendBytes(protowire.AppendTag(nil, 2, protowire.BytesType), e)
	}
	if _, err := s.Decode(md, kid(nest(accepted-2)), DecodeOptions{In: Binary, Out: JSON}); err != nil {
		t.Errorf("an Any chain at the limit with a map entry's two levels: %v", err)
	}
	deep := nest(accepted - 1) // the entry and its value add two levels
	if _, err := s.Decode(md, kid(deep), DecodeOptions{In: Binary, Out: JSON}); AsError(err) == nil || AsError(err).Limit != "MaxDepth" {
		t.Errorf("an Any chain one level short of the limit alone, under a map entry: %v", err)
	}
}

// TestAnyValueNotOfItsType: JSON of an Any whose value bytes do not parse
// as its type says so (it said "the value is valid, but JSON cannot
// represent it"); text writes the bytes.
func TestAnyValueNotOfItsType(t *testing.T) {
	s := compileSource(t, "syntax = \"proto3\";\npackage t;\nimport \"google/protobuf/any.proto\";\nmessage M { google.protobuf.Any any = 9; int32 x = 1; }\n")
	md := mustFind(t, s, "t.M")
	url := []byte("type.googleapis.com/t.M")
	a := protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), url)
	a = protowire.AppendBytes(protowire.AppendTag(a, 2, protowire.BytesType), []byte{0xff, 0xff})
	b := protowire.AppendBytes(protowire.AppendTag(nil, 9, protowire.BytesType), a)
	_, err := s.Decode(md, b, DecodeOptions{In: Binary, Out: JSON})
	if err == nil || !strings.Contains(err.Error(), "the bytes of the Any's value are not a message of that type") || strings.Contains(err.Error(), "the value is valid") {
		t.Errorf("JSON: %v", err)
	}
	if d, err := s.Decode(md, b, DecodeOptions{In: Binary, Out: Text}); err != nil || !strings.Contains(d.Messages[0], `value: "\xff\xff"`) {
		t.Errorf("text: %v, %v", d, err)
	}
}
