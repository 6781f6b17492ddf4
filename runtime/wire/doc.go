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
package wire
