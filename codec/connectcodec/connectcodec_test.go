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
