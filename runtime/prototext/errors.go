package prototext

import (
	"errors"
	"strconv"

	"github.com/protoplay/protoplay/runtime/wire"
)

// Sentinel errors. Every error the Decoder and Encoder return is an [*Error]
// wrapping one of these; test for them with errors.Is.
var (
	// ErrSyntax: the input is not text format (the token grammar of
	// protobuf.dev/reference/protobuf/textformat-spec), or ends early.
	ErrSyntax = errors.New("syntax error")
	// ErrUnknownField: a field name (or number, or [extension]) the
	// message does not declare, and UnmarshalOptions.DiscardUnknown is not
	// set; also a field given by its number, which the text format allows
	// but protobuf's parsers reject.
	ErrUnknownField = errors.New("unknown field")
	// ErrDuplicate: a non-repeated field given twice, two members of one
	// oneof, or a map entry's key or value given twice.
	ErrDuplicate = errors.New("duplicate field")
	// ErrInvalidValue: a value of the wrong kind or out of range for its
	// field (a string for an int32, 2^31 for an int32, 1.5 for an integer,
	// an enum name the enum does not declare, invalid UTF-8 in a string
	// field that checks it, ...).
	ErrInvalidValue = errors.New("invalid value")
	// ErrDepth is wire.ErrDepth: messages nested deeper than the limit.
	ErrDepth = wire.ErrDepth
	// ErrUTF8: a string to write holds invalid UTF-8 and its field checks
	// UTF-8 (proto3, editions utf8_validation = VERIFY).
	ErrUTF8 = errors.New("invalid UTF-8")
	// ErrUnsupported: a form protoplay does not handle (see Error.Msg).
	ErrUnsupported = errors.New("unsupported")
)

// Error is a text-format decoding or encoding error. For decoding errors
// Offset is the byte offset of the offending token in the input and Line
// and Column its 1-based position (columns count runes, as prototext's
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
		return "prototext: " + e.Msg
	}
	return "prototext: line " + strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Column) +
		" (byte " + strconv.Itoa(e.Offset) + "): " + e.Msg
}

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }

// EncodeError returns an encoding error (no position) wrapping sentinel.
func EncodeError(sentinel error, msg string) error {
	return &Error{Offset: -1, Err: sentinel, Msg: msg}
}
