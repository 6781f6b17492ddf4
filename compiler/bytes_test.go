package compiler_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/payload"
	"github.com/protoplay/protoplay/internal/gentest"
)

// benchmarkSources reads every .proto file of ../shared/corpus/benchmarks,
// named as its imports name them, or skips t.
func benchmarkSources(t testing.TB) (compiler.Sources, string) {
	t.Helper()
	shared, ok := gentest.SharedDir()
	if !ok {
		t.Skip("../shared is absent: skipping the corpus benchmark types (set PROTOPLAY_SHARED)")
	}
	root := filepath.Join(shared, "corpus", "benchmarks")
	files := compiler.Sources{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".proto") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		t.Skipf("../shared/corpus/benchmarks: %v", err)
	}
	return files, root
}

// datasetPayloads reads the payloads of a benchmarks.BenchmarkDataset
// file (field 3, repeated bytes) under root.
func datasetPayloads(t testing.TB, root, name string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		t.Skipf("%s: %v", name, err)
	}
	var out [][]byte
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			t.Fatalf("%s: bad tag", name)
		}
		b = b[n:]
		if num == 3 && typ == protowire.BytesType {
			v, m := protowire.ConsumeBytes(b)
			out = append(out, v)
			b = b[m:]
			continue
		}
		m := protowire.ConsumeFieldValue(num, typ, b)
		if m < 0 {
			t.Fatalf("%s: bad field", name)
		}
		b = b[m:]
	}
	if len(out) == 0 {
		t.Fatalf("%s holds no payload", name)
	}
	return out
}

func benchmarkSchema(t testing.TB, files compiler.Sources) *compiler.Schema {
	t.Helper()
	res := compiler.Compile(context.Background(), compiler.Request{Sources: files, NoGenerate: true})
	s, err := res.Schema()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestRankTypesGoogleMessage1(t *testing.T) {
	files, root := benchmarkSources(t)
	s := benchmarkSchema(t, files)
	ps, err := payload.NewSchema(compiler.Compile(context.Background(), compiler.Request{Sources: files, NoGenerate: true}).Files)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ dataset, want string }{
		{"datasets/google_message1/proto2/dataset.google_message1_proto2.pb", "benchmarks.proto2.GoogleMessage1"},
		// The proto3 dataset's payload is the proto2 one's: it writes zero
		// values that proto3's implicit presence would leave out, so the
		// proto2 type fits it better (Fit.ZeroImplicit).
		{"datasets/google_message1/proto3/dataset.google_message1_proto3.pb", "benchmarks.proto2.GoogleMessage1"},
		{"datasets/google_message2/dataset.google_message2.pb", "benchmarks.proto2.GoogleMessage2"},
	} {
		p := datasetPayloads(t, root, c.dataset)[0]
		fits, err := s.RankTypes(p, 5)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, f := range fits {
			t.Logf("%s: #%d %s %.4f known %d unknown %d mismatched %d bad %d", filepath.Base(c.dataset), f.Rank, f.Type, f.Score, f.Known, f.Unknown, f.Mismatched, f.BadStrings)
			if f.Rank != 1 {
				continue
			}
			if f.Score != 1 || f.Unknown+f.Mismatched+f.BadStrings != 0 {
				t.Errorf("%s: rank 1 %s scores %v", c.dataset, f.Type, f.Score)
			}
			found = found || f.Type == c.want
			// The corpus declares some types twice (GoogleMessage1 in
			// proto2 and proto3, SizeMessage1 a copy of it for
			// optimize_for = CODE_SIZE): those share rank 1, and only
			// those, since no byte tells them apart.
			if got, want := shape(t, ps, f.Type), shape(t, ps, c.want); got != want {
				t.Errorf("%s: %s shares rank 1 with %s but declares other fields:\n%s\nvs\n%s", c.dataset, f.Type, c.want, got, want)
			}
		}
		if !found {
			t.Errorf("%s: %s not ranked first", c.dataset, c.want)
		}
		for _, f := range fits {
			if f.Type == "benchmarks.proto3.GoogleMessage1" && (f.Rank == 1 || f.ZeroImplicit == 0) {
				t.Errorf("%s: proto3's GoogleMessage1 ranked %d with %d zero implicit-presence fields; want below proto2's, for its zero values", c.dataset, f.Rank, f.ZeroImplicit)
			}
		}
		if fits[len(fits)-1].Rank == 1 {
			t.Errorf("%s: no type ranked below the first", c.dataset)
		}
	}
}

