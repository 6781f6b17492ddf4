package protojson_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/protoplay/protoplay/runtime/protojson"
	"github.com/protoplay/protoplay/runtime/wkt/anypb"
	"github.com/protoplay/protoplay/runtime/wkt/apipb"
	"github.com/protoplay/protoplay/runtime/wkt/durationpb"
	"github.com/protoplay/protoplay/runtime/wkt/structpb"
	"github.com/protoplay/protoplay/runtime/wkt/timestamppb"
)

// The examples use the well-known types, which protoplay generates like any
// other message: the methods are the same on your own types.

// MarshalJSON writes compact ProtoJSON: json_name keys, fields in
// declaration order, unset fields left out.
func Example_marshal() {
	m := &apipb.Method{Name: "GetShelf", RequestTypeUrl: "type.googleapis.com/shelf.GetShelfRequest", ResponseStreaming: true}
	b, err := m.MarshalJSON()
	if err != nil {
		panic(err)
	}
	fmt.Println(string(b))
	// Output: {"name":"GetShelf","requestTypeUrl":"type.googleapis.com/shelf.GetShelfRequest","responseStreaming":true}
}

// UnmarshalJSON reads either name of a field and replaces the message.
func Example_unmarshal() {
	var m apipb.Method
	if err := m.UnmarshalJSON([]byte(`{"name": "ListShelves", "request_streaming": true}`)); err != nil {
		panic(err)
	}
	fmt.Println(m.GetName(), m.GetRequestStreaming())
	// Output: ListShelves true
}

// MarshalProtoJSON takes protojson's options: here the .proto names, every
// field written, over several lines.
func Example_options() {
	m := &apipb.Method{Name: "GetShelf"}
	b, err := m.MarshalProtoJSON(protojson.MarshalOptions{UseProtoNames: true, EmitUnpopulated: true, Multiline: true})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(b))
	// Output:
	// {
	//   "name": "GetShelf",
	//   "request_type_url": "",
	//   "request_streaming": false,
	//   "response_type_url": "",
	//   "response_streaming": false,
	//   "options": [],
	//   "syntax": "SYNTAX_PROTO2",
	//   "edition": ""
	// }
}

// A bad input is a *protojson.Error with its position, wrapping a sentinel.
func Example_errors() {
	var m apipb.Method
	err := m.UnmarshalJSON([]byte("{\"name\": \"GetShelf\",\n \"requestStreaming\": \"yes\"}"))
	var e *protojson.Error
	fmt.Println(errors.As(err, &e), e.Line, e.Column, errors.Is(err, protojson.ErrInvalidValue))
	err = m.UnmarshalProtoJSON([]byte(`{"name": "GetShelf", "color": "red"}`), protojson.UnmarshalOptions{})
	fmt.Println(errors.Is(err, protojson.ErrUnknownField))
	err = m.UnmarshalProtoJSON([]byte(`{"name": "GetShelf", "color": "red"}`), protojson.UnmarshalOptions{DiscardUnknown: true})
	fmt.Println(err, m.GetName())
	// Output:
	// true 2 22 true
	// true
	// <nil> GetShelf
}

// The well-known types have their own JSON forms.
func Example_wellKnownTypes() {
	ts := timestamppb.New(time.Date(2024, 5, 1, 12, 0, 0, 500_000_000, time.UTC))
	d := durationpb.New(90 * time.Second)
	s, err := structpb.NewStruct(map[string]any{"shelf": "fiction", "count": 3})
	if err != nil {
		panic(err)
	}
	for _, m := range []interface{ MarshalJSON() ([]byte, error) }{ts, d, s} {
		b, err := m.MarshalJSON()
		if err != nil {
			panic(err)
		}
		fmt.Println(string(b))
	}
	// Output:
	// "2024-05-01T12:00:00.500Z"
	// "90s"
	// {"count":3,"shelf":"fiction"}
}

// An Any's message comes from a Resolver. Each generated file declares one
// (NewMessage_<path>) for the types it reaches; a ResolverFunc can also try
// several.
func Example_any() {
	a, err := anypb.New(durationpb.New(1500*time.Millisecond), "google.protobuf.Duration")
	if err != nil {
		panic(err)
	}
	resolve := protojson.ResolverFunc(func(name string) protojson.Message {
		if m := durationpb.NewMessage_google_protobuf_duration_proto(name); m != nil {
			return m
		}
		return timestamppb.NewMessage_google_protobuf_timestamp_proto(name)
	})
	b, err := a.MarshalProtoJSON(protojson.MarshalOptions{Resolver: resolve})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(b))

	_, err = a.MarshalJSON() // no resolver: the Any's type cannot be written
	fmt.Println(errors.Is(err, protojson.ErrUnsupported))

	var back anypb.Any
	if err := back.UnmarshalProtoJSON(b, protojson.UnmarshalOptions{Resolver: resolve}); err != nil {
		panic(err)
	}
	fmt.Println(back.Equal(a))
	// Output:
	// {"@type":"type.googleapis.com/google.protobuf.Duration","value":"1.500s"}
	// true
	// true
}
