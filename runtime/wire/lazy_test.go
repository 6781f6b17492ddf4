package wire_test

import (
	"sync"
	"testing"

	"github.com/protoplay/protoplay/runtime/wire"
)

type lazyMsg struct{ n int }

// TestPublishMessage has many goroutines race to publish their own
// message into one nil field: every one of them must get the same
// message back, the one LoadMessage then reads (run it with -race).
func TestPublishMessage(t *testing.T) {
	var field *lazyMsg
	if got := wire.LoadMessage(&field); got != nil {
		t.Fatalf("LoadMessage of a nil field = %v, want nil", got)
	}
	const n = 16
	got := make([]*lazyMsg, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if x := wire.LoadMessage(&field); x != nil {
				got[i] = x
				return
			}
			got[i] = wire.PublishMessage(&field, &lazyMsg{n: i})
		}()
	}
	wg.Wait()
	won := wire.LoadMessage(&field)
	if won == nil {
		t.Fatal("no message was published")
	}
	for i, x := range got {
		if x != won {
			t.Errorf("goroutine %d got message %d, want the published %d", i, x.n, won.n)
		}
	}
	if x := wire.PublishMessage(&field, &lazyMsg{n: -1}); x != won {
		t.Errorf("PublishMessage over a set field returned message %d, want the one it holds (%d)", x.n, won.n)
	}
}

// TestCanonVarint: a varint is canonical when it has the fewest bytes and
// its value survives its class's Go type (an int32 sign-extended, a
// uint32 or sint32 below 2^32, a bool 0 or 1).
func TestCanonVarint(t *testing.T) {
	for _, tc := range []struct {
		b     []byte
		class int
		want  bool
	}{
		{[]byte{0x07}, wire.VarintAny, true},
		{[]byte{0x87, 0x00}, wire.VarintAny, false},                                                  // overlong 7
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, wire.VarintInt32, true}, // -1
		{[]byte{0xff, 0xff, 0xff, 0xff, 0x0f}, wire.VarintInt32, false},                              // -1 not sign-extended
		{[]byte{0xff, 0xff, 0xff, 0xff, 0x0f}, wire.VarintUint32, true},
		{[]byte{0x80, 0x80, 0x80, 0x80, 0x10}, wire.VarintUint32, false}, // 2^32
		{[]byte{0x01}, wire.VarintBool, true},
		{[]byte{0x02}, wire.VarintBool, false},
	} {
		v, n := wire.ConsumeVarint(tc.b)
		if n != len(tc.b) {
			t.Fatalf("%x: ConsumeVarint n = %d", tc.b, n)
		}
		if got := wire.CanonVarint(v, n, tc.class); got != tc.want {
			t.Errorf("CanonVarint(%x, class %d) = %v, want %v", tc.b, tc.class, got, tc.want)
		}
	}
}

// TestValidatePacked: whole elements decode; canonical means not empty
// and every varint canonical.
func TestValidatePacked(t *testing.T) {
	for _, tc := range []struct {
		p              []byte
		typ            wire.Type
		class          int
		wantOK, wantCn bool
	}{
		{[]byte{1, 2, 0xac, 0x02}, wire.VarintType, wire.VarintInt32, true, true},
		{[]byte{1, 0x80}, wire.VarintType, wire.VarintInt32, false, false}, // truncated
		{[]byte{1, 0x81, 0x00}, wire.VarintType, wire.VarintAny, true, false},
		{[]byte{2}, wire.VarintType, wire.VarintBool, true, false},
		{nil, wire.VarintType, wire.VarintAny, true, false},
		{make([]byte, 8), wire.Fixed32Type, 0, true, true},
		{make([]byte, 6), wire.Fixed32Type, 0, false, true},
		{make([]byte, 16), wire.Fixed64Type, 0, true, true},
		{make([]byte, 12), wire.Fixed64Type, 0, false, true},
	} {
		ok, canon := wire.ValidatePacked(tc.p, tc.typ, tc.class)
		if ok != tc.wantOK || ok && canon != tc.wantCn {
			t.Errorf("ValidatePacked(%x, %v, %d) = %v, %v; want %v, %v", tc.p, tc.typ, tc.class, ok, canon, tc.wantOK, tc.wantCn)
		}
	}
}
