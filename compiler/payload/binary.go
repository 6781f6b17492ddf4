package payload

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"github.com/protoplay/protoplay/compiler/diag"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
)

// Encoding is how a binary payload is written as input or output.
type Encoding string

// Encodings of a binary payload.
const (
	// Auto detects the encoding of an input: Hex if the text parses as hex
	// (so whitespace alone is an empty payload), else Base64 if it parses
	// as base64, else Binary; hex or base64 in double quotes (as copied
	// from JSON) is read without them. Text that is valid
	// both as hex and as base64 (for example "0a08") is taken as hex; force
	// Base64 for it. Text written as hex (only hex digits, or short groups
	// like "0a 0g") that is not valid hex is an error at the offending
	// byte, never read as base64 ("0a02413", an odd number of digits,
	// would pass as base64); text of base64's alphabet that is neither is
	// an error naming both failures; only other bytes are taken as Binary.
	Auto Encoding = "auto"
	// Binary is the payload bytes as they are.
	Binary Encoding = "binary"
	// Hex is two hex digits per byte. On input, whitespace, commas and
	// colons are ignored, and each byte may carry a 0x or \x prefix
	// ("0a 08", "0a:08", "0x0a,0x08", "\x0a\x08"); a prefixed single digit
	// is one byte ("0xa"). On output, lower-case pairs separated by spaces.
	Hex Encoding = "hex"
	// Base64 is RFC 4648 base64. On input, the standard and URL-safe
	// alphabets, with or without '=' padding, and whitespace are accepted.
	// On output, the standard alphabet with padding.
	Base64 Encoding = "base64"
)

// ParseBinary turns input written in enc into payload bytes, and returns the
// encoding used (the detected one when enc is Auto or empty). Errors are
// *diag.Error of kind diag.KindEncoding with Offset set to the offending input byte,
// diag.KindLimit for a payload over MaxInputBytes (or text over
// MaxTextInputBytes), or diag.KindUsage for an unknown enc.
func ParseBinary(input []byte, enc Encoding) ([]byte, Encoding, error) {
	b, used, err := parseBinary(input, enc)
	if err == nil {
		// The payload's own size is MaxInputBytes's: hex and base64
		// text of it is up to three times as long (see MaxTextInputBytes).
		err = checkSize(len(b))
	}
	if err != nil {
		return nil, used, err
	}
	return b, used, nil
}

// MaxTextInputBytes bounds the input text of ParseBinary: hex with a
// separator after each byte ("0a 08 ") takes three characters per byte of
// a payload of MaxInputBytes.
const MaxTextInputBytes = 3*MaxInputBytes + 2

func parseBinary(input []byte, enc Encoding) ([]byte, Encoding, error) {
	if enc == Binary {
		return input, Binary, checkSize(len(input))
	}
	if len(input) > MaxTextInputBytes {
		e := diag.New(diag.KindLimit, "input of %d bytes exceeds the limit of %d bytes of text (MaxInputBytes of payload, as hex or base64)", len(input), MaxTextInputBytes)
		e.Limit = "MaxInputBytes"
		return nil, enc, e
	}
	switch enc {
	case Hex:
		b, err := parseHex(input)
		return b, Hex, err
	case Base64:
		b, err := parseBase64(input)
		return b, Base64, err
	case Auto, "":
		t := bytes.TrimSpace(input)
		if len(t) == 0 {
			// Nothing but whitespace: an empty payload (as empty hex).
			return []byte{}, Hex, nil
		}
		if len(t) > 2 && t[0] == '"' && t[len(t)-1] == '"' && bytes.IndexByte(t[1:len(t)-1], '"') < 0 {
			if b, enc, err := parseBinary(t[1:len(t)-1], Auto); err == nil && enc != Binary {
				return b, enc, nil
			}
		}
		b, hexErr := parseHex(input)
		if hexErr == nil {
			return b, Hex, nil
		}
		he := hexErr.(*diag.Error)
		if looksHex(input) {
			// Written as hex: a mistake in it is reported as one, not
			// read as base64 (which "0a02413" would pass as).
			return nil, Hex, &diag.Error{Kind: diag.KindEncoding, Offset: he.Offset,
				Message: "not valid hex: " + he.Message + " (the input is written as hex, so it was not tried as base64 or binary; choose base64 as the input encoding if it is base64)"}
		}
		if looksBase64(input) {
			b, b64Err := parseBase64(input)
			if b64Err == nil {
				return b, Base64, nil
			}
			be := b64Err.(*diag.Error)
			return nil, Base64, &diag.Error{Kind: diag.KindEncoding, Offset: be.Offset,
				Message: "not valid base64: " + be.Message + "; not valid hex either (at input byte " + itoa(he.Offset) + ": " + he.Message + "); choose binary as the input encoding to read the bytes as they are"}
		}
		return input, Binary, nil
	}
	return nil, enc, diag.New(diag.KindUsage, "unknown input encoding %q (want auto, binary, hex or base64)", string(enc))
}

