package payload

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/protoplay/protoplay/compiler/diag"
	pjson "github.com/protoplay/protoplay/runtime/protojson"
	ptext "github.com/protoplay/protoplay/runtime/prototext"
)

// Format is a textual form of a message value.
type Format string

// Formats of a message value.
const (
	// JSON is canonical ProtoJSON: lowerCamelCase field names, 64-bit
	// integers as strings, enums by name, bytes as base64. Output is
	// indented by two spaces.
	JSON Format = "json"
	// Text is the protobuf text format. Output is indented by two spaces.
	Text Format = "text"
)

// EncodeOptions configures Encode.
type EncodeOptions struct {
	// In is the form of the input value: JSON (the default) or Text.
	In Format `json:"in,omitempty"`
	// Out is the form of the output: Binary (the default), Hex or Base64.
	Out Encoding `json:"out,omitempty"`
}

// Encode parses input, a value of message type md in opt.In form, and
// returns its binary encoding in opt.Out form, as google.golang.org/protobuf's
// deterministic marshaling writes it: extensions first (by field number),
// then the other fields by field number with the members of oneofs after
// them, map entries sorted by key. The generated Marshal writes the same
// order except for extensions, which generated code keeps as unknown
// fields, last; protoc (C++) writes every field, extensions included, in
// field number order. Where the orders differ the bytes decode to the same
// message.
//
// Errors are *diag.Error: diag.KindJSON or diag.KindText with Line and Column for input
// that does not parse (unknown field, wrong value type, syntax), diag.KindValue
// for a value that cannot be encoded (a missing proto2 required field),
// diag.KindLimit for input over MaxInputBytes or nested deeper than MaxDepth,
// diag.KindUsage for unknown options.
func (s *Schema) Encode(md protoreflect.MessageDescriptor, input []byte, opt EncodeOptions) ([]byte, error) {
	m, err := s.ParseValue(md, input, opt.In)
	if err != nil {
		return nil, err
	}
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		return nil, valueError(err)
	}
	return FormatBinary(b, opt.Out)
}

// ParseValue parses input, a value of message type md written as JSON or
// text format, into a dynamic message. Errors are as for Encode.
func (s *Schema) ParseValue(md protoreflect.MessageDescriptor, input []byte, in Format) (*dynamicpb.Message, error) {
	if err := checkSize(len(input)); err != nil {
		return nil, err
	}
	m := dynamicpb.NewMessage(s.resolve(md))
	switch in {
	case JSON, "":
		// Required fields are checked below, as for text.
		if err := s.unmarshalJSON(input, m, pjson.UnmarshalOptions{AllowPartial: true}); err != nil {
			return nil, jsonError(err)
		}
	case Text:
		if err := s.unmarshalText(input, m); err != nil {
			return nil, textError(err)
		}
	default:
		return nil, diag.New(diag.KindUsage, "unknown input format %q (want json or text)", string(in))
	}
	if err := missingRequired(m); err != nil {
		return nil, valueError(err)
	}
	return m, nil
}

func valueError(err error) *diag.Error {
	return &diag.Error{Kind: diag.KindValue, Message: cleanMessage(err), Offset: -1}
}

// cleanMessage drops the "proto: " prefix google.golang.org/protobuf puts
// on its errors (its space is at random a no-break space, U+00A0).
func cleanMessage(err error) string {
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "proto:"); ok {
		msg = strings.TrimLeft(rest, " \u00a0")
	}
	return msg
}

// DecodeOptions configures Decode.
type DecodeOptions struct {
	// In is the input's encoding; Auto (the default) detects it.
	In Encoding `json:"in,omitempty"`
	// Out is the form of each decoded value: JSON (the default) or Text.
	Out Format `json:"out,omitempty"`
	// Delimited reads the payload as a stream of messages, each preceded
	// by its length as a varint.
	Delimited bool `json:"delimited,omitempty"`
}

// Decoded is the result of Decode.
type Decoded struct {
	// Encoding is the input encoding used: the detected one when
	// DecodeOptions.In was Auto.
	Encoding Encoding `json:"encoding"`
	// Size is the binary payload's length in bytes (after hex or base64
	// decoding), length prefixes of a stream included.
	Size int `json:"size"`
	// Messages holds each decoded message in the requested Format, ending
	// in a newline: one for a single payload, one per record of a stream.
	Messages []string `json:"messages"`
}

