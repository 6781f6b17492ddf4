package wire_test

import (
	"encoding/hex"
	"math/rand/v2"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/protoplay/protoplay/runtime/wire"
)

func hexBytes(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// referenceUnknownEqual is proto.Equal of two messages that hold only the
// unknown fields x and y.
func referenceUnknownEqual(x, y []byte) bool {
	a, b := &emptypb.Empty{}, &emptypb.Empty{}
	a.ProtoReflect().SetUnknown(x)
	b.ProtoReflect().SetUnknown(y)
	return proto.Equal(a, b)
}

func TestUnknownEqualGroupsByFieldNumber(t *testing.T) {
	for _, c := range []struct {
		name string
		x, y string
		want bool
	}{
		{"identical", "08 01 10 02", "08 01 10 02", true},
		{"nil and empty", "", "", true},
		// Case 39: id 1, [seat] 5, [gate] "A", unknown 150 = 7, two orders.
		{"case 39 reordered", "08 01 a0 06 05 aa 06 01 41 b0 09 07", "aa 06 01 41 b0 09 07 08 01 a0 06 05", true},
		{"case 39 other value", "08 01 a0 06 05 aa 06 01 41 b0 09 07", "08 01 a0 06 06 aa 06 01 41 b0 09 07", false},
		{"order within a number counts", "08 01 08 02", "08 02 08 01", false},
		{"same number, other wire types, reordered", "08 01 0d 02 00 00 00", "0d 02 00 00 00 08 01", false},
		{"numbers interleaved", "08 01 10 05 08 02", "10 05 08 01 08 02", true},
		{"numbers interleaved, inner order swapped", "08 01 10 05 08 02", "10 05 08 02 08 01", false},
		{"groups move as one field", "0b 08 01 0c 10 02", "10 02 0b 08 01 0c", true},
		{"group contents are compared as bytes", "0b 08 01 10 02 0c", "0b 10 02 08 01 0c", false},
		{"different lengths", "08 01", "08 01 08 01", false},
		{"different field, same bytes length", "08 01", "10 01", false},
	} {
		x, y := hexBytes(t, c.x), hexBytes(t, c.y)
		if got := wire.UnknownEqual(&x, &y); got != c.want {
			t.Errorf("%s: UnknownEqual(%s, %s) = %v, want %v", c.name, c.x, c.y, got, c.want)
		}
		if got := wire.UnknownEqual(&y, &x); got != c.want {
			t.Errorf("%s: UnknownEqual is not symmetric", c.name)
		}
		if ref := referenceUnknownEqual(x, y); ref != c.want {
			t.Errorf("%s: the reference says %v; the table is wrong", c.name, ref)
		}
	}
	var none *[]byte
	empty := []byte{}
	if !wire.UnknownEqual(none, &empty) || !wire.UnknownEqual(&empty, none) || !wire.UnknownEqual(none, none) {
		t.Error("nil must equal empty")
	}
}

func TestUnknownEqualMalformed(t *testing.T) {
	// Bytes that differ and do not split into fields are not equal (and do
	// not panic), whatever their content.
	for _, c := range [][2]string{
		{"08 80", "80 08"},       // truncated varints
		{"0c 08 01", "08 01 0c"}, // END_GROUP with no group
		{"0b 08 01", "08 01 0b"}, // unterminated group
		{"0a 05 01", "01 05 0a"}, // length past the end
		{"0f 01", "01 0f"},       // wire type 7
	} {
		x, y := hexBytes(t, c[0]), hexBytes(t, c[1])
		if wire.UnknownEqual(&x, &y) {
			t.Errorf("UnknownEqual(%s, %s) = true", c[0], c[1])
		}
		if !wire.UnknownEqual(&x, &x) {
			t.Errorf("malformed %s must still equal itself", c[0])
		}
	}
}

// TestUnknownEqualMatchesReference shuffles random unknown-field sets and
// compares UnknownEqual with proto.Equal on the same bytes.
func TestUnknownEqualMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 1))
	randomField := func() []byte {
		num := protowire.Number(1 + r.IntN(4))
		if r.IntN(4) == 0 {
			num = protowire.Number(100 + r.IntN(1<<20))
		}
		switch r.IntN(5) {
		case 0:
			return protowire.AppendVarint(protowire.AppendTag(nil, num, protowire.VarintType), uint64(r.IntN(3)))
		case 1:
			return protowire.AppendFixed32(protowire.AppendTag(nil, num, protowire.Fixed32Type), uint32(r.IntN(3)))
		case 2:
			return protowire.AppendFixed64(protowire.AppendTag(nil, num, protowire.Fixed64Type), uint64(r.IntN(3)))
		case 3:
			return protowire.AppendBytes(protowire.AppendTag(nil, num, protowire.BytesType), []byte("ab")[:r.IntN(3)])
		}
		b := protowire.AppendTag(nil, num, protowire.StartGroupType)
		b = protowire.AppendVarint(protowire.AppendTag(b, 1, protowire.VarintType), uint64(r.IntN(2)))
		return protowire.AppendTag(b, num, protowire.EndGroupType)
	}
	equalSeen, unequalSeen := 0, 0
	for range 5000 {
		fields := make([][]byte, 1+r.IntN(6))
		for i := range fields {
			fields[i] = randomField()
		}
		var x, y []byte
		for _, f := range fields {
			x = append(x, f...)
		}
		// y: a permutation of the same fields, sometimes with one changed.
		perm := r.Perm(len(fields))
		if r.IntN(4) == 0 {
			fields[perm[0]] = randomField()
		}
		for _, i := range perm {
			y = append(y, fields[i]...)
		}
		got, want := wire.UnknownEqual(&x, &y), referenceUnknownEqual(x, y)
		if got != want {
			t.Fatalf("UnknownEqual(%x, %x) = %v, proto.Equal says %v", x, y, got, want)
		}
		if got {
			equalSeen++
		} else {
			unequalSeen++
		}
	}
	if equalSeen < 500 || unequalSeen < 500 {
		t.Fatalf("weak sample: %d equal, %d unequal pairs", equalSeen, unequalSeen)
	}
}

// BenchmarkUnknownEqual: identical bytes take the bytes.Equal path and do
// not allocate.
func BenchmarkUnknownEqual(b *testing.B) {
	x := []byte("\x08\x01\xa0\x06\x05\xaa\x06\x01\x41\xb0\x09\x07")
	y := append([]byte(nil), x...)
	b.ReportAllocs()
	for b.Loop() {
		if !wire.UnknownEqual(&x, &y) {
			b.Fatal("not equal")
		}
	}
}
