package protojson

import (
	"bytes"
	"encoding/base64"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/protoplay/protoplay/runtime/wire"
)

// UnmarshalOptions are the options of generated UnmarshalProtoJSON
// methods. They mirror the fields of the same names in
// google.golang.org/protobuf/encoding/protojson.UnmarshalOptions. The zero
// value is what UnmarshalJSON uses.
type UnmarshalOptions struct {
	// DiscardUnknown skips object members that name no field, and enum
	// value names the enum does not declare (the field, element or map
	// entry is then left out), instead of failing.
	DiscardUnknown bool
	// AllowPartial skips the required-field check that otherwise follows a
	// successful unmarshal.
	AllowPartial bool
	// Resolver makes the messages that google.protobuf.Any values hold;
	// without one, an Any with a type is an error (ErrUnsupported).
	Resolver Resolver
	// Extensions are the extensions read from "[full.name]" members (see
	// Decoder.Extension); any other such member is an unknown field.
	// Generated files declare the list of their own extensions as
	// Extensions_<file>.
	Extensions []*wire.Extension
	// RecursionLimit is how deeply messages may nest, the outermost
	// counting 1; 0 means wire.DefaultMaxDepth (100), the limit of the
	// binary decoder. Levels are counted as the binary decoder counts
	// them for the same value: a message, a group and the entries of a
	// non-empty map each one level (so a Struct object inside a Value is
	// three levels, a ListValue array two).
	RecursionLimit int
}

// Kind is the kind of the next JSON value, as Peek reports it.
type Kind int

// The kinds of JSON values.
const (
	Invalid Kind = iota // not the start of a JSON value, or the end of input
	Null
	Bool
	Number
	String
	Object
	Array
)

// Decoder reads ProtoJSON for generated DecodeProtoJSON methods: a JSON
// tokenizer (RFC 8259, as strict as protojson's) with the conversions of
// the ProtoJSON mapping. Each method reads one piece at the current
// position, skipping whitespace before it; errors are [*Error] values with
// the position of the offending token. A Decoder is not safe for
// concurrent use.
type Decoder struct {
	in  []byte
	pos int
	// last is what was read last: '{' or '[' (an object or array was
	// opened), ':' (a member name) or 'v' (a whole value, or nothing yet).
	last   byte
	tokPos int // the start of the value read last
	keyPos int // the start of the member name read last
	depth  int // how many more messages may be entered
	opts   UnmarshalOptions
	// lastKey is the member name read last.
	lastKey []byte
	// typeKeyDepth is the depth whose object skips "@type" (see
	// SkipTypeKey); -1 for none.
	typeKeyDepth int
	// fieldPos is the byte offset of the member name of the field being
	// read (the last Mark or MarkOneof), which value errors name; -1 for
	// none.
	fieldPos int
	// scratch holds the unescaped bytes of the string read last, when it
	// had escapes.
	scratch []byte
	// alloc is the allocation state of the values decoded (see Alloc).
	alloc wire.Decoder
}

// NewDecoder returns a Decoder reading b with the options o.
func NewDecoder(b []byte, o UnmarshalOptions) *Decoder {
	d := new(Decoder)
	d.init(b, o)
	return d
}

// init makes d, a zero Decoder or one reset with reset(nil, ...), a
// Decoder reading b.
func (d *Decoder) init(b []byte, o UnmarshalOptions) {
	limit := o.RecursionLimit
	if limit == 0 {
		limit = wire.DefaultMaxDepth
	}
	d.in, d.last, d.depth, d.opts, d.typeKeyDepth, d.fieldPos = b, 'v', limit, o, -1, -1
}

// what is want ("int32", "enum", ...) followed, when a field is being
// read, by " field " and its name as the input gives it, for the
// messages of value errors ("invalid value for int32 field id: ...", as
// protojson writes them).
func (d *Decoder) what(want string) string {
	if d.fieldPos < 0 {
		return want
	}
	name := d.tokenText(d.fieldPos)
	if len(name) >= 2 && name[0] == '"' && name[len(name)-1] == '"' {
		name = name[1 : len(name)-1]
	}
	return want + " field " + name
}

// reset makes d a zero Decoder but for its scratch buffer.
func (d *Decoder) reset() {
	*d = Decoder{scratch: d.scratch[:0]}
}

// Alloc returns the allocation state the decoded values share, as in a
// binary Unmarshal (see wire.Decoder): the strings the Decoder returns are
// carved out of its text blocks, and generated code takes the pointers of
// explicit-presence scalars (d.Alloc().Int32(v), ...) and nested messages
// (wire.New[T](d.Alloc())) from its slabs. A value kept alive keeps its
// slab or block alive; nothing aliases the input.
func (d *Decoder) Alloc() *wire.Decoder { return &d.alloc }