// Decode reads input, a binary payload of message type md written in
// opt.In encoding (or a length-delimited stream of them), and writes each
// message as canonical JSON or text format. Unknown fields survive in text
// format output (as field numbers) and are dropped by JSON, which cannot
// represent them.
//
// Errors are *diag.Error: diag.KindEncoding for hex or base64 that does not decode;
// diag.KindPayload for a malformed payload, with the byte offset (from the
// start of the payload, or of the stream) where decoding failed and the
// field path reached, as WireView finds them; diag.KindValue for a payload
// that is well-formed but invalid for md (missing proto2 required field,
// invalid UTF-8 in a proto3 string); diag.KindLimit for input over
// MaxInputBytes or nesting over MaxDepth.
func (s *Schema) Decode(md protoreflect.MessageDescriptor, input []byte, opt DecodeOptions) (*Decoded, error) {
	out := &Decoded{Messages: []string{}}
	var err error
	out.Encoding, out.Size, err = s.DecodeEach(md, input, opt, func(text string) error {
		out.Messages = append(out.Messages, text)
		return nil
	})
	if err != nil && out.Encoding == "" {
		return nil, err
	}
	return out, err
}

// DecodeEach is Decode handing each message, as it is decoded and
// written, to emit instead of collecting them, so that a stream of
// millions of records is decoded in the memory of one. It returns the
// input encoding used and the binary payload's size, and the first error
// (Decode's errors, or emit's, returned as is). A record with the same
// bytes as the one before it is written as that one was, without decoding
// it again.
func (s *Schema) DecodeEach(md protoreflect.MessageDescriptor, input []byte, opt DecodeOptions, emit func(text string) error) (Encoding, int, error) {
	// Detected as text, the input may still be binary: the bytes of a
	// small message can all be hex digits ("81" is field 7 = 49) or of
	// base64's alphabet, or whitespace. A single message that does not
	// read or decode as text, or reads as empty from whitespace, is
	// decoded as the bytes given, unless it is plainly typed text (see
	// typed), and taken so if that gives a message of the type with no
	// unknown fields; an error otherwise says how the input was read.
	auto := opt.In == Auto || opt.In == ""
	b, enc, err := ParseBinary(input, opt.In)
	if err != nil {
		if e := AsError(err); auto && !opt.Delimited && e.Kind == diag.KindEncoding && !typed(input) {
			if m, berr := s.unmarshal(md, input, true); berr == nil && len(m.m.GetUnknown()) == 0 {
				text, ferr := s.formatValue(m, opt.Out)
				if ferr == nil {
					ferr = emit(text)
				}
				return Binary, len(input), ferr
			}
		}
		return "", 0, err
	}
	guessed := auto && enc != Binary
	var prev []byte
	prevText, i := "", 0
	one := func(r Record) error {
		defer func() { i++ }()
		if i > 0 && bytes.Equal(r.Bytes, prev) {
			return emit(prevText)
		}
		m, err := s.unmarshal(md, r.Bytes, true)
		// Whitespace reads as an empty hex payload; bytes that happen to
		// be whitespace may be a message.
		blank := len(r.Bytes) == 0 && len(input) > 0
		if (err != nil || blank) && guessed && !opt.Delimited && (blank || !typed(input)) {
			// Taken as binary, the bytes must be a message of the type
			// with no unknown fields: the bytes of mistyped text often
			// parse as a few unknown fields ("0b 08 01" as 6: 98 ...;
			// " \n" as field 4 = 10).
			if mb, berr := s.unmarshal(md, input, true); berr == nil && len(mb.m.GetUnknown()) == 0 {
				m, err, b, enc, r = mb, nil, input, Binary, Record{Bytes: input}
			}
		}
		if err != nil {
			e := AsError(err)
			if e.Offset >= 0 {
				e.Offset += r.Offset
			}
			e.Record = i
			if guessed && !typed(input) && (e.Kind == diag.KindPayload || e.Kind == diag.KindValue) {
				e.Message += " (the input was read as " + string(enc) + "; choose binary as the input encoding to read its bytes as they are)"
			}
			return e
		}
		text, err := s.formatValue(m, opt.Out)
		if err != nil {
			e := AsError(err)
			e.Record = i
			return e
		}
		prev, prevText = r.Bytes, text
		return emit(text)
	}
	if opt.Delimited {
		err := EachDelimited(b, one)
		return enc, len(b), err
	}
	err = one(Record{Bytes: b}) // may switch enc and b to binary
	return enc, len(b), err
}

// Unmarshal decodes a binary payload as message type md. A malformed
// payload gives an *diag.Error of kind diag.KindPayload positioned by WireView.
func (s *Schema) Unmarshal(md protoreflect.MessageDescriptor, b []byte) (*dynamicpb.Message, error) {
	x, err := s.unmarshal(md, b, false)
	if err != nil {
		return nil, err
	}
	return x.m.(*dynamicpb.Message), nil
}

