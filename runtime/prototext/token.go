package prototext

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// This file is the tokenizer of the text format
// (protobuf.dev/reference/protobuf/textformat-spec): a state machine over
// the kind of the token read last and a stack of the open '{', '<' and '['
// that accepts exactly the token sequences google.golang.org/protobuf's
// prototext accepts (its internal/encoding/text decoder is the oracle of
// the differential tests).

// tokKind is the kind of a token.
type tokKind uint8

const (
	tBOF tokKind = iota // nothing read yet
	tEOF
	tName // a field name: identifier, [type.name] or field number; ':' may follow
	tScalar
	tMessageOpen
	tMessageClose
	tListOpen
	tListClose
	tComma
	tSemicolon
)

// name kinds (token.attrs for tName).
const (
	nameIdent uint8 = 1 << iota
	nameType
	nameNumber
	hasSeparator
)

// scalar kinds (token.attrs for tScalar).
const (
	scalarString uint8 = iota + 1
	scalarLiteral
	scalarNumber
)

// number kinds (token.num).
const (
	numDec uint8 = 1 << iota
	numHex
	numOct
	numFloat
	numNeg
)

type token struct {
	kind  tokKind
	attrs uint8
	num   uint8
	pos   int
	raw   []byte
	str   string // string value, type name, or number text without sign gap and 'f'
}

// tokenizer reads tokens with one token of look-ahead.
type tokenizer struct {
	orig, in []byte
	last     token // the token read last (kind tBOF at the start)
	peeked   bool  // last holds a peeked token not yet read
	peekErr  error
	stack    []byte // open '{', '<', '['
	// afterQuote is how many input bytes follow the closing quote of the
	// string quoted read last (before the space and comments it skipped).
	afterQuote int
}

// Position returns the 1-based line and column (in runes) of byte offset
// off of the input.
func (t *tokenizer) Position(off int) (line, column int) {
	b := t.orig[:off]
	line = bytes.Count(b, []byte{'\n'}) + 1
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		b = b[i+1:]
	}
	return line, utf8.RuneCount(b) + 1
}

func (t *tokenizer) errorAt(off int, sentinel error, msg string) error {
	line, col := t.Position(off)
	return &Error{Offset: off, Line: line, Column: col, Err: sentinel, Msg: msg}
}

func (t *tokenizer) off() int { return len(t.orig) - len(t.in) }

func (t *tokenizer) syntax(msg string) error { return t.errorAt(t.off(), ErrSyntax, msg) }

func (t *tokenizer) eof() error { return t.errorAt(len(t.orig), ErrSyntax, "unexpected end of input") }

// peek returns the next token without reading it.
func (t *tokenizer) peek() (token, error) {
	if !t.peeked {
		tok, err := t.read()
		if err != nil {
			t.peeked, t.peekErr = true, err
			return token{}, err
		}
		t.peeked, t.peekErr = true, nil
		return tok, nil
	}
	return t.last, t.peekErr
}

// read returns the next token; commas and semicolons are read and dropped.
func (t *tokenizer) read() (token, error) {
	if t.peeked {
		t.peeked = false
		if t.peekErr != nil {
			err := t.peekErr
			t.peekErr = nil
			return token{}, err
		}
		return t.last, nil
	}
	tok, err := t.next(t.last.kind)
	if err != nil {
		return token{}, err
	}
	if tok.kind == tComma || tok.kind == tSemicolon {
		if tok, err = t.next(tok.kind); err != nil {
			return token{}, err
		}
	}
	t.last = tok
	return tok, nil
}

func (t *tokenizer) open() (tokKind, byte) {
	if len(t.stack) == 0 {
		return tBOF, 0
	}
	switch t.stack[len(t.stack)-1] {
	case '{':
		return tMessageOpen, '}'
	case '<':
		return tMessageOpen, '>'
	}
	return tListOpen, ']'
}

func (t *tokenizer) push(c byte) { t.stack = append(t.stack, c) }
func (t *tokenizer) pop()        { t.stack = t.stack[:len(t.stack)-1] }

func (t *tokenizer) take(kind tokKind, size int, attrs uint8) token {
	tok := token{kind: kind, attrs: attrs, pos: t.off(), raw: t.in[:size]}
	t.in = skipSpace(t.in[size:])
	return tok
}

