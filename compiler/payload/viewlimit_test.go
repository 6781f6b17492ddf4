package payload

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// viewRows counts the fields and elements of a view's tree.
func viewRows(fs []Field) int {
	n := len(fs)
	for _, f := range fs {
		n += viewRows(f.Children)
	}
	return n
}

// TestViewFieldsLimit (case 49, issue 24 kind 4): a wire view lists the
// first MaxViewFields fields and packed elements in byte order and counts
// the rest, from the byte where they start; at the limit it is complete.
// The bytes past the cut are still checked: a fault there is found at its
// offset, as without the cut. So the view, and its listing, stay within
// MaxViewFields rows for any payload (here a packed field, repeated
// messages, unknown fields and groups, against the schema and raw).
func TestViewFieldsLimit(t *testing.T) {
	s := compileSource(t, `syntax = "proto2";
package g;
message M {
  optional group G = 1 { optional M m = 2; repeated int32 x = 3; }
  repeated int32 p = 4 [packed = true];
  optional M sub = 5;
  repeated M kids = 6;
}`)
	md := mustFind(t, s, "g.M")
	packed := func(elems int) []byte { // field 4 holding elems 1-byte varints
		return protowire.AppendBytes(protowire.AppendTag(nil, 4, protowire.BytesType), bytes.Repeat([]byte{1}, elems))
	}
	kids := func(n int) []byte { return bytes.Repeat([]byte{0x32, 0x00}, n) }          // n empty messages: field 6
	unknown := func(n int) []byte { return bytes.Repeat([]byte{0xc8, 0x3e, 0x01}, n) } // field 1001 = 1
	group := func(x int) []byte {                                                      // group G holding x elements of field 3
		return append(append([]byte{0x0b}, bytes.Repeat([]byte{0x18, 0x01}, x)...), 0x0c)
	}
	cases := []struct {
		name string
		b    []byte
		rows int // the fields and elements in the payload
		cut  int // where the first one past MaxViewFields starts
	}{
		{"packed at the limit", packed(MaxViewFields - 1), MaxViewFields, 0},
		{"packed over", packed(MaxViewFields), MaxViewFields + 1, 4 + MaxViewFields - 1}, // tag, 3-byte length
		{"repeated messages at the limit", kids(MaxViewFields), MaxViewFields, 0},
		{"repeated messages over", kids(MaxViewFields + 1), MaxViewFields + 1, 2 * MaxViewFields},
		{"unknown fields over", unknown(MaxViewFields + 5), MaxViewFields + 5, 3 * MaxViewFields},
		{"group over", group(MaxViewFields), MaxViewFields + 1, 1 + 2*(MaxViewFields-1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := s.WireView(md, c.b)
			if err != nil {
				t.Fatal(err)
			}
			if got := viewRows(v.Fields); got != min(c.rows, MaxViewFields) || v.Unlisted != c.rows-got {
				t.Fatalf("listed %d, Unlisted %d; want %d listed of %d", got, v.Unlisted, min(c.rows, MaxViewFields), c.rows)
			}
			l := Listing(v, c.b)
			if c.rows <= MaxViewFields {
				if v.Unlisted != 0 || strings.Contains(l, "MaxViewFields") {
					t.Fatalf("complete view says it is cut: %+v", v.Unlisted)
				}
				return
			}
			if v.UnlistedFrom != c.cut {
				t.Errorf("UnlistedFrom = %d, want %d", v.UnlistedFrom, c.cut)
			}
			want := strconv.Itoa(v.Unlisted) + " more fields and elements from byte " + strconv.Itoa(c.cut) + " on, checked but not listed (MaxViewFields = " + strconv.Itoa(MaxViewFields) + ")"
			if !strings.Contains(l, want) {
				t.Errorf("listing does not end with %q:\n%s", want, l[max(0, len(l)-400):])
			}
			if lines := strings.Count(l, "\n"); lines > 2*MaxViewFields+4 {
				t.Errorf("listing of %d lines", lines)
			}
			// The same bytes with a fault past the cut: found at its
			// offset, as by Unmarshal.
			bad := append(bytes.Clone(c.b), 0x0f)
			v2, err := s.WireView(md, bad)
			_, uerr := s.Unmarshal(md, bad)
			if err == nil || uerr == nil || AsError(err).Offset != len(c.b) || AsError(uerr).Offset != len(c.b) || v2.Unlisted != v.Unlisted {
				t.Errorf("fault at byte %d: WireView %v (unlisted %d), Unmarshal %v", len(c.b), err, v2.Unlisted, uerr)
			}
		})
	}
	// Raw: the same rule.
	for _, n := range []int{MaxViewFields, MaxViewFields + 1} {
		b := unknown(n)
		v, err := DecodeRaw(b)
		if err != nil {
			t.Fatal(err)
		}
		if got := viewRows(v.Fields); got != MaxViewFields || v.Unlisted != n-MaxViewFields || (v.Unlisted > 0 && v.UnlistedFrom != 3*MaxViewFields) {
			t.Errorf("raw, %d fields: listed %d, Unlisted %d from %d", n, got, v.Unlisted, v.UnlistedFrom)
		}
	}
	// A group whose fields are cut keeps its byte range.
	b := group(MaxViewFields + 10)
	v, err := DecodeRaw(b)
	if err != nil {
		t.Fatal(err)
	}
	if f := v.Fields[0]; f.Length != len(b) || f.ValueLength != len(b)-2 {
		t.Errorf("cut group: length %d, value length %d; want %d, %d", f.Length, f.ValueLength, len(b), len(b)-2)
	}
}
