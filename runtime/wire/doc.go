// Package wire reads and writes the protocol buffers binary wire format. It is
// the runtime that protoplay-generated code calls, and it imports only the Go
// standard library.
//
// The format is specified at https://protobuf.dev/programming-guides/encoding/.
// A message is a sequence of records. Each record is a tag, the varint
// field_number<<3 | wire_type, followed by a value whose shape the wire type
// fixes: a varint (VARINT), 4 or 8 little-endian bytes (I32, I64), a varint
// length and that many bytes (LEN), or a group: more records up to an
// END_GROUP tag carrying the same field number (SGROUP, EGROUP).
//
// # Families
//
// Functions are named verb then noun, and each noun (Varint, Tag, Fixed32,
// Fixed64, Bytes, String, Group) has the verbs that make sense for it:
//
//   - AppendX appends the encoding of a value to b and returns the extended
//     slice, like the built-in append.
//   - ConsumeX decodes a value from the front of b and returns it with n, the
//     number of bytes it took. Returned slices alias b.
//   - SizeX returns the number of bytes AppendX would write, without writing.
//   - PutXRev writes the encoding so that it ends just before b[i] and returns
//     the index of its first byte. Generated Marshal computes Size once,
//     allocates exactly that much, and fills the buffer from the end toward
//     the start: by the time a nested message's length prefix is written,
//     its contents are already in place and their length is known, so no
//     size is computed twice and nothing is moved. The caller guarantees
//     room; a short buffer panics with Go's own index-out-of-range error.
//
// EncodeZigZag, DecodeZigZag, EncodeBool and DecodeBool map sint32/sint64
// and bool values to and from the uint64 a varint carries.
//
// # Errors
//
// The Consume functions sit on the hot path of Unmarshal, so they neither
// allocate nor return error values. On failure they return n < 0, an error
// code. A caller passes the code up unchanged until it knows where the bad
// item started, then calls [ErrorAt] to turn it into an [*Error]. An *Error
// records the byte offset in the top-level input, the field path reached and
// one of the Err sentinels (ErrTruncated, ErrLength, ...), which errors.Is
// matches. [ErrTruncated] also matches io.ErrUnexpectedEOF. A decoder that
// hands a nested message's bytes to that message's own decoder passes any
// *Error it gets back through [Nest], which shifts the offset into the outer
// input and puts the field's name in front of the path.
//
// Groups and nesting are bounded: [ConsumeGroup] and [ConsumeFieldValue] take
// the number of nesting levels still allowed. Generated Unmarshal starts
// messages from [DefaultMaxDepth] and each unknown field's groups from
// [MaxUnknownGroupDepth], so hostile input cannot exhaust the stack. Tags are
// at most [MaxTagBytes] long.
//
// # Generated messages
//
// Every message type M that protoplay generates has the methods below, each
// documented in the generated code by one line that points here. A nil *M
// reads as an empty message wherever a method takes one.
//
//   - Size() int: the length in bytes of the wire encoding (0 for nil).
//   - Marshal() ([]byte, error): the wire encoding. Fields are written in
//     field-number order (oneof members after the other fields, as
//     protoc-gen-go orders them), map entries in key order and unknown
//     fields last, so the bytes do not depend on map iteration order. It
//     fails with an *Error when a required field of the message or of one
//     inside it is not set ([ErrRequired]; a nil element, map value or oneof
//     member counts as an empty message) or a string that must be valid
//     UTF-8 is not ([ErrUTF8]), as protobuf-go's proto.Marshal does.
//   - MarshalAppend(b []byte) ([]byte, error): Marshal appending to b; on
//     error b is returned unchanged.
//   - MarshalToSizedBuffer(b []byte) (int, error): writes the encoding at the
//     end of b, backward (see PutXRev above), and returns the number of
//     bytes written; len(b) must be at least Size().
//   - Unmarshal(b []byte) error: Reset, then UnmarshalDepth with
//     [DefaultMaxDepth].
//   - UnmarshalDepth(b []byte, depth int) error: merges the message encoded
//     in b into the receiver, allowing depth levels of messages and groups,
//     its own included; then CheckInitialized on the merged result.
//   - UnmarshalWith(d *Decoder, b []byte, depth int) error: UnmarshalDepth
//     taking its allocations from d (see [Decoder]) and not checking
//     required fields: a sub-message may arrive in pieces that only together
//     are complete, so the top-level UnmarshalDepth checks the whole result.
//   - UnmarshalGroup(d *Decoder, b []byte, group int32, depth int) (int,
//     error): UnmarshalWith for the message as a group (a proto2 group, or a
//     field with editions' DELIMITED encoding) of field number group: it
//     decodes b up to and including that field's END_GROUP tag and returns
//     the bytes consumed; group 0 decodes all of b as a message.
//   - ValidateGroup(b []byte, group int32, depth int) (int, bool), on a
//     message of the opaque API (a nil receiver will do): walks b as
//     UnmarshalGroup would, allocating nothing, and returns the bytes it
//     consumed, or -1 where UnmarshalGroup fails (it is never more lenient;
//     required fields are CheckInitialized's); and whether Marshal of the
//     decoded message writes b back unchanged (false whenever that is not
//     certain: a map field, a type that can lack a required field). A lazy
//     field's occurrences are checked with it.
//   - CheckInitialized() error: reports a required field (proto2 required,
//     editions LEGACY_REQUIRED) not set in the message or in one inside it,
//     as protobuf-go's proto.CheckInitialized does: an *Error wrapping
//     [ErrRequired] whose Path leads to the incomplete message and whose
//     Detail names its missing fields.
//   - Reset(), Clone() *M: clear every field, unknown fields included; a
//     deep copy (nil for nil).
//   - Equal(o *M) bool: proto.Equal (google.golang.org/protobuf). A nil
//     message equals only another nil message, but in a repeated field, map
//     value or oneof member a nil message equals an empty one, as both
//     encode the same. Fields compare by presence, then value: floats are
//     equal when == holds or both are NaN, except that -0 is set and +0 is
//     not in an implicit-presence field. A set oneof member differs from any
//     other member and from no member, whatever its value; a nil wrapper
//     pointer is no member. Unknown fields compare as in [UnknownEqual].
//
// A message type with extension ranges also has ProtoUnknownFields() **[]byte,
// the address of its unknown fields (nil for a nil message), where its
// extensions live: [Ext] and [ExtList] read and write them there.
//
// A oneof holding a nil wrapper pointer (M{O: (*M_A)(nil)}) has no member
// set, in every method: Size, Marshal, CheckInitialized, Clone, Equal, the
// member getters (which return the member's default), the ProtoJSON and
// text encoders and String; GetO returns the field as it is. protobuf-go
// reads such a message the same way (its message reflection reports no
// member, so proto.Size, proto.Marshal, protojson, prototext and proto.Equal
// see none), but protoc-gen-go's member getters dereference the nil pointer
// and panic.
//
// Errors from Marshal, Unmarshal and CheckInitialized are *Error values
// whose Path names the field reached the same way in all three: "inner",
// "items[3].name", "by_name[\"k\"]" (a map value, by its key).
package wire
