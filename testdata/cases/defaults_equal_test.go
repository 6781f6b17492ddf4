package casetest

// Issue 10, kind 2 (closed-enum defaults: cases 34 and 40; negative zero
// defaults: case 42) and kind 6 (Equal means proto.Equal: cases 39 and 41).

import (
	"encoding/hex"
	"errors"
	"math"
	"testing"

	b34 "gentest/example.com/bughunt/b34"
	b39 "gentest/example.com/bughunt/b39"
	b40 "gentest/example.com/bughunt/b40"
	"gentest/example.com/bughunt/b40/levels"
	b41 "gentest/example.com/bughunt/b41"
	b42 "gentest/example.com/bughunt/b42"

	"github.com/protoplay/protoplay/runtime/wire"
)

func TestC34ClosedEnumFirstValueDefault(t *testing.T) {
	for name, r := range map[string]*b34.Report{"empty": {}, "nil": nil} {
		if r.GetGrade() != b34.Grade_GRADE_B || r.GetMust() != b34.Grade_GRADE_B || r.GetAlt() != b34.Grade_GRADE_B {
			t.Errorf("%s Report: grade %d, must %d, alt %d; want GRADE_B (2) for each", name, r.GetGrade(), r.GetMust(), r.GetAlt())
		}
		if s := r.GetGrade().String(); s != "GRADE_B" {
			t.Errorf("%s Report: GetGrade().String() = %q", name, s)
		}
	}
	// The empty payload: must is missing (an error), the fields still read
	// the default.
	var r b34.Report
	if err := r.Unmarshal(nil); !errors.Is(err, wire.ErrRequired) {
		t.Fatalf("Unmarshal(empty) = %v, want the missing required field", err)
	}
	if r.GetGrade() != b34.Grade_GRADE_B || r.GetMust() != b34.Grade_GRADE_B || r.GetAlt() != b34.Grade_GRADE_B {
		t.Fatal("decoded empty Report: getters must read GRADE_B")
	}
	// grade = 0 is not a value of Grade: it goes to the unknown fields and
	// grade still reads GRADE_B.
	if err := r.Unmarshal(unhex(t, "08 00 10 01")); err != nil {
		t.Fatal(err)
	}
	if r.Grade != nil || r.GetGrade() != b34.Grade_GRADE_B || r.GetMust() != b34.Grade_GRADE_A {
		t.Fatalf("grade %v (%d), must %d", r.Grade, r.GetGrade(), r.GetMust())
	}
	// Reset and Clone keep reading the default.
	r.Reset()
	if r.Clone().GetGrade() != b34.Grade_GRADE_B || r.GetGrade() != b34.Grade_GRADE_B {
		t.Fatal("after Reset/Clone")
	}
}

func TestC40EditionsClosedEnumDefault(t *testing.T) {
	for name, j := range map[string]*b40.Job{"empty": {}, "nil": nil, "note set": {Pick: &b40.Job_Note{Note: "n"}}} {
		if j.GetState() != b40.State_STATE_QUEUED || j.GetLevel() != levels.Level_LEVEL_HIGH ||
			j.GetPinned() != b40.State_STATE_DONE || j.GetMood() != b40.Mood_MOOD_UNSPECIFIED ||
			j.GetAltState() != b40.State_STATE_QUEUED || j.GetAltLevel() != levels.Level_LEVEL_HIGH {
			t.Errorf("%s Job: state %d level %d pinned %d mood %d alt_state %d alt_level %d", name,
				j.GetState(), j.GetLevel(), j.GetPinned(), j.GetMood(), j.GetAltState(), j.GetAltLevel())
		}
	}
	var j b40.Job
	roundTrip(t, &j, "08 00", "08 00")
	if j.State != nil || j.GetState() != b40.State_STATE_QUEUED {
		t.Fatalf("state = 0 is undeclared: it must stay unset and read STATE_QUEUED, got %v, %d", j.State, j.GetState())
	}
	// Values of the open enum keep any number, 0 included.
	roundTrip(t, &j, "20 00", "20 00")
	if j.Mood == nil || *j.Mood != 0 {
		t.Fatal("open enum mood = 0 must be set")
	}
}

