// Package fieldmaskpb holds google.protobuf.FieldMask, a set of field paths
// such as "user.display_name" that names part of some message, and helpers to
// build and combine masks. See
// https://protobuf.dev/reference/protobuf/google.protobuf/#field-mask.
//
// The helpers follow google.golang.org/protobuf/types/known/fieldmaskpb but
// do not check paths against a message type, as protoplay generates no
// descriptors or reflection: New and Append take no message and return no
// error, and there is no IsValid. A path is dot-separated field names; path p
// covers path q if q is p or begins with p followed by '.'.
package fieldmaskpb

import (
	"slices"
	"strings"
)

// New returns a FieldMask holding paths, in the order given. The paths are
// not checked, copied into a new slice, and not normalized (see
// [FieldMask.Normalize]).
func New(paths ...string) *FieldMask {
	return &FieldMask{Paths: slices.Clone(paths)}
}

// Append adds paths to the end of x.Paths, without checking or normalizing
// them. x must not be nil.
func (x *FieldMask) Append(paths ...string) {
	x.Paths = append(x.Paths, paths...)
}

// Normalize sorts x.Paths, removes duplicates and removes every path covered
// by another path in x, so that "a" absorbs "a.b" (but not "ab"). The result
// names the same fields and is the canonical form of that set. A nil x is
// left alone.
func (x *FieldMask) Normalize() {
	if x == nil || len(x.Paths) == 0 {
		return
	}
	x.Paths = normalize(x.Paths)
}

// Union returns a new, normalized FieldMask of the paths covered by any of
// the masks. nil masks count as empty.
func Union(mx, my *FieldMask, ms ...*FieldMask) *FieldMask {
	var all []string
	all = append(all, mx.GetPaths()...)
	all = append(all, my.GetPaths()...)
	for _, m := range ms {
		all = append(all, m.GetPaths()...)
	}
	return &FieldMask{Paths: normalize(all)}
}

// Intersect returns a new, normalized FieldMask of the paths covered by every
// one of the masks. For example, {"a.b"} and {"a"} intersect to {"a.b"}; {"a"}
// and {"b"} to the empty mask. nil masks count as empty.
func Intersect(mx, my *FieldMask, ms ...*FieldMask) *FieldMask {
	out := intersect(normalize(slices.Clone(mx.GetPaths())), normalize(slices.Clone(my.GetPaths())))
	for _, m := range ms {
		out = intersect(out, normalize(slices.Clone(m.GetPaths())))
	}
	return &FieldMask{Paths: out}
}

// normalize sorts and dedupes paths in place, then returns a new slice of the
// paths no other path covers. It does not rely on a covering path sorting
// just before the paths it covers, which fails for paths holding bytes below
// '.', such as "a" and "a-b" around "a.b".
func normalize(paths []string) []string {
	if len(paths) == 0 {
		return nil
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if !coveredBy(p, paths) {
			out = append(out, p)
		}
	}
	return out
}

// coveredBy reports whether a proper prefix of p, ending before a '.', is in
// the sorted set.
func coveredBy(p string, set []string) bool {
	for i := strings.IndexByte(p, '.'); i >= 0; {
		if _, ok := slices.BinarySearch(set, p[:i]); ok {
			return true
		}
		j := strings.IndexByte(p[i+1:], '.')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// intersect returns the normalized intersection of two normalized masks: the
// paths of each that some path of the other covers.
func intersect(a, b []string) []string {
	var out []string
	for _, p := range a {
		if covers(b, p) {
			out = append(out, p)
		}
	}
	for _, p := range b {
		if covers(a, p) {
			out = append(out, p)
		}
	}
	return normalize(out)
}

// covers reports whether p or a prefix of it ending before a '.' is in the
// sorted set.
func covers(set []string, p string) bool {
	if _, ok := slices.BinarySearch(set, p); ok {
		return true
	}
	return coveredBy(p, set)
}
