package protojson

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
func Marshal(m Generated, o MarshalOptions) ([]byte, error) {
	e := NewEncoder(nil, o)
	if err := m.EncodeProtoJSON(e); err != nil {
		return nil, err
	}
	if !o.AllowPartial {
		if err := m.CheckInitialized(); err != nil {
			return nil, err
		}
	}
	return e.Bytes(), nil
}

// Unmarshal replaces m with the ProtoJSON message in b. It is the body of
// every generated UnmarshalProtoJSON (and, with the zero options, of
// UnmarshalJSON). Errors are *Error values with the byte offset and
// line:column of the problem (syntax, unknown or duplicate field, invalid
// value, nesting deeper than o.RecursionLimit); then, unless
// o.AllowPartial, a required field not set (wire.ErrRequired).
func Unmarshal(b []byte, m Generated, o UnmarshalOptions) error {
	m.Reset()
	d := NewDecoder(b, o)
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
