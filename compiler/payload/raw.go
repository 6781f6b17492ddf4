package payload

import (
	"encoding/hex"
	"github.com/protoplay/protoplay/compiler/diag"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/protoplay/protoplay/runtime/wire"
	"google.golang.org/protobuf/encoding/protowire"
)

// View is the field-by-field anatomy of one binary payload, produced by
// DecodeRaw (no schema) and WireView (against a message type).
type View struct {
	// Type is the full name of the message type, empty for a raw decode.
	Type string `json:"type,omitempty"`
	// Size is the payload length in bytes.
	Size int `json:"size"`
	// Fields are the top-level fields in payload order. When decoding
	// failed, they run up to the failure, and the field being read is
	// included with its children so far.
	Fields []Field `json:"fields"`
	// Error, when set, says where and why decoding stopped.
	Error *diag.Error `json:"error,omitempty"`
	// Unlisted is the number of fields and packed elements left out of
	// the view: it lists the first MaxViewFields in byte order (a field
	// counts one, and each field or element inside it one more), and
	// those after are decoded and checked but not listed. 0 when the
	// view is complete.
	Unlisted int `json:"unlisted,omitempty"`
	// UnlistedFrom is the byte offset of the first field or element left
	// out (when Unlisted > 0): every field starting there or later is.
	UnlistedFrom int `json:"unlistedFrom,omitempty"`
}

// Field is one field (a tag and its value) of a payload, or one element of
// a packed field. All offsets and lengths are in bytes from the start of the
// payload.
type Field struct {
	// Offset is where the field's tag starts (for a packed element, where
	// the element starts).
	Offset int `json:"offset"`
	// Length covers the tag, any length prefix, the value and, for a
	// group, its END_GROUP tag.
	Length int `json:"length"`
	// TagLength is the number of tag bytes (a tag is a varint); 0 for a
	// packed element, which has no tag.
	TagLength int `json:"tagLength"`
	// Tag is the tag bytes in hex, e.g. "0a".
	Tag string `json:"tag,omitempty"`
	// Number is the field number, 1 to 536870911.
	Number int32 `json:"number"`
	// WireType is 0 VARINT, 1 I64, 2 LEN, 3 SGROUP (a group) or 5 I32.
	// For a packed element it is the wire type the element would have
	// on its own.
	WireType int `json:"wireType"`
	// Name is the field's name in the schema (an extension as
	// "[pkg.ext]"); empty in a raw decode and for unknown fields.
	Name string `json:"name,omitempty"`
	// Type is, against a schema, the field's type: a scalar type name
	// ("int32", "string", ...), "group", or the full name of a message or
	// enum type. In a raw decode it is the interpretation chosen:
	// "varint", "fixed32", "fixed64", "message", "string", "bytes" or
	// "group".
	Type string `json:"type"`
	// Unknown marks a field whose number the schema does not define, or
	// whose wire type does not match the definition; it is decoded raw.
	Unknown bool `json:"unknown,omitempty"`
	// Packed marks a LEN field holding packed scalar elements (Children).
	Packed bool `json:"packed,omitempty"`
	// Nested marks a message or group value: Children are its fields
	// (possibly none).
	Nested bool `json:"nested,omitempty"`
	// ValueOffset and ValueLength locate the value: after the tag and any
	// length prefix; for a group, the bytes between its tags.
	ValueOffset int `json:"valueOffset"`
	ValueLength int `json:"valueLength"`
	// Value is a scalar value as text: integers in decimal (ZigZag
	// decoded for sint32/sint64), floats in shortest form, bool as
	// true/false, enums as NAME or the number, strings Go-quoted, bytes
	// in hex. Empty for messages, groups and packed fields.
	Value string `json:"value,omitempty"`
	// Alternatives are other readings of the same bytes (raw decode and
	// unknown fields), such as a varint read as sint64 or a LEN value read
	// as packed varints.
	Alternatives []Alternative `json:"alternatives,omitempty"`
	// Children are the fields of a nested message or group, or the
	// elements of a packed field.
	Children []Field `json:"children,omitempty"`
	// Note points out something unusual about the encoding that still
	// decodes: an overlong varint, an unknown enum number, invalid UTF-8
	// in a string, a wire type that does not match the schema.
	Note string `json:"note,omitempty"`

	// unlisted marks a field past MaxViewFields: decoded, not listed.
	unlisted bool
}

