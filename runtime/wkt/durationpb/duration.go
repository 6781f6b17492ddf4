// Package durationpb holds google.protobuf.Duration, a signed span of time,
// and helpers that convert it to and from [time.Duration]. The helpers mirror
// google.golang.org/protobuf/types/known/durationpb.
//
// A Duration is Seconds plus Nanos. Both have the same sign (or are zero),
// |Nanos| is below 1e9, and |Seconds| is at most 315,576,000,000, which is
// about 10,000 years. See
// https://protobuf.dev/reference/protobuf/google.protobuf/#duration.
//
// A time.Duration is an int64 count of nanoseconds, so it spans only about
// ±292 years: every time.Duration fits in a Duration, but not the reverse.
package durationpb

import (
	"errors"
	"math"
	"strconv"
	"time"
)

// maxSeconds bounds |Seconds|: 10,000 years of 365.25 days.
const maxSeconds = 315576000000

// New returns d as a Duration: whole seconds in Seconds and the remaining
// nanoseconds, with the sign of d, in Nanos. The result is always valid.
func New(d time.Duration) *Duration {
	nanos := d.Nanoseconds()
	secs := nanos / 1e9
	nanos -= secs * 1e9
	return &Duration{Seconds: secs, Nanos: int32(nanos)}
}

// AsDuration returns x as a [time.Duration]. A nil x gives 0. A Duration too
// long for a time.Duration saturates: it gives math.MaxInt64 nanoseconds
// (about 292 years) if positive and math.MinInt64 if negative. AsDuration does
// not check x otherwise; call [Duration.CheckValid] to reject invalid values.
// (For an invalid x whose Seconds alone overflow, the sign of Seconds decides,
// as in protobuf-go.)
func (x *Duration) AsDuration() time.Duration {
	secs := x.GetSeconds()
	nanos := int64(x.GetNanos())
	d := time.Duration(secs) * time.Second
	overflow := d/time.Second != time.Duration(secs)
	sum := d + time.Duration(nanos)
	// Adding same-signed nanos can overflow too; opposite signs cannot.
	overflow = overflow || (nanos > 0 && sum < d) || (nanos < 0 && sum > d)
	if overflow {
		if secs < 0 {
			return math.MinInt64
		}
		return math.MaxInt64
	}
	return sum
}

// IsValid reports whether x is non-nil, has |Seconds| at most 315,576,000,000,
// has |Nanos| below 1e9, and has Seconds and Nanos of the same sign when both
// are non-zero.
func (x *Duration) IsValid() bool {
	return x.CheckValid() == nil
}

// CheckValid returns nil if x is a valid Duration (see [Duration.IsValid])
// and otherwise an error saying which rule x breaks: it is nil, it is
// beyond -10000 or +10000 years, its Nanos are out of range, or its Seconds
// and Nanos have different signs.
func (x *Duration) CheckValid() error {
	var why string
	switch {
	case x == nil:
		return errors.New("durationpb: invalid nil Duration")
	case x.Seconds < -maxSeconds:
		why = "exceeds -10000 years"
	case x.Seconds > maxSeconds:
		why = "exceeds +10000 years"
	case x.Nanos <= -1e9 || x.Nanos >= 1e9:
		why = "has nanos outside (-1e9, 1e9)"
	case (x.Seconds > 0 && x.Nanos < 0) || (x.Seconds < 0 && x.Nanos > 0):
		why = "has seconds and nanos with different signs"
	default:
		return nil
	}
	return errors.New("durationpb: duration (seconds: " + strconv.FormatInt(x.Seconds, 10) +
		", nanos: " + strconv.FormatInt(int64(x.Nanos), 10) + ") " + why)
}
