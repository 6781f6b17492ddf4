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