// Alternative is another reading of a field's bytes.
type Alternative struct {
	// As names the reading: "sint64", "int64", "int32", "double",
	// "float", "string" or "packed varint".
	As string `json:"as"`
	// Value is the value under that reading, formatted as in Field.Value;
	// a packed reading is written as a list, "[1, 2, 3]".
	Value string `json:"value"`
}

// Wire types as numbers, for View and Field.
const (
	wtVarint = int(wire.VarintType)
	wtI64    = int(wire.Fixed64Type)
	wtLen    = int(wire.BytesType)
	wtSGroup = int(wire.StartGroupType)
	wtEGroup = int(wire.EndGroupType)
	wtI32    = int(wire.Fixed32Type)
)

// WireTypeName is the spec's name of a wire type: VARINT, I64, LEN, SGROUP,
// EGROUP or I32; "wire type N" for 6 and 7, which are invalid. The names
// are runtime/wire's (wire.Type.String).
func WireTypeName(wt int) string {
	if wt < 0 || wt > math.MaxUint8 {
		return "wire type " + strconv.Itoa(wt)
	}
	return wire.Type(wt).String()
}

// DecodeRaw decodes a binary payload without a schema, as
// `protoc --decode_raw` does, into a View with every field's byte range.
// A VARINT is shown unsigned, with its ZigZag (sint64) and two's-complement
// (int64, int32) readings as Alternatives; I64 and I32 values likewise show
// their signed and floating-point readings. A LEN value is shown as a
// nested message when its bytes parse as one (an empty value is a string),
// else as a string when it is valid UTF-8, else as bytes; a LEN value that
// also parses as packed varints gets that reading as an Alternative when it
// is not text and holds no nested LEN or group (so each byte is listed in
// at most one such reading). Groups (SGROUP ... EGROUP) are shown with
// their fields as children.
//
// A malformed payload (truncated field, varint over 10 bytes, tag over
// MaxTagBytes, wire type 6 or 7, field number 0 or over 536870911, LEN past
// the end, unmatched EGROUP, groups nested over MaxUnknownDepth; LEN values
// nested deeper are shown as bytes) stops decoding: the View holds the fields
// read so far and an *diag.Error of kind diag.KindPayload with the byte offset and
// the path of field numbers reached ("#2.#1"), which is also returned as the
// error. Input over MaxInputBytes gives diag.KindLimit. DecodeRaw allocates at
// most MaxViewBytesPerInputByte per input byte plus MaxViewOverhead.
func DecodeRaw(payload []byte) (*View, error) {
	return newView("", payload, func(d *rawDecoder) ([]Field, *diag.Error) {
		// Without a schema every field is unknown: the top level is depth 0
		// of MaxUnknownDepth.
		fields, _, err := d.fields(0, len(payload), 0, "", 0)
		return fields, err
	})
}

// newView is the View of payload as message type typ ("" for a raw
// decode): after the size check, walk reads the top-level fields, and the
// View holds those read and the *diag.Error that stopped it, if any (also
// returned as the error).
func newView(typ string, payload []byte, walk func(*rawDecoder) ([]Field, *diag.Error)) (*View, error) {
	v := &View{Type: typ, Size: len(payload), Fields: []Field{}}
	if err := checkSize(len(payload)); err != nil {
		v.Error = err.(*diag.Error)
		return v, err
	}
	d := &rawDecoder{b: payload, unlistedFrom: -1}
	fields, err := walk(d)
	v.Fields = append(v.Fields, fields...)
	if d.unlisted > 0 {
		v.Unlisted, v.UnlistedFrom = d.unlisted, d.unlistedFrom
	}
	if err != nil {
		v.Error = err
		return v, err
	}
	return v, nil
}

