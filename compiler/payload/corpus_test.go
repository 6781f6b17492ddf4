package payload

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

// TestCorpusChecks runs Check on every message type of protobuf's
// conformance test messages and the GoogleMessage benchmark schemas.
func TestCorpusChecks(t *testing.T) {
	dir := corpusDir(t)
	cases := []struct {
		root  string
		files []string
	}{
		{"protobuf", []string{"google/protobuf/test_messages_proto2.proto", "google/protobuf/test_messages_proto3.proto"}},
		{"benchmarks", []string{
			"benchmarks.proto",
			"datasets/google_message1/proto2/benchmark_message1_proto2.proto",
			"datasets/google_message1/proto3/benchmark_message1_proto3.proto",
			"datasets/google_message2/benchmark_message2.proto",
		}},
	}
	for _, c := range cases {
		s := compileFS(t, os.DirFS(filepath.Join(dir, c.root)), nil, c.files...)
		results := s.Check()
		if len(results) == 0 {
			t.Fatalf("%v: no message types checked", c.files)
		}
		for _, r := range results {
			if !r.Pass {
				t.Errorf("%s: step %s failed at %q: %s", r.Type, r.Step, r.Path, r.Message)
			}
		}
		t.Logf("%s: %d message types checked", c.root, len(results))
	}
}

// TestCorpusDatasets round-trips the recorded GoogleMessage payloads:
// binary -> JSON -> binary gives the canonical re-encoding.
func TestCorpusDatasets(t *testing.T) {
	dir := filepath.Join(corpusDir(t), "benchmarks")
	s := compileFS(t, os.DirFS(dir), nil,
		"benchmarks.proto",
		"datasets/google_message1/proto2/benchmark_message1_proto2.proto",
		"datasets/google_message1/proto3/benchmark_message1_proto3.proto",
		"datasets/google_message2/benchmark_message2.proto",
	)
	ds := mustFind(t, s, "benchmarks.BenchmarkDataset")
	cases := []struct {
		file string
		size int // canonical size of the first payload; 0 if not pinned
	}{
		{"datasets/google_message1/proto2/dataset.google_message1_proto2.pb", 0},
		{"datasets/google_message1/proto3/dataset.google_message1_proto3.pb", 221},
		{"datasets/google_message2/dataset.google_message2.pb", 0},
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(dir, c.file))
			if err != nil {
				t.Fatal(err)
			}
			dataset, err := s.Unmarshal(ds, raw)
			if err != nil {
				t.Fatal(err)
			}
			name := dataset.Get(ds.Fields().ByName("message_name")).String()
			md := mustFind(t, s, name)
			list := dataset.Get(ds.Fields().ByName("payload")).List()
			if list.Len() == 0 {
				t.Fatal("dataset has no payloads")
			}
			for i := 0; i < list.Len(); i++ {
				p := list.Get(i).Bytes()
				canon := canonical(t, s, md, p)
				if i == 0 && c.size != 0 && len(canon) != c.size {
					t.Errorf("%s payload 0 re-encodes to %d bytes, want %d", name, len(canon), c.size)
				}
				dec, err := s.Decode(md, p, DecodeOptions{In: Binary})
				if err != nil {
					t.Fatalf("payload %d: decode: %v", i, err)
				}
				enc, err := s.Encode(md, []byte(dec.Messages[0]), EncodeOptions{})
				if err != nil {
					t.Fatalf("payload %d: encode: %v", i, err)
				}
				if !bytes.Equal(enc, canon) {
					t.Errorf("payload %d: JSON round trip gives %d bytes, canonical re-encoding %d", i, len(enc), len(canon))
				}
				if v, err := s.WireView(md, p); err != nil || v.Error != nil {
					t.Errorf("payload %d: wire view: %v", i, err)
				}
				if _, err := DecodeRaw(p); err != nil {
					t.Errorf("payload %d: raw decode: %v", i, err)
				}
			}
			t.Logf("%s: %d payloads round-tripped", name, list.Len())
		})
	}
}

// canonical is the deterministic re-encoding of payload p as type md.
func canonical(t *testing.T, s *Schema, md protoreflect.MessageDescriptor, p []byte) []byte {
	t.Helper()
	m := dynamicpb.NewMessage(md)
	if err := (proto.UnmarshalOptions{Resolver: s.Types}).Unmarshal(p, m); err != nil {
		t.Fatal(err)
	}
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