// shape lists the field numbers and wire types of a message type and of
// its message fields' types, as text.
func shape(t *testing.T, s *payload.Schema, typ string) string {
	t.Helper()
	md, err := s.FindMessage(typ)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	fields := md.Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		fmt.Fprintf(&sb, "%d:%v:%v ", fd.Number(), fd.Kind(), fd.IsList())
		if fd.Message() != nil {
			sub := fd.Message().Fields()
			for j := 0; j < sub.Len(); j++ {
				fmt.Fprintf(&sb, "[%d:%v]", sub.Get(j).Number(), sub.Get(j).Kind())
			}
		}
	}
	return sb.String()
}

const streamSchema = `syntax = "proto3"; package s; message M { int64 id = 1; string name = 2; }`

// TestWorkspaceStream lists a three-message stream with each message's
// offsets, decoded and raw, and says where a stream or a message breaks.
func TestWorkspaceStream(t *testing.T) {
	ctx := context.Background()
	w := &compiler.Workspace{}
	files := compiler.Sources{"s.proto": streamSchema}
	// 08 96 01 (id 150) | 12 01 61 (name "a") | empty
	stream := "03 08 96 01 03 12 01 61 00"
	r, err := w.Stream(ctx, compiler.StreamRequest{Files: files, Type: "s.M", Input: stream})
	if err != nil {
		t.Fatal(err)
	}
	want := []compiler.StreamMessage{
		{PrefixOffset: 0, Offset: 1, Size: 3, Value: "{\n  \"id\": \"150\"\n}\n"},
		{PrefixOffset: 4, Offset: 5, Size: 3, Value: "{\n  \"name\": \"a\"\n}\n"},
		{PrefixOffset: 8, Offset: 9, Size: 0, Value: "{}\n"},
	}
	if len(r.Messages) != len(want) || r.Error != nil || r.Size != 9 {
		t.Fatalf("stream %+v", r)
	}
	for i, m := range r.Messages {
		if m.PrefixOffset != want[i].PrefixOffset || m.Offset != want[i].Offset || m.Size != want[i].Size || m.Value != want[i].Value || m.Error != nil {
			t.Errorf("message %d: %+v, want %+v", i, m, want[i])
		}
	}
	raw, err := w.Stream(ctx, compiler.StreamRequest{Input: stream})
	if err != nil || len(raw.Messages) != 3 || raw.Messages[2].Offset != 9 || raw.Messages[0].Value != "" {
		t.Fatalf("raw stream %+v %v", raw, err)
	}
	// The second message's LEN is cut short (at stream byte 6); the
	// third prefix runs past the end (at byte 8).
	bad, err := w.Stream(ctx, compiler.StreamRequest{Files: files, Type: "s.M", Input: "03 08 96 01 03 12 05 61 09 01"})
	if err != nil {
		t.Fatal(err)
	}
	if len(bad.Messages) != 2 || bad.Messages[0].Error != nil || bad.Messages[1].Error == nil || bad.Messages[1].Error.Offset != 6 || bad.Messages[1].Error.Record != 1 {
		t.Fatalf("bad stream messages %+v", bad.Messages)
	}
	if bad.Error == nil || bad.Error.Kind != compiler.KindPayload || bad.Error.Offset != 8 || bad.Error.Record != 2 {
		t.Errorf("bad stream error %+v", bad.Error)
	}
	if _, err := w.Stream(ctx, compiler.StreamRequest{Files: files, Type: "s.Nope", Input: stream}); err == nil {
		t.Error("no error for an unknown type")
	}
}

