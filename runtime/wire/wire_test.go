package wire_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"go/parser"
	"go/token"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/protoplay/protoplay/runtime/wire"
)

// google.golang.org/protobuf/encoding/protowire is the oracle throughout:
// where both packages define a behaviour, they must agree byte for byte.
// Where this package is deliberately stricter (field numbers above
// MaxValidNumber, a caller-chosen depth limit, ErrLength rather than a
// truncation error for a LEN past the end), the tests say so.

// unhex turns "0a ff 01" into bytes; it panics on bad input, which is a bug
// in the test table.
func unhex(s string) []byte {
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		panic(err)
	}
	return b
}

// sentinel returns the sentinel that code (a negative n) stands for.
func sentinel(t *testing.T, code int) error {
	t.Helper()
	err := wire.ErrorAt(0, code)
	var e *wire.Error
	if !errors.As(err, &e) {
		t.Fatalf("ErrorAt(0, %d) = %v, want an *Error", code, err)
	}
	return e.Err
}

// pwSentinel maps a protowire error code to the sentinel this package uses
// for the same failure.
func pwSentinel(n int) error {
	switch err := protowire.ParseError(n); {
	case err == io.ErrUnexpectedEOF:
		return wire.ErrTruncated
	case err == protowire.ParseError(pwCodeOverflow):
		return wire.ErrOverflow
	case err == protowire.ParseError(pwCodeFieldNumber):
		return wire.ErrFieldNumber
	case err == protowire.ParseError(pwCodeReserved):
		return wire.ErrWireType
	case err == protowire.ParseError(pwCodeEndGroup):
		return wire.ErrGroupMismatch
	default:
		return err
	}
}

// protowire's error codes, learned from the package itself rather than
// copied from its unexported constants.
var (
	_, pwCodeOverflow       = protowire.ConsumeVarint(unhex("ff ff ff ff ff ff ff ff ff 02"))
	_, _, pwCodeFieldNumber = protowire.ConsumeTag([]byte{0})
	pwCodeReserved          = protowire.ConsumeFieldValue(1, 6, nil)
	pwCodeEndGroup          = protowire.ConsumeFieldValue(1, protowire.EndGroupType, nil)
)

func newRand() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }

// varintValues returns edge values (every power of two and its neighbours,
// sign-extended negative int32s and int64s) and random values of every bit
// length.
func varintValues() []uint64 {
	vs := []uint64{0, 1, 127, 128, 255, 256, 300, 16383, 16384, 1<<63 - 1, 1 << 63, math.MaxUint64,
		math.MaxUint32, math.MaxInt32, 1 << 31}
	// Negative int32 and int64 values, sign extended as the spec requires.
	for _, v := range []int64{-1, -2, math.MinInt32, math.MinInt64, -300} {
		vs = append(vs, uint64(v))
	}
	for k := range 64 {
		vs = append(vs, 1<<k-1, 1<<k, 1<<k+1)
	}
	r := newRand()
	for range 2000 {
		vs = append(vs, r.Uint64()>>r.IntN(65))
	}
	return vs
}

func TestVarint(t *testing.T) {
	for _, v := range varintValues() {
		want := protowire.AppendVarint(nil, v)

		if got := wire.AppendVarint(nil, v); !bytes.Equal(got, want) {
			t.Fatalf("AppendVarint(%d) = % x, want % x", v, got, want)
		}
		prefix := []byte{0xaa, 0xbb}
		if got := wire.AppendVarint(prefix[:2:2], v); !bytes.Equal(got, append(prefix[:2:2], want...)) {
			t.Fatalf("AppendVarint(aa bb, %d) = % x", v, got)
		}
		if got := wire.SizeVarint(v); got != len(want) || got != protowire.SizeVarint(v) {
			t.Fatalf("SizeVarint(%d) = %d, want %d", v, got, len(want))
		}

		// Consume, alone and with trailing bytes.
		for _, tail := range [][]byte{nil, {0x00}, {0xff, 0xff}} {
			in := append(append([]byte(nil), want...), tail...)
			got, n := wire.ConsumeVarint(in)
			pv, pn := protowire.ConsumeVarint(in)
			if got != v || n != len(want) || got != pv || n != pn {
				t.Fatalf("ConsumeVarint(% x) = %d, %d; want %d, %d", in, got, n, v, len(want))
			}
		}
		// Every strict prefix is truncated.
		for i := range len(want) {
			if _, n := wire.ConsumeVarint(want[:i]); n >= 0 || sentinel(t, n) != wire.ErrTruncated {
				t.Fatalf("ConsumeVarint(% x) n = %d, want ErrTruncated", want[:i], n)
			}
		}

		checkPutRev(t, "PutVarintRev", want, func(b []byte, i int) int { return wire.PutVarintRev(b, i, v) })
	}
}

// checkPutRev checks that put writes exactly want so that it ends just before
// index i, touches nothing else, and returns the index of its first byte.
func checkPutRev(t *testing.T, name string, want []byte, put func(b []byte, i int) int) {
	t.Helper()
	const pad = 3
	for _, before := range []int{0, pad} {
		b := bytes.Repeat([]byte{0xcc}, before+len(want)+pad)
		end := before + len(want)
		start := put(b, end)
		if start != before {
			t.Fatalf("%s returned %d, want %d (value % x)", name, start, before, want)
		}
		if !bytes.Equal(b[start:end], want) {
			t.Fatalf("%s wrote % x, want % x", name, b[start:end], want)
		}
		if bytes.Count(b[:start], []byte{0xcc}) != start || bytes.Count(b[end:], []byte{0xcc}) != pad {
			t.Fatalf("%s wrote outside its range: % x", name, b)
		}
	}
}

func TestVarintEdgeEncodings(t *testing.T) {
	tests := []struct {
		name string
		in   string
		v    uint64
		n    int
		err  error
	}{
		{"zero", "00", 0, 1, nil},
		{"one", "01", 1, 1, nil},
		{"127", "7f", 127, 1, nil},
		{"128", "80 01", 128, 2, nil},
		{"300", "ac 02", 300, 2, nil},
		{"2^63", "80 80 80 80 80 80 80 80 80 01", 1 << 63, 10, nil},
		{"max uint64", "ff ff ff ff ff ff ff ff ff 01", math.MaxUint64, 10, nil},
		{"int32(-1) sign extended", "ff ff ff ff ff ff ff ff ff 01", 1<<64 - 1, 10, nil},
		{"int32 -1 not sign extended (5 bytes)", "ff ff ff ff 0f", math.MaxUint32, 5, nil},
		{"non-canonical zero", "80 00", 0, 2, nil},
		{"non-canonical 10-byte zero", "80 80 80 80 80 80 80 80 80 00", 0, 10, nil},
		{"trailing bytes ignored", "01 ff", 1, 1, nil},
		{"empty", "", 0, 0, wire.ErrTruncated},
		{"continuation then EOF", "80", 0, 0, wire.ErrTruncated},
		{"9 continuation bytes then EOF", "ff ff ff ff ff ff ff ff ff", 0, 0, wire.ErrTruncated},
		{"10th byte 2", "ff ff ff ff ff ff ff ff ff 02", 0, 0, wire.ErrOverflow},
		{"10th byte 7f", "ff ff ff ff ff ff ff ff ff 7f", 0, 0, wire.ErrOverflow},
		{"10 continuation bytes", "ff ff ff ff ff ff ff ff ff ff", 0, 0, wire.ErrOverflow},
		{"11 bytes", "ff ff ff ff ff ff ff ff ff ff 01", 0, 0, wire.ErrOverflow},
		{"11 bytes non-canonical zero", "80 80 80 80 80 80 80 80 80 80 00", 0, 0, wire.ErrOverflow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := unhex(tt.in)
			v, n := wire.ConsumeVarint(in)
			pv, pn := protowire.ConsumeVarint(in)
			if tt.err != nil {
				if n >= 0 {
					t.Fatalf("ConsumeVarint(% x) = %d, %d; want error %v", in, v, n, tt.err)
				}
				if got := sentinel(t, n); got != tt.err {
					t.Fatalf("ConsumeVarint(% x) error %v, want %v", in, got, tt.err)
				}
				if pn >= 0 || pwSentinel(pn) != tt.err {
					t.Fatalf("protowire disagrees: %d, %v", pn, protowire.ParseError(pn))
				}
				return
			}
			if v != tt.v || n != tt.n {
				t.Fatalf("ConsumeVarint(% x) = %d, %d; want %d, %d", in, v, n, tt.v, tt.n)
			}
			if v != pv || n != pn {
				t.Fatalf("protowire disagrees: %d, %d", pv, pn)
			}
		})
	}
}

