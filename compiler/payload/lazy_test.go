package payload

import (
	"math/rand"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/protoplay/protoplay/compiler/internal/wirekind"
)

// The schemas of the lazy-decoding tests: every repeated scalar kind,
// packed and not, strings (UTF-8 checked in proto3, not in proto2), bytes,
// enums, singular and repeated messages, oneofs of messages and scalars,
// maps of messages, a group, extensions.
const (
	lazyProto2 = `syntax = "proto2";
package lz;
enum E { E0 = 0; E1 = 1; }
message P {
  repeated int32 i32 = 1;
  repeated int64 i64 = 2 [packed = true];
  repeated uint32 u32 = 3;
  repeated uint64 u64 = 4;
  repeated sint32 s32 = 5;
  repeated sint64 s64 = 6 [packed = true];
  repeated fixed32 f32 = 7;
  repeated fixed64 f64 = 8 [packed = true];
  repeated sfixed32 sf32 = 9;
  repeated sfixed64 sf64 = 10;
  repeated float fl = 11 [packed = true];
  repeated double db = 12;
  repeated bool b = 13;
  repeated string str = 14;
  repeated bytes by = 15;
  repeated E e = 16;
  optional P child = 17;
  repeated P kids = 18;
  oneof o {
    P om = 19;
    int32 oi = 20;
    string os = 21;
    P om2 = 27;
  }
  map<string, P> mp = 22;
  optional group G = 23 { repeated int32 gi = 24; optional P gm = 25; }
  optional int32 single = 26;
  extensions 100 to 199;
}
extend P {
  repeated int32 xi = 100;
  optional P xm = 101;
}`
	lazyProto3 = `syntax = "proto3";
package lz3;
message Q {
  repeated string s = 1;
  repeated int32 i = 2;
  Q child = 3;
  repeated Q kids = 4;
  repeated double d = 5;
  oneof o {
    Q a = 6;
    Q b = 7;
  }
  optional Q opt = 8;
  repeated bool flags = 9;
}`
	// Elements with required fields, and elements proto.Unmarshal cannot
	// reject (canFail false: no strings, required fields or extensions).
	lazyRequired = `syntax = "proto2";
package lr;
message R {
  repeated R kids = 1;
  required int32 id = 2;
  repeated int32 p = 3;
}
message Plain {
  repeated Plain kids = 1;
  repeated sint64 p = 2;
  optional int32 v = 3;
  optional Plain one = 4;
}
message Top {
  repeated R rs = 1;
  repeated Plain pl = 2;
}`
)

// lazyGen writes random payloads of a message type: mostly fields of the
// type with their own wire type, some packed, some with another wire type
// and some unknown; strings sometimes not UTF-8; nested messages a few
// levels deep.
type lazyGen struct{ r *rand.Rand }

func (g lazyGen) message(md protoreflect.MessageDescriptor, depth int) []byte {
	var b []byte
	fields := md.Fields()
	for n := g.r.Intn(7); n > 0; n-- {
		if g.r.Intn(12) == 0 {
			b = protowire.AppendTag(b, protowire.Number(1000+g.r.Intn(3)), protowire.VarintType)
			b = protowire.AppendVarint(b, uint64(g.r.Intn(300)))
			continue
		}
		fd := fields.Get(g.r.Intn(fields.Len()))
		b = g.field(b, fd, depth)
	}
	return b
}

