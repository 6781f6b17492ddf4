package wkt_test

import (
	"bytes"
	"testing"

	gjson "google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	gduration "google.golang.org/protobuf/types/known/durationpb"
	gfieldmask "google.golang.org/protobuf/types/known/fieldmaskpb"
	gtimestamp "google.golang.org/protobuf/types/known/timestamppb"

	"github.com/protoplay/protoplay/runtime/protojson"
	"github.com/protoplay/protoplay/runtime/wkt/durationpb"
	"github.com/protoplay/protoplay/runtime/wkt/fieldmaskpb"
	"github.com/protoplay/protoplay/runtime/wkt/timestamppb"
)

type jsonMessage interface {
	MarshalProtoJSON(protojson.MarshalOptions) ([]byte, error)
	UnmarshalProtoJSON([]byte, protojson.UnmarshalOptions) error
	Marshal() ([]byte, error)
}

// same compares both ways: ours and theirs (the same value) must write the
// same JSON or both fail; then each JSON input must be accepted or
// rejected alike, to the same value.
func compareOut(t *testing.T, ours jsonMessage, theirs proto.Message) {
	t.Helper()
	got, err := ours.MarshalProtoJSON(protojson.MarshalOptions{})
	want, werr := gjson.Marshal(theirs)
	if (err == nil) != (werr == nil) || err == nil && !bytes.Equal(got, bytes.TrimSpace(want)) {
		t.Errorf("%v: protoplay %s (%v), protojson %s (%v)", theirs, got, err, want, werr)
	}
}

func compareIn(t *testing.T, in string, ours jsonMessage, theirs proto.Message) {
	t.Helper()
	err := ours.UnmarshalProtoJSON([]byte(in), protojson.UnmarshalOptions{})
	werr := gjson.Unmarshal([]byte(in), theirs)
	if (err == nil) != (werr == nil) {
		t.Errorf("%s: protoplay %v, protojson %v", in, err, werr)
		return
	}
	if err != nil {
		return
	}
	a, _ := ours.Marshal()
	b, _ := proto.MarshalOptions{Deterministic: true}.Marshal(theirs)
	if !bytes.Equal(a, b) {
		t.Errorf("%s: protoplay reads %x, protojson %x", in, a, b)
	}
}

func TestDurationJSON(t *testing.T) {
	for _, v := range [][2]int64{{0, 0}, {1, 0}, {1, 500000000}, {-1, -500000000}, {0, -1}, {0, 1000}, {0, 1000000}, {3, 1}, {315576000000, 999999999},
		{-315576000000, -999999999}, {315576000001, 0}, {1, -1}, {0, 1000000000}, {-1, 1}} {
		compareOut(t, &durationpb.Duration{Seconds: v[0], Nanos: int32(v[1])}, &gduration.Duration{Seconds: v[0], Nanos: int32(v[1])})
	}
	for _, in := range []string{`"1s"`, `"1.5s"`, `"-1.5s"`, `"+1s"`, `".5s"`, `"1.s"`, `"1"`, `"01s"`, `"1.0000000001s"`, `"-0s"`, `"-.1s"`,
		`"315576000000.999999999s"`, `"315576000001s"`, `"9223372036854775808s"`, `" 1s"`, `1`, `null`, `"1S"`, `"1e3s"`, `"s"`, `"-s"`} {
		compareIn(t, in, new(durationpb.Duration), new(gduration.Duration))
	}
}

func TestTimestampJSON(t *testing.T) {
	for _, v := range [][2]int64{{0, 0}, {1, 1}, {-1, 999999999}, {1700000000, 123000000}, {1700000000, 123456000}, {253402300799, 999999999},
		{-62135596800, 0}, {-62135596801, 0}, {253402300800, 0}, {0, -1}, {0, 1000000000}} {
		compareOut(t, &timestamppb.Timestamp{Seconds: v[0], Nanos: int32(v[1])}, &gtimestamp.Timestamp{Seconds: v[0], Nanos: int32(v[1])})
	}
	for _, in := range []string{`"1970-01-01T00:00:00Z"`, `"1970-01-01T00:00:00.000000001Z"`, `"1970-01-01T00:00:00.0000000001Z"`,
		`"1970-01-01T01:00:00+01:00"`, `"1970-01-01T00:00:00-00:30"`, `"0001-01-01T00:00:00Z"`, `"0000-12-31T23:59:59Z"`,
		`"9999-12-31T23:59:59.999999999Z"`, `"9999-12-31T23:59:59-01:00"`, `"1970-01-01T00:00:00"`, `"1970-01-01t00:00:00z"`,
		`"1970-1-1T00:00:00Z"`, `"1970-01-01T24:00:00Z"`, `0`, `null`, `"1970-01-01T00:00:60Z"`} {
		compareIn(t, in, new(timestamppb.Timestamp), new(gtimestamp.Timestamp))
	}
}

func TestFieldMaskJSON(t *testing.T) {
	for _, paths := range [][]string{nil, {"a"}, {"foo_bar", "baz.qux_quux"}, {"fooBar"}, {"foo_1"}, {"a..b"}, {""}, {"_a"}, {"a_"}} {
		compareOut(t, &fieldmaskpb.FieldMask{Paths: paths}, &gfieldmask.FieldMask{Paths: paths})
	}
	for _, in := range []string{`""`, `"a"`, `"fooBar,baz.quxQuux"`, `"foo_bar"`, `" a "`, `"a,"`, `"a..b"`, `"1a"`, `"A"`, `null`, `[]`} {
		compareIn(t, in, new(fieldmaskpb.FieldMask), new(gfieldmask.FieldMask))
	}
}
