package casetest

// Case 47 (issue 24, kind 3): one nesting budget, counted as the binary
// reader counts it, in every reader and writer of the generated code.

import (
	"errors"
	"strings"
	"testing"

	c47 "gentest/example.com/bugcorpus/c47"

	"github.com/protoplay/protoplay/runtime/protojson"
	"github.com/protoplay/protoplay/runtime/prototext"
	"github.com/protoplay/protoplay/runtime/wire"
)

// c47Resolver makes the case's Doc for google.protobuf.Any.
var c47Resolver = protojson.ResolverFunc(func(name string) protojson.Message {
	if name == "bugcorpus.c47.Doc" {
		return new(c47.Doc)
	}
	return nil
})

// c47Shapes are JSON documents nesting n levels of one kind, each with
// maxN, the largest n whose depth (counted as the binary reader counts:
// messages, groups and non-empty maps' entries, the top-level Doc being 1)
// is at most wire.DefaultMaxDepth.
var c47Shapes = []struct {
	name string
	json func(n int) string
	maxN int
	// opaque: the binary reader keeps the nested messages as bytes (Any),
	// so it accepts one level more; the JSON and text readers do not.
	opaque bool
}{
	// Doc 1, Struct 2, entry 3, Value 4, then 3 per object: 4+3n.
	{"Struct objects", func(n int) string {
		return `{"body":{"a":` + strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n) + `}}`
	}, 32, false},
	// Doc 1, Value 2, then a ListValue and a Value per array, the
	// innermost empty: 2n+1.
	{"Value arrays", func(n int) string { return `{"v":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}` }, 49, false},
	// Doc 1, then a map entry and a Doc per level: 1+2n.
	{"map<string,Doc>", func(n int) string { return strings.Repeat(`{"kids":{"k":`, n) + "{}" + strings.Repeat("}}", n) }, 49, false},
	{"message fields", func(n int) string { return strings.Repeat(`{"child":`, n) + `{"id":1}` + strings.Repeat("}", n) }, 99, false},
	{"groups", func(n int) string { return strings.Repeat(`{"group":`, n) + `{"id":1}` + strings.Repeat("}", n) }, 99, false},
	// A scalar map's entries count too: 1+n+1.
	{"map<string,int32> below messages", func(n int) string {
		return strings.Repeat(`{"child":`, n) + `{"counts":{"a":1}}` + strings.Repeat("}", n)
	}, 98, false},
	// An empty map has no entries: 1+n.
	{"empty map below messages", func(n int) string {
		return strings.Repeat(`{"child":`, n) + `{"counts":{}}` + strings.Repeat("}", n)
	}, 99, false},
	// Doc 1, ListValue 2, then a Value and a ListValue per inner array: 2n.
	{"ListValue arrays", func(n int) string { return `{"list":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}` }, 50, false},
	// Doc 1, then an Any and its Doc per level: 1+2n.
	{"Any", func(n int) string {
		return "{" + strings.Repeat(`"any":{"@type":"type.googleapis.com/bugcorpus.c47.Doc",`, n) + `"id":1` + strings.Repeat("}", n+1)
	}, 49, true},
}

// TestC47OneNestingBudget: for each shape, at the limit every reader
// accepts what every writer writes; one level over it, every reader
// (JSON, binary, text) refuses with ErrDepth, including the value written
// from one read with a larger limit.
func TestC47OneNestingBudget(t *testing.T) {
	big := protojson.UnmarshalOptions{RecursionLimit: 1000, Resolver: c47Resolver}
	for _, s := range c47Shapes {
		t.Run(s.name, func(t *testing.T) {
			for _, n := range []int{s.maxN - 1, s.maxN, s.maxN + 1} {
				in := s.json(n)
				var m c47.Doc
				err := m.UnmarshalProtoJSON([]byte(in), protojson.UnmarshalOptions{Resolver: c47Resolver})
				over := n > s.maxN
				if over != (err != nil) || (over && !errors.Is(err, wire.ErrDepth)) {
					t.Fatalf("n=%d: UnmarshalJSON: %v, want ErrDepth exactly when n > %d", n, err, s.maxN)
				}
				if over {
					// The same value, read with room to spare, then
					// written by each writer: every default reader
					// refuses it.
					if err := m.UnmarshalProtoJSON([]byte(in), big); err != nil {
						t.Fatalf("n=%d with RecursionLimit 1000: %v", n, err)
					}
				}
				readers(t, n, &m, over, s.opaque)
			}
		})
	}
}

// readers writes m with Marshal, MarshalText and MarshalJSON and reads
// each back with the default limit: all succeed, or (over) all fail with
// ErrDepth, but for opaque shapes the binary reader, which does not look
// inside an Any.
func readers(t *testing.T, n int, m *c47.Doc, over, opaque bool) {
	t.Helper()
	check := func(what string, err error, wantErr bool) {
		t.Helper()
		if wantErr != (err != nil) || (wantErr && !errors.Is(err, wire.ErrDepth)) {
			t.Errorf("n=%d: %s: %v (want ErrDepth: %v)", n, what, err, wantErr)
		}
	}
	b, err := m.Marshal()
	if err != nil {
		t.Fatalf("n=%d: Marshal: %v", n, err)
	}
	var back c47.Doc
	check("Unmarshal of Marshal's bytes", back.Unmarshal(b), over && !opaque)
	if err := back.UnmarshalDepth(b, 1000); err != nil {
		t.Fatalf("n=%d: UnmarshalDepth 1000: %v", n, err)
	}
	txt, err := m.MarshalProtoText(prototext.MarshalOptions{Resolver: c47Resolver})
	if err != nil {
		t.Fatalf("n=%d: MarshalText: %v", n, err)
	}
	var back2 c47.Doc
	check("UnmarshalText of MarshalText's text", back2.UnmarshalProtoText(txt, prototext.UnmarshalOptions{Resolver: c47Resolver}), over)
	js, err := m.MarshalProtoJSON(protojson.MarshalOptions{Resolver: c47Resolver})
	if err != nil {
		t.Fatalf("n=%d: MarshalJSON: %v", n, err)
	}
	var back3 c47.Doc
	check("UnmarshalJSON of MarshalJSON's JSON", back3.UnmarshalProtoJSON(js, protojson.UnmarshalOptions{Resolver: c47Resolver}), over)
	if !over && !back3.Equal(m) {
		t.Errorf("n=%d: JSON round trip changed the value", n)
	}
}
