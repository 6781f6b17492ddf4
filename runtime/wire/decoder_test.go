package wire_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/protoplay/protoplay/runtime/wire"
)

// Pointers from the scalar arena hold their own values, aligned for their
// type: writing through one leaves the rest alone, across block boundaries
// and with every type interleaved.
func TestDecoderScalarArena(t *testing.T) {
	var d wire.Decoder
	const n = 2000
	type vals struct {
		b   *bool
		i32 *int32
		i64 *int64
		u32 *uint32
		u64 *uint64
		f32 *float32
		f64 *float64
		s   *string
	}
	vs := make([]vals, n)
	for i := range vs {
		// Vary the order so that every size follows every other one.
		switch i % 3 {
		case 0:
			vs[i].b, vs[i].i64, vs[i].i32 = d.Bool(i%2 == 0), d.Int64(int64(i)<<33), d.Int32(int32(-i))
		case 1:
			vs[i].i32, vs[i].b, vs[i].i64 = d.Int32(int32(-i)), d.Bool(i%2 == 0), d.Int64(int64(i)<<33)
		default:
			vs[i].i64, vs[i].i32, vs[i].b = d.Int64(int64(i)<<33), d.Int32(int32(-i)), d.Bool(i%2 == 0)
		}
		vs[i].u32, vs[i].f64, vs[i].u64 = d.Uint32(uint32(i)), d.Float64(float64(i)/4), d.Uint64(^uint64(i))
		vs[i].f32, vs[i].s = d.Float32(float32(i)/2), d.StringPtr(strconv.Itoa(i))
	}
	check := func(i int, v vals, bump int) {
		t.Helper()
		if *v.b != (i%2 == 0) || *v.i32 != int32(-i)+int32(bump) || *v.i64 != int64(i)<<33 ||
			*v.u32 != uint32(i) || *v.u64 != ^uint64(i) || *v.f32 != float32(i)/2 ||
			*v.f64 != float64(i)/4 || *v.s != strconv.Itoa(i) {
			t.Fatalf("values %d: %v %v %v %v %v %v %v %q", i, *v.b, *v.i32, *v.i64, *v.u32, *v.u64, *v.f32, *v.f64, *v.s)
		}
	}
	for i, v := range vs {
		check(i, v, 0)
		for _, p := range []struct {
			p     unsafe.Pointer
			align uintptr
		}{{unsafe.Pointer(v.i32), 4}, {unsafe.Pointer(v.u32), 4}, {unsafe.Pointer(v.f32), 4},
			{unsafe.Pointer(v.i64), 8}, {unsafe.Pointer(v.u64), 8}, {unsafe.Pointer(v.f64), 8}} {
			if uintptr(p.p)%p.align != 0 {
				t.Fatalf("values %d: %p not aligned to %d", i, p.p, p.align)
			}
		}
	}
	// Writing through every int32 pointer changes that value only.
	for _, v := range vs {
		*v.i32++
	}
	for i, v := range vs {
		check(i, v, 1)
	}
}

// Scalar blocks grow 64, 128, 256 bytes, then MaxScalarBlock bytes each:
// n int32 values take O(log n) allocations up to the cap, then one per
// MaxScalarBlock/4 values.
func TestDecoderScalarArenaAllocs(t *testing.T) {
	for _, c := range []struct{ n, want int }{
		{1, 1},
		{16, 1},
		{17, 2},
		{112, 3}, // 16 + 32 + 64
		{113, 4},
		{1000, 3 + (1000-112+wire.MaxScalarBlock/4-1)/(wire.MaxScalarBlock/4)},
	} {
		allocs := testing.AllocsPerRun(20, func() {
			var d wire.Decoder
			for i := range c.n {
				sinkI32 = d.Int32(int32(i))
			}
		})
		if allocs != float64(c.want) {
			t.Errorf("%d int32 values: %v allocations, want %d", c.n, allocs, c.want)
		}
	}
	// Mixed sizes share the blocks: 8 bools, 4 int32 and 4 int64 values
	// (8+16+32 = 56 bytes, no padding in this order) fit the first block.
	allocs := testing.AllocsPerRun(20, func() {
		var d wire.Decoder
		for range 4 {
			sinkI64 = d.Int64(1)
			sinkI32 = d.Int32(1)
			d.Bool(true)
			d.Bool(false)
		}
	})
	if allocs != 1 {
		t.Errorf("16 mixed values: %v allocations, want 1", allocs)
	}
}

