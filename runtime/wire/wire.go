package wire

import (
	"math/bits"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Type is a wire type, the low 3 bits of a tag. It says how to find the end
// of the value that follows; see
// https://protobuf.dev/programming-guides/encoding/#structure.
type Type uint8

// The wire types. 6 and 7 are not defined and are rejected.
const (
	VarintType     Type = 0 // VARINT: int32, int64, uint32, uint64, sint32, sint64, bool, enum
	Fixed64Type    Type = 1 // I64: fixed64, sfixed64, double
	BytesType      Type = 2 // LEN: string, bytes, embedded messages, packed repeated fields
	StartGroupType Type = 3 // SGROUP: group start (deprecated)
	EndGroupType   Type = 4 // EGROUP: group end (deprecated)
	Fixed32Type    Type = 5 // I32: fixed32, sfixed32, float
)

// typeNames are the spec's names of the wire types, indexed by Type.
var typeNames = [...]string{
	VarintType:     "VARINT",
	Fixed64Type:    "I64",
	BytesType:      "LEN",
	StartGroupType: "SGROUP",
	EndGroupType:   "EGROUP",
	Fixed32Type:    "I32",
}

// String returns the spec's name of t: VARINT, I64, LEN, SGROUP, EGROUP or
// I32 (https://protobuf.dev/programming-guides/encoding/#structure), and
// "wire type N" for the undefined values 6 to 255.
func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return "wire type " + strconv.Itoa(int(t))
}

const (
	// MinValidNumber and MaxValidNumber bound field numbers: a tag holds
	// the field number in 29 bits, and 0 is not a field number.
	MinValidNumber = 1
	MaxValidNumber = 1<<29 - 1

	// MaxTagBytes is the longest tag accepted: a tag is a 32-bit varint
	// (field number << 3 | wire type), which takes at most 5 bytes. A longer
	// encoding is ErrTagOverlong, as in the C++ and upb parsers.
	MaxTagBytes = 5

	// DefaultMaxDepth is the nesting limit for messages and groups of known
	// fields enforced by generated Unmarshal: the levels allowed, the
	// top-level message included (100, as in the C++ and Java runtimes).
	// A message field's value, a group field's value and a map entry each
	// count one level (a map's message value is two levels below the
	// message holding the map); unknown fields' groups do not (see
	// MaxUnknownGroupDepth). That is how google.golang.org/protobuf's
	// UnmarshalOptions.RecursionLimit counts, so with RecursionLimit 100 it
	// accepts and rejects the same nesting.
	DefaultMaxDepth = 100

	// MaxUnknownGroupDepth is the nesting limit for the groups inside one
	// unknown field: the levels of START_GROUP ... END_GROUP allowed, that
	// field's own group included. It is counted apart from DefaultMaxDepth,
	// starting afresh at each unknown field however deep its message is,
	// as google.golang.org/protobuf counts unknown groups apart from its
	// RecursionLimit (with a limit of 10,000 there). So 100 nested unknown
	// groups (400 bytes with 2-byte tags) are accepted and 101 are
	// ErrDepth; the stack stays within DefaultMaxDepth +
	// MaxUnknownGroupDepth frames.
	MaxUnknownGroupDepth = 100
)

// EncodeTag returns the tag for field num and wire type typ as the varint
// value it is written as: num<<3 | typ.
func EncodeTag(num int32, typ Type) uint64 {
	return uint64(num)<<3 | uint64(typ&7)
}

// ---- Varint ----
//
// A varint stores an unsigned integer 7 bits per byte, least significant
// group first; the high bit of each byte is set on every byte but the last.
// A uint64 takes 1 to 10 bytes. Negative int32 and int64 values are sign
// extended to 64 bits first, so they always take 10 bytes.
// https://protobuf.dev/programming-guides/encoding/#varints

