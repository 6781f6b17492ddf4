// Package protojson is the runtime of protoplay's generated ProtoJSON
// (https://protobuf.dev/programming-guides/json): the JSON mapping of
// protocol buffers, with json_name keys, 64-bit integers as strings, enums
// by name, bytes as base64 and the well-known types in their special forms.
// It uses only the Go standard library: no reflection and no type registry.
//
// Most programs call the methods protoplay generates on every message
// rather than this package:
//
//	b, err := m.MarshalJSON()                 // compact ProtoJSON; encoding/json calls it too
//	err = m.UnmarshalJSON(b)                  // replaces m
//	b, err = m.MarshalProtoJSON(protojson.MarshalOptions{UseProtoNames: true, Multiline: true})
//	err = m.UnmarshalProtoJSON(b, protojson.UnmarshalOptions{DiscardUnknown: true})
//
// The methods are thin: they call [Marshal] and [Unmarshal] with the
// message's generated EncodeProtoJSON and DecodeProtoJSON, which drive an
// [Encoder] and a [Decoder] field by field. [MarshalOptions] and
// [UnmarshalOptions] mirror the fields of the same names in
// google.golang.org/protobuf/encoding/protojson, and the output is
// protojson's byte for byte (without the random extra spaces protojson adds
// so that no one depends on its bytes).
//
// # Any
//
// A google.protobuf.Any names its message's type by URL. Since nothing is
// registered, the options carry a [Resolver] that makes a message from its
// full name. Every generated file declares one, NewMessage_<path of the
// .proto> (for example NewMessage_foo_v1_bar_proto), that knows the file's
// types and the types its fields reach; [ResolverFunc] adapts it, or any
// function of your own that tries several.
//
// # Errors
//
// Input errors are *[Error] values with the byte offset, line and column of
// the bad token (columns count runes), wrapping one of [ErrSyntax],
// [ErrUnknownField], [ErrDuplicate], [ErrInvalidValue], [ErrDepth] or
// [ErrUnsupported], which errors.Is matches. A required field unset after
// a successful unmarshal is wire.ErrRequired.
//
// The intended differences from protojson (a nesting limit of 100 levels,
// RFC 8259's number grammar, extension keys read as unknown fields, ...)
// are listed with the spec's words in the repository's docs/json-text.md.
package protojson