// String pointers come from slabs of 8, 16, 32 and then MaxStringSlab
// headers.
func TestDecoderStringPtrAllocs(t *testing.T) {
	const n = 1000
	allocs := testing.AllocsPerRun(20, func() {
		var d wire.Decoder
		for range n {
			d.StringPtr("x")
		}
	})
	if want := float64(3 + (n-56+wire.MaxStringSlab-1)/wire.MaxStringSlab); allocs != want {
		t.Errorf("%d strings: %v allocations, want %v", n, allocs, want)
	}
}

// A fresh (zero) Decoder starts again from the smallest blocks, and the
// values the old one handed out stay intact.
func TestDecoderReset(t *testing.T) {
	var d wire.Decoder
	var old []*int64
	for i := range 500 {
		old = append(old, d.Int64(int64(i)))
	}
	d = wire.Decoder{}
	if allocs := testing.AllocsPerRun(20, func() {
		d = wire.Decoder{}
		sinkI64 = d.Int64(7)
	}); allocs != 1 {
		t.Errorf("one value after a reset: %v allocations, want 1", allocs)
	}
	for range 500 {
		*d.Int64(0) = -1
	}
	for i, p := range old {
		if *p != int64(i) {
			t.Fatalf("old value %d = %d after reset", i, *p)
		}
	}
}

// A LEN value claiming more bytes than the input holds fails before
// anything is allocated, however large the claim.
func TestDecoderHostileLength(t *testing.T) {
	for _, in := range [][]byte{
		{0x05, 'a', 'b'},
		{0xff, 0xff, 0xff, 0xff, 0x0f, 'a'},                               // 4 GiB
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 'a'},       // 2^63-1
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 'a'}, // 2^64-1
	} {
		allocs := testing.AllocsPerRun(20, func() {
			var d wire.Decoder
			if _, n := d.ConsumeString(in); n >= 0 {
				t.Fatalf("ConsumeString(% x) = %d, want an error", in, n)
			}
			if _, n := d.ConsumeValidString(in); n >= 0 {
				t.Fatalf("ConsumeValidString(% x) = %d, want an error", in, n)
			}
			if _, n := wire.ConsumeBytes(in); n >= 0 {
				t.Fatalf("ConsumeBytes(% x) = %d, want an error", in, n)
			}
		})
		if allocs != 0 {
			t.Errorf("% x: %v allocations, want 0", in, allocs)
		}
	}
}

var (
	sinkI32 *int32
	sinkI64 *int64
)

type msgA struct {
	x int
	s string
}

type msgB struct{ y [3]float64 }

var sinkA *msgA

// New: the first message costs what new(T) does; later ones share slabs per
// type; every message is distinct and zero.
func TestDecoderNew(t *testing.T) {
	if allocs := testing.AllocsPerRun(20, func() {
		var d wire.Decoder
		sinkA = wire.New[msgA](&d)
	}); allocs != 1 {
		t.Errorf("one message: %v allocations, want 1", allocs)
	}
	var d wire.Decoder
	seen := map[*msgA]bool{}
	for i := range 100 {
		a := wire.New[msgA](&d)
		b := wire.New[msgB](&d)
		if seen[a] || a.x != 0 || a.s != "" || b.y != [3]float64{} {
			t.Fatalf("message %d reused or not zero", i)
		}
		seen[a] = true
		a.x, a.s = i, "v"
		b.y[0] = float64(i)
	}
	for a := range seen {
		if a.s != "v" {
			t.Fatal("a message was overwritten")
		}
	}
	allocs := testing.AllocsPerRun(20, func() {
		var d wire.Decoder
		for range 1000 {
			sinkA = wire.New[msgA](&d)
		}
	})
	// 2, 4, ... messages of 24 bytes, up to MaxMessageSlabBytes.
	if perSlab := wire.MaxMessageSlabBytes / 24; allocs > float64(1000/perSlab+9) {
		t.Errorf("1000 messages: %v allocations, want slabs", allocs)
	}
}

