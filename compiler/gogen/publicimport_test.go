package gogen_test

import (
	"strings"
	"testing"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/internal/gentest"
)

// A file's public imports from other Go packages are forwarded, as
// protoc-gen-go forwards them: code that names an imported file's types,
// enum values, builders and extensions through the importing file's
// package builds and runs. A public import of the same Go package needs
// none; the forwards of a public import are not forwarded again.
func TestPublicImportForwards(t *testing.T) {
	srcs := map[string]string{
		"x/x.proto": `syntax = "proto2";
package x;
option go_package = "example.com/pub/x";
message Thing {
  optional string name = 1;
  enum Kind { KIND_UNSPECIFIED = 0; KIND_A = 1; }
  optional Kind kind = 2;
  extensions 100 to 199;
}
enum Color { COLOR_UNSPECIFIED = 0; COLOR_RED = 1; }
extend Thing { optional int32 weight = 100; }
`,
		"x/box.proto": `edition = "2024";
package x.box;
option go_package = "example.com/pub/x/box";
message Box { int32 size = 1; }
`,
		"y/same.proto": `syntax = "proto3";
package y;
option go_package = "example.com/pub/y";
message Same { int32 a = 1; }
`,
		"y/y.proto": `syntax = "proto3";
package y;
option go_package = "example.com/pub/y";
import public "x/x.proto";
import public "x/box.proto";
import public "y/same.proto";
message Holder { x.Thing t = 1; x.box.Box b = 2; Same s = 3; }
// A name of its own, which x.proto declares too: y's stays.
message Color { x.Thing t = 1; }
`,
		"z/z.proto": `syntax = "proto3";
package z;
option go_package = "example.com/pub/z";
import public "y/y.proto";
message Z { y.Holder h = 1; }
`,
	}
	_, files := gentest.Generate(t, compiler.Request{Sources: srcs, Files: []string{"x/x.proto", "x/box.proto", "y/same.proto", "y/y.proto", "z/z.proto"}})
	var y, z string
	for _, f := range files {
		switch {
		case strings.HasSuffix(f.Name, "y/y.pb.go"):
			y = f.Content
		case strings.HasSuffix(f.Name, "z/z.pb.go"):
			z = f.Content
		}
	}
	for _, want := range []string{"// Symbols defined in public import of x/x.proto.", "type Thing = ", "const Color_COLOR_RED = ", "type Color struct", "type Box_builder = ", "var E_Weight = "} {
		if !strings.Contains(y, want) {
			t.Errorf("y.pb.go lacks %q", want)
		}
	}
	if strings.Contains(y, "Extensions_x_x_proto") {
		t.Error("y.pb.go forwards x.proto's list of extensions")
	}
	if strings.Contains(y, "public import of y/same.proto") {
		t.Error("y.pb.go forwards a file of its own Go package")
	}
	if !strings.Contains(z, "type Holder = ") || strings.Contains(z, "type Thing") {
		t.Errorf("z.pb.go should forward y's own declarations only:\n%s", z)
	}
	main := `package main

import (
	"fmt"

	"gentest/example.com/pub/y"
	"gentest/example.com/pub/z"
)

func main() {
	name := "a"
	kind, size := y.Thing_KIND_A, int32(3)
	h := &y.Holder{T: &y.Thing{Name: &name, Kind: &kind}, B: y.Box_builder{Size: &size}.Build(), S: &y.Same{A: 1}}
	c := y.Color_COLOR_RED
	_ = y.Color{T: &y.Thing{}}
	zz := &z.Z{H: (*z.Holder)(h)}
	b, err := zz.Marshal()
	if err != nil {
		panic(err)
	}
	var back z.Z
	if err := back.Unmarshal(b); err != nil {
		panic(err)
	}
	fmt.Println(back.H.T.GetName(), back.H.T.GetKind(), back.H.B.GetSize(), c, back.Equal(zz))
}
`
	dir := gentest.WriteModule(t, files, map[string]string{"cmd/pub/main.go": main}, false)
	if out, err := gentest.Go(t, dir, "vet", "./..."); err != nil {
		t.Fatalf("go vet: %v\n%s", err, out)
	}
	out, err := gentest.Go(t, dir, "run", "./cmd/pub")
	if err != nil || strings.TrimSpace(out) != "a KIND_A 3 COLOR_RED true" {
		t.Fatalf("go run: %v\n%s", err, out)
	}
}
