package protojson

import (
	"encoding/base64"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/protoplay/protoplay/runtime/wire"
)

// MarshalOptions are the options of generated MarshalProtoJSON methods. They
// mirror the fields of the same names in
// google.golang.org/protobuf/encoding/protojson.MarshalOptions. The zero
// value is what MarshalJSON uses.
type MarshalOptions struct {
	// EmitUnpopulated writes fields that are not set: implicit-presence
	// scalars as their zero value, repeated fields as [], maps as {}, and
	// explicit-presence fields (proto2 optional, message fields) as null.
	// Members of oneofs, proto3 optional fields included, are never
	// written when not set.
	EmitUnpopulated bool
	// EmitDefaultValues writes implicit-presence scalars that are zero as
	// their zero value, and empty repeated fields and maps as [] and {},
	// but unlike EmitUnpopulated leaves out explicit-presence fields that
	// are not set (no null). EmitUnpopulated takes precedence.
	EmitDefaultValues bool
	// UseProtoNames writes field names as declared in the .proto file
	// (the text-format name for groups) instead of their json_name
	// (lowerCamelCase unless set explicitly).
	UseProtoNames bool
	// UseEnumNumbers writes enum values as JSON numbers instead of names.
	UseEnumNumbers bool
	// AllowPartial skips the required-field check that otherwise follows a
	// successful marshal.
	AllowPartial bool
	// Resolver makes the messages that google.protobuf.Any values hold;
	// without one, an Any with a type is an error (ErrUnsupported).
	Resolver Resolver
	// Extensions are the extensions written, as "[full.name]" members,
	// when a message holds them (see Encoder.Extensions); the others stay
	// unknown fields, which ProtoJSON does not write. Generated files
	// declare the list of their own extensions as Extensions_<file>.
	Extensions []*wire.Extension
	// Multiline writes the JSON over several lines, indented by Indent
	// (two spaces when Indent is empty); see Marshal for the form. It
	// applies to Marshal (and generated MarshalProtoJSON); an Encoder
	// always writes compact JSON.
	Multiline bool
	// Indent is the indentation of Multiline output, made of spaces and
	// tabs only; a non-empty Indent implies Multiline.
	Indent string
}

// Encoder appends one compact (no whitespace) JSON value to a byte slice.
// Generated EncodeProtoJSON methods drive it; it places the commas between
// object members and array elements itself, so callers only name members
// and write values. The zero value is not usable; use [NewEncoder].
type Encoder struct {
	buf   []byte
	start int // len(buf) when the encoder was made: no comma before the first value
	opts  MarshalOptions
}

// NewEncoder returns an Encoder that appends to buf with the options o.
func NewEncoder(buf []byte, o MarshalOptions) *Encoder {
	return &Encoder{buf: buf, start: len(buf), opts: o}
}

// Bytes returns the buffer: the buf given to NewEncoder with the JSON
// written so far appended.
func (e *Encoder) Bytes() []byte { return e.buf }

// Options returns the options the encoder was made with.
func (e *Encoder) Options() MarshalOptions { return e.opts }

// EmitUnpopulated reports Options().EmitUnpopulated: whether unset
// explicit-presence fields are written as null.
func (e *Encoder) EmitUnpopulated() bool { return e.opts.EmitUnpopulated }

// EmitDefaults reports whether zero implicit-presence scalars, empty
// repeated fields and empty maps are written: Options().EmitUnpopulated or
// Options().EmitDefaultValues.
func (e *Encoder) EmitDefaults() bool { return e.opts.EmitUnpopulated || e.opts.EmitDefaultValues }

// sep writes the comma that separates this value or member from the one
// before it in the same object or array.
func (e *Encoder) sep() {
	if n := len(e.buf); n > e.start {
		switch e.buf[n-1] {
		case '{', '[', ':':
		default:
			e.buf = append(e.buf, ',')
		}
	}
}

// StartObject writes '{'.
func (e *Encoder) StartObject() { e.sep(); e.buf = append(e.buf, '{') }

// EndObject writes '}'.
func (e *Encoder) EndObject() { e.buf = append(e.buf, '}') }

// StartArray writes '['.
func (e *Encoder) StartArray() { e.sep(); e.buf = append(e.buf, '[') }

