package wire

import (
	"bytes"
	"strconv"
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
// editions LEGACY_REQUIRED) found unset by Marshal or by the check
// (CheckInitialized) that Unmarshal runs on its merged result. missing
// holds their full names, such as "pkg.Job.mode". The error has no input
// offset: required fields are checked on a whole message, not at a byte.
func RequiredError(missing []string) error {
	return &Error{Offset: -1, Err: ErrRequired, Detail: strings.Join(missing, ", ")}
}

// UTF8Error is the error for a string field that must hold valid UTF-8
// (proto3 strings, editions utf8_validation = VERIFY) and does not: offset
// is where the value starts in the input, or -1 when encoding; field is
// its full name, such as "pkg.Job.title" (for a map key or value, the map
// entry's field: "pkg.Job.TagsEntry.key").
func UTF8Error(offset int, field string) error {
	return &Error{Offset: offset, Err: ErrUTF8, Detail: field}
}

// NestIndex is [Nest] for an error from element i of the repeated field
// named field, found without an input offset (by Marshal or by a
// required-field check): the path gains "field[i]".
func NestIndex(err error, field string, i int) error {
	if err == nil {
		return nil
	}
	return Nest(err, -1, field+"["+strconv.Itoa(i)+"]")
}

// NestKey is [Nest] for an error from the value of map field field at key,
// found without an input offset: the path gains "field[key]", the key
// written as a Go literal (strings quoted). key is one of the map key types
// protobuf allows: string, bool, int32, int64, uint32 or uint64.
func NestKey(err error, field string, key any) error {
	if err == nil {
		return nil
	}
	var k string
	switch v := key.(type) {
	case string:
		k = strconv.Quote(v)
	case bool:
		k = strconv.FormatBool(v)
	case int32:
		k = strconv.FormatInt(int64(v), 10)
	case int64:
		k = strconv.FormatInt(v, 10)
	case uint32:
		k = strconv.FormatUint(uint64(v), 10)
	case uint64:
		k = strconv.FormatUint(v, 10)
	default:
		k = "?"
	}
	return Nest(err, -1, field+"["+k+"]")
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
