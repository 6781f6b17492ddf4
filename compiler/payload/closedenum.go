package payload

import (
	"bytes"
	"crypto/rand"
	"sync"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Closed enums in binary input.
//
// A closed enum (proto2, or editions' enum_type = CLOSED) takes only the
// numbers it declares: a decoder keeps any other number it reads for such
// a field as an unknown field, the field itself untouched
// (https://protobuf.dev/programming-guides/enum/; protoc-gen-go's and
// protoplay's generated code do). A map entry with such a value goes to
// the unknown fields whole, and each such element of a packed list becomes
// an unknown varint field of its own.
//
// proto.Unmarshal into a dynamicpb message, which the payload side decodes
// with, sets the field to the number instead. unmarshalBinary closes that
// gap without decoding by hand: before proto.Unmarshal, every record that
// a generated decoder would keep as unknown is wrapped in a placeholder
// record, field number placeholderNum (which no field or extension can
// have: protoc reserves 19000 to 19999) of type LEN, whose value is a
// random nonce followed by the record; proto.Unmarshal keeps the
// placeholders, in wire order, among the message's unknown fields; then
// each one is replaced by the record it holds. The nonce, new for each
// call, tells the placeholders from a field 19000 the input itself has.

// placeholderNum is the field number of the placeholder records.
const placeholderNum protowire.Number = 19000

// unmarshalBinary is o.Unmarshal(b, m), with a closed enum's undeclared
// numbers kept as unknown fields as generated code keeps them (see
// above). Its errors are proto.Unmarshal's.
func (s *Schema) unmarshalBinary(o proto.UnmarshalOptions, b []byte, m protoreflect.Message) error {
	md := m.Descriptor()
	if !s.reachesClosedEnum(md) {
		return o.Unmarshal(b, m.Interface())
	}
	f := &enumFix{s: s}
	if _, err := rand.Read(f.nonce[:]); err != nil {
		return o.Unmarshal(b, m.Interface())
	}
	out, _, ok := f.message(md, b, 0, 0, nil)
	if !ok || !f.wrapped {
		// Malformed input is proto.Unmarshal's to reject.
		return o.Unmarshal(b, m.Interface())
	}
	if err := o.Unmarshal(out, m.Interface()); err != nil {
		return err
	}
	f.restore(m, 0)
	return nil
}

// enumFix rewrites one input (see above).
type enumFix struct {
	s       *Schema
	nonce   [16]byte
	wrapped bool // a placeholder was written
}

// message appends to out the fields of a message of type md read from b
// (up to the END_GROUP of group number group, when group > 0), with the
// records a generated decoder keeps as unknown wrapped in placeholders.
// It returns out and the number of bytes of b read (the END_GROUP tag not
// included); ok is false for input it cannot read, or nested deeper than
// MaxDepth.
func (f *enumFix) message(md protoreflect.MessageDescriptor, b []byte, depth int, group protowire.Number, out []byte) (_ []byte, n int, ok bool) {
	if depth > MaxDepth {
		return out, 0, false
	}
	for i := 0; i < len(b); {
		num, wt, tl := protowire.ConsumeTag(b[i:])
		if tl < 0 {
			return out, 0, false
		}
		if wt == protowire.EndGroupType {
			if num != group {
				return out, 0, false
			}
			return out, i, true
		}
		fd := md.Fields().ByNumber(num)
		if fd == nil && md.ExtensionRanges().Has(num) {
			if xt, err := f.s.Types.FindExtensionByNumber(md.FullName(), num); err == nil {
				fd = xt.TypeDescriptor()
			}
		}
		start, body := i, i+tl
		if fd != nil && wt == protowire.StartGroupType && fd.Kind() == protoreflect.GroupKind {
			out = append(out, b[start:body]...)
			var gn int
			out, gn, ok = f.message(fd.Message(), b[body:], depth+1, num, out)
			if !ok {
				return out, 0, false
			}
			_, _, el := protowire.ConsumeTag(b[body+gn:])
			if el < 0 {
				return out, 0, false
			}
			out = append(out, b[body+gn:body+gn+el]...)
			i = body + gn + el
			continue
		}
		vl := protowire.ConsumeFieldValue(num, wt, b[body:])
		if vl < 0 {
			return out, 0, false
		}
		i = body + vl
		record := b[start:i]
		switch {
		case fd == nil:
			out = append(out, record...)
		case fd.IsMap():
			out, ok = f.mapEntry(fd, wt, record, b[body:i], depth, out)
			if !ok {
				return out, 0, false
			}
		case fd.Kind() == protoreflect.EnumKind && fd.Enum().IsClosed():
			out = f.enum(fd, wt, record, b[body:i], out)
		case fd.Kind() == protoreflect.MessageKind && wt == protowire.BytesType && !isMessageSet(fd.Message()):
			v, _ := protowire.ConsumeBytes(b[body:i])
			var sub []byte
			sub, _, ok = f.message(fd.Message(), v, depth+1, 0, nil)
			if !ok {
				return out, 0, false
			}
			out = protowire.AppendTag(out, num, wt)
			out = protowire.AppendBytes(out, sub)
		default:
			out = append(out, record...)
		}
	}
	if group != 0 {
		return out, 0, false
	}
	return out, len(b), true
}

// enum appends the record of closed enum field fd (value bytes v, wire
// type wt): as it is when the generated decoder takes it; in a placeholder
// when it keeps the number as unknown; a packed list split into the
// declared numbers (one packed record, if any) and a placeholder per
// undeclared one, written as an unpacked varint of the number as an int32.
func (f *enumFix) enum(fd protoreflect.FieldDescriptor, wt protowire.Type, record, v []byte, out []byte) []byte {
	declared := func(x uint64) bool {
		return fd.Enum().Values().ByNumber(protoreflect.EnumNumber(int32(x))) != nil
	}
	switch {
	case wt == protowire.VarintType:
		x, _ := protowire.ConsumeVarint(v)
		if declared(x) {
			return append(out, record...)
		}
		return f.placeholder(out, record)
	case wt == protowire.BytesType && fd.IsList():
		p, _ := protowire.ConsumeBytes(v)
		var keep []byte
		var unknown [][]byte
		for len(p) > 0 {
			x, n := protowire.ConsumeVarint(p)
			if n < 0 {
				return append(out, record...) // proto.Unmarshal rejects it
			}
			if declared(x) {
				keep = append(keep, p[:n]...)
			} else {
				rec := protowire.AppendTag(nil, fd.Number(), protowire.VarintType)
				unknown = append(unknown, protowire.AppendVarint(rec, uint64(int64(int32(x)))))
			}
			p = p[n:]
		}
		if len(unknown) == 0 {
			return append(out, record...)
		}
		if len(keep) > 0 {
			out = protowire.AppendTag(out, fd.Number(), protowire.BytesType)
			out = protowire.AppendBytes(out, keep)
		}
		for _, rec := range unknown {
			out = f.placeholder(out, rec)
		}
		return out
	}
	return append(out, record...)
}

// mapEntry appends the record of map field fd (entry bytes v): in a
// placeholder when its value is a closed enum's undeclared number (the
// last value field of the entry counts, as in a merge); with its value
// message rewritten when the value is a message; else as it is.
func (f *enumFix) mapEntry(fd protoreflect.FieldDescriptor, wt protowire.Type, record, v []byte, depth int, out []byte) ([]byte, bool) {
	vd := fd.MapValue()
	if wt != protowire.BytesType {
		return append(out, record...), true
	}
	entry, _ := protowire.ConsumeBytes(v)
	closed := vd.Kind() == protoreflect.EnumKind && vd.Enum().IsClosed()
	isMsg := vd.Kind() == protoreflect.MessageKind && !isMessageSet(vd.Message())
	if !closed && !isMsg {
		return append(out, record...), true
	}
	var rebuilt []byte
	var last []byte // the last varint value of an enum value field
	for e := entry; len(e) > 0; {
		num, ewt, tl := protowire.ConsumeTag(e)
		if tl < 0 {
			return append(out, record...), true // proto.Unmarshal rejects it
		}
		vl := protowire.ConsumeFieldValue(num, ewt, e[tl:])
		if vl < 0 {
			return append(out, record...), true
		}
		field := e[:tl+vl]
		switch {
		case num == 2 && closed && ewt == protowire.VarintType:
			last = e[tl : tl+vl]
		case num == 2 && isMsg && ewt == protowire.BytesType:
			mv, _ := protowire.ConsumeBytes(e[tl : tl+vl])
			sub, _, ok := f.message(vd.Message(), mv, depth+2, 0, nil)
			if !ok {
				return out, false
			}
			rebuilt = protowire.AppendTag(rebuilt, 2, ewt)
			rebuilt = protowire.AppendBytes(rebuilt, sub)
			e = e[tl+vl:]
			continue
		}
		rebuilt = append(rebuilt, field...)
		e = e[tl+vl:]
	}
	if closed {
		if last != nil {
			if x, _ := protowire.ConsumeVarint(last); vd.Enum().Values().ByNumber(protoreflect.EnumNumber(int32(x))) == nil {
				return f.placeholder(out, record), true
			}
		}
		return append(out, record...), true
	}
	out = protowire.AppendTag(out, fd.Number(), wt)
	return protowire.AppendBytes(out, rebuilt), true
}

// placeholder appends the placeholder record holding record.
func (f *enumFix) placeholder(out, record []byte) []byte {
	f.wrapped = true
	out = protowire.AppendTag(out, placeholderNum, protowire.BytesType)
	out = protowire.AppendVarint(out, uint64(len(f.nonce)+len(record)))
	out = append(out, f.nonce[:]...)
	return append(out, record...)
}

// restore replaces the placeholders among the unknown fields of m and of
// every message in it by the records they hold.
func (f *enumFix) restore(m protoreflect.Message, depth int) {
	if depth > MaxDepth {
		return
	}
	if u := m.GetUnknown(); len(u) > 0 && bytes.Contains(u, f.nonce[:]) {
		var out []byte
		for b := []byte(u); len(b) > 0; {
			num, wt, tl := protowire.ConsumeTag(b)
			vl := protowire.ConsumeFieldValue(num, wt, b[max(tl, 0):])
			if tl < 0 || vl < 0 {
				out = append(out, b...)
				break
			}
			if v, _ := protowire.ConsumeBytes(b[tl:]); num == placeholderNum && wt == protowire.BytesType && bytes.HasPrefix(v, f.nonce[:]) {
				out = append(out, v[len(f.nonce):]...)
			} else {
				out = append(out, b[:tl+vl]...)
			}
			b = b[tl+vl:]
		}
		m.SetUnknown(out)
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsMap():
			if fd.MapValue().Kind() == protoreflect.MessageKind {
				v.Map().Range(func(_ protoreflect.MapKey, mv protoreflect.Value) bool {
					f.restore(mv.Message(), depth+1)
					return true
				})
			}
		case fd.Kind() != protoreflect.MessageKind && fd.Kind() != protoreflect.GroupKind:
		case fd.IsList():
			for i, l := 0, v.List(); i < l.Len(); i++ {
				f.restore(l.Get(i).Message(), depth+1)
			}
		default:
			f.restore(v.Message(), depth+1)
		}
		return true
	})
}

