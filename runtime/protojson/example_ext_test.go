package protojson_test

import (
	"fmt"

	"github.com/protoplay/protoplay/runtime/protojson"
	"github.com/protoplay/protoplay/runtime/wire"
	"github.com/protoplay/protoplay/runtime/wkt/descriptorpb"
)

// E_Sensitive is declared as protoplay generates it for
// `extend google.protobuf.FieldOptions { optional bool sensitive = 50000; }`
// in a file of package example.
var E_Sensitive = wire.Ext[*descriptorpb.FieldOptions, bool]{Extension: wire.Extension{
	Extendee: "google.protobuf.FieldOptions",
	FullName: "example.sensitive",
	Kind:     wire.BoolKind,
	Number:   50000,
}}

// Extensions are written and read as "[full.name]" members when the
// options list them (a generated file declares its list as
// Extensions_<file>); the others stay unknown fields, which ProtoJSON
// leaves out.
func Example_extensions() {
	exts := []*wire.Extension{&E_Sensitive.Extension}
	m := &descriptorpb.FieldOptions{}
	if err := E_Sensitive.Set(m, true); err != nil {
		panic(err)
	}
	with, err := m.MarshalProtoJSON(protojson.MarshalOptions{Extensions: exts})
	if err != nil {
		panic(err)
	}
	without, err := m.MarshalJSON()
	if err != nil {
		panic(err)
	}
	fmt.Println(string(with), string(without))

	var back descriptorpb.FieldOptions
	if err := back.UnmarshalProtoJSON(with, protojson.UnmarshalOptions{Extensions: exts}); err != nil {
		panic(err)
	}
	fmt.Println(E_Sensitive.Get(&back))
	// Output:
	// {"[example.sensitive]":true} {}
	// true
}
