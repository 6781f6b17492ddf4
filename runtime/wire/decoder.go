package wire

import (
	"unicode/utf8"
	"unsafe"
)

// A Decoder carries the allocation state of one top-level Unmarshal down
// through the nested messages it decodes, so that many small values share a
// few allocations instead of taking one each:
//
//   - the pointers that proto2 optional scalars (and editions fields with
//     explicit presence) are stored as point into one scalar arena shared
//     by every scalar type: blocks of 64, 128, 256 and then
//     [MaxScalarBlock] bytes, each value at an address aligned for its type
//     (a bool takes 1 byte, an int32 or float32 4, a 64-bit value 8);
//     *string values come from slabs of 8, 16, 32 and then [MaxStringSlab]
//     string headers;
//   - messages (singular and repeated fields, oneof members, map values)
//     come from slabs of 2, 4, ... messages of their type, at most
//     [MaxMessageSlabBytes] bytes (at least one message), except the
//     Decoder's first message, allocated alone (see [New]);
//   - the bytes of strings are copied into text blocks of 256, 512, 1024
//     and then [MaxTextBlock] bytes (see [Decoder.String]), and so are
//     those of bytes fields of the opaque API (see [Decoder.ConsumeBytes]);
//     a string longer than half the block it would start, and the bytes
//     fields of the open API, are copied one allocation each.
//
// Each kind's blocks double in size within one Decoder, up to its cap, and
// a new one is allocated only when the one before it is full, so a decode
// of n values takes O(log n) allocations of each kind up to the cap and
// one more per cap's worth after it, and the blocks hold at most about
// twice the values handed out. A value kept alive keeps its block alive:
// one block, never larger than its kind's cap, nor than the blocks of its
// kind before it together plus the first block (so at most about twice
// what its own top-level Unmarshal had decoded of that kind before it);
// the rest of that call's values, and other calls', are freed on their
// own, and nothing is shared between two Decoders. The caps are small on
// purpose: larger blocks took fewer allocations (GoogleMessage2: 87
// instead of 217 with 64 KiB caps) but about 5% more instructions with
// the default GOGC, as the waste of the last, half-empty blocks made the
// collector run more often; and Go's collector marks a pointer into an
// object of at most 512 bytes (MaxScalarBlock) more cheaply than one into
// a larger object.
//
// Once the top-level input is given to [Decoder.SetInput] (generated code
// of the opaque API does), text blocks and the slabs of [NewIn] are sized
// from it instead, which takes a few blocks of each kind per decode
// whatever its size, within the bounds SetInput gives.
//
// No value aliases the input: every string and bytes value is a copy, so
// the caller may reuse or overwrite the input as soon as Unmarshal
// returns. Blocks grow only as values are decoded, each of which took
// input bytes (lengths are checked against the input before anything is
// allocated), so a hostile input cannot make a Decoder allocate more than
// a small multiple of the values it holds.
//
// The zero Decoder is ready to use, and starts again from the smallest
// blocks. Generated UnmarshalDepth declares one per call and passes its
// address to UnmarshalWith; a Decoder must not be copied after first use,
// nor used by two goroutines at once. To reuse one for another top-level
// call, set it to the zero Decoder (which drops its blocks, still referenced
// by the values it handed out).
type Decoder struct {
	// scalarsBase is the current scalar arena block (nil before the
	// first), a []uint64 of scalarsLen bytes, scalarsUsed of them handed
	// out. As in slab, an index, not a moving pointer: handing out a value
	// writes no pointer into the Decoder.
	scalarsBase unsafe.Pointer
	scalarsLen  uintptr
	scalarsUsed uintptr
	strings     slab[string]
	// unknowns holds the slice headers of [Decoder.AddUnknown].
	unknowns slab[[]byte]
	// text is the current text block (nil before the first), textUsed
	// its bytes handed out.
	text     []byte
	textUsed int
	// msgs holds, per message type handed out after the first message,
	// a *slab[T] for [New] or a nil *T for [NewIn] (whose slab is
	// arrays[k]), every one at an index below nmsgs: New fills the slots
	// in order, NewIn takes a type's own slot (see NewIn), which may
	// leave holes below nmsgs.
	msgs    [maxMsgTypes]any
	nmsgs   int
	msgSeen bool
	// arrays holds the slabs of NewIn: arrays[k] is that of the type
	// whose nil *T msgs[k] holds.
	arrays [maxMsgTypes]array
	// in is the top-level input given to [Decoder.SetInput] (nil: none),
	// against which blocks are sized (see [Decoder.SetInput]); textTotal
	// counts the string bytes handed out from the text blocks before
	// the current one.
	in        []byte
	textTotal int
}

