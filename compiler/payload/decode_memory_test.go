package payload

import (
	"bytes"
	"fmt"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// Bounds on what decoding a payload costs, per byte of the payload, for
// every output decode writes (JSON, text, the wire listing), on the
// densest payloads: one packed repeated field of 1-byte varints, repeated
// empty messages (2 bytes each), unknown varint fields (3 bytes each),
// repeated 1-byte strings (3 bytes each), repeated messages of packed
// varints and map entries. Allocation is runtime.MemStats.TotalAlloc
// across the call, so it counts what is freed during the call too.
const (
	// decodeAllocPerInputByte bounds Decode's allocation, to JSON or text
	// (measured: 18-27 for the packed field, 129-143 for the empty
	// messages, 5-21 for the unknown fields, 10-14 for the strings, 33-47
	// for the messages of packed varints, 43-64 for the map entries).
	// Repeated scalar, string and bytes fields are read from the payload
	// as they are written and repeated messages decoded one at a time
	// (lazy.go), so what remains is the output (JSON is sized once; text
	// grows by append), a dynJSON and an Encoder step per element, and
	// google.golang.org/protobuf's dynamicpb for singular fields and maps.
	decodeAllocPerInputByte = 180
	// decodeOutputPerInputByte bounds the JSON and text output: JSON
	// writes a 1-byte element as "    1,\n", 7 bytes.
	decodeOutputPerInputByte = 8
	// listingOutputPerInputByte bounds the wire listing: a line per field
	// or element (offset, bytes, number, name, type, value; 37 bytes for
	// a packed 1-byte element), at most MaxViewFields lines. Its
	// allocation, with WireView's, is bounded by MaxViewBytesPerInputByte.
	listingOutputPerInputByte = 40
	// decodeGrowth bounds how much more a payload 4 times as large may
	// cost than the smaller one (4: linear; allocation may grow a little
	// faster, as a slice's growth steps land differently, and by a byte
	// per payload byte).
	decodeGrowth = 4.5
)

// TestDecodeMemoryLinear (issue 24 kind 4, case 49's sibling: an 8 MB
// packed field decoded to JSON held 0.9 GB): for each output and each of
// the dense payloads above, at two sizes, Decode allocates at most
// decodeAllocPerInputByte per payload byte and writes at most
// decodeOutputPerInputByte (WireView with Listing:
// MaxViewBytesPerInputByte and listingOutputPerInputByte), and both grow
// at most linearly: the payload 4 times as large costs at most
// decodeGrowth times as much.
func TestDecodeMemoryLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes payloads of megabytes")
	}
	s := compileSource(t, `syntax = "proto2";
package g;
message M {
  repeated int32 p = 4 [packed = true];
  repeated M kids = 6;
  repeated string s = 7;
  map<int32, int32> mp = 8;
}`)
	md := mustFind(t, s, "g.M")
	payloads := []struct {
		name string
		make func(n int) []byte // about n bytes
	}{
		{"packed varints", func(n int) []byte {
			return protowire.AppendBytes(protowire.AppendTag(nil, 4, protowire.BytesType), bytes.Repeat([]byte{1}, n))
		}},
		{"empty messages", func(n int) []byte { return bytes.Repeat([]byte{0x32, 0x00}, n/2) }},
		{"unknown fields", func(n int) []byte { return bytes.Repeat([]byte{0xc8, 0x3e, 0x01}, n/3) }},
		{"repeated strings", func(n int) []byte { return bytes.Repeat([]byte{0x3a, 0x01, 'a'}, n/3) }},
		{"messages of packed varints", func(n int) []byte {
			// 2-byte varints: JSON writes each, 3 levels deep, as
			// "        300,\n".
			kid := protowire.AppendBytes(protowire.AppendTag(nil, 4, protowire.BytesType), bytes.Repeat([]byte{0xac, 0x02}, 7))
			return bytes.Repeat(protowire.AppendBytes(protowire.AppendTag(nil, 6, protowire.BytesType), kid), n/(len(kid)+2))
		}},
		{"map entries", func(n int) []byte {
			var b []byte
			for i := 0; len(b) < n; i++ {
				e := protowire.AppendVarint([]byte{0x08}, uint64(i))
				b = protowire.AppendBytes(protowire.AppendTag(b, 8, protowire.BytesType), e)
			}
			return b
		}},
	}
	const small = 1 << 16
	for _, p := range payloads {
		for _, out := range []Format{JSON, Text, "wire"} {
			t.Run(fmt.Sprintf("%s to %s", p.name, out), func(t *testing.T) {
				var alloc [2]uint64
				var size [2]int
				for i, n := range []int{small, 4 * small} {
					b := p.make(n)
					var written int
					alloc[i] = allocated(func() {
						if out == "wire" {
							v, err := s.WireView(md, b)
							if err != nil {
								t.Fatal(err)
							}
							written = len(Listing(v, b))
							return
						}
						d, err := s.Decode(md, b, DecodeOptions{In: Binary, Out: out})
						if err != nil {
							t.Fatal(err)
						}
						written = len(d.Messages[0])
					})
					size[i] = written
					limit, outLimit := decodeAllocPerInputByte, decodeOutputPerInputByte
					if out == "wire" {
						limit, outLimit = MaxViewBytesPerInputByte, listingOutputPerInputByte
					}
					perByte := float64(alloc[i]) / float64(len(b))
					t.Logf("%d bytes: allocated %.1f B per byte, wrote %.2f B per byte", len(b), perByte, float64(written)/float64(len(b)))
					if perByte > float64(limit) {
						t.Errorf("%d bytes: allocated %d bytes, %.1f per payload byte, over %d", len(b), alloc[i], perByte, limit)
					}
					if written > outLimit*len(b)+1024 {
						t.Errorf("%d bytes: wrote %d bytes, over %d per payload byte", len(b), written, outLimit)
					}
				}
				// (Plus a byte per payload byte: a decode that keeps the
				// payload's bytes, as unknown fields, grows their slice
				// in steps.)
				if float64(alloc[1]) > decodeGrowth*float64(alloc[0])+4*small || float64(size[1]) > decodeGrowth*float64(size[0])+1024 {
					t.Errorf("4 times the payload: allocated %d then %d bytes, wrote %d then %d: more than %.1f times", alloc[0], alloc[1], size[0], size[1], decodeGrowth)
				}
			})
		}
	}
}