// Options returns the options the decoder was made with.
func (d *Decoder) Options() UnmarshalOptions { return d.opts }

// DiscardUnknown reports Options().DiscardUnknown.
func (d *Decoder) DiscardUnknown() bool { return d.opts.DiscardUnknown }

// Position returns the 1-based line and column (in runes) of byte offset
// off of the input.
func (d *Decoder) Position(off int) (line, column int) {
	b := d.in[:off]
	line = bytes.Count(b, []byte{'\n'}) + 1
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		b = b[i+1:]
	}
	return line, utf8.RuneCount(b) + 1
}

// ErrorAt returns an *Error at byte offset off wrapping sentinel.
func (d *Decoder) ErrorAt(off int, sentinel error, msg string) error {
	line, col := d.Position(off)
	return &Error{Offset: off, Line: line, Column: col, Err: sentinel, Msg: msg}
}

// InvalidValue returns an ErrInvalidValue error at the value read last,
// saying msg.
func (d *Decoder) InvalidValue(msg string) error {
	return d.ErrorAt(d.tokPos, ErrInvalidValue, msg)
}

// Enter counts one more level of message nesting: every DecodeProtoJSON
// calls it first and Leave when done. Beyond the limit it fails with
// ErrDepth.
func (d *Decoder) Enter() error {
	d.depth--
	if d.depth < 0 {
		d.skipSpace()
		return d.ErrorAt(d.pos, ErrDepth, "exceeded maximum recursion depth")
	}
	return nil
}

// Leave undoes Enter.
func (d *Decoder) Leave() { d.depth++ }

// End checks that only whitespace follows the value read.
func (d *Decoder) End() error {
	d.skipSpace()
	if d.pos < len(d.in) {
		return d.unexpected()
	}
	return nil
}

func (d *Decoder) skipSpace() {
	in, pos := d.in, d.pos
	for pos < len(in) {
		switch in[pos] {
		case ' ', '\n', '\r', '\t':
			pos++
		default:
			d.pos = pos
			return
		}
	}
	d.pos = pos
}

// unexpected is the syntax error for the token at d.pos (after spaces).
func (d *Decoder) unexpected() error {
	if d.pos >= len(d.in) {
		return d.ErrorAt(d.pos, ErrSyntax, "unexpected end of input")
	}
	return d.ErrorAt(d.pos, ErrSyntax, "unexpected token "+d.tokenText(d.pos))
}

// tokenText is the token at off, for messages: a word of up to 32
// characters, or one character.
func (d *Decoder) tokenText(off int) string {
	end := off
	for end < len(d.in) && end-off < 32 && isNotDelim(d.in[end]) {
		end++
	}
	if end == off {
		_, n := utf8.DecodeRune(d.in[off:])
		end = off + n
	}
	if d.in[off] == '"' {
		if n, _, err := d.scanString(off); err == nil && n-off <= 64 {
			end = n
		}
	}
	return string(d.in[off:end])
}

// Peek reports the kind of the next value without reading it.
func (d *Decoder) Peek() Kind {
	d.skipSpace()
	if d.pos >= len(d.in) {
		return Invalid
	}
	switch c := d.in[d.pos]; c {
	case 'n':
		if d.matchLiteral("null") {
			return Null
		}
	case 't':
		if d.matchLiteral("true") {
			return Bool
		}
	case 'f':
		if d.matchLiteral("false") {
			return Bool
		}
	case '"':
		return String
	case '{':
		return Object
	case '[':
		return Array
	default:
		if c == '-' || ('0' <= c && c <= '9') {
			return Number
		}
	}
	return Invalid
}

func (d *Decoder) matchLiteral(s string) bool {
	in := d.in[d.pos:]
	if !bytes.HasPrefix(in, []byte(s)) {
		return false
	}
	return len(in) == len(s) || !isNotDelim(in[len(s)])
}

