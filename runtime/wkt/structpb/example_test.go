package structpb_test

import (
	"fmt"
	"math"

	"github.com/protoplay/protoplay/runtime/wkt/structpb"
)

func ExampleNewStruct() {
	s, err := structpb.NewStruct(map[string]any{
		"name":  "Ada",
		"age":   36,
		"tags":  []any{"math", nil},
		"ratio": math.Inf(1),
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(s.Fields["age"].GetNumberValue())
	fmt.Println(s.AsMap())

	_, err = structpb.NewStruct(map[string]any{"tags": []any{"ok", 1 + 2i}})
	fmt.Println(err)
	// Output:
	// 36
	// map[age:36 name:Ada ratio:Infinity tags:[math <nil>]]
	// structpb: unsupported Go type (want nil, bool, a number, string, []byte, map[string]any or []any) at ["tags"][1]
}
