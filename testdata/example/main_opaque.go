// The Run tab's program for the example schema generated with the opaque
// API (default_api_level=API_OPAQUE or API_HYBRID): the same program as
// main.go, written with a builder, setters and getters instead of a struct
// literal and field access, since the fields are hidden.
package main

import (
	"fmt"

	addressbookv1 "example.com/addressbook/v1"
)

func main() {
	p := addressbookv1.Person_builder{
		Name:  "Ada Lovelace",
		Id:    1815,
		Email: "ada@example.com",
		Phones: []*addressbookv1.Person_PhoneNumber{
			addressbookv1.Person_PhoneNumber_builder{Number: "+44 20 7946 0000", Type: addressbookv1.Person_PHONE_TYPE_HOME}.Build(),
		},
	}.Build()
	p.SetMatrix("@ada:example.com")
	b, err := p.Marshal()
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d bytes: %x\n", len(b), b)

	var back addressbookv1.Person
	if err := back.Unmarshal(b); err != nil {
		panic(err)
	}
	j, err := back.MarshalJSON()
	if err != nil {
		panic(err)
	}
	fmt.Printf("decoded: %s\n", j)
	fmt.Println("equal:", back.Equal(p))
}
