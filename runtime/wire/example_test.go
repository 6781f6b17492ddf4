package wire_test

import (
	"fmt"

	"github.com/protoplay/protoplay/runtime/wire"
)

// Marshal fills a buffer from the end. Here: message Outer { Inner inner = 1; }
// with message Inner { uint32 id = 1; string name = 2; }, Inner{id: 150, name: "hi"}.
func ExamplePutVarintRev() {
	const size = 9 // what generated Size() computes: 1+1+(1+2)+(1+1+2)
	b := make([]byte, size)
	i := len(b)

	// Inner, last field first.
	end := i
	i = wire.PutStringRev(b, i, "hi")
	i = wire.PutTagRev(b, i, 2, wire.BytesType)
	i = wire.PutVarintRev(b, i, 150)
	i = wire.PutTagRev(b, i, 1, wire.VarintType)
	// Its length is now known: put it in front, then Outer's tag.
	i = wire.PutVarintRev(b, i, uint64(end-i))
	i = wire.PutTagRev(b, i, 1, wire.BytesType)

	fmt.Printf("% x (start %d)\n", b[i:], i)
	// Output: 0a 07 08 96 01 12 02 68 69 (start 0)
}

// Unmarshal reads a tag, then the value its field and wire type call for,
// and turns any error code into an *Error at the offset where it arose.
func ExampleConsumeTag() {
	b := []byte{0x08, 0x96, 0x01, 0x12, 0x02, 'h', 'i', 0x1a, 0x05, 'x'}
	for i := 0; i < len(b); {
		num, typ, n := wire.ConsumeTag(b[i:])
		if n < 0 {
			fmt.Println(wire.ErrorAt(i, n))
			return
		}
		i += n
		switch {
		case num == 1 && typ == wire.VarintType:
			v, n := wire.ConsumeVarint(b[i:])
			if n < 0 {
				fmt.Println(wire.ErrorAt(i, n))
				return
			}
			fmt.Println("id:", v)
			i += n
		case num == 2 && typ == wire.BytesType:
			v, n := wire.ConsumeBytes(b[i:])
			if n < 0 {
				fmt.Println(wire.ErrorAt(i, n))
				return
			}
			fmt.Printf("name: %q\n", v)
			i += n
		default: // unknown field: skip it
			n := wire.ConsumeFieldValue(num, typ, b[i:], wire.DefaultMaxDepth)
			if n < 0 {
				fmt.Println(wire.ErrorAt(i, n))
				return
			}
			i += n
		}
	}
	// Output:
	// id: 150
	// name: "hi"
	// protoplay: invalid wire data at byte 8: length past end of buffer
}
