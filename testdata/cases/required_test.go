package casetest

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	b32 "gentest/example.com/bughunt/b32"
	b32groups "gentest/example.com/bughunt/b32/groups"
	b32kinds "gentest/example.com/bughunt/b32/kinds"
	b32utf "gentest/example.com/bughunt/b32/utf"

	"github.com/protoplay/protoplay/runtime/wire"
)

// wantWireError wants err to be a *wire.Error wrapping sentinel, with the
// given Path and Detail containing detail.
func wantWireError(t *testing.T, what string, err, sentinel error, path, detail string) {
	t.Helper()
	var we *wire.Error
	if !errors.As(err, &we) || !errors.Is(err, sentinel) {
		t.Errorf("%s: error %v, want a *wire.Error wrapping %v", what, err, sentinel)
		return
	}
	if we.Path != path || !strings.Contains(we.Detail, detail) {
		t.Errorf("%s: error %v has Path %q, Detail %q; want Path %q, Detail with %q", what, err, we.Path, we.Detail, path, detail)
	}
}

// Case 32, payloads A-C: a sub-message split over two occurrences of a
// singular field, of a oneof member and of a map entry's value is merged
// and checked once, whole.
func TestC32RequiredCheckedOnMergedResult(t *testing.T) {
	var m b32.Assembly
	roundTrip(t, &m, "0a 02 08 01 0a 02 10 07", "0a 04 08 01 10 07")
	if m.Main.GetWeight() != 1 || m.Main.GetId() != 7 {
		t.Errorf("payload A: main = %+v", m.Main)
	}
	roundTrip(t, &m, "12 02 08 01 12 02 10 07", "12 04 08 01 10 07")
	if m.GetSpare().GetWeight() != 1 || m.GetSpare().GetId() != 7 {
		t.Errorf("payload B: spare = %+v", m.GetSpare())
	}
	roundTrip(t, &m, "22 0b 0a 01 6b 12 02 08 01 12 02 10 07", "22 09 0a 01 6b 12 04 08 01 10 07")
	if p := m.ByName["k"]; p.GetWeight() != 1 || p.GetId() != 7 {
		t.Errorf("payload C: by_name[k] = %+v", p)
	}
	// The pieces may come in either order, and other fields between them.
	roundTrip(t, &m, "0a 02 10 07 1a 01 61 0a 02 08 01", "0a 04 08 01 10 07 1a 01 61")
}

// The converse: what protobuf rejects is rejected, with the path to the
// incomplete message and the missing field's full name.
func TestC32RequiredMissingAnywhere(t *testing.T) {
	for _, c := range []struct{ in, path string }{
		{"0a 02 08 01", "main"},                       // the only piece lacks id
		{"0a 00", "main"},                             // empty sub-message
		{"12 02 08 01", "spare"},                      // oneof member
		{"12 02 10 07 12 00 1a 01 61 12 00", "spare"}, // a new member after note starts empty
		{`22 05 0a 01 6b 12 00`, `by_name["k"]`},      // map value without id
		{`22 03 0a 01 6b`, `by_name["k"]`},            // map entry without a value: an empty Part
		{`22 00`, `by_name[""]`},                      // empty map entry
		{`22 07 0a 01 6b 12 02 08 01`, `by_name["k"]`},
	} {
		var m b32.Assembly
		wantWireError(t, c.in, m.Unmarshal(unhex(t, c.in)), wire.ErrRequired, c.path, "bughunt.b32.Part.id")
	}
	var p b32.Part
	wantWireError(t, "empty Part", p.Unmarshal(nil), wire.ErrRequired, "", "bughunt.b32.Part.id")
	// An entry with the same key replaces the earlier one (it does not
	// merge into it), so a complete value followed by a partial one fails.
	var m b32.Assembly
	wantWireError(t, "replaced entry", m.Unmarshal(unhex(t, "22 07 0a 01 6b 12 02 10 07 22 07 0a 01 6b 12 02 08 01")),
		wire.ErrRequired, `by_name["k"]`, "bughunt.b32.Part.id")
	// A member replaced by another member of the oneof is not checked.
	if err := m.Unmarshal(unhex(t, "12 02 08 01 1a 01 61")); err != nil || m.GetNote() != "a" {
		t.Errorf("replaced oneof member: %v, %+v", err, &m)
	}
}

