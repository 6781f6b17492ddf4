package timestamppb_test

import (
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	ref "google.golang.org/protobuf/types/known/timestamppb"

	"github.com/protoplay/protoplay/runtime/wkt/timestamppb"
)

var (
	minTime = time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)
	maxTime = time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)
)

func TestNewAsTime(t *testing.T) {
	tests := []struct {
		name          string
		in            time.Time
		seconds       int64
		nanos         int32
		valid         bool
		wantErrSubstr string
	}{
		{"epoch", time.Unix(0, 0), 0, 0, true, ""},
		{"after epoch", time.Unix(1, 5), 1, 5, true, ""},
		{"before epoch with nanos", time.Unix(-1, 999999999), -1, 999999999, true, ""},
		{"just before epoch", time.Unix(0, -1), -1, 999999999, true, ""},
		{"zone dropped", time.Date(2017, 1, 15, 2, 30, 15, 10000000, time.FixedZone("+1", 3600)), 1484443815, 10000000, true, ""},
		{"min", minTime, -62135596800, 0, true, ""},
		{"max", maxTime, 253402300799, 999999999, true, ""},
		{"before min", minTime.Add(-time.Nanosecond), -62135596801, 999999999, false, "before 0001-01-01"},
		{"after max", maxTime.Add(time.Nanosecond), 253402300800, 0, false, "after 9999-12-31"},
		{"zero time.Time", time.Time{}, -62135596800, 0, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := timestamppb.New(tt.in)
			if ts.Seconds != tt.seconds || ts.Nanos != tt.nanos {
				t.Fatalf("New = {%d, %d}, want {%d, %d}", ts.Seconds, ts.Nanos, tt.seconds, tt.nanos)
			}
			want := ref.New(tt.in)
			if ts.Seconds != want.Seconds || ts.Nanos != want.Nanos {
				t.Errorf("New = {%d, %d}, protobuf-go gives {%d, %d}", ts.Seconds, ts.Nanos, want.Seconds, want.Nanos)
			}
			if got := ts.AsTime(); !got.Equal(tt.in) || got.Location() != time.UTC {
				t.Errorf("AsTime = %v, want %v in UTC", got, tt.in)
			}
			if ts.IsValid() != tt.valid {
				t.Errorf("IsValid = %v, want %v", ts.IsValid(), tt.valid)
			}
			err := ts.CheckValid()
			if (err == nil) != tt.valid || (err != nil && !strings.Contains(err.Error(), tt.wantErrSubstr)) {
				t.Errorf("CheckValid = %v, want error containing %q: %v", err, tt.wantErrSubstr, !tt.valid)
			}
		})
	}
}

func TestValidityMatchesProtobufGo(t *testing.T) {
	seconds := []int64{-1 << 63, -62135596801, -62135596800, -1, 0, 1, 253402300799, 253402300800, 1<<63 - 1}
	nanos := []int32{-1 << 31, -1, 0, 1, 999999999, 1e9, 1<<31 - 1}
	for _, s := range seconds {
		for _, n := range nanos {
			ts := &timestamppb.Timestamp{Seconds: s, Nanos: n}
			want := &ref.Timestamp{Seconds: s, Nanos: n}
			if ts.IsValid() != want.IsValid() {
				t.Errorf("{%d, %d}.IsValid() = %v, protobuf-go says %v", s, n, ts.IsValid(), want.IsValid())
			}
			if err := ts.CheckValid(); (err == nil) != ts.IsValid() {
				t.Errorf("{%d, %d}: CheckValid = %v but IsValid = %v", s, n, err, ts.IsValid())
			}
			if got, w := ts.AsTime(), want.AsTime(); !got.Equal(w) {
				t.Errorf("{%d, %d}.AsTime() = %v, protobuf-go gives %v", s, n, got, w)
			}
		}
	}
}

func TestCheckValidMessages(t *testing.T) {
	tests := []struct {
		ts   *timestamppb.Timestamp
		want string
	}{
		{nil, "timestamppb: invalid nil Timestamp"},
		{&timestamppb.Timestamp{Seconds: -62135596801}, "timestamppb: timestamp (seconds: -62135596801, nanos: 0) before 0001-01-01"},
		{&timestamppb.Timestamp{Seconds: 253402300800}, "timestamppb: timestamp (seconds: 253402300800, nanos: 0) after 9999-12-31"},
		{&timestamppb.Timestamp{Nanos: -1}, "timestamppb: timestamp (seconds: 0, nanos: -1) has nanos outside [0, 999999999]"},
		{&timestamppb.Timestamp{Nanos: 1e9}, "timestamppb: timestamp (seconds: 0, nanos: 1000000000) has nanos outside [0, 999999999]"},
	}
	for _, tt := range tests {
		err := tt.ts.CheckValid()
		if err == nil || err.Error() != tt.want {
			t.Errorf("CheckValid() = %v, want %q", err, tt.want)
		}
		if tt.ts.IsValid() {
			t.Errorf("IsValid() = true for %v", tt.ts)
		}
	}
}

func TestNilAsTime(t *testing.T) {
	var ts *timestamppb.Timestamp
	if got := ts.AsTime(); !got.Equal(time.Unix(0, 0)) {
		t.Errorf("nil AsTime = %v, want the Unix epoch", got)
	}
}

func TestNow(t *testing.T) {
	before := time.Now()
	ts := timestamppb.Now()
	after := time.Now()
	if !ts.IsValid() {
		t.Fatalf("Now() = %v is not valid", ts)
	}
	if got := ts.AsTime(); got.Before(before.Truncate(0)) || got.After(after.Truncate(0)) {
		t.Errorf("Now() = %v, not within [%v, %v]", got, before, after)
	}
}

// TestWireInterop encodes with protoplay and decodes with protobuf-go, and
// the other way round.
func TestWireInterop(t *testing.T) {
	for _, tm := range []time.Time{minTime, maxTime, time.Unix(-1, 999999999), time.Unix(1700000000, 123456789)} {
		b, err := timestamppb.New(tm).Marshal()
		if err != nil {
			t.Fatal(err)
		}
		var theirs ref.Timestamp
		if err := proto.Unmarshal(b, &theirs); err != nil {
			t.Fatal(err)
		}
		if !theirs.AsTime().Equal(tm) {
			t.Errorf("protobuf-go decodes %v as %v", tm, theirs.AsTime())
		}
		b, err = proto.Marshal(ref.New(tm))
		if err != nil {
			t.Fatal(err)
		}
		var ours timestamppb.Timestamp
		if err := ours.Unmarshal(b); err != nil {
			t.Fatal(err)
		}
		if !ours.AsTime().Equal(tm) {
			t.Errorf("protoplay decodes %v as %v", tm, ours.AsTime())
		}
	}
}
