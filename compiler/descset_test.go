package compiler_test

import (
	"context"
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/protoplay/protoplay/compiler"
)

// setOf serializes files and their imports as a FileDescriptorSet, imports
// first, as protoc --include_imports --include_source_info writes it.
func setOf(t *testing.T, files []protoreflect.FileDescriptor) []byte {
	t.Helper()
	var fds descriptorpb.FileDescriptorSet
	seen := map[string]bool{}
	var add func(fd protoreflect.FileDescriptor)
	add = func(fd protoreflect.FileDescriptor) {
		if seen[fd.Path()] {
			return
		}
		seen[fd.Path()] = true
		for i := 0; i < fd.Imports().Len(); i++ {
			add(fd.Imports().Get(i).FileDescriptor)
		}
		fds.File = append(fds.File, protodesc.ToFileDescriptorProto(fd))
	}
	for _, fd := range files {
		add(fd)
	}
	b, err := proto.Marshal(&fds)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const setSchema = `syntax = "proto3";
package shop;
option go_package = "example.com/shop";
import "google/protobuf/timestamp.proto";
// An order.
message Order {
  int64 id = 1;
  repeated string items = 2;
  google.protobuf.Timestamp at = 3;
  Status status = 4;
}
enum Status { STATUS_UNSPECIFIED = 0; PAID = 1; }
`

// TestDescriptorSetGenerate checks that a descriptor set's files generate
// the same Go, byte for byte, as the sources it was built from, and
// decode the same payloads.
func TestDescriptorSetGenerate(t *testing.T) {
	ctx := context.Background()
	src := compiler.Compile(ctx, compiler.Request{Sources: compiler.Sources{"shop.proto": setSchema}})
	if err := src.Err(); err != nil {
		t.Fatal(err)
	}
	set := setOf(t, src.Files)
	fromSet := compiler.Compile(ctx, compiler.Request{DescriptorSets: []compiler.DescriptorSet{{Name: "shop.binpb", Data: set}}, Files: []string{"shop.proto"}})
	if err := fromSet.Err(); err != nil {
		t.Fatal(err)
	}
	if len(fromSet.Generated) != len(src.Generated) {
		t.Fatalf("%d files generated from the set, %d from the sources", len(fromSet.Generated), len(src.Generated))
	}
	for i, f := range src.Generated {
		if g := fromSet.Generated[i]; g.Name != f.Name || g.Content != f.Content {
			t.Errorf("%s: the set's Go differs from the sources' (%s)", f.Name, g.Name)
		}
	}
	// Through a Workspace, as the page and the npm package send it: a
	// Files entry named *.binpb holding the set in base64.
	w := &compiler.Workspace{}
	files := compiler.Sources{"shop.binpb": base64.StdEncoding.EncodeToString(set)}
	enc, err := w.Encode(ctx, compiler.EncodeRequest{Files: files, Type: "shop.Order", Input: `{"id": "7", "items": ["a"], "at": "2024-01-02T03:04:05Z", "status": "PAID"}`})
	if err != nil {
		t.Fatal(err)
	}
	dec, err := w.Decode(ctx, compiler.DecodeRequest{Files: files, Type: "shop.Order", Input: enc.Hex})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(dec.Value, `"status": "PAID"`) || !strings.Contains(dec.Value, `"at": "2024-01-02T03:04:05Z"`) {
		t.Errorf("decoded %s", dec.Value)
	}
	cr, err := w.Compile(ctx, compiler.CompileRequest{Files: files})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range cr.Messages {
		names = append(names, m.Name+"@"+m.File)
	}
	// The set carries timestamp.proto for its import: an import here too,
	// its types not listed, its Go not generated.
	if got := strings.Join(names, " "); !strings.Contains(got, "shop.Order@shop.proto") || strings.Contains(got, "google.protobuf.Timestamp") {
		t.Errorf("messages %s", got)
	}
	// The editor's symbols of a workspace holding a set (no source
	// positions): no error.
	if _, err := w.Symbols(ctx, compiler.CompileRequest{Files: files}); err != nil {
		t.Errorf("symbols: %v", err)
	}
	// The Go module of the set's files, as the page's Run gets it.
	if out, cerr := w.CallFiles(ctx, "module", []byte(`{}`), files); cerr != nil {
		t.Errorf("module: %v", cerr)
	} else if !strings.Contains(string(out), `"type":"shop.Order"`) || !strings.Contains(string(out), "shop.pb.go") {
		t.Errorf("module: %.300s", out)
	}
	gr, err := w.Generate(ctx, compiler.CompileRequest{Files: files})
	if err != nil {
		t.Fatal(err)
	}
	if len(gr.Generated) != 1 || gr.Generated[0].Content != src.Generated[0].Content {
		t.Errorf("the workspace generated %d files from the set, want shop.proto's Go", len(gr.Generated))
	}
}

// TestDescriptorSetProtoc decodes GoogleMessage1's recorded payload with a
// descriptor set written by protoc, when protoc is on PATH.
func TestDescriptorSetProtoc(t *testing.T) {
	protoc, err := exec.LookPath("protoc")
	if err != nil {
		t.Skip("no protoc on PATH")
	}
	files, root := benchmarkSources(t)
	_ = files
	out := filepath.Join(t.TempDir(), "gm1.binpb")
	cmd := exec.Command(protoc, "-I", root, "--include_imports", "--descriptor_set_out="+out, "datasets/google_message1/proto2/benchmark_message1_proto2.proto")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("protoc: %v\n%s", err, b)
	}
	set, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	res := compiler.Compile(context.Background(), compiler.Request{DescriptorSets: []compiler.DescriptorSet{{Name: "gm1.binpb", Data: set}}, NoGenerate: true})
	s, err := res.Schema()
	if err != nil {
		t.Fatal(err)
	}
	p := datasetPayloads(t, root, "datasets/google_message1/proto2/dataset.google_message1_proto2.pb")[0]
	d, err := s.Decode("benchmarks.proto2.GoogleMessage1", p, compiler.DecodeOptions{In: compiler.Binary})
	if err != nil {
		t.Fatal(err)
	}
	want, err := benchmarkSchema(t, files).Decode("benchmarks.proto2.GoogleMessage1", p, compiler.DecodeOptions{In: compiler.Binary})
	if err != nil {
		t.Fatal(err)
	}
	if d.Messages[0] != want.Messages[0] {
		t.Errorf("decoded with protoc's set:\n%s\nwith the sources:\n%s", d.Messages[0], want.Messages[0])
	}
}

