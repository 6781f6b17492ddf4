package anypb_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	refany "google.golang.org/protobuf/types/known/anypb"
	refdur "google.golang.org/protobuf/types/known/durationpb"
	refstruct "google.golang.org/protobuf/types/known/structpb"

	"github.com/protoplay/protoplay/runtime/wkt/anypb"
	"github.com/protoplay/protoplay/runtime/wkt/durationpb"
	"github.com/protoplay/protoplay/runtime/wkt/emptypb"
	"github.com/protoplay/protoplay/runtime/wkt/structpb"
	"github.com/protoplay/protoplay/runtime/wkt/timestamppb"
)

const durationName = "google.protobuf.Duration"

func TestNewInteropWithProtobufGo(t *testing.T) {
	d := durationpb.New(-1500 * time.Millisecond)
	a, err := anypb.New(d, durationName)
	if err != nil {
		t.Fatal(err)
	}
	if a.TypeUrl != "type.googleapis.com/google.protobuf.Duration" {
		t.Errorf("TypeUrl = %q", a.TypeUrl)
	}
	want, err := refany.New(refdur.New(-1500 * time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if a.TypeUrl != want.TypeUrl || string(a.Value) != string(want.Value) {
		t.Errorf("New = {%q, %x}, protobuf-go gives {%q, %x}", a.TypeUrl, a.Value, want.TypeUrl, want.Value)
	}

	// protoplay packs, protobuf-go unpacks.
	b, err := a.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var theirs refany.Any
	if err := proto.Unmarshal(b, &theirs); err != nil {
		t.Fatal(err)
	}
	var theirDur refdur.Duration
	if err := theirs.UnmarshalTo(&theirDur); err != nil {
		t.Fatal(err)
	}
	if theirDur.AsDuration() != -1500*time.Millisecond {
		t.Errorf("protobuf-go unpacks %v", theirDur.AsDuration())
	}

	// protobuf-go packs, protoplay unpacks.
	b, err = proto.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	var ours anypb.Any
	if err := ours.Unmarshal(b); err != nil {
		t.Fatal(err)
	}
	if got, w := ours.MessageName(), string(want.MessageName()); got != w {
		t.Errorf("MessageName = %q, protobuf-go gives %q", got, w)
	}
	if !ours.MessageIs(durationName) {
		t.Errorf("MessageIs(%q) = false", durationName)
	}
	var got durationpb.Duration
	if err := ours.UnmarshalTo(&got, durationName); err != nil {
		t.Fatal(err)
	}
	if got.AsDuration() != -1500*time.Millisecond {
		t.Errorf("UnmarshalTo gives %v", got.AsDuration())
	}
}

func TestStructInAny(t *testing.T) {
	s, err := structpb.NewStruct(map[string]any{"a": []any{1, "x"}})
	if err != nil {
		t.Fatal(err)
	}
	a, err := anypb.New(s, "google.protobuf.Struct")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := a.Marshal()
	var theirs refany.Any
	if err := proto.Unmarshal(b, &theirs); err != nil {
		t.Fatal(err)
	}
	m, err := theirs.UnmarshalNew() // protobuf-go finds the type in its registry
	if err != nil {
		t.Fatal(err)
	}
	ts, ok := m.(*refstruct.Struct)
	if !ok {
		t.Fatalf("protobuf-go unpacks a %T", m)
	}
	if got := ts.AsMap()["a"].([]any)[1]; got != "x" {
		t.Errorf("unpacked %v", ts.AsMap())
	}
}

func TestMarshalFrom(t *testing.T) {
	var a anypb.Any
	if err := a.MarshalFrom(timestamppb.New(time.Unix(5, 6)), "google.protobuf.Timestamp"); err != nil {
		t.Fatal(err)
	}
	var b anypb.Any
	if err := anypb.MarshalFrom(&b, timestamppb.New(time.Unix(5, 6)), "google.protobuf.Timestamp"); err != nil {
		t.Fatal(err)
	}
	if !a.Equal(&b) || a.MessageName() != "google.protobuf.Timestamp" {
		t.Errorf("method and function disagree: %v, %v", &a, &b)
	}
	var ts timestamppb.Timestamp
	if err := anypb.UnmarshalTo(&a, &ts, "google.protobuf.Timestamp"); err != nil {
		t.Fatal(err)
	}
	if ts.Seconds != 5 || ts.Nanos != 6 {
		t.Errorf("round trip gives %v", &ts)
	}
}

func TestCustomTypeURL(t *testing.T) {
	a, err := anypb.New(&emptypb.Empty{}, "example.com/types/google.protobuf.Empty")
	if err != nil {
		t.Fatal(err)
	}
	if a.TypeUrl != "example.com/types/google.protobuf.Empty" || len(a.Value) != 0 {
		t.Errorf("New = %v", a)
	}
	if a.MessageName() != "google.protobuf.Empty" {
		t.Errorf("MessageName = %q", a.MessageName())
	}
	// Only full names are compared; the prefixes do not matter.
	for _, name := range []string{"google.protobuf.Empty", "type.googleapis.com/google.protobuf.Empty", "other/google.protobuf.Empty"} {
		if !a.MessageIs(name) {
			t.Errorf("MessageIs(%q) = false", name)
		}
		if err := a.UnmarshalTo(&emptypb.Empty{}, name); err != nil {
			t.Errorf("UnmarshalTo(%q): %v", name, err)
		}
	}
}

func TestMismatch(t *testing.T) {
	a, err := anypb.New(durationpb.New(time.Second), durationName)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"google.protobuf.Timestamp", "protobuf.Duration", "Duration", "google.protobuf.Duration2", ""} {
		if a.MessageIs(name) {
			t.Errorf("MessageIs(%q) = true", name)
		}
		ts := &timestamppb.Timestamp{Seconds: 42}
		err := a.UnmarshalTo(ts, name)
		want := `anypb: mismatched message type: Any holds "type.googleapis.com/google.protobuf.Duration", not "` + name + `"`
		if err == nil || err.Error() != want {
			t.Errorf("UnmarshalTo(%q) = %v, want %q", name, err, want)
		}
		if ts.Seconds != 42 {
			t.Errorf("UnmarshalTo(%q) changed its destination on error", name)
		}
	}
}

func TestMessageNameMatchesProtobufGo(t *testing.T) {
	urls := []string{
		"", "/", "a", "a.b", "/a.b", "type.googleapis.com/a.b.C", "x/y/z/a.B_c", "x/", "a..b", ".a", "a.",
		"1a", "a.1b", "_a._b1", "a-b", "a/b/", "ü.x", "a b",
	}
	for _, u := range urls {
		ours := (&anypb.Any{TypeUrl: u}).MessageName()
		theirs := string((&refany.Any{TypeUrl: u}).MessageName())
		if ours != theirs {
			t.Errorf("MessageName of %q = %q, protobuf-go gives %q", u, ours, theirs)
		}
	}
	var nilAny *anypb.Any
	if nilAny.MessageName() != "" || nilAny.MessageIs(durationName) {
		t.Error("a nil Any names a message")
	}
	if err := nilAny.UnmarshalTo(&durationpb.Duration{}, durationName); err == nil {
		t.Error("UnmarshalTo from a nil Any succeeded")
	}
}

func TestInvalidNames(t *testing.T) {
	for _, name := range []string{"", "a..b", "1a", "a.", ".a", "type.googleapis.com/", "a b", "a-b", "x/1.y"} {
		var a anypb.Any
		err := a.MarshalFrom(&emptypb.Empty{}, name)
		if err == nil || !strings.Contains(err.Error(), "invalid message name") {
			t.Errorf("MarshalFrom(%q) = %v, want an invalid-name error", name, err)
		}
		if a.TypeUrl != "" || a.Value != nil {
			t.Errorf("MarshalFrom(%q) changed its destination on error", name)
		}
		if x, err := anypb.New(&emptypb.Empty{}, name); x != nil || err == nil {
			t.Errorf("New(%q) = %v, %v", name, x, err)
		}
	}
}

type failing struct{}

var errBoom = errors.New("boom")

func (failing) Marshal() ([]byte, error) { return nil, errBoom }
func (failing) Unmarshal([]byte) error   { return errBoom }

func TestErrorsPassThrough(t *testing.T) {
	if _, err := anypb.New(failing{}, "x.Y"); !errors.Is(err, errBoom) {
		t.Errorf("New with a failing Marshal: %v", err)
	}
	if _, err := anypb.New(nil, "x.Y"); err == nil {
		t.Error("New(nil) succeeded")
	}
	a := &anypb.Any{TypeUrl: "type.googleapis.com/x.Y"}
	if err := a.UnmarshalTo(failing{}, "x.Y"); !errors.Is(err, errBoom) {
		t.Errorf("UnmarshalTo with a failing Unmarshal: %v", err)
	}
	if err := a.UnmarshalTo(nil, "x.Y"); err == nil {
		t.Error("UnmarshalTo(nil) succeeded")
	}
	// Bad bytes give the destination's wire error.
	bad := &anypb.Any{TypeUrl: "type.googleapis.com/" + durationName, Value: []byte{0x08}}
	if err := bad.UnmarshalTo(&durationpb.Duration{}, durationName); err == nil {
		t.Error("UnmarshalTo of truncated bytes succeeded")
	}
}