func isNotDelim(c byte) bool {
	return c == '-' || c == '+' || c == '.' || c == '_' ||
		('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

// ReadNull reads null if it is next and reports whether it was.
func (d *Decoder) ReadNull() bool {
	d.skipSpace()
	if d.pos >= len(d.in) || d.in[d.pos] != 'n' || !d.matchLiteral("null") {
		return false
	}
	d.tokPos = d.pos
	d.pos += 4
	d.last = 'v'
	return true
}

// ObjectStart reads '{'.
func (d *Decoder) ObjectStart() error {
	d.skipSpace()
	if d.pos >= len(d.in) || d.in[d.pos] != '{' {
		return d.unexpected()
	}
	d.tokPos = d.pos
	d.pos++
	d.last = '{'
	return nil
}

// MapStart reads the '{' of a map field's object. If the object has
// members, it counts one level of nesting for the map entries, as the
// binary and text readers do (a map entry is a message of its own on the
// wire), and returns more true: read the members with Key until it
// reports the end, then call MapEnd. An empty object is read whole and
// counts nothing (the binary form of an empty map has no entries), more
// false. Beyond the limit it fails with ErrDepth at the first key.
func (d *Decoder) MapStart() (more bool, err error) {
	if err := d.ObjectStart(); err != nil {
		return false, err
	}
	d.skipSpace()
	if d.pos < len(d.in) && d.in[d.pos] == '}' {
		_, _, err := d.KeyRaw()
		return false, err
	}
	return true, d.Enter()
}

// MapEnd ends the entries MapStart counted.
func (d *Decoder) MapEnd() { d.Leave() }

// Key reads the next member name of the object being read and the colon
// after it, or the '}' that ends the object, in which case ok is false.
func (d *Decoder) Key() (key string, ok bool, err error) {
	k, ok, err := d.KeyRaw()
	return d.alloc.String(k), ok, err
}

// KeyRaw is Key returning the name's bytes (unescaped), valid until the
// next call; generated code switches on string(key), which does not
// allocate.
func (d *Decoder) KeyRaw() (key []byte, ok bool, err error) {
	d.skipSpace()
	if d.pos >= len(d.in) {
		return nil, false, d.unexpected()
	}
	c := d.in[d.pos]
	switch {
	case c == '}' && (d.last == '{' || d.last == 'v'):
		d.pos++
		d.last = 'v'
		return nil, false, nil
	case c == ',' && d.last == 'v':
		d.pos++
		d.skipSpace()
		if d.pos >= len(d.in) {
			return nil, false, d.unexpected()
		}
		if d.in[d.pos] != '"' {
			return nil, false, d.unexpected()
		}
	case c == '"' && d.last == '{':
	default:
		return nil, false, d.unexpected()
	}
	d.keyPos = d.pos
	k, err := d.readStringRaw()
	if err != nil {
		return nil, false, err
	}
	d.skipSpace()
	if d.pos >= len(d.in) || d.in[d.pos] != ':' {
		if d.pos >= len(d.in) {
			return nil, false, d.unexpected()
		}
		return nil, false, d.ErrorAt(d.pos, ErrSyntax, `missing ":" after field name`)
	}
	d.pos++
	d.last = ':'
	d.lastKey = k
	return k, true, nil
}

// KeyPos returns the byte offset of the member name read last.
func (d *Decoder) KeyPos() int { return d.keyPos }

// ArrayStart reads '['.
func (d *Decoder) ArrayStart() error {
	d.skipSpace()
	if d.pos >= len(d.in) || d.in[d.pos] != '[' {
		return d.unexpected()
	}
	d.tokPos = d.pos
	d.pos++
	d.last = '['
	return nil
}

// ArrayNext reads the comma before the next element of the array being
// read, and reports whether there is one; at the ']' that ends the array
// it reads it and returns false.
func (d *Decoder) ArrayNext() (bool, error) {
	d.skipSpace()
	if d.pos >= len(d.in) {
		return false, d.unexpected()
	}
	c := d.in[d.pos]
	switch {
	case c == ']' && (d.last == '[' || d.last == 'v'):
		d.pos++
		d.last = 'v'
		return false, nil
	case c == ',' && d.last == 'v':
		d.pos++
		return true, nil
	case d.last == '[':
		return true, nil
	}
	return false, d.unexpected()
}

// Mark records that field bit of a message was given (seen is the
// message's bit set) and fails with ErrDuplicate if it already was.
func (d *Decoder) Mark(seen []uint64, bit int) error {
	w, m := bit/64, uint64(1)<<(bit%64)
	if seen[w]&m != 0 {
		return d.ErrorAt(d.keyPos, ErrDuplicate, "duplicate field "+d.tokenText(d.keyPos))
	}
	seen[w] |= m
	d.fieldPos = d.keyPos
	return nil
}

// MarkOneof is Mark for the bit of a oneof: a second member of the oneof
// fails with ErrDuplicate.
func (d *Decoder) MarkOneof(seen []uint64, bit int, oneof string) error {
	w, m := bit/64, uint64(1)<<(bit%64)
	if seen[w]&m != 0 {
		return d.ErrorAt(d.keyPos, ErrDuplicate, "error parsing "+d.tokenText(d.keyPos)+", oneof "+oneof+" is already set")
	}
	seen[w] |= m
	return nil
}

// DuplicateKey is the error for a map key given twice, at the key read
// last.
func (d *Decoder) DuplicateKey() error {
	return d.ErrorAt(d.keyPos, ErrDuplicate, "duplicate map key "+d.tokenText(d.keyPos))
}

// Unknown handles a member name that names no field: under DiscardUnknown
// it skips the member's value, otherwise it fails with ErrUnknownField.
func (d *Decoder) Unknown() error {
	if d.depth == d.typeKeyDepth && string(d.lastKey) == "@type" {
		if _, err := d.String(); err != nil {
			return err
		}
		return nil
	}
	if d.opts.DiscardUnknown {
		return d.Skip()
	}
	return d.ErrorAt(d.keyPos, ErrUnknownField, "unknown field "+d.tokenText(d.keyPos))
}

// Skip reads one JSON value of any kind, checking its syntax, and discards
// it. Arrays and objects count toward the recursion limit.
func (d *Decoder) Skip() error { return d.skip(0) }

func (d *Decoder) skip(open int) error {
	switch d.Peek() {
	case Object, Array:
		if open+1 > d.depth {
			return d.ErrorAt(d.pos, ErrDepth, "exceeded maximum recursion depth")
		}
		if d.in[d.pos] == '{' {
			d.ObjectStart()
			for {
				_, ok, err := d.Key()
				if err != nil {
					return err
				}
				if !ok {
					return nil
				}
				if err := d.skip(open + 1); err != nil {
					return err
				}
			}
		}
		d.ArrayStart()
		for {
			more, err := d.ArrayNext()
			if err != nil {
				return err
			}
			if !more {
				return nil
			}
			if err := d.skip(open + 1); err != nil {
				return err
			}
		}
	case String:
		_, err := d.String()
		return err
	case Number:
		_, err := d.number()
		return err
	case Null, Bool:
		_, err := d.literal()
		return err
	}
	return d.unexpected()
}

// literal reads true, false or null.
func (d *Decoder) literal() (string, error) {
	for _, s := range [...]string{"true", "false", "null"} {
		if d.matchLiteral(s) {
			d.tokPos = d.pos
			d.pos += len(s)
			d.last = 'v'
			return s, nil
		}
	}
	return "", d.unexpected()
}

// number reads a JSON number token and returns its text.
func (d *Decoder) number() ([]byte, error) {
	n, ok := scanNumber(d.in[d.pos:])
	if !ok {
		return nil, d.ErrorAt(d.pos, ErrSyntax, "invalid value "+d.tokenText(d.pos))
	}
	d.tokPos = d.pos
	d.pos += n
	d.last = 'v'
	return d.in[d.tokPos:d.pos], nil
}

// scanNumber returns the length of the JSON number at the start of in
// (RFC 8259 section 6), which must be followed by a delimiter or the end.
func scanNumber(in []byte) (int, bool) {
	s := in
	n := 0
	if len(s) > 0 && s[0] == '-' {
		s, n = s[1:], n+1
	}
	switch {
	case len(s) == 0:
		return 0, false
	case s[0] == '0':
		s, n = s[1:], n+1
	case '1' <= s[0] && s[0] <= '9':
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s, n = s[1:], n+1
		}
	default:
		return 0, false
	}
	if len(s) >= 2 && s[0] == '.' && '0' <= s[1] && s[1] <= '9' {
		s, n = s[2:], n+2
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s, n = s[1:], n+1
		}
	}
	if len(s) >= 2 && (s[0] == 'e' || s[0] == 'E') {
		s, n = s[1:], n+1
		if s[0] == '+' || s[0] == '-' {
			s, n = s[1:], n+1
		}
		digits := 0
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s, n, digits = s[1:], n+1, digits+1
		}
		if digits == 0 {
			return 0, false
		}
	}
	if n < len(in) && isNotDelim(in[n]) {
		return 0, false
	}
	return n, true
}

