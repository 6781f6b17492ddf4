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

// TestEqualDifferential generates testdata/equal/*.proto (proto3, proto2
// with groups, defaults and extensions, edition 2023 with implicit presence
// and delimited messages) and runs testdata/equaltest.go.txt against it in a
// temporary module: for every message type, pairs of payloads that differ in
// one field, one oneof or the unknown fields (+0/-0, NaN payloads, packed
// and expanded lists, map entries, nested messages, field order) are decoded
// by the generated code and by dynamicpb, and the generated Equal must give
// proto.Equal's answer; every payload's message equals its Clone and its
// own re-encoding. It runs on the open API and again on the opaque API
// (default_api_level=API_OPAQUE), whose Equal compares presence bits.
func TestEqualDifferential(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	for _, level := range []string{"API_OPEN", "API_OPAQUE"} {
		t.Run(level, func(t *testing.T) { equalDifferential(t, level) })
	}
}

func equalDifferential(t *testing.T, level string) {
	dir := filepath.Join("testdata", "equal")
	res := compiler.Compile(context.Background(), compiler.Request{
		FS: os.DirFS(dir), Files: []string{"eq3.proto", "eq2.proto", "eqed.proto"}, NoGenerate: true})
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	fds := res.Files
	gen, diags := gogen.Generate(fds, gentest.Rehome(fds, gogen.Options{DefaultAPILevel: level}))
	for _, d := range diags {
		t.Fatalf("%s:%d:%d: %s", d.File, d.Line, d.Column, d.Message)
	}
	set := &descriptorpb.FileDescriptorSet{}
	var registry []string
	imports := map[string]string{}
	for i, fd := range fds {
		set.File = append(set.File, protodesc.ToFileDescriptorProto(fd))
		opts := gentest.Rehome([]protoreflect.FileDescriptor{fd}, gogen.Options{})
		path, _, _ := strings.Cut(opts.ImportMap[fd.Path()], ";")
		alias := fmt.Sprintf("p%d", i)
		imports[alias] = path
		gentest.EachMessage(fd.Messages(), func(md protoreflect.MessageDescriptor) {
			typ := alias + "." + gogen.GoName(md)
			registry = append(registry, fmt.Sprintf("\t%q: {func() message { return new(%s) }, func(a, b message) bool { return a.(*%s).Equal(b.(*%s)) }, func(a message) message { return a.(*%s).Clone() }},",
				md.FullName(), typ, typ, typ, typ))
		})
	}
	sort.Strings(registry)
	var reg strings.Builder
	reg.WriteString("package equaltest\n\n" + gentest.ImportBlock(imports))
	reg.WriteString("\nvar registry = map[string]entry{\n" + strings.Join(registry, "\n") + "\n}\n")
	desc, err := proto.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	harness, err := os.ReadFile(filepath.Join("testdata", "equaltest.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	mod := gentest.WriteModule(t, gen, map[string]string{
		"equaltest/equal_test.go":     string(harness),
		"equaltest/registry.go":       reg.String(),
		"equaltest/descriptors.binpb": string(desc),
	}, true)
	out, err := gentest.Go(t, mod, "test", "-count=1", "-v", "-run", "TestEqualDifferential", "./equaltest/")
	if err != nil {
		t.Fatalf("equal differential test failed: %v\n%s", err, out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "pairs compared") || strings.HasPrefix(line, "ok") {
			t.Log(strings.TrimSpace(line))
		}
	}
}
