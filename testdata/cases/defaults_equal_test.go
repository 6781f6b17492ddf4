package casetest

// Issue 10, kind 2 (closed-enum defaults: cases 34 and 40).

import (
	"errors"
	"testing"

	b34 "gentest/example.com/bughunt/b34"
	b40 "gentest/example.com/bughunt/b40"
	"gentest/example.com/bughunt/b40/levels"

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
	// A map entry without a value holds the value's default, the first
	// declared value; it is re-encoded with the value written out.
	roundTrip(t, &j, "42 03 0a 01 6b", "42 05 0a 01 6b 10 05")
	if v, ok := j.ByKey["k"]; !ok || v != b40.State_STATE_QUEUED {
		t.Fatalf("by_key = %v, want k: STATE_QUEUED", j.ByKey)
	}
	// Values of the open enum keep any number, 0 included.
	roundTrip(t, &j, "20 00", "20 00")
	if j.Mood == nil || *j.Mood != 0 {
		t.Fatal("open enum mood = 0 must be set")
	}
}