// Case 32, merge D: merging checks the whole result, sub-messages the
// payload does not touch included.
func TestC32MergeChecksWholeResult(t *testing.T) {
	m := &b32.Assembly{Main: &b32.Part{Weight: ptr[int32](1)}}
	err := m.UnmarshalDepth(unhex(t, "1a 01 61"), wire.DefaultMaxDepth)
	wantWireError(t, "merge D", err, wire.ErrRequired, "main", "bughunt.b32.Part.id")
	if err == nil || !strings.Contains(err.Error(), "required field not set: bughunt.b32.Part.id") {
		t.Errorf("merge D: error text %q", err)
	}
	// The same merge completing main succeeds.
	m = &b32.Assembly{Main: &b32.Part{Weight: ptr[int32](1)}}
	if err := m.UnmarshalDepth(unhex(t, "0a 02 10 07"), wire.DefaultMaxDepth); err != nil || m.Main.GetId() != 7 || m.Main.GetWeight() != 1 {
		t.Errorf("merge completing main: %v, %+v", err, m.Main)
	}
	// Into an existing map value that lacks id (a merge cannot fix it: an
	// entry replaces the value).
	m = &b32.Assembly{ByName: map[string]*b32.Part{"x": {}}}
	wantWireError(t, "merge into map", m.UnmarshalDepth(nil, wire.DefaultMaxDepth), wire.ErrRequired, `by_name["x"]`, "bughunt.b32.Part.id")
	// CheckInitialized is the check itself.
	if err := (&b32.Assembly{Main: &b32.Part{Id: ptr[int32](1)}}).CheckInitialized(); err != nil {
		t.Errorf("CheckInitialized of a complete message: %v", err)
	}
	if err := (*b32.Assembly)(nil).CheckInitialized(); err != nil {
		t.Errorf("CheckInitialized of a nil Assembly (no required field of its own): %v", err)
	}
	wantWireError(t, "nil Part", (*b32.Part)(nil).CheckInitialized(), wire.ErrRequired, "", "bughunt.b32.Part.id")
}

// Marshal fails, as proto.Marshal does, when a required field anywhere
// inside is missing, a nil map value, element or oneof member counting as
// an empty message; MarshalAppend then returns its input unchanged.
func TestC32MarshalChecksRequired(t *testing.T) {
	for _, c := range []struct {
		name string
		m    *b32.Assembly
		path string
	}{
		{"main", &b32.Assembly{Main: &b32.Part{Weight: ptr[int32](1)}}, "main"},
		{"spare", &b32.Assembly{Alt: &b32.Assembly_Spare{Spare: &b32.Part{}}}, "spare"},
		{"nil spare", &b32.Assembly{Alt: &b32.Assembly_Spare{}}, "spare"},
		{"map value", &b32.Assembly{ByName: map[string]*b32.Part{"a": {Id: ptr[int32](1)}, "b": {}}}, `by_name["b"]`},
		{"nil map value", &b32.Assembly{ByName: map[string]*b32.Part{"k": nil}}, `by_name["k"]`},
	} {
		_, err := c.m.Marshal()
		wantWireError(t, c.name, err, wire.ErrRequired, c.path, "bughunt.b32.Part.id")
		out, err := c.m.MarshalAppend([]byte("pre"))
		if err == nil || string(out) != "pre" {
			t.Errorf("%s: MarshalAppend = %q, %v; want the input back and an error", c.name, out, err)
		}
	}
	if _, err := (*b32.Part)(nil).Marshal(); !errors.Is(err, wire.ErrRequired) {
		t.Errorf("Marshal of a nil Part (an empty message) = %v, want ErrRequired", err)
	}
	if b, err := (*b32.Assembly)(nil).Marshal(); err != nil || len(b) != 0 {
		t.Errorf("Marshal of a nil Assembly = %x, %v; want empty", b, err)
	}
}

