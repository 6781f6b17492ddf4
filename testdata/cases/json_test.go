package casetest

// The JSON expectations in the case headers, checked on the generated
// ProtoJSON methods (the expected texts are protojson's; see the headers'
// "Verified" lines and compiler/gogen's TestJSONDifferential).

import (
	"encoding/json"
	"errors"
	"math"
	"testing"

	c01 "gentest/example.com/bugcorpus/c01"
	ctype "gentest/example.com/bugcorpus/c06/type"
	c10 "gentest/example.com/bugcorpus/c10"
	c12 "gentest/example.com/bugcorpus/c12"
	c14 "gentest/example.com/bugcorpus/c14"
	c17 "gentest/example.com/bugcorpus/c17"
	c19 "gentest/example.com/bugcorpus/c19"
	c20 "gentest/example.com/bugcorpus/c20"
	c30 "gentest/example.com/bugcorpus/c30"

	"github.com/protoplay/protoplay/runtime/protojson"
	"github.com/protoplay/protoplay/runtime/wire"
	"github.com/protoplay/protoplay/runtime/wkt/structpb"
)

type jsonMessage interface {
	MarshalProtoJSON(protojson.MarshalOptions) ([]byte, error)
	UnmarshalProtoJSON([]byte, protojson.UnmarshalOptions) error
}

func wantJSON(t *testing.T, m jsonMessage, o protojson.MarshalOptions, want string) {
	t.Helper()
	got, err := m.MarshalProtoJSON(o)
	if err != nil {
		t.Fatalf("MarshalProtoJSON: %v", err)
	}
	if string(got) != want {
		t.Errorf("MarshalProtoJSON(%+v) = %s, want %s", o, got, want)
	}
}

// Case 01: the fields renamed for Go keep their JSON names.
func TestJSONCase01Names(t *testing.T) {
	m := &c01.Ticket{Token: "a", GetToken_: "b", Reset_: true, String_: "s", Size_: 6, Clone_: true}
	wantJSON(t, m, protojson.MarshalOptions{}, `{"token":"a","getToken":"b","reset":true,"string":"s","size":"6","clone":true}`)
	var back c01.Ticket
	if err := back.UnmarshalJSON([]byte(`{"get_token":"b","size":7}`)); err != nil || back.GetToken_ != "b" || back.Size_ != 7 {
		t.Errorf("UnmarshalJSON: %v, %+v", err, &back)
	}
}

// Case 06: Go keywords as field names keep their JSON names.
func TestJSONCase06Keywords(t *testing.T) {
	m := &ctype.Keywords{Func: "f", Map: map[string]int32{"b": 2, "a": 1}, Range: []int32{1}, Default: "d"}
	wantJSON(t, m, protojson.MarshalOptions{}, `{"func":"f","map":{"a":1,"b":2},"range":[1],"default":"d"}`)
}

// Case 10: enum values are written with their original names (the first
// name of an alias); every name, and numbers, are read.
func TestJSONCase10EnumNames(t *testing.T) {
	for v, want := range map[c10.Level]string{c10.Level_LEVEL_1: `"LEVEL_1"`, 7: `7`} {
		if b, err := v.MarshalJSON(); err != nil || string(b) != want {
			t.Errorf("%d: %s, %v; want %s", v, b, err, want)
		}
	}
	if b, _ := c10.Shade_DARK.MarshalJSON(); string(b) != `"SHADE_DARK"` {
		t.Errorf("alias: %s", b)
	}
	for in, want := range map[string]c10.Shade{`"DARK"`: 1, `"SHADE_DARK"`: 1, `"SHADE"`: 3, `3`: 3} {
		var s c10.Shade
		if err := s.UnmarshalJSON([]byte(in)); err != nil || s != want {
			t.Errorf("%s: %d, %v", in, s, err)
		}
	}
	var s c10.Shade
	if err := s.UnmarshalJSON([]byte(`"NOPE"`)); !errors.Is(err, protojson.ErrInvalidValue) {
		t.Errorf("unknown name: %v", err)
	}
}

// Case 12: json_name and the default JSON names, case-sensitive; the proto
// name is accepted on input and written under UseProtoNames.
func TestJSONCase12Names(t *testing.T) {
	m := &c12.Gauge{QueueDepth: 1, QUEUE_DEPTH: 2, Backlog: 3}
	wantJSON(t, m, protojson.MarshalOptions{}, `{"queueDepth":1,"QUEUEDEPTH":2,"pending":3}`)
	wantJSON(t, m, protojson.MarshalOptions{UseProtoNames: true}, `{"queueDepth":1,"QUEUE_DEPTH":2,"backlog":3}`)
	for _, in := range []string{`{"queueDepth":1,"QUEUE_DEPTH":2,"backlog":3}`, `{"queueDepth":1,"QUEUEDEPTH":2,"pending":3}`} {
		var back c12.Gauge
		if err := back.UnmarshalJSON([]byte(in)); err != nil || !back.Equal(m) {
			t.Errorf("%s: %v, %+v", in, err, &back)
		}
	}
	var back c12.Gauge
	if err := back.UnmarshalJSON([]byte(`{"pending":3,"backlog":3}`)); !errors.Is(err, protojson.ErrDuplicate) {
		t.Errorf("a field by both names: %v", err)
	}
	// encoding/json goes through MarshalJSON, also for a pointer field.
	b, err := json.Marshal(struct{ G *c12.Gauge }{m})
	if err != nil || string(b) != `{"G":{"queueDepth":1,"QUEUEDEPTH":2,"pending":3}}` {
		t.Errorf("encoding/json: %s, %v", b, err)
	}
}