func TestNegativeInt32IsTenBytes(t *testing.T) {
	for _, v := range []int32{-1, -2, math.MinInt32} {
		u := uint64(int64(v)) // what generated code does for int32 fields
		b := wire.AppendVarint(nil, u)
		if len(b) != 10 || wire.SizeVarint(u) != 10 {
			t.Errorf("int32(%d) encodes as % x, want 10 bytes", v, b)
		}
		if got, _ := wire.ConsumeVarint(b); int32(got) != v {
			t.Errorf("int32(%d) decodes as %d", v, int32(got))
		}
	}
	// Some encoders write a negative int32 in 5 bytes; it still decodes.
	if got, n := wire.ConsumeVarint(unhex("ff ff ff ff 0f")); int32(got) != -1 || n != 5 {
		t.Errorf("ff ff ff ff 0f decodes as int32 %d, n %d", int32(got), n)
	}
	minusOne := int32(-1)
	if got := wire.AppendVarint(nil, uint64(minusOne)); !bytes.Equal(got, unhex("ff ff ff ff ff ff ff ff ff 01")) {
		t.Errorf("int32(-1) encodes as % x", got)
	}
}

// TestConsumeVarintRandomBytes feeds arbitrary bytes, biased toward
// continuation bytes, to both decoders.
func TestConsumeVarintRandomBytes(t *testing.T) {
	r := newRand()
	buf := make([]byte, 14)
	for range 200000 {
		b := buf[:r.IntN(len(buf)+1)]
		for i := range b {
			b[i] = byte(r.Uint32())
			if r.IntN(4) != 0 {
				b[i] |= 0x80
			}
		}
		v, n := wire.ConsumeVarint(b)
		pv, pn := protowire.ConsumeVarint(b)
		if (n < 0) != (pn < 0) || n >= 0 && (v != pv || n != pn) || n < 0 && sentinel(t, n) != pwSentinel(pn) {
			t.Fatalf("ConsumeVarint(% x) = %d, %d; protowire %d, %d", b, v, n, pv, pn)
		}
		if n > len(b) {
			t.Fatalf("ConsumeVarint(% x) n = %d > len", b, n)
		}
	}
}

func TestSizeVarintEveryBitLength(t *testing.T) {
	for k := 0; k <= 64; k++ {
		var v uint64
		if k > 0 {
			v = 1 << (k - 1) // exactly k significant bits
		}
		want := max(1, (k+6)/7)
		for _, x := range []uint64{v, v | (v - 1)} {
			if k == 0 {
				x = 0
			}
			if got := wire.SizeVarint(x); got != want {
				t.Errorf("SizeVarint(%#x) (%d bits) = %d, want %d", x, k, got, want)
			}
		}
	}
}

// SizeTagVarint and SizeTagBytes add the tag's length to SizeVarint and
// SizeBytes for every tag length a field number can take (1 to 5 bytes) and
// every bit length of the value (and of a LEN value's length up to 2^32).
func TestSizeTagVarintBytes(t *testing.T) {
	for tagLen := 1; tagLen <= 5; tagLen++ {
		for k := 0; k <= 64; k++ {
			var v uint64
			if k > 0 {
				v = 1 << (k - 1)
			}
			for _, x := range []uint64{v, v | (v - 1)} {
				if got, want := wire.SizeTagVarint(tagLen, x), tagLen+wire.SizeVarint(x); got != want {
					t.Errorf("SizeTagVarint(%d, %#x) = %d, want %d", tagLen, x, got, want)
				}
				if k > 32 {
					continue
				}
				if got, want := wire.SizeTagBytes(tagLen, int(x)), tagLen+wire.SizeBytes(int(x)); got != want {
					t.Errorf("SizeTagBytes(%d, %d) = %d, want %d", tagLen, x, got, want)
				}
			}
		}
	}
}

var validNumbers = []int32{1, 2, 15, 16, 2047, 2048, 1<<18 - 1, 1 << 18, 19000, 19999, 1<<25 - 1, 1 << 25, 1 << 28, wire.MaxValidNumber}

var validTypes = []wire.Type{wire.VarintType, wire.Fixed64Type, wire.BytesType, wire.StartGroupType, wire.EndGroupType, wire.Fixed32Type}

// TestTypeString checks each wire type's value against protowire's constant
// of the same name, and its String against the spec's name
// (protobuf.dev/programming-guides/encoding/#structure).
func TestTypeString(t *testing.T) {
	for _, c := range []struct {
		typ  wire.Type
		pw   protowire.Type
		name string
	}{
		{wire.VarintType, protowire.VarintType, "VARINT"},
		{wire.Fixed64Type, protowire.Fixed64Type, "I64"},
		{wire.BytesType, protowire.BytesType, "LEN"},
		{wire.StartGroupType, protowire.StartGroupType, "SGROUP"},
		{wire.EndGroupType, protowire.EndGroupType, "EGROUP"},
		{wire.Fixed32Type, protowire.Fixed32Type, "I32"},
		{6, 6, "wire type 6"},
		{7, 7, "wire type 7"},
	} {
		if protowire.Type(c.typ) != c.pw {
			t.Errorf("%s = %d, protowire has %d", c.name, uint8(c.typ), c.pw)
		}
		if got := c.typ.String(); got != c.name {
			t.Errorf("Type(%d).String() = %q, want %q", uint8(c.typ), got, c.name)
		}
	}
	if got := wire.Type(255).String(); got != "wire type 255" {
		t.Errorf("Type(255).String() = %q", got)
	}
}

