package compiler_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/internal/gentest"
)

// inferRoundTrip infers a schema from samples, compiles it with the front
// end, and checks that every sample decodes under it with no unknown field
// and the same wire structure as the schema-less decode.
func inferRoundTrip(t *testing.T, name string, samples [][]byte) string {
	t.Helper()
	text, err := compiler.Infer(samples, compiler.InferOptions{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	res := compiler.Compile(context.Background(), compiler.Request{Sources: compiler.Sources{"inferred.proto": text}, NoGenerate: true})
	s, err := res.Schema()
	if err != nil {
		t.Fatalf("%s: the inferred schema does not compile: %v\n%s", name, err, text)
	}
	for i, b := range samples {
		v, err := s.WireView("Inferred", b)
		if err != nil {
			t.Fatalf("%s: sample %d: %v\n%s", name, i, err, text)
		}
		raw, err := compiler.DecodeRaw(b)
		if err != nil {
			t.Fatal(err)
		}
		if msg := sameStructure(v.Fields, raw.Fields, "#"); msg != "" {
			t.Fatalf("%s: sample %d: %s\n%s", name, i, msg, text)
		}
		if _, err := s.Decode("Inferred", b, compiler.DecodeOptions{In: compiler.Binary}); err != nil {
			t.Fatalf("%s: sample %d does not decode: %v\n%s", name, i, err, text)
		}
	}
	return text
}

// sameStructure compares a wire view under the inferred schema with the
// raw view of the same bytes: the same fields (offset, length, number,
// wire type), none unknown, and inside every field the inferred schema
// reads as a message, the same again.
func sameStructure(got, raw []compiler.Field, path string) string {
	if len(got) != len(raw) {
		return path + ": " + itoa(len(got)) + " fields, raw decode " + itoa(len(raw))
	}
	for i, g := range got {
		r := raw[i]
		p := path + itoa(int(g.Number))
		if g.Unknown {
			return p + ": unknown field"
		}
		if g.Offset != r.Offset || g.Length != r.Length || g.Number != r.Number || g.WireType != r.WireType {
			return p + ": field differs from the raw decode"
		}
		if g.Nested {
			if !r.Nested {
				return p + ": read as a message, raw decode does not"
			}
			if msg := sameStructure(g.Children, r.Children, p+".#"); msg != "" {
				return msg
			}
		}
	}
	return ""
}

// TestInferDatasets infers schemas from the recorded GoogleMessage1 and
// GoogleMessage2 payloads, their schemas hidden.
// TestInferDeepest: a payload nesting messages one past MaxInferDepth
// infers a schema that compiles (its deepest value declared bytes), and
// one at the limit declares every level a message (a hostile pass found
// MaxInferDepth one past what protocompile takes: the schema of a payload
// 32 messages deep did not compile).
func TestInferDeepest(t *testing.T) {
	for _, levels := range []int{compiler.MaxInferDepth, compiler.MaxInferDepth + 1} {
		m := []byte{0x08, 0x01}
		for range levels - 1 {
			m = append([]byte{0x0a, byte(len(m))}, m...)
		}
		text := inferRoundTrip(t, itoa(levels)+" levels", [][]byte{m})
		if got := strings.Count(text, "message "); got != min(levels, compiler.MaxInferDepth) {
			t.Errorf("%d levels: %d message types\n%s", levels, got, text)
		}
	}
}

func TestInferDatasets(t *testing.T) {
	_, root := benchmarkSources(t)
	for _, ds := range []string{
		"datasets/google_message1/proto2/dataset.google_message1_proto2.pb",
		"datasets/google_message2/dataset.google_message2.pb",
	} {
		text := inferRoundTrip(t, ds, datasetPayloads(t, root, ds))
		t.Logf("%s: %d lines of .proto", ds, strings.Count(text, "\n"))
	}
}

// TestInferCorpusSamples infers a schema from the sample payload (every
// field set) of each message type of the corpus's benchmark schemas and of
// protobuf's conformance test messages, the schema hidden.
func TestInferCorpusSamples(t *testing.T) {
	files, _ := benchmarkSources(t)
	shared, _ := gentest.SharedDir()
	pb := filepath.Join(shared, "corpus", "protobuf")
	sets := []compiler.Request{{Sources: files}}
	if _, err := os.Stat(pb); err == nil {
		sets = append(sets, compiler.Request{FS: os.DirFS(pb), Files: []string{"google/protobuf/test_messages_proto2.proto", "google/protobuf/test_messages_proto3.proto"}})
	}
	n := 0
	for _, req := range sets {
		req.NoGenerate = true
		res := compiler.Compile(context.Background(), req)
		s, err := res.Schema()
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range s.Messages() {
			sample, err := s.Sample(m.Name, compiler.Text)
			if err != nil {
				// A recursive required field cuts the sample short.
				t.Logf("%s: no sample: %v", m.Name, err)
				continue
			}
			b, err := s.Encode(m.Name, []byte(sample), compiler.Text, compiler.Binary)
			if err != nil {
				t.Fatalf("%s: %v", m.Name, err)
			}
			if len(b) == 0 {
				continue
			}
			inferRoundTrip(t, m.Name, [][]byte{b})
			n++
		}
	}
	t.Logf("%d message types' samples round-tripped", n)
}