// ConsumeVarint decodes a varint from the front of b and returns its value
// and length in bytes. Non-minimal encodings such as 80 00 for 0 are
// accepted, and so is a negative int32 that an encoder did not sign extend:
// ff ff ff ff 0f decodes as 2^32-1, which int32 conversion turns back into -1.
// On failure n < 0 (see [ErrorAt]): ErrTruncated if b ends inside the varint,
// ErrOverflow if it is longer than 10 bytes or its 10th byte exceeds 1.
func ConsumeVarint(b []byte) (v uint64, n int) {
	// Most varints on the wire are tags, small lengths, enums and bools:
	// one byte. That case is kept small enough to inline into the caller;
	// this exact form (range-and-break, assign-then-return) fits the
	// compiler's inlining budget where the plainer spellings do not.
	for _, c := range b {
		if c < 0x80 {
			return uint64(c), 1
		}
		//lint:ignore SA4004 the loop is an inlinable "if len(b) > 0" (see above)
		break
	}
	v, n = consumeVarintSlow(b)
	return
}

func consumeVarintSlow(b []byte) (v uint64, n int) {
	// Reached with b empty or b[0] >= 0x80. Unrolled, with a length check
	// before each byte: small messages put most varints within 10 bytes of
	// the end of their buffer, and there this beats a loop by about 2x.
	if len(b) < 2 {
		return 0, errCodeTruncated
	}
	v = uint64(b[0]) & 0x7f
	y := uint64(b[1])
	v |= (y & 0x7f) << 7
	if y < 0x80 {
		return v, 2
	}
	if len(b) >= 8 {
		return consumeVarintWord(b)
	}
	if len(b) < 3 {
		return 0, errCodeTruncated
	}
	y = uint64(b[2])
	v |= (y & 0x7f) << 14
	if y < 0x80 {
		return v, 3
	}
	if len(b) < 4 {
		return 0, errCodeTruncated
	}
	y = uint64(b[3])
	v |= (y & 0x7f) << 21
	if y < 0x80 {
		return v, 4
	}
	if len(b) < 5 {
		return 0, errCodeTruncated
	}
	y = uint64(b[4])
	v |= (y & 0x7f) << 28
	if y < 0x80 {
		return v, 5
	}
	if len(b) < 6 {
		return 0, errCodeTruncated
	}
	y = uint64(b[5])
	v |= (y & 0x7f) << 35
	if y < 0x80 {
		return v, 6
	}
	if len(b) < 7 {
		return 0, errCodeTruncated
	}
	y = uint64(b[6])
	v |= (y & 0x7f) << 42
	if y < 0x80 {
		return v, 7
	}
	if len(b) < 8 {
		return 0, errCodeTruncated
	}
	y = uint64(b[7])
	v |= (y & 0x7f) << 49
	if y < 0x80 {
		return v, 8
	}
	if len(b) < 9 {
		return 0, errCodeTruncated
	}
	y = uint64(b[8])
	v |= (y & 0x7f) << 56
	if y < 0x80 {
		return v, 9
	}
	if len(b) < 10 {
		return 0, errCodeTruncated
	}
	// The 10th byte holds bit 63 alone: 0 or 1. Anything more is either a
	// continuation (an 11th byte) or bits beyond 64.
	y = uint64(b[9])
	if y > 1 {
		return 0, errCodeOverflow
	}
	return v | y<<63, 10
}

// consumeVarintWord is consumeVarintSlow for a varint of at least 3 bytes
// with at least 8 bytes of b left: it reads the first 8 bytes as one
// little-endian word, finds the last byte from the first clear high bit
// and packs the 7-bit groups in three shift-and-mask steps, where the
// unrolled bytes take a load, a test and a length check each (a uint64
// field of 9 or 10 bytes, GoogleMessage2's field15: about 80 instructions
// as bytes, about 60 as a word, the call included).
func consumeVarintWord(b []byte) (v uint64, n int) {
	_ = b[7] // one bounds check, so that the eight loads merge into one
	x := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
	stop := ^x & 0x8080808080808080
	if stop != 0 {
		// The varint ends in byte t/8: keep its bytes' low 7 bits.
		t := uint(bits.TrailingZeros64(stop))
		return packVarint(x & (0x7f7f7f7f7f7f7f7f >> (63 - t))), int(t/8) + 1
	}
	v = packVarint(x & 0x7f7f7f7f7f7f7f7f)
	if len(b) < 9 {
		return 0, errCodeTruncated
	}
	y := uint64(b[8])
	v |= (y & 0x7f) << 56
	if y < 0x80 {
		return v, 9
	}
	if len(b) < 10 {
		return 0, errCodeTruncated
	}
	// The 10th byte holds bit 63 alone, as in consumeVarintSlow.
	y = uint64(b[9])
	if y > 1 {
		return 0, errCodeOverflow
	}
	return v | y<<63, 10
}