type rawDecoder struct {
	b []byte
	// listed counts the fields and elements listed so far, unlisted
	// those left out past MaxViewFields, from byte unlistedFrom on.
	listed, unlisted, unlistedFrom int
	// groupEndAt is where the EGROUP tag that ended the last group read
	// starts.
	groupEndAt int
}

// list reports whether the field or packed element at pos, the next in
// byte order, is listed: the first MaxViewFields are.
func (d *rawDecoder) list(pos int) bool {
	if d.listed < MaxViewFields {
		d.listed++
		return true
	}
	if d.unlisted == 0 {
		d.unlistedFrom = pos
	}
	d.unlisted++
	return false
}

// room is how many more fields the view lists.
func (d *rawDecoder) room() int { return MaxViewFields - d.listed }

// readTag reads and checks a tag at pos. On failure it returns an *diag.Error.
func readTag(b []byte, pos, end int, path string) (num protowire.Number, wt int, n int, err *diag.Error) {
	v, n := consumeTag(b[pos:end])
	if n < 0 {
		if n == errTagOverlong {
			return 0, 0, 0, payloadErr(pos, path, "bad tag: longer than %d bytes (a tag is a 32-bit varint)", MaxTagBytes)
		}
		return 0, 0, 0, payloadErr(pos, path, "bad tag: %s", varintProblem(n))
	}
	num = protowire.Number(v >> 3)
	wt = int(v & 7)
	if v>>3 == 0 || v>>3 > uint64(protowire.MaxValidNumber) {
		return 0, 0, 0, payloadErr(pos, path, "field number %d out of range (valid: 1 to %d)", v>>3, protowire.MaxValidNumber)
	}
	if wt == 6 || wt == 7 {
		return 0, 0, 0, payloadErr(pos, path, "invalid wire type %d in tag of field %d", wt, num)
	}
	return num, wt, n, nil
}

// MaxTagBytes is the longest tag accepted: a tag is a 32-bit varint (field
// number << 3 | wire type), at most 5 bytes, as the C++ and upb parsers
// read it (wire.MaxTagBytes). google.golang.org/protobuf reads tags of up
// to 10 bytes; every function of this package rejects them, at the tag's
// offset.
const MaxTagBytes = wire.MaxTagBytes

// errTagOverlong is consumeTag's code for a tag longer than MaxTagBytes.
const errTagOverlong = -1000

// nextTag reads a valid tag from the front of b, as generated code does
// (wire.ConsumeTag): at most MaxTagBytes long, with a field number from 1
// to 536870911 and a wire type from 0 to 5. n < 0 if b does not start with
// one.
func nextTag(b []byte) (num protowire.Number, wt int, n int) {
	num32, typ, n := wire.ConsumeTag(b)
	return protowire.Number(num32), int(typ), n
}

// consumeTag reads a tag's varint from the front of b: its value and
// length, or n < 0 (a protowire error code, or errTagOverlong when the
// first MaxTagBytes bytes all have the continuation bit set).
func consumeTag(b []byte) (v uint64, n int) {
	if len(b) >= MaxTagBytes && b[0]&b[1]&b[2]&b[3]&b[4] >= 0x80 {
		return 0, errTagOverlong
	}
	return protowire.ConsumeVarint(b)
}

// varintProblem explains a negative length from protowire.ConsumeVarint.
func varintProblem(n int) string {
	if protowire.ParseError(n) == io.ErrUnexpectedEOF {
		return "unexpected end of input in varint"
	}
	return "varint longer than 10 bytes or over 64 bits"
}