// SetInput tells d the top-level input b it is about to decode, so that
// text blocks and the message slabs of [NewIn] are sized from it instead
// of doubling from their smallest size: when a block is full, the next
// one holds what was handed out of its kind so far, scaled by the input
// bytes not yet decoded over those decoded (an extrapolation, plus an
// eighth), and at least what doubling would give. So a decode takes a
// handful of blocks of each kind whatever its size, where doubling up to
// the caps took one more per cap's worth. The bounds: a text block is at
// most the input bytes not yet decoded (a string takes its bytes from the
// input); a slab holds at most one message per two input bytes not yet
// decoded (a message field, group or map entry takes at least two) and
// at most [MaxSlabPerInputByte] bytes per input byte not yet decoded (or
// [MaxMessageSlabBytes]). Nothing aliases b: strings are copied as
// before. Generated code of the opaque API calls SetInput in
// UnmarshalDepth; b is only read while the decode runs (d keeps a
// reference to it until d is reset).
func (d *Decoder) SetInput(b []byte) {
	d.in = b
}

// MaxSlabPerInputByte bounds a message slab sized from the input (see
// [Decoder.SetInput]): at most this many bytes per input byte not yet
// decoded.
const MaxSlabPerInputByte = 4

// progress returns how many bytes of the top-level input (see
// [Decoder.SetInput]) come before b, which starts inside it, and how many
// from b's start on; done is 0 when there is no input or b does not start
// inside it.
func (d *Decoder) progress(b []byte) (done, rest int) {
	if len(d.in) == 0 || len(b) == 0 {
		return 0, 0
	}
	off := uintptr(unsafe.Pointer(unsafe.SliceData(b))) - uintptr(unsafe.Pointer(unsafe.SliceData(d.in)))
	if off >= uintptr(len(d.in)) {
		return 0, 0
	}
	return int(off), len(d.in) - int(off)
}

// extrapolate is the size of the next block of a kind of which used
// units were handed out over the first done input bytes, with rest bytes
// to go: used*rest/done plus an eighth (0 when done is 0).
func extrapolate(used, done, rest int) int {
	if done <= 0 {
		return 0
	}
	e := int(uint64(used) * uint64(rest) / uint64(done))
	return e + e/8 + 1
}

const (
	// MaxScalarBlock is the largest block of the scalar arena, in bytes
	// (64 int32 values, or 64 int64 values).
	MaxScalarBlock = 512
	// MaxStringSlab is the most string headers (16 bytes each) in one
	// slab of [Decoder.StringPtr] (1 KiB).
	MaxStringSlab = 64
	// MaxMessageSlabBytes is the largest slab of messages of [New], in
	// bytes; a message larger than that gets a slab of its own.
	MaxMessageSlabBytes = 4096
	// MaxTextBlock is the largest text block of [Decoder.String], in
	// bytes; a string longer than half the block it would start is copied
	// on its own.
	MaxTextBlock = 2048
	// maxMsgTypes bounds the message types a Decoder keeps slabs for, and
	// so the linear search in New; further types are allocated one by one.
	maxMsgTypes = 8
	// firstScalarBlock is the size of the first scalar arena block, in
	// bytes (16 int32 values).
	firstScalarBlock = 64
	// firstTextBlock is the size of the first text block, in bytes.
	firstTextBlock = 256
)

// slab hands out pointers to values of type T from shared backing arrays of
// first, 2*first, ... values, at most maxN values each (maxN >= 1). It counts the values handed out rather than re-slicing, so that
// handing one out writes no pointer (a slab of [New] lives on the heap, where a pointer
// write costs a write barrier while the garbage collector marks).
type slab[T any] struct {
	buf  []T // the current array (nil before the first)
	used int // values of buf handed out
}

