package protojson

import (
	"errors"
	"strconv"

	"github.com/protoplay/protoplay/runtime/wire"
)

// Sentinel errors. Every error the Decoder and Encoder return is an [*Error]
// wrapping one of these; test for them with errors.Is.
var (
	// ErrSyntax: the input is not JSON (RFC 8259), or ends early.
	ErrSyntax = errors.New("syntax error")
	// ErrUnknownField: an object member names no field of the message
	// (and UnmarshalOptions.DiscardUnknown is not set).
	ErrUnknownField = errors.New("unknown field")
	// ErrDuplicate: a field given twice (by either of its names), two
	// members of one oneof, or a map key given twice.
	ErrDuplicate = errors.New("duplicate field")
	// ErrInvalidValue: a JSON value of the wrong type or out of range for
	// its field (a string for a bool, 2^31 for an int32, "NaN" for an
	// integer, bad base64, an enum name the enum does not declare, a
	// Timestamp outside years 1 to 9999, ...).
	ErrInvalidValue = errors.New("invalid value")
	// ErrDepth is wire.ErrDepth: messages nested deeper than the limit.
	ErrDepth = wire.ErrDepth
	// ErrUTF8: a string to write holds invalid UTF-8.
	ErrUTF8 = errors.New("invalid UTF-8")
	// ErrUnsupported: a form protoplay does not handle (see Error.Msg).
	ErrUnsupported = errors.New("unsupported")
)

// Error is a ProtoJSON decoding or encoding error. For decoding errors
// Offset is the byte offset of the offending token in the input and Line
// and Column its 1-based position (columns count runes, as protojson's
// do); for encoding errors Offset is -1 and the position is unset.
type Error struct {
	Offset       int
	Line, Column int
	// Err is one of the sentinel errors of this package.
	Err error
	// Msg says what is wrong, naming the field or value.
	Msg string
}

func (e *Error) Error() string {
	if e.Offset < 0 {
		return "protojson: " + e.Msg
	}
	return "protojson: line " + strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Column) +
		" (byte " + strconv.Itoa(e.Offset) + "): " + e.Msg
}

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }

// EncodeError returns an encoding error (no position) wrapping sentinel.
func EncodeError(sentinel error, msg string) error {
	return &Error{Offset: -1, Err: sentinel, Msg: msg}
}