// TestWorkspaceBytesCalls runs rankTypes, infer and stream through the
// JSON API, as the wasm bridge does.
func TestWorkspaceBytesCalls(t *testing.T) {
	ctx := context.Background()
	w := &compiler.Workspace{}
	files := compiler.Sources{"s.proto": streamSchema + ` message Other { string id = 1; }`}
	out, cerr := w.CallFiles(ctx, "rankTypes", []byte(`{"input": "08 96 01 12 01 61"}`), files)
	if cerr != nil {
		t.Fatal(cerr)
	}
	if !strings.Contains(string(out), `"fits":[{"type":"s.M","score":1,`) {
		t.Errorf("rankTypes: %s", out)
	}
	out, cerr = w.CallFiles(ctx, "infer", []byte(`{"inputs": ["08 96 01 12 01 61", "CAE="], "name": "Order"}`), nil)
	if cerr != nil {
		t.Fatal(cerr)
	}
	if !strings.Contains(string(out), `"file":"order.proto"`) || !strings.Contains(string(out), `message Order {`) {
		t.Errorf("infer: %s", out)
	}
	_, cerr = w.CallFiles(ctx, "infer", []byte(`{"inputs": ["08 01", "08 96"]}`), nil)
	if cerr == nil || cerr.Kind != compiler.KindPayload || cerr.Record != 1 || cerr.Offset != 1 {
		t.Errorf("infer of a truncated second payload: %+v", cerr)
	}
	out, cerr = w.CallFiles(ctx, "stream", []byte(`{"type": "s.M", "input": "0308960100"}`), files)
	if cerr != nil {
		t.Fatal(cerr)
	}
	if !strings.Contains(string(out), `{"prefixOffset":4,"offset":5,"size":0,"value":"{}\n"}`) {
		t.Errorf("stream: %s", out)
	}
}

// TestBytesLimits: the limits of rankTypes, infer and stream, named.
func TestBytesLimits(t *testing.T) {
	ctx := context.Background()
	w := &compiler.Workspace{}
	// More types than MaxFitFinalists, all fitting: at most
	// MaxFitResults come back, however many are asked for.
	var sb strings.Builder
	sb.WriteString(`syntax = "proto3"; package many;`)
	for i := 0; i < payload.MaxFitFinalists+10; i++ {
		fmt.Fprintf(&sb, " message M%d { int32 a = 1; }", i)
	}
	files := compiler.Sources{"many.proto": sb.String()}
	r, err := w.RankTypes(ctx, compiler.RankRequest{Files: files, Input: "0801", Count: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Fits) != compiler.MaxFitResults || r.Fits[compiler.MaxFitResults-1].Rank != 1 {
		t.Errorf("%d fits (last ranked %d), want %d sharing rank 1", len(r.Fits), r.Fits[len(r.Fits)-1].Rank, compiler.MaxFitResults)
	}
	// MaxInferSamples payloads, and one more.
	inputs := make([]string, compiler.MaxInferSamples+1)
	for i := range inputs {
		inputs[i] = "0801"
	}
	if _, err := w.Infer(ctx, compiler.InferRequest{Inputs: inputs[1:]}); err != nil {
		t.Errorf("%d payloads: %v", compiler.MaxInferSamples, err)
	}
	if _, err := w.Infer(ctx, compiler.InferRequest{Inputs: inputs}); err == nil || err.(*compiler.Error).Limit != "MaxInferSamples" {
		t.Errorf("%d payloads: %v, want the MaxInferSamples limit", len(inputs), err)
	}
	// MaxStreamMessages listed, the rest counted.
	stream := strings.Repeat("00", compiler.MaxStreamMessages+2)
	s, err := w.Stream(ctx, compiler.StreamRequest{Input: stream, Encoding: compiler.Hex})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Messages) != compiler.MaxStreamMessages || s.Unlisted != 2 || s.Messages[compiler.MaxStreamMessages-1].Offset != compiler.MaxStreamMessages {
		t.Errorf("%d messages listed, %d unlisted", len(s.Messages), s.Unlisted)
	}
}
