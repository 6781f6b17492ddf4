package wire

import (
	"testing"
	"unsafe"
)

// The retention bound of Decoder: the block a value keeps alive is never
// larger than its kind's cap, nor than the blocks of its kind before it
// together plus the first block's size (so never much more than twice what
// the Decoder had handed out of that kind before it), and all blocks
// together hold at most about twice what was handed out.
func TestDecoderRetentionBound(t *testing.T) {
	// check is called with the size of each new block, the sizes of the
	// blocks before it together, and the bytes handed out before it.
	check := func(t *testing.T, what string, block, before, handed, first, limit int) {
		t.Helper()
		if block > limit || block > before+first || block > 2*handed+first {
			t.Fatalf("%s: block of %d bytes after blocks of %d and %d bytes handed out (first %d, cap %d)",
				what, block, before, handed, first, limit)
		}
	}
	t.Run("scalars", func(t *testing.T) {
		var d Decoder
		var handed, total int
		var last unsafe.Pointer
		for i := range 5000 {
			before := handed
			switch i % 3 {
			case 0:
				d.Bool(true)
				handed++
			case 1:
				d.Int32(1)
				handed += 4
			default:
				d.Float64(1)
				handed += 8
			}
			if d.scalarsBase != last {
				check(t, "scalars", int(d.scalarsLen), total, before, firstScalarBlock, MaxScalarBlock)
				total += int(d.scalarsLen)
				last = d.scalarsBase
			}
		}
		// Alignment pads by at most 7 bytes per 3 values in this order.
		if total > 2*(handed+7*5000/3)+firstScalarBlock {
			t.Errorf("%d bytes of blocks for %d bytes of values", total, handed)
		}
	})
	t.Run("text", func(t *testing.T) {
		var d Decoder
		var handed, total int
		var last *byte
		for i := range 3000 {
			b := make([]byte, 1+i%300)
			before := handed
			d.String(b)
			handed += len(b)
			if p := unsafe.SliceData(d.text); p != last {
				check(t, "text", len(d.text), total, before, firstTextBlock, MaxTextBlock)
				total += len(d.text)
				last = p
			}
		}
		if total > 2*handed+firstTextBlock {
			t.Errorf("%d bytes of blocks for %d bytes of strings", total, handed)
		}
	})
	t.Run("messages", func(t *testing.T) {
		type msg struct{ _, _, _ int64 } // 24 bytes
		var d Decoder
		New[msg](&d) // the first message, alone
		var handed, total int
		var last *msg
		for range 2000 {
			before := handed
			New[msg](&d)
			handed += 24
			s := d.msgs[0].(*slab[msg])
			if p := unsafe.SliceData(s.buf); p != last {
				check(t, "messages", 24*len(s.buf), total, before, 48, MaxMessageSlabBytes)
				total += 24 * len(s.buf)
				last = p
			}
		}
		if total > 2*handed+48 {
			t.Errorf("%d bytes of slabs for %d bytes of messages", total, handed)
		}
	})
}
