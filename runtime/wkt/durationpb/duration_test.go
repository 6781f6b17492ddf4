package durationpb_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	ref "google.golang.org/protobuf/types/known/durationpb"

	"github.com/protoplay/protoplay/runtime/wkt/durationpb"
)

func TestNew(t *testing.T) {
	tests := []struct {
		in      time.Duration
		seconds int64
		nanos   int32
	}{
		{0, 0, 0},
		{1, 0, 1},
		{-1, 0, -1},
		{1500 * time.Millisecond, 1, 500000000},
		{-1500 * time.Millisecond, -1, -500000000},
		{-time.Second, -1, 0},
		{math.MaxInt64, 9223372036, 854775807},
		{math.MinInt64, -9223372036, -854775808},
	}
	for _, tt := range tests {
		d := durationpb.New(tt.in)
		if d.Seconds != tt.seconds || d.Nanos != tt.nanos {
			t.Errorf("New(%v) = {%d, %d}, want {%d, %d}", tt.in, d.Seconds, d.Nanos, tt.seconds, tt.nanos)
		}
		if w := ref.New(tt.in); d.Seconds != w.Seconds || d.Nanos != w.Nanos {
			t.Errorf("New(%v) = {%d, %d}, protobuf-go gives {%d, %d}", tt.in, d.Seconds, d.Nanos, w.Seconds, w.Nanos)
		}
		if !d.IsValid() {
			t.Errorf("New(%v) is not valid: %v", tt.in, d.CheckValid())
		}
		if got := d.AsDuration(); got != tt.in {
			t.Errorf("New(%v).AsDuration() = %v", tt.in, got)
		}
	}
}

func TestAsDuration(t *testing.T) {
	const maxSecs = math.MaxInt64 / int64(time.Second) // 9223372036
	tests := []struct {
		seconds int64
		nanos   int32
		want    time.Duration
	}{
		{0, 0, 0},
		{-1, -999999999, -1999999999},
		{1, 999999999, 1999999999},
		{maxSecs, 854775807, math.MaxInt64},
		{maxSecs, 854775808, math.MaxInt64}, // one past: saturates
		{maxSecs, 999999999, math.MaxInt64},
		{maxSecs + 1, 0, math.MaxInt64},
		{-maxSecs, -854775808, math.MinInt64},
		{-maxSecs, -854775809, math.MinInt64},
		{-maxSecs - 1, 0, math.MinInt64},
		{315576000000, 999999999, math.MaxInt64}, // largest valid Duration
		{-315576000000, -999999999, math.MinInt64},
		{math.MaxInt64, math.MaxInt32, math.MaxInt64},
		{math.MinInt64, math.MinInt32, math.MinInt64},
		// Invalid, but no overflow: plain arithmetic.
		{2, -500000000, 1500 * time.Millisecond},
		{0, math.MaxInt32, math.MaxInt32},
		{maxSecs + 1, -1e9 + 1, math.MaxInt64}, // Seconds alone overflow; saturates as protobuf-go does
	}
	for _, tt := range tests {
		d := &durationpb.Duration{Seconds: tt.seconds, Nanos: tt.nanos}
		if got := d.AsDuration(); got != tt.want {
			t.Errorf("{%d, %d}.AsDuration() = %d, want %d", tt.seconds, tt.nanos, got, tt.want)
		}
		if w := (&ref.Duration{Seconds: tt.seconds, Nanos: tt.nanos}).AsDuration(); d.AsDuration() != w {
			t.Errorf("{%d, %d}.AsDuration() = %d, protobuf-go gives %d", tt.seconds, tt.nanos, d.AsDuration(), w)
		}
	}
	var nilDur *durationpb.Duration
	if got := nilDur.AsDuration(); got != 0 {
		t.Errorf("nil AsDuration = %v", got)
	}
}

func TestValidityMatchesProtobufGo(t *testing.T) {
	seconds := []int64{math.MinInt64, -315576000001, -315576000000, -1, 0, 1, 315576000000, 315576000001, math.MaxInt64}
	nanos := []int32{math.MinInt32, -1e9, -999999999, -1, 0, 1, 999999999, 1e9, math.MaxInt32}
	for _, s := range seconds {
		for _, n := range nanos {
			d := &durationpb.Duration{Seconds: s, Nanos: n}
			w := &ref.Duration{Seconds: s, Nanos: n}
			if d.IsValid() != w.IsValid() {
				t.Errorf("{%d, %d}.IsValid() = %v, protobuf-go says %v", s, n, d.IsValid(), w.IsValid())
			}
			if err := d.CheckValid(); (err == nil) != d.IsValid() {
				t.Errorf("{%d, %d}: CheckValid = %v but IsValid = %v", s, n, err, d.IsValid())
			}
			if d.AsDuration() != w.AsDuration() {
				t.Errorf("{%d, %d}.AsDuration() = %d, protobuf-go gives %d", s, n, d.AsDuration(), w.AsDuration())
			}
		}
	}
}

func TestCheckValidMessages(t *testing.T) {
	tests := []struct {
		d    *durationpb.Duration
		want string
	}{
		{nil, "durationpb: invalid nil Duration"},
		{&durationpb.Duration{Seconds: -315576000001}, "(seconds: -315576000001, nanos: 0) exceeds -10000 years"},
		{&durationpb.Duration{Seconds: 315576000001}, "(seconds: 315576000001, nanos: 0) exceeds +10000 years"},
		{&durationpb.Duration{Nanos: -1e9}, "(seconds: 0, nanos: -1000000000) has nanos outside (-1e9, 1e9)"},
		{&durationpb.Duration{Nanos: 1e9}, "has nanos outside"},
		{&durationpb.Duration{Seconds: 1, Nanos: -1}, "(seconds: 1, nanos: -1) has seconds and nanos with different signs"},
		{&durationpb.Duration{Seconds: -1, Nanos: 1}, "has seconds and nanos with different signs"},
	}
	for _, tt := range tests {
		err := tt.d.CheckValid()
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "durationpb: ") {
			t.Errorf("CheckValid() = %v, want an error containing %q", err, tt.want)
		}
	}
	for _, d := range []*durationpb.Duration{{}, {Seconds: -315576000000, Nanos: -999999999}, {Seconds: 315576000000, Nanos: 999999999}, {Nanos: -5}, {Nanos: 5}} {
		if err := d.CheckValid(); err != nil {
			t.Errorf("CheckValid() = %v for a valid Duration", err)
		}
	}
}

func TestWireInterop(t *testing.T) {
	for _, d := range []time.Duration{0, -1, -1500 * time.Millisecond, math.MaxInt64, math.MinInt64} {
		b, err := durationpb.New(d).Marshal()
		if err != nil {
			t.Fatal(err)
		}
		var theirs ref.Duration
		if err := proto.Unmarshal(b, &theirs); err != nil {
			t.Fatal(err)
		}
		if theirs.AsDuration() != d {
			t.Errorf("protobuf-go decodes %v as %v", d, theirs.AsDuration())
		}
		b, err = proto.Marshal(ref.New(d))
		if err != nil {
			t.Fatal(err)
		}
		var ours durationpb.Duration
		if err := ours.Unmarshal(b); err != nil {
			t.Fatal(err)
		}
		if ours.AsDuration() != d {
			t.Errorf("protoplay decodes %v as %v", d, ours.AsDuration())
		}
	}
}