// packVarint packs the 7-bit groups of x, one in the low 7 bits of each
// byte (the first group in the lowest byte), into one 56-bit value.
func packVarint(x uint64) uint64 {
	x = x&0x007f007f007f007f | (x&0x7f007f007f007f00)>>1
	x = x&0x00003fff00003fff | (x&0x3fff00003fff0000)>>2
	return x&0x000000000fffffff | (x&0x0fffffff00000000)>>4
}

// SizeVarint returns the length of the varint encoding of v: 1 to 10 bytes.
func SizeVarint(v uint64) int {
	// ceil(bitlen/7) computed as (9*bitlen+64)/64, exact for bitlen in
	// 1..64 (9/64 is close enough to 1/7 over that range; the test checks
	// every length): one bit-scan instruction, a multiply-add and a shift,
	// no branches, no table. The trick is C++ protobuf's, by way of
	// protowire. v|1 makes 0 count as one bit and spares the compiler its
	// zero-input fix-up. In uint, with a shift: bits.Len64 is the bit
	// scan plus one, which the compiler folds with the multiply-add into
	// one LEA (9*scan+73), where a uint32 product costs a zero-extension
	// and a signed division its sign fix-up.
	return int((9*uint(bits.Len64(v|1)) + 64) >> 6)
}

// SizeTagVarint is tagLen + SizeVarint(v): the size in bytes of a record
// whose tag takes tagLen bytes and whose value is the varint v. Generated
// Size calls it with a constant tagLen (1 to 5), which folds into
// SizeVarint's multiply-add, so the tag costs no instruction. It has no
// branch: a fast path for values under 0x80 (a compare and an add) ran
// fewer instructions but made GoogleMessage1's Size about 35% slower in
// wall time (27.4 against 19.5 ns, proto3; 28.7 against 23.0, proto2),
// each inlined call adding a taken branch around its slow path.
func SizeTagVarint(tagLen int, v uint64) int {
	return int((9*uint(bits.Len64(v|1)) + 64 + 64*uint(tagLen)) >> 6)
}

// SizeTagBytes is tagLen + SizeBytes(n): the size in bytes of a LEN record
// whose tag takes tagLen bytes and whose value holds n bytes, computed as
// [SizeTagVarint] computes it, without a branch.
func SizeTagBytes(tagLen, n int) int {
	return n + int((9*uint(bits.Len64(uint64(n)|1))+64+64*uint(tagLen))>>6)
}

// AppendVarint appends the varint encoding of v to b.
func AppendVarint(b []byte, v uint64) []byte {
	if v < 0x80 {
		return append(b, byte(v))
	}
	return appendVarintSlow(b, v)
}

func appendVarintSlow(b []byte, v uint64) []byte {
	if v < 1<<14 {
		return append(b, byte(v)|0x80, byte(v>>7))
	}
	n := SizeVarint(v)
	if cap(b)-len(b) < n {
		b = slices.Grow(b, n)
	}
	end := len(b) + n
	b = b[:end]
	putVarintRevSlow(b, end, v)
	return b
}

// PutVarintRev writes the varint encoding of v so that it ends just before
// b[i], and returns the index of its first byte, i - SizeVarint(v).
func PutVarintRev(b []byte, i int, v uint64) int {
	if v < 0x80 {
		i--
		b[i] = byte(v)
		return i
	}
	return putVarintRevSlow(b, i, v)
}

