package protojson

import "sync"

// Generated is what Marshal and Unmarshal need of a message: the methods
// protoplay generates for every message type (on *M).
type Generated interface {
	// EncodeProtoJSON writes the message as one JSON object; a nil
	// message is an empty one. It does not check required fields.
	EncodeProtoJSON(e *Encoder) error
	// DecodeProtoJSON reads one JSON object into the message, setting the
	// fields it names (by JSON name or proto name) and leaving the others.
	// It does not check required fields.
	DecodeProtoJSON(d *Decoder) error
	// CheckInitialized reports a required field not set (wire.ErrRequired).
	CheckInitialized() error
	// Reset clears the message.
	Reset()
}

// Marshal returns m in ProtoJSON (protobuf.dev/programming-guides/json),
// compact, fields in declaration order; a nil m is {}. It is the body of
// every generated MarshalProtoJSON (and, with the zero options, of
// MarshalJSON). Errors: a string holding invalid UTF-8, a well-known type
// outside its range, and (unless o.AllowPartial) a required field not set
// (wire.ErrRequired, see CheckInitialized).
//
// Under o.Multiline (or a non-empty o.Indent) the output is indented as
// protojson's: a newline and one indent per level before every member and
// element, a space after each colon, {} and [] for empty objects and
// arrays, and no newline at the end (protojson also puts a second space,
// at random, after some colons: protoplay never does). An Indent with a
// character other than space and tab is an error (ErrInvalidValue).
//
// The JSON is written into a buffer kept for reuse (up to maxPooledBuffer
// bytes) and copied out at its exact length, so a Marshal allocates once
// for the result.
func Marshal(m Generated, o MarshalOptions) ([]byte, error) {
	indent := o.Indent
	for i := 0; i < len(indent); i++ {
		if indent[i] != ' ' && indent[i] != '\t' {
			return nil, EncodeError(ErrInvalidValue, "indent may only be composed of space or tab characters")
		}
	}
	if o.Multiline && indent == "" {
		indent = "  "
	}
	e, _ := encoders.Get().(*Encoder)
	if e == nil {
		e = new(Encoder)
	}
	e.buf, e.start, e.opts = e.buf[:0], 0, o
	defer releaseEncoder(e)
	if err := m.EncodeProtoJSON(e); err != nil {
		return nil, err
	}
	if !o.AllowPartial {
		if err := m.CheckInitialized(); err != nil {
			return nil, err
		}
	}
	if indent != "" {
		// Sized once, with a byte to spare for a caller that ends the
		// output with a newline (protoplay decode does).
		return appendIndented(make([]byte, 0, indentedLen(e.buf, len(indent))+1), e.buf, indent), nil
	}
	return append(make([]byte, 0, len(e.buf)), e.buf...), nil
}

// maxPooledBuffer is the largest buffer Marshal keeps for reuse, in bytes.
const maxPooledBuffer = 1 << 20

// encoders holds the Encoders Marshal reuses, with their buffers.
var encoders sync.Pool

func releaseEncoder(e *Encoder) {
	if cap(e.buf) > maxPooledBuffer {
		return
	}
	e.opts = MarshalOptions{} // drop the Resolver
	encoders.Put(e)
}

// indentedLen is the length appendIndented adds for src with an indent
// of indentLen bytes, so that Marshal allocates the multiline form once
// (growing it by append cost twice its size for large messages).
func indentedLen(src []byte, indentLen int) int {
	n, depth := 0, 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '"':
			j := i + 1
			for ; j < len(src) && src[j] != '"'; j++ {
				if src[j] == '\\' {
					j++
				}
			}
			n += min(j+1, len(src)) - i
			i = j
		case '{', '[':
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				n += 2
				i++
				continue
			}
			depth++
			n += 2 + depth*indentLen
		case '}', ']':
			depth--
			n += 2 + max(depth, 0)*indentLen
		case ',':
			n += 2 + depth*indentLen
		case ':':
			n += 2
		default:
			n++
		}
	}
	return n
}

// appendIndented appends src, compact JSON as the Encoder writes it, to
// dst in protojson's multiline form with the given indent.
func appendIndented(dst, src []byte, indent string) []byte {
	depth := 0
	newline := func() {
		dst = append(dst, '\n')
		for range depth {
			dst = append(dst, indent...)
		}
	}
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '"':
			j := i + 1
			for ; j < len(src) && src[j] != '"'; j++ {
				if src[j] == '\\' {
					j++
				}
			}
			dst = append(dst, src[i:j+1]...)
			i = j
		case '{', '[':
			dst = append(dst, c)
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				dst = append(dst, src[i+1])
				i++
				continue
			}
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			dst = append(dst, c)
		case ',':
			dst = append(dst, ',')
			newline()
		case ':':
			dst = append(dst, ':', ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// Unmarshal replaces m with the ProtoJSON message in b. It is the body of
// every generated UnmarshalProtoJSON (and, with the zero options, of
// UnmarshalJSON). Errors are *Error values with the byte offset and
// line:column of the problem (syntax, unknown or duplicate field, invalid
// value, nesting deeper than o.RecursionLimit); then, unless
// o.AllowPartial, a required field not set (wire.ErrRequired).
func Unmarshal(b []byte, m Generated, o UnmarshalOptions) error {
	m.Reset()
	d, _ := decoders.Get().(*Decoder)
	if d == nil {
		d = new(Decoder)
	}
	d.init(b, o)
	defer releaseDecoder(d)
	if err := m.DecodeProtoJSON(d); err != nil {
		return err
	}
	if err := d.End(); err != nil {
		return err
	}
	if o.AllowPartial {
		return nil
	}
	return m.CheckInitialized()
}

// decoders holds the Decoders Unmarshal reuses (their scratch buffers;
// their allocation state is cleared, as the decoded values own it).
var decoders sync.Pool

func releaseDecoder(d *Decoder) {
	if cap(d.scratch) > maxPooledBuffer {
		d.scratch = nil
	}
	d.reset()
	decoders.Put(d)
}
