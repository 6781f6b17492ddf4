package payload

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	pjson "google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/protoplay/protoplay/compiler/diag"
)

// depthShapes are JSON values of bugcorpus.c47.Doc (testdata/cases/
// 47_json_depth_vs_binary.proto) nesting n levels of one kind, with maxN,
// the largest n within MaxDepth counted as the binary reader counts
// (messages, groups and non-empty maps' entries; the top-level Doc is 1).
// The generated code's twin is testdata/cases/depth_test.go.
var depthShapes = []struct {
	name   string
	json   func(n int) string
	maxN   int
	opaque bool // the nesting is inside an Any, bytes to protobuf-go's binary reader
}{
	{"Struct objects", func(n int) string {
		return `{"body":{"a":` + strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n) + `}}`
	}, 32, false},
	{"Value arrays", func(n int) string { return `{"v":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}` }, 49, false},
	{"map<string,Doc>", func(n int) string { return strings.Repeat(`{"kids":{"k":`, n) + "{}" + strings.Repeat("}}", n) }, 49, false},
	{"message fields", func(n int) string { return strings.Repeat(`{"child":`, n) + `{"id":1}` + strings.Repeat("}", n) }, 99, false},
	{"groups", func(n int) string { return strings.Repeat(`{"group":`, n) + `{"id":1}` + strings.Repeat("}", n) }, 99, false},
	{"map<string,int32> below messages", func(n int) string {
		return strings.Repeat(`{"child":`, n) + `{"counts":{"a":1}}` + strings.Repeat("}", n)
	}, 98, false},
	{"empty map below messages", func(n int) string {
		return strings.Repeat(`{"child":`, n) + `{"counts":{}}` + strings.Repeat("}", n)
	}, 99, false},
	{"ListValue arrays", func(n int) string { return `{"list":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}` }, 50, false},
	{"Any", func(n int) string {
		return "{" + strings.Repeat(`"any":{"@type":"type.googleapis.com/bugcorpus.c47.Doc",`, n) + `"id":1` + strings.Repeat("}", n+1)
	}, 49, true},
}

func isDepthLimit(err error) bool {
	var e *diag.Error
	return errors.As(err, &e) && e.Kind == diag.KindLimit && e.Limit == "MaxDepth" && strings.HasPrefix(e.Message, depthMessage)
}

// TestOneNestingBudget (case 47, issue 24 kind 3): at the limit, what
// Encode reads from JSON, Decode writes back as JSON and text, and Encode
// reads again from both, with WireView agreeing; one level over, every
// reader refuses with the MaxDepth limit: Encode from JSON and text, and
// Decode and WireView of the binary form (written by
// google.golang.org/protobuf from a read with a larger limit), as
// google.golang.org/protobuf's binary reader at RecursionLimit MaxDepth;
// nesting inside Any values, which that reader and WireView see as bytes,
// Decode refuses as the JSON and text readers do.
func TestOneNestingBudget(t *testing.T) {
	s := compileFS(t, testdataFS, testdataRoots, "47_json_depth_vs_binary.proto")
	md := mustFind(t, s, "bugcorpus.c47.Doc")
	for _, sh := range depthShapes {
		t.Run(sh.name, func(t *testing.T) {
			for _, n := range []int{sh.maxN, sh.maxN + 1} {
				in := sh.json(n)
				over := n > sh.maxN
				b, err := s.Encode(md, []byte(in), EncodeOptions{In: JSON})
				if over != (err != nil) || over && !isDepthLimit(err) {
					t.Fatalf("n=%d: Encode from JSON: %v; want the MaxDepth limit exactly when n > %d", n, err, sh.maxN)
				}
				if over {
					// The same value, read by protobuf-go with room to
					// spare, in binary.
					m := dynamicpb.NewMessage(md)
					if err := (pjson.UnmarshalOptions{Resolver: s.Types, RecursionLimit: 1000}).Unmarshal([]byte(in), m); err != nil {
						t.Fatalf("n=%d: protojson: %v", n, err)
					}
					if b, err = (proto.MarshalOptions{Deterministic: true}).Marshal(m); err != nil {
						t.Fatal(err)
					}
				}
				ref := proto.UnmarshalOptions{Resolver: s.Types, RecursionLimit: MaxDepth}.Unmarshal(b, dynamicpb.NewMessage(md))
				_, werr := s.WireView(md, b)
				for _, f := range []Format{JSON, Text} {
					dec, err := s.Decode(md, b, DecodeOptions{In: Binary, Out: f})
					// Decode counts the levels inside Any values too
					// (checkAnyDepth), as the JSON and text readers do;
					// protobuf-go's binary reader and the wire view see
					// an Any's value as bytes.
					if over != (err != nil) || over && !isDepthLimit(err) {
						t.Fatalf("n=%d: Decode to %s: %v; want the MaxDepth limit: %v", n, f, err, over)
					}
					if !sh.opaque && ((ref == nil) != (err == nil) || (werr == nil) != (err == nil)) {
						t.Fatalf("n=%d: Decode %v, WireView %v, protobuf-go at RecursionLimit %d %v disagree", n, err, werr, MaxDepth, ref)
					}
					if err != nil {
						continue
					}
					// What Decode wrote, Encode reads back.
					b2, err := s.Encode(md, []byte(dec.Messages[0]), EncodeOptions{In: f})
					if err != nil {
						t.Fatalf("n=%d: Encode of Decode's %s: %v", n, f, err)
					}
					if string(b2) != string(b) {
						t.Fatalf("n=%d: %s round trip changed the bytes", n, f)
					}
				}
			}
		})
	}
}