func otherClose(c byte) byte {
	switch c {
	case '}':
		return '>'
	case '>':
		return '}'
	}
	return 0
}

// next reads the token that may follow a token of kind last.
func (t *tokenizer) next(last tokKind) (token, error) {
	t.in = skipSpace(t.in)
	eof := len(t.in) == 0
	switch last {
	case tEOF:
		return t.take(tEOF, 0, 0), nil
	case tBOF:
		if eof {
			return t.take(tEOF, 0, 0), nil
		}
		return t.fieldName()
	case tName:
		if eof {
			return token{}, t.eof()
		}
		switch c := t.in[0]; c {
		case '{', '<':
			t.push(c)
			return t.take(tMessageOpen, 1, 0), nil
		case '[':
			t.push(c)
			return t.take(tListOpen, 1, 0), nil
		}
		return t.scalar()
	case tScalar, tMessageClose, tListClose:
		open, closeCh := t.open()
		switch open {
		case tBOF:
			if eof {
				return t.take(tEOF, 0, 0), nil
			}
			switch t.in[0] {
			case ',':
				return t.take(tComma, 1, 0), nil
			case ';':
				return t.take(tSemicolon, 1, 0), nil
			}
			return t.fieldName()
		case tMessageOpen:
			if eof {
				return token{}, t.eof()
			}
			switch c := t.in[0]; c {
			case closeCh:
				t.pop()
				return t.take(tMessageClose, 1, 0), nil
			case otherClose(closeCh):
				return token{}, t.syntax("mismatched close character " + strconv.QuoteRune(rune(c)))
			case ',':
				return t.take(tComma, 1, 0), nil
			case ';':
				return t.take(tSemicolon, 1, 0), nil
			}
			return t.fieldName()
		default: // in a list
			if eof {
				return token{}, t.eof()
			}
			switch c := t.in[0]; c {
			case ']':
				t.pop()
				return t.take(tListClose, 1, 0), nil
			case ',':
				return t.take(tComma, 1, 0), nil
			default:
				return token{}, t.syntax("unexpected character " + strconv.QuoteRune(rune(c)))
			}
		}
	case tMessageOpen:
		if eof {
			return token{}, t.eof()
		}
		_, closeCh := t.open()
		switch c := t.in[0]; c {
		case closeCh:
			t.pop()
			return t.take(tMessageClose, 1, 0), nil
		case otherClose(closeCh):
			return token{}, t.syntax("mismatched close character " + strconv.QuoteRune(rune(c)))
		}
		return t.fieldName()
	case tListOpen:
		if eof {
			return token{}, t.eof()
		}
		switch c := t.in[0]; c {
		case ']':
			t.pop()
			return t.take(tListClose, 1, 0), nil
		case '{', '<':
			t.push(c)
			return t.take(tMessageOpen, 1, 0), nil
		}
		return t.scalar()
	case tComma, tSemicolon:
		open, closeCh := t.open()
		switch open {
		case tBOF:
			if eof {
				return t.take(tEOF, 0, 0), nil
			}
			return t.fieldName()
		case tMessageOpen:
			if eof {
				return token{}, t.eof()
			}
			switch c := t.in[0]; c {
			case closeCh:
				t.pop()
				return t.take(tMessageClose, 1, 0), nil
			case otherClose(closeCh):
				return token{}, t.syntax("mismatched close character " + strconv.QuoteRune(rune(c)))
			}
			return t.fieldName()
		default: // after a comma in a list: a value
			if eof {
				return token{}, t.eof()
			}
			switch c := t.in[0]; c {
			case '{', '<':
				t.push(c)
				return t.take(tMessageOpen, 1, 0), nil
			}
			return t.scalar()
		}
	}
	return token{}, t.syntax("unexpected token") // not reached
}

// fieldName reads a field name and the ':' after it, if any.
func (t *tokenizer) fieldName() (token, error) {
	tok, err := t.fieldName1()
	if err == nil && len(t.in) > 0 && t.in[0] == ':' {
		t.in = skipSpace(t.in[1:])
		tok.attrs |= hasSeparator
	}
	return tok, err
}