func TestC39UnknownFieldsEqualByNumber(t *testing.T) {
	decode := func(s string) *b39.Ticket {
		var m b39.Ticket
		if err := m.Unmarshal(unhex(t, s)); err != nil {
			t.Fatal(err)
		}
		return &m
	}
	x := decode("08 01 a0 06 05 aa 06 01 41 b0 09 07")
	y := decode("aa 06 01 41 b0 09 07 08 01 a0 06 05")
	z := decode("08 01 a0 06 06 aa 06 01 41 b0 09 07")
	if !x.Equal(y) || !y.Equal(x) {
		t.Error("X and Y differ only in the order of field numbers: Equal must hold")
	}
	if x.Equal(z) || z.Equal(x) {
		t.Error("X and Z differ in [seat]: Equal must not hold")
	}
	// Within one field number the order counts.
	if decode("a0 06 05 a0 06 06").Equal(decode("a0 06 06 a0 06 05")) {
		t.Error("two values of [seat] in other orders must differ")
	}
	if !x.Equal(x.Clone()) {
		t.Error("Clone")
	}
}

func TestC41EqualFloats(t *testing.T) {
	negZero := math.Copysign(0, -1)
	nanA := math.NaN()
	nanB := math.Float64frombits(0x7ff8000000000001)
	nan32 := float32(math.NaN())
	neq := func(name string, a, b *b41.Sample, want bool) {
		t.Helper()
		if a.Equal(b) != want || b.Equal(a) != want {
			t.Errorf("%s: Equal = %v, want %v", name, a.Equal(b), want)
		}
	}
	neq("implicit -0 vs unset", &b41.Sample{D: negZero}, &b41.Sample{}, false)
	neq("implicit float -0 vs unset", &b41.Sample{F: float32(negZero)}, &b41.Sample{}, false)
	neq("implicit -0 vs -0", &b41.Sample{D: negZero}, &b41.Sample{D: negZero}, true)
	neq("implicit NaN payloads", &b41.Sample{D: nanA}, &b41.Sample{D: nanB}, true)
	neq("implicit NaN vs 1", &b41.Sample{D: nanA}, &b41.Sample{D: 1}, false)
	neq("optional -0 vs +0", &b41.Sample{Od: ptr(negZero)}, &b41.Sample{Od: ptr(0.0)}, true)
	neq("optional +0 vs unset", &b41.Sample{Od: ptr(0.0)}, &b41.Sample{}, false)
	neq("optional NaN", &b41.Sample{Od: ptr(nanA)}, &b41.Sample{Od: ptr(nanB)}, true)
	neq("optional float NaN", &b41.Sample{Of: ptr(nan32)}, &b41.Sample{Of: ptr(nan32)}, true)
	neq("repeated -0 vs +0", &b41.Sample{Rd: []float64{negZero}}, &b41.Sample{Rd: []float64{0}}, true)
	neq("repeated NaN", &b41.Sample{Rd: []float64{1, nanA}}, &b41.Sample{Rd: []float64{1, nanB}}, true)
	neq("map NaN", &b41.Sample{Md: map[string]float64{"a": nanA}}, &b41.Sample{Md: map[string]float64{"a": nanB}}, true)
	neq("map float NaN vs 0", &b41.Sample{Mf: map[int32]float32{1: nan32}}, &b41.Sample{Mf: map[int32]float32{1: 0}}, false)
	neq("oneof -0 vs +0", &b41.Sample{Pick: &b41.Sample_Pd{Pd: negZero}}, &b41.Sample{Pick: &b41.Sample_Pd{}}, true)
	neq("oneof NaN", &b41.Sample{Pick: &b41.Sample_Pf{Pf: nan32}}, &b41.Sample{Pick: &b41.Sample_Pf{Pf: nan32}}, true)
	neq("oneof pd vs pf", &b41.Sample{Pick: &b41.Sample_Pd{}}, &b41.Sample{Pick: &b41.Sample_Pf{}}, false)
	neq("nested NaN", &b41.Sample{Sub: &b41.Sample{D: nanA}}, &b41.Sample{Sub: &b41.Sample{D: nanB}}, true)
	neq("nested -0", &b41.Sample{Sub: &b41.Sample{D: negZero}}, &b41.Sample{Sub: &b41.Sample{}}, false)
	all := &b41.Sample{D: nanA, F: nan32, Od: ptr(nanA), Of: ptr(nan32), Rd: []float64{nanA}, Rf: []float32{nan32},
		Md: map[string]float64{"n": nanA}, Mf: map[int32]float32{1: nan32}, Pick: &b41.Sample_Pd{Pd: nanA},
		Sub: &b41.Sample{D: nanB}, Subs: []*b41.Sample{{F: nan32}}, ByName: map[string]*b41.Sample{"x": {D: nanA}}}
	if !all.Equal(all.Clone()) {
		t.Error("a message holding NaN everywhere must equal its Clone")
	}
	// What Equal says about floats matches the bytes: decoding the encoding
	// of a message gives an equal message.
	for _, m := range []*b41.Sample{all, {D: negZero}, {Od: ptr(negZero)}, {Pick: &b41.Sample_Pd{Pd: negZero}}} {
		b, err := m.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		var back b41.Sample
		if err := back.Unmarshal(b); err != nil || !back.Equal(m) {
			t.Errorf("decode(Marshal(m)) != m for %x: %v", b, err)
		}
	}
}

