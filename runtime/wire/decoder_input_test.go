package wire

import (
	"testing"
	"unsafe"
)

type inputMsg struct {
	s string
	p *inputMsg
	n [20]int64
}

// A repeated message of the top-level input, decoded through NewIn and
// AppendIn after SetInput, takes a few slabs and arrays whatever its
// length, each within the bounds SetInput gives; without SetInput NewIn
// is New.
func TestNewInSizedFromInput(t *testing.T) {
	const elems, elemLen = 1000, 50
	in := make([]byte, 10+elems*elemLen)
	var d Decoder
	d.SetInput(in)
	var list []*inputMsg
	arrays := 0
	seen := map[uintptr]bool{}
	slabs := 0
	for k := 0; k < elems; k++ {
		i := 10 + k*elemLen
		rest := len(in) - i
		e := NewIn[inputMsg](&d, in[i:], 0)
		if _, ok := d.msgs[0].(*inputMsg); ok {
			if s := d.arrays[0]; s.used == 1 {
				slabs++
				bytes := s.n * int(unsafe.Sizeof(inputMsg{}))
				if s.n > rest/2+1 || bytes > max(MaxMessageSlabBytes, MaxSlabPerInputByte*rest) {
					t.Fatalf("element %d: slab of %d messages (%d bytes) with %d input bytes left", k, s.n, bytes, rest)
				}
			}
		}
		if *e != (inputMsg{}) {
			t.Fatalf("element %d is not zero", k)
		}
		e.n[0] = int64(k)
		old := cap(list)
		list = AppendIn(&d, list, e, in, i, i+elemLen)
		if cap(list) != old {
			arrays++
			if extra := cap(list) - len(list); extra > max(len(list), (rest-elemLen)/2+1) {
				t.Fatalf("element %d: %d spare elements with %d input bytes left", k, extra, rest-elemLen)
			}
		}
		seen[uintptr(unsafe.Pointer(e))] = true
	}
	if len(seen) != elems {
		t.Fatalf("%d distinct messages, want %d", len(seen), elems)
	}
	for k, e := range list {
		if e.n[0] != int64(k) {
			t.Fatalf("list[%d] holds element %d", k, e.n[0])
		}
	}
	// The first array is sized by the first element's size: elements of
	// one size fill it.
	if slabs > 4 || arrays > 1 {
		t.Errorf("%d slabs and %d arrays for %d elements, want at most 4 and 1", slabs, arrays, elems)
	}

	// Without SetInput: the slabs of New (2, 4, ... up to the cap).
	var plain Decoder
	NewIn[inputMsg](&plain, in[10:], 0)
	NewIn[inputMsg](&plain, in[60:], 0)
	if s := plain.arrays[0]; s.n != 2 {
		t.Errorf("without SetInput the first slab holds %d messages, want 2", s.n)
	}
}

// A hostile input cannot make NewIn allocate more than the bounds of
// SetInput: tiny messages at the start, then a long field of other bytes.
func TestNewInHostileInput(t *testing.T) {
	in := make([]byte, 1<<20)
	var d Decoder
	d.SetInput(in)
	for k := 0; k < 8; k++ {
		NewIn[inputMsg](&d, in[2*k:], 0)
	}
	s := d.arrays[0]
	total := (s.before + s.n) * int(unsafe.Sizeof(inputMsg{}))
	if total > MaxSlabPerInputByte*len(in)+MaxMessageSlabBytes {
		t.Errorf("slabs of %d bytes for a %d-byte input", total, len(in))
	}
}

// Text blocks sized from the input stay within the input's size, and the
// strings are copies.
func TestStringSizedFromInput(t *testing.T) {
	in := make([]byte, 100000)
	for i := range in {
		in[i] = byte('a' + i%26)
	}
	var d Decoder
	d.SetInput(in)
	blocks, total := 0, 0
	var last *byte
	for i := 0; i+60 <= len(in); i += 100 {
		s := d.String(in[i : i+60])
		if s != string(in[i:i+60]) {
			t.Fatalf("string at %d: %q", i, s)
		}
		if unsafe.StringData(s) == &in[i] {
			t.Fatalf("string at %d aliases the input", i)
		}
		if p := unsafe.SliceData(d.text); p != last {
			last = p
			blocks++
			total += len(d.text)
			if len(d.text) > max(len(in)-i, MaxTextBlock) {
				t.Fatalf("text block of %d bytes with %d input bytes left", len(d.text), len(in)-i)
			}
		}
	}
	if blocks > 5 {
		t.Errorf("%d text blocks, want at most 5", blocks)
	}
	if total > len(in) {
		t.Errorf("text blocks of %d bytes for %d bytes of input", total, len(in))
	}
}

