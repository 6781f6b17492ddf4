package interp_test

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/protoplay/protoplay/interp"
)

// TestStdGeneric compares the interpreter's slices and maps functions
// (stdgeneric.go) with the standard library's on the same inputs.
func TestStdGeneric(t *testing.T) {
	ip, err := interp.New([]interp.File(nil), interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ip.Eval(`
import (
	"fmt"
	"maps"
	"math"
	"slices"
)

type En int32

func results() []string {
	var out []string
	add := func(v ...any) { out = append(out, fmt.Sprint(v...)) }
	var nilInts []int64
	add(slices.Clone(nilInts) == nil, slices.Clone([]int64{}) == nil, slices.Clone([]En{3, 1}))
	g := slices.Grow([]uint32{1, 2}, 10)
	add(len(g), cap(g) >= 12, g)
	keys := []string{"b", "", "a", "ab", "b"}
	slices.Sort(keys)
	ints := []int32{5, -1, math.MaxInt32, math.MinInt32, 0, 5, 3, 2, 9, -7, 1}
	slices.Sort(ints)
	fl := []float64{2, math.NaN(), -1, math.Inf(1), 0}
	slices.Sort(fl)
	add(keys, ints, fl)
	var nilMap map[string]En
	add(maps.Clone(nilMap) == nil, maps.Clone(map[int32]bool{}) == nil, maps.Clone(map[bool]En{true: 2}))
	func() {
		defer func() { add(recover()) }()
		slices.Grow([]int{}, -1)
	}()
	return out
}
`); err != nil {
		t.Fatal(err)
	}
	v, err := ip.Eval("results()")
	if err != nil {
		t.Fatal(err)
	}
	got := v.Interface().([]string)

	type En int32
	var want []string
	add := func(v ...any) { want = append(want, fmt.Sprint(v...)) }
	var nilInts []int64
	add(slices.Clone(nilInts) == nil, slices.Clone([]int64{}) == nil, slices.Clone([]En{3, 1}))
	g := slices.Grow([]uint32{1, 2}, 10)
	add(len(g), cap(g) >= 12, g)
	keys := []string{"b", "", "a", "ab", "b"}
	slices.Sort(keys)
	ints := []int32{5, -1, math.MaxInt32, math.MinInt32, 0, 5, 3, 2, 9, -7, 1}
	slices.Sort(ints)
	fl := []float64{2, math.NaN(), -1, math.Inf(1), 0}
	slices.Sort(fl)
	add(keys, ints, fl)
	var nilMap map[string]En
	add(maps.Clone(nilMap) == nil, maps.Clone(map[int32]bool{}) == nil, maps.Clone(map[bool]En{true: 2}))
	func() {
		defer func() { add(recover()) }()
		_ = slices.Grow([]int{}, -1)
	}()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("interpreted:\n%q\nstandard library:\n%q", got, want)
	}
}
