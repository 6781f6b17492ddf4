// Package casetest checks that protoplay's generated code behaves as the
// header of each case file in this folder says. The harness in
// compiler/gogen/build_test.go generates the cases into a temporary module
// (import paths under "gentest/") and runs these tests there.
package casetest

import (
	"bytes"
	"encoding/hex"
	"errors"
	"math"
	"strings"
	"testing"

	c01 "gentest/example.com/bugcorpus/c01"
	c03 "gentest/example.com/bugcorpus/c03"
	ctype "gentest/example.com/bugcorpus/c06/type"
	c08 "gentest/example.com/bugcorpus/c08/v1"
	c10 "gentest/example.com/bugcorpus/c10"
	c12 "gentest/example.com/bugcorpus/c12"
	c14 "gentest/example.com/bugcorpus/c14"
	c16 "gentest/example.com/bugcorpus/c16"
	c17 "gentest/example.com/bugcorpus/c17"
	c19 "gentest/example.com/bugcorpus/c19"
	c20 "gentest/example.com/bugcorpus/c20"
	c22 "gentest/example.com/bugcorpus/c22"
	c23 "gentest/example.com/bugcorpus/c23"
	c24 "gentest/example.com/bugcorpus/c24"
	c25 "gentest/example.com/bugcorpus/c25"
	c27 "gentest/example.com/bugcorpus/c27"
	c30 "gentest/example.com/bugcorpus/c30"
	c31 "gentest/example.com/bugcorpus/c31"

	"github.com/protoplay/protoplay/runtime/wire"
	"github.com/protoplay/protoplay/runtime/wkt/structpb"
	"github.com/protoplay/protoplay/runtime/wkt/wrapperspb"
)

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

type message interface {
	Marshal() ([]byte, error)
	MarshalAppend([]byte) ([]byte, error)
	Unmarshal([]byte) error
	Size() int
}

// roundTrip decodes in into m, re-encodes it and wants exactly want.
func roundTrip(t *testing.T, m message, in, want string) {
	t.Helper()
	if err := m.Unmarshal(unhex(t, in)); err != nil {
		t.Fatalf("Unmarshal(%s): %v", in, err)
	}
	out, err := m.Marshal()
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	if got := hex.EncodeToString(out); got != strings.ReplaceAll(want, " ", "") {
		t.Errorf("re-encoding of %s = %s, want %s", in, got, want)
	}
	if m.Size() != len(out) {
		t.Errorf("Size() = %d, Marshal wrote %d bytes", m.Size(), len(out))
	}
	appended, err := m.MarshalAppend([]byte("pre"))
	if err != nil || string(appended) != "pre"+string(out) {
		t.Errorf("MarshalAppend = %x, %v; want the prefix then %x", appended, err, out)
	}
}

func TestC01FieldNamedLikeMethod(t *testing.T) {
	m := &c01.Ticket{Token: "a", GetToken_: "b", Reset_: true, String_: "s", Descriptor_: []byte{1}, Size_: 6, Clone_: true}
	if m.GetToken() != "a" || m.GetGetToken_() != "b" || !m.GetReset_() || m.GetSize_() != 6 || !m.GetClone_() {
		t.Fatal("getters")
	}
	c := m.Clone()
	if !c.Equal(m) || c.Size() != m.Size() {
		t.Fatal("Clone/Equal/Size")
	}
}

func TestC03OneofWrapperYieldsToNestedType(t *testing.T) {
	var leaf *c03.Tree_Leaf = &c03.Tree_Leaf{Text: "x"}
	for _, tr := range []*c03.Tree{
		{Node: &c03.Tree_Leaf_{Leaf: leaf}},
		{Node: &c03.Tree_Mode_{Mode: c03.Tree_MODE_FAST}},
		{Node: &c03.Tree_Note{Note: "n"}},
	} {
		switch tr.GetNode().(type) {
		case *c03.Tree_Leaf_, *c03.Tree_Mode_, *c03.Tree_Note:
		default:
			t.Fatal("type switch")
		}
		b, _ := tr.Marshal()
		var back c03.Tree
		if err := back.Unmarshal(b); err != nil || !back.Equal(tr) {
			t.Fatalf("round trip %x: %v", b, err)
		}
	}
}