func TestDescriptorSetErrors(t *testing.T) {
	ctx := context.Background()
	src := compiler.Compile(ctx, compiler.Request{Sources: compiler.Sources{"shop.proto": setSchema}, NoGenerate: true})
	good := setOf(t, src.Files)
	var fds descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(good, &fds); err != nil {
		t.Fatal(err)
	}
	// Without its imports (protoc without --include_imports) but for
	// timestamp.proto, which is standard: still fine.
	only := &descriptorpb.FileDescriptorSet{File: fds.File[len(fds.File)-1:]}
	onlyB, _ := proto.Marshal(only)
	if res := compiler.Compile(ctx, compiler.Request{DescriptorSets: []compiler.DescriptorSet{{Name: "only.binpb", Data: onlyB}}, NoGenerate: true}); res.HasErrors() {
		t.Errorf("a set importing a standard file: %v", res.Diagnostics)
	}
	missing := proto.Clone(only).(*descriptorpb.FileDescriptorSet)
	missing.File[0].Dependency = append(missing.File[0].Dependency, "other/dep.proto")
	missingB, _ := proto.Marshal(missing)
	changed := proto.Clone(only).(*descriptorpb.FileDescriptorSet)
	changed.File[0].Package = proto.String("other")
	changedB, _ := proto.Marshal(changed)
	for _, c := range []struct {
		name    string
		sets    []compiler.DescriptorSet
		sources compiler.Sources
		want    string
	}{
		{"not a set", []compiler.DescriptorSet{{Name: "bad.binpb", Data: []byte{0x0a, 0x05, 0x01}}}, nil, "bad.binpb: not a FileDescriptorSet: at byte 1"},
		{"not a set, as text", nil, compiler.Sources{"bad.pb": "hello, world"}, "bad.pb: not a FileDescriptorSet"},
		{"missing import", []compiler.DescriptorSet{{Name: "m.binpb", Data: missingB}}, nil, "m.binpb: shop.proto imports other/dep.proto, which is not in the descriptor set"},
		{"two versions", []compiler.DescriptorSet{{Name: "a.binpb", Data: onlyB}, {Name: "b.binpb", Data: changedB}}, nil, "b.binpb: shop.proto differs from the file of the same name in a.binpb"},
		{"source clash", []compiler.DescriptorSet{{Name: "a.binpb", Data: onlyB}}, compiler.Sources{"shop.proto": setSchema}, "shop.proto: shop.proto is both a source file and a file of descriptor set a.binpb"},
		{"empty", []compiler.DescriptorSet{{Name: "e.binpb"}}, nil, "e.binpb: the descriptor set holds no file"},
		{"too big", []compiler.DescriptorSet{{Name: "big.binpb", Data: make([]byte, compiler.MaxInputBytes+1)}}, nil, "(MaxInputBytes)"},
	} {
		res := compiler.Compile(ctx, compiler.Request{DescriptorSets: c.sets, Sources: c.sources, NoGenerate: true})
		if !res.HasErrors() {
			t.Errorf("%s: no error", c.name)
			continue
		}
		if got := res.Diagnostics[0].String(); !strings.Contains(got, c.want) {
			t.Errorf("%s: %s, want %q", c.name, got, c.want)
		}
	}
}

