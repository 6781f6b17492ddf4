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
//     explicit presence) are stored as point into shared slabs of 2, 4, ...
//     up to [MaxSlab] values of their type;
//   - messages (singular and repeated fields, oneof members, map values)
//     come from shared slabs of 2, 4, ... up to [MaxMessageSlab] messages of
//     their type, except the Decoder's first message, allocated alone (see
//     [New]);
//   - the bytes of strings of at most [MaxSharedString] bytes are copied
//     into shared text blocks of 256, 512, ... up to [MaxTextSlab] bytes
//     (see [Decoder.String]); longer strings, and bytes fields, are copied
//     one allocation each.
//
// A value kept alive keeps its slab alive: at most MaxSlab scalars,
// MaxTextSlab bytes of text, or MaxMessageSlab messages and what they point
// to, where the same values one by one would each be kept or freed on their
// own. Nothing is shared between two Decoders, and no value aliases the
// input: every string and bytes value is a copy, so the caller may reuse or
// overwrite the input as soon as Unmarshal returns.
//
// The zero Decoder is ready to use. Generated UnmarshalDepth declares one and
// passes its address to UnmarshalWith; a Decoder must not be copied after
// first use, nor used by two goroutines at once.
type Decoder struct {
	bools    slab[bool]
	int32s   slab[int32]
	int64s   slab[int64]
	uint32s  slab[uint32]
	uint64s  slab[uint64]
	float32s slab[float32]
	float64s slab[float64]
	strings  slab[string]
	// text is the current text block (nil before the first), textUsed
	// its bytes handed out. As in slab, an index, not a re-slice: handing
	// out a string writes no pointer into the Decoder.
	text     []byte
	textUsed int
	// msgs holds a *slab[T] per message type handed out by [New] after
	// the first message.
	msgs    [maxMsgTypes]any
	nmsgs   int
	msgSeen bool
}

const (
	// MaxSlab is the most values in one pointer slab; slabs start at 2
	// values and double (a message with one such field wastes one slot).
	MaxSlab = 64
	// MaxMessageSlab is the most messages in one slab of [New]; slabs start
	// at 2 and double.
	MaxMessageSlab = 16
	// maxMsgTypes bounds the message types a Decoder keeps slabs for, and
	// so the linear search in New; further types are allocated one by one.
	maxMsgTypes = 8
	// MaxSharedString is the longest string [Decoder.String] starts a new
	// text block for; a longer one that does not fit the rest of the
	// current block gets an allocation of its own.
	MaxSharedString = 128
	// MaxTextSlab is the largest text block, in bytes; blocks start at
	// 256 bytes and double.
	MaxTextSlab = 2048
)

// slab hands out pointers to values of type T from shared backing arrays of
// first, 2*first, ... up to max values. It counts the values handed out
// rather than re-slicing, so that handing one out writes no pointer (a
// slab of [New] lives on the heap, where a pointer write costs a write
// barrier while the garbage collector marks).
type slab[T any] struct {
	buf  []T // the current array (nil before the first)
	used int // values of buf handed out
}

func (s *slab[T]) next(first, max int) *T {
	if s.used == len(s.buf) {
		n := min(2*len(s.buf), max)
		if len(s.buf) == 0 {
			n = first
		}
		s.buf = make([]T, n)
		s.used = 0
	}
	p := &s.buf[s.used]
	s.used++
	return p
}

func (s *slab[T]) new(v T) *T {
	p := s.next(2, MaxSlab)
	*p = v
	return p
}

// Bool returns a pointer to a copy of v from the Decoder's bool slab.
func (d *Decoder) Bool(v bool) *bool { return d.bools.new(v) }

// Int32 returns a pointer to a copy of v from the Decoder's int32 slab.
func (d *Decoder) Int32(v int32) *int32 { return d.int32s.new(v) }

// Int64 returns a pointer to a copy of v from the Decoder's int64 slab.
func (d *Decoder) Int64(v int64) *int64 { return d.int64s.new(v) }

// Uint32 returns a pointer to a copy of v from the Decoder's uint32 slab.
func (d *Decoder) Uint32(v uint32) *uint32 { return d.uint32s.new(v) }

// Uint64 returns a pointer to a copy of v from the Decoder's uint64 slab.
func (d *Decoder) Uint64(v uint64) *uint64 { return d.uint64s.new(v) }

// Float32 returns a pointer to a copy of v from the Decoder's float32 slab.
func (d *Decoder) Float32(v float32) *float32 { return d.float32s.new(v) }

// Float64 returns a pointer to a copy of v from the Decoder's float64 slab.
func (d *Decoder) Float64(v float64) *float64 { return d.float64s.new(v) }

// StringPtr returns a pointer to a copy of v (a string header, not its
// bytes) from the Decoder's string slab.
func (d *Decoder) StringPtr(v string) *string { return d.strings.new(v) }

// String returns a string holding a copy of b (never aliasing b). Copies
// that fit the rest of the current text block, and when they do not, copies
// of at most [MaxSharedString] bytes, are carved out of text blocks the
// Decoder allocates, 256, 512, ... up to [MaxTextSlab] bytes each (a longer
// copy that does not fit gets an allocation of its own), so that a message
// with many short strings pays one allocation per block instead of one per
// string; a block's bytes are written once, when a string is carved out,
// and never again, which is what a string's immutability asks. A string
// kept alive keeps its block alive (at most MaxTextSlab bytes). Generated
// code decodes string fields, elements, map keys and values with
// [Decoder.ConsumeString] and [Decoder.ConsumeValidString], which copy as
// String does.
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

// stringSlow is String for a b longer than the rest of the current block:
// a string of its own when b is longer than MaxSharedString, else a copy
// carved out of a new block (the old block's rest, less than len(b) bytes,
// is left unused).
func (d *Decoder) stringSlow(b []byte) string {
	n := len(b)
	if n > MaxSharedString {
		return string(b)
	}
	size := min(2*len(d.text), MaxTextSlab)
	if len(d.text) == 0 {
		size = 256
	}
	d.text = make([]byte, size)
	d.textUsed = n
	t := d.text[:n:n]
	copy(t, b)
	return unsafe.String(&t[0], n)
}

// New returns a pointer to a new zero message of type T. The Decoder's
// first message is allocated on its own, as with new(T), so that a message
// with one nested message pays nothing more; later ones come from slabs the
// Decoder keeps per type, of 2, 4, ... up to [MaxMessageSlab] messages (for
// at most 8 types; further types are allocated one by one). A message kept
// alive keeps its slab alive. Generated code takes singular and repeated
// message fields, oneof members and map values from New.
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
			return s.next(2, MaxMessageSlab)
		}
	}
	if d.nmsgs == len(d.msgs) {
		return new(T)
	}
	s := new(slab[T])
	d.msgs[d.nmsgs] = s
	d.nmsgs++
	return s.next(2, MaxMessageSlab)
}