func (g lazyGen) field(b []byte, fd protoreflect.FieldDescriptor, depth int) []byte {
	num := fd.Number()
	want := protowire.Type(wirekind.Of(fd.Kind()))
	switch {
	case g.r.Intn(15) == 0: // another wire type: an unknown field
		b = protowire.AppendTag(b, num, protowire.Fixed32Type)
		return protowire.AppendFixed32(b, g.r.Uint32())
	case fd.IsMap():
		var e []byte
		e = protowire.AppendTag(e, 1, protowire.BytesType)
		e = protowire.AppendString(e, []string{"a", "b", ""}[g.r.Intn(3)])
		if depth < 4 {
			e = protowire.AppendTag(e, 2, protowire.BytesType)
			e = protowire.AppendBytes(e, g.message(fd.MapValue().Message(), depth+1))
		}
		b = protowire.AppendTag(b, num, protowire.BytesType)
		return protowire.AppendBytes(b, e)
	case fd.Kind() == protoreflect.MessageKind:
		var m []byte
		if depth < 4 {
			m = g.message(fd.Message(), depth+1)
		}
		b = protowire.AppendTag(b, num, protowire.BytesType)
		return protowire.AppendBytes(b, m)
	case fd.Kind() == protoreflect.GroupKind:
		b = protowire.AppendTag(b, num, protowire.StartGroupType)
		if depth < 4 {
			b = append(b, g.message(fd.Message(), depth+1)...)
		}
		return protowire.AppendTag(b, num, protowire.EndGroupType)
	case want == protowire.BytesType:
		b = protowire.AppendTag(b, num, protowire.BytesType)
		v := []byte{"abc\u00e9"[g.r.Intn(5)%4]}
		if g.r.Intn(6) == 0 {
			v = append(v, 0xff) // not UTF-8
		}
		return protowire.AppendBytes(b, v[:g.r.Intn(len(v)+1)])
	case fd.IsList() && g.r.Intn(2) == 0: // packed
		var p []byte
		for k := g.r.Intn(5); k > 0; k-- {
			p = g.scalar(p, want)
		}
		b = protowire.AppendTag(b, num, protowire.BytesType)
		return protowire.AppendBytes(b, p)
	}
	b = protowire.AppendTag(b, num, want)
	return g.scalar(b, want)
}

func (g lazyGen) scalar(b []byte, wt protowire.Type) []byte {
	switch wt {
	case protowire.Fixed32Type:
		return protowire.AppendFixed32(b, g.r.Uint32())
	case protowire.Fixed64Type:
		return protowire.AppendFixed64(b, g.r.Uint64())
	}
	return protowire.AppendVarint(b, []uint64{0, 1, 2, 300, 1 << 31, 1<<32 + 5, 1<<64 - 1}[g.r.Intn(7)])
}

// eagerDecode is Decode's output (or error) without the lazy reading: the
// whole payload through dynamicpb, as FormatValue writes it.
func eagerDecode(s *Schema, md protoreflect.MessageDescriptor, b []byte, out Format) (string, error) {
	m, err := s.Unmarshal(md, b)
	if err != nil {
		return "", err
	}
	return s.FormatValue(m, out)
}

