package main

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/protoplay/protoplay/compiler/descheck"
	"github.com/protoplay/protoplay/internal/gentest"
)

// TestCase53Descriptors runs the requests of case 53
// (../shared/cases/53_plugin_unvalidated_descriptors/main.go, ported):
// one file a.proto, message M { int32 x = 1; }, and one defect per
// request. Each defect that protoc-gen-go v1.36.12 refuses (protodesc's
// reason in its words) is an error in the response naming the file and the
// reason, never generated code or an "internal error". Expected texts: the
// case's README and protoc-gen-go's output in its run.sh.
func TestCase53Descriptors(t *testing.T) {
	s := proto.String
	good := &descriptorpb.FileDescriptorProto{Name: s("a.proto"), Package: s("a"), Syntax: s("proto3"),
		Options: &descriptorpb.FileOptions{GoPackage: s("example.com/a;a")},
		MessageType: []*descriptorpb.DescriptorProto{{Name: s("M"), Field: []*descriptorpb.FieldDescriptorProto{{Name: s("x"), Number: proto.Int32(1),
			Type: descriptorpb.FieldDescriptorProto_TYPE_INT32.Enum(), Label: descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(), JsonName: s("x")}}}}}
	edit := func(f func(*descriptorpb.FileDescriptorProto)) *descriptorpb.FileDescriptorProto {
		c := proto.Clone(good).(*descriptorpb.FileDescriptorProto)
		f(c)
		return c
	}
	for _, tc := range []struct {
		name string
		file *descriptorpb.FileDescriptorProto
		want string // "" for files generated
	}{
		{"good", good, ""},
		{"field number 0", edit(func(f *descriptorpb.FileDescriptorProto) { f.MessageType[0].Field[0].Number = proto.Int32(0) }),
			`a.proto: invalid descriptor: message field "a.M.x" has an invalid number: 0`},
		{"invalid message name", edit(func(f *descriptorpb.FileDescriptorProto) { f.MessageType[0].Name = s("1 bad-name") }),
			`a.proto: invalid descriptor: descriptor "a" has an invalid nested name: "1 bad-name"`},
		{"oneof_index out of range", edit(func(f *descriptorpb.FileDescriptorProto) { f.MessageType[0].Field[0].OneofIndex = proto.Int32(5) }),
			`a.proto: invalid descriptor: message field "a.M.x" has an invalid oneof index: 5`},
		{"edition 2026", edit(func(f *descriptorpb.FileDescriptorProto) {
			f.Syntax, f.Edition = s("editions"), descriptorpb.Edition_EDITION_2026.Enum()
		}), `a.proto: invalid descriptor: edition EDITION_2026 is not supported: protoplay compiles proto2, proto3 and editions 2023 to 2024 files`},
		{"edition MAX", edit(func(f *descriptorpb.FileDescriptorProto) {
			f.Syntax, f.Edition = s("editions"), descriptorpb.Edition_EDITION_MAX.Enum()
		}), `a.proto: invalid descriptor: edition EDITION_MAX is not supported: protoplay compiles proto2, proto3 and editions 2023 to 2024 files`},
		{"duplicate message", edit(func(f *descriptorpb.FileDescriptorProto) { f.MessageType = append(f.MessageType, f.MessageType[0]) }),
			`a.proto: invalid descriptor: descriptor "a.M" already declared`},
		{"file without name", edit(func(f *descriptorpb.FileDescriptorProto) { f.Name = nil }),
			`invalid descriptor: proto_file entry 0 has no name (file path must be populated)`},
		// protoc-gen-go generates this one too.
		{"map_entry on a top-level message", edit(func(f *descriptorpb.FileDescriptorProto) {
			f.MessageType[0].Options = &descriptorpb.MessageOptions{MapEntry: proto.Bool(true)}
		}), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gen := []string{tc.file.GetName()}
			resp := generate(&pluginpb.CodeGeneratorRequest{FileToGenerate: gen, ProtoFile: []*descriptorpb.FileDescriptorProto{tc.file}})
			if tc.want == "" {
				// a.pb.go, and the runtime's copy (runtime=local, the default).
				if resp.Error != nil || !hasFile(resp, "a.pb.go") {
					var names []string
					for _, f := range resp.File {
						names = append(names, f.GetName())
					}
					t.Fatalf("error %q, files %q; want a.pb.go", resp.GetError(), names)
				}
				return
			}
			if resp.GetError() != tc.want || len(resp.File) != 0 {
				t.Errorf("error %q (%d files)\nwant %q and no files", resp.GetError(), len(resp.File), tc.want)
			}
		})
	}
}