func (s *slab[T]) next(first, maxN int) *T {
	if s.used == len(s.buf) {
		// A new array twice the size of the full one (first values for
		// the first), at most maxN values. Written out here, not in a
		// function of its own: a call would keep next from inlining.
		n := min(2*len(s.buf), maxN)
		if len(s.buf) == 0 {
			n = min(first, maxN)
		}
		s.buf = make([]T, n)
		s.used = 0
	}
	p := &s.buf[s.used]
	s.used++
	return p
}

// The scalar arena: scalarN returns a pointer to N bytes of the current
// block, aligned to N and zero (a block of []uint64 is allocated zeroed and
// every byte is handed out at most once). The block holds no pointers, so
// the garbage collector scans neither it nor the values in it. The three
// are written out, not one function of the size, so that each inlines
// into the typed method and that into generated code.

func (d *Decoder) scalar1() unsafe.Pointer {
	off := d.scalarsUsed
	if off >= d.scalarsLen {
		off = d.scalarSlow()
	}
	d.scalarsUsed = off + 1
	return unsafe.Add(d.scalarsBase, off)
}

func (d *Decoder) scalar4() unsafe.Pointer {
	off := (d.scalarsUsed + 3) &^ 3
	if off >= d.scalarsLen {
		off = d.scalarSlow()
	}
	d.scalarsUsed = off + 4
	return unsafe.Add(d.scalarsBase, off)
}

func (d *Decoder) scalar8() unsafe.Pointer {
	off := (d.scalarsUsed + 7) &^ 7
	if off >= d.scalarsLen {
		off = d.scalarSlow()
	}
	d.scalarsUsed = off + 8
	return unsafe.Add(d.scalarsBase, off)
}

// scalarSlow is scalarN when the current block has no room: it starts a
// new block twice the size of the old one (firstScalarBlock bytes for the
// first), at most MaxScalarBlock, and returns offset 0; the old block's rest,
// less than 8 bytes, is left unused. (Offsets stay multiples of the value's
// size within a block, whose length is a multiple of 8, so off <
// scalarsLen means the value fits.) It is small enough to inline, which a
// call to a function that is not would prevent for scalarN.
func (d *Decoder) scalarSlow() uintptr {
	n := min(2*d.scalarsLen, MaxScalarBlock)
	if n == 0 {
		n = firstScalarBlock
	}
	b := make([]uint64, n/8)
	d.scalarsBase = unsafe.Pointer(unsafe.SliceData(b))
	d.scalarsLen = n
	return 0
}

// Bool returns a pointer to a copy of v from the Decoder's scalar arena.
func (d *Decoder) Bool(v bool) *bool {
	p := (*bool)(d.scalar1())
	*p = v
	return p
}

// Int32 returns a pointer to a copy of v from the Decoder's scalar arena.
func (d *Decoder) Int32(v int32) *int32 {
	p := (*int32)(d.scalar4())
	*p = v
	return p
}

// Int64 returns a pointer to a copy of v from the Decoder's scalar arena.
func (d *Decoder) Int64(v int64) *int64 {
	p := (*int64)(d.scalar8())
	*p = v
	return p
}

// Uint32 returns a pointer to a copy of v from the Decoder's scalar arena.
func (d *Decoder) Uint32(v uint32) *uint32 {
	p := (*uint32)(d.scalar4())
	*p = v
	return p
}

// Uint64 returns a pointer to a copy of v from the Decoder's scalar arena.
func (d *Decoder) Uint64(v uint64) *uint64 {
	p := (*uint64)(d.scalar8())
	*p = v
	return p
}

// Float32 returns a pointer to a copy of v from the Decoder's scalar arena.
func (d *Decoder) Float32(v float32) *float32 {
	p := (*float32)(d.scalar4())
	*p = v
	return p
}

// Float64 returns a pointer to a copy of v from the Decoder's scalar arena.
func (d *Decoder) Float64(v float64) *float64 {
	p := (*float64)(d.scalar8())
	*p = v
	return p
}

// StringPtr returns a pointer to a copy of v (a string header, not its
// bytes) from the Decoder's string slabs (8, 16, ... up to [MaxStringSlab]
// headers).
func (d *Decoder) StringPtr(v string) *string {
	p := d.strings.next(8, MaxStringSlab)
	*p = v
	return p
}