// TestLazyDecodeMatchesEager: Decode, which reads repeated scalar fields
// from the payload's bytes (lazy.go), writes what the whole payload read
// into dynamicpb writes (the output the golden and differential tests hold
// to protojson and prototext), and fails as it does, on random payloads
// of every field shape and on the edge cases below.
func TestLazyDecodeMatchesEager(t *testing.T) {
	s2 := compileSource(t, lazyProto2)
	s3 := compileSource(t, lazyProto3)
	sr := compileSource(t, lazyRequired)
	p, q := mustFind(t, s2, "lz.P"), mustFind(t, s3, "lz3.Q")
	top, plain := mustFind(t, sr, "lr.Top"), mustFind(t, sr, "lr.Plain")
	tag := func(num protowire.Number, wt protowire.Type) []byte { return protowire.AppendTag(nil, num, wt) }
	cat := func(parts ...[]byte) []byte {
		var b []byte
		for _, x := range parts {
			b = append(b, x...)
		}
		return b
	}
	lenField := func(num protowire.Number, v []byte) []byte {
		return protowire.AppendBytes(tag(num, protowire.BytesType), v)
	}
	cases := []struct {
		name string
		s    *Schema
		md   protoreflect.MessageDescriptor
		b    []byte
	}{
		{"packed and unpacked interleaved", s2, p, cat(lenField(1, []byte{1, 2, 3}), tag(1, 0), []byte{4}, lenField(1, nil), tag(13, 0), []byte{2})},
		{"empty packed field only", s2, p, lenField(1, nil)},
		{"singular message twice merges", s2, p, cat(lenField(17, lenField(1, []byte{1})), lenField(17, lenField(1, []byte{2})))},
		{"oneof message cleared by a scalar member", s2, p, cat(lenField(19, lenField(1, []byte{1})), tag(20, 0), []byte{5}, lenField(19, lenField(1, []byte{2})))},
		{"oneof message then the other message member", s2, p, cat(lenField(19, lenField(1, []byte{1})), lenField(27, lenField(1, []byte{2})))},
		{"oneof member with another wire type does not clear", s2, p, cat(lenField(19, lenField(1, []byte{1})), tag(20, protowire.Fixed32Type), []byte{1, 2, 3, 4}, lenField(19, lenField(1, []byte{2})))},
		{"repeated messages with packed fields", s2, p, cat(lenField(18, lenField(2, []byte{1, 2})), lenField(18, nil), lenField(18, lenField(14, []byte("x"))))},
		{"packed field inside a map value", s2, p, lenField(22, cat(lenField(1, []byte("k")), lenField(2, lenField(1, []byte{7, 8}))))},
		{"group with a repeated field", s2, p, cat(tag(23, protowire.StartGroupType), tag(24, 0), []byte{3}, tag(23, protowire.EndGroupType))},
		{"extensions", s2, p, cat(tag(100, 0), []byte{1}, lenField(100, []byte{2, 3}), lenField(101, lenField(1, []byte{4})))},
		{"proto2 string not UTF-8", s2, p, cat(lenField(14, []byte("a")), lenField(14, []byte{0xff}), lenField(14, []byte("b")))},
		{"proto3 string not UTF-8", s3, q, cat(lenField(1, []byte("a")), lenField(1, []byte{0xff}))},
		{"proto3 string not UTF-8 nested", s3, q, lenField(4, cat(lenField(1, []byte("a")), lenField(1, []byte{0xff})))},
		{"proto3 oneof messages", s3, q, cat(lenField(6, lenField(2, []byte{1})), lenField(7, lenField(2, []byte{2})), lenField(7, lenField(2, []byte{3})))},
		{"long length prefix kept", s2, p, cat(tag(17, protowire.BytesType), []byte{0x83, 0x00}, tag(1, 0), []byte{1})},
		{"truncated packed varint", s2, p, lenField(1, []byte{0x80})},
		{"required field missing in an element", sr, top, cat(lenField(1, []byte{0x10, 1}), lenField(1, lenField(3, []byte{1})))},
		{"required field missing two elements deep", sr, top, lenField(1, cat([]byte{0x10, 1}, lenField(1, lenField(3, []byte{1}))))},
		{"required fields set", sr, top, lenField(1, cat([]byte{0x10, 1}, lenField(1, []byte{0x10, 2})))},
		{"empty elements", sr, top, cat(lenField(2, nil), lenField(2, nil), lenField(2, lenField(2, []byte{3})))},
		{"packed fixed32 of 3 bytes", s2, p, lenField(7, []byte{1, 2, 3})},
	}
	r := rand.New(rand.NewSource(24))
	g := lazyGen{r}
	for i := 0; i < 400; i++ {
		s, md := s2, p
		switch i % 4 {
		case 1:
			s, md = s3, q
		case 2:
			s, md = sr, plain
		}
		cases = append(cases, struct {
			name string
			s    *Schema
			md   protoreflect.MessageDescriptor
			b    []byte
		}{"random", s, md, g.message(md, 1)})
	}
	for i, c := range cases {
		for _, out := range []Format{JSON, Text} {
			want, werr := eagerDecode(c.s, c.md, c.b, out)
			d, err := c.s.Decode(c.md, c.b, DecodeOptions{In: Binary, Out: out})
			got := ""
			if err == nil {
				got = d.Messages[0]
			}
			if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() || got != want {
				t.Errorf("case %d (%s) to %s, payload %x:\nlazy  %q, error %v\neager %q, error %v", i, c.name, out, c.b, got, err, want, werr)
			}
		}
	}
}
