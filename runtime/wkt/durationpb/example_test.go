package durationpb_test

import (
	"fmt"
	"time"

	"github.com/protoplay/protoplay/runtime/wkt/durationpb"
)

// New and AsDuration convert to and from time.Duration; JSON is seconds
// with a suffix "s".
func ExampleNew() {
	d := durationpb.New(-1500 * time.Millisecond)
	fmt.Println(d.GetSeconds(), d.GetNanos(), d.AsDuration())
	b, err := d.MarshalJSON()
	if err != nil {
		panic(err)
	}
	fmt.Println(string(b))
	var back durationpb.Duration
	if err := back.UnmarshalJSON([]byte(`"90.000000001s"`)); err != nil {
		panic(err)
	}
	fmt.Println(back.AsDuration())
	// Output:
	// -1 -500000000 -1.5s
	// "-1.500s"
	// 1m30.000000001s
}
