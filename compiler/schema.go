package compiler

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/protoplay/protoplay/compiler/diag"
	"github.com/protoplay/protoplay/compiler/gogen"
	"github.com/protoplay/protoplay/compiler/payload"
)

// The payload side of the API: values and payloads of a compiled schema's
// message types, by full name. The work is compiler/payload's (on
// google.golang.org/protobuf's dynamic messages); these are its shapes.
type (
	// Format is a textual form of a message value: "json" (ProtoJSON) or
	// "text" (the text format).
	Format = payload.Format
	// Encoding is how a binary payload is written: "auto" (input only),
	// "binary", "hex" or "base64".
	Encoding = payload.Encoding
	// View is a wire view: a payload's fields, byte ranges and values as
	// the wire format has them (see payload.View).
	View = payload.View
	// Field is one field or packed element of a View (see payload.Field).
	Field = payload.Field
	// CheckResult is the outcome of the round-trip checks on one message
	// type (see Schema.Check).
	CheckResult = payload.CheckResult
	// Record is one message of a length-delimited stream.
	Record = payload.Record
	// DecodeOptions configures Schema.Decode.
	DecodeOptions = payload.DecodeOptions
	// Decoded is the result of Schema.Decode.
	Decoded = payload.Decoded
)

// Formats and encodings (see Format and Encoding).
const (
	JSON   = payload.JSON
	Text   = payload.Text
	Auto   = payload.Auto
	Binary = payload.Binary
	Hex    = payload.Hex
	Base64 = payload.Base64
)

// MaxInputBytes is the largest payload or value input accepted, in bytes
// (see payload.MaxInputBytes); larger input is an *Error of KindLimit.
const MaxInputBytes = payload.MaxInputBytes

// MaxTextInputBytes is the longest hex or base64 text of a payload
// accepted (three characters per byte of MaxInputBytes).
const MaxTextInputBytes = payload.MaxTextInputBytes

// MaxViewFields is the most fields and packed elements a wire view lists;
// the rest are checked but left out, and the View says how many and from
// which byte (see payload.MaxViewFields).
const MaxViewFields = payload.MaxViewFields

// Message names one message type of a compiled schema, for a type picker.
type Message struct {
	// Name is the full name, "pkg.Outer.Inner".
	Name string `json:"name"`
	// File is the path of the .proto file that declares it.
	File string `json:"file"`
}

// Schema is the payload side of a successful compilation: every message
// type of its files and their imports, by full name. It is safe for
// concurrent use. Errors of its methods are *Error values (KindType for a
// name that is not a message type, with Suggestions).
type Schema struct {
	p *payload.Schema
}

// Schema returns the payload side of r, or an *Error of KindSchema when r
// has errors, or when a field of its files or their imports has a
// json_name that is not UTF-8, which no ProtoJSON value can carry (the
// error gen gives, see gogen.CheckJSONNames).
func (r *Result) Schema() (*Schema, error) {
	if err := r.Err(); err != nil {
		return nil, err
	}
	if ds := gogen.CheckJSONNames(append(slices.Clip(r.Files), ImportClosure(r.Files)...)); len(ds) > 0 {
		return nil, diag.Schema(ds)
	}
	p, err := payload.NewSchema(r.Files)
	if err != nil {
		return nil, err
	}
	return &Schema{p}, nil
}

// Messages lists the message types declared in the compiled files (not
// their imports), nested types included and map entries excluded, in
// declaration order.
func (s *Schema) Messages() []Message {
	out := []Message{}
	for _, md := range s.p.Messages() {
		out = append(out, Message{Name: string(md.FullName()), File: md.ParentFile().Path()})
	}
	return out
}

// Encode parses input, a value of message type typ in the in form (JSON
// when empty), and returns its binary encoding written in out (Binary
// when empty), deterministically (fields by number, map entries by key).
// See payload.Schema.Encode for the errors.
func (s *Schema) Encode(typ string, input []byte, in Format, out Encoding) ([]byte, error) {
	md, err := s.p.FindMessage(typ)
	if err != nil {
		return nil, err
	}
	return s.p.Encode(md, input, payload.EncodeOptions{In: in, Out: out})
}

// Decode reads input, a binary payload of message type typ (or a
// length-delimited stream of them) written in opt.In, and writes each
// message in opt.Out. See payload.Schema.Decode for the errors; on an
// error in a stream, the messages before it are returned too.
func (s *Schema) Decode(typ string, input []byte, opt DecodeOptions) (*Decoded, error) {
	md, err := s.p.FindMessage(typ)
	if err != nil {
		return nil, err
	}
	return s.p.Decode(md, input, opt)
}

// DecodeEach is Decode handing each message to emit as it is decoded
// instead of collecting them (see payload.Schema.DecodeEach): a stream of
// millions of records is decoded in the memory of one. It returns the
// input encoding used and the binary payload's size.
func (s *Schema) DecodeEach(typ string, input []byte, opt DecodeOptions, emit func(text string) error) (Encoding, int, error) {
	md, err := s.p.FindMessage(typ)
	if err != nil {
		return "", 0, err
	}
	return s.p.DecodeEach(md, input, opt, emit)
}

