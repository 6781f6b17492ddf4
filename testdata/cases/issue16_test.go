package casetest

// Case 95 (issue 16): repeated fields and maps sized for the run of
// elements that follows their first one (wire.CountRun).

import (
	"errors"
	"fmt"
	"testing"

	c95 "gentest/example.com/bugcorpus/c95"

	"github.com/protoplay/protoplay/runtime/wire"
)

// c95Full returns a Runs with n elements in every repeated field and map.
func c95Full(n int) *c95.Runs {
	r := &c95.Runs{M: map[string]int32{}}
	for i := range n {
		r.V = append(r.V, int32(i-n/2))
		r.F32 = append(r.F32, uint32(i*7))
		r.F64 = append(r.F64, uint64(i)<<40)
		r.S = append(r.S, fmt.Sprint("s", i))
		r.By = append(r.By, []byte{byte(i), 0xff})
		id := int32(i)
		r.Kids = append(r.Kids, &c95.Runs{Opt: &id})
		r.M[fmt.Sprint("k", i)] = int32(i)
		r.Colors = append(r.Colors, c95.Color(i%2))
		r.Z = append(r.Z, int64(-i)*1000)
	}
	return r
}

func TestC95PresizedRuns(t *testing.T) {
	for _, n := range []int{1, 2, 3, 100, 1000} {
		src := c95Full(n)
		b, err := src.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		var got c95.Runs
		if err := got.Unmarshal(b); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if !got.Equal(src) {
			t.Fatalf("n=%d: decoded message differs", n)
		}
		// Marshal writes each field's elements one after another: every
		// slice is made once, with room for exactly its elements.
		for name, c := range map[string][2]int{
			"v": {len(got.V), cap(got.V)}, "f32": {len(got.F32), cap(got.F32)},
			"f64": {len(got.F64), cap(got.F64)}, "s": {len(got.S), cap(got.S)},
			"by": {len(got.By), cap(got.By)}, "kids": {len(got.Kids), cap(got.Kids)},
			"colors": {len(got.Colors), cap(got.Colors)}, "z": {len(got.Z), cap(got.Z)},
		} {
			if c[0] != n || c[1] != n {
				t.Errorf("n=%d: %s has len %d, cap %d, want %d and %d", n, name, c[0], c[1], n, n)
			}
		}
	}
}

// Elements in several runs, with an overlong tag, or merged into elements
// already there are all kept in order.
func TestC95SplitRunsAndMerge(t *testing.T) {
	// v: 1, 2 | s: "a" | v: 3 (tag 08 written overlong as 88 00) | v: 4
	in := unhex(t, "0801 0802 220161 880003 0804")
	var r c95.Runs
	if err := r.Unmarshal(in); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(r.V) != "[1 2 3 4]" || fmt.Sprint(r.S) != "[a]" {
		t.Fatalf("v = %v, s = %v", r.V, r.S)
	}
	// UnmarshalDepth merges: the elements of the input follow the old ones.
	if err := r.UnmarshalDepth(unhex(t, "0805 0806 220162"), wire.DefaultMaxDepth); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(r.V) != "[1 2 3 4 5 6]" || fmt.Sprint(r.S) != "[a b]" {
		t.Fatalf("after merge: v = %v, s = %v", r.V, r.S)
	}
	// Two-byte tags (field 200, sint64: c0 0c), and map entries in two
	// runs.
	in = unhex(t, "c00c01 c00c02 3a050a016b1001 0803 3a050a016c1002")
	r = c95.Runs{}
	if err := r.Unmarshal(in); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(r.Z, r.V, r.M) != "[-1 1] [3] map[k:1 l:2]" {
		t.Fatalf("z, v, m = %v %v %v", r.Z, r.V, r.M)
	}
	// An undeclared closed-enum element is kept as an unknown field, the
	// declared ones around it in the slice.
	r = c95.Runs{}
	if err := r.Unmarshal(unhex(t, "4001 4007 4000")); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(r.Colors) != "[GREEN RED]" {
		t.Fatalf("colors = %v", r.Colors)
	}
	if out, _ := r.Marshal(); fmt.Sprintf("%x", out) != "400140004007" {
		t.Fatalf("re-encoded as %x", out)
	}
}

// A run whose last element is cut short fails as without the sizing, at
// that element's offset; counting never reads past the input.
func TestC95TruncatedRuns(t *testing.T) {
	for _, c := range []struct {
		in   string
		want error
		off  int
	}{
		{"0801 0802 08", wire.ErrTruncated, 5},
		{"0801 08ff", wire.ErrTruncated, 3},
		{"220161 2205616263", wire.ErrLength, 4},
		{"220161 22ffffffff0f61", wire.ErrLength, 4},
		{"150100000015010000", wire.ErrTruncated, 6},
		{"1901000000000000001901", wire.ErrTruncated, 10},
		{"32020801 3205", wire.ErrLength, 5},
		{"3a050a016b1001 3a", wire.ErrTruncated, 8},
	} {
		var r c95.Runs
		err := r.Unmarshal(unhex(t, c.in))
		var we *wire.Error
		if !errors.Is(err, c.want) || !errors.As(err, &we) || we.Offset != c.off {
			t.Errorf("%s: %v, want %v at offset %d", c.in, err, c.want, c.off)
		}
	}
}