// String reads a JSON string and returns its value.
func (d *Decoder) String() (string, error) {
	d.skipSpace()
	if d.pos >= len(d.in) || d.in[d.pos] != '"' {
		return "", d.wrongType("string")
	}
	return d.readString()
}

// wrongType is the error for a value that is not of the JSON type want:
// ErrSyntax when it is not a JSON value at all, else ErrInvalidValue.
func (d *Decoder) wrongType(want string) error {
	if d.pos >= len(d.in) {
		return d.unexpected()
	}
	if d.Peek() == Invalid || d.in[d.pos] == '}' || d.in[d.pos] == ']' {
		return d.unexpected()
	}
	if k := d.Peek(); k == Number {
		if _, ok := scanNumber(d.in[d.pos:]); !ok {
			return d.ErrorAt(d.pos, ErrSyntax, "invalid value "+d.tokenText(d.pos))
		}
	}
	return d.ErrorAt(d.pos, ErrInvalidValue, "invalid value for "+d.what(want)+": "+d.tokenText(d.pos))
}

// readString reads the string at d.pos, which starts with '"'.
func (d *Decoder) readString() (string, error) {
	start := d.pos
	end, escaped, err := d.scanString(start)
	if err != nil {
		return "", err
	}
	d.tokPos = start
	d.pos = end
	d.last = 'v'
	raw := d.in[start+1 : end-1]
	if escaped {
		d.scratch = unescape(d.scratch[:0], raw)
		raw = d.scratch
	}
	return d.alloc.String(raw), nil
}