func TestTag(t *testing.T) {
	if wire.MinValidNumber != protowire.MinValidNumber || wire.MaxValidNumber != protowire.MaxValidNumber {
		t.Fatal("field number bounds differ from protowire")
	}
	nums := append([]int32(nil), validNumbers...)
	r := newRand()
	for range 500 {
		nums = append(nums, r.Int32N(wire.MaxValidNumber)+1)
	}
	for _, num := range nums {
		for _, typ := range validTypes {
			want := protowire.AppendTag(nil, protowire.Number(num), protowire.Type(typ))
			if got := wire.AppendTag(nil, num, typ); !bytes.Equal(got, want) {
				t.Fatalf("AppendTag(%d, %d) = % x, want % x", num, typ, got, want)
			}
			if got := wire.EncodeTag(num, typ); got != protowire.EncodeTag(protowire.Number(num), protowire.Type(typ)) {
				t.Fatalf("EncodeTag(%d, %d) = %d", num, typ, got)
			}
			if got := wire.SizeTag(num); got != len(want) || got != protowire.SizeTag(protowire.Number(num)) {
				t.Fatalf("SizeTag(%d) = %d, want %d", num, got, len(want))
			}
			gn, gt, n := wire.ConsumeTag(append(want, 0xff))
			if gn != num || gt != typ || n != len(want) {
				t.Fatalf("ConsumeTag(% x) = %d, %d, %d; want %d, %d, %d", want, gn, gt, n, num, typ, len(want))
			}
			for i := range len(want) {
				if _, _, n := wire.ConsumeTag(want[:i]); n >= 0 || sentinel(t, n) != wire.ErrTruncated {
					t.Fatalf("ConsumeTag(% x) n = %d, want ErrTruncated", want[:i], n)
				}
			}
			checkPutRev(t, "PutTagRev", want, func(b []byte, i int) int { return wire.PutTagRev(b, i, num, typ) })
		}
	}
}

func TestConsumeTagInvalid(t *testing.T) {
	tests := []struct {
		name string
		in   string
		err  error
	}{
		{"empty", "", wire.ErrTruncated},
		{"truncated", "80", wire.ErrTruncated},
		{"field 0 varint", "00", wire.ErrFieldNumber},
		{"field 0 LEN", "02", wire.ErrFieldNumber},
		{"field 0 non-canonical", "80 00", wire.ErrFieldNumber},
		{"field 0 wire type 7", "07", wire.ErrFieldNumber},
		{"field 2^29", "80 80 80 80 10", wire.ErrFieldNumber},
		{"field 2^31-1 (protowire accepts, for MessageSet)", "f8 ff ff ff 3f", wire.ErrFieldNumber},
		{"field 2^31", "80 80 80 80 40", wire.ErrFieldNumber},
		{"field 2^32-1", "f8 ff ff ff 7f", wire.ErrFieldNumber},
		// Longer than 5 bytes: overlong before its field number is looked at.
		{"field 2^61-1 (10-byte tag)", "f8 ff ff ff ff ff ff ff ff 01", wire.ErrTagOverlong},
		{"field 1 wire type 6", "0e", wire.ErrWireType},
		{"field 1 wire type 7", "0f", wire.ErrWireType},
		{"max field wire type 6", "fe ff ff ff 0f", wire.ErrWireType},
		{"overflow", "ff ff ff ff ff ff ff ff ff ff 01", wire.ErrTagOverlong},
		{"4 continuation bytes, then the end", "88 80 80 80", wire.ErrTruncated},
		{"5 continuation bytes, then the end", "88 80 80 80 80", wire.ErrTagOverlong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := unhex(tt.in)
			num, typ, n := wire.ConsumeTag(in)
			if n >= 0 {
				t.Fatalf("ConsumeTag(% x) = %d, %d, %d; want %v", in, num, typ, n, tt.err)
			}
			if got := sentinel(t, n); got != tt.err {
				t.Fatalf("ConsumeTag(% x): %v, want %v", in, got, tt.err)
			}
		})
	}
	// Every valid field number with every wire type 6 and 7.
	for _, num := range validNumbers {
		for _, typ := range []wire.Type{6, 7} {
			in := wire.AppendTag(nil, num, typ)
			if _, _, n := wire.ConsumeTag(in); n >= 0 || sentinel(t, n) != wire.ErrWireType {
				t.Fatalf("ConsumeTag(% x) n = %d, want ErrWireType", in, n)
			}
		}
	}
}

// TestConsumeTagOverlong: a tag is a 32-bit varint of at most 5 bytes.
// Field 1 written in 6 to 10 bytes (non-minimal encodings a 64-bit varint
// reader accepts, as protowire does) is ErrTagOverlong; the same field in
// 2 to 5 bytes, and field 2^29-1 in its 5 bytes, are tags.
func TestConsumeTagOverlong(t *testing.T) {
	for size := 1; size <= 10; size++ {
		in := append(bytes.Repeat([]byte{0x80}, size-1), 0x00)
		in[0] |= 0x08 // field 1, VARINT, then size-1 zero groups
		in = append(in, 0x01)
		num, typ, n := wire.ConsumeTag(in)
		pnum, _, pn := protowire.ConsumeTag(in)
		if pn != size || pnum != 1 {
			t.Fatalf("protowire.ConsumeTag(% x) = %d, %d: the input is not what the test means", in, pnum, pn)
		}
		if size <= wire.MaxTagBytes {
			if num != 1 || typ != wire.VarintType || n != size {
				t.Errorf("%d-byte tag % x: ConsumeTag = %d, %d, %d; want field 1, VARINT, %d bytes", size, in, num, typ, n, size)
			}
			continue
		}
		if n >= 0 || sentinel(t, n) != wire.ErrTagOverlong {
			t.Errorf("%d-byte tag % x: ConsumeTag = %d, %d, %d; want ErrTagOverlong", size, in, num, typ, n)
		}
		// The same tag cut short after its 5th byte is still overlong: no
		// further byte can make it a tag.
		if _, _, n := wire.ConsumeTag(in[:wire.MaxTagBytes]); n >= 0 || sentinel(t, n) != wire.ErrTagOverlong {
			t.Errorf("% x: n = %d, want ErrTagOverlong", in[:wire.MaxTagBytes], n)
		}
	}
	// The largest field number takes exactly 5 bytes, with every wire type.
	for _, typ := range validTypes {
		in := wire.AppendTag(nil, wire.MaxValidNumber, typ)
		if len(in) != wire.MaxTagBytes {
			t.Fatalf("AppendTag(MaxValidNumber) is %d bytes", len(in))
		}
		if num, gt, n := wire.ConsumeTag(in); num != wire.MaxValidNumber || gt != typ || n != 5 {
			t.Errorf("ConsumeTag(% x) = %d, %d, %d", in, num, gt, n)
		}
	}
	// The payload: field 1 = 1234 behind a 9-byte tag. protowire
	// reads it; generated Unmarshal and a walk must not.
	in := unhex("88 80 80 80 80 80 80 80 00 d2 09")
	if recs, code := protowireWalk(in); code != 0 || len(recs) != 1 || recs[0].num != 1 {
		t.Fatalf("protowire reads % x as %v, %d", in, recs, code)
	}
	err := walk(in, wire.DefaultMaxDepth)
	var e *wire.Error
	if !errors.As(err, &e) || e.Err != wire.ErrTagOverlong || e.Offset != 0 {
		t.Fatalf("walk(% x) = %v, want ErrTagOverlong at byte 0", in, err)
	}
	if got := err.Error(); got != "protoplay: invalid wire data at byte 0: tag varint longer than 5 bytes" {
		t.Errorf("error text %q", got)
	}
}