// FormatBinary writes payload bytes in enc (Binary, Hex or Base64).
func FormatBinary(b []byte, enc Encoding) ([]byte, error) {
	switch enc {
	case Binary, "":
		return b, nil
	case Hex:
		if len(b) == 0 {
			return nil, nil
		}
		out := make([]byte, 0, 3*len(b))
		for i, c := range b {
			if i > 0 {
				out = append(out, ' ')
			}
			out = hex.AppendEncode(out, []byte{c})
		}
		return out, nil
	case Base64:
		return base64.StdEncoding.AppendEncode(nil, b), nil
	}
	return nil, diag.New(diag.KindUsage, "unknown output encoding %q (want binary, hex or base64)", string(enc))
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func parseHex(in []byte) ([]byte, error) {
	out := make([]byte, 0, len(in)/2)
	for i := 0; i < len(in); {
		c := in[i]
		if isSpace(c) || c == ',' || c == ':' {
			i++
			continue
		}
		prefixed := false
		if i+1 < len(in) && (c == '0' && (in[i+1] == 'x' || in[i+1] == 'X') || c == '\\' && in[i+1] == 'x') {
			i += 2
			prefixed = true
		}
		start := i
		for i < len(in) {
			if _, ok := unhex(in[i]); !ok {
				break
			}
			i++
		}
		run := in[start:i]
		if i < len(in) && !isSpace(in[i]) && in[i] != ',' && in[i] != ':' && in[i] != '\\' && !(in[i] == 'x' || in[i] == 'X') {
			return nil, &diag.Error{Kind: diag.KindEncoding, Message: "not a hex digit: " + quoteByte(in[i]), Offset: i}
		}
		switch {
		case len(run) == 0:
			if i < len(in) {
				return nil, &diag.Error{Kind: diag.KindEncoding, Message: "not a hex digit: " + quoteByte(in[i]), Offset: i}
			}
			return nil, &diag.Error{Kind: diag.KindEncoding, Message: "hex prefix without digits", Offset: start}
		case len(run) == 1 && prefixed:
			d, _ := unhex(run[0])
			out = append(out, d)
		case len(run)%2 == 1:
			return nil, &diag.Error{Kind: diag.KindEncoding, Message: "odd number of hex digits", Offset: i - 1}
		default:
			for j := 0; j < len(run); j += 2 {
				hi, _ := unhex(run[j])
				lo, _ := unhex(run[j+1])
				out = append(out, hi<<4|lo)
			}
		}
	}
	return out, nil
}

func quoteByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return "'" + string(rune(c)) + "'"
	}
	return "0x" + hex.EncodeToString([]byte{c})
}

