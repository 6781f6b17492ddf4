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
// JSONCodec is the same for ProtoJSON (application/json): it uses the
// generated MarshalProtoJSON and UnmarshalProtoJSON, with the options
// connect-go's own JSON codec uses (unknown fields discarded on input).
// Generated handlers accept it beside Codec (see HandlerCodecs); a client
// asks for JSON with connect.WithCodec(connectcodec.JSONCodec{}).
package connectcodec

import (
	"fmt"

	"connectrpc.com/connect"
	gprotojson "google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/protoplay/protoplay/runtime/protojson"
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

// JSONName is the name of connect-go's JSON codec; JSONCharsetName the
// variant whose content type carries "; charset=utf-8", which connect
// handlers also accept.
const (
	JSONName        = "json"
	JSONCharsetName = "json; charset=utf-8"
)

// JSONMessage is what JSONCodec needs of a value: the ProtoJSON methods
// protoplay generates for every message type (on *M).
type JSONMessage interface {
	MarshalProtoJSON(o protojson.MarshalOptions) ([]byte, error)
	UnmarshalProtoJSON(b []byte, o protojson.UnmarshalOptions) error
}

// JSONCodec is a connect.Codec for ProtoJSON over protoplay messages
// (google.golang.org/protobuf's protojson for proto.Message values, as
// connect-go's own codec). The zero value is named "json".
type JSONCodec struct {
	// Charset selects the name "json; charset=utf-8" (JSONCharsetName).
	Charset bool
	// Resolver makes the messages google.protobuf.Any values hold (see
	// the generated NewMessage_* functions); without one, an Any with a
	// type is an error.
	Resolver protojson.Resolver
}

var _ connect.Codec = JSONCodec{}

// Name is JSONName, or JSONCharsetName when c.Charset.
func (c JSONCodec) Name() string {
	if c.Charset {
		return JSONCharsetName
	}
	return JSONName
}

// IsBinary is false: ProtoJSON is text.
func (JSONCodec) IsBinary() bool { return false }

// Marshal encodes v as ProtoJSON.
func (c JSONCodec) Marshal(v any) ([]byte, error) {
	switch m := v.(type) {
	case JSONMessage:
		return m.MarshalProtoJSON(protojson.MarshalOptions{Resolver: c.Resolver})
	case proto.Message:
		return gprotojson.MarshalOptions{}.Marshal(m)
	}
	return nil, jsonErrType("marshal", v)
}

// Unmarshal decodes ProtoJSON into v, skipping unknown fields as
// connect-go's JSON codec does.
func (c JSONCodec) Unmarshal(data []byte, v any) error {
	var err error
	switch m := v.(type) {
	case JSONMessage:
		err = m.UnmarshalProtoJSON(data, protojson.UnmarshalOptions{DiscardUnknown: true, Resolver: c.Resolver})
	case proto.Message:
		err = gprotojson.UnmarshalOptions{DiscardUnknown: true}.Unmarshal(data, m)
	default:
		return jsonErrType("unmarshal into", v)
	}
	if err != nil {
		return fmt.Errorf("unmarshal JSON into %T: %w", v, err)
	}
	return nil
}

// HandlerCodecs is the handler option generated Connect handlers pass
// (before the caller's options, which may replace any codec by name): the
// binary Codec and both names of JSONCodec, so protoplay handlers accept
// what connect-go's default handlers accept.
func HandlerCodecs() connect.Option {
	return connect.WithOptions(
		connect.WithCodec(Codec{}),
		connect.WithCodec(JSONCodec{}),
		connect.WithCodec(JSONCodec{Charset: true}),
	)
}

func jsonErrType(op string, v any) error {
	return fmt.Errorf("connectcodec: cannot %s %T as JSON: neither a protoplay message (MarshalProtoJSON, UnmarshalProtoJSON) nor a proto.Message", op, v)
}
