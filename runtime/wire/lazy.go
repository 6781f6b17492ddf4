package wire

import (
	"sync/atomic"
	"unsafe"
)

// This file holds what generated code of the opaque API needs for a lazy
// message field (a singular message field marked [lazy = true] or
// [unverified_lazy = true], or named in the generator option lazy=): the
// field's *T is read and first set with atomic operations, so that any
// number of goroutines may read a freshly decoded message at once, the
// first of them decoding the field's held encoding and the others using
// the message it published.

// LoadMessage returns *p, read atomically (see [PublishMessage]).
func LoadMessage[T any](p **T) *T {
	return (*T)(atomic.LoadPointer((*unsafe.Pointer)(unsafe.Pointer(p))))
}

// PublishMessage stores v in *p if *p is nil, atomically, and returns the
// message *p then holds: v, or the one another goroutine published first
// (which the caller uses instead of v).
func PublishMessage[T any](p **T, v *T) *T {
	if atomic.CompareAndSwapPointer((*unsafe.Pointer)(unsafe.Pointer(p)), nil, unsafe.Pointer(v)) {
		return v
	}
	return LoadMessage(p)
}

// The classes of varint fields [CanonVarint] and [ValidatePacked] check
// values against: the Go type a decoded value is converted to, which
// decides whether Marshal writes the value back as it was read.
const (
	VarintAny    = 0 // int64, uint64, sint64: every value
	VarintInt32  = 1 // int32 and enums: a 32-bit value sign-extended to 64 bits
	VarintUint32 = 2 // uint32, sint32: a value below 2^32
	VarintBool   = 3 // bool: 0 or 1
)

// CanonVarint reports whether v, a varint value read as n bytes for a
// field of varint class class (VarintAny, ...), is written back the same
// by Marshal: in the fewest bytes (n == SizeVarint(v)) and within the
// class's range (an int32 written in 5 bytes, or a bool of 2, decodes
// fine but is re-encoded otherwise).
func CanonVarint(v uint64, n int, class int) bool {
	if n != SizeVarint(v) {
		return false
	}
	switch class {
	case VarintInt32:
		return v == uint64(int64(int32(v)))
	case VarintUint32:
		return v>>32 == 0
	case VarintBool:
		return v <= 1
	}
	return true
}

// ValidatePacked checks p, the contents of a packed repeated field whose
// elements have wire type typ (VarintType, Fixed32Type or Fixed64Type):
// ok is whether generated Unmarshal decodes it (whole elements, valid
// varints), canon whether Marshal writes it back unchanged (not empty,
// every varint canonical for class; see [CanonVarint]).
func ValidatePacked(p []byte, typ Type, class int) (ok, canon bool) {
	switch typ {
	case Fixed32Type:
		return len(p)%4 == 0, len(p) > 0
	case Fixed64Type:
		return len(p)%8 == 0, len(p) > 0
	}
	canon = len(p) > 0
	for i := 0; i < len(p); {
		v, n := ConsumeVarint(p[i:])
		if n < 0 {
			return false, false
		}
		canon = canon && CanonVarint(v, n, class)
		i += n
	}
	return true, canon
}
