package prototext

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/protoplay/protoplay/runtime/protojson"
	"github.com/protoplay/protoplay/runtime/wire"
)

// UnmarshalOptions are the options of generated UnmarshalProtoText methods.
// They mirror the fields of the same names in
// google.golang.org/protobuf/encoding/prototext.UnmarshalOptions. The zero
// value is what UnmarshalText uses.
type UnmarshalOptions struct {
	// DiscardUnknown skips fields that the message does not declare
	// (names, field numbers and [extension] names) instead of failing.
	DiscardUnknown bool
	// AllowPartial skips the required-field check that otherwise follows a
	// successful unmarshal.
	AllowPartial bool
	// Resolver makes the messages that google.protobuf.Any values hold in
	// their expanded form ([type.googleapis.com/pkg.Msg] { ... }); without
	// one, or for a type it does not know, the expanded form is an error.
	// The generated NewMessage_<file> functions, through
	// protojson.ResolverFunc, are resolvers for both ProtoJSON and text.
	Resolver protojson.Resolver
	// Extensions are the extensions read from "[full.name]" fields (see
	// Decoder.Extension); any other such name is an unknown field.
	// Generated files declare the list of their own extensions as
	// Extensions_<file>.
	Extensions []*wire.Extension
	// RecursionLimit is how deeply messages may nest, the outermost
	// counting 1 and each map entry 1; 0 means wire.DefaultMaxDepth (100),
	// the limit of the binary decoder.
	RecursionLimit int
}

// Decoder reads the text format for generated DecodeProtoText methods: a
// tokenizer as strict as prototext's (see token.go) with the conversions
// of the text format's scalar values. Errors are [*Error] values with the
// position of the offending token. A Decoder is not safe for concurrent
// use.
type Decoder struct {
	t     tokenizer
	opts  UnmarshalOptions
	depth int // how many more messages may be entered
	level int // messages entered
	// mapEntries has one bit per map value being read (MapStart to
	// MapEnd), innermost last: whether its entries' level was counted.
	mapEntries []bool
	name       token // the field name read last
	val        token // the scalar read last
}

// NewDecoder returns a Decoder reading b with the options o.
func NewDecoder(b []byte, o UnmarshalOptions) *Decoder {
	limit := o.RecursionLimit
	if limit == 0 {
		limit = wire.DefaultMaxDepth
	}
	return &Decoder{t: tokenizer{orig: b, in: b}, opts: o, depth: limit}
}

// Options returns the options the decoder was made with.
func (d *Decoder) Options() UnmarshalOptions { return d.opts }

// Position returns the 1-based line and column (in runes) of byte offset
// off of the input.
func (d *Decoder) Position(off int) (line, column int) { return d.t.Position(off) }

// ErrorAt returns an *Error at byte offset off wrapping sentinel.
func (d *Decoder) ErrorAt(off int, sentinel error, msg string) error {
	return d.t.errorAt(off, sentinel, msg)
}

// NameOffset is the byte offset of the field name read last.
func (d *Decoder) NameOffset() int { return d.name.pos }

func (d *Decoder) unexpected(tok token) error {
	if tok.kind == tEOF {
		return d.t.eof()
	}
	return d.t.errorAt(tok.pos, ErrSyntax, "unexpected token: "+string(tok.raw))
}

// MessageStart begins a message: every DecodeProtoText calls it first and
// Leave when done. It counts one more level of nesting (beyond the limit
// it fails with ErrDepth) and, for a message inside another, reads its
// opening '{' or '<'. The outermost message has no delimiters: it ends
// with the input.
func (d *Decoder) MessageStart() error {
	if err := d.enter(); err != nil {
		return err
	}
	if d.level > 0 {
		tok, err := d.t.read()
		if err != nil {
			return err
		}
		if tok.kind != tMessageOpen {
			return d.unexpected(tok)
		}
	}
	d.level++
	return nil
}

func (d *Decoder) enter() error {
	d.depth--
	if d.depth < 0 {
		return d.t.errorAt(d.t.off(), ErrDepth, "exceeded maximum recursion depth")
	}
	return nil
}

// Leave undoes MessageStart.
func (d *Decoder) Leave() { d.depth++; d.level-- }

