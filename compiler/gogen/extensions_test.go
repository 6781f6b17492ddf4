package gogen

import (
	"strings"
	"testing"
	"testing/fstest"
)

// Extension variables are named as protoc-gen-go names them: "E_" and the
// CamelCase name, with the Go name of the message an extension is declared
// in (nested ones included) and "_" in front.
func TestExtensionNames(t *testing.T) {
	src := `syntax = "proto2";
package x;
option go_package = "example.com/x";
message Target {
  extensions 100 to 200;
  message Inner {
    extend Target { optional Target.Inner back = 102; }
  }
}
extend Target { optional int32 foo_bar = 100; repeated sint64 deltas = 101 [packed = true]; }
`
	files := compileForTest(t, fstest.MapFS{"x/ext.proto": {Data: []byte(src)}}, []string{"."}, "x/ext.proto")
	out, diags := Generate(files, Options{})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	code := out[0].Content
	for _, want := range []string{
		"var E_FooBar = wire.Ext[*Target, int32]{",
		"var E_Deltas = wire.ExtList[*Target, int64]{",
		"var E_Target_Inner_Back = wire.Ext[*Target, *Target_Inner]{",
		"var Extensions_x_ext_proto = []*wire.Extension{",
		"func (m *Target) ProtoUnknownFields() **[]byte {",
	} {
		if !strings.Contains(code, want) {
			t.Errorf("generated code lacks %q", want)
		}
	}
	// unknown_fields=drop: no storage, so no extensions.
	out, diags = Generate(files, Options{DropUnknown: true})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if code := out[0].Content; strings.Contains(code, "E_FooBar") || strings.Contains(code, "ProtoUnknownFields") {
		t.Error("unknown_fields=drop generated extension code")
	}
}

// An extension variable that meets another package-level name is an
// error at the extension (protoc-gen-go's output would not build either).
func TestExtensionNameCollision(t *testing.T) {
	src := `syntax = "proto2";
package x;
option go_package = "example.com/x";
message Target { extensions 100 to 200; }
message E_Foo {}
extend Target { optional int32 foo = 100; }
`
	files := compileForTest(t, fstest.MapFS{"x/c.proto": {Data: []byte(src)}}, []string{"."}, "x/c.proto")
	_, diags := Generate(files, Options{})
	if len(diags) != 1 || !strings.Contains(diags[0].Message, "E_Foo") || diags[0].Line != 6 {
		t.Fatalf("diagnostics %+v, want one at line 6 naming E_Foo", diags)
	}
}
