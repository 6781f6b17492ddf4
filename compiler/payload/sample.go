package payload

import (
	"math"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

// SampleDepth is the nesting depth at which Sample stops filling message
// fields (the top-level message is depth 1), so recursive types end. Past
// it, only required message fields are filled, and only those whose type
// has a finite valid value (a cycle of required message fields has none:
// such a sample is left partial).
const SampleDepth = 3

// Sample returns a deterministic, populated value of message type md, the
// same for the same schema every time: every field is set, except that
// only the first field of each oneof is; repeated fields get two elements
// and maps two entries; scalars take edge values (the two elements of a
// repeated field are, in order):
//
//	int32, sint32, sfixed32:  -2147483648, 2147483647
//	int64, sint64, sfixed64:  -9223372036854775808, 9223372036854775807
//	uint32, fixed32:          4294967295, 1
//	uint64, fixed64:          18446744073709551615, 1
//	float:                    -1.5, 3.4028235e+38
//	double:                   -0.25, 1.7976931348623157e+308
//	bool:                     true, false
//	string:                   "héllo, wörld ✓", ""
//	bytes:                    00 ff 61, (empty)
//	enum:                     its second value (its first if it has one), its first value
//
// A singular field takes the first of its pair. Map keys take the pair, so
// the two entries differ. Message fields are filled down to SampleDepth.
// Well-known types whose JSON form restricts values get valid ones:
// Timestamp 2023-11-14T22:13:20.123Z, Duration -3.5s, FieldMask paths
// "foo_bar" and "baz", Any holding an empty google.protobuf.Any, Value a
// null (its first oneof case). Extensions are not set.
func Sample(md protoreflect.MessageDescriptor) *dynamicpb.Message {
	m := dynamicpb.NewMessage(md)
	sp := sampler{finite: map[protoreflect.FullName]bool{}}
	sp.fill(m, 1)
	return m
}

type sampler struct {
	// finite memoizes whether a message type has a finite value with all
	// required fields set; a type being computed is provisionally false,
	// which is what breaks required cycles.
	finite map[protoreflect.FullName]bool
}

func (sp *sampler) isFinite(md protoreflect.MessageDescriptor) bool {
	if f, ok := sp.finite[md.FullName()]; ok {
		return f
	}
	sp.finite[md.FullName()] = false
	fields := md.Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		if fd.Cardinality() == protoreflect.Required && fd.Message() != nil && !sp.isFinite(fd.Message()) {
			return false
		}
	}
	sp.finite[md.FullName()] = true
	return true
}

func (sp *sampler) fill(m protoreflect.Message, depth int) {
	md := m.Descriptor()
	switch md.FullName() {
	case "google.protobuf.Timestamp":
		setInt(m, "seconds", 1700000000)
		setInt(m, "nanos", 123000000)
		return
	case "google.protobuf.Duration":
		setInt(m, "seconds", -3)
		setInt(m, "nanos", -500000000)
		return
	case "google.protobuf.FieldMask":
		fd := md.Fields().ByName("paths")
		l := m.Mutable(fd).List()
		l.Append(protoreflect.ValueOfString("foo_bar"))
		l.Append(protoreflect.ValueOfString("baz"))
		return
	case "google.protobuf.Any":
		if fd := md.Fields().ByName("type_url"); fd != nil {
			m.Set(fd, protoreflect.ValueOfString("type.googleapis.com/google.protobuf.Any"))
		}
		return
	}
	fields := md.Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		if od := fd.ContainingOneof(); od != nil && od.Fields().Get(0) != fd {
			continue
		}
		isMsg := fd.Kind() == protoreflect.MessageKind || fd.Kind() == protoreflect.GroupKind
		if isMsg && !fd.IsMap() && depth >= SampleDepth &&
			!(fd.Cardinality() == protoreflect.Required && sp.isFinite(fd.Message())) {
			continue
		}
		switch {
		case fd.IsMap():
			if fd.MapValue().Message() != nil && depth >= SampleDepth {
				continue
			}
			mp := m.Mutable(fd).Map()
			for j := 0; j < 2; j++ {
				k := sampleScalar(fd.MapKey(), j).MapKey()
				mp.Set(k, sp.value(mp.NewValue, fd.MapValue(), j, depth))
			}
		case fd.IsList():
			l := m.Mutable(fd).List()
			for j := 0; j < 2; j++ {
				l.Append(sp.value(l.NewElement, fd, j, depth))
			}
		default:
			m.Set(fd, sp.value(func() protoreflect.Value { return m.NewField(fd) }, fd, 0, depth))
		}
	}
}

func (sp *sampler) value(newValue func() protoreflect.Value, fd protoreflect.FieldDescriptor, i, depth int) protoreflect.Value {
	if fd.Kind() == protoreflect.MessageKind || fd.Kind() == protoreflect.GroupKind {
		v := newValue()
		sp.fill(v.Message(), depth+1)
		return v
	}
	return sampleScalar(fd, i)
}

func setInt(m protoreflect.Message, name protoreflect.Name, v int64) {
	fd := m.Descriptor().Fields().ByName(name)
	if fd == nil {
		return
	}
	switch fd.Kind() {
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		m.Set(fd, protoreflect.ValueOfInt32(int32(v)))
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		m.Set(fd, protoreflect.ValueOfInt64(v))
	}
}

func sampleScalar(fd protoreflect.FieldDescriptor, i int) protoreflect.Value {
	first := i == 0
	switch fd.Kind() {
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32(pick(first, int32(math.MinInt32), math.MaxInt32))
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64(pick(first, int64(math.MinInt64), math.MaxInt64))
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32(pick(first, uint32(math.MaxUint32), 1))
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return protoreflect.ValueOfUint64(pick(first, uint64(math.MaxUint64), 1))
	case protoreflect.FloatKind:
		return protoreflect.ValueOfFloat32(pick(first, float32(-1.5), math.MaxFloat32))
	case protoreflect.DoubleKind:
		return protoreflect.ValueOfFloat64(pick(first, -0.25, math.MaxFloat64))
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(first)
	case protoreflect.StringKind:
		return protoreflect.ValueOfString(pick(first, "héllo, wörld ✓", ""))
	case protoreflect.BytesKind:
		return protoreflect.ValueOfBytes(pick(first, []byte{0x00, 0xff, 'a'}, []byte{}))
	case protoreflect.EnumKind:
		vals := fd.Enum().Values()
		j := 0
		if first && vals.Len() > 1 {
			j = 1
		}
		return protoreflect.ValueOfEnum(vals.Get(j).Number())
	}
	return protoreflect.Value{}
}

func pick[T any](first bool, a, b T) T {
	if first {
		return a
	}
	return b
}
