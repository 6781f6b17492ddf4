package payload

import (
	"runtime"
	"sync"
	"testing"
)

var (
	fuzzOnce   sync.Once
	fuzzSchema *Schema
)

// FuzzView feeds arbitrary bytes to DecodeRaw and, against pp.wire.Item
// (testdata/wire.proto: every wire type, packed, map, group, Any,
// extensions), to WireView and Decode. None may panic; every field must lie inside
// its parent; an error must point inside the payload; and neither may
// allocate more than the documented bound. Seeds are in
// testdata/fuzz/FuzzView (the golden payloads).
func FuzzView(f *testing.F) {
	f.Add([]byte{0x08, 0x96, 0x01})
	f.Add([]byte{0x88, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0xd2, 0x09}) // 9-byte tag
	f.Add([]byte{0x22, 0x05, 0x0a, 0x01, 0x61, 0x08, 0x00})                         // counts: key "a", then key as a varint
	f.Fuzz(func(t *testing.T, p []byte) {
		fuzzOnce.Do(func() { fuzzSchema = compileFS(t, testdataFS, testdataRoots, "wire.proto") })
		md, err := fuzzSchema.FindMessage("pp.wire.Item")
		if err != nil {
			t.Fatal(err)
		}
		bound := uint64(MaxViewBytesPerInputByte*len(p) + MaxViewOverhead)
		var raw, wire *View
		var before, mid, after runtime.MemStats
		runtime.ReadMemStats(&before)
		raw, _ = DecodeRaw(p)
		runtime.ReadMemStats(&mid)
		wire, _ = fuzzSchema.WireView(md, p)
		runtime.ReadMemStats(&after)
		if a := mid.TotalAlloc - before.TotalAlloc; a > bound {
			t.Errorf("DecodeRaw allocated %d bytes for %d input bytes (bound %d)", a, len(p), bound)
		}
		if a := after.TotalAlloc - mid.TotalAlloc; a > bound {
			t.Errorf("WireView allocated %d bytes for %d input bytes (bound %d)", a, len(p), bound)
		}
		for _, v := range []*View{raw, wire} {
			checkView(t, v, len(p))
		}
		// Unmarshal's check before google.golang.org/protobuf agrees with
		// the wire view.
		if ok := fuzzSchema.wellFormed(md, p); ok != (wire.Error == nil) {
			t.Errorf("wellFormed = %v, WireView error %v", ok, wire.Error)
		}
		// Nor may decoding to JSON or text (Unmarshal through
		// google.golang.org/protobuf, whose reflective decoder panicked on
		// a map entry key with the wrong wire type, and Any values).
		for _, out := range []Format{JSON, Text} {
			fuzzSchema.Decode(md, p, DecodeOptions{In: Binary, Out: out})
		}
	})
}

func checkView(t *testing.T, v *View, n int) {
	t.Helper()
	if v.Error != nil && (v.Error.Offset < 0 || v.Error.Offset > n) {
		t.Errorf("error offset %d outside payload of %d bytes: %v", v.Error.Offset, n, v.Error)
	}
	var walk func(fs []Field, lo, hi int)
	walk = func(fs []Field, lo, hi int) {
		for _, f := range fs {
			if f.Offset < lo || f.Length < 0 || f.Offset+f.Length > hi {
				t.Fatalf("field %d [%d, +%d) outside its parent [%d, %d)", f.Number, f.Offset, f.Length, lo, hi)
			}
			if f.ValueOffset < f.Offset || f.ValueLength < 0 || f.ValueOffset+f.ValueLength > f.Offset+f.Length {
				t.Fatalf("field %d value [%d, +%d) outside the field [%d, +%d)", f.Number, f.ValueOffset, f.ValueLength, f.Offset, f.Length)
			}
			walk(f.Children, f.ValueOffset, f.ValueOffset+f.ValueLength)
		}
	}
	walk(v.Fields, 0, n)
}
