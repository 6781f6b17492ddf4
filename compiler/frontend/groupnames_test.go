package frontend

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// groupOptionSource is a file with a group and a group-like delimited
// field in a custom option's message; %s is the option's value.
const groupOptionSource = `edition = "2023";
package gn;
import "google/protobuf/descriptor.proto";
message Opt {
  int32 i = 1;
  message G {
    int32 x = 1;
    message H { int32 y = 1; }
    H h = 2 [features.message_encoding = DELIMITED];
  }
  G g = 2 [features.message_encoding = DELIMITED];
  // Delimited, but its type is not declared beside it: not group-like.
  Other other = 3 [features.message_encoding = DELIMITED];
  Other sub = 4;
}
message Other { int32 z = 1; }
extend google.protobuf.MessageOptions { Opt opt = 50000; }
message M {
  option (opt) = %s;
}
`

// TestGroupTypeNameInOption: in an option value, a group-like field may
// be named by its type's name, as protoc accepts it (protoc before 27
// accepted only that spelling): the file compiles to the same option bytes
// as with the field's own name, nested groups too; a name that is not a
// group-like field's type name is still refused, at the same place.
func TestGroupTypeNameInOption(t *testing.T) {
	compile := func(value string) *Result {
		src := strings.Replace(groupOptionSource, "%s", value, 1)
		return Compile(context.Background(), Request{Sources: map[string]string{"gn.proto": src}, Files: []string{"gn.proto"}})
	}
	optionBytes := func(t *testing.T, res *Result) []byte {
		t.Helper()
		if res.HasErrors() {
			t.Fatalf("%v", res.Diagnostics)
		}
		return res.Files[0].Messages().ByName("M").Options().ProtoReflect().GetUnknown()
	}
	want := optionBytes(t, compile(`{ i: 1 g { x: 2 h { y: 3 } } }`))
	if len(want) == 0 {
		t.Fatal("no option bytes")
	}
	for _, value := range []string{
		`{ i: 1 G { x: 2 h { y: 3 } } }`,
		`{ i: 1 G { x: 2 H { y: 3 } } }`, // nested: refused only once G resolves
		`{ i: 1 g { x: 2 H { y: 3 } } }`,
		`{ i: 1 G: { x: 2 H < y: 3 > } }`,
	} {
		if got := optionBytes(t, compile(value)); !bytes.Equal(got, want) {
			t.Errorf("%s: option bytes %x, want %x", value, got, want)
		}
	}
	// Each value is refused with (among others) the error want.
	for _, tc := range []struct{ value, want string }{
		// other's type is declared outside Opt (and the compiler finds the
		// message type gn.Other by that name); sub is not delimited.
		{`{ Other { z: 1 } }`, "gn.proto:19:20: mismatched types"},
		{`{ Sub { z: 1 } }`, "gn.proto:19:20: cannot resolve message field name for `gn.Opt`"},
		{`{ i: 1 G { x: 2 } Nope: 1 }`, "gn.proto:19:36: cannot resolve message field name for `gn.Opt`"},
		{`{ I: 1 }`, "gn.proto:19:20: cannot resolve message field name for `gn.Opt`"},
	} {
		res := compile(tc.value)
		found := false
		for _, d := range res.Diagnostics {
			found = found || d.Severity == "error" && strings.HasPrefix(d.String(), tc.want)
		}
		if !found {
			t.Errorf("%s: no error %q in %v", tc.value, tc.want, res.Diagnostics)
		}
	}
}