func TestC06KeywordPackageAndFields(t *testing.T) {
	m := &ctype.Keywords{Func: "f", Map: map[string]int32{"a": 1}, Range: []int32{1}, Go: true, Select: 5,
		Chan: "c", Interface: "i", Default: "d", Import: "im", Package: "p"}
	b, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var back ctype.Keywords
	if err := back.Unmarshal(b); err != nil || !back.Equal(m) {
		t.Fatal("round trip", err)
	}
}

func TestC08GoPackageName(t *testing.T) {
	_ = c08.Envelope{Id: "x"}
}

func TestC10EnumNamesKeepPrefix(t *testing.T) {
	if c10.Level_LEVEL_1 != 1 || c10.Shade_SHADE_DARK != 1 || c10.Shade_DARK != 1 || c10.Shade_SHADE != 3 {
		t.Fatal("constants")
	}
	if c10.Shade(1).String() != "SHADE_DARK" || c10.Level_name[1] != "LEVEL_1" || c10.Shade_value["DARK"] != 1 {
		t.Fatal("names")
	}
}

func TestC12JSONNameFields(t *testing.T) {
	_ = c12.Gauge{QueueDepth: 1, QUEUE_DEPTH: 2, Backlog: 3}
}

func TestC14GroupInOneof(t *testing.T) {
	var m c14.Check
	roundTrip(t, &m, "0b 08 05 0c", "0b 08 05 0c")
	p, ok := m.GetTarget().(*c14.Check_Probe_)
	if !ok || p.Probe.GetDepth() != 5 || m.GetProbe().GetDepth() != 5 {
		t.Fatalf("decoded %+v", m.GetTarget())
	}
	err := m.Unmarshal(unhex(t, "0b 08 05 14"))
	if !errors.Is(err, wire.ErrGroupMismatch) {
		t.Fatalf("mismatched END_GROUP: %v", err)
	}
	if err := m.Unmarshal(unhex(t, "0b 08 05")); !errors.Is(err, wire.ErrTruncated) {
		t.Fatalf("EOF inside group: %v", err)
	}
}

func TestC16NegativeVarints(t *testing.T) {
	var m c16.Reading
	roundTrip(t, &m, "08 ff ff ff ff ff ff ff ff ff 01", "08 ff ff ff ff ff ff ff ff ff 01")
	if m.Offset != -1 {
		t.Fatal(m.Offset)
	}
	roundTrip(t, &m, "08 ff ff ff ff 0f", "08 ff ff ff ff ff ff ff ff ff 01")
	if m.Offset != -1 {
		t.Fatal("5-byte form", m.Offset)
	}
	roundTrip(t, &m, "08 80 80 80 80 f8 ff ff ff ff 01", "08 80 80 80 80 f8 ff ff ff ff 01")
	if m.Offset != math.MinInt32 {
		t.Fatal(m.Offset)
	}
	roundTrip(t, &m, "10 fe ff ff ff ff ff ff ff ff 01", "10 fe ff ff ff ff ff ff ff ff 01")
	if m.Trend != c16.Trend_TREND_DOWN {
		t.Fatal(m.Trend)
	}
	roundTrip(t, &c16.Reading{}, "18 01", "18 01")
	if err := m.Unmarshal(unhex(t, "08 ff ff ff ff ff ff ff ff ff ff 01")); !errors.Is(err, wire.ErrOverflow) {
		t.Fatalf("11-byte varint: %v", err)
	}
	if n := (&c16.Reading{Offset: -1}).Size(); n != 11 {
		t.Fatalf("Size of offset=-1 is %d, want 11", n)
	}
}

func TestC17ClosedEnumUnknowns(t *testing.T) {
	var m c17.Palette
	roundTrip(t, &m, "08 07", "08 07")
	if m.Hue != nil {
		t.Fatal("hue=7 must stay unset")
	}
	roundTrip(t, &m, "12 03 01 07 02", "12 02 01 02 10 07")
	if len(m.Hues) != 2 || m.Hues[0] != c17.Hue_RED || m.Hues[1] != c17.Hue_GREEN {
		t.Fatal(m.Hues)
	}
	roundTrip(t, &m, "1a 05 0a 01 6b 10 07", "1a 05 0a 01 6b 10 07")
	if len(m.ByName) != 0 {
		t.Fatal(m.ByName)
	}
	roundTrip(t, &m, "1a 05 0a 01 6b 10 01", "1a 05 0a 01 6b 10 01")
	if m.ByName["k"] != c17.Hue_RED {
		t.Fatal(m.ByName)
	}
}

