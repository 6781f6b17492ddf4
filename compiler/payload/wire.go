package payload

import (
	"encoding/hex"
	"github.com/protoplay/protoplay/compiler/diag"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/protoplay/protoplay/compiler/internal/wirekind"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// WireView decodes a binary payload as message type md and returns every
// field with its byte range, tag bytes, wire type, field number, name, type,
// decoded value and nested children (fields of messages, groups and map
// entries; elements of packed fields). Fields whose number md does not
// define (and that are not known extensions), or whose wire type does not
// match the definition, are included with Unknown set and decoded as
// DecodeRaw would. Notes point out overlong varints, enum numbers with no
// name, invalid UTF-8 in strings and wire type mismatches.
//
// On malformed input the View holds the fields read up to the failure and
// an *diag.Error of kind diag.KindPayload with the exact byte offset and the field
// path reached ("child.items[2]"), also returned as the error; nesting over
// MaxDepth and input over MaxInputBytes give diag.KindLimit. WireView checks the
// wire format only: it does not report missing required fields. It
// allocates at most MaxViewBytesPerInputByte per input byte plus
// MaxViewOverhead.
func (s *Schema) WireView(md protoreflect.MessageDescriptor, payload []byte) (*View, error) {
	md = s.resolve(md)
	return newView(string(md.FullName()), payload, func(d *rawDecoder) ([]Field, *diag.Error) {
		w := wireWalker{s: s, raw: d}
		fields, _, err := w.fields(md, 0, len(payload), 1, "", 0)
		return fields, err
	})
}

type wireWalker struct {
	s   *Schema
	raw *rawDecoder
	// keyTags collects, in check, the offsets of the tags of map entry
	// keys with the wrong wire type, and of the END_GROUP tag of such a
	// key sent as a group (see Schema.Unmarshal).
	keyTags []int
	// badUTF8 is the first string that must be UTF-8 (checksUTF8) and
	// is not, as a KindValue error at its tag with its path; nil if none.
	badUTF8 *diag.Error
}

// utf8Error is the first string of payload, a message of type md, that
// must be valid UTF-8 and is not (a proto3 string, or editions
// utf8_validation = VERIFY, in a field, map key or value, list element
// or Any), as a KindValue error with the byte offset of its tag and its
// path; nil if there is none. google.golang.org/protobuf's error names
// the field but not where it is.
func (s *Schema) utf8Error(md protoreflect.MessageDescriptor, payload []byte) *diag.Error {
	md = s.resolve(md)
	var w *wireWalker
	newView(string(md.FullName()), payload, func(d *rawDecoder) ([]Field, *diag.Error) {
		w = &wireWalker{s: s, raw: d}
		fields, _, err := w.fields(md, 0, len(payload), 1, "", 0)
		return fields, err
	})
	if w == nil {
		return nil
	}
	return w.badUTF8
}

func (w *wireWalker) lookup(md protoreflect.MessageDescriptor, num protowire.Number) (protoreflect.FieldDescriptor, string) {
	if fd := md.Fields().ByNumber(num); fd != nil {
		return fd, string(fd.Name())
	}
	if w.s != nil && md.ExtensionRanges().Has(num) {
		if xt, err := w.s.Types.FindExtensionByNumber(md.FullName(), num); err == nil {
			xd := xt.TypeDescriptor()
			return xd, "[" + string(xd.FullName()) + "]"
		}
	}
	return nil, ""
}

func (w *wireWalker) fields(md protoreflect.MessageDescriptor, start, end, depth int, path string, group protowire.Number) ([]Field, int, *diag.Error) {
	b := w.raw.b
	var out []Field
	var counts map[protowire.Number]int
	isAny := md.FullName() == "google.protobuf.Any"
	typeURL := ""
	pos := start
	for pos < end {
		num, wt, n, err := readTag(b, pos, end, path)
		if err != nil {
			return out, pos, err
		}
		if wt == wtEGroup {
			if err := groupEnd(pos, path, num, group); err != nil {
				return out, pos, err
			}
			w.raw.groupEndAt = pos
			return out, pos + n, nil
		}
		fd, name := w.lookup(md, num)
		elem := name
		if fd == nil {
			elem = "#" + strconv.Itoa(int(num))
		} else if fd.IsList() || fd.IsMap() {
			if counts == nil {
				counts = map[protowire.Number]int{}
			}
			elem += "[" + strconv.Itoa(counts[num]) + "]"
			counts[num]++
		}
		fpath := joinPath(path, elem)
		want := -1
		if fd != nil {
			want = int(wirekind.Of(fd.Kind()))
		}
		packed := fd != nil && fd.IsList() && wt == wtLen && want != wtLen && want != wtSGroup
		if fd == nil || (wt != want && !packed) {
			// An unknown field's value is read raw, its nesting counted
			// from 0 of MaxUnknownDepth, apart from depth.
			f, next, _, err := w.raw.field(pos, end, 0, path, group)
			if f != nil && !f.unlisted {
				f.Unknown = true
				if fd != nil {
					f.Name = name
					f.Note = joinNote(f.Note, WireTypeName(wt)+" does not match the "+typeName(fd)+" field, which is "+WireTypeName(want)+"; kept as an unknown field")
				}
				out = append(out, *f)
			}
			if err != nil {
				return out, next, err
			}
			pos = next
			continue
		}
		f := Field{Offset: pos, TagLength: n, Tag: hex.EncodeToString(b[pos : pos+n]), Number: int32(num),
			WireType: wt, Name: name, Type: typeName(fd), ValueOffset: pos + n, unlisted: !w.raw.list(pos)}
		var err2 *diag.Error
		var next int
		switch {
		case packed:
			next, err2 = w.packed(&f, fd, end, fpath)
		case wt == wtLen && (fd.Kind() == protoreflect.MessageKind):
			var vs, ve int
			vs, ve, err2 = lenValue(b, f.ValueOffset, end, fpath)
			if err2 == nil {
				f.ValueOffset, f.ValueLength = vs, ve-vs
				f.Nested = true
				if depth >= MaxDepth {
					err2 = limitErr(pos, fpath)
					break
				}
				f.Children, _, err2 = w.fields(fd.Message(), vs, ve, depth+1, fpath, 0)
			}
			next = f.ValueOffset + f.ValueLength
		case wt == wtSGroup:
			f.Nested = true
			if depth >= MaxDepth {
				err2 = limitErr(pos, fpath)
				next = pos
				break
			}
			var np int
			f.Children, np, err2 = w.fields(fd.Message(), f.ValueOffset, end, depth+1, fpath, num)
			if err2 != nil {
				f.ValueLength = partialEnd(f.ValueOffset, err2.Offset, f.Children) - f.ValueOffset
				next = f.ValueOffset + f.ValueLength
			} else {
				f.ValueLength = w.raw.groupEndAt - f.ValueOffset
				next = np
			}
		default:
			var vs, ve int
			vs, ve, err2 = scalarValue(b, &f, fd, wt, end, fpath)
			f.ValueOffset, f.ValueLength = vs, ve-vs
			next = ve
			if err2 == nil && f.Note == "invalid UTF-8" && w.badUTF8 == nil && w.s != nil && w.s.checksUTF8(fd) {
				w.badUTF8 = &diag.Error{Kind: diag.KindValue, Offset: pos, Path: fpath,
					Message: "string field " + string(fd.FullName()) + " contains invalid UTF-8"}
			}
			if isAny && err2 == nil {
				switch num {
				case 1:
					typeURL = string(b[vs:ve])
				case 2:
					w.expandAny(&f, typeURL, depth, fpath)
				}
			}
		}
		if err2 != nil {
			if f.Nested && !f.unlisted {
				// A partly read message or group: keep it, so the view
				// shows the path down to the failure.
				f.Length = max(next, f.ValueOffset) - pos
				out = append(out, f)
			}
			return out, err2.Offset, err2
		}
		f.Length = next - pos
		if !f.unlisted {
			out = append(out, f)
		}
		pos = next
	}
	return out, pos, groupUnclosed(pos, path, group)
}

// expandAny shows the value bytes of a google.protobuf.Any as the message
// its type URL names, when the schema has that type and the bytes parse.
// It relies on type_url (field 1) coming before value (field 2), as every
// encoder writes them.
func (w *wireWalker) expandAny(f *Field, typeURL string, depth int, path string) {
	if w.s == nil || typeURL == "" || depth >= MaxDepth {
		return
	}
	mt, err := w.s.Types.FindMessageByURL(typeURL)
	if err != nil {
		f.Note = "type URL " + strconv.Quote(typeURL) + " is not in the schema"
		return
	}
	vs, ve := f.ValueOffset, f.ValueOffset+f.ValueLength
	if !validMessage(w.raw.b[vs:ve], 0) {
		f.Note = "does not parse as " + string(mt.Descriptor().FullName())
		return
	}
	children, _, err2 := w.fields(mt.Descriptor(), vs, ve, depth+1, path, 0)
	if err2 != nil {
		f.Note = "does not parse as " + string(mt.Descriptor().FullName()) + ": " + err2.Message
		return
	}
	f.Value = ""
	f.Nested = true
	f.Type = "bytes: " + string(mt.Descriptor().FullName())
	f.Children = children
}

// packed decodes a LEN field holding packed scalars into element children.
func (w *wireWalker) packed(f *Field, fd protoreflect.FieldDescriptor, end int, path string) (int, *diag.Error) {
	b := w.raw.b
	vs, ve, err := lenValue(b, f.ValueOffset, end, path)
	if err != nil {
		return f.ValueOffset, err
	}
	f.Packed = true
	f.ValueOffset, f.ValueLength = vs, ve-vs
	want := int(wirekind.Of(fd.Kind()))
	// Size the element list once: a varint ends at each byte below 0x80.
	n := 0
	switch want {
	case wtI32:
		n = (ve - vs) / 4
	case wtI64:
		n = (ve - vs) / 8
	default:
		for _, c := range b[vs:ve] {
			if c < 0x80 {
				n++
			}
		}
	}
	f.Children = make([]Field, 0, max(0, min(n, w.raw.room())))
	for pos, i := vs, 0; pos < ve; i++ {
		e := Field{Offset: pos, Number: f.Number, WireType: want, Name: f.Name, Type: f.Type, ValueOffset: pos}
		listed := w.raw.list(pos)
		if !listed {
			// Past MaxViewFields: check the element without formatting it.
			next, ok := checkRaw(b, pos, ve, 0, want, 0)
			if !ok {
				_, _, err := scalarValue(b, &e, fd, want, ve, "")
				err.Path = path + "[" + strconv.Itoa(i) + "]"
				return ve, err
			}
			pos = next
			continue
		}
		_, next, err := scalarValue(b, &e, fd, want, ve, "")
		if err != nil {
			err.Path = path + "[" + strconv.Itoa(i) + "]"
			return ve, err
		}
		e.ValueLength = next - pos
		e.Length = e.ValueLength
		f.Children = append(f.Children, e)
		pos = next
	}
	return ve, nil
}

// scalarValue decodes the value of a scalar, string or bytes field at
// f.ValueOffset and sets f.Value and f.Note. It returns the value's bounds.
func scalarValue(b []byte, f *Field, fd protoreflect.FieldDescriptor, wt, end int, path string) (int, int, *diag.Error) {
	pos := f.ValueOffset
	switch wt {
	case wtVarint:
		v, m := protowire.ConsumeVarint(b[pos:end])
		if m < 0 {
			return pos, pos, payloadErr(pos, path, "%s", varintProblem(m))
		}
		f.Value, f.Note = formatVarint(fd, v)
		f.Note = joinNote(overlongNote(v, m), f.Note)
		return pos, pos + m, nil
	case wtI32:
		if end-pos < 4 {
			return pos, pos, payloadErr(pos, path, "unexpected end of input: I32 needs 4 bytes, %d remain", end-pos)
		}
		v, _ := protowire.ConsumeFixed32(b[pos:end])
		switch fd.Kind() {
		case protoreflect.FloatKind:
			f.Value = formatFloat(float64(math.Float32frombits(v)), 32)
		case protoreflect.Sfixed32Kind:
			f.Value = strconv.FormatInt(int64(int32(v)), 10)
		default:
			f.Value = strconv.FormatUint(uint64(v), 10)
		}
		return pos, pos + 4, nil
	case wtI64:
		if end-pos < 8 {
			return pos, pos, payloadErr(pos, path, "unexpected end of input: I64 needs 8 bytes, %d remain", end-pos)
		}
		v, _ := protowire.ConsumeFixed64(b[pos:end])
		switch fd.Kind() {
		case protoreflect.DoubleKind:
			f.Value = formatFloat(math.Float64frombits(v), 64)
		case protoreflect.Sfixed64Kind:
			f.Value = strconv.FormatInt(int64(v), 10)
		default:
			f.Value = strconv.FormatUint(v, 10)
		}
		return pos, pos + 8, nil
	case wtLen:
		vs, ve, err := lenValue(b, pos, end, path)
		if err != nil {
			return pos, pos, err
		}
		v := b[vs:ve]
		if fd.Kind() == protoreflect.StringKind {
			f.Value = strconv.Quote(string(v))
			if !utf8.Valid(v) {
				f.Note = "invalid UTF-8"
			}
		} else {
			f.Value = hex.EncodeToString(v)
		}
		return vs, ve, nil
	}
	return pos, pos, payloadErr(pos, path, "internal error: wire type %d for %s", wt, typeName(fd))
}

func formatVarint(fd protoreflect.FieldDescriptor, v uint64) (value, note string) {
	switch fd.Kind() {
	case protoreflect.Int32Kind:
		switch {
		case v>>32 == 0 && int32(v) < 0:
			note = "negative int32 not sign-extended (5-byte form; encoders write 10 bytes)"
		case int64(v) != int64(int32(v)):
			note = "value does not fit int32; truncated to its low 32 bits"
		}
		return strconv.FormatInt(int64(int32(v)), 10), note
	case protoreflect.Int64Kind:
		return strconv.FormatInt(int64(v), 10), ""
	case protoreflect.Uint32Kind:
		if v>>32 != 0 {
			note = "value does not fit uint32; truncated to its low 32 bits"
		}
		return strconv.FormatUint(uint64(uint32(v)), 10), note
	case protoreflect.Uint64Kind:
		return strconv.FormatUint(v, 10), ""
	case protoreflect.Sint32Kind:
		return strconv.FormatInt(int64(int32(protowire.DecodeZigZag(v&math.MaxUint32))), 10), ""
	case protoreflect.Sint64Kind:
		return strconv.FormatInt(protowire.DecodeZigZag(v), 10), ""
	case protoreflect.BoolKind:
		if v > 1 {
			note = "bool written as " + strconv.FormatUint(v, 10)
		}
		return strconv.FormatBool(v != 0), note
	case protoreflect.EnumKind:
		n := protoreflect.EnumNumber(int32(v))
		if ev := fd.Enum().Values().ByNumber(n); ev != nil {
			return string(ev.Name()), ""
		}
		note = "no value of " + string(fd.Enum().FullName()) + " has this number"
		if fd.Enum().IsClosed() {
			note += "; closed enum: decoders keep it as an unknown field"
		}
		return strconv.FormatInt(int64(n), 10), note
	}
	return strconv.FormatUint(v, 10), ""
}

func joinNote(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// typeName is a field's type as shown in a View: the scalar kind, or the
// full name of its message or enum type ("map<K, V>" entries are messages).
func typeName(fd protoreflect.FieldDescriptor) string {
	switch fd.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		if fd.IsMap() {
			return "map<" + fd.MapKey().Kind().String() + ", " + typeName(fd.MapValue()) + ">"
		}
		if fd.Kind() == protoreflect.GroupKind {
			return "group " + string(fd.Message().FullName())
		}
		return string(fd.Message().FullName())
	case protoreflect.EnumKind:
		return string(fd.Enum().FullName())
	}
	return fd.Kind().String()
}

// wellFormed reports, without allocating, whether WireView would decode
// payload as md without an error: the same walk (tags of at most
// MaxTagBytes, lengths, groups, packed elements, MaxDepth for messages and
// groups of known fields, MaxUnknownDepth inside unknown fields) with
// nothing recorded. Unmarshal runs it before google.golang.org/protobuf,
// which reads longer tags and deeper unknown groups than protoplay does.
func (s *Schema) wellFormed(md protoreflect.MessageDescriptor, payload []byte) bool {
	ok, _ := s.checkPayload(md, payload)
	return ok
}

// checkPayload is wellFormed also returning the offsets of the tags of map
// entry keys that have the wrong wire type (nil when there are none, the
// common case, which allocates nothing).
func (s *Schema) checkPayload(md protoreflect.MessageDescriptor, payload []byte) (ok bool, keyTags []int) {
	w := wireWalker{s: s, raw: &rawDecoder{b: payload}}
	_, ok = w.check(md, 0, len(payload), 1, 0)
	return ok, w.keyTags
}

// check is fields without the View: it returns where the fields (of the
// group of field number group, if non-zero) end and whether they are well
// formed.
func (w *wireWalker) check(md protoreflect.MessageDescriptor, start, end, depth int, group protowire.Number) (int, bool) {
	b := w.raw.b
	pos := start
	for pos < end {
		num, wt, n := nextTag(b[pos:end])
		if n < 0 {
			return pos, false
		}
		if wt == wtEGroup {
			return pos + n, group == num
		}
		fd, _ := w.lookup(md, num)
		want := -1
		if fd != nil {
			want = int(wirekind.Of(fd.Kind()))
		}
		packed := fd != nil && fd.IsList() && wt == wtLen && want != wtLen && want != wtSGroup
		badKey := fd != nil && wt != want && num == 1 && md.IsMapEntry()
		if badKey {
			w.keyTags = append(w.keyTags, pos)
		}
		pos += n
		var ok bool
		switch {
		case fd == nil || (wt != want && !packed):
			valueAt := pos
			pos, ok = checkRaw(b, pos, end, num, wt, 0)
			if badKey && ok && wt == wtSGroup {
				w.keyTags = append(w.keyTags, endTagAt(b, valueAt, pos))
			}
		case packed:
			vs, ve, err := lenValue(b, pos, end, "")
			if err != nil {
				return pos, false
			}
			ok = checkPacked(b[vs:ve], want)
			pos = ve
		case wt == wtLen && fd.Kind() == protoreflect.MessageKind:
			vs, ve, err := lenValue(b, pos, end, "")
			if err != nil {
				return pos, false
			}
			if depth >= MaxDepth {
				return pos, false
			}
			_, ok = w.check(fd.Message(), vs, ve, depth+1, 0)
			pos = ve
		case wt == wtSGroup:
			if depth >= MaxDepth {
				return pos, false
			}
			pos, ok = w.check(fd.Message(), pos, end, depth+1, num)
		default:
			pos, ok = checkRaw(b, pos, end, num, wt, 0)
		}
		if !ok {
			return pos, false
		}
	}
	return pos, group == 0
}

// checkRaw checks the value of wire type wt of field num at pos, read raw
// at unknown-field nesting depth depth, as rawDecoder.field does, and
// returns where it ends.
func checkRaw(b []byte, pos, end int, num protowire.Number, wt, depth int) (int, bool) {
	switch wt {
	case wtVarint:
		_, m := protowire.ConsumeVarint(b[pos:end])
		return pos + m, m > 0
	case wtI64:
		return pos + 8, end-pos >= 8
	case wtI32:
		return pos + 4, end-pos >= 4
	case wtLen:
		_, ve, err := lenValue(b, pos, end, "")
		return ve, err == nil
	case wtSGroup:
		if depth >= MaxUnknownDepth {
			return pos, false
		}
		for pos < end {
			num2, wt2, n := nextTag(b[pos:end])
			if n < 0 {
				return pos, false
			}
			pos += n
			if wt2 == wtEGroup {
				return pos, num2 == num
			}
			var ok bool
			if pos, ok = checkRaw(b, pos, end, num2, wt2, depth+1); !ok {
				return pos, false
			}
		}
	}
	return pos, false
}

// endTagAt returns the offset of the END_GROUP tag that closes the group
// whose fields start at pos and which checkRaw accepted, ending at end.
func endTagAt(b []byte, pos, end int) int {
	for pos < end {
		num, wt, n := nextTag(b[pos:end])
		if n < 0 || wt == wtEGroup {
			return pos
		}
		pos, _ = checkRaw(b, pos+n, end, num, wt, 1)
	}
	return pos
}

// checkPacked checks packed elements of wire type wt, as packed does.
func checkPacked(v []byte, wt int) bool {
	switch wt {
	case wtI32:
		return len(v)%4 == 0
	case wtI64:
		return len(v)%8 == 0
	}
	for pos := 0; pos < len(v); {
		_, n := protowire.ConsumeVarint(v[pos:])
		if n < 0 {
			return false
		}
		pos += n
	}
	return true
}