func payloadErr(off int, path string, format string, args ...any) *diag.Error {
	e := diag.New(diag.KindPayload, format, args...)
	e.Offset = off
	e.Path = path
	return e
}

func joinPath(path, elem string) string {
	if path == "" {
		return elem
	}
	return path + "." + elem
}

// fields decodes fields in b[start:end] at nesting depth depth. If group is
// non-zero, the fields belong to that group and decoding ends after its
// EGROUP tag, whose end offset is returned.
func (d *rawDecoder) fields(start, end, depth int, path string, group protowire.Number) ([]Field, int, *diag.Error) {
	var out []Field
	pos := start
	for pos < end {
		f, next, done, err := d.field(pos, end, depth, path, group)
		if done {
			return out, next, nil
		}
		if err != nil {
			if f != nil && !f.unlisted {
				out = append(out, *f)
			}
			return out, next, err
		}
		if !f.unlisted {
			out = append(out, *f)
		}
		pos = next
	}
	return out, pos, groupUnclosed(pos, path, group)
}

// groupEnd checks the EGROUP tag of field num at pos against group, the
// field number of the group being read (0 outside any group): nil when the
// tag closes it, else the error.
func groupEnd(pos int, path string, num, group protowire.Number) *diag.Error {
	switch group {
	case num:
		return nil
	case 0:
		return payloadErr(pos, path, "EGROUP for field %d without a matching SGROUP", num)
	}
	return payloadErr(pos, path, "EGROUP for field %d does not close the group of field %d", num, group)
}

// groupUnclosed is the error for fields that end at pos inside the group of
// field group: nil outside any group (group 0).
func groupUnclosed(pos int, path string, group protowire.Number) *diag.Error {
	if group == 0 {
		return nil
	}
	return payloadErr(pos, path, "unexpected end of input: no EGROUP for group field %d", group)
}

// field decodes one field at pos. done reports that pos held the EGROUP
// closing group (next is then past it). On error, f may hold the partial
// field (a group or message read in part).
func (d *rawDecoder) field(pos, end, depth int, path string, group protowire.Number) (f *Field, next int, done bool, err *diag.Error) {
	b := d.b
	num, wt, n, err := readTag(b, pos, end, path)
	if err != nil {
		return nil, pos, false, err
	}
	if wt == wtEGroup {
		if err := groupEnd(pos, path, num, group); err != nil {
			return nil, pos, false, err
		}
		d.groupEndAt = pos
		return nil, pos + n, true, nil
	}
	f = &Field{Offset: pos, TagLength: n, Tag: hex.EncodeToString(b[pos : pos+n]), Number: int32(num), WireType: wt}
	f.unlisted = !d.list(pos)
	fpath := joinPath(path, "#"+strconv.Itoa(int(num)))
	vpos := pos + n
	f.ValueOffset = vpos
	switch wt {
	case wtVarint:
		v, m := protowire.ConsumeVarint(b[vpos:end])
		if m < 0 {
			return nil, pos, false, payloadErr(vpos, fpath, "%s", varintProblem(m))
		}
		f.Type = "varint"
		f.Value = strconv.FormatUint(v, 10)
		f.Alternatives = varintAlternatives(v)
		f.Note = overlongNote(v, m)
		f.ValueLength = m
	case wtI64:
		if end-vpos < 8 {
			return nil, pos, false, payloadErr(vpos, fpath, "unexpected end of input: I64 needs 8 bytes, %d remain", end-vpos)
		}
		v, _ := protowire.ConsumeFixed64(b[vpos:end])
		f.Type = "fixed64"
		f.Value = strconv.FormatUint(v, 10)
		if int64(v) < 0 {
			f.Alternatives = append(f.Alternatives, Alternative{"int64", strconv.FormatInt(int64(v), 10)})
		}
		f.Alternatives = append(f.Alternatives, Alternative{"double", formatFloat(math.Float64frombits(v), 64)})
		f.ValueLength = 8
	case wtI32:
		if end-vpos < 4 {
			return nil, pos, false, payloadErr(vpos, fpath, "unexpected end of input: I32 needs 4 bytes, %d remain", end-vpos)
		}
		v, _ := protowire.ConsumeFixed32(b[vpos:end])
		f.Type = "fixed32"
		f.Value = strconv.FormatUint(uint64(v), 10)
		if int32(v) < 0 {
			f.Alternatives = append(f.Alternatives, Alternative{"int32", strconv.FormatInt(int64(int32(v)), 10)})
		}
		f.Alternatives = append(f.Alternatives, Alternative{"float", formatFloat(float64(math.Float32frombits(v)), 32)})
		f.ValueLength = 4
	case wtLen:
		vs, ve, err := lenValue(b, vpos, end, fpath)
		if err != nil {
			return nil, pos, false, err
		}
		f.ValueOffset, f.ValueLength = vs, ve-vs
		d.classifyLen(f, vs, ve, depth, fpath)
	case wtSGroup:
		if depth >= MaxUnknownDepth {
			return nil, pos, false, unknownLimitErr(pos, fpath)
		}
		f.Type = "group"
		f.Nested = true
		children, np, err := d.fields(vpos, end, depth+1, fpath, num)
		f.Children = children
		if err != nil {
			f.ValueLength = partialEnd(vpos, err.Offset, children) - vpos
			f.Length = f.ValueLength + n
			return f, np, false, err
		}
		f.ValueLength = d.groupEndAt - vpos
		next = np
		f.Length = next - pos
		return f, next, false, nil
	}
	next = f.ValueOffset + f.ValueLength
	f.Length = next - pos
	return f, next, false, nil
}

