package wire

import (
	"errors"
	"io"
	"strconv"
)

// Sentinel errors. Every decoding error that generated code returns is an
// [*Error] wrapping one of these; test for them with errors.Is.
var (
	// ErrTruncated: the input ends inside a tag, a varint, a fixed-width
	// value or a group. It wraps io.ErrUnexpectedEOF, so
	// errors.Is(err, io.ErrUnexpectedEOF) holds too. A LEN value whose length
	// runs past the end of the input is ErrLength, not ErrTruncated.
	ErrTruncated error = &wrapError{"unexpected end of input", io.ErrUnexpectedEOF}

	// ErrOverflow: a varint longer than 10 bytes, or whose 10th byte is
	// greater than 1, so that its value does not fit in 64 bits.
	ErrOverflow = errors.New("varint overflows 64 bits")

	// ErrTagOverlong: a tag written in more than MaxTagBytes (5) bytes,
	// the most a 32-bit varint takes. The C++ and upb parsers reject these;
	// google.golang.org/protobuf accepts tags of up to 10 bytes, so a
	// payload it reads, such as 88 80 80 80 80 80 80 80 00 d2 09 (field 1
	// = 1234 with a 9-byte tag), is an error here.
	ErrTagOverlong = errors.New("tag varint longer than 5 bytes")

	// ErrFieldNumber: a tag with field number 0 or above MaxValidNumber.
	ErrFieldNumber = errors.New("invalid field number")

	// ErrWireType: a tag with wire type 6 or 7, or an END_GROUP tag with no
	// START_GROUP before it.
	ErrWireType = errors.New("invalid wire type")

	// ErrLength: a LEN value whose length runs past the end of the input
	// (including lengths too large for int).
	ErrLength = errors.New("length past end of buffer")

	// ErrGroupMismatch: an END_GROUP tag whose field number differs from
	// that of the START_GROUP it closes.
	ErrGroupMismatch = errors.New("END_GROUP field number does not match START_GROUP")

	// ErrDepth: messages or groups nested deeper than the limit
	// (DefaultMaxDepth unless the caller chose another).
	ErrDepth = errors.New("nesting too deep")

	// ErrUTF8: a string field that requires valid UTF-8 holds invalid UTF-8.
	ErrUTF8 = errors.New("invalid UTF-8 in string field")

	// ErrRequired: a required field is not set.
	ErrRequired = errors.New("required field not set")

	// ErrValue: some other invalid value.
	ErrValue = errors.New("invalid value")
)

// wrapError is a sentinel with its own text that also matches another error.
type wrapError struct {
	msg  string
	base error
}

func (e *wrapError) Error() string { return e.msg }
func (e *wrapError) Unwrap() error { return e.base }

// Error codes returned as n < 0 by the Consume functions. They are an
// implementation detail: callers pass them to ErrorAt and nothing else.
const (
	_ = -iota
	errCodeTruncated
	errCodeOverflow
	errCodeFieldNumber
	errCodeWireType // wire type 6 or 7
	errCodeEndGroup // END_GROUP with no START_GROUP
	errCodeLength
	errCodeGroupMismatch
	errCodeDepth
	errCodeTagOverlong
	errCodeUTF8 // invalid UTF-8 in a string that must be valid (ConsumeValidString)
)

// Error is a failure to decode (or encode) a message: what went wrong, where
// in the input, and which field had been reached.
type Error struct {
	// Offset is the byte offset in the top-level input where the bad item
	// starts, or -1 when there is no input offset (for example when
	// encoding, or for a required field found missing at the end).
	Offset int
	// Path is the dotted field path reached, such as "inner.data" or
	// "items[3].name"; "" at the top level.
	Path string
	// Err is one of the sentinel errors of this package.
	Err error
	// Detail is optional extra text, such as the field name for ErrRequired
	// or ErrUTF8.
	Detail string
}

// Error returns text such as
//
//	protoplay: invalid wire data at byte 12 (field inner.data): length past end of buffer
func (e *Error) Error() string {
	s := "protoplay: "
	if e.Offset >= 0 {
		s += "invalid wire data at byte " + strconv.Itoa(e.Offset)
	} else {
		s += "invalid message"
	}
	if e.Path != "" {
		s += " (field " + e.Path + ")"
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// Unwrap returns e.Err, so that errors.Is(err, ErrLength) and the like work.
func (e *Error) Unwrap() error { return e.Err }

// ErrorAt turns code, a negative n returned by a Consume function, into an
// [*Error] at the given offset of the top-level input. offset should be where
// the failed Consume call started; for errors inside a group that is the
// start of the group's contents. ErrorAt returns nil if code >= 0.
func ErrorAt(offset int, code int) error {
	if code >= 0 {
		return nil
	}
	e := &Error{Offset: offset}
	switch code {
	case errCodeTruncated:
		e.Err = ErrTruncated
	case errCodeOverflow:
		e.Err = ErrOverflow
	case errCodeFieldNumber:
		e.Err = ErrFieldNumber
	case errCodeWireType:
		e.Err = ErrWireType
	case errCodeEndGroup:
		e.Err = ErrWireType
		e.Detail = "END_GROUP without START_GROUP"
	case errCodeLength:
		e.Err = ErrLength
	case errCodeGroupMismatch:
		e.Err = ErrGroupMismatch
	case errCodeDepth:
		e.Err = ErrDepth
	case errCodeTagOverlong:
		e.Err = ErrTagOverlong
	case errCodeUTF8:
		e.Err = ErrUTF8
	default:
		e.Err = ErrValue
	}
	return e
}

// Nest re-roots err, returned while decoding (or encoding) a value nested
// under the field named field, into the enclosing message. base is the byte
// offset of the nested value's first byte in the enclosing input: an
// *Error's Offset, if known, is shifted by it. A negative base (as when
// encoding) means there is no input offset, and the Offset becomes -1.
// field is put in front of the Path: a name, or an indexed name such as
// "items[3]". Nest modifies an *Error in place (each comes fresh from one
// call) and returns it; any other non-nil error is wrapped as an *Error with
// Offset base and Path field. Nest(nil, ...) is nil.
func Nest(err error, base int, field string) error {
	if err == nil {
		return nil
	}
	if base < 0 {
		base = -1
	}
	e, ok := err.(*Error)
	if !ok {
		return &Error{Offset: base, Path: field, Err: err}
	}
	switch {
	case base < 0:
		e.Offset = -1
	case e.Offset >= 0:
		e.Offset += base
	}
	switch {
	case field == "":
	case e.Path == "":
		e.Path = field
	case e.Path[0] == '[':
		e.Path = field + e.Path
	default:
		e.Path = field + "." + e.Path
	}
	return e
}

// EndGroupError is the error for an END_GROUP tag at offset that does not
// close the group being decoded: group is that group's field number, or 0
// when a message is being decoded as a LEN value or at top level, where no
// END_GROUP may appear (ErrWireType). Otherwise the tag closes another
// field's group (ErrGroupMismatch).
func EndGroupError(group int32, offset int) error {
	if group == 0 {
		return ErrorAt(offset, errCodeEndGroup)
	}
	return ErrorAt(offset, errCodeGroupMismatch)
}

// UnterminatedGroupError is the error for a group whose input ends, at
// offset, before its END_GROUP tag (ErrTruncated).
func UnterminatedGroupError(offset int) error {
	return ErrorAt(offset, errCodeTruncated)
}