// More message types than a Decoder keeps slabs for still get fresh,
// distinct messages.
func TestDecoderNewManyTypes(t *testing.T) {
	var d wire.Decoder
	type t0 struct{ v int }
	type t1 struct{ v int }
	type t2 struct{ v int }
	type t3 struct{ v int }
	type t4 struct{ v int }
	type t5 struct{ v int }
	type t6 struct{ v int }
	type t7 struct{ v int }
	type t8 struct{ v int }
	type t9 struct{ v int }
	for range 3 {
		ps := []*int{
			&wire.New[t0](&d).v, &wire.New[t1](&d).v, &wire.New[t2](&d).v, &wire.New[t3](&d).v,
			&wire.New[t4](&d).v, &wire.New[t5](&d).v, &wire.New[t6](&d).v, &wire.New[t7](&d).v,
			&wire.New[t8](&d).v, &wire.New[t9](&d).v,
		}
		for i, p := range ps {
			if *p != 0 {
				t.Fatalf("type %d: message not zero", i)
			}
			*p = i + 1
		}
	}
}

// String copies: overwriting the input afterwards changes no string, short
// strings share blocks without overlapping, long ones stand alone, and the
// empty input is "".
func TestDecoderString(t *testing.T) {
	var d wire.Decoder
	if s := d.String(nil); s != "" {
		t.Fatalf("String(nil) = %q", s)
	}
	if s := d.String([]byte{}); s != "" {
		t.Fatalf("String([]byte{}) = %q", s)
	}
	in := make([]byte, 2*wire.MaxTextBlock)
	var got, want []string
	// Lengths 1..MaxTextBlock/2+40 cross many block boundaries and the
	// shared/alone limit.
	for n := 1; n <= wire.MaxTextBlock/2+40; n++ {
		for i := range n {
			in[i] = byte('a' + (n+i)%26)
		}
		want = append(want, string(in[:n]))
		got = append(got, d.String(in[:n]))
		for i := range n {
			in[i] = 0xff // the caller reuses its buffer
		}
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("string %d = %q, want %q", i, got[i], want[i])
		}
	}
}

// Short strings take one allocation per text block; a long one that does
// not fit the rest of the block takes one of its own.
func TestDecoderStringAllocs(t *testing.T) {
	short := []byte("sixteen bytes!!!")
	long := make([]byte, wire.MaxTextBlock/2+1)
	allocs := testing.AllocsPerRun(20, func() {
		var d wire.Decoder
		for range 200 { // 3,200 bytes: blocks of 256, 512, 1024, 2048
			sinkS = d.String(short)
		}
		sinkS = d.String(long)
	})
	if allocs != 5 {
		t.Errorf("200 short strings and one long: %v allocations, want 5 (4 blocks + 1)", allocs)
	}
	// 1,000 strings of 100 bytes: blocks of 256 (2 strings), 512 (5), 1024
	// (10), then 2048 (20 each): 1 + (1000-17)/20 rounded up more blocks.
	s100 := make([]byte, 100)
	allocs = testing.AllocsPerRun(20, func() {
		var d wire.Decoder
		for range 1000 {
			sinkS = d.String(s100)
		}
	})
	if want := float64(3 + (1000-17+19)/20); allocs != want {
		t.Errorf("1000 strings of 100 bytes: %v allocations, want %v", allocs, want)
	}
}

var sinkS string