// String returns a string holding a copy of b (never aliasing b). Copies
// that fit the rest of the current text block, and when they do not,
// copies of at most half the next block's size, are carved out of text
// blocks the Decoder allocates, 256, 512, ... up to [MaxTextBlock] bytes
// each (a longer copy that does not fit gets an allocation of its own), so
// that a message with many short strings pays one allocation per block
// instead of one per string; a block's bytes are written once, when a
// string is carved out, and never again, which is what a string's
// immutability asks. A string kept alive keeps its block alive (see
// [Decoder] for the bound). Generated code decodes string fields,
// elements, map keys and values with [Decoder.ConsumeString] and
// [Decoder.ConsumeValidString], which copy as String does.
func (d *Decoder) String(b []byte) string {
	if len(b) == 0 {
		return "" // no pointer into a block
	}
	// The common case: b fits the rest of the current block.
	t := d.text[d.textUsed:]
	if len(b) > len(t) {
		return d.stringSlow(b)
	}
	d.textUsed += len(b)
	copy(t, b)
	return unsafe.String(unsafe.SliceData(t), len(b))
}

// ConsumeString decodes a LEN value from the front of b, as [ConsumeBytes]
// does, and returns its contents as a string copied as [Decoder.String]
// copies it, with n, the bytes consumed (length prefix and contents); n < 0
// is an error code for [ErrorAt]. It is ConsumeBytes and String in one
// call; generated Unmarshal decodes string fields whose UTF-8 is not
// checked with it (proto2, editions utf8_validation = NONE).
func (d *Decoder) ConsumeString(b []byte) (s string, n int) {
	// ConsumeBytes and String written out: neither inlines here.
	var m uint64
	if len(b) > 0 && b[0] < 0x80 {
		m, n = uint64(b[0]), 1
	} else if m, n = consumeVarintSlow(b); n < 0 {
		return "", n
	}
	// As ConsumeBytes: compare as uint64 before converting.
	if m > uint64(len(b)-n) {
		return "", errCodeLength
	}
	end := n + int(m)
	v := b[n:end]
	if len(v) == 0 {
		return "", end
	}
	t := d.text[d.textUsed:]
	if len(v) > len(t) {
		return d.stringSlow(v), end
	}
	d.textUsed += len(v)
	copy(t, v)
	return unsafe.String(unsafe.SliceData(t), len(v)), end
}

// ConsumeValidString is [Decoder.ConsumeString] for a string that must be
// valid UTF-8 (proto3, editions utf8_validation = VERIFY): contents that
// are not fail with an error code that [StringErrorAt] turns into the
// [UTF8Error] of the field; nothing is copied then.
func (d *Decoder) ConsumeValidString(b []byte) (s string, n int) {
	var m uint64
	if len(b) > 0 && b[0] < 0x80 {
		m, n = uint64(b[0]), 1
	} else if m, n = consumeVarintSlow(b); n < 0 {
		return "", n
	}
	if m > uint64(len(b)-n) {
		return "", errCodeLength
	}
	end := n + int(m)
	v := b[n:end]
	if len(v) == 0 {
		return "", end
	}
	if !isASCII(v) && !utf8.Valid(v) {
		return "", errCodeUTF8
	}
	t := d.text[d.textUsed:]
	if len(v) > len(t) {
		return d.stringSlow(v), end
	}
	d.textUsed += len(v)
	copy(t, v)
	return unsafe.String(unsafe.SliceData(t), len(v)), end
}

// stringSlow is String for a b longer than the rest of the current block
// (see carveSlow): a copy carved out of a new block, or a string of its
// own.
//
//go:noinline
func (d *Decoder) stringSlow(b []byte) string {
	if t := d.carveSlow(b, true); t != nil {
		return unsafe.String(&t[0], len(t))
	}
	return string(b)
}