// readStringRaw is readString returning the value's bytes: a slice of the
// input when the string has no escapes, else of d.scratch (valid until the
// next read).
func (d *Decoder) readStringRaw() ([]byte, error) {
	start := d.pos
	end, escaped, err := d.scanString(start)
	if err != nil {
		return nil, err
	}
	d.tokPos = start
	d.pos = end
	d.last = 'v'
	raw := d.in[start+1 : end-1]
	if !escaped {
		return raw, nil
	}
	d.scratch = unescape(d.scratch[:0], raw)
	return d.scratch, nil
}

// scanString checks the string starting at off and returns the offset
// just after its closing quote.
// plainByte marks the bytes a string holds as they are, with no further
// look: printable ASCII but '"' and '\\'. (A composite literal: static
// data, no init-time work.)
var plainByte = [256]bool{
	' ': true, '!': true, '#': true, '$': true, '%': true, '&': true, '\'': true, '(': true, ')': true, '*': true,
	'+': true, ',': true, '-': true, '.': true, '/': true, '0': true, '1': true, '2': true, '3': true, '4': true,
	'5': true, '6': true, '7': true, '8': true, '9': true, ':': true, ';': true, '<': true, '=': true, '>': true,
	'?': true, '@': true, 'A': true, 'B': true, 'C': true, 'D': true, 'E': true, 'F': true, 'G': true, 'H': true,
	'I': true, 'J': true, 'K': true, 'L': true, 'M': true, 'N': true, 'O': true, 'P': true, 'Q': true, 'R': true,
	'S': true, 'T': true, 'U': true, 'V': true, 'W': true, 'X': true, 'Y': true, 'Z': true, '[': true, ']': true,
	'^': true, '_': true, '`': true, 'a': true, 'b': true, 'c': true, 'd': true, 'e': true, 'f': true, 'g': true,
	'h': true, 'i': true, 'j': true, 'k': true, 'l': true, 'm': true, 'n': true, 'o': true, 'p': true, 'q': true,
	'r': true, 's': true, 't': true, 'u': true, 'v': true, 'w': true, 'x': true, 'y': true, 'z': true, '{': true,
	'|': true, '}': true, '~': true, '': true,
}

func (d *Decoder) scanString(off int) (end int, escaped bool, err error) {
	in := d.in // a local: d.in is not reloaded every byte
	i := off + 1
	for i < len(in) {
		for i < len(in) && plainByte[in[i]] {
			i++
		}
		if i >= len(in) {
			break
		}
		c := in[i]
		switch {
		case c == '"':
			return i + 1, escaped, nil
		case c == '\\':
			escaped = true
			if i+1 >= len(in) {
				return 0, false, d.ErrorAt(len(in), ErrSyntax, "unexpected end of input")
			}
			switch in[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				r, ok := hex4(in[i+2:])
				if !ok {
					if len(in)-(i+2) < 4 {
						return 0, false, d.ErrorAt(len(in), ErrSyntax, "unexpected end of input")
					}
					return 0, false, d.ErrorAt(i, ErrSyntax, "invalid escape code "+strconv.Quote(string(in[i:i+6]))+" in string")
				}
				i += 6
				if utf16.IsSurrogate(rune(r)) {
					if i+1 < len(in) && (in[i] != '\\' || in[i+1] != 'u') || i < len(in) && in[i] != '\\' {
						return 0, false, d.ErrorAt(i-6, ErrSyntax, "lone surrogate "+strconv.Quote(string(in[i-6:i]))+" in string (a \\ud800-\\udbff escape pairs with a \\udc00-\\udfff one after it)")
					}
					if len(in)-i < 6 {
						return 0, false, d.ErrorAt(len(in), ErrSyntax, "unexpected end of input")
					}
					r2, ok := hex4(in[i+2:])
					if in[i] != '\\' || in[i+1] != 'u' || !ok || utf16.DecodeRune(rune(r), rune(r2)) == utf8.RuneError {
						return 0, false, d.ErrorAt(i, ErrSyntax, "invalid escape code "+strconv.Quote(string(in[i:i+6]))+" in string")
					}
					i += 6
				}
			default:
				return 0, false, d.ErrorAt(i, ErrSyntax, "invalid escape code "+strconv.Quote(string(in[i:i+2]))+" in string")
			}
		case c < ' ':
			return 0, false, d.ErrorAt(i, ErrSyntax, "invalid character "+strconv.QuoteRune(rune(c))+" in string")
		case c < utf8.RuneSelf:
			i++
		default:
			r, n := utf8.DecodeRune(in[i:])
			if r == utf8.RuneError && n == 1 {
				return 0, false, d.ErrorAt(i, ErrSyntax, "invalid UTF-8 in string")
			}
			i += n
		}
	}
	return 0, false, d.ErrorAt(len(in), ErrSyntax, "unexpected end of input")
}