// Next reads the next field name of the message begun last, and the ':'
// after it if any. It returns "" at the end of the message (its closing
// delimiter, or the end of input for the outermost message); an
// identifier as written; a field given by number as its decimal number
// ("12"); an extension or Any type name in brackets, spaces and comments
// removed ("[type.googleapis.com/pkg.Msg]"). A field number outside 1 to
// 2^29-1 is an error.
func (d *Decoder) Next() (string, error) {
	tok, err := d.t.read()
	if err != nil {
		return "", err
	}
	switch tok.kind {
	case tName:
		d.name = tok
		switch {
		case tok.attrs&nameIdent != 0:
			return string(tok.raw), nil
		case tok.attrs&nameType != 0:
			return "[" + tok.str + "]", nil
		}
		n, _ := strconv.ParseInt(tok.str, 10, 32)
		if n < 1 || n > 1<<29-1 {
			return "", d.t.errorAt(tok.pos, ErrInvalidValue, "invalid field number: "+tok.str)
		}
		return tok.str, nil
	case tEOF:
		if d.level > 1 {
			return "", d.t.eof()
		}
		return "", nil
	case tMessageClose:
		if d.level > 1 {
			return "", nil
		}
	}
	return "", d.unexpected(tok)
}

// Mark records that the non-repeated field with index bit was read; a
// second time is an ErrDuplicate error.
func (d *Decoder) Mark(seen []uint64, bit int) error {
	w, m := bit/64, uint64(1)<<(bit%64)
	if seen[w]&m != 0 {
		return d.t.errorAt(d.name.pos, ErrDuplicate, "non-repeated field \""+string(d.name.raw)+"\" is repeated")
	}
	seen[w] |= m
	return nil
}

// MarkOneof records that a member of the oneof with index bit was read; a
// second member is an ErrDuplicate error.
func (d *Decoder) MarkOneof(seen []uint64, bit int, oneof string) error {
	w, m := bit/64, uint64(1)<<(bit%64)
	if seen[w]&m != 0 {
		return d.t.errorAt(d.name.pos, ErrDuplicate, "error parsing \""+string(d.name.raw)+"\", oneof "+oneof+" is already set")
	}
	seen[w] |= m
	return nil
}

// Unknown handles a field name the message does not declare: under
// DiscardUnknown its value is skipped, otherwise it is an ErrUnknownField
// error.
func (d *Decoder) Unknown() error {
	if d.opts.DiscardUnknown {
		return d.skipValue()
	}
	return d.t.errorAt(d.name.pos, ErrUnknownField, "unknown field: "+string(d.name.raw))
}

// Skip skips the value of the field named last (a reserved name, which
// prototext accepts and ignores).
func (d *Decoder) Skip() error { return d.skipValue() }

// ByNumber is the error for a declared field given by its number, which
// prototext does not accept.
func (d *Decoder) ByNumber() error {
	return d.t.errorAt(d.name.pos, ErrUnknownField, "cannot specify field by number: "+string(d.name.raw))
}

