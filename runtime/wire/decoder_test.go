package wire_test

import (
	"errors"
	"testing"

	"github.com/protoplay/protoplay/runtime/wire"
)

// Pointers from a slab hold their own values: writing through one leaves
// the rest alone, across slab boundaries too.
func TestDecoderScalarSlabs(t *testing.T) {
	var d wire.Decoder
	const n = 3*wire.MaxSlab + 5
	ps := make([]*int64, n)
	for i := range ps {
		ps[i] = d.Int64(int64(i))
	}
	*ps[0] = -1
	*ps[wire.MaxSlab] = -2
	for i, p := range ps {
		want := int64(i)
		switch i {
		case 0:
			want = -1
		case wire.MaxSlab:
			want = -2
		}
		if *p != want {
			t.Fatalf("ps[%d] = %d, want %d", i, *p, want)
		}
	}
	s1, s2 := d.StringPtr("a"), d.StringPtr("b")
	b1, f1, f2 := d.Bool(true), d.Float32(1.5), d.Float64(2.5)
	u1, u2, i1 := d.Uint32(7), d.Uint64(8), d.Int32(-9)
	if *s1 != "a" || *s2 != "b" || !*b1 || *f1 != 1.5 || *f2 != 2.5 || *u1 != 7 || *u2 != 8 || *i1 != -9 {
		t.Fatal("values")
	}
}

// Slabs grow 2, 4, ... MaxSlab: n values take about n/MaxSlab allocations,
// not n.
func TestDecoderScalarSlabAllocs(t *testing.T) {
	const n = 1000
	allocs := testing.AllocsPerRun(20, func() {
		var d wire.Decoder
		for i := range n {
			d.Int32(int32(i))
		}
	})
	// 2+4+8+16+32 = 62 values in the first five slabs, then 64 per slab.
	if want := float64(5 + (n-62+wire.MaxSlab-1)/wire.MaxSlab); allocs != want {
		t.Errorf("%d values: %v allocations, want %v", n, allocs, want)
	}
}

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
	if allocs > 1000/wire.MaxMessageSlab+8 {
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
	in := make([]byte, 3*wire.MaxSharedString)
	var got, want []string
	// Lengths 1..MaxSharedString+40 cross many block boundaries and the
	// shared/alone limit.
	for n := 1; n <= wire.MaxSharedString+40; n++ {
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
	long := make([]byte, wire.MaxTextSlab)
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