func hex4(b []byte) (uint16, bool) {
	if len(b) < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(string(b[:4]), 16, 16)
	return uint16(v), err == nil
}

// unescape appends the decoded body of a string that scanString accepted
// to out.
func unescape(out, raw []byte) []byte {
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		switch e := raw[i+1]; e {
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r1, _ := hex4(raw[i+2:])
			r := rune(r1)
			if utf16.IsSurrogate(r) {
				r2, _ := hex4(raw[i+8:])
				r = utf16.DecodeRune(r, rune(r2))
				i += 6
			}
			out = utf8.AppendRune(out, r)
			i += 6
			continue
		default: // '"', '\\', '/'
			out = append(out, e)
		}
		i += 2
	}
	return out
}

// Bool reads true or false.
func (d *Decoder) Bool() (bool, error) {
	if d.Peek() != Bool {
		return false, d.wrongType("bool")
	}
	s, _ := d.literal()
	return s == "true", nil
}

// numberText reads the text of an integer or float value: a JSON number,
// or a JSON string holding exactly a JSON number (no spaces), as ProtoJSON
// accepts for every numeric field. quoted reports the string form. The
// bytes are valid until the next read.
func (d *Decoder) numberText(want string) (text []byte, quoted bool, err error) {
	switch d.Peek() {
	case Number:
		b, err := d.number()
		return b, false, err
	case String:
		s, err := d.readStringRaw()
		if err != nil {
			return nil, true, err
		}
		return s, true, nil
	}
	return nil, false, d.wrongType(want)
}

// plainInt parses s when it is an optional '-' and decimal digits without
// a leading zero, the common case, without allocating; ok is false for
// any other form (left to intText) and for values beyond 64 bits.
func plainInt(s []byte) (neg bool, v uint64, ok bool) {
	if len(s) > 0 && s[0] == '-' {
		neg, s = true, s[1:]
	}
	if len(s) == 0 || len(s) > 19 || (s[0] == '0' && len(s) > 1) {
		return false, 0, false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false, 0, false
		}
		v = v*10 + uint64(c-'0')
	}
	return neg, v, true
}

// intText returns the decimal integer a ProtoJSON integer value denotes:
// JSON numbers with a fraction or exponent count when their value is
// whole ("1e2", "100.0", "1000e-1"), as protojson accepts them.
func intText(s string) (string, bool) {
	n, ok := scanNumber([]byte(s))
	if !ok || n != len(s) {
		return "", false
	}
	neg := false
	if s[0] == '-' {
		neg, s = true, s[1:]
	}
	intp, frac, exp := s, "", ""
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		intp, exp = s[:i], s[i+1:]
	}
	if i := strings.IndexByte(intp, '.'); i >= 0 {
		intp, frac = intp[:i], intp[i+1:]
	}
	if intp == "0" {
		intp = ""
	}
	frac = strings.TrimRight(frac, "0")
	if intp == "" && frac == "" {
		return "0", true
	}
	e := 0
	if exp != "" {
		v, err := strconv.ParseInt(exp, 10, 32)
		if err != nil {
			return "", false
		}
		e = int(v)
	}
	var num string
	if e >= 0 {
		if len(frac) > e || len(intp)+e > 20 {
			return "", false
		}
		num = intp + frac + strings.Repeat("0", e-len(frac))
	} else {
		if len(frac) > 0 {
			return "", false
		}
		idx := len(intp) + e
		if idx < 0 {
			return "", false
		}
		for i := idx; i < len(intp); i++ {
			if intp[i] != '0' {
				return "", false
			}
		}
		num = intp[:idx]
	}
	if neg {
		return "-" + num, true
	}
	return num, true
}

