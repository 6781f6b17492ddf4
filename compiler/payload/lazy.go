package payload

import (
	"math"
	"strconv"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/protoplay/protoplay/compiler/internal/wirekind"
)

// This file keeps the repeated scalar fields of a decoded payload as the
// payload's bytes instead of google.golang.org/protobuf's dynamicpb lists,
// whose elements cost about 120 bytes of allocation each (a 24-byte
// protoreflect.Value in a slice grown by append) where the payload spends
// as little as one byte (a packed 1-byte varint). Decode strips those
// fields out of the bytes it hands to proto.Unmarshal (stripLazy), keeps
// the original bytes beside the dynamic message (dynJSON.raw), and the JSON
// and text writers read the stripped fields' values from those bytes as
// they write them (rawValues), one element at a time. The values written
// are the ones proto.Unmarshal would have put in the list, in the same
// order, so the output is byte for byte the same.
//
// The fields read lazily (lazyList) are repeated fields, not extensions, of
// the numeric kinds, bool, string and bytes; enums are left to dynamicpb
// (a closed enum's unknown values go to the unknown fields). Their
// occurrences are stripped at every level reached through message fields
// that stripLazy descends into (descend): non-extension, non-map fields of
// message kind, written as LEN, whose message type is not one the writers
// handle through its binary form (the well-known types of specialJSON, Any)
// nor a MessageSet. A singular message field's bytes are all its
// occurrences concatenated (the merge proto.Unmarshal does), from the last
// occurrence of another member of its oneof on; a repeated one's i-th
// element is its i-th occurrence.
//
// Validation stays proto.Unmarshal's: a string that is not valid UTF-8 is
// kept in the bytes it reads (and read from the payload by the writer as
// every other element), so proto.Unmarshal rejects it where the schema
// requires UTF-8; malformed packed data never gets here (checkPayload runs
// first, and a payload it rejects is decoded without stripping).

// lazyList reports whether fd is a repeated field whose values the JSON
// and text writers read from the payload's bytes (see above).
func lazyList(fd protoreflect.FieldDescriptor) bool {
	if !fd.IsList() || fd.IsExtension() {
		return false
	}
	switch fd.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind, protoreflect.EnumKind:
		return false
	}
	return true
}

// descend reports whether stripLazy strips inside fd's messages, and the
// writers read them with their bytes.
func descend(fd protoreflect.FieldDescriptor) bool {
	if fd.Kind() != protoreflect.MessageKind || fd.IsMap() || fd.IsExtension() {
		return false
	}
	md := fd.Message()
	if special(md) != nil || isAny(md) || isMessageSet(md) || md.IsMapEntry() {
		return false
	}
	if od := fd.ContainingOneof(); od != nil && !od.IsSynthetic() {
		// A closed enum member's unknown value goes to the unknown
		// fields without setting the oneof: not worth following here.
		for i := 0; i < od.Fields().Len(); i++ {
			if od.Fields().Get(i).Kind() == protoreflect.EnumKind {
				return false
			}
		}
	}
	return true
}

// wireOK reports whether proto.Unmarshal reads an occurrence of fd with
// wire type wt as fd's value (else it is an unknown field).
func wireOK(fd protoreflect.FieldDescriptor, wt protowire.Type) bool {
	want := protowire.Type(wirekind.Of(fd.Kind()))
	if want == wt {
		return true
	}
	return fd.IsList() && wt == protowire.BytesType && want != protowire.BytesType && want != protowire.StartGroupType
}

// stripLazy appends to out the fields of b, a message of type md that
// checkPayload accepted, without the occurrences of lazyList fields (at
// every level descend reaches). A descended message's length is written
// in as many bytes as the original's (a padded varint, which
// proto.Unmarshal reads), so out grows by at most len(b).
func stripLazy(md protoreflect.MessageDescriptor, b, out []byte) []byte {
	fields := md.Fields()
	for pos := 0; pos < len(b); {
		num, wt, n := protowire.ConsumeTag(b[pos:])
		if n < 0 {
			return append(out, b[pos:]...)
		}
		m := protowire.ConsumeFieldValue(num, wt, b[pos+n:])
		if m < 0 {
			return append(out, b[pos:]...)
		}
		end := pos + n + m
		fd := fields.ByNumber(num)
		switch {
		case fd != nil && lazyList(fd) && wireOK(fd, wt):
			if fd.Kind() == protoreflect.StringKind {
				if v, _ := protowire.ConsumeBytes(b[pos+n:]); !utf8.Valid(v) {
					out = append(out, b[pos:end]...) // for proto.Unmarshal to judge
				}
			}
		case fd != nil && wt == protowire.BytesType && descend(fd) && fd.IsList():
			// An element, decoded as it is written (eachSub).
		case fd != nil && wt == protowire.BytesType && descend(fd):
			v, _ := protowire.ConsumeBytes(b[pos+n:])
			lenBytes := m - len(v)
			out = append(out, b[pos:pos+n+lenBytes]...)
			at := len(out)
			out = stripLazy(fd.Message(), v, out)
			putPaddedVarint(out[at-lenBytes:at], uint64(len(out)-at))
		default:
			out = append(out, b[pos:end]...)
		}
		pos = end
	}
	return out
}