// partialEnd is where a group cut short by an error at errOffset ends in a
// view: past its last child and the error, so children stay inside it.
func partialEnd(vpos, errOffset int, children []Field) int {
	end := max(vpos, errOffset)
	if len(children) > 0 {
		last := children[len(children)-1]
		end = max(end, last.Offset+last.Length)
	}
	return end
}

func limitErr(pos int, path string) *diag.Error {
	e := payloadErr(pos, path, "%s", depthMessage)
	e.Kind, e.Limit = diag.KindLimit, "MaxDepth"
	return e
}

func unknownLimitErr(pos int, path string) *diag.Error {
	e := payloadErr(pos, path, "more than %d groups nested in an unknown field (MaxUnknownDepth)", MaxUnknownDepth)
	e.Kind, e.Limit = diag.KindLimit, "MaxUnknownDepth"
	return e
}

// lenValue reads the length prefix of a LEN value whose prefix starts at
// pos and returns the value's bounds.
func lenValue(b []byte, pos, end int, path string) (int, int, *diag.Error) {
	l, m := protowire.ConsumeVarint(b[pos:end])
	if m < 0 {
		return 0, 0, payloadErr(pos, path, "bad length: %s", varintProblem(m))
	}
	if l > uint64(end-pos-m) {
		return 0, 0, payloadErr(pos, path, "LEN of %d bytes exceeds the %d remaining", l, end-pos-m)
	}
	vs := pos + m
	return vs, vs + int(l), nil
}

// classifyLen picks the reading of a LEN value for a raw decode.
func (d *rawDecoder) classifyLen(f *Field, vs, ve, depth int, path string) {
	v := d.b[vs:ve]
	if len(v) > 0 && depth < MaxUnknownDepth && validMessage(v, depth+1) {
		before := d.unlisted
		children, _, err := d.fields(vs, ve, depth+1, path, 0)
		if err == nil {
			f.Type = "message"
			f.Nested = true
			f.Children = children
			if d.unlisted == before && flat(children) {
				if utf8.Valid(v) && printable(v) {
					f.Alternatives = append(f.Alternatives, Alternative{"string", strconv.Quote(string(v))})
				}
				if p, ok := packedVarints(v); ok {
					f.Alternatives = append(f.Alternatives, Alternative{"packed varint", p})
				}
			}
			return
		}
	}
	if utf8.Valid(v) {
		f.Type = "string"
		f.Value = strconv.Quote(string(v))
		if printable(v) {
			return
		}
	} else {
		f.Type = "bytes"
		f.Value = hex.EncodeToString(v)
	}
	if p, ok := packedVarints(v); ok {
		f.Alternatives = append(f.Alternatives, Alternative{"packed varint", p})
	}
}

