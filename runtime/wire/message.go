package wire

import (
	"bytes"
	"cmp"
	"slices"
	"strings"
)

// This file holds the helpers generated message code calls off the
// value-decoding path: unknown-field storage and required-field errors.
//
// A generated message keeps the fields its schema does not declare (and
// extensions, and undeclared closed-enum values) as one pointer to their raw
// bytes, exactly as they came on the wire: 8 bytes per instance when there
// are none. They are re-emitted after the known fields on Marshal
// (protobuf.dev/programming-guides/proto3/#unknowns).

// AddUnknown appends raw, one or more complete fields (tag and value), to
// the unknown fields *u, allocating the storage on first use.
func AddUnknown(u **[]byte, raw []byte) {
	if *u == nil {
		b := make([]byte, 0, len(raw))
		*u = &b
	}
	**u = append(**u, raw...)
}

// CloneUnknown returns a copy of the unknown fields u (nil for nil).
func CloneUnknown(u *[]byte) *[]byte {
	if u == nil {
		return nil
	}
	b := bytes.Clone(*u)
	return &b
}

// UnknownEqual reports whether two unknown-field sets are equal the way
// proto.Equal (google.golang.org/protobuf v1.36) compares them; nil equals
// empty. Identical bytes are equal, and no work beyond bytes.Equal is done
// for them. Otherwise the sets are split into fields (tag and value) and
// grouped by field number: they are equal when every field number has the
// same records, byte for byte, in the same order. The order between
// different field numbers does not count, so two encodings of the same
// extensions, one written in field-number order (C++) and one with the
// extensions first (protobuf-go), compare equal. Sets whose bytes differ and
// do not split into complete fields are not equal. Only this slow path
// allocates (the two record lists).
func UnknownEqual(a, b *[]byte) bool {
	var x, y []byte
	if a != nil {
		x = *a
	}
	if b != nil {
		y = *b
	}
	if len(x) != len(y) {
		return false
	}
	if bytes.Equal(x, y) {
		return true
	}
	return unknownEqualGrouped(x, y)
}

// unknownRecord is one field of an unknown-field set: its field number and
// where its tag and value lie in the set.
type unknownRecord struct {
	num        int32
	start, end int
}

// splitUnknown splits b into fields, or reports false if b does not parse
// as a sequence of complete fields.
func splitUnknown(b []byte) ([]unknownRecord, bool) {
	var recs []unknownRecord
	for i := 0; i < len(b); {
		num, typ, n := ConsumeTag(b[i:])
		if n < 0 {
			return nil, false
		}
		// Every group level takes at least one byte, so len(b) levels
		// never cut a group short; the bytes were accepted by a decode
		// with its own depth limit.
		m := ConsumeFieldValue(num, typ, b[i+n:], len(b))
		if m < 0 {
			return nil, false
		}
		recs = append(recs, unknownRecord{num, i, i + n + m})
		i += n + m
	}
	return recs, true
}

// unknownEqualGrouped is the slow path of UnknownEqual: x and y, of the same
// length, hold the same fields per field number in the same order.
func unknownEqualGrouped(x, y []byte) bool {
	rx, okx := splitUnknown(x)
	ry, oky := splitUnknown(y)
	if !okx || !oky || len(rx) != len(ry) {
		return false
	}
	byNum := func(a, b unknownRecord) int { return cmp.Compare(a.num, b.num) }
	slices.SortStableFunc(rx, byNum)
	slices.SortStableFunc(ry, byNum)
	for i := range rx {
		if rx[i].num != ry[i].num || !bytes.Equal(x[rx[i].start:rx[i].end], y[ry[i].start:ry[i].end]) {
			return false
		}
	}
	return true
}

// RequiredError is the error for required fields (proto2 `required`,
// editions LEGACY_REQUIRED) found unset by Marshal or Unmarshal. missing
// holds their full names, such as "pkg.Job.mode".
func RequiredError(missing []string) error {
	return &Error{Offset: -1, Err: ErrRequired, Detail: strings.Join(missing, ", ")}
}

// CountVarints returns the number of varints in b, a packed repeated field's
// payload: the bytes without the continuation bit. Generated Unmarshal uses
// it to size the slice once before decoding the elements.
func CountVarints(b []byte) int {
	n := 0
	for _, c := range b {
		if c < 0x80 {
			n++
		}
	}
	return n
}
