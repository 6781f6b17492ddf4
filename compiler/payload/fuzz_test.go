package payload

import (
	"runtime"
	"strings"
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
		// And Decode, which reads repeated fields from the payload as it
		// writes them (lazy.go), writes and fails as the whole payload
		// read into dynamicpb does.
		for _, out := range []Format{JSON, Text} {
			d, err := fuzzSchema.Decode(md, p, DecodeOptions{In: Binary, Out: out})
			want, werr := eagerDecode(fuzzSchema, md, p, out)
			got := ""
			if err == nil {
				got = d.Messages[0]
			}
			if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() || got != want {
				t.Errorf("Decode to %s: %q, error %v; the eager decode: %q, error %v", out, got, err, want, werr)
			}
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

// FuzzInferAndRank feeds arbitrary bytes to Infer and RankTypes (against
// testdata/wire.proto's types). Neither may panic; a malformed payload is
// a *diag.Error at an offset inside it; and a schema inferred from bytes
// that parse must decode them (checked by TestInferCorpusSamples at
// scale, here on whatever the fuzzer finds): every field known.
func FuzzInferAndRank(f *testing.F) {
	f.Add([]byte{0x08, 0x96, 0x01, 0x12, 0x02, 0x68, 0x69})
	f.Add([]byte{0x0b, 0x08, 0x01, 0x0c, 0x22, 0x02, 0x01, 0x02})
	f.Add([]byte{0x0a, 0x04, 0x0a, 0x02, 0x08, 0x01, 0x15, 0x00, 0x00, 0x80, 0x3f})
	f.Add([]byte{0x08, 0x01, 0x0a, 0x01, 0x61}) // one number, two wire types: the rarer stays unknown
	f.Fuzz(func(t *testing.T, p []byte) {
		fuzzOnce.Do(func() { fuzzSchema = compileFS(t, testdataFS, testdataRoots, "wire.proto") })
		fits, err := fuzzSchema.RankTypes(p, fuzzSchema.Messages(), 0)
		if err != nil {
			if e := AsError(err); e.Offset < 0 || e.Offset > len(p) {
				t.Fatalf("RankTypes error %v outside the payload", e)
			}
		} else {
			for _, fit := range fits {
				if fit.Score < 0 || fit.Score > 1 {
					t.Fatalf("score %v", fit.Score)
				}
			}
		}
		text, err := Infer([][]byte{p}, InferOptions{})
		if err != nil {
			if e := AsError(err); e.Offset > len(p) {
				t.Fatalf("Infer error %v outside the payload", e)
			}
			return
		}
		s := compileSource(t, text)
		v, err := s.WireView(mustFind(t, s, "Inferred"), p)
		if err != nil {
			t.Fatalf("the inferred schema does not read the bytes: %v\n%s", err, text)
		}
		// The comments' words, unwrapped.
		var words []string
		for _, w := range strings.Fields(text) {
			if w != "//" {
				words = append(words, w)
			}
		}
		prose := strings.Join(words, " ")
		var walk func([]Field)
		walk = func(fs []Field) {
			for _, f := range fs {
				// Documented exceptions: reserved numbers, and a number
				// seen with two wire types no rule joins.
				if f.Unknown && (f.Number < 19000 || f.Number > 19999) && !strings.Contains(prose, "stay unknown fields") {
					t.Fatalf("field %d unknown under the inferred schema\n%s", f.Number, text)
				}
				walk(f.Children)
			}
		}
		walk(v.Fields)
	})
}