// putPaddedVarint writes v as a varint of exactly len(p) bytes (v fits:
// it is at most the value p held).
func putPaddedVarint(p []byte, v uint64) {
	for i := range p {
		c := byte(v & 0x7f)
		v >>= 7
		if i < len(p)-1 {
			c |= 0x80
		}
		p[i] = c
	}
}

// rawFields calls f with each field of x.raw numbered num, its wire type
// and value (a LEN value's content; a varint's, I32's or I64's bytes),
// until f returns false.
func (x *dynJSON) rawFields(num protowire.Number, f func(wt protowire.Type, v []byte) bool) {
	b := x.raw
	for pos := 0; pos < len(b); {
		n2, wt, n := protowire.ConsumeTag(b[pos:])
		if n < 0 {
			return
		}
		m := protowire.ConsumeFieldValue(n2, wt, b[pos+n:])
		if m < 0 {
			return
		}
		if n2 == num {
			v := b[pos+n : pos+n+m]
			if wt == protowire.BytesType {
				v, _ = protowire.ConsumeBytes(v)
			}
			if !f(wt, v) {
				return
			}
		}
		pos += n + m
	}
}

// rawHas reports whether lazyList field fd has an element in x.raw.
func (x *dynJSON) rawHas(fd protoreflect.FieldDescriptor) bool {
	found := false
	x.rawFields(fd.Number(), func(wt protowire.Type, v []byte) bool {
		found = wireOK(fd, wt) && (len(v) > 0 || wt == protowire.BytesType && protowire.Type(wirekind.Of(fd.Kind())) == protowire.BytesType)
		return !found
	})
	return found
}

// rawValues calls f with each element of lazyList field fd in x.raw, in
// order, as proto.Unmarshal decodes them, until f returns an error.
func (x *dynJSON) rawValues(fd protoreflect.FieldDescriptor, f func(protoreflect.Value) error) error {
	var err error
	kind := fd.Kind()
	want := protowire.Type(wirekind.Of(kind))
	x.rawFields(fd.Number(), func(wt protowire.Type, v []byte) bool {
		if !wireOK(fd, wt) {
			return true
		}
		switch {
		case want == protowire.BytesType:
			if kind == protoreflect.StringKind {
				err = f(protoreflect.ValueOfString(string(v)))
			} else {
				err = f(protoreflect.ValueOfBytes(v))
			}
		case wt == protowire.BytesType: // packed
			for len(v) > 0 && err == nil {
				var n int
				var val protoreflect.Value
				val, n = scalarOf(kind, want, v)
				if n <= 0 {
					return false // checkPayload rules this out
				}
				err = f(val)
				v = v[n:]
			}
		default:
			val, n := scalarOf(kind, want, v)
			if n <= 0 {
				return false
			}
			err = f(val)
		}
		return err == nil
	})
	return err
}