func putVarintRevSlow(b []byte, i int, v uint64) int {
	// Two bytes (lengths under 16 KiB, field numbers under 2048) and three
	// (values under 2^21) are the most common cases here and get the first
	// tests. The rest switch on the size, which compiles to a binary
	// search: at most three compares, where a chain of v < 1<<(7k) tests
	// takes up to eight for the ten-byte negative numbers, and a jump table
	// mispredicts on mixed sizes. Each case stores into a subslice of known
	// length so that one bounds check covers all of its stores.
	if v < 1<<14 {
		d := b[i-2 : i]
		d[0] = byte(v) | 0x80
		d[1] = byte(v >> 7)
		return i - 2
	}
	if v < 1<<21 {
		d := b[i-3 : i]
		d[0] = byte(v) | 0x80
		d[1] = byte(v>>7) | 0x80
		d[2] = byte(v >> 14)
		return i - 3
	}
	switch SizeVarint(v) {
	case 3:
		d := b[i-3 : i]
		d[0] = byte(v) | 0x80
		d[1] = byte(v>>7) | 0x80
		d[2] = byte(v >> 14)
		return i - 3
	case 4:
		d := b[i-4 : i]
		d[0] = byte(v) | 0x80
		d[1] = byte(v>>7) | 0x80
		d[2] = byte(v>>14) | 0x80
		d[3] = byte(v >> 21)
		return i - 4
	case 5:
		d := b[i-5 : i]
		d[0] = byte(v) | 0x80
		d[1] = byte(v>>7) | 0x80
		d[2] = byte(v>>14) | 0x80
		d[3] = byte(v>>21) | 0x80
		d[4] = byte(v >> 28)
		return i - 5
	case 6:
		d := b[i-6 : i]
		d[0] = byte(v) | 0x80
		d[1] = byte(v>>7) | 0x80
		d[2] = byte(v>>14) | 0x80
		d[3] = byte(v>>21) | 0x80
		d[4] = byte(v>>28) | 0x80
		d[5] = byte(v >> 35)
		return i - 6
	case 7:
		d := b[i-7 : i]
		d[0] = byte(v) | 0x80
		d[1] = byte(v>>7) | 0x80
		d[2] = byte(v>>14) | 0x80
		d[3] = byte(v>>21) | 0x80
		d[4] = byte(v>>28) | 0x80
		d[5] = byte(v>>35) | 0x80
		d[6] = byte(v >> 42)
		return i - 7
	case 8:
		d := b[i-8 : i]
		d[0] = byte(v) | 0x80
		d[1] = byte(v>>7) | 0x80
		d[2] = byte(v>>14) | 0x80
		d[3] = byte(v>>21) | 0x80
		d[4] = byte(v>>28) | 0x80
		d[5] = byte(v>>35) | 0x80
		d[6] = byte(v>>42) | 0x80
		d[7] = byte(v >> 49)
		return i - 8
	case 9:
		d := b[i-9 : i]
		d[0] = byte(v) | 0x80
		d[1] = byte(v>>7) | 0x80
		d[2] = byte(v>>14) | 0x80
		d[3] = byte(v>>21) | 0x80
		d[4] = byte(v>>28) | 0x80
		d[5] = byte(v>>35) | 0x80
		d[6] = byte(v>>42) | 0x80
		d[7] = byte(v>>49) | 0x80
		d[8] = byte(v >> 56)
		return i - 9
	default: // 10: every negative int32 and int64
		d := b[i-10 : i]
		d[0] = byte(v) | 0x80
		d[1] = byte(v>>7) | 0x80
		d[2] = byte(v>>14) | 0x80
		d[3] = byte(v>>21) | 0x80
		d[4] = byte(v>>28) | 0x80
		d[5] = byte(v>>35) | 0x80
		d[6] = byte(v>>42) | 0x80
		d[7] = byte(v>>49) | 0x80
		d[8] = byte(v>>56) | 0x80
		d[9] = byte(v >> 63)
		return i - 10
	}
}