func (t *tokenizer) fieldName1() (token, error) {
	if t.in[0] == '[' {
		return t.typeName()
	}
	if n := identSize(t.in, false); n > 0 {
		return t.take(tName, n, nameIdent), nil
	}
	if num := scanNumber(t.in); num.size > 0 {
		s := num.text(t.in)
		if num.kind&numNeg == 0 && num.kind&^numNeg == numDec {
			if _, err := strconv.ParseInt(s, 10, 32); err == nil {
				tok := t.take(tName, num.size, nameNumber)
				tok.str = s
				return tok, nil
			}
		}
		return token{}, t.syntax("invalid field number: " + s)
	}
	return token{}, t.syntax("invalid field name: " + errID(t.in))
}

// typeName reads "[" ExtensionName | AnyName "]", with spaces and comments
// allowed inside, as prototext does.
func (t *tokenizer) typeName() (token, error) {
	s := skipSpace(t.in[1:])
	if len(s) == 0 {
		return token{}, t.eof()
	}
	var name []byte
	closed := false
	bad := func(s []byte, n int) error {
		end := len(t.in) - len(s) + min(n, len(s))
		return t.syntax("invalid type URL/extension field name: " + string(t.in[:end]))
	}
	for len(s) > 0 && !closed {
		switch c := s[0]; {
		case c == ']':
			s = s[1:]
			closed = true
		case c == '/' || isTypeNameChar(c) || isURLExtraChar(c):
			name = append(name, c)
			s = skipSpace(s[1:])
		case c == '%':
			if len(s) < 3 || !isHex(s[1]) || !isHex(s[2]) {
				return token{}, bad(s, 3)
			}
			name = append(name, s[0], s[1], s[2])
			s = skipSpace(s[3:])
		default:
			return token{}, bad(s, 1)
		}
	}
	if !closed {
		return token{}, t.eof()
	}
	typ := name
	if i := bytes.LastIndexByte(name, '/'); i >= 0 {
		if i > 0 && name[0] == '/' {
			return token{}, bad(s, 0)
		}
		typ = name[i+1:]
	}
	for _, part := range bytes.Split(typ, []byte{'.'}) {
		if len(part) == 0 {
			return token{}, bad(s, 0)
		}
	}
	for _, c := range typ {
		if c == '%' || c != '.' && isURLExtraChar(c) {
			return token{}, bad(s, 0)
		}
	}
	start, end := t.off(), len(t.orig)-len(s)
	t.in = skipSpace(s)
	return token{kind: tName, attrs: nameType, pos: start, raw: t.orig[start:end], str: string(name)}, nil
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isTypeNameChar(c byte) bool {
	return c == '-' || c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isURLExtraChar(c byte) bool {
	switch c {
	case '.', '~', '!', '$', '&', '(', ')', '*', '+', ',', ';', '=':
		return true
	}
	return false
}

// identSize is the length of the identifier ([_a-zA-Z][_a-zA-Z0-9]*, with a
// leading '-' when neg) at the start of s, if a delimiter follows it.
func identSize(s []byte, neg bool) int {
	n := 0
	if neg && len(s) > 0 && s[0] == '-' {
		n++
	}
	if n >= len(s) || !(s[n] == '_' || 'a' <= s[n] && s[n] <= 'z' || 'A' <= s[n] && s[n] <= 'Z') {
		return 0
	}
	n++
	for n < len(s) && (s[n] == '_' || 'a' <= s[n] && s[n] <= 'z' || 'A' <= s[n] && s[n] <= 'Z' || '0' <= s[n] && s[n] <= '9') {
		n++
	}
	if n < len(s) && !isDelim(s[n]) {
		return 0
	}
	return n
}

// isDelim reports whether c ends an identifier or a number.
func isDelim(c byte) bool {
	return !(c == '-' || c == '+' || c == '.' || c == '_' ||
		'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9')
}

// scalar reads a string (adjacent strings joined), a literal (identifier,
// possibly negative) or a number.
func (t *tokenizer) scalar() (token, error) {
	if c := t.in[0]; c == '"' || c == '\'' {
		return t.strings()
	}
	if n := identSize(t.in, true); n > 0 {
		return t.take(tScalar, n, scalarLiteral), nil
	}
	if num := scanNumber(t.in); num.size > 0 {
		tok := t.take(tScalar, num.size, scalarNumber)
		tok.num = num.kind
		tok.str = num.text(tok.raw)
		return tok, nil
	}
	return token{}, t.syntax("invalid scalar value: " + errID(t.in))
}

type number struct {
	kind uint8
	size int
	sep  int // spaces and comments between '-' and the digits
}

// text is the number without the spaces after '-' and without suffix 'f'.
func (n number) text(b []byte) string {
	size := n.size
	if n.kind&numFloat != 0 && (b[size-1] == 'f' || b[size-1] == 'F') {
		size--
	}
	if n.kind&numNeg != 0 && n.sep > 0 {
		return "-" + string(b[1+n.sep:size])
	}
	return string(b[:size])
}

// scanNumber scans a decimal, hex (0x) or octal (0) integer or a float
// (digits with '.', an exponent or suffix 'f'), with an optional '-' that
// spaces or comments may follow.
func scanNumber(in []byte) number {
	kind := numDec
	size, sep := 0, 0
	s := in
	if len(s) == 0 {
		return number{}
	}
	neg := false
	if s[0] == '-' {
		neg = true
		s = s[1:]
		size++
		before := len(s)
		s = skipSpace(s)
		sep = before - len(s)
		size += sep
		if len(s) == 0 {
			return number{}
		}
	}
	fin := func(k uint8) number {
		if neg {
			k |= numNeg
		}
		return number{kind: k, size: size, sep: sep}
	}
	switch {
	case s[0] == '0':
		if len(s) > 1 {
			switch {
			case s[1] == 'x' || s[1] == 'X':
				n := 2
				s = s[2:]
				for len(s) > 0 && isHex(s[0]) {
					s = s[1:]
					n++
				}
				if n == 2 {
					return number{}
				}
				size += n
				if len(s) > 0 && !isDelim(s[0]) {
					return number{}
				}
				return fin(numHex)
			case '0' <= s[1] && s[1] <= '7':
				n := 2
				s = s[2:]
				for len(s) > 0 && '0' <= s[0] && s[0] <= '7' {
					s = s[1:]
					n++
				}
				size += n
				if len(s) > 0 && !isDelim(s[0]) {
					return number{}
				}
				return fin(numOct)
			}
		}
		s = s[1:]
		size++
	case '1' <= s[0] && s[0] <= '9':
		n := 1
		s = s[1:]
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s = s[1:]
			n++
		}
		size += n
	case s[0] == '.':
		kind = numFloat
	default:
		return number{}
	}
	if len(s) > 0 && s[0] == '.' {
		n := 1
		s = s[1:]
		if len(s) == 0 && kind == numFloat {
			return number{}
		}
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s = s[1:]
			n++
		}
		size += n
		kind = numFloat
	}
	if len(s) >= 2 && (s[0] == 'e' || s[0] == 'E') {
		kind = numFloat
		s = s[1:]
		n := 1
		if s[0] == '+' || s[0] == '-' {
			s = s[1:]
			n++
			if len(s) == 0 {
				return number{}
			}
		}
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s = s[1:]
			n++
		}
		size += n
	}
	if len(s) > 0 && (s[0] == 'f' || s[0] == 'F') {
		kind = numFloat
		s = s[1:]
		size++
	}
	if len(s) > 0 && !isDelim(s[0]) {
		return number{}
	}
	return fin(kind)
}