func TestC19FloatSpecialValues(t *testing.T) {
	var m c19.Measure
	roundTrip(t, &m, "09 00 00 00 00 00 00 00 80", "09 00 00 00 00 00 00 00 80")
	if !math.Signbit(m.Ratio) {
		t.Fatal("-0 lost its sign")
	}
	if (&c19.Measure{Ratio: 0}).Size() != 0 {
		t.Fatal("+0 must not be written")
	}
	// Equal is proto.Equal (issue 10, case 41): NaN equals NaN, and an
	// implicit-presence -0 is set while +0 is not.
	nan := &c19.Measure{Gain: float32(math.NaN())}
	if !nan.Equal(nan.Clone()) {
		t.Fatal("Equal is proto.Equal: NaN == NaN")
	}
	if (&c19.Measure{Ratio: math.Copysign(0, -1)}).Equal(&c19.Measure{Ratio: 0}) {
		t.Fatal("Equal is proto.Equal: an implicit -0 is set, +0 is not")
	}
	v := &c19.Measure{Raw: &structpb.Value{Kind: &structpb.Value_NumberValue{NumberValue: math.Inf(1)}}}
	b, err := v.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var back c19.Measure
	if err := back.Unmarshal(b); err != nil || !math.IsInf(back.GetRaw().GetNumberValue(), 1) {
		t.Fatal("Value(Inf) binary round trip", err)
	}
}

func TestC20Recursive(t *testing.T) {
	var nilExpr *c20.Expr
	if nilExpr.GetParen() != nil || nilExpr.GetCall().GetReceiver() != nil || nilExpr.Clone() != nil || nilExpr.Size() != 0 {
		t.Fatal("nil getters")
	}
	e := &c20.Expr{Kind: &c20.Expr_Call_{Call: &c20.Expr_Call{Fn: "f", Args: []*c20.Expr{{Kind: &c20.Expr_Paren{Paren: &c20.Expr{}}}}}}}
	b, err := e.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var back c20.Expr
	if err := back.Unmarshal(b); err != nil || !back.Equal(e) || !e.Clone().Equal(e) {
		t.Fatal("round trip", err)
	}
	ch := &c20.Chain{Next: &c20.Chain{}, Forks: map[string]*c20.Chain{"a": {Next: &c20.Chain{}}, "b": nil}}
	b, _ = ch.Marshal()
	var cb c20.Chain
	if err := cb.Unmarshal(b); err != nil || cb.Forks["b"] == nil || !cb.Forks["a"].Equal(ch.Forks["a"]) {
		t.Fatal("map of recursive messages", err)
	}
}

func TestC22MalformedLengths(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want error
	}{
		{"0a ff ff ff ff ff ff ff ff ff 01", wire.ErrLength},
		{"0a 80 80 80 80 08", wire.ErrLength},
		{"0a 05 01", wire.ErrLength},
		{"12 03 0a ff 7f", wire.ErrLength},
		{"0e", wire.ErrWireType},
		{"3a ff ff ff ff ff ff ff ff 7f", wire.ErrLength},
	} {
		var m c22.Blob
		err := m.Unmarshal(unhex(t, tc.in))
		var we *wire.Error
		if !errors.Is(err, tc.want) || !errors.As(err, &we) || we.Offset < 0 {
			t.Errorf("%s: got %v, want %v with an offset", tc.in, err, tc.want)
		}
	}
	var m c22.Blob
	err := m.Unmarshal(unhex(t, "12 03 0a ff 7f"))
	var we *wire.Error
	if !errors.As(err, &we) || we.Path != "inner" || we.Offset != 3 {
		t.Errorf("nested error: %#v, want path inner at byte 3 (the inner length)", err)
	}
}

func TestC23EmptyStrings(t *testing.T) {
	var m c23.Labels
	roundTrip(t, &m, "0a 04 0a 00 12 00", "0a 04 0a 00 12 00")
	if v, ok := m.ByKey[""]; !ok || v != "" {
		t.Fatal(m.ByKey)
	}
	roundTrip(t, &m, "12 00", "12 00")
	if _, ok := m.Pick.(*c23.Labels_Name); !ok {
		t.Fatal("oneof name not set")
	}
	roundTrip(t, &m, "1a 00 1a 01 78", "1a 00 1a 01 78")
	if len(m.Tags) != 2 || m.Tags[1] != "x" {
		t.Fatal(m.Tags)
	}
}

