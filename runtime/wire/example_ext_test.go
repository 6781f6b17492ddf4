package wire_test

import (
	"fmt"
	"time"

	"github.com/protoplay/protoplay/runtime/wire"
	"github.com/protoplay/protoplay/runtime/wkt/descriptorpb"
	"github.com/protoplay/protoplay/runtime/wkt/durationpb"
)

// The extensions of a schema's file, declared as protoplay generates them
// for
//
//	extend google.protobuf.FieldOptions {
//	  optional bool sensitive = 50000;
//	  repeated string aliases = 50001;
//	  optional google.protobuf.Duration ttl = 50002;
//	}
//
// (a custom field option: descriptor.proto's options messages declare
// extension ranges, so their generated types have ProtoUnknownFields,
// the method an extended message needs).
var (
	E_Sensitive = wire.Ext[*descriptorpb.FieldOptions, bool]{Extension: wire.Extension{
		Extendee: "google.protobuf.FieldOptions",
		FullName: "example.sensitive",
		Kind:     wire.BoolKind,
		Number:   50000,
	}}
	E_Aliases = wire.ExtList[*descriptorpb.FieldOptions, string]{Extension: wire.Extension{
		Extendee: "google.protobuf.FieldOptions",
		FullName: "example.aliases",
		Kind:     wire.StringKind,
		Number:   50001,
		Repeated: true,
	}}
	E_Ttl = wire.Ext[*descriptorpb.FieldOptions, *durationpb.Duration]{Extension: wire.Extension{
		Extendee: "google.protobuf.FieldOptions",
		FullName: "example.ttl",
		Kind:     wire.MessageKind,
		New: func() any {
			return new(durationpb.Duration)
		},
		Number: 50002,
	}}
)

// Typed extensions: Get, Set, Has and Clear on the extended message. The
// values live in the message's unknown fields, so Marshal writes them and
// Unmarshal keeps them with no registry.
func Example_extensions() {
	opts := &descriptorpb.FieldOptions{}
	if err := E_Sensitive.Set(opts, true); err != nil {
		panic(err)
	}
	if err := E_Aliases.Set(opts, []string{"pw", "secret"}); err != nil {
		panic(err)
	}
	if err := E_Ttl.Set(opts, durationpb.New(90*time.Second)); err != nil {
		panic(err)
	}
	b, err := opts.Marshal()
	if err != nil {
		panic(err)
	}
	fmt.Printf("% x\n", b)

	var back descriptorpb.FieldOptions
	if err := back.Unmarshal(b); err != nil {
		panic(err)
	}
	fmt.Println(E_Sensitive.Get(&back), E_Aliases.Get(&back), E_Ttl.Get(&back).AsDuration())
	E_Sensitive.Clear(&back)
	fmt.Println(E_Sensitive.Has(&back), E_Sensitive.Get(&back), E_Aliases.Has(&back))
	// Output:
	// 80 b5 18 01 8a b5 18 02 70 77 8a b5 18 06 73 65 63 72 65 74 92 b5 18 02 08 5a
	// true [pw secret] 1m30s
	// false false true
}