// reachMemo memoizes Schema.reaches per question and message full name.
type reachMemo struct {
	mu   sync.Mutex
	memo map[string]bool
}

// reachesClosedEnum reports whether a message of type md can hold a
// closed enum value: in a field, a map value or an extension of it or of
// a message it holds (a message with extension ranges counts, its
// extensions being open-ended).
func (s *Schema) reachesClosedEnum(md protoreflect.MessageDescriptor) bool {
	return s.reaches("closed enum", md, func(fd protoreflect.FieldDescriptor) bool {
		return fd.Kind() == protoreflect.EnumKind && fd.Enum().IsClosed()
	})
}

// reaches reports whether a message of type md, or one it holds (in a
// field or map value, at any depth), has a field for which field is
// true or has extension ranges; question names field for the memo.
func (s *Schema) reaches(question string, md protoreflect.MessageDescriptor, field func(protoreflect.FieldDescriptor) bool) bool {
	key := question + "\x00" + string(md.FullName())
	s.reach.mu.Lock()
	defer s.reach.mu.Unlock()
	if r, ok := s.reach.memo[key]; ok {
		return r
	}
	seen := map[protoreflect.FullName]bool{}
	var visit func(md protoreflect.MessageDescriptor) bool
	visit = func(md protoreflect.MessageDescriptor) bool {
		if seen[md.FullName()] {
			return false // the first visit decides
		}
		seen[md.FullName()] = true
		if md.ExtensionRanges().Len() > 0 {
			return true
		}
		for i := 0; i < md.Fields().Len(); i++ {
			fd := md.Fields().Get(i)
			if fd.IsMap() {
				fd = fd.MapValue()
			}
			if field(fd) {
				return true
			}
			if (fd.Kind() == protoreflect.MessageKind || fd.Kind() == protoreflect.GroupKind) && visit(fd.Message()) {
				return true
			}
		}
		return false
	}
	r := visit(md)
	if s.reach.memo == nil {
		s.reach.memo = map[string]bool{}
	}
	s.reach.memo[key] = r
	return r
}