func TestC24OneofZeroValues(t *testing.T) {
	a := &c24.Slot{Content: &c24.Slot_Count{Count: 0}}
	b := &c24.Slot{Content: &c24.Slot_Label{Label: ""}}
	c := &c24.Slot{}
	if a.Equal(b) || a.Equal(c) || !a.Equal(a.Clone()) {
		t.Fatal("oneof Equal")
	}
	if out, _ := a.Marshal(); hex.EncodeToString(out) != "0800" {
		t.Fatalf("Marshal(A) = %x", out)
	}
	if out, _ := c.Marshal(); len(out) != 0 {
		t.Fatalf("Marshal(C) = %x", out)
	}
	d := &c24.Slot{Content: &c24.Slot_Box_{Box: &c24.Slot_Box{}}}
	e := &c24.Slot{Content: &c24.Slot_Box_{Box: &c24.Slot_Box{Note: &wrapperspb.StringValue{}}}}
	if !d.Equal(d.Clone()) || d.Equal(e) {
		t.Fatal("box equality")
	}
	if _, ok := a.Clone().Content.(*c24.Slot_Count); !ok {
		t.Fatal("Clone lost the member")
	}
	a.Reset()
	if a.Content != nil {
		t.Fatal("Reset")
	}
}

func TestC25LargeFieldNumbers(t *testing.T) {
	var m c25.Edge
	roundTrip(t, &m, "f8 ff ff ff 0f 01", "f8 ff ff ff 0f 01")
	if m.GetTop() != 1 {
		t.Fatal(m.GetTop())
	}
	roundTrip(t, &m, "82 80 80 40 00", "82 80 80 40 00")
	if m.Blob == nil || len(m.Blob) != 0 {
		t.Fatal("empty blob must be set")
	}
	for _, in := range []string{"80 80 80 80 10 01", "00 01"} {
		if err := m.Unmarshal(unhex(t, in)); !errors.Is(err, wire.ErrFieldNumber) {
			t.Errorf("%s: %v", in, err)
		}
	}
	// The extension is kept as unknown bytes and re-emitted.
	roundTrip(t, &c25.Host{}, "fd ff ff ff 0f 01 02 03 04", "fd ff ff ff 0f 01 02 03 04")
}

func TestC27Comments(t *testing.T) {
	_ = c27.Shelf{Name: "n", Path: "p", Note: "x"}
}

func TestC30RequiredAndDefaults(t *testing.T) {
	var j c30.Job
	if j.GetRetries() != 3 || j.GetMode() != c30.Mode_MODE_ON || !math.IsInf(j.GetRatio(), 1) || !math.IsNaN(float64(j.GetDrift())) {
		t.Fatal("defaults")
	}
	if j.GetLabel() != "say \"hi\"\\n\x01 é */ `raw` ${x}" || !bytes.Equal(j.GetMagic(), []byte("\x00\xffab")) {
		t.Fatalf("string defaults %q %q", j.GetLabel(), j.GetMagic())
	}
	_, err := j.Marshal()
	if !errors.Is(err, wire.ErrRequired) || !strings.Contains(err.Error(), "bugcorpus.c30.Job.mode") || !strings.Contains(err.Error(), "bugcorpus.c30.Job.id") {
		t.Fatalf("Marshal of empty Job: %v", err)
	}
	if err := j.Unmarshal(nil); !errors.Is(err, wire.ErrRequired) {
		t.Fatalf("Unmarshal of empty Job: %v", err)
	}
	roundTrip(t, &j, "08 00 10 00", "08 00 10 00")
	if j.Mode == nil || *j.Mode != c30.Mode_MODE_OFF {
		t.Fatal("explicit zero lost")
	}
	// Required fields of a set sub-message are checked too.
	parent := &c30.Job{Mode: c30.Mode_MODE_ON.Enum(), Id: new(int64), Parent: &c30.Job{}}
	if _, err := parent.Marshal(); !errors.Is(err, wire.ErrRequired) {
		t.Fatalf("nested required: %v", err)
	}
}