// flat reports whether fields hold no LEN or group field, so that readings
// of their parent's bytes cost no more than the bytes themselves.
func flat(fields []Field) bool {
	for _, f := range fields {
		if f.WireType == wtLen || f.WireType == wtSGroup {
			return false
		}
	}
	return true
}

func printable(v []byte) bool {
	for _, r := range string(v) {
		if !unicode.IsPrint(r) && r != '\n' && r != '\t' && r != '\r' {
			return false
		}
	}
	return true
}

// validMessage reports, without allocating, whether v is a well-formed
// sequence of fields read raw at unknown-field nesting depth depth (see
// MaxUnknownDepth). It looks into groups, whose fields are inline, but not
// into LEN values.
func validMessage(v []byte, depth int) bool {
	var stack [MaxUnknownDepth]protowire.Number
	sp := 0
	for pos := 0; pos < len(v); {
		num, wt, n := nextTag(v[pos:])
		if n < 0 {
			return false
		}
		pos += n
		switch wt {
		case wtVarint:
			_, n = protowire.ConsumeVarint(v[pos:])
			if n < 0 {
				return false
			}
			pos += n
		case wtI64:
			if len(v)-pos < 8 {
				return false
			}
			pos += 8
		case wtI32:
			if len(v)-pos < 4 {
				return false
			}
			pos += 4
		case wtLen:
			l, n := protowire.ConsumeVarint(v[pos:])
			if n < 0 || l > uint64(len(v)-pos-n) {
				return false
			}
			pos += n + int(l)
		case wtSGroup:
			if depth+sp >= MaxUnknownDepth {
				return false
			}
			stack[sp] = num
			sp++
		case wtEGroup:
			if sp == 0 || stack[sp-1] != num {
				return false
			}
			sp--
		default:
			return false
		}
	}
	return sp == 0
}

// packedVarints reads v as packed varints, formatted as "[1, 2, 3]".
func packedVarints(v []byte) (string, bool) {
	if len(v) == 0 {
		return "", false
	}
	var sb strings.Builder
	sb.WriteByte('[')
	for pos := 0; pos < len(v); {
		x, n := protowire.ConsumeVarint(v[pos:])
		if n < 0 {
			return "", false
		}
		if pos > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(strconv.FormatUint(x, 10))
		pos += n
	}
	sb.WriteByte(']')
	return sb.String(), true
}

func varintAlternatives(v uint64) []Alternative {
	var alts []Alternative
	if v != 0 {
		alts = append(alts, Alternative{"sint64", strconv.FormatInt(protowire.DecodeZigZag(v), 10)})
	}
	if int64(v) < 0 {
		alts = append(alts, Alternative{"int64", strconv.FormatInt(int64(v), 10)})
	} else if v>>32 == 0 && int32(uint32(v)) < 0 {
		alts = append(alts, Alternative{"int32", strconv.FormatInt(int64(int32(uint32(v))), 10)})
	}
	return alts
}

// overlongNote points out a varint written in more bytes than it needs.
func overlongNote(v uint64, n int) string {
	if need := protowire.SizeVarint(v); n > need {
		return "overlong varint: " + itoa(n) + " bytes where " + itoa(need) + " suffice"
	}
	return ""
}

func formatFloat(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return strconv.FormatFloat(f, 'g', -1, bits)
}

func itoa(i int) string    { return strconv.Itoa(i) }
func utoa(u uint64) string { return strconv.FormatUint(u, 10) }
