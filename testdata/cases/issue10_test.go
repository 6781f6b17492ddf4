package casetest

// Cases 36 to 38 (issue 10): schema text, bundled imports and names.

import (
	"testing"

	b36 "gentest/example.com/bughunt/b36"
	b37 "gentest/example.com/bughunt/b37"
	b38 "gentest/example.com/bughunt/b38"
	b38b "gentest/example.com/bughunt/b38/b"
	b38d "gentest/example.com/bughunt/b38/d"
	b38key "gentest/example.com/bughunt/b38/key"
	b38m "gentest/example.com/bughunt/b38/m"
	b38val "gentest/example.com/bughunt/b38/val"
	b38x "gentest/example.com/bughunt/b38x"
)

// Case 36: comments holding U+FEFF and bytes that are not UTF-8 generate
// code that formats and builds (the harness vets it); the messages work.
func TestC36HostileComments(t *testing.T) {
	roundTrip(t, &b36.Joined{}, "0807", "0807")
	roundTrip(t, &b36.Menu{}, "0a04736f7570", "0a04736f7570")
}

// Case 37: a file importing go_features.proto and setting (pb.go)
// features generates as without them.
func TestC37GoFeatures(t *testing.T) {
	roundTrip(t, &b37.Chime{}, "0801 1202 6869", "0801 1202 6869")
	if b37.Tone_TONE_HIGH.String() != "TONE_HIGH" {
		t.Error(b37.Tone_TONE_HIGH.String())
	}
}

// Case 38: packages named b, d, m, key and val, the names of locals in the
// generated methods, are imported under other names; every method that
// declares those locals (Size, Marshal, Unmarshal, Clone, Equal) works
// with their types.
func TestC38ImportNamesVsLocals(t *testing.T) {
	z := int32(5)
	u := &b38.Uses{
		One:    &b38d.Sub{Z: &z},
		Many:   []*b38b.Sub{{Z: &z}, {}},
		ById:   map[int32]*b38m.Sub{1: {Z: &z}},
		Kinds:  map[string]b38key.Kind{"a": b38key.Kind_KIND_ONE},
		ByName: map[string]*b38val.Sub{"v": {Z: &z}},
	}
	b, err := u.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var got b38.Uses
	if err := got.Unmarshal(b); err != nil {
		t.Fatal(err)
	}
	if !got.Equal(u) || !u.Clone().Equal(u) || got.GetById()[1].GetZ() != 5 || got.GetKinds()["a"] != b38key.Kind_KIND_ONE {
		t.Errorf("round trip: %+v", &got)
	}
	roundTrip(t, &got, "0a020805", "0a020805")
}

// Case 38x: generated names that collide with other generated names are
// resolved with "_" suffixes; the schema's own types and enum values keep
// theirs. Naming each one here fails the build if it changes.
func TestC38xDerivedNameCollisions(t *testing.T) {
	o := int32(7)
	p := &b38x.Probe{GetO: &o, O_: &b38x.Probe_B{B: "x"}}
	if p.GetGetO() != 7 || p.GetO_().(*b38x.Probe_B).B != "x" || p.GetB() != "x" {
		t.Errorf("Probe getters: %+v", p)
	}
	roundTrip(t, p, "0807 1a0178", "0807 1a0178")
	s := "s"
	w := &b38x.Switch{O: &b38x.Switch_A{A: 2}, GetO_: &s}
	if w.GetO().(*b38x.Switch_A).A != 2 || w.GetGetO_() != "s" {
		t.Errorf("Switch getters: %+v", w)
	}
	roundTrip(t, w, "0802 120173", "120173 0802") // oneof members last, as protoc-gen-go
	h := &b38x.Holder{Pick: &b38x.Holder_Foo_{Foo: 3}}
	_ = b38x.Holder_Foo{X: &o}
	n := &b38x.Nested{O: &b38x.Nested_Bar_{Bar: 4}}
	if h.GetFoo() != 3 || n.GetBar() != 4 || b38x.Nested_Bar != 0 {
		t.Error("wrappers")
	}
	if b38x.Default_Pref_Q_ != 3 || (&b38x.Pref{}).GetQ() != 3 {
		t.Error("default")
	}
	_ = b38x.Default_Pref_Q{Y: &o}
	if b38x.Named_name_[1] != "value" || b38x.Named_value_["name"] != int32(b38x.Named_name) {
		t.Error("enum maps")
	}
	a, ab := &b38x.A{B_C: &b38x.A_X{X: 1}}, &b38x.A_B{C: &b38x.A_B_Y{Y: 2}}
	if a.GetX() != 1 || ab.GetY() != 2 {
		t.Error("oneof interfaces")
	}
}
