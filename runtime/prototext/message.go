// Package prototext is the runtime of protoplay's generated protobuf text
// format (https://protobuf.dev/reference/protobuf/textformat-spec/), the
// human-readable form of a message: name: value pairs, nested messages in
// braces. It uses only the standard library and protoplay's runtime: no
// reflection and no type registry.
//
// Most programs call the methods protoplay generates on every message:
//
//	s := m.String()                     // compact, for people and logs
//	b, err := m.MarshalText()           // compact; encoding.TextMarshaler
//	err = m.UnmarshalText(b)            // replaces m; encoding.TextUnmarshaler
//	b, err = m.MarshalProtoText(prototext.MarshalOptions{Multiline: true})
//	err = m.UnmarshalProtoText(b, prototext.UnmarshalOptions{DiscardUnknown: true})
//
// The methods call [Marshal], [Unmarshal] and [Format] with the message's
// generated EncodeProtoText and DecodeProtoText, which drive an [Encoder]
// and a [Decoder] field by field. [MarshalOptions] and [UnmarshalOptions]
// mirror the fields of the same names in
// google.golang.org/protobuf/encoding/prototext (the oracle of this
// package's tests), and the output is prototext's, whitespace aside.
//
// A google.protobuf.Any is written in the expanded form
// [type.googleapis.com/pkg.Msg] { ... } when the options' Resolver (a
// protojson.Resolver: the generated NewMessage_<path> functions serve both
// formats) knows its type, and read in either form.
//
// Input errors are *[Error] values with the byte offset, line and column,
// wrapping one of [ErrSyntax], [ErrUnknownField], [ErrDuplicate],
// [ErrInvalidValue], [ErrDepth] or [ErrUnsupported]. The intended
// differences from prototext are listed in the repository's
// docs/json-text.md.
package prototext

import "github.com/protoplay/protoplay/runtime/protojson"

// Generated is what Marshal and Unmarshal need of a message: the methods
// protoplay generates for every message type (on *M).
type Generated interface {
	// EncodeProtoText writes the message's fields (without braces) in
	// declaration order; a nil message writes nothing. It does not check
	// required fields.
	EncodeProtoText(e *Encoder) error
	// DecodeProtoText reads one message: for the outermost message the
	// fields up to the end of input, for a nested one '{' or '<', the
	// fields and the matching close. It does not check required fields.
	DecodeProtoText(d *Decoder) error
	// CheckInitialized reports a required field not set (wire.ErrRequired).
	CheckInitialized() error
	// Reset clears the message.
	Reset()
}

// Message is what the expanded form of google.protobuf.Any needs of the
// message it holds: its text-format methods and its wire encoding. Every
// protoplay-generated message type, used through a pointer, implements it
// (the messages a protojson.Resolver makes are type-asserted to it).
type Message interface {
	EncodeProtoText(e *Encoder) error
	DecodeProtoText(d *Decoder) error
	Marshal() ([]byte, error)
	Unmarshal(b []byte) error
}

// Marshal returns m in the text format: compact (fields separated by one
// space) unless o.Multiline or o.Indent, fields in declaration order, map
// entries in key order; a nil m is empty. It is the body of every
// generated MarshalProtoText (and, through MarshalResolving, of MarshalText).
// Errors: an Indent of other than spaces and tabs, invalid UTF-8 in a
// string field that checks it (ErrUTF8) and (unless o.AllowPartial) a
// required field not set (wire.ErrRequired, see CheckInitialized).
func Marshal(m Generated, o MarshalOptions) ([]byte, error) {
	e, err := NewEncoder(nil, o)
	if err != nil {
		return nil, err
	}
	if err := m.EncodeProtoText(e); err != nil {
		return nil, err
	}
	out := e.Bytes()
	if e.indent != "" && len(out) > 0 {
		out = append(out, '\n')
	}
	if !o.AllowPartial {
		if err := m.CheckInitialized(); err != nil {
			return nil, err
		}
	}
	if out == nil {
		out = []byte{}
	}
	return out, nil
}

// MarshalResolving is Marshal with the zero options but r as their
// Resolver: the body of every generated MarshalText, r being the
// NewMessage_ function of the message's .proto file.
func MarshalResolving(m Generated, r protojson.ResolverFunc) ([]byte, error) {
	return Marshal(m, MarshalOptions{Resolver: r})
}

// UnmarshalResolving is Unmarshal with the zero options but r as their
// Resolver: the body of every generated UnmarshalText, r being the
// NewMessage_ function of the message's .proto file.
func UnmarshalResolving(b []byte, m Generated, r protojson.ResolverFunc) error {
	return Unmarshal(b, m, UnmarshalOptions{Resolver: r})
}

// Format returns m in the compact text format for people to read, as
// protoc-gen-go's String methods do (prototext.MarshalOptions.Format):
// required fields are not checked, invalid UTF-8 is escaped instead of
// failing, unknown fields are written (EmitUnknown) and an Any is
// expanded when r (which may be nil) knows its type. It is the body of
// every generated String method.
func Format(m Generated, r protojson.Resolver) string {
	o := MarshalOptions{AllowPartial: true, EmitUnknown: true, Resolver: r, allowInvalidUTF8: true}
	e, _ := NewEncoder(nil, o)
	if err := m.EncodeProtoText(e); err != nil {
		return "<error: " + err.Error() + ">"
	}
	return string(e.Bytes())
}

// Unmarshal replaces m with the text-format message in b. It is the body
// of every generated UnmarshalProtoText (and, through UnmarshalResolving,
// of UnmarshalText). Errors are *Error values with the byte offset and
// line:column of the problem (syntax, unknown or duplicate field, invalid
// value, nesting deeper than o.RecursionLimit); then, unless
// o.AllowPartial, a required field not set (wire.ErrRequired).
func Unmarshal(b []byte, m Generated, o UnmarshalOptions) error {
	m.Reset()
	d := NewDecoder(b, o)
	if err := m.DecodeProtoText(d); err != nil {
		return err
	}
	if o.AllowPartial {
		return nil
	}
	return m.CheckInitialized()
}