func fixedValues() []uint64 {
	vs := []uint64{0, 1, 0xff, 0x100, math.MaxUint32, 1 << 32, 1 << 63, math.MaxUint64,
		math.Float64bits(math.Pi), math.Float64bits(math.Inf(-1)), math.Float64bits(math.NaN()),
		uint64(math.Float32bits(-1.5))}
	r := newRand()
	for range 1000 {
		vs = append(vs, r.Uint64())
	}
	return vs
}

func TestFixed32(t *testing.T) {
	for _, v64 := range fixedValues() {
		v := uint32(v64)
		want := protowire.AppendFixed32(nil, v)
		if got := wire.AppendFixed32(nil, v); !bytes.Equal(got, want) {
			t.Fatalf("AppendFixed32(%#x) = % x, want % x", v, got, want)
		}
		if got, n := wire.ConsumeFixed32(append(want, 9)); got != v || n != 4 {
			t.Fatalf("ConsumeFixed32(% x) = %#x, %d", want, got, n)
		}
		for i := range 4 {
			if _, n := wire.ConsumeFixed32(want[:i]); n >= 0 || sentinel(t, n) != wire.ErrTruncated {
				t.Fatalf("ConsumeFixed32(% x) n = %d, want ErrTruncated", want[:i], n)
			}
		}
		checkPutRev(t, "PutFixed32Rev", want, func(b []byte, i int) int { return wire.PutFixed32Rev(b, i, v) })
	}
	if wire.SizeFixed32() != protowire.SizeFixed32() {
		t.Fatal("SizeFixed32")
	}
}

func TestFixed64(t *testing.T) {
	for _, v := range fixedValues() {
		want := protowire.AppendFixed64(nil, v)
		if got := wire.AppendFixed64(nil, v); !bytes.Equal(got, want) {
			t.Fatalf("AppendFixed64(%#x) = % x, want % x", v, got, want)
		}
		if got, n := wire.ConsumeFixed64(append(want, 9)); got != v || n != 8 {
			t.Fatalf("ConsumeFixed64(% x) = %#x, %d", want, got, n)
		}
		for i := range 8 {
			if _, n := wire.ConsumeFixed64(want[:i]); n >= 0 || sentinel(t, n) != wire.ErrTruncated {
				t.Fatalf("ConsumeFixed64(% x) n = %d, want ErrTruncated", want[:i], n)
			}
		}
		checkPutRev(t, "PutFixed64Rev", want, func(b []byte, i int) int { return wire.PutFixed64Rev(b, i, v) })
	}
	if wire.SizeFixed64() != protowire.SizeFixed64() {
		t.Fatal("SizeFixed64")
	}
}

func TestBytes(t *testing.T) {
	r := newRand()
	// 0 to 17: every case of PutStringRev's short path (bytes, 4- and 8-byte words).
	for _, size := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 15, 16, 17, 31, 32, 33, 127, 128, 129, 300, 16383, 16384, 70000} {
		v := make([]byte, size)
		for i := range v {
			v[i] = byte(r.Uint32())
		}
		want := protowire.AppendBytes(nil, v)
		if got := wire.AppendBytes(nil, v); !bytes.Equal(got, want) {
			t.Fatalf("AppendBytes(len %d) differs from protowire", size)
		}
		if got := wire.AppendString(nil, string(v)); !bytes.Equal(got, want) {
			t.Fatalf("AppendString(len %d) differs from protowire", size)
		}
		if got := wire.SizeBytes(size); got != len(want) || got != protowire.SizeBytes(size) {
			t.Fatalf("SizeBytes(%d) = %d, want %d", size, got, len(want))
		}
		in := append(append([]byte(nil), want...), 0xee, 0xee)
		got, n := wire.ConsumeBytes(in)
		pv, pn := protowire.ConsumeBytes(in)
		if !bytes.Equal(got, v) || n != len(want) || !bytes.Equal(got, pv) || n != pn {
			t.Fatalf("ConsumeBytes(len %d) = len %d, %d; want %d", size, len(got), n, len(want))
		}
		if cap(got) != len(got) {
			t.Fatalf("ConsumeBytes(len %d) returned cap %d, want it cut to the length", size, cap(got))
		}
		if size > 0 && &got[0] != &in[n-size] {
			t.Fatalf("ConsumeBytes(len %d) copied; want v to alias b", size)
		}
		// Every strict prefix fails: inside the length prefix it is
		// truncated, after it the length runs past the end.
		prefix := wire.SizeVarint(uint64(size))
		for i := 0; i < len(want); i += 1 + i/8 {
			_, n := wire.ConsumeBytes(want[:i])
			wantErr := wire.ErrLength
			if i < prefix {
				wantErr = wire.ErrTruncated
			}
			if n >= 0 || sentinel(t, n) != wantErr {
				t.Fatalf("ConsumeBytes(%d of %d bytes) n = %d, want %v", i, len(want), n, wantErr)
			}
			if _, pn := protowire.ConsumeBytes(want[:i]); pn >= 0 {
				t.Fatalf("protowire accepts a truncated LEN")
			}
		}
		checkPutRev(t, "PutBytesRev", want, func(b []byte, i int) int { return wire.PutBytesRev(b, i, v) })
		checkPutRev(t, "PutStringRev", want, func(b []byte, i int) int { return wire.PutStringRev(b, i, string(v)) })
	}
}

// PutValidStringRev writes what PutStringRev writes for valid UTF-8 and, for
// anything else, returns -1 and writes nothing: at every length from 0 to
// 100 (the 1-3, 4-7 and 8-byte-word cases, the 32-byte rounds and their
// tails) and at 127-130 and 300 (a two-byte length), with a non-ASCII
// byte, a valid two-, three- or four-byte rune (straddling each 8-byte
// word boundary as it moves), a truncated rune or an invalid byte at each
// position.
func TestPutValidStringRev(t *testing.T) {
	lengths := []int{127, 128, 129, 130, 300}
	for n := 0; n <= 100; n++ {
		lengths = append(lengths, n)
	}
	for _, n := range lengths {
		base := bytes.Repeat([]byte{'a'}, n)
		check := func(v []byte) {
			t.Helper()
			want := wire.AppendString(nil, string(v))
			if utf8.Valid(v) {
				checkPutRev(t, "PutValidStringRev", want, func(b []byte, i int) int { return wire.PutValidStringRev(b, i, string(v)) })
				return
			}
			b := bytes.Repeat([]byte{0xcc}, len(want)+2)
			if i := wire.PutValidStringRev(b, len(want)+1, string(v)); i != -1 {
				t.Fatalf("PutValidStringRev(%q) = %d, want -1", v, i)
			}
			if bytes.Count(b, []byte{0xcc}) != len(b) {
				t.Fatalf("PutValidStringRev(%q) wrote % x", v, b)
			}
		}
		check(base)
		for k := 0; k < n; k++ {
			for _, bad := range []string{"\xff", "\x80", "\u00e9", "\u2713", "\U0001F600", "\xe2\x9c", "\xf0\x9f\x98"} {
				if k+len(bad) <= n {
					v := bytes.Clone(base)
					copy(v[k:], bad)
					check(v)
				}
			}
		}
	}
}