// unmarshal is Unmarshal returning the message's adapter; with lazy, and a
// payload checkPayload accepts, the message holds no lazyList field,
// which the adapter reads from the payload (lazy.go).
func (s *Schema) unmarshal(md protoreflect.MessageDescriptor, b []byte, lazy bool) (*dynJSON, error) {
	if err := checkSize(len(b)); err != nil {
		return nil, err
	}
	md = s.resolve(md)
	// google.golang.org/protobuf reads tags of up to 10 bytes and nests
	// unknown groups 10,000 deep; protoplay does neither (MaxTagBytes,
	// MaxUnknownDepth), so the payload is checked first, and the wire view
	// says where it goes wrong.
	ok, keyTags := s.checkPayload(md, b)
	if !ok {
		if _, werr := s.WireView(md, b); werr != nil {
			return nil, werr
		}
	}
	if keyTags != nil {
		// A map entry's key field with the wrong wire type is an unknown
		// field of the entry, skipped, as generated code (protoc-gen-go's
		// and protoplay's) and C++ skip it; but the reflective decoder
		// dynamicpb uses (proto/decode.go, unmarshalMap) then sets the key
		// to an invalid value and panics when a well-typed key came before.
		// Renumbering those fields 1 -> 3 (bit 4 of the first byte of the tag,
		// and of a group's END_GROUP tag: the same length) makes them
		// unknown fields of the entry to it too.
		b = slices.Clone(b)
		for _, at := range keyTags {
			b[at] |= 0x10
		}
	}
	if err := s.checkAnyDepth(md, b); err != nil {
		return nil, err
	}
	m := dynamicpb.NewMessage(md)
	x := s.jsonOf(m)
	in := b
	if lazy && ok && keyTags == nil {
		x.lazy, x.raw = true, b
		in = stripLazy(md, b, make([]byte, 0, len(b)))
	}
	// Required fields are missingRequired's to check, which says where.
	err := s.unmarshalBinary(proto.UnmarshalOptions{Resolver: s.Types, RecursionLimit: MaxDepth, AllowPartial: true}, in, m)
	if err == nil {
		if err := missingRequired(m); err != nil {
			return nil, valueError(err)
		}
		if x.lazy {
			_, err = s.checkLazy(md, b, nil, "")
		}
		if err == nil {
			return x, nil
		}
	}
	// google.golang.org/protobuf says what but not where; the wire view
	// walks the same bytes and finds the offset and path.
	if _, werr := s.WireView(md, b); werr != nil {
		return nil, werr
	}
	if strings.Contains(err.Error(), "invalid UTF-8") {
		if e := s.utf8Error(md, b); e != nil {
			return nil, e
		}
	}
	return nil, valueError(err)
}

// FormatValue writes m as canonical JSON or text format, indented by two
// spaces and ending in a newline. JSON is what generated MarshalJSON
// writes for the same value (runtime/protojson, through a
// descriptor-driven adapter, with Multiline), and extensions as
// "[full.name]" members; text is what generated MarshalProtoText writes
// with Multiline and EmitUnknown (runtime/prototext, through the same
// adapter; text.go), and extensions as "[full.name]" fields.
func (s *Schema) FormatValue(m proto.Message, f Format) (out string, err error) {
	return s.formatValue(s.jsonOf(m.ProtoReflect()), f)
}

// formatValue is FormatValue of x's message (read with its bytes, if
// x.lazy).
func (s *Schema) formatValue(x *dynJSON, f Format) (out string, err error) {
	// Formatting an Any decodes its value with the reflective decoder,
	// which panics on a map entry whose key field has the wrong wire type
	// after a well-typed key (see Unmarshal): that is an error here.
	defer func() {
		if r := recover(); r != nil {
			out, err = "", diag.New(diag.KindValue, "google.golang.org/protobuf failed on a value inside a google.protobuf.Any: %v (use wire output)", r)
		}
	}()
	switch f {
	case JSON, "":
		j, err := s.marshalJSON(x, pjson.MarshalOptions{Multiline: true})
		if err != nil {
			// ProtoJSON fails only on valid values it cannot write:
			// invalid UTF-8 where the schema allows it (proto2 strings,
			// utf8_validation = NONE), a google.protobuf.Value with no
			// kind set, an Any of an unknown type, a Timestamp or
			// Duration out of range. Say so, so that a valid payload
			// does not look rejected.
			e := valueError(err)
			var pe *pjson.Error
			if errors.As(err, &pe) {
				e.Message = pe.Msg
			}
			if strings.HasPrefix(e.Message, "google.protobuf.Any: unable to unmarshal") {
				// Not a valid value JSON cannot hold: an Any's value
				// bytes, opaque to the binary decoder, are not a message
				// of its type.
				e.Message += " (the bytes of the Any's value are not a message of that type: wire output shows them)"
				return "", e
			}
			e.Message += " (the value is valid, but JSON cannot represent it: use text or wire output)"
			return "", e
		}
		return ownString(append(j, '\n')), nil
	case Text:
		t, err := s.marshalText(x)
		if err != nil {
			e := valueError(err)
			var pe *ptext.Error
			if errors.As(err, &pe) {
				e.Message = pe.Msg
			}
			return "", e
		}
		if len(t) == 0 {
			return "\n", nil
		}
		return ownString(t), nil
	}
	return "", diag.New(diag.KindUsage, "unknown output format %q (want json or text)", string(f))
}

