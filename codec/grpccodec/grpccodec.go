// Package grpccodec puts protoplay's generated messages on the wire of
// google.golang.org/grpc. grpc-go's default codec (encoding/proto) requires
// proto.Message, which protoplay messages, plain structs without reflection,
// are not; Codec encodes them with their generated Size, MarshalAppend (or
// MarshalToSizedBuffer) and Unmarshal methods instead.
//
// Nothing is registered at init, here or in generated code. A program
// installs the codec once, before it starts any gRPC server or client:
//
//	func main() {
//		grpccodec.Register() // or, per server and client:
//		// grpc.NewServer(grpc.ForceServerCodecV2(grpccodec.Codec{}))
//		// grpc.NewClient(addr, grpc.WithDefaultCallOptions(grpc.ForceCodecV2(grpccodec.Codec{})))
//		...
//	}
//
// The codec's name is "proto", so the content type on the wire stays
// application/grpc+proto and protoplay peers interoperate with peers using
// protoc-gen-go messages. Values that are not protoplay messages (a
// protoc-gen-go message of grpc's health or reflection service, say) are
// handed to a fallback codec, by default grpc's own encoding/proto codec.
package grpccodec

import (
	"fmt"

	"google.golang.org/grpc/encoding"
	_ "google.golang.org/grpc/encoding/proto" // registers the fallback, grpc's protobuf-go codec
	"google.golang.org/grpc/mem"
)

// Name is the codec's name, the content subtype of application/grpc+proto.
const Name = "proto"

// Message is what the codec needs of a value: the methods protoplay
// generates for every message type (on the pointer type, *M).
type Message interface {
	// Size is the length in bytes of the message's wire encoding.
	Size() int
	// MarshalAppend appends the wire encoding to b.
	MarshalAppend(b []byte) ([]byte, error)
	// Unmarshal replaces the message with the one encoded in b; it must not
	// keep b (protoplay's generated Unmarshal copies strings and bytes).
	Unmarshal(b []byte) error
}

// sizedMarshaler is the generated MarshalToSizedBuffer: it writes the
// encoding at the end of b, len(b) >= Size(), and saves MarshalAppend's
// second Size computation.
type sizedMarshaler interface {
	MarshalToSizedBuffer(b []byte) (int, error)
}

// Codec is a grpc encoding.CodecV2 for protoplay messages, named "proto".
// Marshal writes a message of at least mem's pooling threshold (1 KiB) into
// a buffer from Pool (mem.DefaultBufferPool() when nil), which grpc frees
// back to the pool once it is written; smaller ones get a buffer of their
// exact size. Unmarshal decodes a message that arrived in one buffer in
// place, and copies one that arrived in several into one pooled buffer
// first, freed when Unmarshal returns.
//
// A value that is not a Message goes to Fallback, or, when Fallback is nil,
// to the codec registered under "proto" when the Codec was made by Register,
// or else grpc's encoding/proto codec; with no fallback it is an error.
// The zero Codec is ready to use.
type Codec struct {
	Pool     mem.BufferPool
	Fallback encoding.CodecV2
}

var _ encoding.CodecV2 = Codec{}

// Register registers a Codec under the name "proto" with
// encoding.RegisterCodecV2, replacing grpc's default codec for every gRPC
// server and client of the program; the replaced codec becomes the Codec's
// fallback for values that are not protoplay messages. As with
// encoding.RegisterCodecV2, call it during initialization (in main before
// any server or client starts, or in an init function of your own), not
// concurrently with RPCs. Registering twice keeps the first fallback.
func Register() {
	prev := encoding.GetCodecV2(Name)
	if c, ok := prev.(Codec); ok {
		prev = c.Fallback
	}
	encoding.RegisterCodecV2(Codec{Fallback: prev})
}

// Name returns "proto".
func (Codec) Name() string { return Name }

func (c Codec) pool() mem.BufferPool {
	if c.Pool != nil {
		return c.Pool
	}
	return mem.DefaultBufferPool()
}

func (c Codec) fallback() encoding.CodecV2 {
	if c.Fallback != nil {
		return c.Fallback
	}
	f := encoding.GetCodecV2(Name)
	if c, ok := f.(Codec); ok {
		return c.Fallback // registered by Register
	}
	return f
}

// Marshal returns the wire encoding of v, a Message, as one buffer.
func (c Codec) Marshal(v any) (mem.BufferSlice, error) {
	m, ok := v.(Message)
	if !ok {
		if f := c.fallback(); f != nil {
			return f.Marshal(v)
		}
		return nil, fmt.Errorf("grpccodec: cannot marshal %T: not a protoplay message (no Size, MarshalAppend and Unmarshal methods)", v)
	}
	size := m.Size()
	if mem.IsBelowBufferPoolingThreshold(size) {
		b, err := marshal(m, make([]byte, size))
		if err != nil {
			return nil, err
		}
		return mem.BufferSlice{mem.SliceBuffer(b)}, nil
	}
	pool := c.pool()
	buf := pool.Get(size)
	b, err := marshal(m, (*buf)[:size])
	if err != nil {
		pool.Put(buf)
		return nil, err
	}
	*buf = b
	return mem.BufferSlice{mem.NewBuffer(buf, pool)}, nil
}

// marshal writes m's encoding into b, whose length is m.Size(), and returns
// the encoded bytes.
func marshal(m Message, b []byte) ([]byte, error) {
	if sm, ok := m.(sizedMarshaler); ok {
		n, err := sm.MarshalToSizedBuffer(b)
		if err != nil {
			return nil, err
		}
		if n != len(b) {
			return b[len(b)-n:], nil
		}
		return b, nil
	}
	return m.MarshalAppend(b[:0])
}

// Unmarshal decodes data into v, a Message. Errors are those of the
// generated Unmarshal (a *wire.Error with the byte offset and field path).
func (c Codec) Unmarshal(data mem.BufferSlice, v any) error {
	m, ok := v.(Message)
	if !ok {
		if f := c.fallback(); f != nil {
			return f.Unmarshal(data, v)
		}
		return fmt.Errorf("grpccodec: cannot unmarshal into %T: not a protoplay message (no Size, MarshalAppend and Unmarshal methods)", v)
	}
	switch len(data) {
	case 0:
		return m.Unmarshal(nil)
	case 1:
		return m.Unmarshal(data[0].ReadOnlyData())
	}
	buf := data.MaterializeToBuffer(c.pool())
	defer buf.Free()
	return m.Unmarshal(buf.ReadOnlyData())
}