// WireView decodes payload, binary bytes of message type typ, into a wire
// view whose fields carry their names and values. A malformed payload
// still has a view of the fields before the fault, with the fault in
// View.Error, and the fault is returned too.
func (s *Schema) WireView(typ string, b []byte) (*View, error) {
	md, err := s.p.FindMessage(typ)
	if err != nil {
		return nil, err
	}
	return s.p.WireView(md, b)
}

// UnknownFieldsNote says which fields of b, binary bytes of message type
// typ, the type does not declare (or declares with another wire type):
// ProtoJSON has no place for them, so JSON output alone would hide that
// the bytes may be of another type or a newer schema. It counts them and
// names the first four by path, number and byte offset ("2 fields of the
// payload are not in a.Item (field 2 at byte 5, field items[1].7 at byte
// 12)"), from the wire view (which lists the first MaxViewFields fields),
// and returns how many there are; "" and 0 when there are none or b does
// not decode.
func (s *Schema) UnknownFieldsNote(typ string, b []byte) (string, int) {
	md, err := s.p.FindMessage(typ)
	if err != nil {
		return "", 0
	}
	v, err := s.p.WireView(md, b)
	if err != nil || v == nil {
		return "", 0
	}
	var found []string
	n := 0
	var walk func(fs []Field, md protoreflect.MessageDescriptor, path string)
	walk = func(fs []Field, md protoreflect.MessageDescriptor, path string) {
		seen := map[int32]int{}
		for _, f := range fs {
			i := seen[f.Number]
			seen[f.Number]++
			if f.Unknown {
				if n++; len(found) < 4 {
					found = append(found, fmt.Sprintf("field %s%d at byte %d", path, f.Number, f.Offset))
				}
				continue
			}
			fd := md.Fields().ByNumber(protoreflect.FieldNumber(f.Number))
			if fd == nil || f.Packed || len(f.Children) == 0 || fd.Message() == nil {
				continue // an extension's fields are not followed
			}
			// An element of a list or map gets its index, as in error
			// paths: items[1].7.
			elem := f.Name
			if fd.IsList() || fd.IsMap() {
				elem += "[" + strconv.Itoa(i) + "]"
			}
			walk(f.Children, fd.Message(), path+elem+".")
		}
	}
	walk(v.Fields, md, "")
	if n == 0 {
		return "", 0
	}
	more := ""
	if n > len(found) {
		more = fmt.Sprintf(" and %d more", n-len(found))
	}
	if n == 1 {
		return fmt.Sprintf("1 field of the payload is not in %s (%s)", typ, found[0]), 1
	}
	return fmt.Sprintf("%d fields of the payload are not in %s (%s%s)", n, typ, strings.Join(found, ", "), more), n
}

// Sample returns a value of message type typ with every field set (see
// payload.Sample), written in f.
func (s *Schema) Sample(typ string, f Format) (string, error) {
	md, err := s.p.FindMessage(typ)
	if err != nil {
		return "", err
	}
	return s.p.FormatValue(payload.Sample(md), f)
}

// Check runs the round-trip checks on the Sample of every message type of
// the schema (see payload.Schema.Check); one result per type, in
// declaration order.
func (s *Schema) Check() []CheckResult {
	return s.p.Check()
}

// DecodeRaw decodes b without a schema, as protoc --decode_raw does, into a
// wire view; LEN fields that parse as messages are shown as such. A
// malformed payload gives the view before the fault and the fault.
func DecodeRaw(b []byte) (*View, error) { return payload.DecodeRaw(b) }

// ParseBinary turns input written in enc into payload bytes and returns
// the encoding used (the detected one for Auto or ""). Errors are
// KindEncoding, positioned at the input byte, or KindLimit.
func ParseBinary(input []byte, enc Encoding) ([]byte, Encoding, error) {
	return payload.ParseBinary(input, enc)
}

// ViewInput parses input written in enc and lists one message of it
// with view (WireView or DecodeRaw), reading auto-detected text that does
// not list cleanly as the bytes given when those do (see
// payload.ViewInput). It returns the bytes listed and their encoding.
func ViewInput(input []byte, enc Encoding, view func([]byte) (*View, error)) ([]byte, Encoding, *View, error) {
	return payload.ViewInput(input, enc, view)
}

// FormatBinary writes b in enc (Binary, Hex or Base64).
func FormatBinary(b []byte, enc Encoding) ([]byte, error) { return payload.FormatBinary(b, enc) }

// SplitDelimited splits a length-delimited stream (each message preceded
// by its length as a varint) into its records; a bad prefix is a
// KindPayload error at its offset.
func SplitDelimited(b []byte) ([]Record, error) { return payload.SplitDelimited(b) }

// EachDelimited calls f with each record of a length-delimited stream in
// turn, holding none of them (see payload.EachDelimited).
func EachDelimited(b []byte, f func(Record) error) error { return payload.EachDelimited(b, f) }

// Listing renders a wire view of payload as an annotated byte-by-byte
// listing, one field per line, as `protoplay decode --out wire` prints it.
func Listing(v *View, b []byte) string { return payload.Listing(v, b) }

// asError returns err as an *Error: itself when it is one, else KindValue.
func asError(err error) *Error {
	if err == nil {
		return nil
	}
	return payload.AsError(err)
}