// scalarOf decodes the first value of kind (wire type wt) in b as
// proto.Unmarshal does, and its length in bytes (negative if malformed).
func scalarOf(kind protoreflect.Kind, wt protowire.Type, b []byte) (protoreflect.Value, int) {
	switch wt {
	case protowire.VarintType:
		u, n := protowire.ConsumeVarint(b)
		if n < 0 {
			return protoreflect.Value{}, n
		}
		switch kind {
		case protoreflect.BoolKind:
			return protoreflect.ValueOfBool(protowire.DecodeBool(u)), n
		case protoreflect.Int32Kind:
			return protoreflect.ValueOfInt32(int32(u)), n
		case protoreflect.Sint32Kind:
			return protoreflect.ValueOfInt32(int32(protowire.DecodeZigZag(u & math.MaxUint32))), n
		case protoreflect.Uint32Kind:
			return protoreflect.ValueOfUint32(uint32(u)), n
		case protoreflect.Int64Kind:
			return protoreflect.ValueOfInt64(int64(u)), n
		case protoreflect.Sint64Kind:
			return protoreflect.ValueOfInt64(protowire.DecodeZigZag(u)), n
		case protoreflect.Uint64Kind:
			return protoreflect.ValueOfUint64(u), n
		}
	case protowire.Fixed32Type:
		u, n := protowire.ConsumeFixed32(b)
		if n < 0 {
			return protoreflect.Value{}, n
		}
		switch kind {
		case protoreflect.Sfixed32Kind:
			return protoreflect.ValueOfInt32(int32(u)), n
		case protoreflect.Fixed32Kind:
			return protoreflect.ValueOfUint32(u), n
		case protoreflect.FloatKind:
			return protoreflect.ValueOfFloat32(math.Float32frombits(u)), n
		}
	case protowire.Fixed64Type:
		u, n := protowire.ConsumeFixed64(b)
		if n < 0 {
			return protoreflect.Value{}, n
		}
		switch kind {
		case protoreflect.Sfixed64Kind:
			return protoreflect.ValueOfInt64(int64(u)), n
		case protoreflect.Fixed64Kind:
			return protoreflect.ValueOfUint64(u), n
		case protoreflect.DoubleKind:
			return protoreflect.ValueOfFloat64(math.Float64frombits(u)), n
		}
	}
	return protoreflect.Value{}, -1
}

// has reports whether field fd is set, as protoreflect.Message.Has: for a
// lazyList field of a message read with its bytes, whether the bytes hold
// an element.
func (x *dynJSON) has(fd protoreflect.FieldDescriptor) bool {
	switch {
	case !x.lazy:
	case lazyList(fd):
		return x.rawHas(fd)
	case fd.IsList() && descend(fd):
		found := false
		x.rawFields(fd.Number(), func(wt protowire.Type, _ []byte) bool {
			found = wt == protowire.BytesType
			return !found
		})
		return found
	}
	return x.m.Has(fd)
}

// sub is the adapter of v, the message value of singular field fd, with
// its bytes when x has its own and descend(fd).
func (x *dynJSON) sub(fd protoreflect.FieldDescriptor, v protoreflect.Message) *dynJSON {
	c := x.s.jsonOf(v)
	if x.lazy && descend(fd) {
		c.lazy, c.raw = true, x.singularRaw(fd)
	}
	return c
}

// eachSub calls f with the adapter of each element of repeated message
// field fd, in order, until f returns an error: of each message of l,
// fd's list; or, when x has its bytes and descend(fd), of each element
// decoded from its bytes (lazyElement) as it comes, so that only one is
// held at a time.
func (x *dynJSON) eachSub(fd protoreflect.FieldDescriptor, l protoreflect.List, f func(*dynJSON) error) error {
	if !x.lazy || !descend(fd) {
		for i := 0; i < l.Len(); i++ {
			if err := f(x.s.jsonOf(l.Get(i).Message())); err != nil {
				return err
			}
		}
		return nil
	}
	var err error
	var buf []byte
	x.rawFields(fd.Number(), func(wt protowire.Type, b []byte) bool {
		if wt != protowire.BytesType {
			return true
		}
		var c *dynJSON
		if c, buf, err = x.s.lazyElement(fd.Message(), b, buf, ""); err == nil {
			err = f(c)
		}
		return err == nil
	})
	return err
}

// lazyElement decodes b, an element of a repeated message field of type md
// that stripLazy left out, with its own lazyList fields and repeated
// message fields left out in turn (buf is scratch space, returned for
// reuse). Its errors are proto.Unmarshal's and missingRequired's.
func (s *Schema) lazyElement(md protoreflect.MessageDescriptor, b, buf []byte, path string) (*dynJSON, []byte, error) {
	buf = stripLazy(md, b, buf[:0])
	if len(buf) == 0 {
		// Nothing for dynamicpb (an empty message, or one of lazy
		// fields only): one empty message of the type serves them all,
		// as the writers only read it.
		e, ok := s.emptyMsgs.Load(md)
		if !ok {
			e, _ = s.emptyMsgs.LoadOrStore(md, dynamicpb.NewMessage(md))
		}
		if err := missingRequiredIn(e.(*dynamicpb.Message), path); err != nil {
			return nil, buf, err
		}
		x := s.jsonOf(e.(*dynamicpb.Message))
		x.lazy, x.raw = true, b
		return x, buf, nil
	}
	m := dynamicpb.NewMessage(md)
	if err := s.unmarshalBinary(proto.UnmarshalOptions{Resolver: s.Types, RecursionLimit: MaxDepth, AllowPartial: true}, buf, m); err != nil {
		return nil, buf, err
	}
	if err := missingRequiredIn(m, path); err != nil {
		return nil, buf, err
	}
	x := s.jsonOf(m)
	x.lazy, x.raw = true, b
	return x, buf, nil
}