func TestC41TypedNilOneofWrapper(t *testing.T) {
	for _, m := range []*b41.Sample{
		{Pick: (*b41.Sample_Pd)(nil)},
		{Pick: (*b41.Sample_Pf)(nil)},
		{Pick: (*b41.Sample_Child)(nil)},
		{Pick: (*b41.Sample_Raw)(nil)},
	} {
		name := typeName(m)
		if n := m.Size(); n != 0 {
			t.Errorf("%s: Size = %d, want 0", name, n)
		}
		if b, err := m.Marshal(); err != nil || len(b) != 0 {
			t.Errorf("%s: Marshal = %x, %v; want nothing", name, b, err)
		}
		if b, err := m.MarshalAppend([]byte("p")); err != nil || string(b) != "p" {
			t.Errorf("%s: MarshalAppend = %q, %v", name, b, err)
		}
		if c := m.Clone(); c.Pick != nil {
			t.Errorf("%s: Clone().Pick = %#v, want nil", name, c.Pick)
		}
		if !m.Equal(&b41.Sample{}) || !(&b41.Sample{}).Equal(m) || !m.Equal(m.Clone()) {
			t.Errorf("%s: a nil wrapper must equal no member", name)
		}
		if m.Equal(&b41.Sample{Pick: &b41.Sample_Pd{}}) || (&b41.Sample{Pick: &b41.Sample_Pd{}}).Equal(m) {
			t.Errorf("%s: a nil wrapper must differ from a set member", name)
		}
		if m.GetPd() != 0 || m.GetPf() != 0 || m.GetChild() != nil || m.GetRaw() != nil {
			t.Errorf("%s: getters", name)
		}
		// Decoding a member merges into the message: the nil wrapper is
		// replaced, not dereferenced.
		c := &b41.Sample{Pick: m.Pick}
		if err := c.UnmarshalDepth(unhex(t, "5a 02 08 00"), wire.DefaultMaxDepth); err != nil {
			t.Fatalf("%s: merge: %v", name, err)
		}
		if c.GetChild() == nil {
			t.Errorf("%s: merge lost the decoded child", name)
		}
	}
	if !(&b41.Sample{Pick: (*b41.Sample_Pd)(nil)}).Equal(&b41.Sample{Pick: (*b41.Sample_Child)(nil)}) {
		t.Error("nil wrappers of two members both mean no member")
	}
}

