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