// TestConsumeBytesHostileLengths: lengths near and past the limits of int and
// uint64 never panic and never succeed. The comparison is done in uint64
// before any conversion to int, so this holds on 32-bit targets too (run
// with GOARCH=386).
func TestConsumeBytesHostileLengths(t *testing.T) {
	tests := []struct {
		name string
		in   string
		err  error
	}{
		{"2^64-1", "ff ff ff ff ff ff ff ff ff 01 00 00", wire.ErrLength},
		{"2^63", "80 80 80 80 80 80 80 80 80 01 00", wire.ErrLength},
		{"2^63-1", "ff ff ff ff ff ff ff ff 7f 00", wire.ErrLength},
		{"2^32", "80 80 80 80 10 00", wire.ErrLength},
		{"2^32-1", "ff ff ff ff 0f 00", wire.ErrLength},
		{"2^31", "80 80 80 80 08 00", wire.ErrLength},
		{"2^31-1", "ff ff ff ff 07 00", wire.ErrLength},
		{"2^31 as 10 bytes", "80 80 80 80 88 80 80 80 80 00", wire.ErrLength},
		{"2^63 + 1 (wraps to 1 if converted first)", "81 80 80 80 80 80 80 80 80 01 aa", wire.ErrLength},
		{"2^32 + 1 (wraps to 1 on 32-bit)", "81 80 80 80 10 aa", wire.ErrLength},
		{"-1 as int32 sign extended", "ff ff ff ff ff ff ff ff ff 01", wire.ErrLength},
		{"5, 1 byte left", "05 01", wire.ErrLength},
		{"1, none left", "01", wire.ErrLength},
		{"length prefix overflows", "ff ff ff ff ff ff ff ff ff 02", wire.ErrOverflow},
		{"length prefix truncated", "ff ff", wire.ErrTruncated},
		{"empty", "", wire.ErrTruncated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := unhex(tt.in)
			v, n := wire.ConsumeBytes(in)
			if n >= 0 || v != nil {
				t.Fatalf("ConsumeBytes(% x) = % x, %d; want %v", in, v, n, tt.err)
			}
			if got := sentinel(t, n); got != tt.err {
				t.Fatalf("ConsumeBytes(% x): %v, want %v", in, got, tt.err)
			}
			if n := wire.ConsumeFieldValue(1, wire.BytesType, in, 1); n >= 0 || sentinel(t, n) != tt.err {
				t.Fatalf("ConsumeFieldValue(LEN, % x) = %d, want %v", in, n, tt.err)
			}
			if _, pn := protowire.ConsumeBytes(in); pn >= 0 {
				t.Fatalf("protowire accepts % x", in)
			}
		})
	}
	// Non-canonical but in range: a 10-byte encoding of length 1.
	in := unhex("81 80 80 80 80 80 80 80 80 00 aa")
	if v, n := wire.ConsumeBytes(in); n != 11 || !bytes.Equal(v, []byte{0xaa}) {
		t.Fatalf("ConsumeBytes(% x) = % x, %d", in, v, n)
	}
}

func TestGroup(t *testing.T) {
	tests := []struct {
		name  string
		num   int32
		in    string // after the START_GROUP tag
		depth int
		v     string // contents, when valid
		n     int
		err   error
	}{
		{"empty", 1, "0c", 1, "", 1, nil},
		{"one varint", 1, "08 05 0c", 5, "08 05", 3, nil},
		{"trailing bytes after end", 1, "08 05 0c ff ff", 5, "08 05", 3, nil},
		{"every wire type inside", 2,
			"08 96 01 11 01 02 03 04 05 06 07 08 1a 02 68 69 25 01 02 03 04 14",
			1, "08 96 01 11 01 02 03 04 05 06 07 08 1a 02 68 69 25 01 02 03 04", 22, nil},
		{"nested", 1, "13 08 01 14 0c", 2, "13 08 01 14", 5, nil},
		{"nested same number", 1, "0b 0b 0c 0c 0c", 3, "0b 0b 0c 0c", 5, nil},
		{"nested too deep", 1, "13 08 01 14 0c", 1, "", 0, wire.ErrDepth},
		{"depth 0", 1, "0c", 0, "", 0, wire.ErrDepth},
		{"negative depth", 1, "0c", -1, "", 0, wire.ErrDepth},
		{"non-canonical end tag", 1, "08 05 8c 00", 1, "08 05", 4, nil},
		{"large field number", wire.MaxValidNumber, "08 01 fc ff ff ff 0f", 1, "08 01", 7, nil},
		{"ended by another field", 1, "08 05 14", 5, "", 0, wire.ErrGroupMismatch},
		{"nested ended by outer number", 1, "13 0c 14 0c", 5, "", 0, wire.ErrGroupMismatch},
		{"EOF", 1, "08 05", 5, "", 0, wire.ErrTruncated},
		{"EOF immediately", 1, "", 5, "", 0, wire.ErrTruncated},
		{"EOF in nested", 1, "13 08", 5, "", 0, wire.ErrTruncated},
		{"EOF in end tag", 1, "8c", 5, "", 0, wire.ErrTruncated},
		{"bad wire type inside", 1, "0e 0c", 5, "", 0, wire.ErrWireType},
		{"field 0 inside", 1, "00 0c", 5, "", 0, wire.ErrFieldNumber},
		{"LEN past end inside", 1, "0a 05 0c", 5, "", 0, wire.ErrLength},
		{"overflow inside", 1, "08 ff ff ff ff ff ff ff ff ff 7f 0c", 5, "", 0, wire.ErrOverflow},
		{"overlong tag inside", 1, "88 80 80 80 80 00 01 0c", 5, "", 0, wire.ErrTagOverlong},
		{"overlong end tag", 1, "8c 80 80 80 80 00", 5, "", 0, wire.ErrTagOverlong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := unhex(tt.in)
			v, n := wire.ConsumeGroup(tt.num, in, tt.depth)
			if fv := wire.ConsumeFieldValue(tt.num, wire.StartGroupType, in, tt.depth); fv != n {
				t.Errorf("ConsumeFieldValue = %d, ConsumeGroup n = %d", fv, n)
			}
			if tt.err != nil {
				if n >= 0 {
					t.Fatalf("ConsumeGroup(% x) = % x, %d; want %v", in, v, n, tt.err)
				}
				if got := sentinel(t, n); got != tt.err {
					t.Fatalf("ConsumeGroup(% x): %v, want %v", in, got, tt.err)
				}
				if tt.err != wire.ErrDepth && tt.err != wire.ErrTagOverlong { // protowire has neither limit
					if _, pn := protowire.ConsumeGroup(protowire.Number(tt.num), in); pn >= 0 {
						t.Fatalf("protowire accepts % x", in)
					}
				}
				return
			}
			if !bytes.Equal(v, unhex(tt.v)) || n != tt.n {
				t.Fatalf("ConsumeGroup(% x) = % x, %d; want %s, %d", in, v, n, tt.v, tt.n)
			}
			if cap(v) != len(v) {
				t.Fatalf("cap(v) = %d, want %d", cap(v), len(v))
			}
			pv, pn := protowire.ConsumeGroup(protowire.Number(tt.num), in)
			if !bytes.Equal(v, pv) || n != pn {
				t.Fatalf("protowire: % x, %d", pv, pn)
			}
		})
	}
}

