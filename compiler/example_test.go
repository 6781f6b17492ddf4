package compiler_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/protoplay/protoplay/compiler"
)

// shop is the schema of the examples.
var shop = compiler.Sources{
	"shop/v1/shop.proto": `syntax = "proto3";
package shop.v1;
option go_package = "example.com/shop/v1;shopv1";

message Order {
  int32 id = 1;
  string item = 2;
  map<string, int64> stock = 3;
}
`,
}

// Compile parses, links and checks .proto sources and generates Go.
func ExampleCompile() {
	res := compiler.Compile(context.Background(), compiler.Request{Sources: shop})
	if err := res.Err(); err != nil {
		panic(err)
	}
	for _, f := range res.Generated {
		fmt.Println(f.Name, strings.Contains(f.Content, "type Order struct"))
	}
	// Output: example.com/shop/v1/shop.pb.go true
}

// Generator options are protoc-style parameters (docs/options.md).
func ExampleCompile_options() {
	opts, err := compiler.ParseOptions("paths=source_relative,unknown_fields=drop")
	if err != nil {
		panic(err)
	}
	res := compiler.Compile(context.Background(), compiler.Request{Sources: shop, Options: opts})
	fmt.Println(res.Generated[0].Name, strings.Contains(res.Generated[0].Content, "unknownFields"))
	// Output: shop/v1/shop.pb.go false
}

// Errors in a schema are diagnostics with a file, line and column.
func ExampleCompile_diagnostics() {
	res := compiler.Compile(context.Background(), compiler.Request{Sources: compiler.Sources{
		"bad.proto": "syntax = \"proto3\";\npackage demo;\nmessage A {\n  int32 x = 1;\n  strin y = 2;\n}\n",
	}})
	for _, d := range res.Diagnostics {
		fmt.Println(d.File, d.Line, d.Column, d.Severity)
	}
	fmt.Println(res.HasErrors(), res.Generated == nil)
	// Output:
	// bad.proto 5 3 error
	// true true
}

// Encode turns a JSON (or text) value into bytes.
func ExampleSchema_Encode() {
	schema := mustSchema()
	b, err := schema.Encode("shop.v1.Order", []byte(`{"id": 7, "item": "tea"}`), compiler.JSON, compiler.Hex)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(b))
	// Output: 08 07 12 03 74 65 61
}

// Decode turns bytes (binary, hex or base64, detected) into JSON or text.
func ExampleSchema_Decode() {
	schema := mustSchema()
	d, err := schema.Decode("shop.v1.Order", []byte("08 07 12 03 74 65 61"), compiler.DecodeOptions{Out: compiler.Text})
	if err != nil {
		panic(err)
	}
	fmt.Print(d.Encoding, " ", d.Size, "\n", d.Messages[0])
	// Output:
	// hex 7
	// id: 7
	// item: "tea"
}

// Bad input is an *Error that says where.
func ExampleSchema_Decode_error() {
	schema := mustSchema()
	_, err := schema.Decode("shop.v1.Order", []byte("08 07 12 09 74 65 61"), compiler.DecodeOptions{})
	var e *compiler.Error
	fmt.Println(errors.As(err, &e), e.Kind)
	fmt.Println(err)
	// Output:
	// true payload
	// at byte 3 (in item): LEN of 9 bytes exceeds the 3 remaining
}

// WireView lists every field with its byte offsets, against the type.
func ExampleSchema_WireView() {
	schema := mustSchema()
	v, err := schema.WireView("shop.v1.Order", []byte{0x08, 0x07, 0x12, 0x03, 't', 'e', 'a'})
	if err != nil {
		panic(err)
	}
	fmt.Print(compiler.Listing(v, []byte{0x08, 0x07, 0x12, 0x03, 't', 'e', 'a'}))
	// Output:
	// shop.v1.Order, 7 bytes
	// offset  bytes  field
	//      0  08 07  1 id (int32, VARINT) = 7
	//      2  12 03  2 item (string, LEN 3) = "tea"
}

// DecodeRaw reads bytes with no schema, like protoc --decode_raw.
func ExampleDecodeRaw() {
	b := []byte{0x08, 0x07, 0x12, 0x03, 't', 'e', 'a'}
	v, err := compiler.DecodeRaw(b)
	if err != nil {
		panic(err)
	}
	fmt.Print(compiler.Listing(v, b))
	// Output:
	// raw, 7 bytes
	// offset  bytes  field
	//      0  08 07  1 (varint, VARINT) = 7  or sint64 -4
	//      2  12 03  2 (string, LEN 3) = "tea"
}

// Sample makes a filled-in value of a type, to start editing from.
func ExampleSchema_Sample() {
	schema := mustSchema()
	s, err := schema.Sample("shop.v1.Order", compiler.JSON)
	if err != nil {
		panic(err)
	}
	fmt.Print(s)
	// Output:
	// {
	//   "id": -2147483648,
	//   "item": "héllo, wörld ✓",
	//   "stock": {
	//     "": "9223372036854775807",
	//     "héllo, wörld ✓": "-9223372036854775808"
	//   }
	// }
}

// Check round-trips a sample of every message type through binary and JSON.
func ExampleSchema_Check() {
	for _, r := range mustSchema().Check() {
		fmt.Println(r.Type, r.Pass)
	}
	// Output:
	// shop.v1.Order true
}

// A Workspace answers the JSON requests of the playground and the npm
// package (Call), keeping the last schema between them.
func ExampleWorkspace_Call() {
	var w compiler.Workspace
	out, err := w.Call(context.Background(), "encode", []byte(`{
		"files": {"shop.proto": "syntax = \"proto3\"; package shop; message Order { int32 id = 1; }"},
		"type": "shop.Order",
		"input": "{\"id\": 150}"
	}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out))
	// Output:
	// {"hex":"08 96 01","base64":"CJYB","size":3}
}

func mustSchema() *compiler.Schema {
	res := compiler.Compile(context.Background(), compiler.Request{Sources: shop})
	schema, err := res.Schema()
	if err != nil {
		panic(err)
	}
	return schema
}
