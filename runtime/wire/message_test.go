package wire

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
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

// NestIndexAt is NestIndex for Unmarshal: the element's input offset moves
// the nested error's offset, as Nest does.
func TestNestIndexAt(t *testing.T) {
	err := NestIndexAt(&Error{Offset: 2, Path: "name", Err: ErrUTF8}, 10, "items", 4)
	var e *Error
	if !errors.As(err, &e) || e.Path != "items[4].name" || e.Offset != 12 || !errors.Is(err, ErrUTF8) {
		t.Fatalf("%#v", err)
	}
	if NestIndexAt(nil, 3, "x", 0) != nil {
		t.Fatal("nil error must stay nil")
	}
}

// ValidString and ValidUTF8 agree with unicode/utf8 for every length up to
// 100 (isASCII's 1-3, 4-7 and 8-byte-word cases, its 32-byte rounds and
// their tails) with a non-ASCII byte (invalid alone, starting a valid two-,
// three- or four-byte rune that straddles each 8-byte word boundary as it
// moves, or a truncated rune) at every position, and on inputs that are
// all ASCII.
func TestValidUTF8(t *testing.T) {
	check := func(s string) {
		t.Helper()
		want := utf8.ValidString(s)
		if got := ValidString(s); got != want {
			t.Fatalf("ValidString(%q) = %v, want %v", s, got, want)
		}
		if got := ValidUTF8([]byte(s)); got != want {
			t.Fatalf("ValidUTF8(%q) = %v, want %v", s, got, want)
		}
	}
	for n := 0; n <= 100; n++ {
		ascii := strings.Repeat("a", n)
		check(ascii)
		for i := 0; i < n; i++ {
			for _, bad := range []string{"\xff", "\x80", "\xc3", "é", "✓", "\U0001F600", "\xe2\x9c", "\xf0\x9f\x98"} {
				check(ascii[:i] + bad + ascii[i+1:])
			}
		}
	}
}

func FuzzValidUTF8(f *testing.F) {
	for _, s := range []string{"", "a", "héllo, wörld ✓", "\xff", "0123456789abcdef\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if ValidString(s) != utf8.ValidString(s) || ValidUTF8([]byte(s)) != utf8.ValidString(s) {
			t.Fatalf("%q: ValidString %v, ValidUTF8 %v, utf8 %v", s, ValidString(s), ValidUTF8([]byte(s)), utf8.ValidString(s))
		}
	})
}

func BenchmarkValidString(b *testing.B) {
	// GoogleMessage1's (proto3) non-empty strings: 4 values, 172 ASCII bytes.
	strs := []string{
		strings.Repeat("x", 89), strings.Repeat("y", 10), strings.Repeat("z", 6), strings.Repeat("w", 67),
	}
	b.Run("utf8", func(b *testing.B) {
		for b.Loop() {
			for _, s := range strs {
				if !utf8.ValidString(s) {
					b.Fatal(s)
				}
			}
		}
	})
	b.Run("wire", func(b *testing.B) {
		for b.Loop() {
			for _, s := range strs {
				if !ValidString(s) {
					b.Fatal(s)
				}
			}
		}
	})
}

// UnmarshalEmpty decodes a message that declares no fields as generated
// UnmarshalGroup does: every field is unknown and kept as it came (or
// dropped for u == nil), a group ends at its own END_GROUP tag, and the
// depth and group errors are those of generated code.
func TestUnmarshalEmpty(t *testing.T) {
	in := []byte{0x08, 0x96, 0x01, 0x12, 0x01, 'x', 0x1b, 0x08, 0x01, 0x1c, 0xf8, 0xff, 0xff, 0xff, 0x0f, 0x00}
	var u *[]byte
	n, err := UnmarshalEmpty(&u, in, 0, 1)
	if err != nil || n != len(in) || u == nil || string(*u) != string(in) {
		t.Fatalf("message: n=%d err=%v unknown=%x", n, err, u)
	}
	if n, err := UnmarshalEmpty(nil, in, 0, 1); err != nil || n != len(in) {
		t.Fatalf("dropping unknown fields: n=%d err=%v", n, err)
	}
	if n, err := UnmarshalEmpty(nil, nil, 0, 1); err != nil || n != 0 {
		t.Fatalf("empty input: n=%d err=%v", n, err)
	}
	// As group 5: up to and including the END_GROUP tag 0x2c.
	u = nil
	n, err = UnmarshalEmpty(&u, []byte{0x08, 0x01, 0x2c, 0x08, 0x02}, 5, 1)
	if err != nil || n != 3 || string(*u) != "\x08\x01" {
		t.Fatalf("group: n=%d err=%v unknown=%x", n, err, u)
	}
	for _, c := range []struct {
		name  string
		in    []byte
		group int32
		depth int
		want  error
		off   int
	}{
		{"depth 0", nil, 0, 0, ErrDepth, 0},
		{"END_GROUP in a message", []byte{0x08, 0x01, 0x0c}, 0, 1, ErrWireType, 2},
		{"END_GROUP of another group", []byte{0x0c}, 5, 1, ErrGroupMismatch, 0},
		{"group without END_GROUP", []byte{0x08, 0x01}, 5, 1, ErrTruncated, 2},
		{"truncated value", []byte{0x08, 0x80}, 0, 1, ErrTruncated, 1},
		{"field number 0", []byte{0x00, 0x01}, 0, 1, ErrFieldNumber, 0},
		{"wire type 7", []byte{0x0f}, 0, 1, ErrWireType, 0},
	} {
		_, err := UnmarshalEmpty(nil, c.in, c.group, c.depth)
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, c.want) || e.Offset != c.off {
			t.Errorf("%s: %v, want %v at byte %d", c.name, err, c.want, c.off)
		}
	}
}

// NestKeyAt shifts the offset and names the map key; NestKey has no offset.
func TestNestKeyAt(t *testing.T) {
	e := NestKeyAt(&Error{Offset: 1, Err: ErrUTF8}, 10, "m", int32(-2)).(*Error)
	if e.Offset != 11 || e.Path != "m[-2]" {
		t.Errorf("NestKeyAt: %+v", e)
	}
	e = NestKey(&Error{Offset: 1, Path: "x", Err: ErrUTF8}, "m", "k").(*Error)
	if e.Offset != -1 || e.Path != `m["k"].x` {
		t.Errorf("NestKey: %+v", e)
	}
	if NestKeyAt(nil, 0, "m", true) != nil {
		t.Error("NestKeyAt(nil) != nil")
	}
}

// PutUnknownRev writes the unknown fields as they are, ending before b[i].
func TestPutUnknownRev(t *testing.T) {
	b := []byte{0, 0, 0, 0, 9}
	u := &[]byte{0x08, 0x01, 0x02}
	if i := PutUnknownRev(b, 4, u); i != 1 || string(b) != "\x00\x08\x01\x02\x09" {
		t.Errorf("PutUnknownRev = %d, %x", i, b)
	}
	if i := PutUnknownRev(b, 4, nil); i != 4 {
		t.Errorf("PutUnknownRev(nil) = %d, want 4", i)
	}
}