func TestC31DelimitedGroups(t *testing.T) {
	var n c31.Node
	roundTrip(t, &n, "13 08 01 14", "13 08 01 14")
	if n.Child == nil || n.Child.GetId() != 1 {
		t.Fatalf("child: %+v", n.Child)
	}
	roundTrip(t, &n, "1b 08 01 1c 1b 08 02 1c 28 07", "1b 08 01 1c 1b 08 02 1c 28 07")
	if len(n.Items) != 2 || n.Items[1].GetId() != 2 {
		t.Fatalf("items: %+v", n.Items)
	}
	// An unknown group inside a group stays with the inner message.
	roundTrip(t, &n, "13 5b 08 01 5c 14", "13 5b 08 01 5c 14")
	if n.Child == nil || n.Child.Id != nil {
		t.Fatalf("unknown group read as a field: %+v", n.Child)
	}
	for _, tc := range []struct {
		in     string
		want   error
		offset int
		path   string
	}{
		{"13 08 01 1c", wire.ErrGroupMismatch, 3, "child"},
		{"13 08 01", wire.ErrTruncated, 3, "child"},
		{"14", wire.ErrWireType, 0, ""},
		{"2a 00 14", wire.ErrWireType, 2, ""},
		{"13 1b 08 01 14 14", wire.ErrGroupMismatch, 4, "child.items[0]"},
		{"13 1b 08 01 1c 1b 08 02 14 14", wire.ErrGroupMismatch, 8, "child.items[1]"},
		{"23 24", wire.ErrRequired, -1, "leaf"},
	} {
		var m c31.Node
		err := m.Unmarshal(unhex(t, tc.in))
		var we *wire.Error
		if !errors.Is(err, tc.want) || !errors.As(err, &we) || we.Offset != tc.offset || we.Path != tc.path {
			t.Errorf("%s: got %#v, want %v at offset %d path %q", tc.in, err, tc.want, tc.offset, tc.path)
		}
	}
	// wire.DefaultMaxDepth counts the top-level message: 99 groups may nest
	// inside it, as protobuf-go's RecursionLimit allows.
	deep := bytes.Repeat([]byte{0x13}, 100)
	deep = append(deep, bytes.Repeat([]byte{0x14}, 100)...)
	if err := new(c31.Node).Unmarshal(deep); !errors.Is(err, wire.ErrDepth) {
		t.Errorf("100 nested groups: %v, want ErrDepth", err)
	}
	if err := new(c31.Node).Unmarshal(deep[1 : len(deep)-1]); err != nil {
		t.Errorf("99 nested groups: %v", err)
	}
}

func TestC31SharedAllocations(t *testing.T) {
	src := &c31.Node{}
	for i := range 100 {
		id := int32(i)
		src.Items = append(src.Items, &c31.Node{Id: &id, Leaf: &c31.Leaf{Need: &id}})
		src.Leaves = append(src.Leaves, &c31.Leaf{Need: &id})
	}
	b, err := src.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var n c31.Node
	if err := n.Unmarshal(b); err != nil {
		t.Fatal(err)
	}
	if !n.Equal(src) {
		t.Fatal("round trip differs")
	}
	// Values from one slab are distinct: writes through one pointer leave
	// the others alone.
	*n.Items[0].Id = 1000
	n.Items[1].Leaf.Weight = ptr(float32(2))
	*n.Leaves[2].Need = 2000
	for i := range 100 {
		want := int32(i)
		if i == 0 {
			want = 1000
		}
		if n.Items[i].GetId() != want || n.Items[i].Leaf.GetNeed() != int32(i) {
			t.Fatalf("item %d: id %d need %d", i, n.Items[i].GetId(), n.Items[i].Leaf.GetNeed())
		}
		if (i == 1) != (n.Items[i].Leaf.Weight != nil) {
			t.Fatalf("item %d: weight %v", i, n.Items[i].Leaf.Weight)
		}
		if i != 2 && n.Leaves[i].GetNeed() != int32(i) {
			t.Fatalf("leaf %d: need %d", i, n.Leaves[i].GetNeed())
		}
	}
	// 300 messages and 300 *int32 would be 600 allocations one by one.
	allocs := testing.AllocsPerRun(10, func() {
		var m c31.Node
		if err := m.Unmarshal(b); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 60 {
		t.Errorf("decoding 300 messages and 300 scalars: %v allocations, want slabs (<= 60)", allocs)
	}
}

func ptr[T any](v T) *T { return &v }
