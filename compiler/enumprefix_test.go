package compiler_test

import (
	"strings"
	"testing"
)

// features.(pb.go).strip_enum_prefix names enum constants as protoc-gen-go
// v1.36.12 does: KEEP Enum_ENUM_VALUE, STRIP Enum_VALUE, GENERATE_BOTH
// Enum_VALUE plus Enum_ENUM_VALUE in a second const block; a value's own
// setting wins over its enum's, the enum's over the file's.
func TestStripEnumPrefix(t *testing.T) {
	src := `edition = "2024";
package p;
import "google/protobuf/go_features.proto";
option go_package = "example.com/p";
option features.(pb.go).strip_enum_prefix = STRIP_ENUM_PREFIX_STRIP;
enum Color { COLOR_UNSPECIFIED = 0; COLOR_RED = 1; BLUE = 2; }
enum Size {
  option features.(pb.go).strip_enum_prefix = STRIP_ENUM_PREFIX_GENERATE_BOTH;
  SIZE_UNSPECIFIED = 0;
  SIZE_BIG = 1 [features.(pb.go).strip_enum_prefix = STRIP_ENUM_PREFIX_KEEP];
  SIZE_SMALL = 2;
}
message M { enum Kind { KIND_ZERO = 0; } Kind k = 1; Color c = 2; Size s = 3; }
`
	res := compile(map[string]string{"p.proto": src}, "p.proto")
	if res.HasErrors() || len(res.Generated) != 1 {
		t.Fatal(res.Diagnostics)
	}
	out := res.Generated[0].Content
	for _, want := range []string{
		"Color_UNSPECIFIED Color = 0", "Color_RED Color = 1", "Color_BLUE Color = 2",
		"Size_UNSPECIFIED Size = 0", "Size_SIZE_BIG Size = 1", "Size_SMALL Size = 2",
		"Size_SIZE_UNSPECIFIED Size = Size_UNSPECIFIED", "Size_SIZE_SMALL Size = Size_SMALL",
		"M_ZERO M_Kind = 0",
	} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("no %q in the output", want)
		}
	}
	if strings.Contains(out, "Size_SIZE_BIG Size = Size_") {
		t.Error("KEEP on a value still made an alias")
	}
	// api_level is honoured: no warning about it, and M (edition 2024)
	// has the opaque API.
	for _, d := range res.Diagnostics {
		if strings.Contains(d.Message, "api_level") {
			t.Errorf("warning about api_level: %v", d)
		}
	}
	if !strings.Contains(out, "func (m *M) SetK(v M_Kind)") {
		t.Error("edition 2024 message M without the opaque setter SetK")
	}
}