// TestEditionRange: the response's maximum_edition is the newest edition
// the descriptor check accepts, so protoc (which refuses a file above a
// plugin's maximum) and a direct caller meet the same limit.
func TestEditionRange(t *testing.T) {
	resp := runRequest(t, &pluginpb.CodeGeneratorRequest{})
	if got := descriptorpb.Edition(resp.GetMaximumEdition()); got != descheck.MaxEdition {
		t.Errorf("maximum_edition %v, descheck.MaxEdition %v", got, descheck.MaxEdition)
	}
	if got := descriptorpb.Edition(resp.GetMinimumEdition()); got != descheck.MinEdition {
		t.Errorf("minimum_edition %v, descheck.MinEdition %v", got, descheck.MinEdition)
	}
	if !strings.Contains(resp.GetError(), "no files to generate") {
		t.Errorf("empty request: error %q", resp.GetError())
	}
}

// TestCase53Program runs case 53's own program (testdata/case53/main.go.txt,
// copied from ../shared/cases/53_plugin_unvalidated_descriptors) against
// the plugin (see pluginBinary), over stdin and stdout as protoc would: no
// request gets an "internal error", and each defect protoc-gen-go refuses
// is an error with no files.
func TestCase53Program(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the case's program")
	}
	bin, _ := pluginBinary(t)
	src, err := os.ReadFile(filepath.Join("testdata", "case53", "main.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	mod := gentest.WriteModule(t, nil, map[string]string{"c53/main.go": string(src)}, true)
	// gentest's environment (-trimpath): go run's build of the program is
	// cached by content, not by the temporary directory. The program
	// passes its environment (asPluginEnv) on to the plugin.
	out, err := gentest.GoEnv(t, mod, []string{asPluginEnv + "=1", "PLUGIN=" + bin}, "run", "./c53")
	if err != nil {
		t.Fatalf("case 53's program: %v\n%s", err, out)
	}
	lines := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if label, rest, ok := strings.Cut(line, "  "); ok && strings.Contains(rest, "exit=") {
			lines[strings.TrimSpace(label)] = rest
		}
	}
	if strings.Contains(string(out), "internal error") {
		t.Errorf("an internal error:\n%s", out)
	}
	for label, want := range map[string]string{
		"field number 0":           `files=0 error="a.proto: invalid descriptor: message field \"a.M.x\" has an invalid number: 0"`,
		"invalid message name":     `files=0 error="a.proto: invalid descriptor: descriptor \"a\" has an invalid nested name: \"1 bad-name\""`,
		"oneof_index out of range": `files=0 error="a.proto: invalid descriptor: message field \"a.M.x\" has an invalid oneof index: 5"`,
		// The plugin declares maximum_edition 2024 (issue 25), so a 2024
		// file is generated: a.pb.go and the runtime's copy.
		"edition 2024":         `error="" stderr=""`,
		"edition MAX":          `files=0 error="a.proto: invalid descriptor: edition EDITION_MAX is not supported`,
		"duplicate message":    `files=0 error="a.proto: invalid descriptor: descriptor \"a.M\" already declared"`,
		"file without name":    `files=0 error="invalid descriptor: proto_file entry 0 has no name`,
		"unresolved type_name": `files=0 error="a.proto: invalid descriptor: message field \"a.M.x\" cannot resolve type: \"nope.Missing\" not found"`,
		"good":                 `error="" stderr=""`,
	} {
		if got, ok := lines[label]; !ok || !strings.Contains(got, want) {
			t.Errorf("%s: %q, want it to contain %q", label, got, want)
		}
	}
	if t.Failed() {
		t.Logf("program output:\n%s", out)
	}
}

// hasFile reports whether resp holds a file named name (in any folder).
func hasFile(resp *pluginpb.CodeGeneratorResponse, name string) bool {
	for _, f := range resp.File {
		if path.Base(f.GetName()) == name {
			return true
		}
	}
	return false
}
