package prototext_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/protoplay/protoplay/runtime/protojson"
	"github.com/protoplay/protoplay/runtime/prototext"
	"github.com/protoplay/protoplay/runtime/wkt/anypb"
	"github.com/protoplay/protoplay/runtime/wkt/apipb"
	"github.com/protoplay/protoplay/runtime/wkt/durationpb"
)

// The examples use the well-known types, which protoplay generates like any
// other message: the methods are the same on your own types.

// String and MarshalText write the compact form; MarshalProtoText takes
// options.
func Example_marshal() {
	m := &apipb.Api{
		Name:    "shelf.Library",
		Methods: []*apipb.Method{{Name: "GetShelf"}, {Name: "ListShelves", ResponseStreaming: true}},
	}
	fmt.Println(m.String())
	b, err := m.MarshalProtoText(prototext.MarshalOptions{Multiline: true})
	if err != nil {
		panic(err)
	}
	fmt.Print(string(b))
	// Output:
	// name:"shelf.Library" methods:{name:"GetShelf"} methods:{name:"ListShelves" response_streaming:true}
	// name: "shelf.Library"
	// methods: {
	//   name: "GetShelf"
	// }
	// methods: {
	//   name: "ListShelves"
	//   response_streaming: true
	// }
}

// UnmarshalText reads the spec's grammar: comments, either separator, lists.
func Example_unmarshal() {
	var m apipb.Api
	err := m.UnmarshalText([]byte(`
		name: "shelf.Library"  # the service
		methods [{name: "GetShelf"}, {name: "ListShelves"}];
		version: 'v1'`))
	if err != nil {
		panic(err)
	}
	fmt.Println(m.GetName(), len(m.GetMethods()), m.GetMethods()[1].GetName(), m.GetVersion())
	// Output: shelf.Library 2 ListShelves v1
}

// A bad input is a *prototext.Error with its position, wrapping a sentinel.
func Example_errors() {
	var m apipb.Api
	err := m.UnmarshalText([]byte("name: \"shelf.Library\"\ncolour: 3"))
	var e *prototext.Error
	fmt.Println(errors.As(err, &e), e.Line, e.Column, errors.Is(err, prototext.ErrUnknownField))
	err = m.UnmarshalProtoText([]byte("name: \"shelf.Library\"\ncolour: 3"), prototext.UnmarshalOptions{DiscardUnknown: true})
	fmt.Println(err, m.GetName())
	// Output:
	// true 2 1 true
	// <nil> shelf.Library
}

// With a Resolver, an Any is written in the expanded form and read back.
func Example_any() {
	a, err := anypb.New(durationpb.New(1500*time.Millisecond), "google.protobuf.Duration")
	if err != nil {
		panic(err)
	}
	resolve := protojson.ResolverFunc(durationpb.NewMessage_google_protobuf_duration_proto)
	b, err := a.MarshalProtoText(prototext.MarshalOptions{Resolver: resolve})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(b))
	var back anypb.Any
	if err := back.UnmarshalProtoText(b, prototext.UnmarshalOptions{Resolver: resolve}); err != nil {
		panic(err)
	}
	fmt.Println(back.Equal(a))
	// Output:
	// [type.googleapis.com/google.protobuf.Duration]:{seconds:1 nanos:500000000}
	// true
}
