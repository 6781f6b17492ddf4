package wire

import (
	"bytes"
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file holds the helpers generated message code calls besides the
// Consume and Put families: unknown-field storage, the UTF-8 check of
// strings, and the errors (and error paths) of required fields and UTF-8.
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

// PutUnknownRev writes the unknown fields u as they are, so that they end
// just before b[i], and returns the index of their first byte (i for nil),
// as the PutXRev functions do: generated MarshalToSizedBuffer writes them
// first, so that they come last in the output.
func PutUnknownRev(b []byte, i int, u *[]byte) int {
	if u != nil {
		i -= len(*u)
		copy(b[i:], *u)
	}
	return i
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

// StringErrorAt is [ErrorAt] for code, a negative n returned by
// [Decoder.ConsumeValidString] for the string field named field (its full
// name, as for UTF8Error): invalid UTF-8 is the field's [UTF8Error] at
// offset, any other code ErrorAt(offset, code).
func StringErrorAt(offset int, code int, field string) error {
	if code == errCodeUTF8 {
		return UTF8Error(offset, field)
	}
	return ErrorAt(offset, code)
}

// NestIndex is [Nest] for an error from element i of the repeated field
// named field, found without an input offset (by Marshal or by a
// required-field check): the path gains "field[i]".
func NestIndex(err error, field string, i int) error {
	return NestIndexAt(err, -1, field, i)
}

// NestIndexAt is [Nest] for an error from element i of repeated field
// field, found while decoding the element that starts at input offset base
// (-1 for none): the offset is moved by base and the path gains
// "field[i]". Generated Unmarshal calls it for repeated message and group
// fields, i being the element's index once appended.
func NestIndexAt(err error, base int, field string, i int) error {
	if err == nil {
		return nil
	}
	return Nest(err, base, field+"["+strconv.Itoa(i)+"]")
}

// NestKey is [Nest] for an error from the value of map field field at key,
// found without an input offset (by Marshal or by a required-field check):
// the path gains "field[key]", the key written as a Go literal (strings
// quoted). key is one of the map key types protobuf allows: string, bool,
// int32, int64, uint32 or uint64.
func NestKey(err error, field string, key any) error {
	return NestKeyAt(err, -1, field, key)
}

// NestKeyAt is [NestKey] for an error found while decoding the map entry
// of key: the offset is moved by base (-1 for none), as by [Nest].
// Generated Unmarshal calls it once the entry is read, so that the path
// names its key, wherever in the entry the key came.
func NestKeyAt(err error, base int, field string, key any) error {
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
	return Nest(err, base, field+"["+k+"]")
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

// CountRun returns the number of fields at the front of b, one after
// another, that have the tag at b[0] (its bytes as they are, a varint of
// at most 10 bytes) and wire type typ, each complete within b: a LEN
// value's length must fit the rest of b, a VARINT must end within b, a
// fixed value must be all there. It stops at the first field that is not
// such a one; it returns 0 when b does not start with a tag, or typ is a
// group's (groups are not counted: skipping one means reading all of it).
// Generated Unmarshal uses it to size a repeated field, or a map, once
// when its first element is read (the elements of a repeated field are
// usually written one after another), instead of growing it element by
// element; the count is bounded by the elements b really holds, at least
// 2 bytes each, so what it reserves stays linear in the input. For a
// repeated field that is what decoding those elements allocates anyway;
// a map sized by it may reserve room for entries whose keys repeat and
// collapse into fewer (at most one map slot per 2 bytes of input).
func CountRun(b []byte, typ Type) int {
	tl := 0
	for tl < len(b) && tl < 10 && b[tl] >= 0x80 {
		tl++
	}
	if tl >= len(b) || tl == 10 {
		return 0
	}
	tl++
	tag := b[:tl]
	n := 0
	for len(b) >= tl && string(b[:tl]) == string(tag) {
		v := b[tl:]
		switch typ {
		case BytesType:
			m, k := ConsumeVarint(v)
			if k < 0 || m > uint64(len(v)-k) {
				return n
			}
			v = v[k+int(m):]
		case VarintType:
			k := 0
			for k < len(v) && k < 10 && v[k] >= 0x80 {
				k++
			}
			if k >= len(v) || k == 10 {
				return n
			}
			v = v[k+1:]
		case Fixed32Type:
			if len(v) < 4 {
				return n
			}
			v = v[4:]
		case Fixed64Type:
			if len(v) < 8 {
				return n
			}
			v = v[8:]
		default:
			return 0
		}
		b = v
		n++
	}
	return n
}

// ValidString reports whether s is valid UTF-8, as utf8.ValidString does,
// about twice as fast for ASCII text: it ORs s together 32 bytes at a time
// and calls utf8.ValidString only when some byte has its high bit set.
// Generated Marshal checks the strings that must be valid UTF-8 (proto3,
// editions utf8_validation = VERIFY) the same way, inside
// [PutValidStringRev].
func ValidString(s string) bool {
	return isASCII(s) || utf8.ValidString(s)
}

// ValidUTF8 is ValidString for a byte slice (utf8.Valid); generated
// Unmarshal checks the same strings this way as they are read, inside
// [Decoder.ConsumeValidString].
func ValidUTF8(b []byte) bool {
	return isASCII(b) || utf8.Valid(b)
}

// isASCII reports whether no byte of t has its high bit set. It ORs t
// together a word at a time: 32 bytes per round, then 16 if more than 16
// are left, then the last 16 (overlapping bytes already seen); 8 to 16
// bytes are two overlapping 8-byte loads, 4 to 7 two 4-byte loads and 1 to
// 3 the first, middle and last byte. The index
// arithmetic lets the compiler drop every bounds check of the 32-byte loop.
func isASCII[T string | []byte](t T) bool {
	n := len(t)
	var a uint64
	switch {
	case n > 16:
		k := 0
		for ; k <= n-32; k += 32 {
			w := t[k : k+32]
			a |= load64(w) | load64(w[8:]) | load64(w[16:]) | load64(w[24:])
		}
		if n-k > 16 {
			w := t[k : k+16]
			a |= load64(w) | load64(w[8:])
		}
		a |= load64(t[n-16:]) | load64(t[n-8:])
	case n >= 8:
		a = load64(t) | load64(t[n-8:])
	case n >= 4:
		a = load32(t) | load32(t[n-4:])
	case n > 0:
		a = uint64(t[0] | t[n>>1] | t[n-1])
	}
	return a&0x8080808080808080 == 0
}

// load64 and load32 read t's first 8 or 4 bytes as one little-endian
// integer (the compiler makes each a single load).
func load64[T string | []byte](t T) uint64 {
	_ = t[7]
	return uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
		uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
}

func load32[T string | []byte](t T) uint64 {
	_ = t[3]
	return uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24
}

// store64 and store32 write v's 8 or 4 bytes, little-endian, at the front
// of d (the compiler makes each a single store).
func store64(d []byte, v uint64) {
	_ = d[7]
	d[0], d[1], d[2], d[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	d[4], d[5], d[6], d[7] = byte(v>>32), byte(v>>40), byte(v>>48), byte(v>>56)
}

func store32(d []byte, v uint64) {
	_ = d[3]
	d[0], d[1], d[2], d[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
}

// UnmarshalEmpty is the UnmarshalGroup method of a generated message type
// that declares no fields (see the package documentation, "Generated
// messages"): it decodes b, up to and including the END_GROUP tag of field
// number group (group 0: all of b, as a message), keeping every field as an
// unknown field in *u (none when u is nil, under unknown_fields=drop), and
// returns the bytes consumed. depth counts the nesting levels still allowed,
// this message's included; an unknown field's groups are bounded by
// [MaxUnknownGroupDepth] instead. Errors are [*Error] values as generated
// Unmarshal returns them.
func UnmarshalEmpty(u **[]byte, b []byte, group int32, depth int) (int, error) {
	if depth <= 0 {
		return 0, &Error{Err: ErrDepth}
	}
	for i := 0; i < len(b); {
		start := i
		num, typ, n := ConsumeTag(b[i:])
		if n < 0 {
			return 0, ErrorAt(i, n)
		}
		i += n
		if typ == EndGroupType {
			if num != group || group == 0 {
				return 0, EndGroupError(group, start)
			}
			return i, nil
		}
		n = ConsumeFieldValue(num, typ, b[i:], MaxUnknownGroupDepth)
		if n < 0 {
			return 0, ErrorAt(i, n)
		}
		i += n
		if u != nil {
			AddUnknown(u, b[start:i])
		}
	}
	if group != 0 {
		return 0, UnterminatedGroupError(len(b))
	}
	return len(b), nil
}