func (d *Decoder) parseInt(want string, bitSize int) (int64, error) {
	b, _, err := d.numberText(want)
	if err != nil {
		return 0, err
	}
	if neg, u, ok := plainInt(b); ok {
		lim := uint64(1)<<(bitSize-1) - 1
		if neg {
			lim++
		}
		if u <= lim {
			if neg {
				return -int64(u), nil
			}
			return int64(u), nil
		}
	} else if t, ok := intText(string(b)); ok {
		if v, err := strconv.ParseInt(t, 10, bitSize); err == nil {
			return v, nil
		}
	}
	return 0, d.InvalidValue("invalid value for " + d.what(want) + ": " + d.tokenText(d.tokPos))
}

func (d *Decoder) parseUint(want string, bitSize int) (uint64, error) {
	b, _, err := d.numberText(want)
	if err != nil {
		return 0, err
	}
	if neg, u, ok := plainInt(b); ok && !neg {
		if bitSize == 64 || u <= 1<<bitSize-1 {
			return u, nil
		}
	} else if t, ok := intText(string(b)); ok {
		if v, err := strconv.ParseUint(t, 10, bitSize); err == nil {
			return v, nil
		}
	}
	return 0, d.InvalidValue("invalid value for " + d.what(want) + ": " + d.tokenText(d.tokPos))
}

// Int32 reads an int32, sint32 or sfixed32 value (see Int64).
func (d *Decoder) Int32() (int32, error) {
	v, err := d.parseInt("int32", 32)
	return int32(v), err
}

// Int64 reads an int64, sint64 or sfixed64 value: a JSON number or a
// string holding one, whose value must be a whole number in range.
func (d *Decoder) Int64() (int64, error) { return d.parseInt("int64", 64) }

// Uint32 reads a uint32 or fixed32 value (see Int64).
func (d *Decoder) Uint32() (uint32, error) {
	v, err := d.parseUint("uint32", 32)
	return uint32(v), err
}

// Uint64 reads a uint64 or fixed64 value (see Int64).
func (d *Decoder) Uint64() (uint64, error) { return d.parseUint("uint64", 64) }

func (d *Decoder) parseFloat(want string, bitSize int) (float64, error) {
	b, quoted, err := d.numberText(want)
	if err != nil {
		return 0, err
	}
	if quoted {
		switch string(b) {
		case "NaN":
			return math.NaN(), nil
		case "Infinity":
			return math.Inf(1), nil
		case "-Infinity":
			return math.Inf(-1), nil
		}
		if n, ok := scanNumber(b); !ok || n != len(b) {
			return 0, d.InvalidValue("invalid value for " + d.what(want) + ": " + d.tokenText(d.tokPos))
		}
	}
	v, err := strconv.ParseFloat(string(b), bitSize)
	if err != nil {
		return 0, d.InvalidValue("invalid value for " + d.what(want) + ": " + d.tokenText(d.tokPos))
	}
	return v, nil
}

// Float32 reads a float value (see Float64); values beyond the float32
// range are an error.
func (d *Decoder) Float32() (float32, error) {
	v, err := d.parseFloat("float", 32)
	return float32(v), err
}

// Float64 reads a double value: a JSON number, the strings "NaN",
// "Infinity" and "-Infinity", or a string holding a JSON number.
func (d *Decoder) Float64() (float64, error) { return d.parseFloat("double", 64) }

// Bytes reads a bytes value: a string in base64, standard or URL-safe
// alphabet (RFC 4648 sections 4 and 5), with or without padding.
func (d *Decoder) Bytes() ([]byte, error) {
	d.skipSpace()
	if d.pos >= len(d.in) || d.in[d.pos] != '"' {
		return nil, d.wrongType("bytes")
	}
	s, err := d.readStringRaw()
	if err != nil {
		return nil, err
	}
	enc := base64.StdEncoding
	if bytes.ContainsAny(s, "-_") {
		enc = base64.URLEncoding
	}
	if len(s)%4 != 0 {
		enc = enc.WithPadding(base64.NoPadding)
	}
	b := make([]byte, enc.DecodedLen(len(s)))
	n, err := enc.Decode(b, s)
	if err != nil {
		return nil, d.InvalidValue("invalid value for " + d.what("bytes") + ": " + d.tokenText(d.tokPos))
	}
	return b[:n:n], nil
}

// EnumValue reads an enum value: a string (returned in name, for the
// caller to look up) or a JSON number that fits in int32 (returned in num,
// with isName false).
func (d *Decoder) EnumValue() (name string, num int32, isName bool, err error) {
	switch d.Peek() {
	case String:
		s, err := d.readString()
		return s, 0, true, err
	case Number:
		b, err := d.number()
		if err != nil {
			return "", 0, false, err
		}
		if t, ok := intText(string(b)); ok {
			if v, err := strconv.ParseInt(t, 10, 32); err == nil {
				return "", int32(v), false, nil
			}
		}
		return "", 0, false, d.InvalidValue("invalid value for " + d.what("enum") + ": " + string(b))
	}
	return "", 0, false, d.wrongType("enum")
}

