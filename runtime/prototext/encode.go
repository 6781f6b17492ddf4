package prototext

import (
	"math"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/protoplay/protoplay/runtime/protojson"
	"github.com/protoplay/protoplay/runtime/wire"
)

// MarshalOptions are the options of generated MarshalProtoText methods.
// They mirror the fields of the same names in
// google.golang.org/protobuf/encoding/prototext.MarshalOptions. The zero
// value (compact, one line) is what MarshalText uses.
type MarshalOptions struct {
	// Multiline writes one field per line, nested messages indented by
	// Indent ("  " when empty), with a newline at the end.
	Multiline bool
	// Indent is the indentation of one level in multiline output: spaces
	// and tabs only. A non-empty Indent implies Multiline.
	Indent string
	// EmitASCII escapes every non-ASCII character of strings as \uXXXX or
	// \UXXXXXXXX, so that the output is ASCII.
	EmitASCII bool
	// AllowPartial skips the required-field check that otherwise follows a
	// successful marshal.
	AllowPartial bool
	// EmitUnknown writes the unknown fields a message holds, after its
	// declared fields, by field number: varints as decimal numbers,
	// fixed32 and fixed64 as hex literals, LEN as strings, groups as
	// messages (the form prototext writes; it does not read back).
	EmitUnknown bool
	// Resolver makes the messages that google.protobuf.Any values hold, so
	// that they are written in the expanded form
	// [type.googleapis.com/pkg.Msg] { ... }; without one, or for a type it
	// does not know, an Any is written as its type_url and value fields.
	Resolver protojson.Resolver
	// Extensions are the extensions written, as "[full.name]" fields, when
	// a message holds them (see Encoder.Extensions); the others stay
	// unknown fields. Generated files declare the list of their own
	// extensions as Extensions_<file>.
	Extensions []*wire.Extension

	// allowInvalidUTF8 is set by Format (String methods).
	allowInvalidUTF8 bool
}

// Encoder appends the text format to a byte slice. Generated
// EncodeProtoText methods drive it: each value is written with its field
// name; the Encoder places the spaces, newlines and indentation. The zero
// value is not usable; use [NewEncoder].
type Encoder struct {
	buf     []byte
	indent  string
	indents []byte
	last    uint8
	opts    MarshalOptions
}

// what was written last (Encoder.last).
const (
	wNone uint8 = iota
	wName
	wScalar
	wOpen
	wClose
)

// NewEncoder returns an Encoder that appends to buf with the options o.
// An Indent holding other than spaces and tabs is an error.
func NewEncoder(buf []byte, o MarshalOptions) (*Encoder, error) {
	if o.Multiline && o.Indent == "" {
		o.Indent = "  "
	}
	if strings.Trim(o.Indent, " \t") != "" {
		return nil, EncodeError(ErrInvalidValue, "indent may only be composed of space and tab characters")
	}
	return &Encoder{buf: buf, indent: o.Indent, opts: o}, nil
}

// Bytes returns the buffer: the buf given to NewEncoder with the text
// written so far appended.
func (e *Encoder) Bytes() []byte { return e.buf }

// Options returns the options the encoder was made with.
func (e *Encoder) Options() MarshalOptions { return e.opts }

// EncoderState is a position of an Encoder, to go back to (see Snapshot).
type EncoderState struct {
	n, indents int
	last       uint8
}

// Snapshot returns the encoder's position.
func (e *Encoder) Snapshot() EncoderState {
	return EncoderState{len(e.buf), len(e.indents), e.last}
}

// Restore drops what was written after s was taken.
func (e *Encoder) Restore(s EncoderState) {
	e.buf, e.indents, e.last = e.buf[:s.n], e.indents[:s.indents], s.last
}

// prepare writes the space or newline and indentation before next.
func (e *Encoder) prepare(next uint8) {
	defer func() { e.last = next }()
	if e.indent == "" {
		if (e.last == wScalar || e.last == wClose) && next == wName {
			e.buf = append(e.buf, ' ')
		}
		return
	}
	switch {
	case e.last == wName:
		e.buf = append(e.buf, ' ')
	case e.last == wOpen && next != wClose:
		e.indents = append(e.indents, e.indent...)
		e.buf = append(e.buf, '\n')
		e.buf = append(e.buf, e.indents...)
	case e.last == wScalar || e.last == wClose:
		if next == wClose {
			e.indents = e.indents[:len(e.indents)-len(e.indent)]
		}
		e.buf = append(e.buf, '\n')
		e.buf = append(e.buf, e.indents...)
	}
}

