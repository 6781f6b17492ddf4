package grpccodec_test

import (
	"bytes"
	"strings"
	"testing"

	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"
	pbwrappers "google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/protoplay/protoplay/codec/grpccodec"
	"github.com/protoplay/protoplay/runtime/wkt/wrapperspb"
)

// countingPool is a mem.BufferPool that counts what it hands out and gets back.
type countingPool struct {
	mem.BufferPool
	gets, puts int
}

func (p *countingPool) Get(n int) *[]byte { p.gets++; return p.BufferPool.Get(n) }
func (p *countingPool) Put(b *[]byte)     { p.puts++; p.BufferPool.Put(b) }

func TestMarshalUnmarshal(t *testing.T) {
	for _, size := range []int{0, 10, 1023, 1024, 100_000} {
		pool := &countingPool{BufferPool: mem.NewTieredBufferPool(256, 4096, 1<<20)}
		c := grpccodec.Codec{Pool: pool}
		msg := &wrapperspb.BytesValue{Value: bytes.Repeat([]byte{'x'}, size)}
		data, err := c.Marshal(msg)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := proto.Marshal(pbwrappers.Bytes(msg.Value))
		if got := data.Materialize(); !bytes.Equal(got, want) {
			t.Fatalf("size %d: bytes differ from protobuf-go's", size)
		}
		pooled := !mem.IsBelowBufferPoolingThreshold(msg.Size())
		if pooled != (pool.gets == 1) {
			t.Errorf("size %d: %d pool gets, pooled=%v", size, pool.gets, pooled)
		}
		var got wrapperspb.BytesValue
		if err := c.Unmarshal(data, &got); err != nil || !got.Equal(msg) {
			t.Fatalf("size %d: round trip differs (%v)", size, err)
		}
		whole := data.Materialize()
		data.Free()
		if pool.gets != pool.puts {
			t.Errorf("size %d: %d gets, %d puts: a pooled buffer leaked", size, pool.gets, pool.puts)
		}
		// A message in several buffers is joined (in a pooled buffer)
		// before decoding.
		split := mem.BufferSlice{mem.SliceBuffer(whole[:len(whole)/2]), mem.SliceBuffer(whole[len(whole)/2:])}
		got.Reset()
		if err := c.Unmarshal(split, &got); err != nil || !got.Equal(msg) {
			t.Fatalf("size %d: split round trip differs (%v)", size, err)
		}
	}
}

// Decoding does not keep the buffer grpc frees after Unmarshal returns.
func TestUnmarshalCopies(t *testing.T) {
	c := grpccodec.Codec{}
	b, _ := (&wrapperspb.StringValue{Value: "keep me"}).Marshal()
	var got wrapperspb.StringValue
	if err := c.Unmarshal(mem.BufferSlice{mem.SliceBuffer(b)}, &got); err != nil {
		t.Fatal(err)
	}
	for i := range b {
		b[i] = 0
	}
	if got.Value != "keep me" {
		t.Fatalf("decoded value aliases the input: %q", got.Value)
	}
	if err := c.Unmarshal(mem.BufferSlice{mem.SliceBuffer([]byte{0x0a, 0x05})}, &got); err == nil {
		t.Fatal("truncated input accepted")
	}
}

// Values that are not protoplay messages go to the fallback: grpc's proto
// codec by default.
func TestFallback(t *testing.T) {
	c := grpccodec.Codec{}
	data, err := c.Marshal(pbwrappers.String("pb"))
	if err != nil {
		t.Fatal(err)
	}
	var ours wrapperspb.StringValue
	if err := c.Unmarshal(data, &ours); err != nil || ours.Value != "pb" {
		t.Fatalf("%q, %v", ours.Value, err)
	}
	var theirs pbwrappers.StringValue
	if err := c.Unmarshal(data, &theirs); err != nil || theirs.Value != "pb" {
		t.Fatalf("%q, %v", theirs.Value, err)
	}
	if _, err := c.Marshal(struct{}{}); err == nil {
		t.Fatal("struct{} marshaled")
	}
}

// Register replaces the "proto" codec and keeps grpc's as its fallback, also
// when called twice.
func TestRegister(t *testing.T) {
	grpccodec.Register()
	grpccodec.Register()
	c, ok := encoding.GetCodecV2("proto").(grpccodec.Codec)
	if !ok {
		t.Fatalf("registered codec is %T", encoding.GetCodecV2("proto"))
	}
	if _, self := c.Fallback.(grpccodec.Codec); self || c.Fallback == nil {
		t.Fatalf("fallback is %T", c.Fallback)
	}
	if _, err := c.Marshal(struct{}{}); err == nil || !strings.Contains(err.Error(), "proto") {
		t.Fatalf("err = %v", err)
	}
}
