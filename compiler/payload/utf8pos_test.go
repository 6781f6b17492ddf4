package payload

import (
	"testing"

	"github.com/protoplay/protoplay/compiler/diag"
)

// TestInvalidUTF8Position: a string that must be UTF-8 (proto3) and is
// not fails with the byte offset of its field's tag and its path, in a
// nested message, a map key, a list element and an Any's type URL; a
// proto2 string, which need not be UTF-8, decodes.
func TestInvalidUTF8Position(t *testing.T) {
	s := compileSource(t, "syntax = \"proto3\";\npackage u;\nimport \"google/protobuf/any.proto\";\nmessage M { M c = 2; string s = 4; map<string, int32> m = 5; repeated string ss = 6; google.protobuf.Any any = 7; }\n")
	md := mustFind(t, s, "u.M")
	cases := []struct {
		in     string
		offset int
		path   string
	}{
		{"\x22\x02\xff\xfe", 0, "s"},
		{"\x08\x01\x12\x04\x22\x02\xff\xfe", 4, "c.s"},
		{"\x2a\x04\x0a\x02\xff\xfe", 2, "m[0].key"},
		{"\x32\x01a\x32\x01\xff", 3, "ss[1]"},
		{"\x3a\x03\x0a\x01\xff", 2, "any.type_url"},
	}
	for _, c := range cases {
		_, err := s.Decode(md, []byte(c.in), DecodeOptions{In: Binary})
		e := AsError(err)
		if e == nil || e.Kind != diag.KindValue || e.Offset != c.offset || e.Path != c.path {
			t.Errorf("%x: %#v, want KindValue at byte %d in %s", c.in, e, c.offset, c.path)
		}
	}
	p2 := compileSource(t, "syntax = \"proto2\";\npackage v;\nmessage M { optional string s = 4; }\n")
	if _, err := p2.Decode(mustFind(t, p2, "v.M"), []byte("\x22\x02\xff\xfe"), DecodeOptions{In: Binary, Out: Text}); err != nil {
		t.Errorf("proto2 string: %v", err)
	}
}