// nestedGroups returns levels START_GROUPs of field 1, a varint, and the
// matching END_GROUPs: it needs levels nesting levels.
func nestedGroups(levels int) []byte {
	b := bytes.Repeat([]byte{0x0b}, levels)
	b = append(b, 0x08, 0x01)
	return append(b, bytes.Repeat([]byte{0x0c}, levels)...)
}

// TestUnknownGroupDepth: MaxUnknownGroupDepth groups nested in one unknown
// field are skipped, one more is ErrDepth; with field 100 (2-byte tags) the
// accepted input is 400 bytes, as protobuf-go accepts it.
func TestUnknownGroupDepth(t *testing.T) {
	start, end := wire.AppendTag(nil, 100, wire.StartGroupType), wire.AppendTag(nil, 100, wire.EndGroupType)
	for _, levels := range []int{wire.MaxUnknownGroupDepth - 1, wire.MaxUnknownGroupDepth, wire.MaxUnknownGroupDepth + 1} {
		in := append(bytes.Repeat(start, levels), bytes.Repeat(end, levels)...)
		if levels == wire.MaxUnknownGroupDepth && len(in) != 400 {
			t.Fatalf("%d levels are %d bytes", levels, len(in))
		}
		if _, _, pn := protowire.ConsumeField(in); pn != len(in) {
			t.Fatalf("protowire rejects %d levels: %d", levels, pn)
		}
		err := walk(in, wire.MaxUnknownGroupDepth)
		if levels <= wire.MaxUnknownGroupDepth && err != nil {
			t.Errorf("%d nested unknown groups: %v, want success", levels, err)
		}
		if levels > wire.MaxUnknownGroupDepth && !errors.Is(err, wire.ErrDepth) {
			t.Errorf("%d nested unknown groups: %v, want ErrDepth", levels, err)
		}
	}
}

func TestGroupDepthLimit(t *testing.T) {
	for _, levels := range []int{1, 2, 50, wire.DefaultMaxDepth} {
		in := nestedGroups(levels)[1:] // after the first START_GROUP tag
		if n := wire.ConsumeFieldValue(1, wire.StartGroupType, in, levels); n != len(in) {
			t.Errorf("%d levels, depth %d: n = %d, want %d", levels, levels, n, len(in))
		}
		if n := wire.ConsumeFieldValue(1, wire.StartGroupType, in, levels-1); n >= 0 || sentinel(t, n) != wire.ErrDepth {
			t.Errorf("%d levels, depth %d: n = %d, want ErrDepth", levels, levels-1, n)
		}
	}
	// Far deeper than any limit, and unterminated: fails fast with ErrDepth
	// and does not blow the stack.
	deep := bytes.Repeat([]byte{0x0b}, 1<<20)
	if n := wire.ConsumeFieldValue(1, wire.StartGroupType, deep, wire.DefaultMaxDepth); n >= 0 || sentinel(t, n) != wire.ErrDepth {
		t.Errorf("1M nested groups: n = %d, want ErrDepth", n)
	}
}

func TestConsumeFieldValue(t *testing.T) {
	tests := []struct {
		name string
		typ  wire.Type
		in   string
		n    int
		err  error
	}{
		{"varint", wire.VarintType, "96 01 ff", 2, nil},
		{"varint truncated", wire.VarintType, "96", 0, wire.ErrTruncated},
		{"varint overflow", wire.VarintType, "ff ff ff ff ff ff ff ff ff ff 01", 0, wire.ErrOverflow},
		{"fixed32", wire.Fixed32Type, "01 02 03 04 05", 4, nil},
		{"fixed32 truncated", wire.Fixed32Type, "01 02 03", 0, wire.ErrTruncated},
		{"fixed64", wire.Fixed64Type, "01 02 03 04 05 06 07 08 09", 8, nil},
		{"fixed64 truncated", wire.Fixed64Type, "01 02 03 04 05 06 07", 0, wire.ErrTruncated},
		{"LEN", wire.BytesType, "02 68 69 00", 3, nil},
		{"LEN empty", wire.BytesType, "00", 1, nil},
		{"LEN past end", wire.BytesType, "03 68 69", 0, wire.ErrLength},
		{"group", wire.StartGroupType, "08 01 0c", 3, nil},
		{"END_GROUP with no START_GROUP", wire.EndGroupType, "", 0, wire.ErrWireType},
		{"wire type 6", 6, "00 00 00 00 00 00 00 00", 0, wire.ErrWireType},
		{"wire type 7", 7, "00 00 00 00 00 00 00 00", 0, wire.ErrWireType},
		{"wire type 255", 255, "00", 0, wire.ErrWireType},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := unhex(tt.in)
			n := wire.ConsumeFieldValue(1, tt.typ, in, 1)
			if tt.err != nil {
				if n >= 0 || sentinel(t, n) != tt.err {
					t.Fatalf("ConsumeFieldValue(%d, % x) = %d, want %v", tt.typ, in, n, tt.err)
				}
				return
			}
			if n != tt.n {
				t.Fatalf("ConsumeFieldValue(%d, % x) = %d, want %d", tt.typ, in, n, tt.n)
			}
			if pn := protowire.ConsumeFieldValue(1, protowire.Type(tt.typ), in); pn != n {
				t.Fatalf("protowire: %d", pn)
			}
		})
	}
}

func TestZigZag(t *testing.T) {
	vs := []int64{0, -1, 1, -2, 2, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64}
	r := newRand()
	for range 1000 {
		vs = append(vs, int64(r.Uint64())>>r.IntN(64))
	}
	for _, v := range vs {
		e := wire.EncodeZigZag(v)
		if e != protowire.EncodeZigZag(v) {
			t.Fatalf("EncodeZigZag(%d) = %d, protowire %d", v, e, protowire.EncodeZigZag(v))
		}
		if d := wire.DecodeZigZag(e); d != v {
			t.Fatalf("DecodeZigZag(EncodeZigZag(%d)) = %d", v, d)
		}
		u := r.Uint64()
		if wire.DecodeZigZag(u) != protowire.DecodeZigZag(u) {
			t.Fatalf("DecodeZigZag(%d) differs", u)
		}
	}
	// sint32 values go through int64 and come back unchanged.
	for _, v := range []int32{0, -1, 1, math.MaxInt32, math.MinInt32} {
		e := wire.EncodeZigZag(int64(v))
		if int32(wire.DecodeZigZag(e)) != v || e > math.MaxUint32 {
			t.Fatalf("sint32 %d encodes to %d", v, e)
		}
	}
	// The spec's table.
	for v, want := range map[int64]uint64{0: 0, -1: 1, 1: 2, -2: 3, 0x7fffffff: 0xfffffffe, -0x80000000: 0xffffffff} {
		if got := wire.EncodeZigZag(v); got != want {
			t.Errorf("EncodeZigZag(%d) = %d, want %d", v, got, want)
		}
	}
}

func TestBool(t *testing.T) {
	if wire.EncodeBool(true) != 1 || wire.EncodeBool(false) != 0 {
		t.Fatal("EncodeBool")
	}
	for _, v := range []uint64{0, 1, 2, 0x80, 1 << 32, math.MaxUint64} {
		if wire.DecodeBool(v) != (v != 0) || wire.DecodeBool(v) != protowire.DecodeBool(v) {
			t.Fatalf("DecodeBool(%d) = %v", v, wire.DecodeBool(v))
		}
	}
}

