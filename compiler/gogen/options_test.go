package gogen_test

import (
	"context"
	"strings"
	"testing"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
)

func TestParseOptions(t *testing.T) {
	o, err := gogen.ParseOptions("paths=source_relative,Ma.proto=example.com/a;a,unknown_fields=drop,enum_maps=true")
	if err != nil {
		t.Fatal(err)
	}
	if o.Paths != "source_relative" || o.ImportMap["a.proto"] != "example.com/a;a" || !o.DropUnknown || !o.EnumMaps {
		t.Fatalf("%+v", o)
	}
	back, err := gogen.ParseOptions(o.String())
	if err != nil || back.String() != o.String() {
		t.Fatalf("String() does not round-trip: %q -> %+v, %v", o.String(), back, err)
	}
	for _, bad := range []string{"paths=x", "unknown_fields=maybe", "enum_maps=1", "nope=1", "default_import_prefix="} {
		if _, err := gogen.ParseOptions(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// The enum maps (and their init-time cost) come only with enum_maps=true;
// the enum and its String method are always there.
func TestEnumMapsOption(t *testing.T) {
	src := map[string]string{"e.proto": "syntax = \"proto3\";\npackage e;\nenum Color { RED = 0; BLUE = 1; }\n"}
	for _, tc := range []struct {
		param string
		maps  bool
	}{{"", false}, {"enum_maps=true", true}, {"enum_maps=false", false}} {
		o, _ := gogen.ParseOptions(tc.param)
		res := compiler.Compile(context.Background(), compiler.Request{Sources: src, Options: o})
		if err := res.Err(); err != nil {
			t.Fatal(err)
		}
		code := res.Generated[0].Content
		if got := strings.Contains(code, "var Color_name = map[int32]string"); got != tc.maps {
			t.Errorf("%q: Color_name present = %v", tc.param, got)
		}
		if !strings.Contains(code, "func (x Color) String() string") {
			t.Errorf("%q: String method missing", tc.param)
		}
	}
}