// EndArray writes ']'.
func (e *Encoder) EndArray() { e.buf = append(e.buf, ']') }

// Name writes an object member's name and the colon after it: jsonName,
// or protoName under UseProtoNames, as a JSON string escaped as protojson
// escapes it ('"', '\\' and control characters; a json_name may hold any
// text).
func (e *Encoder) Name(jsonName, protoName string) {
	e.sep()
	name := jsonName
	if e.opts.UseProtoNames {
		name = protoName
	}
	if indexNeedEscape(name) == len(name) {
		e.buf = append(e.buf, '"')
		e.buf = append(e.buf, name...)
		e.buf = append(e.buf, '"', ':')
		return
	}
	// Escaped as protojson escapes names (a json_name may hold any
	// character). Bytes that are not UTF-8, which protojson refuses and
	// the generator does not accept in a json_name, become U+FFFD so that
	// the output stays JSON.
	e.buf, _ = appendString(e.buf, strings.ToValidUTF8(name, "\uFFFD"))
	e.buf = append(e.buf, ':')
}

// Key writes an arbitrary string as an object member's name (a map key or
// a Struct field name). It fails, as protojson does, on invalid UTF-8.
func (e *Encoder) Key(s string) error {
	e.sep()
	var err error
	e.buf, err = appendString(e.buf, s)
	e.buf = append(e.buf, ':')
	return err
}

// Null writes null.
func (e *Encoder) Null() { e.sep(); e.buf = append(e.buf, "null"...) }

// Bool writes true or false.
func (e *Encoder) Bool(v bool) {
	e.sep()
	e.buf = strconv.AppendBool(e.buf, v)
}

// Int32 writes v as a JSON number.
func (e *Encoder) Int32(v int32) { e.sep(); e.buf = strconv.AppendInt(e.buf, int64(v), 10) }

// Uint32 writes v as a JSON number.
func (e *Encoder) Uint32(v uint32) { e.sep(); e.buf = strconv.AppendUint(e.buf, uint64(v), 10) }

// Int64 writes v as a decimal JSON string ("-12"), as ProtoJSON writes
// int64, sint64 and sfixed64.
func (e *Encoder) Int64(v int64) {
	e.sep()
	e.buf = append(e.buf, '"')
	e.buf = strconv.AppendInt(e.buf, v, 10)
	e.buf = append(e.buf, '"')
}

// Uint64 writes v as a decimal JSON string, as ProtoJSON writes uint64 and
// fixed64.
func (e *Encoder) Uint64(v uint64) {
	e.sep()
	e.buf = append(e.buf, '"')
	e.buf = strconv.AppendUint(e.buf, v, 10)
	e.buf = append(e.buf, '"')
}

// Float32 writes v as protojson does for float fields (see Float64),
// with the shortest decimal that reads back as the same float32.
func (e *Encoder) Float32(v float32) { e.sep(); e.buf = appendFloat(e.buf, float64(v), 32) }

// Float64 writes v as protojson does: NaN, +Inf and -Inf as the strings
// "NaN", "Infinity" and "-Infinity"; other values as the shortest decimal
// that reads back as v, in exponent form below 1e-6 and from 1e21 in
// magnitude (encoding/json's rule); negative zero as -0.
func (e *Encoder) Float64(v float64) { e.sep(); e.buf = appendFloat(e.buf, v, 64) }

// String writes s as a JSON string, escaping '"', '\\' and the control
// characters below U+0020 (as \b \f \n \r \t or \u00XX) and nothing else.
// Invalid UTF-8 in s is an error wrapping ErrUTF8; the field names the
// field for the message (protojson rejects it for every string field).
func (e *Encoder) String(s string, field string) error {
	e.sep()
	var err error
	if e.buf, err = appendString(e.buf, s); err != nil {
		return &Error{Offset: -1, Err: ErrUTF8, Msg: "field " + field + " contains invalid UTF-8"}
	}
	return nil
}

// Bytes64 writes b as a JSON string in standard base64 with padding.
func (e *Encoder) Bytes64(b []byte) {
	e.sep()
	e.buf = append(e.buf, '"')
	e.buf = base64.StdEncoding.AppendEncode(e.buf, b)
	e.buf = append(e.buf, '"')
}