// carveSlow copies b (not empty, longer than the rest of the current
// block) to the start of a new block twice the size of the old one (256
// bytes for the first), at most MaxTextBlock, or, when sized is set, sized
// from the input (see [Decoder.SetInput]), and returns the copy, of
// capacity len(b); when b would take more than half of that block it
// returns nil and starts none (the caller copies b on its own). The old
// block's rest is left unused when a new block starts; it is shorter than
// b, so at most half the new block is ever wasted this way.
func (d *Decoder) carveSlow(b []byte, sized bool) []byte {
	n := len(b)
	size := min(2*len(d.text), MaxTextBlock)
	if len(d.text) == 0 {
		size = firstTextBlock
	}
	if !sized || len(d.in) <= size {
		// The input left cannot ask for more (a small message's).
	} else if done, rest := d.progress(b); done > 0 {
		// Sized from the input: what the strings so far extrapolate
		// to, at most the input left (which holds b).
		size = max(size, min(extrapolate(d.textTotal+d.textUsed+n, done, rest), rest))
	}
	if n > size/2 {
		return nil
	}
	d.textTotal += d.textUsed
	d.text = make([]byte, size)
	d.textUsed = n
	t := d.text[:n:n]
	copy(t, b)
	return t
}

// ConsumeBytes decodes a LEN value from the front of b, as the function
// [ConsumeBytes] does, and returns a copy of its contents carved out of the
// Decoder's text blocks as [Decoder.String] carves a string (a longer one
// copied on its own; empty contents give a non-nil empty slice), with n,
// the bytes consumed; n < 0 is an error code for [ErrorAt]. The copy's
// capacity is its length, so an append to it copies, and a write to it
// touches its own bytes alone, which no string shares. Generated code of
// the opaque API decodes bytes fields with it.
func (d *Decoder) ConsumeBytes(b []byte) (v []byte, n int) {
	var m uint64
	if len(b) > 0 && b[0] < 0x80 {
		m, n = uint64(b[0]), 1
	} else if m, n = consumeVarintSlow(b); n < 0 {
		return nil, n
	}
	if m > uint64(len(b)-n) {
		return nil, errCodeLength
	}
	end := n + int(m)
	v = b[n:end]
	if len(v) == 0 {
		return []byte{}, end
	}
	return d.copyBytes(v), end
}

// copyBytes returns a copy of v (not empty) carved out of the text
// blocks, of capacity len(v), as ConsumeBytes describes.
func (d *Decoder) copyBytes(v []byte) []byte {
	t := d.text[d.textUsed:]
	if len(v) > len(t) {
		return d.bytesSlow(v)
	}
	d.textUsed += len(v)
	copy(t, v)
	return t[:len(v):len(v)]
}

// AddUnknown is the function [AddUnknown] for a message being decoded
// with d: the first unknown field of a message takes its slice header
// from the Decoder's slabs (of 8, 16, ... up to [MaxStringSlab] headers)
// and its bytes carved out of the text blocks (see [Decoder.ConsumeBytes]),
// so that unknown fields cost a message no allocation of its own; later
// ones are appended (the first append copies the carved bytes, whose
// capacity is their length). raw is copied, never aliased. Generated code
// of the opaque API keeps unknown fields with it.
func (d *Decoder) AddUnknown(u **[]byte, raw []byte) {
	if *u != nil {
		**u = append(**u, raw...)
		return
	}
	p := d.unknowns.next(8, MaxStringSlab)
	if len(raw) > 0 {
		*p = d.copyBytes(raw)
	} else {
		*p = []byte{}
	}
	*u = p
}

// bytesSlow is ConsumeBytes's copy of v when it does not fit the rest of
// the current block. A block it starts is not sized from the input: a
// bytes field tells little of the strings to come (a long one at the
// start of a message would extrapolate to a block as large as the input).
//
//go:noinline
func (d *Decoder) bytesSlow(v []byte) []byte {
	if t := d.carveSlow(v, false); t != nil {
		return t
	}
	t := make([]byte, len(v)) // not append: its capacity may round up
	copy(t, v)
	return t
}

// New returns a pointer to a new zero message of type T. The Decoder's
// first message is allocated on its own, as with new(T), so that a message
// with one nested message pays nothing more; later ones come from slabs the
// Decoder keeps per type, of 2, 4, ... messages, at most
// [MaxMessageSlabBytes] bytes (for at most 8 types; further types are allocated one by one). A
// message kept alive keeps its slab alive (see [Decoder] for the bound).
// Generated code takes singular and repeated message fields, oneof
// members and map values from New.
func New[T any](d *Decoder) *T {
	if !d.msgSeen {
		d.msgSeen = true
		return new(T)
	}
	return newShared[T](d)
}