// ---- Tag ----
//
// A tag is the varint field_number<<3 | wire_type that starts every record.
// https://protobuf.dev/programming-guides/encoding/#structure

// ConsumeTag decodes a tag from the front of b and returns its field number,
// wire type and length in bytes. A tag is a 32-bit varint: at most 5 bytes
// (non-minimal encodings within 5 bytes, such as 88 80 80 80 00 for field 1,
// are accepted). On failure n < 0 (see [ErrorAt]): ErrTruncated if b ends
// inside the first 5 bytes, ErrTagOverlong if those 5 bytes all have the
// continuation bit set (the tag would be 6 or more bytes; C++ and upb reject
// these too, google.golang.org/protobuf accepts up to 10), ErrFieldNumber for
// a field number outside [MinValidNumber, MaxValidNumber], then ErrWireType
// for wire type 6 or 7. An END_GROUP tag is returned like any other;
// [ConsumeFieldValue] rejects it where no group is open.
func ConsumeTag(b []byte) (num int32, typ Type, n int) {
	// One-byte tags (fields 1 to 15) are the common case; the rest, and
	// every error, take the slow path.
	for _, c := range b {
		if c < 0x80 && c >= 8 && c&7 <= uint8(Fixed32Type) {
			return int32(c >> 3), Type(c & 7), 1
		}
		//lint:ignore SA4004 the loop is an inlinable "if len(b) > 0" (see ConsumeVarint)
		break
	}
	return consumeTagSlow(b)
}

func consumeTagSlow(b []byte) (num int32, typ Type, n int) {
	// Unrolled, as consumeVarintSlow: two-byte tags (fields 16 to 2047)
	// are the common case here; they take 4.0 ns this way, 5.5 ns in a
	// loop over the bytes and 4.8 ns through ConsumeVarint (which reads
	// up to 10 bytes).
	if len(b) == 0 {
		return 0, 0, errCodeTruncated
	}
	v := uint64(b[0])
	n = 1
	if v >= 0x80 {
		if len(b) < 2 {
			return 0, 0, errCodeTruncated
		}
		y := uint64(b[1])
		v = v&0x7f | (y&0x7f)<<7
		n = 2
		if y >= 0x80 {
			if len(b) < 3 {
				return 0, 0, errCodeTruncated
			}
			y = uint64(b[2])
			v |= (y & 0x7f) << 14
			n = 3
			if y >= 0x80 {
				if len(b) < 4 {
					return 0, 0, errCodeTruncated
				}
				y = uint64(b[3])
				v |= (y & 0x7f) << 21
				n = 4
				if y >= 0x80 {
					if len(b) < 5 {
						return 0, 0, errCodeTruncated
					}
					y = uint64(b[4])
					if y >= 0x80 {
						return 0, 0, errCodeTagOverlong
					}
					v |= y << 28
					n = 5
				}
			}
		}
	}
	// num-1 wraps for num == 0, so one unsigned comparison checks both ends.
	if v>>3-1 >= MaxValidNumber {
		return 0, 0, errCodeFieldNumber
	}
	if v&7 > uint64(Fixed32Type) {
		return 0, 0, errCodeWireType
	}
	return int32(v >> 3), Type(v & 7), n
}

// SizeTag returns the length of the encoding of a tag with field number
// num, whatever its wire type: 1 byte for fields 1 to 15, 2 up to 2047,
// at most 5 for valid field numbers.
func SizeTag(num int32) int {
	return SizeVarint(uint64(num) << 3)
}

// AppendTag appends the tag for field num and wire type typ to b. num is
// not checked; it should be a valid field number. For a constant tag,
// AppendVarint(b, EncodeTag(num, typ)) inlines into the caller.
func AppendTag(b []byte, num int32, typ Type) []byte {
	return AppendVarint(b, EncodeTag(num, typ))
}

// PutTagRev writes the tag for field num and wire type typ so that it ends
// just before b[i], and returns the index of its first byte. For a constant
// tag, PutVarintRev(b, i, EncodeTag(num, typ)) inlines into the caller and
// folds to the stores of the tag's bytes.
func PutTagRev(b []byte, i int, num int32, typ Type) int {
	return PutVarintRev(b, i, EncodeTag(num, typ))
}

