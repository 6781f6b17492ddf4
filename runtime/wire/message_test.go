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
