package payload

import (
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/protoplay/protoplay/compiler/diag"
)

// checkAnyDepth fails with a KindLimit error (MaxDepth) at the byte offset
// of the first message of b, a payload of type md, that nests deeper than
// MaxDepth when the messages inside google.protobuf.Any values count as
// levels too. proto.Unmarshal counts the levels of b itself, but an Any's
// value is bytes to it, decoded afresh (with a fresh limit) when the JSON
// and text writers expand it: without this check a payload of Any inside
// Any 50,000 deep (2.2 MB) decoded to gigabytes of indented JSON. An Any
// and the message it holds are a level each, as the message and its field
// are (and see slack in anyDepth). Malformed input passes: the decoders
// report it.
func (s *Schema) checkAnyDepth(md protoreflect.MessageDescriptor, b []byte) error {
	if !s.reaches("Any", md, func(fd protoreflect.FieldDescriptor) bool {
		return fd.Kind() == protoreflect.MessageKind && isAny(fd.Message())
	}) && !isAny(md) {
		return nil
	}
	off, ok := s.anyDepth(md, b, 1, 0, 0)
	if ok {
		return nil
	}
	return &diag.Error{Kind: diag.KindLimit, Limit: "MaxDepth", Offset: off,
		Message: depthMessage + ", counting the messages inside google.protobuf.Any values"}
}

// anyDepth walks b, a message of type md at nesting level depth whose
// first byte is at offset base of the payload (up to an END_GROUP, for a
// group), into message fields, groups, map entries and Any values, with
// slack levels more counted against MaxDepth (0, or 1 below an Any holding
// a well-known type of its own JSON form). It
// returns the offset of a message deeper than MaxDepth and false, or
// where it stopped reading and true (malformed input stops the walk).
func (s *Schema) anyDepth(md protoreflect.MessageDescriptor, b []byte, depth, base, slack int) (int, bool) {
	if depth+slack > MaxDepth {
		return base, false
	}
	any := isAny(md)
	var typeURL string
	var value []byte
	valueAt := 0
	for i := 0; i < len(b); {
		num, wt, tl := protowire.ConsumeTag(b[i:])
		if tl < 0 {
			return i, true
		}
		if wt == protowire.EndGroupType {
			return i, true // its own or a stray one: the decoders judge
		}
		body := i + tl
		fd := md.Fields().ByNumber(num)
		if fd != nil && wt == protowire.StartGroupType && fd.Kind() == protoreflect.GroupKind {
			n, ok := s.anyDepth(fd.Message(), b[body:], depth+1, base+body, slack)
			if !ok {
				return n, false
			}
			_, _, el := protowire.ConsumeTag(b[body+n:])
			if el < 0 {
				return i, true
			}
			i = body + n + el
			continue
		}
		vl := protowire.ConsumeFieldValue(num, wt, b[body:])
		if vl < 0 {
			return i, true
		}
		if fd != nil && wt == protowire.BytesType {
			v, _ := protowire.ConsumeBytes(b[body : body+vl])
			at := base + body + vl - len(v)
			switch {
			case any && num == 1:
				typeURL = string(v)
			case any && num == 2:
				value, valueAt = v, at
			case fd.IsMap() && fd.MapValue().Kind() == protoreflect.MessageKind:
				// The entry is a level, its value message another.
				for e := v; len(e) > 0; {
					en, ewt, etl := protowire.ConsumeTag(e)
					if etl < 0 {
						break
					}
					evl := protowire.ConsumeFieldValue(en, ewt, e[etl:])
					if evl < 0 {
						break
					}
					if en == 2 && ewt == protowire.BytesType {
						mv, _ := protowire.ConsumeBytes(e[etl : etl+evl])
						if n, ok := s.anyDepth(fd.MapValue().Message(), mv, depth+2, at+len(v)-len(e)+etl+evl-len(mv), slack); !ok {
							return n, false
						}
					}
					e = e[etl+evl:]
				}
			case fd.Kind() == protoreflect.MessageKind && !fd.IsMap():
				if n, ok := s.anyDepth(fd.Message(), v, depth+1, at, slack); !ok {
					return n, false
				}
			}
		}
		i = body + vl
	}
	if any && value != nil {
		if mt, err := s.Types.FindMessageByURL(typeURL); err == nil {
			// An Any holding a well-known type of its own JSON form
			// ({"@type": ..., "value": ...}) costs the JSON reader one
			// level more, once, as it looks ahead through "value" for the
			// "@type"; the binary reading is held to the same, so that
			// what decode writes, encode reads.
			if special(mt.Descriptor()) != nil {
				slack = 1
			}
			if n, ok := s.anyDepth(mt.Descriptor(), value, depth+1, valueAt, slack); !ok {
				return n, false
			}
		}
	}
	return len(b), true
}