// skipValue skips one field value: a scalar, a message or a list.
func (d *Decoder) skipValue() error {
	tok, err := d.t.read()
	if err != nil {
		return err
	}
	switch tok.kind {
	case tMessageOpen:
		return d.skipMessage()
	case tListOpen:
		for {
			tok, err := d.t.read()
			if err != nil {
				return err
			}
			switch tok.kind {
			case tListClose:
				return nil
			case tMessageOpen:
				if err := d.skipMessage(); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (d *Decoder) skipMessage() error {
	for {
		tok, err := d.t.read()
		if err != nil {
			return err
		}
		switch tok.kind {
		case tMessageClose:
			return nil
		case tName:
			if err := d.skipValue(); err != nil {
				return err
			}
		}
	}
}

// checkSep fails when a scalar value follows the field name read last
// without ':'.
func (d *Decoder) checkSep() error {
	if d.t.last.kind == tName && !d.t.peeked && d.t.last.attrs&hasSeparator == 0 {
		return d.t.errorAt(d.t.last.pos, ErrSyntax, "missing field separator :")
	}
	return nil
}

// scalar reads a scalar value token.
func (d *Decoder) scalar() (token, error) {
	if err := d.checkSep(); err != nil {
		return token{}, err
	}
	tok, err := d.t.read()
	if err != nil {
		return token{}, err
	}
	if tok.kind != tScalar {
		return token{}, d.unexpected(tok)
	}
	d.val = tok
	return tok, nil
}

func (d *Decoder) invalid(tok token, kind string) error {
	return d.t.errorAt(tok.pos, ErrInvalidValue, "invalid value for "+kind+" type: "+string(tok.raw))
}

// InvalidValue returns an ErrInvalidValue error at the value read last.
func (d *Decoder) InvalidValue(msg string) error {
	return d.t.errorAt(d.val.pos, ErrInvalidValue, msg)
}

// Bool reads a bool: true, True, t, false, False, f, or an integer 0 or 1.
func (d *Decoder) Bool() (bool, error) {
	tok, err := d.scalar()
	if err != nil {
		return false, err
	}
	switch tok.attrs {
	case scalarLiteral:
		switch string(tok.raw) {
		case "true", "True", "t":
			return true, nil
		case "false", "False", "f":
			return false, nil
		}
	case scalarNumber:
		if n, err := strconv.ParseUint(tok.str, 0, 64); err == nil && n <= 1 {
			return n == 1, nil
		}
	}
	return false, d.invalid(tok, "bool")
}

func (d *Decoder) integer(kind string) (token, error) {
	tok, err := d.scalar()
	if err != nil {
		return tok, err
	}
	if tok.attrs != scalarNumber || tok.num&numFloat != 0 {
		return tok, d.invalid(tok, kind)
	}
	return tok, nil
}

// Int32 reads a decimal, hex (0x) or octal (leading 0) integer in int32
// range, possibly negative.
func (d *Decoder) Int32() (int32, error) {
	tok, err := d.integer("int32")
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(tok.str, 0, 32)
	if err != nil {
		return 0, d.invalid(tok, "int32")
	}
	return int32(n), nil
}

// Int64 reads an integer in int64 range (see Int32).
func (d *Decoder) Int64() (int64, error) {
	tok, err := d.integer("int64")
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(tok.str, 0, 64)
	if err != nil {
		return 0, d.invalid(tok, "int64")
	}
	return n, nil
}

// Uint32 reads a non-negative integer in uint32 range (see Int32).
func (d *Decoder) Uint32() (uint32, error) {
	tok, err := d.integer("uint32")
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseUint(tok.str, 0, 32)
	if err != nil || tok.num&numNeg != 0 {
		return 0, d.invalid(tok, "uint32")
	}
	return uint32(n), nil
}

// Uint64 reads a non-negative integer in uint64 range (see Int32).
func (d *Decoder) Uint64() (uint64, error) {
	tok, err := d.integer("uint64")
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseUint(tok.str, 0, 64)
	if err != nil || tok.num&numNeg != 0 {
		return 0, d.invalid(tok, "uint64")
	}
	return n, nil
}

func (d *Decoder) float(kind string) (float64, error) {
	tok, err := d.scalar()
	if err != nil {
		return 0, err
	}
	switch tok.attrs {
	case scalarLiteral:
		switch strings.ToLower(string(tok.raw)) {
		case "nan":
			return math.NaN(), nil
		case "inf", "infinity":
			return math.Inf(1), nil
		case "-inf", "-infinity":
			return math.Inf(-1), nil
		}
	case scalarNumber:
		// The spec's float values are FLOAT and DEC_INT literals: an
		// OCT_INT such as 012 or a HEX_INT is not one (the conformance
		// suite's FloatFieldNoOctal and FloatFieldNoNegativeOctal).
		if tok.num&(numOct|numHex) != 0 {
			break
		}
		n, err := strconv.ParseFloat(tok.str, 64)
		if err == nil || err.(*strconv.NumError).Err == strconv.ErrRange {
			return n, nil
		}
	}
	return 0, d.invalid(tok, kind)
}

// Float64 reads a number (decimal integers included, suffix 'f' allowed;
// out of range is ±Inf; octal and hex integers are not float values) or
// inf, infinity, nan (any case, '-' allowed before inf).
func (d *Decoder) Float64() (float64, error) { return d.float("double") }

// Float32 reads a float as Float64 does and rounds it to float32.
func (d *Decoder) Float32() (float32, error) {
	f, err := d.float("float")
	return float32(f), err
}

// String reads a string value: one or more adjacent quoted strings.
func (d *Decoder) String() (string, error) {
	tok, err := d.scalar()
	if err != nil {
		return "", err
	}
	if tok.attrs != scalarString {
		return "", d.invalid(tok, "string")
	}
	return tok.str, nil
}

// StringUTF8 reads a string value that must be valid UTF-8 (a field that
// checks UTF-8, named field).
func (d *Decoder) StringUTF8(field string) (string, error) {
	s, err := d.String()
	if err == nil && !utf8.ValidString(s) {
		return "", d.t.errorAt(d.val.pos, ErrInvalidValue, "field "+field+" contains invalid UTF-8")
	}
	return s, err
}

// Bytes reads a bytes value: a string value, whose escapes may give any
// byte.
func (d *Decoder) Bytes() ([]byte, error) {
	tok, err := d.scalar()
	if err != nil {
		return nil, err
	}
	if tok.attrs != scalarString {
		return nil, d.invalid(tok, "bytes")
	}
	return []byte(tok.str), nil
}

// EnumValue reads an enum value: a name (isName, an identifier not
// starting with '-') or an int32 number.
func (d *Decoder) EnumValue() (name string, num int32, isName bool, err error) {
	tok, err := d.scalar()
	if err != nil {
		return "", 0, false, err
	}
	if tok.attrs == scalarLiteral && tok.raw[0] != '-' {
		return string(tok.raw), 0, true, nil
	}
	if tok.attrs == scalarNumber && tok.num&numFloat == 0 {
		if n, err := strconv.ParseInt(tok.str, 0, 32); err == nil {
			return "", int32(n), false, nil
		}
	}
	return "", 0, false, d.invalid(tok, "enum")
}

// UnknownEnum is the error for an enum value name the enum does not
// declare.
func (d *Decoder) UnknownEnum(enum string) error {
	return d.t.errorAt(d.val.pos, ErrInvalidValue, "invalid value for enum "+enum+": "+string(d.val.raw))
}

// ListStart begins the value of a repeated field: a list "[a, b]" (list is
// true) or a single value. Scalar fields need the ':' after their name.
// Read the elements while ListNext reports more.
func (d *Decoder) ListStart(scalar bool) (list bool, err error) {
	if scalar {
		if err := d.checkSep(); err != nil {
			return false, err
		}
	}
	tok, err := d.t.peek()
	if err != nil {
		return false, err
	}
	if tok.kind == tListOpen {
		d.t.read()
		return true, nil
	}
	return false, nil
}

// ListNext reports whether element i of the value ListStart began
// follows: for a single value, only element 0; in a list, elements until
// ']', which it reads.
func (d *Decoder) ListNext(list bool, i int) (bool, error) {
	if !list {
		return i == 0, nil
	}
	tok, err := d.t.peek()
	if err != nil {
		return false, err
	}
	if tok.kind == tListClose {
		d.t.read()
		return false, nil
	}
	return true, nil
}

// MapStart begins the value of a map field: one entry "{key: k value: v}"
// or a list of them "[{...}, {...}]". Read entries while MapNext reports
// more, then call MapEnd. The entries count one level of nesting, as a
// map entry does on the wire, from the first (so an empty list "[]", whose
// binary form has no entries, counts nothing) until MapEnd.
func (d *Decoder) MapStart() (list bool, err error) {
	d.mapEntries = append(d.mapEntries, false)
	tok, err := d.t.read()
	if err != nil {
		return false, err
	}
	switch tok.kind {
	case tMessageOpen:
		return false, nil
	case tListOpen:
		return true, nil
	}
	return false, d.unexpected(tok)
}

// MapNext reports whether entry i of the value MapStart began follows,
// reading its opening delimiter. Before the first entry it counts the
// entries' level (beyond the limit it fails with ErrDepth).
func (d *Decoder) MapNext(list bool, i int) (more bool, err error) {
	if i == 0 {
		defer func() {
			if more && err == nil {
				if err = d.enter(); err == nil {
					d.mapEntries[len(d.mapEntries)-1] = true
				}
			}
		}()
	}
	if !list {
		return i == 0, nil
	}
	tok, err := d.t.read()
	if err != nil {
		return false, err
	}
	switch tok.kind {
	case tListClose:
		return false, nil
	case tMessageOpen:
		return true, nil
	}
	return false, d.unexpected(tok)
}

// MapEnd ends the map value MapStart began.
func (d *Decoder) MapEnd() {
	n := len(d.mapEntries) - 1
	if d.mapEntries[n] {
		d.depth++
	}
	d.mapEntries = d.mapEntries[:n]
}

// Entry reads the next field name of a map entry: 1 for "key", 2 for
// "value", 0 at the entry's end. seen holds the fields read so far (each
// may come once); msgValue says the value is a message (no ':' needed).
// Other names are unknown fields (skipped under DiscardUnknown).
func (d *Decoder) Entry(seen *uint8, msgValue bool) (int, error) {
	for {
		tok, err := d.t.read()
		if err != nil {
			return 0, err
		}
		switch tok.kind {
		case tMessageClose:
			return 0, nil
		case tName:
		default:
			return 0, d.unexpected(tok)
		}
		d.name = tok
		which := 0
		if tok.attrs&nameIdent != 0 {
			switch string(tok.raw) {
			case "key":
				which = 1
			case "value":
				which = 2
			}
		}
		if which == 0 {
			if !d.opts.DiscardUnknown {
				return 0, d.t.errorAt(tok.pos, ErrUnknownField, "unknown map entry field \""+string(tok.raw)+"\"")
			}
			if err := d.skipValue(); err != nil {
				return 0, err
			}
			continue
		}
		if (which == 1 || !msgValue) && tok.attrs&hasSeparator == 0 {
			return 0, d.t.errorAt(tok.pos, ErrSyntax, "missing field separator :")
		}
		if *seen&uint8(which) != 0 {
			return 0, d.t.errorAt(tok.pos, ErrDuplicate, "map entry \""+string(tok.raw)+"\" cannot be repeated")
		}
		*seen |= uint8(which)
		return which, nil
	}
}