// Beyond the case: editions LEGACY_REQUIRED through a cycle, DELIMITED,
// repeated fields, int and bool map keys, a oneof and a type of another Go
// package; the paths name indexes and keys.
func TestC32RequiredOtherKinds(t *testing.T) {
	// Leaf{a: 1} and Leaf{b: 2} as LEN values.
	const a, b = "02 08 01", "02 10 02"
	accept := []string{
		"12" + a + "12" + b,             // leaf in two pieces
		"0a 04 12" + a + "0a 04 12" + b, // child.leaf in two pieces, each inside its own child occurrence
		"23 08 01 24 23 10 02 24",       // DELIMITED grouped in two pieces
		"42" + a + "42" + b,             // oneof member in two pieces
		"32 0a 08 05 12" + a + "12" + b, // by_id[5] split inside its entry
		"3a 0a 08 01 12" + a + "12" + b, // by_flag[true]
		"52 04 0a 02 0a 00 52 02 10 01", // plain: cannot hold required fields, anything goes
		"1a 04 08 01 10 02",             // one complete element
	}
	for _, in := range accept {
		var m b32kinds.Node
		if err := m.Unmarshal(unhex(t, in)); err != nil {
			t.Errorf("Unmarshal(%s): %v", in, err)
			continue
		}
		out, err := m.Marshal()
		if err != nil || len(out) != m.Size() {
			t.Errorf("Marshal after Unmarshal(%s): %x, %v (Size %d)", in, out, err, m.Size())
		}
	}
	reject := []struct{ in, path, detail string }{
		{"12" + a, "leaf", "Leaf.b"},
		{"0a 06 0a 04 12" + a, "child.child.leaf", "Leaf.b"},
		{"1a" + a + "1a" + b, "leaves[0]", "Leaf.b"}, // repeated: each occurrence is its own element
		{"23 08 01 24", "grouped", "Leaf.b"},
		{"2a 00", "parts[0]", "bughunt.b32.Part.id"},
		{"42" + a, "one", "Leaf.b"},
		{"32 02 08 05", "by_id[5]", "Leaf.a, bughunt.b32.kinds.Leaf.b"},
		{"3a 00", "by_flag[false]", "Leaf.a"},
	}
	for _, c := range reject {
		var m b32kinds.Node
		wantWireError(t, c.in, m.Unmarshal(unhex(t, c.in)), wire.ErrRequired, c.path, c.detail)
	}
	// Marshal: the same rules, paths from Marshal's nesting.
	n := &b32kinds.Node{Child: &b32kinds.Node{Leaves: []*b32kinds.Leaf{{A: ptr[int32](1), B: ptr[int32](2)}, nil}}}
	_, err := n.Marshal()
	wantWireError(t, "nil element", err, wire.ErrRequired, "child.leaves[1]", "Leaf.a")
	if err := n.CheckInitialized(); err == nil || err.(*wire.Error).Path != "child.leaves[1]" {
		t.Errorf("CheckInitialized = %v, want Path child.leaves[1]", err)
	}
	if err := (&b32kinds.Plain{Next: &b32kinds.Plain{}}).CheckInitialized(); err != nil {
		t.Errorf("Plain: %v", err)
	}
	// A cycle of required fields has no finite complete value; the check
	// still ends.
	deep := &b32kinds.Node{}
	for range 50 {
		deep = &b32kinds.Node{Child: deep}
	}
	if err := deep.CheckInitialized(); err != nil {
		t.Errorf("deep Node: %v", err)
	}
}

// Beyond the case: proto2 groups arrive in pieces too.
func TestC32RequiredGroups(t *testing.T) {
	var m b32groups.Holder
	roundTrip(t, &m, "0b 10 01 0c 0b 18 02 0c", "0b 10 01 18 02 0c")
	wantWireError(t, "one piece", m.Unmarshal(unhex(t, "0b 10 01 0c")), wire.ErrRequired, "g", "Holder.G.b")
	wantWireError(t, "repeated group", m.Unmarshal(unhex(t, "23 28 01 24 23 24")), wire.ErrRequired, "r[1]", "Holder.R.c")
}

