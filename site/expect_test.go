package site_test

import (
	"context"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/protoplay/protoplay/compiler"
)

// Expected values for the browser tests, computed with
// google.golang.org/protobuf directly rather than through compiler/payload,
// so the page is checked against an independent decoder.

func messageType(t *testing.T, sources map[string]string, name string) protoreflect.MessageDescriptor {
	t.Helper()
	res := compiler.Compile(context.Background(), compiler.Request{Sources: sources, NoGenerate: true})
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	var find func(ms protoreflect.MessageDescriptors) protoreflect.MessageDescriptor
	find = func(ms protoreflect.MessageDescriptors) protoreflect.MessageDescriptor {
		for i := 0; i < ms.Len(); i++ {
			if md := ms.Get(i); md.FullName() == protoreflect.FullName(name) {
				return md
			} else if d := find(md.Messages()); d != nil {
				return d
			}
		}
		return nil
	}
	for _, f := range res.Files {
		if md := find(f.Messages()); md != nil {
			return md
		}
	}
	t.Fatalf("no message %s", name)
	return nil
}

// googleMessage1Payload is the first recorded payload of the GoogleMessage1
// (proto3) benchmark dataset, a benchmarks.BenchmarkDataset.
func googleMessage1Payload(t *testing.T) []byte {
	t.Helper()
	schema := readFile(t, needShared(t, "corpus/benchmarks/benchmarks.proto"))
	data := []byte(readFile(t, needShared(t, "corpus/benchmarks/datasets/google_message1/proto3/dataset.google_message1_proto3.pb")))
	md := messageType(t, map[string]string{"benchmarks.proto": schema}, "benchmarks.BenchmarkDataset")
	m := dynamicpb.NewMessage(md)
	if err := proto.Unmarshal(data, m); err != nil {
		t.Fatal(err)
	}
	if got := m.Get(md.Fields().ByName("message_name")).String(); got != "benchmarks.proto3.GoogleMessage1" {
		t.Fatalf("dataset holds %s", got)
	}
	payloads := m.Get(md.Fields().ByName("payload")).List()
	if payloads.Len() == 0 {
		t.Fatal("dataset has no payload")
	}
	return payloads.Get(0).Bytes()
}

func expectedJSON(t *testing.T, schema, typ string, payload []byte) string {
	t.Helper()
	md := messageType(t, map[string]string{"schema.proto": schema}, typ)
	m := dynamicpb.NewMessage(md)
	if err := proto.Unmarshal(payload, m); err != nil {
		t.Fatal(err)
	}
	b, err := protojson.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// canonicalBytes is payload re-encoded deterministically, which is what
// encoding its JSON gives: the proto3 fields it sets to zero are dropped.
func canonicalBytes(t *testing.T, schema, typ string, payload []byte) []byte {
	t.Helper()
	md := messageType(t, map[string]string{"schema.proto": schema}, typ)
	m := dynamicpb.NewMessage(md)
	if err := proto.Unmarshal(payload, m); err != nil {
		t.Fatal(err)
	}
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