// payload is a whole message, named, with the error a decoding walk must
// report (nil if valid) and where.
type payload struct {
	name   string
	hex    string
	depth  int   // depth limit for the walk; DefaultMaxDepth if 0
	err    error // sentinel, or nil
	offset int   // Error.Offset when err != nil
}

// payloads are the named inputs from the design brief, plus a few more. Each
// is also a seed file in testdata/fuzz/FuzzConsume/ (see TestSeedCorpus).
var payloads = []payload{
	{name: "len_2pow64m1", hex: "0a ff ff ff ff ff ff ff ff ff 01", err: wire.ErrLength, offset: 1},
	{name: "len_2pow31", hex: "0a 80 80 80 80 08", err: wire.ErrLength, offset: 1},
	// A LEN whose length runs past the end is ErrLength (protowire calls it
	// io.ErrUnexpectedEOF): the input may well be complete and the length
	// wrong, and the length is what to look at.
	{name: "len_5_1left", hex: "0a 05 01", err: wire.ErrLength, offset: 1},
	{name: "wiretype6", hex: "0e", err: wire.ErrWireType, offset: 0},
	{name: "wiretype7", hex: "0f", err: wire.ErrWireType, offset: 0},
	{name: "skip_len_huge", hex: "3a ff ff ff ff ff ff ff ff 7f", err: wire.ErrLength, offset: 1},
	{name: "varint_11bytes", hex: "08 ff ff ff ff ff ff ff ff ff ff 01", err: wire.ErrOverflow, offset: 1},
	{name: "field_2pow29", hex: "80 80 80 80 10 01", err: wire.ErrFieldNumber, offset: 0},
	{name: "field_0", hex: "00 01", err: wire.ErrFieldNumber, offset: 0},
	{name: "group_mismatch", hex: "0b 08 05 14", err: wire.ErrGroupMismatch, offset: 1},
	{name: "group_eof", hex: "0b 08 05", err: wire.ErrTruncated, offset: 1},
	{name: "field_max_5byte_tag", hex: "f8 ff ff ff 0f 01"},
	{name: "field_2pow24_len_empty", hex: "82 80 80 40 00"},
	{name: "group_depth5", hex: "0b 08 05 0c", depth: 5},

	// More of the same kinds.
	{name: "empty", hex: ""},
	{name: "scalars", hex: "08 96 01 15 01 02 03 04 19 01 02 03 04 05 06 07 08 22 02 68 69"},
	{name: "second_field_bad", hex: "08 01 10 80", err: wire.ErrTruncated, offset: 3},
	{name: "end_group_alone", hex: "08 01 0c", err: wire.ErrWireType, offset: 3},
	{name: "nested_groups", hex: "0b 13 1b 20 01 1c 14 0c"},
	{name: "group_too_deep", hex: "0b 13 1b 20 01 1c 14 0c", depth: 2, err: wire.ErrDepth, offset: 1},
	{name: "fixed64_truncated", hex: "09 01 02 03", err: wire.ErrTruncated, offset: 1},
	{name: "tag_truncated", hex: "08 01 80", err: wire.ErrTruncated, offset: 2},
	{name: "field_2pow31m1", hex: "f8 ff ff ff 3f 01", err: wire.ErrFieldNumber, offset: 0},

	// Tags are at most 5 bytes (protowire reads the longer ones).
	{name: "tag_overlong_9bytes", hex: "88 80 80 80 80 80 80 80 00 d2 09", err: wire.ErrTagOverlong, offset: 0},
	{name: "tag_overlong_6bytes", hex: "08 01 88 80 80 80 80 00 01", err: wire.ErrTagOverlong, offset: 2},
	{name: "tag_overlong_in_group", hex: "0b 88 80 80 80 80 00 01 0c", err: wire.ErrTagOverlong, offset: 1},
	{name: "tag_overlong_end_group", hex: "0b 8c 80 80 80 80 00", err: wire.ErrTagOverlong, offset: 1},
	{name: "tag_5byte_nonminimal", hex: "88 80 80 80 00 01"},
}

// walk decodes b as a message the way generated Unmarshal skips fields: a
// tag, then its value, until the input ends. It reports the first error
// with the offset of the failed Consume call.
func walk(b []byte, depth int) error {
	for i := 0; i < len(b); {
		num, typ, n := wire.ConsumeTag(b[i:])
		if n < 0 {
			return wire.ErrorAt(i, n)
		}
		i += n
		m := wire.ConsumeFieldValue(num, typ, b[i:], depth)
		if m < 0 {
			return wire.ErrorAt(i, m)
		}
		i += m
	}
	return nil
}

func TestPayloads(t *testing.T) {
	for _, p := range payloads {
		t.Run(p.name, func(t *testing.T) {
			depth := p.depth
			if depth == 0 {
				depth = wire.DefaultMaxDepth
			}
			err := walk(unhex(p.hex), depth)
			if p.err == nil {
				if err != nil {
					t.Fatalf("walk(%s) = %v, want success", p.hex, err)
				}
				return
			}
			var e *wire.Error
			if !errors.As(err, &e) {
				t.Fatalf("walk(%s) = %v, want *Error", p.hex, err)
			}
			if !errors.Is(err, p.err) || e.Err != p.err || e.Offset != p.offset {
				t.Fatalf("walk(%s) = %v (offset %d), want %v at offset %d", p.hex, err, e.Offset, p.err, p.offset)
			}
		})
	}
}

func TestErrorAt(t *testing.T) {
	if err := wire.ErrorAt(7, 0); err != nil {
		t.Fatalf("ErrorAt(7, 0) = %v, want nil", err)
	}
	if err := wire.ErrorAt(7, 3); err != nil {
		t.Fatalf("ErrorAt(7, 3) = %v, want nil", err)
	}
	// Every code a Consume function can return maps to its sentinel.
	codes := map[error]int{}
	_, codes[wire.ErrTruncated] = wire.ConsumeVarint(nil)
	_, codes[wire.ErrOverflow] = wire.ConsumeVarint(unhex("ff ff ff ff ff ff ff ff ff 02"))
	_, _, codes[wire.ErrFieldNumber] = wire.ConsumeTag([]byte{0})
	_, _, codes[wire.ErrWireType] = wire.ConsumeTag([]byte{0x0f})
	_, codes[wire.ErrLength] = wire.ConsumeBytes([]byte{1})
	_, codes[wire.ErrGroupMismatch] = wire.ConsumeGroup(1, []byte{0x14}, 1)
	_, codes[wire.ErrDepth] = wire.ConsumeGroup(1, []byte{0x0c}, 0)
	for want, code := range codes {
		err := wire.ErrorAt(42, code)
		var e *wire.Error
		if !errors.As(err, &e) || e.Err != want || e.Offset != 42 || !errors.Is(err, want) {
			t.Errorf("ErrorAt(42, %d) = %#v, want %v at 42", code, err, want)
		}
		for other := range codes {
			if other != want && errors.Is(err, other) {
				t.Errorf("ErrorAt(42, %d) = %v also matches %v", code, err, other)
			}
		}
	}
	if len(codes) != 7 {
		t.Fatalf("codes not distinct: %v", codes)
	}
	if err := wire.ErrorAt(0, -1000); !errors.Is(err, wire.ErrValue) {
		t.Errorf("unknown code: %v, want ErrValue", err)
	}

	// ErrTruncated is also io.ErrUnexpectedEOF, and nothing else is.
	if err := wire.ErrorAt(0, codes[wire.ErrTruncated]); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("%v does not match io.ErrUnexpectedEOF", err)
	}
	if !errors.Is(wire.ErrTruncated, io.ErrUnexpectedEOF) {
		t.Error("ErrTruncated does not match io.ErrUnexpectedEOF")
	}
	if errors.Is(wire.ErrorAt(0, codes[wire.ErrLength]), io.ErrUnexpectedEOF) {
		t.Error("ErrLength matches io.ErrUnexpectedEOF")
	}
}