func (e *Encoder) name(s string) {
	e.prepare(wName)
	e.buf = append(e.buf, s...)
	e.buf = append(e.buf, ':')
}

// StartMessage writes "name: {" (the name of a message field, "[url]" for
// an expanded Any).
func (e *Encoder) StartMessage(name string) {
	e.name(name)
	e.prepare(wOpen)
	e.buf = append(e.buf, '{')
}

// EndMessage writes "}".
func (e *Encoder) EndMessage() {
	e.prepare(wClose)
	e.buf = append(e.buf, '}')
}

// Literal writes "name: s": s is written as is (an enum value name or
// number).
func (e *Encoder) Literal(name, s string) {
	e.name(name)
	e.prepare(wScalar)
	e.buf = append(e.buf, s...)
}

// Bool writes "name: true" or "name: false".
func (e *Encoder) Bool(name string, v bool) {
	e.name(name)
	e.prepare(wScalar)
	e.buf = strconv.AppendBool(e.buf, v)
}

// Int writes a signed integer in decimal.
func (e *Encoder) Int(name string, v int64) {
	e.name(name)
	e.prepare(wScalar)
	e.buf = strconv.AppendInt(e.buf, v, 10)
}

// Uint writes an unsigned integer in decimal.
func (e *Encoder) Uint(name string, v uint64) {
	e.name(name)
	e.prepare(wScalar)
	e.buf = strconv.AppendUint(e.buf, v, 10)
}

// Float32 writes v as the shortest decimal that reads back as the same
// float32 (strconv's 'g' form), or inf, -inf, nan.
func (e *Encoder) Float32(name string, v float32) {
	e.name(name)
	e.prepare(wScalar)
	e.buf = appendFloat(e.buf, float64(v), 32)
}

// Float64 writes v as Float32 does, for float64.
func (e *Encoder) Float64(name string, v float64) {
	e.name(name)
	e.prepare(wScalar)
	e.buf = appendFloat(e.buf, v, 64)
}

func appendFloat(out []byte, v float64, bitSize int) []byte {
	switch {
	case math.IsNaN(v):
		return append(out, "nan"...)
	case math.IsInf(v, 1):
		return append(out, "inf"...)
	case math.IsInf(v, -1):
		return append(out, "-inf"...)
	}
	return strconv.AppendFloat(out, v, 'g', -1, bitSize)
}

// ByteString writes b as a quoted string (see String).
func (e *Encoder) ByteString(name string, b []byte) {
	e.name(name)
	e.prepare(wScalar)
	e.buf = appendString(e.buf, string(b), e.opts.EmitASCII)
}

// String writes s as a double-quoted string: '"' and '\\' escaped, \n \r
// \t, other control characters, DEL, U+0080 to U+009F and bytes that are
// not UTF-8 as \xHH or \u00HH, and under EmitASCII every non-ASCII
// character as \uXXXX or \UXXXXXXXX.
func (e *Encoder) String(name, s string) {
	e.name(name)
	e.prepare(wScalar)
	e.buf = appendString(e.buf, s, e.opts.EmitASCII)
}

// StringUTF8 writes s as String does, for a field that checks UTF-8 (the
// field's full name is field): invalid UTF-8 is an ErrUTF8 error (except
// in Format's output).
func (e *Encoder) StringUTF8(name, s, field string) error {
	if !e.opts.allowInvalidUTF8 && !utf8.ValidString(s) {
		return EncodeError(ErrUTF8, "field "+field+" contains invalid UTF-8")
	}
	e.String(name, s)
	return nil
}

