package wire_test

import (
	"bytes"
	"testing"

	"github.com/protoplay/protoplay/runtime/wire"
)

// extended is a stand-in for a generated message with extension ranges.
type extended struct{ unknown *[]byte }

func (m *extended) ProtoUnknownFields() **[]byte {
	if m == nil {
		return nil
	}
	return &m.unknown
}

func withUnknown(b []byte) *extended { return &extended{unknown: &b} }

// color is a stand-in for a generated closed enum declaring 1 and 2.
type color int32

func (c color) String() string {
	switch c {
	case 1:
		return "RED"
	case 2:
		return "GREEN"
	}
	return "99"
}

var (
	extInt   = wire.Ext[*extended, int32]{Extension: wire.Extension{FullName: "p.i", Extendee: "p.M", Number: 10, Kind: wire.Int32Kind}, Default: 7}
	extSint  = wire.ExtList[*extended, int32]{Extension: wire.Extension{FullName: "p.s", Extendee: "p.M", Number: 11, Kind: wire.Sint32Kind, Repeated: true, Packed: true}}
	extColor = wire.Ext[*extended, color]{Extension: wire.Extension{FullName: "p.c", Extendee: "p.M", Number: 12, Kind: wire.EnumKind, ClosedEnum: true,
		Enum: func(p *int32) any { return (*color)(p) }}, Default: 1}
)

// Protobuf's rules (protobuf.dev/programming-guides/encoding/#last-one-wins):
// "For numeric types and strings, if the same field appears multiple
// times, the parser accepts the last value it sees"; "protocol buffer
// parsers must be able to parse repeated fields that were compiled as
// packed as if they were not packed, and vice versa".
func TestExtLastOneWins(t *testing.T) {
	// 10: 1, then 10: 5 as a LEN record (a wrong wire type: an unknown
	// field, not the extension's), then 10: 3.
	m := withUnknown([]byte{0x50, 1, 0x52, 1, 5, 0x50, 3})
	if got := extInt.Get(m); got != 3 {
		t.Errorf("Get = %d, want 3 (the last value of the right wire type)", got)
	}
	if err := extInt.Set(m, -1); err != nil {
		t.Fatal(err)
	}
	// The wrong-typed record stays; the value is written once, at the end.
	want := []byte{0x52, 1, 5, 0x50, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}
	if !bytes.Equal(*m.unknown, want) {
		t.Errorf("after Set: %x, want %x", *m.unknown, want)
	}
	extInt.Clear(m)
	if extInt.Has(m) || extInt.Get(m) != 7 {
		t.Errorf("after Clear: Has %v, Get %d (want false, the default 7)", extInt.Has(m), extInt.Get(m))
	}
	if !bytes.Equal(*m.unknown, []byte{0x52, 1, 5}) {
		t.Errorf("after Clear: %x, want the unknown LEN record only", *m.unknown)
	}
	var nilMsg *extended
	if extInt.Has(nilMsg) || extInt.Get(nilMsg) != 7 {
		t.Error("a nil message has the extension")
	}
}

func TestExtPackedAndUnpacked(t *testing.T) {
	// 11: packed [1, -1], then unpacked 2, then packed [-2].
	m := withUnknown([]byte{0x5a, 2, 2, 1, 0x58, 4, 0x5a, 1, 3})
	got := extSint.Get(m)
	if len(got) != 4 || got[0] != 1 || got[1] != -1 || got[2] != 2 || got[3] != -2 {
		t.Errorf("Get = %v, want [1 -1 2 -2]", got)
	}
	if err := extSint.Set(m, []int32{5, -5}); err != nil {
		t.Fatal(err)
	}
	if want := []byte{0x5a, 2, 10, 9}; !bytes.Equal(*m.unknown, want) {
		t.Errorf("after Set: %x, want one packed record %x", *m.unknown, want)
	}
	if err := extSint.Set(m, nil); err != nil || extSint.Has(m) || m.unknown != nil {
		t.Errorf("Set of an empty list leaves %v (err %v)", m.unknown, err)
	}
}

// A closed enum's undeclared number is an unknown field, not a value
// (protobuf.dev/programming-guides/enum/#closed).
func TestExtClosedEnum(t *testing.T) {
	m := withUnknown([]byte{0x60, 2, 0x60, 99})
	if got := extColor.Get(m); got != 2 {
		t.Errorf("Get = %v, want GREEN (99 is not a value)", got)
	}
	m = withUnknown([]byte{0x60, 99})
	if extColor.Has(m) || extColor.Get(m) != 1 {
		t.Errorf("only an undeclared number: Has %v, Get %v (want false, the default)", extColor.Has(m), extColor.Get(m))
	}
	extColor.Clear(m)
	if !bytes.Equal(*m.unknown, []byte{0x60, 99}) {
		t.Errorf("Clear removed the undeclared number: %x", *m.unknown)
	}
	if err := extColor.Set(m, 2); err != nil || extColor.Get(m) != 2 {
		t.Errorf("Set(GREEN): %v, Get %v", err, extColor.Get(m))
	}
}