// TestCase47Inputs: the case's own inputs are refused by Encode with the
// MaxDepth limit (each is one level over it once JSON counts as binary).
func TestCase47Inputs(t *testing.T) {
	s := compileFS(t, testdataFS, testdataRoots, "47_json_depth_vs_binary.proto")
	md := mustFind(t, s, "bugcorpus.c47.Doc")
	for _, name := range []string{"struct33", "arrays50", "kids50"} {
		in, err := os.ReadFile(filepath.Join("..", "..", "testdata", "cases", "47", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Encode(md, in, EncodeOptions{In: JSON}); !isDepthLimit(err) {
			t.Errorf("%s: Encode: %v, want the MaxDepth limit", name, err)
		}
	}
}

// TestMapEntriesCountFromTheFirst: in JSON and text alike, a map's entries
// count one level, and an empty map (no entries on the wire) none: at
// MaxDepth messages, an empty map is read and a non-empty one refused.
func TestMapEntriesCountFromTheFirst(t *testing.T) {
	s := compileFS(t, testdataFS, testdataRoots, "47_json_depth_vs_binary.proto")
	md := mustFind(t, s, "bugcorpus.c47.Doc")
	n := MaxDepth - 1 // child levels below the top-level Doc
	for _, c := range []struct {
		in      Format
		value   string
		refused bool
	}{
		{JSON, strings.Repeat(`{"child":`, n) + `{"counts":{}}` + strings.Repeat("}", n), false},
		{JSON, strings.Repeat(`{"child":`, n) + `{"counts":{"a":1}}` + strings.Repeat("}", n), true},
		{Text, strings.Repeat("child {", n) + "counts: []" + strings.Repeat("}", n), false},
		{Text, strings.Repeat("child {", n) + "counts: [{key: \"a\" value: 1}]" + strings.Repeat("}", n), true},
		{Text, strings.Repeat("child {", n) + "counts {key: \"a\" value: 1}" + strings.Repeat("}", n), true},
		{Text, strings.Repeat("child {", n-1) + "counts {key: \"a\" value: 1} counts: [] counts {key: \"b\" value: 2}" + strings.Repeat("}", n-1), false},
	} {
		_, err := s.Encode(md, []byte(c.value), EncodeOptions{In: c.in})
		if c.refused != (err != nil) || c.refused && !isDepthLimit(err) {
			t.Errorf("%s %.40s...%s: %v, want refused: %v", c.in, c.value, c.value[len(c.value)-60:], err, c.refused)
		}
	}
}