func appendString(out []byte, in string, ascii bool) []byte {
	out = append(out, '"')
	i := indexNeedEscapeString(in)
	in, out = in[i:], append(out, in[:i]...)
	for len(in) > 0 {
		r, n := utf8.DecodeRuneInString(in)
		switch {
		case r == utf8.RuneError && n == 1, r < ' ', r == '"', r == '\\', r == 0x7f:
			if r == utf8.RuneError && n == 1 {
				r = rune(in[0])
			}
			out = append(out, '\\')
			switch r {
			case '"', '\\':
				out = append(out, byte(r))
			case '\n':
				out = append(out, 'n')
			case '\r':
				out = append(out, 'r')
			case '\t':
				out = append(out, 't')
			default:
				out = append(out, 'x')
				out = append(out, "00"[1+(bits.Len32(uint32(r))-1)/4:]...)
				out = strconv.AppendUint(out, uint64(r), 16)
			}
			in = in[n:]
		case r >= utf8.RuneSelf && (ascii || r <= 0x9f):
			out = append(out, '\\')
			if r <= math.MaxUint16 {
				out = append(out, 'u')
				out = append(out, "0000"[1+(bits.Len32(uint32(r))-1)/4:]...)
			} else {
				out = append(out, 'U')
				out = append(out, "00000000"[1+(bits.Len32(uint32(r))-1)/4:]...)
			}
			out = strconv.AppendUint(out, uint64(r), 16)
			in = in[n:]
		default:
			i := indexNeedEscapeString(in[n:])
			in, out = in[n+i:], append(out, in[:n+i]...)
		}
	}
	return append(out, '"')
}

func indexNeedEscapeString(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c == '"' || c == '\'' || c == '\\' || c >= 0x7f {
			return i
		}
	}
	return len(s)
}

// Unknown writes the unknown fields u (a generated message's unknown
// field bytes) under EmitUnknown, and nothing otherwise: each as its field
// number and value, a LEN value that parses as a message in braces (see
// unknown). Malformed bytes end the output of u.
func (e *Encoder) Unknown(u *[]byte) {
	if !e.opts.EmitUnknown || u == nil {
		return
	}
	e.unknown(*u, wire.MaxUnknownGroupDepth)
}

// unknown writes the fields of b; depth is how many levels of groups and
// embedded messages are still allowed (wire.MaxUnknownGroupDepth for an
// unknown field, as generated Unmarshal accepts them). A LEN value that
// parses as a message (isMessage) is written as one, "5 { 1: 2 }", as
// protobuf's C++ TextFormat prints unknown fields, so that the output
// parses back against a schema that declares the field as a message (the
// conformance suite's MessageUnknownFields_Print); other LEN values are
// byte strings.
func (e *Encoder) unknown(b []byte, depth int) {
	for len(b) > 0 {
		num, typ, n := wire.ConsumeTag(b)
		if n < 0 {
			return
		}
		b = b[n:]
		name := strconv.Itoa(int(num))
		switch typ {
		case wire.VarintType:
			v, n := wire.ConsumeVarint(b)
			if n < 0 {
				return
			}
			e.Uint(name, v)
			b = b[n:]
		case wire.Fixed32Type:
			v, n := wire.ConsumeFixed32(b)
			if n < 0 {
				return
			}
			e.Literal(name, "0x"+strconv.FormatUint(uint64(v), 16))
			b = b[n:]
		case wire.Fixed64Type:
			v, n := wire.ConsumeFixed64(b)
			if n < 0 {
				return
			}
			e.Literal(name, "0x"+strconv.FormatUint(v, 16))
			b = b[n:]
		case wire.BytesType:
			v, n := wire.ConsumeBytes(b)
			if n < 0 {
				return
			}
			if depth > 0 && isMessage(v, depth) {
				e.StartMessage(name)
				e.unknown(v, depth-1)
				e.EndMessage()
			} else {
				e.ByteString(name, v)
			}
			b = b[n:]
		case wire.StartGroupType:
			v, n := wire.ConsumeGroup(num, b, depth)
			if n < 0 {
				return
			}
			e.StartMessage(name)
			e.unknown(v, depth-1)
			e.EndMessage()
			b = b[n:]
		default:
			return
		}
	}
}

// isMessage reports whether b, a LEN value, parses as a non-empty message:
// records with valid tags and wire types up to its end, groups matched
// within depth levels.
func isMessage(b []byte, depth int) bool {
	if len(b) == 0 {
		return false
	}
	for len(b) > 0 {
		num, typ, n := wire.ConsumeTag(b)
		if n < 0 {
			return false
		}
		m := wire.ConsumeFieldValue(num, typ, b[n:], depth-1)
		if m < 0 {
			return false
		}
		b = b[n+m:]
	}
	return true
}