// strings reads one or more adjacent quoted strings as one value.
func (t *tokenizer) strings() (token, error) {
	start := t.in
	var parts []string
	for len(t.in) > 0 && (t.in[0] == '"' || t.in[0] == '\'') {
		s, err := t.quoted()
		if err != nil {
			return token{}, err
		}
		parts = append(parts, s)
	}
	// raw ends at the last closing quote: the space and comments after it
	// are not the value's (an error message quotes raw).
	return token{
		kind: tScalar, attrs: scalarString, pos: len(t.orig) - len(start),
		raw: start[:len(start)-t.afterQuote], str: strings.Join(parts, ""),
	}, nil
}

// quoted reads one quoted string with its escapes: \a \b \f \n \r \t \v
// \\ \' \" \?, octal \ooo (up to 3 digits, at most \377), hex \xh or \xhh,
// \uhhhh and \Uhhhhhhhh (a code point that is not a surrogate). Raw
// newlines, NUL bytes and invalid UTF-8 are errors.
func (t *tokenizer) quoted() (string, error) {
	in := t.in
	quote := in[0]
	in = in[1:]
	i := indexNeedEscape(in)
	in, out := in[i:], in[:i:i]
	for len(in) > 0 {
		switch r, n := utf8.DecodeRune(in); {
		case r == utf8.RuneError && n == 1:
			return "", t.syntax("invalid UTF-8 detected")
		case r == 0 || r == '\n':
			return "", t.syntax("invalid character " + strconv.QuoteRune(r) + " in string")
		case r == rune(quote):
			t.afterQuote = len(in) - 1
			t.in = skipSpace(in[1:])
			return string(out), nil
		case r == '\\':
			if len(in) < 2 {
				return "", t.eof()
			}
			switch c := in[1]; c {
			case '"', '\'', '\\', '?':
				in, out = in[2:], append(out, c)
			case 'a':
				in, out = in[2:], append(out, '\a')
			case 'b':
				in, out = in[2:], append(out, '\b')
			case 'n':
				in, out = in[2:], append(out, '\n')
			case 'r':
				in, out = in[2:], append(out, '\r')
			case 't':
				in, out = in[2:], append(out, '\t')
			case 'v':
				in, out = in[2:], append(out, '\v')
			case 'f':
				in, out = in[2:], append(out, '\f')
			case '0', '1', '2', '3', '4', '5', '6', '7':
				n := len(in[1:]) - len(bytes.TrimLeft(in[1:], "01234567"))
				n = min(n, 3)
				v, err := strconv.ParseUint(string(in[1:1+n]), 8, 8)
				if err != nil {
					return "", t.syntax("invalid octal escape code " + strconv.Quote(string(in[:1+n])) + " in string")
				}
				in, out = in[1+n:], append(out, byte(v))
			case 'x':
				n := len(in[2:]) - len(bytes.TrimLeft(in[2:], "0123456789abcdefABCDEF"))
				n = min(n, 2)
				v, err := strconv.ParseUint(string(in[2:2+n]), 16, 8)
				if err != nil {
					return "", t.syntax("invalid hex escape code " + strconv.Quote(string(in[:2+n])) + " in string")
				}
				in, out = in[2+n:], append(out, byte(v))
			case 'u', 'U':
				n := 6
				if c == 'U' {
					n = 10
				}
				if len(in) < n {
					return "", t.eof()
				}
				v, err := strconv.ParseUint(string(in[2:n]), 16, 32)
				if utf8.MaxRune < v || err != nil {
					return "", t.syntax("invalid Unicode escape code " + strconv.Quote(string(in[:n])) + " in string")
				}
				// A surrogate code point is not a character: the spec's
				// escapes name code points, and a UTF-16 pair written as
				// two escapes is refused as C++ refuses it (the conformance
				// suite's StringLiteral*UnicodeEscapeSurrogate* tests).
				if r := rune(v); utf16.IsSurrogate(r) {
					return "", t.syntax("invalid Unicode escape code " + strconv.Quote(string(in[:n])) + " in string: a surrogate code point (a UTF-16 pair is written as one \\U escape)")
				}
				out = utf8.AppendRune(out, rune(v))
				in = in[n:]
			default:
				return "", t.syntax("invalid escape code " + strconv.Quote(string(in[:2])) + " in string")
			}
		default:
			i := indexNeedEscape(in[n:])
			in, out = in[n+i:], append(out, in[:n+i]...)
		}
	}
	return "", t.eof()
}

func indexNeedEscape(b []byte) int {
	for i, c := range b {
		if c < ' ' || c == '"' || c == '\'' || c == '\\' || c >= 0x7f {
			return i
		}
	}
	return len(b)
}

// skipSpace skips spaces, tabs, newlines, carriage returns and '#' comments.
func skipSpace(b []byte) []byte {
	for len(b) > 0 {
		switch b[0] {
		case ' ', '\n', '\r', '\t':
			b = b[1:]
		case '#':
			if i := bytes.IndexByte(b, '\n'); i >= 0 {
				b = b[i+1:]
			} else {
				b = nil
			}
		default:
			return b
		}
	}
	return b
}

// errID is the text at the start of b that looks like a bad token, for
// error messages.
func errID(b []byte) string {
	const maxLen = 32
	for i := 0; i < len(b); {
		if i > maxLen {
			return string(b[:i]) + "…"
		}
		r, n := utf8.DecodeRune(b[i:])
		if r > utf8.RuneSelf || (r != '/' && isDelim(byte(r))) {
			if i == 0 {
				i = n
			}
			return string(b[:i])
		}
		i += n
	}
	return string(b)
}