// TestDescriptorSetMessageSet links a protoc set whose files declare
// MessageSets (GoogleMessage3 and 4), which protodesc refuses.
func TestDescriptorSetMessageSet(t *testing.T) {
	protoc, err := exec.LookPath("protoc")
	if err != nil {
		t.Skip("no protoc on PATH")
	}
	_, root := benchmarkSources(t)
	out := filepath.Join(t.TempDir(), "gm34.binpb")
	cmd := exec.Command(protoc, "-I", root, "--include_imports", "--descriptor_set_out="+out,
		"datasets/google_message3/benchmark_message3.proto", "datasets/google_message4/benchmark_message4.proto")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("protoc: %v\n%s", err, b)
	}
	set, _ := os.ReadFile(out)
	res := compiler.Compile(context.Background(), compiler.Request{DescriptorSets: []compiler.DescriptorSet{{Name: "gm34.binpb", Data: set}}, NoGenerate: true})
	s, err := res.Schema()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.Messages()); n < 100 {
		t.Errorf("%d message types", n)
	}
	if _, err := s.Sample("benchmarks.google_message3.GoogleMessage3", compiler.JSON); err != nil {
		t.Error(err)
	}
}

// TestDescriptorSetBufImage reads a buf image (buf build -o image.binpb):
// a FileDescriptorSet whose files carry buf's ImageFileExtension as field
// 8042, which is ignored.
func TestDescriptorSetBufImage(t *testing.T) {
	ctx := context.Background()
	src := compiler.Compile(ctx, compiler.Request{Sources: compiler.Sources{"shop.proto": setSchema}, NoGenerate: true})
	var fds descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(setOf(t, src.Files), &fds); err != nil {
		t.Fatal(err)
	}
	for _, f := range fds.File {
		// buf_extension { is_import: true, module_info { name { remote: "buf.build" } } }
		ext := protowire.AppendTag(nil, 8042, protowire.BytesType)
		ext = protowire.AppendBytes(ext, []byte{0x08, 0x01, 0x22, 0x0b, 0x0a, 0x09, 'b', 'u', 'f', '.', 'b', 'u', 'i', 'l', 'd'})
		f.ProtoReflect().SetUnknown(ext)
	}
	image, _ := proto.Marshal(&fds)
	res := compiler.Compile(ctx, compiler.Request{DescriptorSets: []compiler.DescriptorSet{{Name: "image.binpb", Data: image}}, NoGenerate: true})
	s, err := res.Schema()
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Encode("shop.Order", []byte(`{"id": "1"}`), compiler.JSON, compiler.Hex)
	if err != nil || string(b) != "08 01" {
		t.Errorf("encoded %q, %v", b, err)
	}
}
