package wrapperspb_test

import (
	"fmt"

	"github.com/protoplay/protoplay/runtime/wkt/wrapperspb"
)

// A wrapper gives a scalar presence in proto3; in JSON it is the bare value.
func ExampleInt64() {
	v := wrapperspb.Int64(1 << 40)
	b, err := v.MarshalJSON()
	if err != nil {
		panic(err)
	}
	fmt.Println(string(b))
	var s wrapperspb.StringValue
	if err := s.UnmarshalJSON([]byte(`"hello"`)); err != nil {
		panic(err)
	}
	fmt.Println(s.GetValue())
	// Output:
	// "1099511627776"
	// hello
}