// ConsumeString and ConsumeValidString read a LEN value as ConsumeBytes
// does and copy it as String does; ConsumeValidString fails on invalid
// UTF-8 with the code StringErrorAt makes the field's UTF8Error of.
func TestDecoderConsumeString(t *testing.T) {
	long := append([]byte{0x90, 0x01}, []byte(string(make([]byte, 144)))...) // 144 bytes, two-byte length
	for _, c := range []struct {
		name  string
		in    []byte
		s     string
		n     int
		err   error // of ErrorAt / StringErrorAt, for n < 0
		valid bool  // ConsumeValidString accepts it
	}{
		{"ascii", []byte("\x03abcX"), "abc", 4, nil, true},
		{"empty", []byte("\x00X"), "", 1, nil, true},
		{"multibyte", []byte("\x03\xe2\x82\xac"), "€", 4, nil, true},
		{"invalid utf-8", []byte("\x02\xff\xfe"), "\xff\xfe", 3, nil, false},
		{"two-byte length", long, string(long[2:]), 146, nil, true},
		{"no length", nil, "", -1, wire.ErrTruncated, false},
		{"length past end", []byte("\x05ab"), "", -1, wire.ErrLength, false},
		{"truncated length", []byte("\x80"), "", -1, wire.ErrTruncated, false},
	} {
		var d wire.Decoder
		s, n := d.ConsumeString(c.in)
		if c.err != nil {
			if n >= 0 || s != "" || !errors.Is(wire.ErrorAt(0, n), c.err) {
				t.Errorf("%s: ConsumeString = %q, %d (%v), want %v", c.name, s, n, wire.ErrorAt(0, n), c.err)
			}
			s, n = d.ConsumeValidString(c.in)
			if n >= 0 || s != "" || !errors.Is(wire.StringErrorAt(0, n, "f"), c.err) {
				t.Errorf("%s: ConsumeValidString = %q, %d, want %v", c.name, s, n, c.err)
			}
			continue
		}
		if s != c.s || n != c.n {
			t.Errorf("%s: ConsumeString = %q, %d, want %q, %d", c.name, s, n, c.s, c.n)
		}
		s, n = d.ConsumeValidString(c.in)
		if c.valid {
			if s != c.s || n != c.n {
				t.Errorf("%s: ConsumeValidString = %q, %d, want %q, %d", c.name, s, n, c.s, c.n)
			}
			continue
		}
		err := wire.StringErrorAt(5, n, "pkg.M.f")
		want := wire.UTF8Error(5, "pkg.M.f").Error()
		if n >= 0 || s != "" || !errors.Is(err, wire.ErrUTF8) || err.Error() != want {
			t.Errorf("%s: ConsumeValidString = %q, %d (%v), want %s", c.name, s, n, err, want)
		}
	}
}

// Decoder.ConsumeBytes reads a LEN value as ConsumeBytes does and returns
// a copy carved out of the text blocks whose capacity is its length: the
// copies never alias the input, a write to one leaves the strings and
// bytes around it alone, an append to one copies, and many short values
// share a block's allocation.
func TestDecoderConsumeBytes(t *testing.T) {
	for _, c := range []struct {
		name string
		in   []byte
		v    []byte
		n    int
		err  error
	}{
		{"some", []byte("\x03abcX"), []byte("abc"), 4, nil},
		{"empty", []byte("\x00X"), []byte{}, 1, nil},
		{"long", append([]byte{0x90, 0x20}, make([]byte, 0x1010)...), make([]byte, 0x1010), 0x1012, nil},
		{"no length", nil, nil, -1, wire.ErrTruncated},
		{"length past end", []byte("\x05ab"), nil, -1, wire.ErrLength},
	} {
		var d wire.Decoder
		v, n := d.ConsumeBytes(c.in)
		if c.err != nil {
			if n >= 0 || v != nil || !errors.Is(wire.ErrorAt(0, n), c.err) {
				t.Errorf("%s: ConsumeBytes = %q, %d, want %v", c.name, v, n, c.err)
			}
			continue
		}
		if !bytes.Equal(v, c.v) || v == nil || n != c.n || cap(v) != len(v) {
			t.Errorf("%s: ConsumeBytes = %q (cap %d), %d, want %q, %d", c.name, v, cap(v), n, c.v, c.n)
		}
	}

	var d wire.Decoder
	in := []byte("\x03abc")
	var vs [][]byte
	var ss []string
	for k := range 300 {
		in[1] = byte('a' + k%26)
		v, _ := d.ConsumeBytes(in)
		s, _ := d.ConsumeString(in)
		vs = append(vs, v)
		ss = append(ss, s)
	}
	in[1], in[2] = 'X', 'Y' // the caller reuses its buffer
	for k, v := range vs {
		v[0] = '!'             // a write touches v alone
		vs[k] = append(v, '+') // and an append copies
	}
	for k := range vs {
		c := string(rune('a' + k%26))
		if string(vs[k]) != "!bc+" || ss[k] != c+"bc" {
			t.Fatalf("value %d: bytes %q, string %q; want \"!bc+\", %q", k, vs[k], ss[k], c+"bc")
		}
	}
	allocs := testing.AllocsPerRun(20, func() {
		var d wire.Decoder
		for range 200 { // 600 bytes: blocks of 256 and 512
			sinkB, _ = d.ConsumeBytes(in)
		}
	})
	if allocs != 2 {
		t.Errorf("200 short bytes values: %v allocations, want 2 (2 blocks)", allocs)
	}
}

