package protojson_test

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	gjson "google.golang.org/protobuf/encoding/protojson"
	gstructpb "google.golang.org/protobuf/types/known/structpb"

	"github.com/protoplay/protoplay/runtime/protojson"
	"github.com/protoplay/protoplay/runtime/wkt/structpb"
)

// extraSpace is the second space protojson puts at random after a member
// name's colon in multiline output.
var extraSpace = regexp.MustCompile(`(?m)^(\s*"[^"]*"): +`)

// TestMultiline: Marshal under Multiline and Indent writes protojson's
// multiline layout (nested and empty objects and arrays, null, strings
// holding ':' and ',').
func TestMultiline(t *testing.T) {
	const in = `{"a": [1, {}, [], {"b": "x, y: z"}, [[]], null], "c": {}, "d": null, "e": "s: {t}", "f": {"g": {"h": true}}}`
	var ours structpb.Struct
	if err := ours.UnmarshalJSON([]byte(in)); err != nil {
		t.Fatal(err)
	}
	var theirs gstructpb.Struct
	if err := gjson.Unmarshal([]byte(in), &theirs); err != nil {
		t.Fatal(err)
	}
	for _, o := range []struct {
		multiline bool
		indent    string
	}{{true, ""}, {false, "\t"}, {true, "    "}, {false, " \t"}} {
		got, err := ours.MarshalProtoJSON(protojson.MarshalOptions{Multiline: o.multiline, Indent: o.indent})
		if err != nil {
			t.Fatal(err)
		}
		want, err := gjson.MarshalOptions{Multiline: o.multiline, Indent: o.indent}.Marshal(&theirs)
		if err != nil {
			t.Fatal(err)
		}
		if w := extraSpace.ReplaceAllString(string(want), "$1: "); string(got) != w {
			t.Errorf("Multiline %v Indent %q:\n%s\nprotojson:\n%s", o.multiline, o.indent, got, w)
		}
		var back structpb.Struct
		if err := back.UnmarshalJSON(got); err != nil {
			t.Errorf("Multiline %v Indent %q: output does not read back: %v", o.multiline, o.indent, err)
		}
	}
	// The zero options, and an empty message under Multiline.
	if got, _ := ours.MarshalJSON(); strings.ContainsAny(string(got), "\n\t") {
		t.Errorf("MarshalJSON is not compact: %s", got)
	}
	if got, _ := new(structpb.Struct).MarshalProtoJSON(protojson.MarshalOptions{Multiline: true}); string(got) != "{}" {
		t.Errorf("empty message under Multiline = %q, want {}", got)
	}
}

// TestBadIndent: an Indent with other characters than space and tab is an
// error, as in protojson.
func TestBadIndent(t *testing.T) {
	_, err := new(structpb.Struct).MarshalProtoJSON(protojson.MarshalOptions{Indent: " x"})
	if !errors.Is(err, protojson.ErrInvalidValue) {
		t.Errorf("Indent \" x\": error %v, want ErrInvalidValue", err)
	}
	if _, gerr := (gjson.MarshalOptions{Indent: " x"}).Marshal(&gstructpb.Struct{}); gerr == nil {
		t.Error("protojson accepts Indent \" x\"")
	}
}

// TestDecodedValuesOwnTheirMemory: strings decoded by Unmarshal (with and
// without escapes) share neither the input nor memory with a later
// Unmarshal, which reuses the Decoder.
func TestDecodedValuesOwnTheirMemory(t *testing.T) {
	in := []byte(`{"plain": "abc", "escaped": "a\nb\u00e9", "list": ["x", "y\t"], "nested": {"k": "v"}}`)
	var first structpb.Struct
	if err := first.UnmarshalJSON(in); err != nil {
		t.Fatal(err)
	}
	before, err := first.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	for i := range in {
		if in[i] >= 'a' && in[i] <= 'z' {
			in[i] = 'q'
		}
	}
	for range 20 {
		var other structpb.Struct
		if err := other.UnmarshalJSON([]byte(`{"zzzzz": "zzzzzzzzzz\u0041zzzzzzzz", "y": ["zzzzzz", "zzzz"]}`)); err != nil {
			t.Fatal(err)
		}
	}
	after, err := first.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if string(before) != string(after) {
		t.Errorf("decoded value changed:\n%s\nthen\n%s", before, after)
	}
}