// looksHex reports whether in is written as hex, even if not valid hex:
// only hex digits, whitespace, commas and 0x or \x prefixes; or two or
// more groups (split at whitespace and commas) of at most 4 characters,
// at least half of them only hex digits, as bytes are written by hand
// ("0a 0g", "0x0a,0xz1"), in text with no control bytes. Base64 has no
// separators inside but line breaks, which come after long lines.
func looksHex(in []byte) bool {
	only := true
	for _, c := range in {
		if _, ok := unhex(c); !ok && !isSpace(c) && c != ',' && c != ':' && c != 'x' && c != 'X' && c != '\\' {
			only = false
			break
		}
	}
	if only {
		return true
	}
	for _, c := range in {
		if (c < 0x20 && !isSpace(c)) || c >= 0x7f {
			return false // not text: binary
		}
	}
	groups := strings.FieldsFunc(string(in), func(r rune) bool { return r < 0x80 && (isSpace(byte(r)) || r == ',' || r == ':') })
	if len(groups) < 2 {
		return false
	}
	hexGroups := 0
	for _, g := range groups {
		if len(g) > 4 {
			return false
		}
		if _, err := parseHex([]byte(g)); err == nil {
			hexGroups++
		}
	}
	return 2*hexGroups >= len(groups)
}

func looksBase64(in []byte) bool {
	for _, c := range in {
		if !(isSpace(c) || c == '=' || c == '+' || c == '/' || c == '-' || c == '_' ||
			'0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

func parseBase64(in []byte) ([]byte, error) {
	clean := make([]byte, 0, len(in))
	pos := make([]int32, 0, len(in)) // input offset of each kept byte, for errors
	for i, c := range in {
		switch {
		case isSpace(c):
			continue
		case c == '-':
			c = '+'
		case c == '_':
			c = '/'
		}
		clean = append(clean, c)
		pos = append(pos, int32(i))
	}
	for len(clean) > 0 && clean[len(clean)-1] == '=' {
		clean = clean[:len(clean)-1]
	}
	out, err := base64.RawStdEncoding.DecodeString(string(clean))
	if err != nil {
		off := len(in)
		if ce, ok := err.(base64.CorruptInputError); ok && int(ce) < len(pos) {
			off = int(pos[ce])
		}
		return nil, &diag.Error{Kind: diag.KindEncoding, Message: "invalid base64", Offset: off}
	}
	return out, nil
}

// Record is one message of a length-delimited stream: its bytes start at
// Offset in the stream, after a varint length prefix.
type Record struct {
	Offset int    `json:"offset"`
	Bytes  []byte `json:"-"`
}

// SplitDelimited splits a length-delimited stream, where each message is
// preceded by its length as a varint (the framing of Java's
// writeDelimitedTo and Go's protodelim), into its records. A truncated
// prefix or a length past the end gives an *diag.Error of kind diag.KindPayload at the
// prefix's offset.
func SplitDelimited(b []byte) ([]Record, error) {
	var recs []Record
	err := EachDelimited(b, func(r Record) error {
		recs = append(recs, r)
		return nil
	})
	return recs, err
}

// EachDelimited calls f with each record of a length-delimited stream in
// turn (see SplitDelimited), holding none of them: for streams of millions
// of records. It stops at the first bad prefix (an *diag.Error of kind
// diag.KindPayload at the prefix's offset, Record its index) or the first
// error f returns, and returns that error.
func EachDelimited(b []byte, f func(Record) error) error {
	n := 0
	for pos := 0; pos < len(b); n++ {
		l, m := protowire.ConsumeVarint(b[pos:])
		if m < 0 {
			return &diag.Error{Kind: diag.KindPayload, Message: "bad length prefix: " + protowire.ParseError(m).Error(), Offset: pos, Record: n}
		}
		if l > uint64(len(b)-pos-m) {
			return &diag.Error{Kind: diag.KindPayload, Offset: pos, Record: n,
				Message: "length prefix of " + utoa(l) + " bytes exceeds the " + countOf(len(b)-pos-m, "byte", "bytes") + " left"}
		}
		start := pos + m
		if err := f(Record{Offset: start, Bytes: b[start : start+int(l)]}); err != nil {
			return err
		}
		pos = start + int(l)
	}
	return nil
}
