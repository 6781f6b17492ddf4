// The Run tab's program for the example schema: it imports the generated
// package by its import path (go_package), builds a message, marshals it
// with the generated code and decodes the bytes again.
package main

import (
	"fmt"

	addressbookv1 "example.com/addressbook/v1"
)

func main() {
	p := &addressbookv1.Person{
		Name:  "Ada Lovelace",
		Id:    1815,
		Email: "ada@example.com",
		Phones: []*addressbookv1.Person_PhoneNumber{
			{Number: "+44 20 7946 0000", Type: addressbookv1.Person_PHONE_TYPE_HOME},
		},
		Contact: &addressbookv1.Person_Matrix{Matrix: "@ada:example.com"},
	}
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