// MakeSlice carves scalar slices from the arena with exactly their
// capacity: an append past it copies, and writes touch only the slice's
// own values.
func TestMakeSlice(t *testing.T) {
	var d Decoder
	a := MakeSlice[int32](&d, 3)
	b := MakeSlice[int64](&d, 2)
	c := MakeSlice[bool](&d, 5)
	if len(a) != 0 || cap(a) != 3 || cap(b) != 2 || cap(c) != 5 {
		t.Fatalf("caps %d %d %d", cap(a), cap(b), cap(c))
	}
	a = append(a, 1, 2, 3)
	b = append(b, -1, -2)
	c = append(c, true, true, true, true, true)
	if uintptr(unsafe.Pointer(&b[0]))%8 != 0 {
		t.Errorf("int64 slice not aligned")
	}
	a2 := append(a, 4) // past the capacity: a copy
	a2[0] = 9
	if a[0] != 1 || b[0] != -1 || b[1] != -2 || !c[4] {
		t.Errorf("values changed: %v %v %v", a, b, c)
	}
	big := MakeSlice[int64](&d, 1000)
	if cap(big) != 1000 || len(big) != 0 {
		t.Errorf("large slice: len %d cap %d", len(big), cap(big))
	}
	if s := MakeSlice[int32](&d, 0); cap(s) != 0 {
		t.Errorf("empty slice: cap %d", cap(s))
	}
	// A slice larger than the first blocks but within half of the
	// largest.
	var e Decoder
	mid := MakeSlice[int64](&e, MaxScalarBlock/2/8)
	mid = append(mid, make([]int64, MaxScalarBlock/2/8)...)
	if cap(mid) != MaxScalarBlock/2/8 {
		t.Errorf("mid slice: cap %d", cap(mid))
	}
}

type otherMsg struct {
	s string
	n int32
}

// NewIn finds a type's slab at its slot, or anywhere when another type
// holds that slot; New and NewIn use one Decoder's slots side by side (an
// open message may hold an opaque one, and the other way round): every
// message handed out is distinct and zero, and each type has one slab of
// each.
func TestNewInSlots(t *testing.T) {
	in := make([]byte, 4096)
	var d Decoder
	d.SetInput(in)
	seen := map[unsafe.Pointer]bool{}
	check := func(p unsafe.Pointer, zero bool) {
		t.Helper()
		if seen[p] || !zero {
			t.Fatalf("message %p handed out twice or not zero", p)
		}
		seen[p] = true
	}
	for k := 0; k < 50; k++ {
		i := 100 + 8*k
		a := NewIn[inputMsg](&d, in[i:], 5)
		check(unsafe.Pointer(a), *a == inputMsg{})
		a.n[0] = 1
		b := New[otherMsg](&d)
		check(unsafe.Pointer(b), *b == otherMsg{})
		b.n = 1
		c := NewIn[otherMsg](&d, in[i+4:], 13) // slot 13 & 7 = 5: inputMsg's
		check(unsafe.Pointer(c), *c == otherMsg{})
		c.n = 1
		e := New[inputMsg](&d)
		check(unsafe.Pointer(e), *e == inputMsg{})
		e.n[0] = 1
	}
	count := map[string]int{}
	for i, x := range d.msgs {
		switch x.(type) {
		case *slab[inputMsg]:
			count["New inputMsg"]++
		case *slab[otherMsg]:
			count["New otherMsg"]++
		case *inputMsg:
			count["NewIn inputMsg"]++
		case *otherMsg:
			count["NewIn otherMsg"]++
		case nil:
			continue
		}
		if i >= d.nmsgs {
			t.Errorf("slab at %d, past nmsgs %d", i, d.nmsgs)
		}
	}
	if len(count) != 4 || count["New inputMsg"] != 1 || count["New otherMsg"] != 1 || count["NewIn inputMsg"] != 1 || count["NewIn otherMsg"] != 1 {
		t.Errorf("slabs per type: %v, want one each", count)
	}
	if _, ok := d.msgs[5].(*inputMsg); !ok {
		t.Errorf("inputMsg's slab is not at its slot 5")
	}
}