// UTF-8: Marshal refuses invalid UTF-8 wherever protoplay's Unmarshal
// would refuse it (proto3 strings, editions VERIFY), as protobuf-go does;
// proto2 strings and utf8_validation = NONE are written as they are.
func TestC32MarshalUTF8(t *testing.T) {
	const bad = "\xff"
	for _, c := range []struct {
		name, field string
		m           interface {
			Marshal() ([]byte, error)
			MarshalAppend([]byte) ([]byte, error)
			Size() int
		}
	}{
		{"s", "bughunt.b32.utf.F.s", &b32utf.F{S: bad}},
		{"names", "bughunt.b32.utf.F.names", &b32utf.F{Names: []string{"ok", bad}}},
		{"tags key", "bughunt.b32.utf.F.TagsEntry.key", &b32utf.F{Tags: map[string]string{bad: "v"}}},
		{"tags value", "bughunt.b32.utf.F.TagsEntry.value", &b32utf.F{Tags: map[string]string{"k": "v" + bad}}},
		{"oneof", "bughunt.b32.utf.F.label", &b32utf.F{O: &b32utf.F_Label{Label: bad}}},
		{"optional", "bughunt.b32.utf.F.opt", &b32utf.F{Opt: ptr(bad)}},
		{"nested", "bughunt.b32.utf.Inner.t", &b32utf.F{Inner: &b32utf.Inner{T: bad}}},
		{"map value message", "bughunt.b32.utf.Inner.t", &b32utf.F{ByName: map[string]*b32utf.Inner{"k": {T: bad}}}},
		{"editions", "bughunt.b32.kinds.Leaf.s", &b32kinds.Node{Leaf: &b32kinds.Leaf{A: ptr[int32](1), B: ptr[int32](1), S: ptr(bad)}}},
		{"editions map", "bughunt.b32.kinds.Node.TagsEntry.key", &b32kinds.Node{Tags: map[string]string{bad: ""}}},
		{"editions repeated", "bughunt.b32.kinds.Node.names", &b32kinds.Node{Names: []string{bad}}},
		{"editions oneof", "bughunt.b32.kinds.Node.label", &b32kinds.Node{Pick: &b32kinds.Node_Label{Label: bad}}},
	} {
		_, err := c.m.Marshal()
		var we *wire.Error
		if !errors.As(err, &we) || !errors.Is(err, wire.ErrUTF8) || we.Detail != c.field || we.Offset != -1 {
			t.Errorf("%s: Marshal error %v, want ErrUTF8 naming %s", c.name, err, c.field)
		}
		if out, err := c.m.MarshalAppend([]byte("pre")); err == nil || string(out) != "pre" {
			t.Errorf("%s: MarshalAppend = %q, %v", c.name, out, err)
		}
	}
	// The example: F{S: "\xff"} used to give 1a 01 ff.
	if _, err := (&b32utf.F{S: bad}).Marshal(); err == nil || !strings.Contains(err.Error(), "invalid UTF-8") {
		t.Errorf("F{S: \\xff}: %v", err)
	}
	// Valid strings, bytes and unchecked strings are written as they are,
	// and Size agrees.
	for _, c := range []struct {
		m interface {
			Marshal() ([]byte, error)
			Size() int
		}
		want string
	}{
		{&b32utf.F{S: "é", Raw: []byte{0xff}}, "1a 02 c3 a9 5a 01 ff"},
		{&b32groups.Holder{Text: ptr(bad), Names: []string{bad}, Tags: map[string]string{bad: bad}}, "32 01 ff 3a 06 0a 01 ff 12 01 ff 42 01 ff"},
		{&b32kinds.Node{LooseTags: map[string]string{bad: bad}, Leaf: &b32kinds.Leaf{A: ptr[int32](1), B: ptr[int32](2), Loose: ptr(bad)}},
			"12 07 08 01 10 02 22 01 ff 6a 06 0a 01 ff 12 01 ff"},
	} {
		out, err := c.m.Marshal()
		want, _ := hex.DecodeString(strings.ReplaceAll(c.want, " ", ""))
		if err != nil || !bytes.Equal(out, want) || c.m.Size() != len(out) {
			t.Errorf("Marshal = %x, %v (Size %d); want %s", out, err, c.m.Size(), c.want)
		}
	}
	// And the bytes Unmarshal refuses are the ones Marshal refuses.
	var f b32utf.F
	if err := f.Unmarshal(unhex(t, "1a 01 ff")); !errors.Is(err, wire.ErrUTF8) {
		t.Errorf("Unmarshal(1a 01 ff) = %v, want ErrUTF8", err)
	}
	var h b32groups.Holder
	if err := h.Unmarshal(unhex(t, "32 01 ff 3a 06 0a 01 ff 12 01 ff 42 01 ff")); err != nil {
		t.Errorf("proto2 strings: %v", err)
	}
}