// checkLazy decodes, and drops, every element of a repeated message field
// that stripLazy left out of b, a message of type md, at any depth (the
// rest of b proto.Unmarshal has read): so a payload Decode accepts is one
// proto.Unmarshal accepts whole, and the writers' own decoding of the
// elements cannot fail. With more than one invalid value in the payload,
// the one an error names may differ from proto.Unmarshal's.
func (s *Schema) checkLazy(md protoreflect.MessageDescriptor, b []byte, buf []byte, path string) ([]byte, error) {
	fields := md.Fields()
	var index map[protowire.Number]int // elements of each list so far
	for pos := 0; pos < len(b); {
		num, wt, n := protowire.ConsumeTag(b[pos:])
		if n < 0 {
			return buf, nil
		}
		m := protowire.ConsumeFieldValue(num, wt, b[pos+n:])
		if m < 0 {
			return buf, nil
		}
		if fd := fields.ByNumber(num); fd != nil && wt == protowire.BytesType && descend(fd) && s.canFail(fd.Message()) {
			v, _ := protowire.ConsumeBytes(b[pos+n:])
			var err error
			at := string(fd.Name())
			if path != "" {
				at = path + "." + at
			}
			if fd.IsList() {
				if index == nil {
					index = map[protowire.Number]int{}
				}
				at += "[" + strconv.Itoa(index[num]) + "]"
				index[num]++
				if _, buf, err = s.lazyElement(fd.Message(), v, buf, at); err != nil {
					return buf, err
				}
			}
			if buf, err = s.checkLazy(fd.Message(), v, buf, at); err != nil {
				return buf, err
			}
		}
		pos += n + m
	}
	return buf, nil
}

// canFail reports whether proto.Unmarshal may reject a well-formed
// payload (one checkPayload accepts) of type md: whether md or a message
// type it reaches declares a string field (invalid UTF-8), a required field,
// an extension range (whose extensions may be anything), or is a
// MessageSet. checkLazy skips the elements of the others.
func (s *Schema) canFail(md protoreflect.MessageDescriptor) bool {
	if v, ok := s.mayFail.Load(md); ok {
		return v.(bool)
	}
	seen := map[protoreflect.FullName]bool{}
	var walk func(md protoreflect.MessageDescriptor) bool
	walk = func(md protoreflect.MessageDescriptor) bool {
		if seen[md.FullName()] {
			return false
		}
		seen[md.FullName()] = true
		if md.ExtensionRanges().Len() > 0 || isMessageSet(md) || md.RequiredNumbers().Len() > 0 {
			return true
		}
		fields := md.Fields()
		for i := 0; i < fields.Len(); i++ {
			fd := fields.Get(i)
			if fd.Kind() == protoreflect.StringKind || fd.Cardinality() == protoreflect.Required {
				return true
			}
			if fd.Message() != nil && walk(fd.Message()) { // a map's entry too
				return true
			}
		}
		return false
	}
	v := walk(md)
	s.mayFail.Store(md, v)
	return v
}

// singularRaw is the bytes of singular message field fd: its occurrences
// concatenated, from the last occurrence of another member of its oneof
// on (which clears it).
func (x *dynJSON) singularRaw(fd protoreflect.FieldDescriptor) []byte {
	od := fd.ContainingOneof()
	if od != nil && od.IsSynthetic() {
		od = nil
	}
	fields := x.m.Descriptor().Fields()
	var first []byte
	var all []byte
	count := 0
	b := x.raw
	for pos := 0; pos < len(b); {
		num, wt, n := protowire.ConsumeTag(b[pos:])
		if n < 0 {
			break
		}
		m := protowire.ConsumeFieldValue(num, wt, b[pos+n:])
		if m < 0 {
			break
		}
		switch {
		case num == fd.Number():
			if wt == protowire.BytesType {
				v, _ := protowire.ConsumeBytes(b[pos+n:])
				switch count {
				case 0:
					first = v
				case 1:
					all = append(append(all[:0], first...), v...)
				default:
					all = append(all, v...)
				}
				count++
			}
		case od != nil:
			if o := fields.ByNumber(num); o != nil && o.ContainingOneof() == od && wireOK(o, wt) {
				first, all, count = nil, all[:0], 0
			}
		}
		pos += n + m
	}
	if count <= 1 {
		return first
	}
	return all
}
