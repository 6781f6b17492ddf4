package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/protoplay/protoplay/internal/gentest"
)

// benchmarks returns ../shared/corpus/benchmarks and GoogleMessage1's
// recorded payload (the first of its dataset), or skips t.
func benchmarks(t *testing.T) (string, []byte) {
	t.Helper()
	shared, ok := gentest.SharedDir()
	if !ok {
		t.Skip("../shared is absent (set PROTOPLAY_SHARED)")
	}
	root := filepath.Join(shared, "corpus", "benchmarks")
	b, err := os.ReadFile(filepath.Join(root, "datasets/google_message1/proto2/dataset.google_message1_proto2.pb"))
	if err != nil {
		t.Skip(err)
	}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		b = b[n:]
		if num == 3 {
			v, _ := protowire.ConsumeBytes(b)
			return root, v
		}
		b = b[protowire.ConsumeFieldValue(num, typ, b):]
	}
	t.Fatal("no payload in the dataset")
	return "", nil
}

func runCLI(t *testing.T, stdin []byte, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, bytes.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// TestDecodeTypeAuto ranks the corpus benchmark types for GoogleMessage1's
// payload and decodes with the best.
func TestDecodeTypeAuto(t *testing.T) {
	root, payload := benchmarks(t)
	args := []string{"decode", "-I", root, "--type", "auto", "--in", "binary",
		"benchmarks.proto", "google_size.proto",
		"datasets/google_message1/proto2/benchmark_message1_proto2.proto",
		"datasets/google_message1/proto3/benchmark_message1_proto3.proto",
		"datasets/google_message2/benchmark_message2.proto"}
	code, out, errOut := runCLI(t, payload, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// The ranking comes first: the schema's warnings are gen's and
	// check's, not decode's.
	if strings.Contains(errOut, "warning:") {
		t.Errorf("decode printed the schema's warnings:\n%s", errOut)
	}
	lines := strings.Split(errOut, "\n")
	if len(lines) < 3 || !strings.Contains(lines[1], " 1  1.000  benchmarks.proto2.GoogleMessage1 ") && !strings.Contains(lines[2], " 1  1.000  benchmarks.proto2.GoogleMessage1 ") {
		t.Errorf("ranking:\n%s", errOut)
	}
	if !strings.Contains(errOut, "# decoding as ") || !strings.Contains(out, `"field1": "`) {
		t.Errorf("decoded:\n%s\n%s", errOut, out)
	}
	// A payload that is no message at all: exit 1, with the offset.
	code, _, errOut = runCLI(t, []byte{0x0a, 0x09, 0x01}, args...)
	if code != 1 || !strings.Contains(errOut, "at byte 1") {
		t.Errorf("bad payload: exit %d: %s", code, errOut)
	}
}

// TestDescriptorSetIn decodes and generates from descriptor sets written
// by protoc, two of them joined with ':' as protoc spells the list.
func TestDescriptorSetIn(t *testing.T) {
	protoc, err := exec.LookPath("protoc")
	if err != nil {
		t.Skip("no protoc on PATH")
	}
	root, payload := benchmarks(t)
	dir := t.TempDir()
	gm1 := filepath.Join(dir, "gm1.binpb")
	ds := filepath.Join(dir, "ds.binpb")
	for _, c := range [][]string{
		{"--include_imports", "--descriptor_set_out=" + gm1, "datasets/google_message1/proto2/benchmark_message1_proto2.proto"},
		{"--descriptor_set_out=" + ds, "benchmarks.proto"},
	} {
		cmd := exec.Command(protoc, append([]string{"-I", root}, c...)...)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("protoc: %v\n%s", err, b)
		}
	}
	sets := gm1 + string(os.PathListSeparator) + ds
	code, fromSet, errOut := runCLI(t, payload, "decode", "--descriptor_set_in", sets, "--type", "benchmarks.proto2.GoogleMessage1", "--in", "binary")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	_, fromSource, _ := runCLI(t, payload, "decode", "-I", root, "--type", "benchmarks.proto2.GoogleMessage1", "--in", "binary", "datasets/google_message1/proto2/benchmark_message1_proto2.proto")
	if fromSet != fromSource || fromSet == "" {
		t.Errorf("decoded with the set:\n%s\nwith the source:\n%s", fromSet, fromSource)
	}
	// --type auto over the sets' types.
	if code, _, errOut := runCLI(t, payload, "decode", "--descriptor_set_in="+sets, "--type", "auto", "--in", "binary"); code != 0 || !strings.Contains(errOut, "benchmarks.proto2.GoogleMessage1") {
		t.Errorf("auto with sets: exit %d: %s", code, errOut)
	}
	// gen: the set's named file, as protoc --descriptor_set_in takes it.
	out := filepath.Join(dir, "out")
	if code, _, errOut := runCLI(t, nil, "gen", "--descriptor_set_in", sets, "-o", out, "--opt", "M"+"benchmarks.proto=example.com/bench", "benchmarks.proto"); code != 0 {
		t.Fatalf("gen: exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(out, "example.com/bench/benchmarks.pb.go")); err != nil {
		var found []string
		filepath.Walk(out, func(p string, _ os.FileInfo, _ error) error { found = append(found, p); return nil })
		t.Errorf("gen wrote %v", found)
	}
	// A file that is not a set: exit 1, named.
	bad := filepath.Join(dir, "bad.binpb")
	os.WriteFile(bad, []byte("not a set"), 0o644)
	if code, _, errOut := runCLI(t, payload, "decode", "--descriptor_set_in", bad, "--type", "x.Y"); code != 1 || !strings.Contains(errOut, bad+": not a FileDescriptorSet") {
		t.Errorf("bad set: exit %d: %s", code, errOut)
	}
}

// TestInferCommand infers a schema from two payload files and decodes
// both through it.
func TestInferCommand(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.bin")
	b := filepath.Join(dir, "b.hex")
	os.WriteFile(a, []byte{0x08, 0x96, 0x01, 0x12, 0x02, 0x68, 0x69, 0x1a, 0x02, 0x08, 0x01}, 0o644)
	os.WriteFile(b, []byte("08 01 12 00 12 01 78\n"), 0o644)
	proto := filepath.Join(dir, "order.proto")
	code, _, errOut := runCLI(t, nil, "infer", "--name", "Order", "--package", "shop", "-o", proto, a, b)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	text, _ := os.ReadFile(proto)
	for _, want := range []string{"package shop;", "message Order {", "int64 field1 = 1;", "repeated string field2 = 2;", "Field3Message field3 = 3;"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	code, out, errOut := runCLI(t, []byte("08 96 01 12 02 68 69 1a 02 08 01"), "decode", "-I", dir, "--type", "shop.Order", "--out", "text", "order.proto")
	if code != 0 || out != "field1: 150\nfield2: \"hi\"\nfield3: {\n  field1: true\n}\n" {
		t.Errorf("decode through the inferred schema: exit %d\n%s%s", code, out, errOut)
	}
	// A stream: every message is a sample.
	code, out, errOut = runCLI(t, []byte("02 08 01 03 12 01 61"), "infer", "--delimited")
	if code != 0 || !strings.Contains(out, "bool field1 = 1;") || !strings.Contains(out, "string field2 = 2;") {
		t.Errorf("infer --delimited: exit %d\n%s%s", code, out, errOut)
	}
	// Errors: a truncated payload names its file and byte; no input is
	// usage.
	os.WriteFile(b, []byte("08 01 12 05 61"), 0o644)
	if code, _, errOut := runCLI(t, nil, "infer", a, b); code != 1 || !strings.Contains(errOut, b+": at byte 3") {
		t.Errorf("truncated payload: exit %d: %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, nil, "infer", "--name", "9x"); code != 2 {
		t.Errorf("bad name: exit %d: %s", code, errOut)
	}
}

// TestDecodeDelimitedOffsets checks --delimited's listing: each message
// with its byte offset in the stream.
func TestDecodeDelimitedOffsets(t *testing.T) {
	code, out, errOut := runCLI(t, []byte("03 08 96 01 03 12 01 61 00"), "decode", "--raw", "--delimited")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"# message 0 at byte 1 ", "# message 1 at byte 5 ", "# message 2 at byte 9 "} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	code, _, errOut = runCLI(t, []byte("03 08 96 01 05 12"), "decode", "--raw", "--delimited")
	if code != 1 || !strings.Contains(errOut, "at byte 4") {
		t.Errorf("bad prefix: exit %d: %s", code, errOut)
	}
}