// ownString is b as a string without copying it: b is the output
// runtime/protojson or runtime/prototext Marshal just allocated, which
// nothing else holds or writes (for a large message, a copy would double
// the memory the output takes).
func ownString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// missingRequired returns an error naming the first required field of m,
// or of a message inside it, that is not set, with the path to the
// message that lacks it ("(in items[2].price)", as other payload errors
// give it; none for m itself); nil if there is none. It reads each
// field's Cardinality, so it also sees editions fields with
// field_presence = LEGACY_REQUIRED in files NewSchema could not rebuild
// with protodesc (a file with MessageSet messages, for one): protocompile's
// descriptors leave those out of RequiredNumbers, which is all
// google.golang.org/protobuf's own check reads. The message starts as
// protobuf-go's ("required field X not set").
func missingRequired(m protoreflect.Message) error {
	return missingRequiredIn(m, "")
}

func missingRequiredIn(m protoreflect.Message, path string) error {
	fields := m.Descriptor().Fields()
	for i := 0; i < fields.Len(); i++ {
		if fd := fields.Get(i); fd.Cardinality() == protoreflect.Required && !m.Has(fd) {
			if path != "" {
				return fmt.Errorf("required field %s not set (in %s)", fd.FullName(), path)
			}
			return fmt.Errorf("required field %s not set", fd.FullName())
		}
	}
	var err error
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		name := string(fd.Name())
		if fd.IsExtension() {
			name = "[" + string(fd.FullName()) + "]"
		}
		if path != "" {
			name = path + "." + name
		}
		switch {
		case fd.IsMap():
			if fd.MapValue().Message() != nil {
				v.Map().Range(func(k protoreflect.MapKey, mv protoreflect.Value) bool {
					key := k.String()
					if fd.MapKey().Kind() == protoreflect.StringKind {
						key = strconv.Quote(key)
					}
					err = missingRequiredIn(mv.Message(), name+"["+key+"]")
					return err == nil
				})
			}
		case fd.Message() == nil:
		case fd.IsList():
			for j, l := 0, v.List(); j < l.Len() && err == nil; j++ {
				err = missingRequiredIn(l.Get(j).Message(), name+"["+strconv.Itoa(j)+"]")
			}
		default:
			err = missingRequiredIn(v.Message(), name)
		}
		return err == nil
	})
	return err
}

// typed reports whether input, read as hex or base64, is plainly typed
// text: its bytes are split by spaces, commas or colons, or prefixed 0x
// or \x, which binary that happens to be of those alphabets rarely is.
// Errors in it need no note that it might have been binary.
func typed(input []byte) bool {
	t := bytes.TrimSpace(input)
	return bytes.ContainsAny(t, " \t\n,:") || bytes.Contains(t, []byte("0x")) || bytes.Contains(t, []byte(`\x`))
}

// ViewInput parses input written in enc and returns the bytes and the
// encoding read, with view's listing of them, for one message (not a
// stream). Under Auto it follows DecodeEach's rule: untyped text that
// does not parse, does not view cleanly, or (given a type) reads as
// empty from whitespace is viewed as the bytes given, and taken so when
// that view has no error and no field its type does not declare. A parse
// error is returned as ParseBinary gives it, with no view.
func ViewInput(input []byte, enc Encoding, view func([]byte) (*View, error)) ([]byte, Encoding, *View, error) {
	b, used, err := ParseBinary(input, enc)
	auto := enc == Auto || enc == ""
	if err != nil {
		if e := AsError(err); !auto || e.Kind != diag.KindEncoding || typed(input) {
			return nil, "", nil, err
		}
	}
	var v *View
	var verr error
	if err == nil {
		v, verr = view(b)
		// Whitespace that reads as no bytes may be a message of a type
		// (with no schema, nothing says so).
		blank := len(b) == 0 && len(input) > 0 && v != nil && v.Type != ""
		if !auto || used == Binary || (verr == nil && !blank) || (typed(input) && !blank) {
			return b, used, v, verr
		}
	}
	if vb, berr := view(input); berr == nil && vb.Error == nil && !anyUnknown(vb.Fields) {
		return input, Binary, vb, nil
	}
	if err != nil {
		return nil, "", nil, err
	}
	return b, used, v, verr
}

// anyUnknown reports whether a field of fs, or of their children, has a
// number its message type does not declare.
func anyUnknown(fs []Field) bool {
	for _, f := range fs {
		if f.Unknown || anyUnknown(f.Children) {
			return true
		}
	}
	return false
}