func newShared[T any](d *Decoder) *T {
	for i := 0; i < d.nmsgs; i++ {
		if s, ok := d.msgs[i].(*slab[T]); ok {
			return s.next(2, messageSlabMax[T]())
		}
	}
	if d.nmsgs == len(d.msgs) {
		return new(T)
	}
	s := new(slab[T])
	d.msgs[d.nmsgs] = s
	d.nmsgs++
	return s.next(2, messageSlabMax[T]())
}

// NewIn is [New] for a message whose encoding starts at b[0], where b
// is the rest of the input being decoded: once [Decoder.SetInput] has
// been called, a full slab is followed by one sized from the input (see
// SetInput), not by one twice its size up to [MaxMessageSlabBytes]; so a
// repeated field of a thousand messages takes three or four slabs instead
// of the many a 4 KiB cap asks. Without SetInput, or when b does not lie
// in that input, it is New; with it, the Decoder's first message is
// allocated alone only when the input does not promise more of its type
// (a repeated field's first element starts a slab at once). slot is where
// the Decoder looks first for the slab of T (taken modulo the 8 slots it
// has): generated code passes a hash of T's full name, so that the few
// types of one decode seldom share a slot and find their slabs without a
// search (types that share one still work, found by a search). Generated
// code of the opaque API takes its messages from NewIn.
func NewIn[T any](d *Decoder, b []byte, slot int) *T {
	k := slot & (maxMsgTypes - 1)
	if _, ok := d.msgs[k].(*T); ok {
		if h := &d.arrays[k]; h.used < h.n {
			var zero T
			p := (*T)(unsafe.Add(h.base, uintptr(h.used)*unsafe.Sizeof(zero)))
			h.used++
			return p
		}
	}
	return newIn[T](d, b, slot)
}

// newIn is NewIn when T's slab is not at its slot or is full: it finds
// or starts the slab (T's slot when free, else the first free one; the
// Decoder's first message is allocated alone when the input does not
// promise more of its type, and a type past the 8 slots one by one) and
// starts its next array when it is full.
func newIn[T any](d *Decoder, b []byte, slot int) *T {
	k := slot & (maxMsgTypes - 1)
	if _, ok := d.msgs[k].(*T); !ok {
		k = -1
		for i := 0; i < d.nmsgs; i++ {
			if _, ok := d.msgs[i].(*T); ok {
				k = i
				break
			}
		}
	}
	if k < 0 {
		if !d.msgSeen {
			d.msgSeen = true
			// One message of its type so far over the input decoded:
			// a singular field's, unless the input left extrapolates
			// to more (a repeated field's first element).
			if done, rest := d.progress(b); extrapolate(1, done, rest) <= 2 {
				return new(T)
			}
		}
		k = slot & (maxMsgTypes - 1)
		if d.msgs[k] != nil {
			k = -1
			for i := range d.msgs {
				if d.msgs[i] == nil {
					k = i
					break
				}
			}
			if k < 0 {
				return new(T)
			}
		}
		// A nil *T marks the slot as T's: an interface holding a
		// pointer takes no allocation, and the slab's state lives in
		// the Decoder (arrays[k]).
		d.msgs[k] = (*T)(nil)
		d.nmsgs = max(d.nmsgs, k+1)
	}
	h := &d.arrays[k]
	if h.used == h.n {
		growIn[T](d, h, b)
	}
	var zero T
	p := (*T)(unsafe.Add(h.base, uintptr(h.used)*unsafe.Sizeof(zero)))
	h.used++
	return p
}

// An array is the state of one message slab of [NewIn], kept in the
// Decoder: the current array of n messages of the slot's type (base,
// nil before the first; an unsafe.Pointer, which keeps the array alive
// as any pointer does), used of them handed out, and before, the
// messages of the arrays before it.
type array struct {
	base    unsafe.Pointer
	used, n int
	before  int
}

