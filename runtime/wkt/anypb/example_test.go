package anypb_test

import (
	"fmt"
	"time"

	"github.com/protoplay/protoplay/runtime/wkt/anypb"
	"github.com/protoplay/protoplay/runtime/wkt/durationpb"
	"github.com/protoplay/protoplay/runtime/wkt/timestamppb"
)

// The caller names the message type when packing and when unpacking, since
// protoplay keeps no registry of types.
func ExampleNew() {
	a, err := anypb.New(durationpb.New(90*time.Second), "google.protobuf.Duration")
	if err != nil {
		panic(err)
	}
	fmt.Println(a.TypeUrl)

	switch a.MessageName() {
	case "google.protobuf.Duration":
		var d durationpb.Duration
		if err := a.UnmarshalTo(&d, "google.protobuf.Duration"); err != nil {
			panic(err)
		}
		fmt.Println(d.AsDuration())
	case "google.protobuf.Timestamp":
		var ts timestamppb.Timestamp
		if err := a.UnmarshalTo(&ts, "google.protobuf.Timestamp"); err != nil {
			panic(err)
		}
		fmt.Println(ts.AsTime())
	}

	err = a.UnmarshalTo(&timestamppb.Timestamp{}, "google.protobuf.Timestamp")
	fmt.Println(err)
	// Output:
	// type.googleapis.com/google.protobuf.Duration
	// 1m30s
	// anypb: mismatched message type: Any holds "type.googleapis.com/google.protobuf.Duration", not "google.protobuf.Timestamp"
}
