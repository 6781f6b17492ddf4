package gocheck

import (
	"strings"
	"testing"
)

// TestJudgeMarshal: Marshal's bytes pass when equal to the reference's, or
// when they are the same bytes in another order and decode Equal (map
// entries in another order); another encoding of the same values (a
// varint's unused high bits flipped, as the Break hook does to an int32)
// fails, with the first differing byte.
func TestJudgeMarshal(t *testing.T) {
	ref := "0a020801" + "0a020802" // two map entries
	good := func(out string) Outcome {
		b, _ := ParseHex(out)
		return Outcome{Out: b, Size: len(b), CloneEqual: true, CloneOut: b, ReparsedEqual: true}
	}
	for _, c := range []struct {
		out, msg string
		offset   int
	}{
		{ref, "", -1},
		{"0a020802" + "0a020801", "", 3},
		{"0a020801" + "0a020803", "not a reordering", 7},
		{"0a020801", "4 bytes where the reference has 8", 4},
	} {
		r := Judge(Request{Type: "t.M", Hex: ref}, "t.M", good(c.out), nil)
		var msg string
		for _, st := range r.Steps {
			if !st.Pass {
				msg += st.Name + ": " + st.Message
			}
		}
		if r.Pass != (c.msg == "") || !strings.Contains(msg, c.msg) || r.Offset != c.offset {
			t.Errorf("out %s: pass %v, offset %d, %q; want message %q, offset %d", c.out, r.Pass, r.Offset, msg, c.msg, c.offset)
		}
	}
}

// TestJudgeProbes: a probe must be refused exactly where the reference
// refuses it, for the same kind of reason.
func TestJudgeProbes(t *testing.T) {
	req := Request{Type: "t.M", RefError: "required field t.M.a not set", Probes: []Probe{
		{Name: "empty", RefError: "required field t.M.a not set"},
		{Name: "bad utf8", Hex: "0a01ff", RefError: "invalid UTF-8"},
		{Name: "fine", Hex: "0801"},
	}}
	r := Judge(req, "t.M", Outcome{}, []Outcome{{Unmarshal: "wire: required field a not set"}, {Unmarshal: "wire: string field a: invalid UTF-8"}, {}})
	if !r.Pass || len(r.Steps) != 1 || r.Steps[0].Name != "errors" {
		t.Errorf("agreeing probes: %+v", r)
	}
	r = Judge(req, "t.M", Outcome{}, []Outcome{{}, {Unmarshal: "wire: truncated"}, {Panic: "boom"}})
	if r.Pass || !strings.Contains(r.Steps[0].Message, "empty: the reference refused it: required field t.M.a not set; the generated Unmarshal accepted it") ||
		!strings.Contains(r.Steps[0].Message, "bad utf8: the reference refused it: invalid UTF-8; the generated Unmarshal refused it: wire: truncated") ||
		!strings.Contains(r.Steps[0].Message, "fine: the reference accepted it; the generated Unmarshal panicked: boom") {
		t.Errorf("disagreeing probes: %+v", r)
	}
}

// TestHarnessUsesAdapter: the native harness exercises each type through
// Adapter, the glue the interpreter uses too.
func TestHarnessUsesAdapter(t *testing.T) {
	h := Harness([]Type{{"example.com/a", "M"}, {"example.com/b", "N"}, {"example.com/a", "O"}})
	for _, want := range []string{Adapter("gocheck", "p0", "M"), Adapter("gocheck", "p1", "N"), Adapter("gocheck", "p0", "O"), `p0 "example.com/a"`, `gocheck "` + ImportPath + `"`} {
		if !strings.Contains(h, want) {
			t.Errorf("harness lacks %s:\n%s", want, h)
		}
	}
	if !strings.HasPrefix(Source, "package gocheck\n") || !strings.Contains(Source, "func Exercise(") {
		t.Errorf("Source is not exercise.go")
	}
}