// Case 14: a group in a oneof is keyed by its field's JSON name ("probe");
// the group's type name is read too; two members of the oneof are an
// error.
func TestJSONCase14GroupInOneof(t *testing.T) {
	var m c14.Check
	if err := m.Unmarshal(unhex(t, "0b08050c")); err != nil {
		t.Fatal(err)
	}
	wantJSON(t, &m, protojson.MarshalOptions{}, `{"probe":{"depth":5}}`)
	var back c14.Check
	if err := back.UnmarshalJSON([]byte(`{"Probe":{"depth":5}}`)); err != nil || !back.Equal(&m) {
		t.Errorf("by type name: %v", err)
	}
	if err := back.UnmarshalJSON([]byte(`{"probe":{"depth":5},"host":"h"}`)); !errors.Is(err, protojson.ErrDuplicate) {
		t.Errorf("two members of a oneof: %v", err)
	}
}

// Case 17: JSON has no unknown fields, so an undeclared number of a closed
// enum is kept in the field on JSON input, as protojson keeps it; open
// enums write undeclared numbers as numbers.
func TestJSONCase17ClosedEnum(t *testing.T) {
	var m c17.Palette
	if err := m.UnmarshalJSON([]byte(`{"hue":7,"hues":["RED",2],"byName":{"k":"GREEN"}}`)); err != nil {
		t.Fatal(err)
	}
	wantJSON(t, &m, protojson.MarshalOptions{}, `{"hue":7,"hues":["RED","GREEN"],"byName":{"k":"GREEN"}}`)
	if err := m.UnmarshalProtoJSON([]byte(`{"hue":"PURPLE","hues":["RED","PURPLE"]}`), protojson.UnmarshalOptions{DiscardUnknown: true}); err != nil {
		t.Fatal(err)
	}
	wantJSON(t, &m, protojson.MarshalOptions{}, `{"hues":["RED"]}`)
}

// Case 19: -0, NaN and the infinities in JSON; float precision; a Value
// holding NaN cannot be written; 3.5e38 is no float.
func TestJSONCase19Floats(t *testing.T) {
	m := &c19.Measure{Ratio: math.Copysign(0, -1), Gain: 0.1, Samples: []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e21, 1e-7}}
	wantJSON(t, m, protojson.MarshalOptions{}, `{"ratio":-0,"gain":0.1,"samples":["NaN","Infinity","-Infinity",1e+21,1e-7]}`)
	var back c19.Measure
	if err := back.UnmarshalJSON([]byte(`{"ratio":-0,"gain":"0.1","samples":["NaN","Infinity","-Infinity",1e21,"1e-7"]}`)); err != nil || !back.Equal(m) || !math.Signbit(back.Ratio) {
		t.Errorf("read back: %v %+v", err, &back)
	}
	if err := back.UnmarshalJSON([]byte(`{"gain":3.5e38}`)); !errors.Is(err, protojson.ErrInvalidValue) {
		t.Errorf("gain 3.5e38: %v", err)
	}
	raw := &c19.Measure{Raw: structpb.NewNumberValue(math.NaN())}
	if _, err := raw.MarshalJSON(); !errors.Is(err, protojson.ErrInvalidValue) {
		t.Errorf("Value(NaN): %v", err)
	}
}

// Case 20: EmitUnpopulated writes an unset message field as null and does
// not expand it, so recursive types terminate.
func TestJSONCase20Recursive(t *testing.T) {
	wantJSON(t, &c20.Chain{}, protojson.MarshalOptions{EmitUnpopulated: true}, `{"next":null,"forks":{}}`)
	wantJSON(t, &c20.Chain{Next: &c20.Chain{}}, protojson.MarshalOptions{EmitUnpopulated: true}, `{"next":{"next":null,"forks":{}},"forks":{}}`)
	wantJSON(t, &c20.Expr{}, protojson.MarshalOptions{EmitUnpopulated: true}, `{}`)
}

// Case 30: JSON never writes unset fields, defaults or not; set fields
// are written even at their zero value; required fields are checked on
// both sides unless AllowPartial.
func TestJSONCase30Required(t *testing.T) {
	off, id := c30.Mode_MODE_OFF, int64(0)
	wantJSON(t, &c30.Job{Mode: &off, Id: &id}, protojson.MarshalOptions{}, `{"mode":"MODE_OFF","id":"0"}`)
	wantJSON(t, &c30.Job{Mode: &off, Id: &id}, protojson.MarshalOptions{EmitUnpopulated: true},
		`{"mode":"MODE_OFF","id":"0","retries":null,"label":null,"magic":null,"ratio":null,"drift":null,"parent":null}`)
	if _, err := (&c30.Job{}).MarshalJSON(); !errors.Is(err, wire.ErrRequired) {
		t.Errorf("Marshal of an empty Job: %v", err)
	}
	var back c30.Job
	if err := back.UnmarshalJSON([]byte(`{"id":"1","parent":{}}`)); !errors.Is(err, wire.ErrRequired) {
		t.Errorf("Unmarshal without mode: %v", err)
	}
	if err := back.UnmarshalProtoJSON([]byte(`{"id":"1"}`), protojson.UnmarshalOptions{AllowPartial: true}); err != nil || back.GetId() != 1 || back.GetMode() != c30.Mode_MODE_ON {
		t.Errorf("AllowPartial: %v", err)
	}
}