// Raw writes s, which must be one complete JSON value that needs no
// escaping (an enum value name, a formatted Timestamp).
func (e *Encoder) Raw(s string) { e.sep(); e.buf = append(e.buf, s...) }

// Quoted writes s between double quotes without escaping; s must need none
// (an enum value name, a formatted Timestamp or Duration).
func (e *Encoder) Quoted(s string) {
	e.sep()
	e.buf = append(e.buf, '"')
	e.buf = append(e.buf, s...)
	e.buf = append(e.buf, '"')
}

// Enum writes an enum value: its number under UseEnumNumbers or when name
// is "" (a number the enum does not declare), otherwise "name".
func (e *Encoder) Enum(v int32, name string) {
	if name == "" || e.opts.UseEnumNumbers {
		e.Int32(v)
		return
	}
	e.Quoted(name)
}

func appendString(out []byte, in string) ([]byte, error) {
	out = append(out, '"')
	i := indexNeedEscape(in)
	in, out = in[i:], append(out, in[:i]...)
	for len(in) > 0 {
		switch r, n := utf8.DecodeRuneInString(in); {
		case r == utf8.RuneError && n == 1:
			return out, ErrUTF8
		case r < ' ' || r == '"' || r == '\\':
			out = append(out, '\\')
			switch r {
			case '"', '\\':
				out = append(out, byte(r))
			case '\b':
				out = append(out, 'b')
			case '\f':
				out = append(out, 'f')
			case '\n':
				out = append(out, 'n')
			case '\r':
				out = append(out, 'r')
			case '\t':
				out = append(out, 't')
			default:
				out = append(out, 'u')
				out = append(out, "0000"[1+(bits.Len32(uint32(r))-1)/4:]...)
				out = strconv.AppendUint(out, uint64(r), 16)
			}
			in = in[n:]
		default:
			i := indexNeedEscape(in[n:])
			in, out = in[n+i:], append(out, in[:n+i]...)
		}
	}
	return append(out, '"'), nil
}

func indexNeedEscape(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < ' ' || c == '\\' || c == '"' || c >= utf8.RuneSelf {
			if c < utf8.RuneSelf {
				return i
			}
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				return i
			}
			i += n - 1
		}
	}
	return len(s)
}

func appendFloat(out []byte, n float64, bitSize int) []byte {
	switch {
	case math.IsNaN(n):
		return append(out, `"NaN"`...)
	case math.IsInf(n, +1):
		return append(out, `"Infinity"`...)
	case math.IsInf(n, -1):
		return append(out, `"-Infinity"`...)
	}
	f := byte('f')
	if abs := math.Abs(n); abs != 0 {
		if bitSize == 64 && (abs < 1e-6 || abs >= 1e21) ||
			bitSize == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			f = 'e'
		}
	}
	out = strconv.AppendFloat(out, n, f, -1, bitSize)
	if f == 'e' {
		// 1e-07 becomes 1e-7, as encoding/json writes it.
		n := len(out)
		if n >= 4 && out[n-4] == 'e' && out[n-3] == '-' && out[n-2] == '0' {
			out[n-2] = out[n-1]
			out = out[:n-1]
		}
	}
	return out
}

// KeyBool writes a bool map key as an object member's name: "true" or
// "false".
func (e *Encoder) KeyBool(k bool) {
	e.sep()
	e.buf = append(e.buf, '"')
	e.buf = strconv.AppendBool(e.buf, k)
	e.buf = append(e.buf, '"', ':')
}

// KeyInt writes a signed integer map key as an object member's name, in
// decimal.
func (e *Encoder) KeyInt(k int64) {
	e.sep()
	e.buf = append(e.buf, '"')
	e.buf = strconv.AppendInt(e.buf, k, 10)
	e.buf = append(e.buf, '"', ':')
}

// KeyUint writes an unsigned integer map key as an object member's name,
// in decimal.
func (e *Encoder) KeyUint(k uint64) {
	e.sep()
	e.buf = append(e.buf, '"')
	e.buf = strconv.AppendUint(e.buf, k, 10)
	e.buf = append(e.buf, '"', ':')
}