// ---- Fixed32 and Fixed64 ----
//
// I32 and I64 values are 4 and 8 bytes, little-endian: fixed32, sfixed32 and
// float (IEEE 754 bits); fixed64, sfixed64 and double.
// https://protobuf.dev/programming-guides/encoding/#non-varint-numbers

// ConsumeFixed32 decodes a little-endian uint32 from the front of b. On
// failure (fewer than 4 bytes) n < 0, ErrTruncated (see [ErrorAt]).
func ConsumeFixed32(b []byte) (v uint32, n int) {
	if len(b) < 4 {
		return 0, errCodeTruncated
	}
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24, 4
}

// ConsumeFixed64 decodes a little-endian uint64 from the front of b. On
// failure (fewer than 8 bytes) n < 0, ErrTruncated (see [ErrorAt]).
func ConsumeFixed64(b []byte) (v uint64, n int) {
	if len(b) < 8 {
		return 0, errCodeTruncated
	}
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56, 8
}

// SizeFixed32 returns the length of a fixed32 value: 4.
func SizeFixed32() int { return 4 }

// SizeFixed64 returns the length of a fixed64 value: 8.
func SizeFixed64() int { return 8 }

// AppendFixed32 appends v to b as 4 little-endian bytes.
func AppendFixed32(b []byte, v uint32) []byte {
	return append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
}

// AppendFixed64 appends v to b as 8 little-endian bytes.
func AppendFixed64(b []byte, v uint64) []byte {
	return append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24),
		byte(v>>32), byte(v>>40), byte(v>>48), byte(v>>56))
}

// PutFixed32Rev writes v as 4 little-endian bytes ending just before b[i],
// and returns i-4.
func PutFixed32Rev(b []byte, i int, v uint32) int {
	d := b[i-4 : i]
	d[0] = byte(v)
	d[1] = byte(v >> 8)
	d[2] = byte(v >> 16)
	d[3] = byte(v >> 24)
	return i - 4
}

// PutFixed64Rev writes v as 8 little-endian bytes ending just before b[i],
// and returns i-8.
func PutFixed64Rev(b []byte, i int, v uint64) int {
	d := b[i-8 : i]
	d[0] = byte(v)
	d[1] = byte(v >> 8)
	d[2] = byte(v >> 16)
	d[3] = byte(v >> 24)
	d[4] = byte(v >> 32)
	d[5] = byte(v >> 40)
	d[6] = byte(v >> 48)
	d[7] = byte(v >> 56)
	return i - 8
}

// ---- Bytes and String (LEN) ----
//
// A LEN value is a varint length followed by that many bytes: strings,
// bytes, embedded messages and packed repeated fields.
// https://protobuf.dev/programming-guides/encoding/#length-types

// ConsumeBytes decodes a LEN value from the front of b and returns its
// contents v and the total length n, prefix included. v aliases b, with its
// capacity cut to its length so that appending to v cannot overwrite b. On
// failure n < 0 (see [ErrorAt]): the varint errors of [ConsumeVarint] for the
// prefix, or ErrLength if the length runs past the end of b.
func ConsumeBytes(b []byte) (v []byte, n int) {
	m, n := ConsumeVarint(b)
	if n < 0 {
		return nil, n
	}
	// Compare as uint64 before converting: m can be anything up to 2^64-1,
	// and int(m) would wrap to a small or negative number (on 32-bit
	// targets, already for m >= 2^31). len(b)-n >= 0, so its conversion is
	// exact, and once m fits there it fits in int.
	if m > uint64(len(b)-n) {
		return nil, errCodeLength
	}
	end := n + int(m)
	return b[n:end:end], end
}

// SizeBytes returns the length of a LEN value with n bytes of contents:
// SizeVarint(uint64(n)) + n.
func SizeBytes(n int) int {
	return SizeVarint(uint64(n)) + n
}

