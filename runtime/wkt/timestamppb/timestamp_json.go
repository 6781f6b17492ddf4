package timestamppb

import (
	"strings"
	"time"

	"github.com/protoplay/protoplay/runtime/protojson"
)

const (
	minJSONSeconds = -62135596800 // 0001-01-01T00:00:00Z
	maxJSONSeconds = 253402300799 // 9999-12-31T23:59:59Z
)

// EncodeProtoJSON writes x in its ProtoJSON form: an RFC 3339 string in UTC
// with "Z" and 0, 3, 6 or 9 fractional digits ("1972-01-01T10:00:20.021Z").
// A Timestamp outside 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z,
// or with Nanos outside 0 to 999,999,999, is an error. A nil x is the epoch.
func (x *Timestamp) EncodeProtoJSON(e *protojson.Encoder) error {
	secs, nanos := x.GetSeconds(), x.GetNanos()
	if secs < minJSONSeconds || secs > maxJSONSeconds {
		return protojson.EncodeError(protojson.ErrInvalidValue, "google.protobuf.Timestamp: seconds out of range")
	}
	if nanos < 0 || nanos > 999999999 {
		return protojson.EncodeError(protojson.ErrInvalidValue, "google.protobuf.Timestamp: nanos out of range")
	}
	s := time.Unix(secs, int64(nanos)).UTC().Format("2006-01-02T15:04:05.000000000")
	s = strings.TrimSuffix(s, "000")
	s = strings.TrimSuffix(s, "000")
	s = strings.TrimSuffix(s, ".000")
	e.Quoted(s + "Z")
	return nil
}

// DecodeProtoJSON reads x's ProtoJSON form from d: an RFC 3339 string (as
// time.RFC3339Nano parses it, any offset, at most 9 fractional digits)
// within years 1 to 9999 UTC.
func (x *Timestamp) DecodeProtoJSON(d *protojson.Decoder) error {
	if err := d.Enter(); err != nil {
		return err
	}
	defer d.Leave()
	s, err := d.String()
	if err != nil {
		return err
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return d.InvalidValue("invalid google.protobuf.Timestamp value " + quote(s))
	}
	secs := t.Unix()
	if secs < minJSONSeconds || secs > maxJSONSeconds {
		return d.InvalidValue("google.protobuf.Timestamp value out of range: " + quote(s))
	}
	i := strings.LastIndexByte(s, '.')
	j := strings.LastIndexAny(s, "Z-+")
	if i >= 0 && j >= i && j-i > len(".999999999") {
		return d.InvalidValue("invalid google.protobuf.Timestamp value " + quote(s))
	}
	x.Seconds = secs
	x.Nanos = int32(t.Nanosecond())
	return nil
}

func quote(s string) string { return `"` + s + `"` }
