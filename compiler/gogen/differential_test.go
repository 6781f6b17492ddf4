package gogen_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
	"github.com/protoplay/protoplay/internal/gentest"
)

// TestDifferential generates test_messages_proto2/proto3, GoogleMessage1
// (proto2 and proto3) and GoogleMessage2, and runs testdata/difftest.go.txt
// against them in a temporary module: every message type is compared with
// google.golang.org/protobuf on random values, and the recorded benchmark
// payloads must re-encode to the reference's bytes.
func TestDifferential(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	dir := corpusDir(t)
	fsys := os.DirFS(dir)
	type input struct{ roots, files []string }
	inputs := []input{
		{[]string{"protobuf"}, []string{"google/protobuf/test_messages_proto2.proto", "google/protobuf/test_messages_proto3.proto"}},
		{[]string{"benchmarks"}, []string{"benchmarks.proto", "datasets/google_message1/proto2/benchmark_message1_proto2.proto",
			"datasets/google_message1/proto3/benchmark_message1_proto3.proto", "datasets/google_message2/benchmark_message2.proto"}},
	}
	var all []protoreflect.FileDescriptor
	for _, in := range inputs {
		res := compiler.Compile(context.Background(), compiler.Request{FS: fsys, ImportPaths: in.roots, Files: in.files, NoGenerate: true})
		if err := res.Err(); err != nil {
			t.Fatal(err)
		}
		for _, f := range res.Files {
			all = append(all, f)
		}
	}
	var gen []gogen.File
	set := &descriptorpb.FileDescriptorSet{}
	seen := map[string]bool{}
	var registry []string
	imports := map[string]string{}
	for _, fd := range all {
		opts := rehomePerFile(fd, "d")
		out, diags := gogen.Generate([]protoreflect.FileDescriptor{fd}, opts)
		for _, d := range diags {
			t.Fatalf("%s:%d:%d: %s", d.File, d.Line, d.Column, d.Message)
		}
		gen = append(gen, out...)
		for _, dep := range withDeps(fd) {
			if !seen[dep.Path()] {
				seen[dep.Path()] = true
				set.File = append(set.File, protodesc.ToFileDescriptorProto(dep))
			}
		}
		path, _, _ := strings.Cut(opts.ImportMap[fd.Path()], ";")
		alias := fmt.Sprintf("p%d", len(imports))
		imports[alias] = path
		msgs := fd.Messages()
		var walk func(md protoreflect.MessageDescriptor)
		walk = func(md protoreflect.MessageDescriptor) {
			if md.IsMapEntry() {
				return
			}
			registry = append(registry, fmt.Sprintf("\t%q: func() message { return new(%s.%s) },", md.FullName(), alias, gogen.GoName(md)))
			for i := 0; i < md.Messages().Len(); i++ {
				walk(md.Messages().Get(i))
			}
		}
		for i := 0; i < msgs.Len(); i++ {
			walk(msgs.Get(i))
		}
	}
	// WKT descriptors, for the reference side.
	for _, fd := range all {
		var add func(f protoreflect.FileDescriptor)
		add = func(f protoreflect.FileDescriptor) {
			for i := 0; i < f.Imports().Len(); i++ {
				add(f.Imports().Get(i).FileDescriptor)
			}
			if !seen[f.Path()] {
				seen[f.Path()] = true
				set.File = append([]*descriptorpb.FileDescriptorProto{protodesc.ToFileDescriptorProto(f)}, set.File...)
			}
		}
		add(fd)
	}
	sort.Strings(registry)
	var reg strings.Builder
	reg.WriteString("package difftest\n\nimport (\n")
	aliases := make([]string, 0, len(imports))
	for a := range imports {
		aliases = append(aliases, a)
	}
	sort.Strings(aliases)
	for _, a := range aliases {
		fmt.Fprintf(&reg, "\t%s %q\n", a, imports[a])
	}
	reg.WriteString(")\n\nvar registry = map[string]func() message{\n" + strings.Join(registry, "\n") + "\n}\n")
	desc, err := proto.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	harness, err := os.ReadFile(filepath.Join("testdata", "difftest.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	mod := gentest.WriteModule(t, gen, map[string]string{
		"difftest/difftest_test.go":  string(harness),
		"difftest/registry.go":       reg.String(),
		"difftest/descriptors.binpb": string(desc),
	}, true)
	datasets := []string{
		filepath.Join(dir, "benchmarks/datasets/google_message1/proto3/dataset.google_message1_proto3.pb"),
		filepath.Join(dir, "benchmarks/datasets/google_message1/proto2/dataset.google_message1_proto2.pb"),
		filepath.Join(dir, "benchmarks/datasets/google_message2/dataset.google_message2.pb"),
	}
	os.Setenv("DATASETS", strings.Join(datasets, ","))
	out, err := gentest.Go(t, mod, "test", "-tags=protolegacy", "-count=1", "-v", "-run", "TestDifferential|TestRecordedPayloads|TestDepthLimit|FuzzUnmarshal", "./difftest/")
	if err != nil {
		t.Fatalf("differential tests failed: %v\n%s", err, out)
	}
	if ft := os.Getenv("PROTOPLAY_FUZZTIME"); ft != "" {
		// make fuzz: explore Unmarshal of generated code against the reference.
		out, err := gentest.Go(t, mod, "test", "-tags=protolegacy", "-run=^$", "-fuzz=FuzzUnmarshal", "-fuzztime="+ft, "./difftest/")
		if err != nil {
			t.Fatalf("fuzzing: %v\n%s", err, out)
		}
		t.Log(out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "re-encoded") || strings.HasPrefix(line, "ok") {
			t.Log(strings.TrimSpace(line))
		}
	}
}