// UnknownEnumName handles an enum name the enum does not declare, read
// last: under DiscardUnknown it returns nil and the caller leaves the
// value out; otherwise an ErrInvalidValue error.
func (d *Decoder) UnknownEnumName(enum string) error {
	if d.opts.DiscardUnknown {
		return nil
	}
	return d.InvalidValue("invalid value for " + d.what("enum") + ": " + d.tokenText(d.tokPos) + " (no value of that name in " + enum + ")")
}

// KeyBool parses a map key of a bool map: "true" or "false".
func (d *Decoder) KeyBool(k string) (bool, error) {
	switch k {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, d.badKey("bool")
}

// KeyInt32 parses a map key of an int32, sint32 or sfixed32 map: a
// decimal integer as strconv.ParseInt reads it.
func (d *Decoder) KeyInt32(k string) (int32, error) {
	v, err := strconv.ParseInt(k, 10, 32)
	if err != nil {
		return 0, d.badKey("int32")
	}
	return int32(v), nil
}

// KeyInt64 parses a map key of an int64, sint64 or sfixed64 map.
func (d *Decoder) KeyInt64(k string) (int64, error) {
	v, err := strconv.ParseInt(k, 10, 64)
	if err != nil {
		return 0, d.badKey("int64")
	}
	return v, nil
}

// KeyUint32 parses a map key of a uint32 or fixed32 map.
func (d *Decoder) KeyUint32(k string) (uint32, error) {
	v, err := strconv.ParseUint(k, 10, 32)
	if err != nil {
		return 0, d.badKey("uint32")
	}
	return uint32(v), nil
}

// KeyUint64 parses a map key of a uint64 or fixed64 map.
func (d *Decoder) KeyUint64(k string) (uint64, error) {
	v, err := strconv.ParseUint(k, 10, 64)
	if err != nil {
		return 0, d.badKey("uint64")
	}
	return v, nil
}

func (d *Decoder) badKey(kind string) error {
	return d.ErrorAt(d.keyPos, ErrInvalidValue, "invalid value for "+kind+" key: "+d.tokenText(d.keyPos))
}

// Message is what the ProtoJSON form of google.protobuf.Any needs of the
// message it holds: its ProtoJSON methods and its wire encoding. Every
// protoplay-generated message type, used through a pointer, implements it.
type Message interface {
	EncodeProtoJSON(e *Encoder) error
	DecodeProtoJSON(d *Decoder) error
	Marshal() ([]byte, error)
	Unmarshal(b []byte) error
}

// A Resolver makes new, empty messages by full name
// ("google.protobuf.Duration"), for google.protobuf.Any, whose ProtoJSON
// form holds its message in that message's own form. protoplay has no
// global type registry: the caller lists the types it expects in Anys.
// New returns nil for a name it does not know.
type Resolver interface {
	New(fullName string) Message
}

// ResolverFunc is a Resolver made of a function.
type ResolverFunc func(fullName string) Message

// New calls f.
func (f ResolverFunc) New(fullName string) Message { return f(fullName) }

// Clone returns a copy of d reading from the same place, for looking ahead:
// reading from the copy does not move d.
func (d *Decoder) Clone() *Decoder {
	c := *d
	// The copy gets allocation state of its own: sharing d's would hand
	// the same slab slots and text bytes to both.
	c.alloc = wire.Decoder{}
	c.scratch = nil
	return &c
}

// LastKey returns the member name read last.
func (d *Decoder) LastKey() string { return string(d.lastKey) }

// SkipTypeKey makes the message about to be decoded (the next to call
// Enter) skip an "@type" member, as the ProtoJSON form of an Any puts one
// among the fields of the message it holds. It returns the previous
// setting, to be restored with RestoreTypeKey.
func (d *Decoder) SkipTypeKey() int {
	old := d.typeKeyDepth
	d.typeKeyDepth = d.depth - 1
	return old
}

// RestoreTypeKey restores the setting SkipTypeKey returned.
func (d *Decoder) RestoreTypeKey(old int) { d.typeKeyDepth = old }

// ErrorAtNext returns an *Error wrapping sentinel at the next token.
func (d *Decoder) ErrorAtNext(sentinel error, msg string) error {
	d.skipSpace()
	return d.ErrorAt(d.pos, sentinel, msg)
}
