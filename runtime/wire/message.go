package wire

import (
	"bytes"
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

// UnknownEqual reports whether two unknown-field sets hold the same bytes;
// nil equals empty.
func UnknownEqual(a, b *[]byte) bool {
	var x, y []byte
	if a != nil {
		x = *a
	}
	if b != nil {
		y = *b
	}
	return bytes.Equal(x, y)
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
