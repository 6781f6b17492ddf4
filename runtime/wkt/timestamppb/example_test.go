package timestamppb_test

import (
	"fmt"
	"time"

	"github.com/protoplay/protoplay/runtime/wkt/timestamppb"
)

// New and AsTime convert to and from time.Time; JSON is RFC 3339 in UTC.
func ExampleNew() {
	ts := timestamppb.New(time.Date(2024, 5, 1, 14, 0, 0, 0, time.FixedZone("CEST", 2*3600)))
	fmt.Println(ts.GetSeconds(), ts.AsTime())
	b, err := ts.MarshalJSON()
	if err != nil {
		panic(err)
	}
	fmt.Println(string(b))
	// Output:
	// 1714564800 2024-05-01 12:00:00 +0000 UTC
	// "2024-05-01T12:00:00Z"
}

// CheckValid reports a Timestamp outside years 1 to 9999 or with nanos out
// of range; such a value cannot be written as JSON.
func ExampleTimestamp_CheckValid() {
	ts := &timestamppb.Timestamp{Seconds: 1, Nanos: -1}
	fmt.Println(ts.IsValid(), ts.CheckValid() != nil)
	_, err := ts.MarshalJSON()
	fmt.Println(err != nil)
	// Output:
	// false true
	// true
}
