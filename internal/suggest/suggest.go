// Package suggest finds the names a mistyped name was likely meant to be,
// for the "did you mean" part of error messages.
package suggest

import (
	"slices"
	"strings"
)

// Distance is the edit distance between a and b, in bytes: the fewest
// insertions, deletions, substitutions and swaps of two adjacent bytes
// that turn one into the other (the optimal string alignment distance, so
// "int23" is 1 from "int32"). Strings over 256 bytes are not typos worth
// the quadratic cost: they are 0 apart when equal and as far apart as the
// longer one is long otherwise.
func Distance(a, b string) int {
	if len(a) > 256 || len(b) > 256 {
		if a == b {
			return 0
		}
		return max(len(a), len(b))
	}
	// Three rows of the table: i-2, i-1 and i.
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// Closest returns the candidates nearest to name, ignoring case: those at
// the smallest distance, if that is at most about a third of name's length
// (len/3+1 edits), in the order given, without repeats, at most n of them.
// A candidate equal to name is not offered; nonsense gets nothing.
func Closest(name string, candidates []string, n int) []string {
	lname := strings.ToLower(name)
	limit := len(lname)/3 + 1
	best := limit + 1
	var out []string
	for _, c := range candidates {
		if c == name {
			continue
		}
		d := Distance(lname, strings.ToLower(c))
		switch {
		case d > limit:
		case d < best:
			best, out = d, append(out[:0], c)
		case d == best && len(out) < n && !slices.Contains(out, c):
			out = append(out, c)
		}
	}
	return out
}