func typeName(m *b41.Sample) string {
	switch m.Pick.(type) {
	case *b41.Sample_Pd:
		return "(*Sample_Pd)(nil)"
	case *b41.Sample_Pf:
		return "(*Sample_Pf)(nil)"
	case *b41.Sample_Child:
		return "(*Sample_Child)(nil)"
	case *b41.Sample_Raw:
		return "(*Sample_Raw)(nil)"
	}
	return "?"
}

func TestC41NilMessagesInContainers(t *testing.T) {
	for _, c := range []struct {
		name  string
		m     *b41.Sample
		empty *b41.Sample // the same with empty messages for the nil ones
		want  string
	}{
		{"oneof member", &b41.Sample{Pick: &b41.Sample_Child{}}, &b41.Sample{Pick: &b41.Sample_Child{Child: &b41.Sample{}}}, "5a 00"},
		{"repeated element", &b41.Sample{Subs: []*b41.Sample{nil}}, &b41.Sample{Subs: []*b41.Sample{{}}}, "72 00"},
		{"map value", &b41.Sample{ByName: map[string]*b41.Sample{"a": nil}}, &b41.Sample{ByName: map[string]*b41.Sample{"a": {}}}, "7a 05 0a 01 61 12 00"},
	} {
		b, err := c.m.Marshal()
		if err != nil || hex.EncodeToString(b) != hex.EncodeToString(unhex(t, c.want)) || c.m.Size() != len(b) {
			t.Errorf("%s: Marshal = %x, %v (Size %d); want %s", c.name, b, err, c.m.Size(), c.want)
		}
		if !c.m.Equal(c.empty) || !c.empty.Equal(c.m) || !c.m.Equal(c.m.Clone()) {
			t.Errorf("%s: a nil message must equal an empty one here", c.name)
		}
		nonEmpty := c.empty.Clone()
		switch {
		case nonEmpty.GetChild() != nil:
			nonEmpty.GetChild().D = 1
		case len(nonEmpty.Subs) > 0:
			nonEmpty.Subs[0].D = 1
		default:
			nonEmpty.ByName["a"].D = 1
		}
		if c.m.Equal(nonEmpty) || nonEmpty.Equal(c.m) {
			t.Errorf("%s: a nil message must differ from a non-empty one", c.name)
		}
	}
	// A singular message field keeps presence: nil differs from empty.
	if (&b41.Sample{}).Equal(&b41.Sample{Sub: &b41.Sample{}}) {
		t.Error("sub: nil and empty must differ")
	}
}

// Case 42: a negative zero default reads as negative zero, as
// protobuf-go's FieldDescriptor.Default() gives it.
func TestC42NegativeZeroDefault(t *testing.T) {
	for name, z := range map[string]*b42.Zeros{"empty": {}, "nil": nil} {
		if !math.Signbit(z.GetD()) || !math.Signbit(float64(z.GetF())) || !math.Signbit(float64(z.GetTiny())) ||
			!math.Signbit(z.GetOd()) || !math.Signbit(float64(z.GetOf())) {
			t.Errorf("%s Zeros: d %v, f %v, tiny %v, od %v, of %v; want -0 for each", name,
				math.Signbit(z.GetD()), math.Signbit(float64(z.GetF())), math.Signbit(float64(z.GetTiny())),
				math.Signbit(z.GetOd()), math.Signbit(float64(z.GetOf())))
		}
		if math.Signbit(z.GetPlus()) {
			t.Errorf("%s Zeros: plus reads -0, want +0", name)
		}
	}
	// A set value wins over the default, whatever its sign.
	zero := 0.0
	if z := (&b42.Zeros{D: &zero}); math.Signbit(z.GetD()) {
		t.Error("d set to +0 reads -0")
	}
}