func TestErrorString(t *testing.T) {
	_, lengthCode := wire.ConsumeBytes([]byte{1})
	e := wire.ErrorAt(12, lengthCode).(*wire.Error)
	e.Path = "inner.data"
	tests := []struct {
		err  error
		want string
	}{
		{e, "protoplay: invalid wire data at byte 12 (field inner.data): length past end of buffer"},
		{wire.ErrorAt(0, lengthCode), "protoplay: invalid wire data at byte 0: length past end of buffer"},
		{wire.ErrorAt(3, wire.ConsumeFieldValue(1, wire.EndGroupType, nil, 1)),
			"protoplay: invalid wire data at byte 3: invalid wire type: END_GROUP without START_GROUP"},
		{&wire.Error{Offset: -1, Path: "items[3]", Err: wire.ErrRequired, Detail: "name"},
			"protoplay: invalid message (field items[3]): required field not set: name"},
		{&wire.Error{Offset: 30, Path: "title", Err: wire.ErrUTF8},
			"protoplay: invalid wire data at byte 30 (field title): invalid UTF-8 in string field"},
		{&wire.Error{Offset: -1}, "protoplay: invalid message"},
		{wire.ErrorAt(5, func() int { _, n := wire.ConsumeVarint(nil); return n }()),
			"protoplay: invalid wire data at byte 5: unexpected end of input"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q\n want %q", got, tt.want)
		}
	}
}

func TestNest(t *testing.T) {
	if wire.Nest(nil, 3, "x") != nil {
		t.Fatal("Nest(nil) != nil")
	}
	_, code := wire.ConsumeBytes([]byte{1})
	err := wire.ErrorAt(2, code) // inside the innermost message
	err = wire.Nest(err, 5, "name")
	err = wire.Nest(err, 10, "items[3]")
	err = wire.Nest(err, 1, "inner")
	var e *wire.Error
	if !errors.As(err, &e) || e.Offset != 18 || e.Path != "inner.items[3].name" || !errors.Is(err, wire.ErrLength) {
		t.Fatalf("Nest: %#v", err)
	}
	// Unknown offsets stay unknown.
	err = wire.Nest(&wire.Error{Offset: -1, Err: wire.ErrRequired, Detail: "id"}, 7, "inner")
	if e := err.(*wire.Error); e.Offset != -1 || e.Path != "inner" {
		t.Fatalf("Nest: %#v", e)
	}
	// A negative base (encoding) leaves no offset.
	err = wire.Nest(&wire.Error{Offset: 3, Err: wire.ErrValue}, -1, "inner")
	if e := err.(*wire.Error); e.Offset != -1 || e.Path != "inner" {
		t.Fatalf("Nest: %#v", e)
	}
	if e := wire.Nest(errors.New("x"), -5, "f").(*wire.Error); e.Offset != -1 {
		t.Fatalf("Nest: %#v", e)
	}
	// An index prefix joins without a dot; an empty field changes only the offset.
	err = wire.Nest(&wire.Error{Offset: 0, Path: "[2].x", Err: wire.ErrUTF8}, 4, "list")
	err = wire.Nest(err, 1, "")
	if e := err.(*wire.Error); e.Offset != 5 || e.Path != "list[2].x" {
		t.Fatalf("Nest: %#v", e)
	}
	// Other errors get wrapped.
	other := errors.New("boom")
	err = wire.Nest(other, 9, "f")
	if e := err.(*wire.Error); e.Offset != 9 || e.Path != "f" || !errors.Is(err, other) {
		t.Fatalf("Nest: %#v", e)
	}
}

// TestNoAllocs: the hot-path functions allocate nothing.
func TestNoAllocs(t *testing.T) {
	in := unhex("08 96 01 15 01 02 03 04 19 01 02 03 04 05 06 07 08 22 02 68 69 2b 08 01 2c 30 ff ff ff ff ff ff ff ff ff 01")
	buf := make([]byte, 64)
	var sink int
	allocs := testing.AllocsPerRun(100, func() {
		sink += walkNoErr(in)
		_, n := wire.ConsumeVarint(in[1:])
		_, m := wire.ConsumeFixed32(in[4:])
		_, k := wire.ConsumeFixed64(in[9:])
		v, l := wire.ConsumeBytes(in[18:])
		g, o := wire.ConsumeGroup(5, in[22:], 2)
		sink += n + m + k + l + len(v) + len(g) + o
		i := len(buf)
		i = wire.PutVarintRev(buf, i, math.MaxUint64)
		i = wire.PutVarintRev(buf, i, 300)
		i = wire.PutVarintRev(buf, i, 1)
		i = wire.PutFixed32Rev(buf, i, 7)
		i = wire.PutFixed64Rev(buf, i, 7)
		i = wire.PutBytesRev(buf, i, in[:3])
		i = wire.PutStringRev(buf, i, "hi")
		i = wire.PutTagRev(buf, i, 1000, wire.BytesType)
		sink += i + wire.SizeVarint(uint64(i)) + wire.SizeTag(int32(i)) + wire.SizeBytes(i)
		b := buf[:0]
		b = wire.AppendVarint(b, math.MaxUint64)
		b = wire.AppendVarint(b, 1)
		b = wire.AppendTag(b, 1000, wire.BytesType)
		b = wire.AppendFixed32(b, 1)
		b = wire.AppendFixed64(b, 1)
		b = wire.AppendBytes(b, in[:3])
		b = wire.AppendString(b, "hi")
		sink += len(b)
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per run, want 0", allocs)
	}
	_ = sink
}

func walkNoErr(b []byte) int {
	for i := 0; i < len(b); {
		num, typ, n := wire.ConsumeTag(b[i:])
		if n < 0 {
			return n
		}
		i += n
		m := wire.ConsumeFieldValue(num, typ, b[i:], wire.DefaultMaxDepth)
		if m < 0 {
			return m
		}
		i += m
	}
	return 0
}

// TestStdlibOnly guards the package's one promise to generated code: its
// non-test files import nothing outside the Go standard library.
func TestStdlibOnly(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if first, _, _ := strings.Cut(path, "/"); strings.Contains(first, ".") {
				t.Errorf("%s imports %s, outside the standard library", name, path)
			}
		}
	}
	if _, err := os.Stat("doc.go"); err != nil {
		t.Errorf("package doc missing: %v", err)
	}
}