// AppendBytes appends v to b as a LEN value: its length, then its bytes.
func AppendBytes(b []byte, v []byte) []byte {
	return append(AppendVarint(b, uint64(len(v))), v...)
}

// AppendString appends v to b as a LEN value: its length, then its bytes.
func AppendString(b []byte, v string) []byte {
	return append(AppendVarint(b, uint64(len(v))), v...)
}

// PutBytesRev writes v as a LEN value ending just before b[i] (its bytes,
// and in front of them its length) and returns the index of its first byte.
func PutBytesRev(b []byte, i int, v []byte) int {
	// The length goes in first, so that the copy is the last call and only
	// the result stays live across it.
	j := i - len(v)
	k := PutVarintRev(b, j, uint64(len(v)))
	copy(b[j:i], v)
	return k
}

// PutStringRev writes v as a LEN value ending just before b[i] (its bytes,
// and in front of them its length) and returns the index of its first byte.
func PutStringRev(b []byte, i int, v string) int {
	n := len(v)
	if n <= 16 {
		// Short strings are moved as one or two (overlapping) words, or
		// up to three bytes, instead of through a memmove call.
		j := i - n
		d := b[j:i]
		v := v[:len(d)] // v itself: tells the compiler both lengths are n
		n := len(d)
		switch {
		case n >= 8:
			store64(d, load64(v))
			store64(d[n-8:], load64(v[n-8:]))
		case n >= 4:
			store32(d, load32(v))
			store32(d[n-4:], load32(v[n-4:]))
		case n > 0:
			d[0], d[n>>1], d[n-1] = v[0], v[n>>1], v[n-1]
		}
		j--
		b[j] = byte(n)
		return j
	}
	// The length goes in first, so that the copy is the last call and only
	// the result stays live across it.
	j := i - n
	k := PutVarintRev(b, j, uint64(n))
	copy(b[j:i], v)
	return k
}

// PutValidStringRev is [PutStringRev] for a string that must be valid UTF-8
// (proto3, editions utf8_validation = VERIFY): it returns -1, writing
// nothing, when v is not valid UTF-8. Generated Marshal writes such strings
// with it, checking and writing in one call.
func PutValidStringRev(b []byte, i int, v string) int {
	// The ASCII test is isASCII's, written out here: as a call it would
	// make every argument live across it (spilled and reloaded). Strings
	// with a byte >= 0x80 go to the slow path, which runs the full UTF-8
	// check; it is a tail call, so nothing is spilled for it either.
	// Strings of up to 16 bytes are tested and stored from the same one or
	// two word loads (no memmove call).
	n := len(v)
	var a uint64
	switch {
	case n > 16:
		k := 0
		for ; k <= n-32; k += 32 {
			w := v[k : k+32]
			a |= load64(w) | load64(w[8:]) | load64(w[16:]) | load64(w[24:])
		}
		if n-k > 16 {
			w := v[k : k+16]
			a |= load64(w) | load64(w[8:])
		}
		a |= load64(v[n-16:]) | load64(v[n-8:])
	case n >= 8:
		lo, hi := load64(v), load64(v[n-8:])
		if (lo|hi)&0x8080808080808080 != 0 {
			return putValidStringRevSlow(b, i, v)
		}
		j := i - n
		d := b[j:i]
		store64(d, lo)
		n := len(d)
		store64(d[n-8:], hi)
		j--
		b[j] = byte(n)
		return j
	case n >= 4:
		lo, hi := load32(v), load32(v[n-4:])
		if (lo|hi)&0x80808080 != 0 {
			return putValidStringRevSlow(b, i, v)
		}
		j := i - n
		d := b[j:i]
		store32(d, lo)
		n := len(d)
		store32(d[n-4:], hi)
		j--
		b[j] = byte(n)
		return j
	default: // 0 to 3 bytes: the first, middle and last are all of them
		if n > 0 && (v[0]|v[n>>1]|v[n-1]) >= 0x80 {
			return putValidStringRevSlow(b, i, v)
		}
		return PutStringRev(b, i, v)
	}
	if a&0x8080808080808080 != 0 {
		return putValidStringRevSlow(b, i, v)
	}
	j := i - n
	k := PutVarintRev(b, j, uint64(n))
	copy(b[j:i], v)
	return k
}

