package durationpb

import (
	"strconv"
	"strings"

	"github.com/protoplay/protoplay/runtime/protojson"
)

// EncodeProtoJSON writes x in its ProtoJSON form: seconds with 0, 3, 6 or 9
// fractional digits and an "s" suffix ("1.5s", "-0.000000001s", "3s").
// Seconds beyond ±315,576,000,000, |Nanos| above 999,999,999 or Seconds and
// Nanos of different signs are an error. A nil x is "0s".
func (x *Duration) EncodeProtoJSON(e *protojson.Encoder) error {
	secs, nanos := x.GetSeconds(), int64(x.GetNanos())
	switch {
	case secs < -maxSeconds || secs > maxSeconds:
		return protojson.EncodeError(protojson.ErrInvalidValue, "google.protobuf.Duration: seconds out of range "+strconv.FormatInt(secs, 10))
	case nanos < -999999999 || nanos > 999999999:
		return protojson.EncodeError(protojson.ErrInvalidValue, "google.protobuf.Duration: nanos out of range "+strconv.FormatInt(nanos, 10))
	case (secs > 0 && nanos < 0) || (secs < 0 && nanos > 0):
		return protojson.EncodeError(protojson.ErrInvalidValue, "google.protobuf.Duration: signs of seconds and nanos do not match")
	}
	sign := ""
	if secs < 0 || nanos < 0 {
		sign, secs, nanos = "-", -secs, -nanos
	}
	frac := strconv.FormatInt(1e9+nanos, 10)[1:]
	s := sign + strconv.FormatInt(secs, 10) + "." + frac
	s = strings.TrimSuffix(s, "000")
	s = strings.TrimSuffix(s, "000")
	s = strings.TrimSuffix(s, ".000")
	e.Quoted(s + "s")
	return nil
}

// DecodeProtoJSON reads x's ProtoJSON form from d: a string of optional
// sign, decimal seconds, an optional fraction of at most 9 digits, and "s",
// with |seconds| at most 315,576,000,000.
func (x *Duration) DecodeProtoJSON(d *protojson.Decoder) error {
	if err := d.Enter(); err != nil {
		return err
	}
	defer d.Leave()
	s, err := d.String()
	if err != nil {
		return err
	}
	secs, nanos, ok := parseJSON(s)
	if !ok {
		return d.InvalidValue(`invalid google.protobuf.Duration value "` + s + `"`)
	}
	if secs < -maxSeconds || secs > maxSeconds {
		return d.InvalidValue(`google.protobuf.Duration value out of range: "` + s + `"`)
	}
	x.Seconds, x.Nanos = secs, nanos
	return nil
}

// parseJSON parses a ProtoJSON duration as protojson does.
func parseJSON(s string) (int64, int32, bool) {
	if len(s) < 2 || s[len(s)-1] != 's' {
		return 0, 0, false
	}
	b := s[:len(s)-1]
	neg := false
	switch b[0] {
	case '-':
		neg, b = true, b[1:]
	case '+':
		b = b[1:]
	}
	if len(b) == 0 {
		return 0, 0, false
	}
	var intp string
	switch {
	case b[0] == '0':
		b = b[1:]
	case '1' <= b[0] && b[0] <= '9':
		n := 1
		for n < len(b) && '0' <= b[n] && b[n] <= '9' {
			n++
		}
		intp, b = b[:n], b[n:]
	case b[0] == '.':
	default:
		return 0, 0, false
	}
	var nanos int64
	if len(b) > 0 {
		if b[0] != '.' {
			return 0, 0, false
		}
		b = b[1:]
		n := 0
		for n < len(b) && n < 9 && '0' <= b[n] && b[n] <= '9' {
			n++
		}
		if n < len(b) {
			return 0, 0, false
		}
		frac := b + strings.Repeat("0", 9-n)
		v, err := strconv.ParseInt(frac, 10, 64)
		if err != nil {
			return 0, 0, false
		}
		nanos = v
	}
	var secs int64
	if intp != "" {
		v, err := strconv.ParseInt(intp, 10, 64)
		if err != nil {
			return 0, 0, false
		}
		secs = v
	}
	if neg {
		secs, nanos = -secs, -nanos
	}
	return secs, int32(nanos), true
}
