// Package connectcodec puts protoplay's generated messages on the wire of
// connectrpc.com/connect. connect-go's default binary codec requires
// proto.Message, which protoplay messages, plain structs without reflection,
// are not; Codec encodes them with their generated Size, MarshalAppend and
// Unmarshal methods instead.
//
// Code generated with services=connect passes connect.WithCodec(Codec{})
// to every client and handler it builds (before the caller's options, which
// may replace it), so nothing needs registering. Hand-built clients and
// handlers take it the same way:
//
//	client := connect.NewClient[pb.Req, pb.Res](http.DefaultClient, url, connect.WithCodec(connectcodec.Codec{}))
//
// The codec's name is "proto", so the content types on the wire stay
// application/proto (Connect) and application/grpc+proto (gRPC), and
// protoplay peers interoperate with peers using protoc-gen-go messages.
//
// JSON: protoplay does not generate ProtoJSON yet, so connect's JSON codec
// (application/json, which connect handlers accept by default) cannot
// encode protoplay messages; a JSON request to a protoplay handler fails
// with an error. A JSON codec comes with generated ProtoJSON.
package connectcodec

import (
	"fmt"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"
)

// Name is the codec's name: connect's binary protobuf codec name.
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

// Codec is a connect.Codec for protoplay messages, named "proto". connect
// calls MarshalAppend with a buffer from its own pool, so a message is
// encoded into a reused buffer without allocating. Its encoding is stable:
// fields in field-number order and map entries in key order, so
// MarshalStable is Marshal.
//
// A value that is not a Message but a proto.Message (a protoc-gen-go
// message) is encoded with google.golang.org/protobuf, as connect's default
// codec does, so one client or handler option serves both. The zero Codec is
// ready to use.
type Codec struct{}

var _ connect.Codec = Codec{}

// Name returns "proto".
func (Codec) Name() string { return Name }

// IsBinary reports true: the encoding is binary protobuf.
func (Codec) IsBinary() bool { return true }

// Marshal returns the wire encoding of v.
func (c Codec) Marshal(v any) ([]byte, error) { return c.MarshalAppend(nil, v) }

// MarshalStable returns the wire encoding of v, which is deterministic for
// protoplay messages (see Codec) and for proto.Message uses
// proto.MarshalOptions{Deterministic: true}.
func (c Codec) MarshalStable(v any) ([]byte, error) {
	if pm, ok := v.(proto.Message); ok {
		if _, ours := v.(Message); !ours {
			return proto.MarshalOptions{Deterministic: true}.Marshal(pm)
		}
	}
	return c.MarshalAppend(nil, v)
}

// MarshalAppend appends the wire encoding of v to dst.
func (Codec) MarshalAppend(dst []byte, v any) ([]byte, error) {
	switch m := v.(type) {
	case Message:
		return m.MarshalAppend(dst)
	case proto.Message:
		return proto.MarshalOptions{}.MarshalAppend(dst, m)
	}
	return nil, errType("marshal", v)
}

// Unmarshal decodes data into v. Errors from a protoplay message are those
// of its generated Unmarshal (a *wire.Error with the byte offset and field
// path), wrapped with the type's name.
func (Codec) Unmarshal(data []byte, v any) error {
	var err error
	switch m := v.(type) {
	case Message:
		err = m.Unmarshal(data)
	case proto.Message:
		err = proto.Unmarshal(data, m)
	default:
		return errType("unmarshal into", v)
	}
	if err != nil {
		return fmt.Errorf("unmarshal into %T: %w", v, err)
	}
	return nil
}

func errType(op string, v any) error {
	return fmt.Errorf("connectcodec: cannot %s %T: neither a protoplay message (Size, MarshalAppend, Unmarshal) nor a proto.Message", op, v)
}
