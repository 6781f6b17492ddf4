// Package timestamppb holds google.protobuf.Timestamp, a point in time
// independent of any time zone, and helpers that convert it to and from
// [time.Time]. The helpers mirror google.golang.org/protobuf/types/known/timestamppb.
//
// A Timestamp counts Seconds and Nanos since the Unix epoch,
// 1970-01-01T00:00:00Z, in UTC with smeared leap seconds. Nanos is never
// negative: an instant before the epoch has negative Seconds and Nanos that
// count forward from there. The valid range is 0001-01-01T00:00:00Z to
// 9999-12-31T23:59:59.999999999Z. See
// https://protobuf.dev/reference/protobuf/google.protobuf/#timestamp.
package timestamppb

import (
	"errors"
	"strconv"
	"time"
)

const (
	// minSeconds is 0001-01-01T00:00:00Z in seconds since the Unix epoch.
	minSeconds = -62135596800
	// maxSeconds is 9999-12-31T23:59:59Z in seconds since the Unix epoch.
	maxSeconds = 253402300799
)

// Now returns the current time as a Timestamp.
func Now() *Timestamp {
	return New(time.Now())
}

// New returns t as a Timestamp: whole seconds since the Unix epoch in Seconds
// and the nanoseconds within that second, in [0, 1e9), in Nanos. The time zone
// and monotonic clock reading of t are dropped. A t outside the range a
// Timestamp allows gives a Timestamp that [Timestamp.IsValid] rejects.
func New(t time.Time) *Timestamp {
	return &Timestamp{Seconds: t.Unix(), Nanos: int32(t.Nanosecond())}
}

// AsTime returns x as a [time.Time] in UTC. A nil x gives the Unix epoch.
// AsTime does not check x; Nanos outside [0, 1e9) are carried into the
// seconds as [time.Unix] does. Call [Timestamp.CheckValid] first to reject
// such values.
func (x *Timestamp) AsTime() time.Time {
	return time.Unix(x.GetSeconds(), int64(x.GetNanos())).UTC()
}

// IsValid reports whether x is non-nil, lies in the range
// 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z and has Nanos in
// [0, 999999999].
func (x *Timestamp) IsValid() bool {
	return x.CheckValid() == nil
}

// CheckValid returns nil if x is a valid Timestamp (see [Timestamp.IsValid])
// and otherwise an error saying which rule x breaks: it is nil, it is before
// 0001-01-01, it is after 9999-12-31, or its Nanos are out of range.
func (x *Timestamp) CheckValid() error {
	var why string
	switch {
	case x == nil:
		return errors.New("timestamppb: invalid nil Timestamp")
	case x.Seconds < minSeconds:
		why = "before 0001-01-01"
	case x.Seconds > maxSeconds:
		why = "after 9999-12-31"
	case x.Nanos < 0 || x.Nanos >= 1e9:
		why = "has nanos outside [0, 999999999]"
	default:
		return nil
	}
	return errors.New("timestamppb: timestamp (seconds: " + strconv.FormatInt(x.Seconds, 10) +
		", nanos: " + strconv.FormatInt(int64(x.Nanos), 10) + ") " + why)
}
