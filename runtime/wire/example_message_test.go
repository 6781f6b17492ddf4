package wire_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/protoplay/protoplay/runtime/wire"
	"github.com/protoplay/protoplay/runtime/wkt/apipb"
	"github.com/protoplay/protoplay/runtime/wkt/durationpb"
)

// Generated messages carry Marshal and Unmarshal (see "Generated
// messages" above). The well-known types are generated like any message.
func Example_marshal() {
	d := durationpb.New(1500 * time.Millisecond) // seconds: 1, nanos: 500000000
	b, err := d.Marshal()
	if err != nil {
		panic(err)
	}
	fmt.Printf("% x (Size %d)\n", b, d.Size())

	var back durationpb.Duration
	if err := back.Unmarshal(b); err != nil {
		panic(err)
	}
	fmt.Println(back.AsDuration(), back.Equal(d))
	// Output:
	// 08 01 10 80 ca b5 ee 01 (Size 8)
	// 1.5s true
}

// MarshalAppend reuses a buffer across messages.
func Example_marshalAppend() {
	buf := make([]byte, 0, 64)
	for _, name := range []string{"GetShelf", "ListShelves"} {
		var err error
		buf, err = (&apipb.Method{Name: name}).MarshalAppend(buf[:0])
		if err != nil {
			panic(err)
		}
		fmt.Printf("% x\n", buf)
	}
	// Output:
	// 0a 08 47 65 74 53 68 65 6c 66
	// 0a 0b 4c 69 73 74 53 68 65 6c 76 65 73
}

// Unmarshal errors say where: the byte offset in the input, the field path,
// and a sentinel that errors.Is matches.
func Example_unmarshalError() {
	// Api{methods: [Method{name: "Get"}]} whose name says 3 bytes where 2
	// remain.
	b := []byte{0x12, 0x04, 0x0a, 0x03, 'G', 'e'}
	var m apipb.Api
	err := m.Unmarshal(b)
	fmt.Println(err)
	var e *wire.Error
	fmt.Println(errors.As(err, &e), e.Offset, e.Path, errors.Is(err, wire.ErrLength))
	// Output:
	// protoplay: invalid wire data at byte 3 (field methods[0]): length past end of buffer
	// true 3 methods[0] true
}

// Unknown fields are kept and written back (unknown_fields=keep, the
// default).
func Example_unknownFields() {
	// Duration{seconds: 7} followed by field 9 (varint 1), which Duration
	// does not declare.
	b := []byte{0x08, 0x07, 0x48, 0x01}
	var d durationpb.Duration
	if err := d.Unmarshal(b); err != nil {
		panic(err)
	}
	out, _ := d.Marshal()
	fmt.Printf("%d s, % x\n", d.GetSeconds(), out)
	// Output: 7 s, 08 07 48 01
}