var sinkB []byte

// Decoder.AddUnknown keeps a message's first unknown field in a header
// from the Decoder's slabs and bytes carved out of its text blocks (no
// allocation of its own), appends later ones, and copies raw.
func TestDecoderAddUnknown(t *testing.T) {
	raw := []byte{0x08, 0x01}
	const msgs = 100
	us := make([]*[]byte, msgs)
	allocs := testing.AllocsPerRun(10, func() {
		var d wire.Decoder
		for k := range us {
			us[k] = nil
			d.AddUnknown(&us[k], raw)
		}
	})
	// Headers: slabs of 8, 16, 32, 64; bytes: one text block of 256.
	if allocs != 5 {
		t.Errorf("one unknown field in each of %d messages: %v allocations, want 5", msgs, allocs)
	}
	var d wire.Decoder
	var u, v *[]byte
	d.AddUnknown(&u, raw)
	d.AddUnknown(&v, []byte{0x10, 0x02})
	d.AddUnknown(&u, []byte{0x18, 0x03})
	raw[1] = 0x7f // the caller reuses its buffer
	if u == nil || v == nil || !bytes.Equal(*u, []byte{0x08, 0x01, 0x18, 0x03}) || !bytes.Equal(*v, []byte{0x10, 0x02}) {
		t.Errorf("unknown fields: %x and %x, want 08011803 and 1002", *u, *v)
	}
}

// CountRun counts the complete fields with the first field's tag bytes and
// the given wire type at the front of its input, and stops at anything
// else; it allocates nothing, however long the run.
func TestCountRun(t *testing.T) {
	for _, c := range []struct {
		in   string
		typ  wire.Type
		want int
	}{
		{"", wire.BytesType, 0},
		{"0a", wire.BytesType, 0},
		{"ffff", wire.BytesType, 0},
		{"0a0161 0a0162 1001 0a0163", wire.BytesType, 2},
		{"0a0161 0a05616263", wire.BytesType, 1},                            // length past the end
		{"0a0161 0affffffffffffffffff01", wire.BytesType, 1},                // length 2^64-1
		{"0a00 0a00 0a00", wire.BytesType, 3},                               // empty values
		{"0801 08ff01 08", wire.VarintType, 2},                              // the last has no value
		{"0801 08ffffffffffffffffffff01", wire.VarintType, 1},               // an 11-byte varint
		{"0801 880001", wire.VarintType, 1},                                 // same field, other tag bytes
		{"880001 880002 0803", wire.VarintType, 2},                          // an overlong tag counts as itself
		{"1501000000 1502000000 150300", wire.Fixed32Type, 2},               //
		{"190100000000000000 1902", wire.Fixed64Type, 1},                    //
		{"c00c01 c00c02 c00d01", wire.VarintType, 2},                        // two-byte tags
		{"0b 0c", wire.StartGroupType, 0},                                   // groups are not counted
		{"0801 0801", wire.Type(6), 0},                                      // no such wire type
		{"ffffffffffffffffffff01 00", wire.VarintType, 0},                   // an 11-byte tag
		{"8080808080808080808001 01", wire.VarintType, 0},                   // likewise
		{"808080808080808080 01 808080808080808080 01", wire.VarintType, 1}, // a 10-byte tag, a 10-byte value
	} {
		if got := wire.CountRun(unhexT(t, c.in), c.typ); got != c.want {
			t.Errorf("CountRun(%s, %v) = %d, want %d", c.in, c.typ, got, c.want)
		}
	}
	big := bytes.Repeat([]byte{0x0a, 0x00}, 1<<19)
	if allocs := testing.AllocsPerRun(5, func() {
		if n := wire.CountRun(big, wire.BytesType); n != 1<<19 {
			t.Fatalf("CountRun of 2^19 empty values = %d", n)
		}
	}); allocs != 0 {
		t.Errorf("CountRun: %v allocations", allocs)
	}
}

func unhexT(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