// growIn starts h's next array for [NewIn]: the doubling of [New], or,
// when larger, the extrapolation of [Decoder.SetInput] within its bounds.
//
//go:noinline
func growIn[T any](d *Decoder, h *array, b []byte) {
	n := min(2*h.n, messageSlabMax[T]())
	if h.n == 0 {
		n = min(2, messageSlabMax[T]())
	}
	if done, rest := d.progress(b); done > 0 {
		// The count so far includes the message asked for now, which
		// starts at b (so the first slab is sized from the input too).
		var zero T
		size := max(int(unsafe.Sizeof(zero)), 1)
		bound := min(rest/2+1, max(MaxMessageSlabBytes, MaxSlabPerInputByte*rest)/size)
		n = max(n, min(extrapolate(h.before+h.used+1, done, rest), bound))
	}
	h.before += h.n
	h.base = unsafe.Pointer(unsafe.SliceData(make([]T, n)))
	h.n = n
	h.used = 0
}

// messageSlabMax is the most messages of type T in one slab: as many as
// fit MaxMessageSlabBytes, at least one.
func messageSlabMax[T any]() int {
	var zero T
	return max(MaxMessageSlabBytes/max(int(unsafe.Sizeof(zero)), 1), 1)
}

// AppendIn appends e to s, a repeated message field of the message
// encoded in b, of which i bytes were decoded, e's encoding (tag
// included) taking b[start:i]: when s is full and that message is the
// top-level one given to [Decoder.SetInput], its new array is sized from
// the input, at most one element per two bytes left: the first one by
// e's own size (as many more elements as would fit the bytes left),
// later ones by the extrapolation of SetInput (len(s)+1
// elements over i bytes); otherwise, or when that is smaller, the array
// doubles as append's would. So a repeated group of the top-level
// message, whose elements cannot be counted ahead as a run of LEN values
// can (see [CountRun]), grows in a step or two. (A nested message's list
// doubles: its b runs to the end of the input for a group, so the bytes
// left would not bound its own elements.) Generated code of the opaque
// API appends repeated groups with it when s is full, and in place
// (`s = append(s, e)` on the field itself) otherwise, which writes back
// the length alone: storing the slice AppendIn returns writes its
// pointer too, and every pointer write takes a write barrier while the
// collector marks.
func AppendIn[T any](d *Decoder, s []*T, e *T, b []byte, start, i int) []*T {
	if len(s) < cap(s) {
		return append(s, e)
	}
	return appendGrow(d, s, e, b, start, i)
}

//go:noinline
func appendGrow[T any](d *Decoder, s []*T, e *T, b []byte, start, i int) []*T {
	n := max(len(s), 1)
	if len(b) == len(d.in) && len(b) > 0 && unsafe.SliceData(b) == unsafe.SliceData(d.in) {
		rest := len(b) - i
		if len(s) == 0 && i > start {
			// Elements the size of e over the bytes left.
			n = max(n, min(rest/(i-start)+1, rest/2))
		} else {
			n = max(n, min(extrapolate(len(s)+1, i, rest), rest/2))
		}
	}
	t := make([]*T, len(s)+1, len(s)+1+n)
	copy(t, s)
	t[len(s)] = e
	return t
}

// MakeSlice returns a slice of length 0 and capacity n of a scalar type T
// (an integer, float, bool or enum type: one that holds no pointers),
// whose array, when n values take at most half of [MaxScalarBlock], is
// carved out of the Decoder's scalar arena (see [Decoder]) instead of
// allocated on its own; a larger one is made as make([]T, 0, n) makes it.
// The capacity is exactly n, so an append past it copies the values to an
// array of their own, and writes through the slice touch only its own n
// values: the arena's other values are never shared. Generated code of
// the opaque API makes repeated scalar fields with it.
func MakeSlice[T any](d *Decoder, n int) []T {
	var zero T
	size, align := unsafe.Sizeof(zero), unsafe.Alignof(zero)
	if n <= 0 || size == 0 || uintptr(n) > MaxScalarBlock/2/size {
		return make([]T, 0, n)
	}
	bytes := uintptr(n) * size
	off := (d.scalarsUsed + align - 1) &^ (align - 1)
	if off+bytes > d.scalarsLen {
		off = d.scalarSlow() // at least firstScalarBlock bytes, or twice the last
		if bytes > d.scalarsLen {
			// A block of its own size (at most MaxScalarBlock/2): the
			// first blocks are smaller than that.
			b := make([]uint64, (bytes+7)/8)
			return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)[:0]
		}
	}
	d.scalarsUsed = off + bytes
	return unsafe.Slice((*T)(unsafe.Add(d.scalarsBase, off)), n)[:0]
}
