package wire

import (
	"errors"
	"testing"
)

func TestCountVarints(t *testing.T) {
	var b []byte
	for _, v := range []uint64{0, 1, 127, 128, 300, 1 << 63} {
		b = AppendVarint(b, v)
	}
	if got := CountVarints(b); got != 6 {
		t.Fatalf("CountVarints = %d, want 6", got)
	}
	if CountVarints(nil) != 0 {
		t.Fatal("empty")
	}
}

func TestUnknownHelpers(t *testing.T) {
	var u *[]byte
	if !UnknownEqual(u, &[]byte{}) || CloneUnknown(u) != nil {
		t.Fatal("nil unknown fields")
	}
	AddUnknown(&u, []byte{0x08, 0x01})
	AddUnknown(&u, []byte{0x10, 0x02})
	c := CloneUnknown(u)
	if string(*c) != "\x08\x01\x10\x02" || !UnknownEqual(u, c) {
		t.Fatalf("got %x", *c)
	}
	(*c)[0] = 0
	if UnknownEqual(u, c) {
		t.Fatal("clone shares storage")
	}
}

func TestRequiredError(t *testing.T) {
	err := RequiredError([]string{"p.M.a", "p.M.b"})
	if !errors.Is(err, ErrRequired) || err.Error() != "protoplay: invalid message: required field not set: p.M.a, p.M.b" {
		t.Fatalf("%v", err)
	}
}

func TestUTF8Error(t *testing.T) {
	err := UTF8Error(4, "p.M.s")
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrUTF8) || e.Offset != 4 || e.Detail != "p.M.s" {
		t.Fatalf("%#v", err)
	}
	if got := UTF8Error(-1, "p.M.s").Error(); got != "protoplay: invalid message: invalid UTF-8 in string field: p.M.s" {
		t.Fatalf("encoding error text %q", got)
	}
}

// NestIndex and NestKey build the paths of errors found without an input
// offset (Marshal, CheckInitialized): indexes and keys, quoted strings.
func TestNestIndexKey(t *testing.T) {
	inner := func() error { return RequiredError([]string{"p.Part.id"}) }
	err := NestIndex(NestKey(inner(), "by_name", "k\"1"), "items", 3)
	var e *Error
	if !errors.As(err, &e) || e.Path != `items[3].by_name["k\"1"]` || e.Offset != -1 || !errors.Is(err, ErrRequired) {
		t.Fatalf("%#v", err)
	}
	for _, c := range []struct {
		key  any
		want string
	}{
		{int32(-5), "m[-5]"}, {int64(1 << 40), "m[1099511627776]"}, {uint32(7), "m[7]"},
		{uint64(1 << 63), "m[9223372036854775808]"}, {true, "m[true]"}, {"", `m[""]`},
	} {
		if err := NestKey(inner(), "m", c.key); err.(*Error).Path != c.want {
			t.Errorf("NestKey(%v) path %q, want %q", c.key, err.(*Error).Path, c.want)
		}
	}
	if NestIndex(nil, "x", 0) != nil || NestKey(nil, "x", "k") != nil {
		t.Fatal("nil error must stay nil")
	}
	// Nested under a plain field: "outer.items[3]...".
	if err := Nest(NestIndex(inner(), "items", 0), -1, "outer"); err.(*Error).Path != "outer.items[0]" {
		t.Fatalf("%v", err)
	}
}
