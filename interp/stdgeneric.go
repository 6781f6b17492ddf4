package interp

// The generic functions of the standard library that generated code calls
// (slices.Grow, slices.Clone, slices.Sort, maps.Clone) cannot come from
// compiled symbols, and yaegi v0.16.1 fails on the standard library's own
// source of some of them (a constraint S ~[]E whose E is only inferred
// through S: "undefined type for E"; s[:0:0] on a type parameter panics).
// These are interpreted replacements with the same results, written in the
// subset yaegi runs: element type parameters only ([]E, map[K]V), make and
// copy. New compiles them after yaegi has loaded its own source of those
// packages, so they replace its functions of the same names and keep the
// rest; interpreted code imports "slices" and "maps" as usual. Their type
// parameters have lower-case names no generated type can have: yaegi
// v0.16.1 resolves a type parameter's name in the calling package too, so
// a message type E met slices.Grow[E any] and panicked in the inference
// (TestTypeNamedLikeATypeParameter).

// slicesSource is package slices for the interpreter.
const slicesSource = `package slices

// Grow returns s with capacity for at least n more elements (as slices.Grow;
// n < 0 panics).
func Grow[elemT any](s []elemT, n int) []elemT {
	if n < 0 {
		panic("cannot be negative")
	}
	if n -= cap(s) - len(s); n > 0 {
		s = append(s[:cap(s)], make([]elemT, n)...)[:len(s)]
	}
	return s
}

// Clone returns a copy of s with the same length; nil for nil (as
// slices.Clone).
func Clone[elemT any](s []elemT) (r []elemT) {
	if s != nil {
		r = make([]elemT, len(s))
		copy(r, s)
	}
	return
}

// Ordered is cmp.Ordered.
type Ordered interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr |
		~float32 | ~float64 | ~string
}

// Sort sorts x in ascending order, NaNs first (as slices.Sort; a heap sort,
// so equal elements, which are indistinguishable, may move).
func Sort[elemT Ordered](x []elemT) {
	n := len(x)
	for i := n/2 - 1; i >= 0; i-- {
		siftDown(x, i, n)
	}
	for end := n - 1; end > 0; end-- {
		x[0], x[end] = x[end], x[0]
		siftDown(x, 0, end)
	}
}

func siftDown[elemT Ordered](x []elemT, root, n int) {
	for {
		child := 2*root + 1
		if child >= n {
			return
		}
		if child+1 < n && less(x[child], x[child+1]) {
			child++
		}
		if !less(x[root], x[child]) {
			return
		}
		x[root], x[child] = x[child], x[root]
		root = child
	}
}

func less[elemT Ordered](a, b elemT) bool {
	return a < b || (a != a && b == b)
}

// Equal reports whether a and b have the same length and elements (as
// slices.Equal).
func Equal[elemT comparable](a, b []elemT) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Contains reports whether v is in s (as slices.Contains).
func Contains[elemT comparable](s []elemT, v elemT) bool {
	for i := range s {
		if s[i] == v {
			return true
		}
	}
	return false
}
`

// mapsSource is package maps for the interpreter.
const mapsSource = `package maps

// Clone returns a copy of m; nil for nil (as maps.Clone).
func Clone[keyT comparable, valT any](m map[keyT]valT) (r map[keyT]valT) {
	if m != nil {
		r = make(map[keyT]valT, len(m))
		for k, v := range m {
			r[k] = v
		}
	}
	return
}

// Equal reports whether m1 and m2 hold the same key/value pairs (as
// maps.Equal).
func Equal[keyT, valT comparable](m1, m2 map[keyT]valT) bool {
	if len(m1) != len(m2) {
		return false
	}
	for k, v1 := range m1 {
		if v2, ok := m2[k]; !ok || v1 != v2 {
			return false
		}
	}
	return true
}
`
