package fieldmaskpb_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	ref "google.golang.org/protobuf/types/known/fieldmaskpb"

	"github.com/protoplay/protoplay/runtime/wkt/fieldmaskpb"
)

func TestNewAppend(t *testing.T) {
	paths := []string{"b", "a.c", "b"}
	m := fieldmaskpb.New(paths...)
	if !slices.Equal(m.Paths, paths) {
		t.Errorf("New = %q, want %q", m.Paths, paths)
	}
	paths[0] = "changed"
	if m.Paths[0] != "b" {
		t.Error("New did not copy its paths")
	}
	m.Append("z", "a")
	if want := []string{"b", "a.c", "b", "z", "a"}; !slices.Equal(m.Paths, want) {
		t.Errorf("after Append, Paths = %q, want %q", m.Paths, want)
	}
	if m := fieldmaskpb.New(); len(m.Paths) != 0 {
		t.Errorf("New() = %q", m.Paths)
	}
	b, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var back fieldmaskpb.FieldMask
	if err := back.Unmarshal(b); err != nil || !back.Equal(m) {
		t.Errorf("round trip = %q, %v", back.Paths, err)
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct {
		in, want []string
	}{
		{nil, nil},
		{[]string{"a"}, []string{"a"}},
		{[]string{"b", "a", "b", "a"}, []string{"a", "b"}},
		{[]string{"a.b", "a"}, []string{"a"}},
		{[]string{"a.b.c", "a.b", "a.bc", "ab"}, []string{"a.b", "a.bc", "ab"}},
		{[]string{"foo.bar", "foo.baz", "foo", "foobar.x", "foo_bar"}, []string{"foo", "foo_bar", "foobar.x"}},
		{[]string{"x.y.z", "x.y.z", "x.w"}, []string{"x.w", "x.y.z"}},
		// protobuf-go keeps "a.b" here, as "a-b" sorts between it and "a";
		// protoplay drops it, as "a" covers it.
		{[]string{"a.b", "a-b", "a"}, []string{"a", "a-b"}},
	}
	for _, tt := range tests {
		m := fieldmaskpb.New(tt.in...)
		m.Normalize()
		if !slices.Equal(m.Paths, tt.want) {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, m.Paths, tt.want)
		}
	}
	var m *fieldmaskpb.FieldMask
	m.Normalize() // must not panic
}

func TestUnionIntersect(t *testing.T) {
	a := fieldmaskpb.New("a.b", "c")
	b := fieldmaskpb.New("a", "c.d", "e")
	if got, want := fieldmaskpb.Union(a, b).Paths, []string{"a", "c", "e"}; !slices.Equal(got, want) {
		t.Errorf("Union = %q, want %q", got, want)
	}
	if got, want := fieldmaskpb.Intersect(a, b).Paths, []string{"a.b", "c.d"}; !slices.Equal(got, want) {
		t.Errorf("Intersect = %q, want %q", got, want)
	}
	if got := fieldmaskpb.Intersect(a, b, fieldmaskpb.New("x")).Paths; len(got) != 0 {
		t.Errorf("Intersect with a disjoint mask = %q", got)
	}
	if got := fieldmaskpb.Union(nil, nil).Paths; len(got) != 0 {
		t.Errorf("Union(nil, nil) = %q", got)
	}
	if got := fieldmaskpb.Intersect(a, nil).Paths; len(got) != 0 {
		t.Errorf("Intersect(a, nil) = %q", got)
	}
	if !slices.Equal(a.Paths, []string{"a.b", "c"}) || !slices.Equal(b.Paths, []string{"a", "c.d", "e"}) {
		t.Errorf("Union or Intersect changed its arguments: %q, %q", a.Paths, b.Paths)
	}
}

// TestMatchesProtobufGo compares Normalize, Union and Intersect with
// protobuf-go's on random masks over paths of field names.
func TestMatchesProtobufGo(t *testing.T) {
	names := []string{"a", "b", "ab", "a_b", "b1"}
	rng := rand.New(rand.NewPCG(1, 2))
	randPath := func() string {
		parts := make([]string, 1+rng.IntN(3))
		for i := range parts {
			parts[i] = names[rng.IntN(len(names))]
		}
		return strings.Join(parts, ".")
	}
	randPaths := func() []string {
		p := make([]string, rng.IntN(6))
		for i := range p {
			p[i] = randPath()
		}
		return p
	}
	for range 2000 {
		px, py, pz := randPaths(), randPaths(), randPaths()

		ours := fieldmaskpb.New(px...)
		ours.Normalize()
		theirs := &ref.FieldMask{Paths: slices.Clone(px)}
		theirs.Normalize()
		if !slices.Equal(ours.Paths, theirs.Paths) {
			t.Fatalf("Normalize(%q) = %q, protobuf-go gives %q", px, ours.Paths, theirs.Paths)
		}

		ox, oy, oz := fieldmaskpb.New(px...), fieldmaskpb.New(py...), fieldmaskpb.New(pz...)
		rx, ry, rz := &ref.FieldMask{Paths: px}, &ref.FieldMask{Paths: py}, &ref.FieldMask{Paths: pz}
		if got, want := fieldmaskpb.Union(ox, oy, oz).Paths, ref.Union(rx, ry, rz).Paths; !slices.Equal(got, want) {
			t.Fatalf("Union(%q, %q, %q) = %q, protobuf-go gives %q", px, py, pz, got, want)
		}
		if got, want := fieldmaskpb.Intersect(ox, oy).Paths, ref.Intersect(rx, ry).Paths; !slices.Equal(got, want) {
			t.Fatalf("Intersect(%q, %q) = %q, protobuf-go gives %q", px, py, got, want)
		}
		if got, want := fieldmaskpb.Intersect(ox, oy, oz).Paths, ref.Intersect(rx, ry, rz).Paths; !slices.Equal(got, want) {
			t.Fatalf("Intersect(%q, %q, %q) = %q, protobuf-go gives %q", px, py, pz, got, want)
		}
	}
}