func putValidStringRevSlow(b []byte, i int, v string) int {
	if !utf8.ValidString(v) {
		return -1
	}
	return PutStringRev(b, i, v)
}

// ---- Groups and skipping ----
//
// A group is a field whose value is a run of records between a START_GROUP
// tag and an END_GROUP tag with the same field number. Groups are deprecated
// but still decoded, and unknown fields of any wire type must be skipped.
// https://protobuf.dev/programming-guides/encoding/#groups

// ConsumeGroup decodes the group value of field num from the front of b,
// which starts just after the START_GROUP tag. It returns v, the contents up
// to but not including the matching END_GROUP tag, and n, which includes
// that tag. Groups nested inside are matched too. depth is the number of
// nesting levels still allowed, this group included, so depth <= 0 fails at
// once; recursion is bounded by depth. v aliases b, capacity cut to its
// length.
//
// On failure n < 0 (see [ErrorAt]): ErrDepth, ErrGroupMismatch for an
// END_GROUP of another field, ErrTruncated if b ends first, or any error of
// [ConsumeTag] and [ConsumeFieldValue] for the records inside.
func ConsumeGroup(num int32, b []byte, depth int) (v []byte, n int) {
	if depth <= 0 {
		return nil, errCodeDepth
	}
	for i := 0; ; {
		num2, typ, m := ConsumeTag(b[i:])
		if m < 0 {
			return nil, m
		}
		if typ == EndGroupType {
			if num2 != num {
				return nil, errCodeGroupMismatch
			}
			return b[:i:i], i + m
		}
		k := ConsumeFieldValue(num2, typ, b[i+m:], depth-1)
		if k < 0 {
			return nil, k
		}
		i += m + k
	}
}

// ConsumeFieldValue skips one value of field num with wire type typ from the
// front of b, which starts just after the tag, and returns its length; a
// group's length includes its END_GROUP tag. depth is passed to
// [ConsumeGroup]. On failure n < 0 (see [ErrorAt]): ErrWireType for an
// END_GROUP tag here (no group is open) or a wire type above 5, or any error
// of the Consume function for typ.
func ConsumeFieldValue(num int32, typ Type, b []byte, depth int) (n int) {
	switch typ {
	case VarintType:
		_, n = ConsumeVarint(b)
		return n
	case Fixed32Type:
		if len(b) < 4 {
			return errCodeTruncated
		}
		return 4
	case Fixed64Type:
		if len(b) < 8 {
			return errCodeTruncated
		}
		return 8
	case BytesType:
		_, n = ConsumeBytes(b)
		return n
	case StartGroupType:
		_, n = ConsumeGroup(num, b, depth)
		return n
	case EndGroupType:
		return errCodeEndGroup
	default:
		return errCodeWireType
	}
}

// ---- Value transforms ----
// https://protobuf.dev/programming-guides/encoding/#signed-ints

// EncodeZigZag maps a signed integer to an unsigned one so that values of
// small magnitude get short varints (sint32, sint64):
// 0, -1, 1, -2, 2, ... become 0, 1, 2, 3, 4, ...
func EncodeZigZag(v int64) uint64 {
	return uint64(v<<1) ^ uint64(v>>63)
}

// DecodeZigZag inverts [EncodeZigZag]: 0, 1, 2, 3, 4, ... become
// 0, -1, 1, -2, 2, ...
func DecodeZigZag(v uint64) int64 {
	return int64(v>>1) ^ -int64(v&1)
}

// EncodeBool returns the varint value of a bool: 1 for true, 0 for false.
func EncodeBool(v bool) uint64 {
	if v {
		return 1
	}
	return 0
}

// DecodeBool decodes a bool from a varint value: any non-zero value is true.
func DecodeBool(v uint64) bool {
	return v != 0
}
