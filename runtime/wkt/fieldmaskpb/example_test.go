package fieldmaskpb_test

import (
	"fmt"

	"github.com/protoplay/protoplay/runtime/wkt/fieldmaskpb"
)

// A FieldMask lists field paths; Normalize sorts them and drops the ones a
// shorter path covers. In JSON the paths are lowerCamelCase, joined by
// commas.
func ExampleNew() {
	m := fieldmaskpb.New("shelf.theme", "shelf", "book_count")
	m.Normalize()
	fmt.Println(m.GetPaths())
	b, err := m.MarshalJSON()
	if err != nil {
		panic(err)
	}
	fmt.Println(string(b))
	fmt.Println(fieldmaskpb.Intersect(m, fieldmaskpb.New("shelf.name", "title")).GetPaths())
	// Output:
	// [book_count shelf]
	// "bookCount,shelf"
	// [shelf.name]
}
