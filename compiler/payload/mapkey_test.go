package payload

import (
	"encoding/hex"
	"github.com/protoplay/protoplay/compiler/diag"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/dynamicpb"
	"google.golang.org/protobuf/types/known/structpb"
)

// A map entry whose key field (number 1) comes with the wrong wire type,
// after a well-typed key, made google.golang.org/protobuf's reflective
// decoder (dynamicpb's) panic ("cannot convert nil to map key"), and so
// `protoplay decode` and the playground with it. Generated code skips such
// a field as an unknown field of the entry, keeping the key before it:
// Unmarshal must decide what protobuf-go's generated structpb.Struct
// (map<string, Value> fields = 1) decides, for every wire type.
func TestMapKeyWrongWireType(t *testing.T) {
	s := compileSource(t, `syntax = "proto3";
package p;
import "google/protobuf/struct.proto";
message S { map<string, google.protobuf.Value> fields = 1; }
message I { map<int32, string> m = 1; map<bool, int64> b = 2; }
`)
	structMD := mustFind(t, s, "google.protobuf.Struct")
	for _, in := range []string{
		"0a 05 0a 01 61 08 00",             // smallest: key "a", then field 1 as a varint
		"0a 09 0a 01 61 12 02 20 01 08 00", // value between
		"0a 09 0a 01 61 08 00 12 02 20 01",
		"0a 0a 0a 01 61 0d 00 00 00 00 12 00",                // I32
		"0a 0e 0a 01 61 09 00 00 00 00 00 00 00 00 12 00",    // I64
		"0a 07 0a 01 61 0b 0c 12 00",                         // a group
		"0a 06 0a 01 61 88 00 00",                            // a 2-byte tag, not minimal
		"0a 05 08 00 0a 01 62",                               // the wrong one first: protobuf-go never panicked here
		"0a 02 08 00",                                        // only a wrong one: the default key ""
		"0a 05 0a 01 61 08 00 0a 07 0a 01 62 0d 00 00 00 00", // two entries
		"0a 06 0a 01 61 08 80",                               // truncated varint: an error, not a panic
	} {
		b, err := hex.DecodeString(strings.ReplaceAll(in, " ", ""))
		if err != nil {
			t.Fatal(err)
		}
		var want structpb.Struct
		werr := proto.Unmarshal(b, &want)
		got, gerr := s.Unmarshal(structMD, b)
		if (werr == nil) != (gerr == nil) {
			t.Errorf("%s: Unmarshal error %v, protobuf-go's structpb %v", in, gerr, werr)
			continue
		}
		if werr != nil {
			continue
		}
		wb, _ := proto.MarshalOptions{Deterministic: true}.Marshal(&want)
		gb, _ := proto.MarshalOptions{Deterministic: true}.Marshal(got)
		if string(wb) != string(gb) {
			t.Errorf("%s: Unmarshal gives %x, protobuf-go's structpb %x", in, gb, wb)
		}
	}
	// Scalar keys mistyped as LEN, fixed32 or a group; the expected maps
	// are those of generated code (which keeps the earlier key).
	imd := mustFind(t, s, "p.I")
	for _, c := range []struct{ in, want string }{
		{"0a 07 08 07 0a 01 61 12 00", "m:{key:7 value:\"\"}"},
		{"0a 09 08 07 0d 00 00 00 00 12 00", "m:{key:7 value:\"\"}"},
		{"0a 06 08 07 0b 0c 12 00", "m:{key:7 value:\"\"}"},
		{"12 06 08 01 0a 00 10 05", "b:{key:true value:5}"},
	} {
		b, _ := hex.DecodeString(strings.ReplaceAll(c.in, " ", ""))
		got, err := s.Unmarshal(imd, b)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		want := dynamicpb.NewMessage(got.Descriptor())
		if err := prototext.Unmarshal([]byte(c.want), want); err != nil {
			t.Fatal(err)
		}
		if !proto.Equal(got, want) {
			t.Errorf("%s: Unmarshal gives %v, want %s", c.in, got, c.want)
		}
	}
}

// The same map entry inside a google.protobuf.Any, which only formatting
// decodes: an error, not a panic.
func TestMapKeyWrongWireTypeInAny(t *testing.T) {
	s := compileSource(t, `syntax = "proto3";
package p;
import "google/protobuf/any.proto";
message M { map<string, int32> m = 1; }
message W { google.protobuf.Any a = 1; }
`)
	url := "type.googleapis.com/p.M"
	value := "0a 05 0a 01 61 08 00"
	anyHex := "0a " + hex.EncodeToString([]byte{byte(len(url))}) + hex.EncodeToString([]byte(url)) + " 12 07 " + value
	in := "0a " + hex.EncodeToString([]byte{byte(len(strings.ReplaceAll(anyHex, " ", "")) / 2)}) + anyHex
	for _, f := range []Format{JSON, Text} {
		_, err := s.Decode(mustFind(t, s, "p.W"), []byte(in), DecodeOptions{In: Hex, Out: f})
		if e := AsError(err); e == nil || e.Kind != diag.KindValue || !strings.Contains(e.Message, "google.protobuf.Any") {
			t.Errorf("%s: Decode = %v, want a diag.KindValue error naming google.protobuf.Any", f, err)
		}
	}
	// The Any's value alone decodes, as generated code decodes it.
	out, err := s.Decode(mustFind(t, s, "p.M"), []byte(value), DecodeOptions{In: Hex, Out: JSON})
	if err != nil || !strings.Contains(out.Messages[0], `"a": 0`) {
		t.Errorf("Decode(p.M) = %v, %v", out, err)
	}
}
