package connectcodec_test

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/proto"
	pbwrappers "google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/protoplay/protoplay/codec/connectcodec"
	"github.com/protoplay/protoplay/runtime/wkt/wrapperspb"
)

func TestCodec(t *testing.T) {
	c := connectcodec.Codec{}
	if c.Name() != "proto" || !c.IsBinary() {
		t.Fatal("name or binary")
	}
	msg := &wrapperspb.StringValue{Value: "hello"}
	want, _ := proto.Marshal(pbwrappers.String("hello"))
	for _, marshal := range []func(any) ([]byte, error){c.Marshal, c.MarshalStable} {
		got, err := marshal(msg)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%x, %v; want %x", got, err, want)
		}
	}
	// MarshalAppend appends into the caller's buffer without allocating a new one.
	buf := make([]byte, 3, 64)
	got, err := c.MarshalAppend(buf, msg)
	if err != nil || !bytes.Equal(got[3:], want) || &got[0] != &buf[0] {
		t.Fatalf("MarshalAppend: %x, %v", got, err)
	}
	if n := testing.AllocsPerRun(100, func() { c.MarshalAppend(buf[:0], msg) }); n != 0 {
		t.Errorf("MarshalAppend into a large enough buffer: %v allocations", n)
	}
	var back wrapperspb.StringValue
	if err := c.Unmarshal(want, &back); err != nil || back.Value != "hello" {
		t.Fatalf("%q, %v", back.Value, err)
	}
	if err := c.Unmarshal([]byte{0x0a, 0x09}, &back); err == nil {
		t.Fatal("truncated input accepted")
	}
	// protoc-gen-go messages still work, so one option serves both.
	var pb pbwrappers.StringValue
	if err := c.Unmarshal(want, &pb); err != nil || pb.Value != "hello" {
		t.Fatalf("%q, %v", pb.Value, err)
	}
	if b, err := c.Marshal(&pb); err != nil || !bytes.Equal(b, want) {
		t.Fatalf("%x, %v", b, err)
	}
	if _, err := c.Marshal(struct{}{}); err == nil {
		t.Fatal("struct{} marshaled")
	}
	if err := c.Unmarshal(want, &struct{}{}); err == nil {
		t.Fatal("unmarshaled into struct{}")
	}
}

func TestJSONCodec(t *testing.T) {
	for _, c := range []connectcodec.JSONCodec{{}, {Charset: true}} {
		if c.IsBinary() || (c.Name() != "json") == !c.Charset || (c.Name() != "json; charset=utf-8") == c.Charset {
			t.Fatalf("name %q, binary %v", c.Name(), c.IsBinary())
		}
	}
	c := connectcodec.JSONCodec{}
	got, err := c.Marshal(&wrapperspb.Int64Value{Value: 7})
	if err != nil || string(got) != `"7"` {
		t.Fatalf("Int64Value as JSON: %s, %v; want \"7\" (a wrapper's ProtoJSON is its value, 64-bit as a string)", got, err)
	}
	var back wrapperspb.Int64Value
	if err := c.Unmarshal([]byte(`7`), &back); err != nil || back.Value != 7 {
		t.Fatalf("%d, %v", back.Value, err)
	}
	if err := c.Unmarshal([]byte(`"x"`), &back); err == nil {
		t.Fatal(`"x" accepted as an Int64Value`)
	}
	// protoc-gen-go messages go through google.golang.org/protobuf's protojson.
	var pb pbwrappers.Int64Value
	if err := c.Unmarshal([]byte(`"9"`), &pb); err != nil || pb.Value != 9 {
		t.Fatalf("%d, %v", pb.Value, err)
	}
	if b, err := c.Marshal(&pb); err != nil || string(b) != `"9"` {
		t.Fatalf("%s, %v", b, err)
	}
	if _, err := c.Marshal(struct{}{}); err == nil {
		t.Fatal("struct{} marshaled")
	}
}
