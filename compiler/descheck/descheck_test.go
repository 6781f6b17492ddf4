package descheck_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bufbuild/protocompile/protoutil"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/descheck"
	"github.com/protoplay/protoplay/internal/gentest"
)

var (
	s   = proto.String
	i32 = proto.Int32
)

func field(name string, num int32, typ descriptorpb.FieldDescriptorProto_Type) *descriptorpb.FieldDescriptorProto {
	return &descriptorpb.FieldDescriptorProto{Name: s(name), Number: i32(num), Type: typ.Enum(),
		Label: descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(), JsonName: s(name)}
}

// good is a valid proto3 file: message M { int32 x = 1; string y = 2; }
// and enum E { E_ZERO = 0; E_ONE = 1; }.
func good() *descriptorpb.FileDescriptorProto {
	return &descriptorpb.FileDescriptorProto{Name: s("a.proto"), Package: s("a"), Syntax: s("proto3"),
		MessageType: []*descriptorpb.DescriptorProto{{Name: s("M"), Field: []*descriptorpb.FieldDescriptorProto{
			field("x", 1, descriptorpb.FieldDescriptorProto_TYPE_INT32),
			field("y", 2, descriptorpb.FieldDescriptorProto_TYPE_STRING),
		}}},
		EnumType: []*descriptorpb.EnumDescriptorProto{{Name: s("E"), Value: []*descriptorpb.EnumValueDescriptorProto{
			{Name: s("E_ZERO"), Number: i32(0)}, {Name: s("E_ONE"), Number: i32(1)}}}},
	}
}

// TestInvalid: each defect, one per kind of rule protodesc checks, is
// reported on the file with protodesc's reason, and protodesc.NewFiles (the
// oracle) refuses the same file, but for the editions protoplay does not
// support and protodesc may (2026; "editions" syntax with edition PROTO3).
// protodesc accepts, so this accepts, a field number in 19000-19999 and
// packed on a type that cannot be packed (the generated code then ignores
// it).
func TestInvalid(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(f *descriptorpb.FileDescriptorProto)
		want   string
	}{
		// Case 53's four.
		{"field number 0", func(f *descriptorpb.FileDescriptorProto) { f.MessageType[0].Field[0].Number = i32(0) },
			`message field "a.M.x" has an invalid number: 0`},
		{"invalid message name", func(f *descriptorpb.FileDescriptorProto) { f.MessageType[0].Name = s("1 bad-name") },
			`has an invalid nested name: "1 bad-name"`},
		{"oneof_index out of range", func(f *descriptorpb.FileDescriptorProto) { f.MessageType[0].Field[0].OneofIndex = i32(5) },
			`message field "a.M.x" has an invalid oneof index: 5`},
		{"edition MAX", func(f *descriptorpb.FileDescriptorProto) {
			f.Syntax, f.Edition = s("editions"), descriptorpb.Edition_EDITION_MAX.Enum()
		}, "edition EDITION_MAX is not supported: protoplay compiles proto2, proto3 and editions 2023 to 2024 files"},
		// Beyond the case.
		{"edition 2026", func(f *descriptorpb.FileDescriptorProto) {
			f.Syntax, f.Edition = s("editions"), descriptorpb.Edition_EDITION_2026.Enum()
		}, "edition EDITION_2026 is not supported"},
		// protodesc accepts this one; protoc never writes it.
		{"syntax editions with edition proto3", func(f *descriptorpb.FileDescriptorProto) {
			f.Syntax, f.Edition = s("editions"), descriptorpb.Edition_EDITION_PROTO3.Enum()
		}, "edition EDITION_PROTO3 is not supported"},
		{"unknown syntax", func(f *descriptorpb.FileDescriptorProto) { f.Syntax = s("proto4") }, `invalid syntax "proto4"`},
		{"negative field number", func(f *descriptorpb.FileDescriptorProto) { f.MessageType[0].Field[0].Number = i32(-3) },
			`message field "a.M.x" has an invalid number: -3`},
		{"field number above 2^29-1", func(f *descriptorpb.FileDescriptorProto) { f.MessageType[0].Field[0].Number = i32(1 << 29) },
			`message field "a.M.x" has an invalid number: 536870912`},
		{"duplicate field number", func(f *descriptorpb.FileDescriptorProto) { f.MessageType[0].Field[1].Number = i32(1) },
			`message "a.M" has conflicting fields`},
		{"duplicate field name", func(f *descriptorpb.FileDescriptorProto) { f.MessageType[0].Field[1].Name = s("x") },
			`"a.M.x" already declared`},
		{"invalid field name", func(f *descriptorpb.FileDescriptorProto) { f.MessageType[0].Field[0].Name = s("a-b") },
			`descriptor "a.M" has an invalid nested name: "a-b"`},
		{"empty message name", func(f *descriptorpb.FileDescriptorProto) { f.MessageType[0].Name = s("") },
			`has an invalid nested name: ""`},
		{"invalid package", func(f *descriptorpb.FileDescriptorProto) { f.Package = s("a..b") },
			`invalid package: "a..b"`},
		{"invalid enum value name", func(f *descriptorpb.FileDescriptorProto) { f.EnumType[0].Value[1].Name = s("1x") },
			`invalid nested name: "1x"`},
		{"enum without values", func(f *descriptorpb.FileDescriptorProto) { f.EnumType[0].Value = nil },
			`enum "a.E" must contain at least one value`},
		{"proto3 enum whose first value is not zero", func(f *descriptorpb.FileDescriptorProto) { f.EnumType[0].Value[0].Number = i32(2) },
			`using open semantics must have zero number for the first value`},
		{"proto3 required field", func(f *descriptorpb.FileDescriptorProto) {
			f.MessageType[0].Field[0].Label = descriptorpb.FieldDescriptorProto_LABEL_REQUIRED.Enum()
		}, `message field "a.M.x" using proto3 semantics cannot be required`},
		{"reserved number used by a field", func(f *descriptorpb.FileDescriptorProto) {
			f.MessageType[0].ReservedRange = []*descriptorpb.DescriptorProto_ReservedRange{{Start: i32(1), End: i32(2)}}
		}, `must not use reserved number 1`},
		{"reserved name used by a field", func(f *descriptorpb.FileDescriptorProto) { f.MessageType[0].ReservedName = []string{"y"} },
			`must not use reserved name`},
		{"extension range over a field", func(f *descriptorpb.FileDescriptorProto) {
			f.Syntax = s("proto2")
			f.MessageType[0].ExtensionRange = []*descriptorpb.DescriptorProto_ExtensionRange{{Start: i32(2), End: i32(10)}}
		}, `message field "a.M.y" with number 2 in extension range`},
		{"oneof without fields", func(f *descriptorpb.FileDescriptorProto) {
			f.MessageType[0].OneofDecl = []*descriptorpb.OneofDescriptorProto{{Name: s("o")}}
		}, `message oneof "a.M.o" must contain at least one field declaration`},
		{"unresolved type", func(f *descriptorpb.FileDescriptorProto) {
			f.MessageType[0].Field[0].Type = descriptorpb.FieldDescriptorProto_TYPE_MESSAGE.Enum()
			f.MessageType[0].Field[0].TypeName = s(".nope.Missing")
		}, `message field "a.M.x" cannot resolve type: "nope.Missing" not found`},
		{"message type named as an enum", func(f *descriptorpb.FileDescriptorProto) {
			f.MessageType[0].Field[0].Type = descriptorpb.FieldDescriptorProto_TYPE_MESSAGE.Enum()
			f.MessageType[0].Field[0].TypeName = s(".a.E")
		}, `message field "a.M.x" cannot resolve type: resolved "a.E", but it is not an message`},
		{"duplicate top-level name", func(f *descriptorpb.FileDescriptorProto) { f.EnumType[0].Name = s("M") },
			`"a.M" already declared`},
		{"map entry that is not one", func(f *descriptorpb.FileDescriptorProto) {
			f.MessageType[0].NestedType = []*descriptorpb.DescriptorProto{{Name: s("XEntry"), Options: &descriptorpb.MessageOptions{MapEntry: proto.Bool(true)},
				Field: []*descriptorpb.FieldDescriptorProto{field("key", 1, descriptorpb.FieldDescriptorProto_TYPE_STRING)}}}
			x := f.MessageType[0].Field[0]
			x.Type, x.TypeName = descriptorpb.FieldDescriptorProto_TYPE_MESSAGE.Enum(), s(".a.M.XEntry")
			x.Label = descriptorpb.FieldDescriptorProto_LABEL_REPEATED.Enum()
		}, `message field "a.M.x" is an invalid map: message must have exactly two fields`},
		{"extension with a json_name", func(f *descriptorpb.FileDescriptorProto) {
			f.Syntax = s("proto2")
			f.MessageType[0].ExtensionRange = []*descriptorpb.DescriptorProto_ExtensionRange{{Start: i32(100), End: i32(200)}}
			x := field("ext", 100, descriptorpb.FieldDescriptorProto_TYPE_INT32)
			x.Extendee, x.JsonName = s(".a.M"), s("other")
			f.Extension = []*descriptorpb.FieldDescriptorProto{x}
		}, `extension field "a.ext" may not have an explicitly set JSON name: "other"`},
		{"invalid MessageSet (a field)", func(f *descriptorpb.FileDescriptorProto) {
			f.Syntax = s("proto2")
			f.MessageType[0].Options = &descriptorpb.MessageOptions{MessageSetWireFormat: proto.Bool(true)}
			f.MessageType[0].ExtensionRange = []*descriptorpb.DescriptorProto_ExtensionRange{{Start: i32(4), End: i32(1 << 29)}}
		}, `message "a.M" is an invalid proto1 MessageSet`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := good()
			tc.mutate(f)
			ds := descheck.Files([]*descriptorpb.FileDescriptorProto{f})
			if len(ds) != 1 || ds[0].File != "a.proto" || !strings.Contains(ds[0].Message, tc.want) || !strings.HasPrefix(ds[0].Message, "invalid descriptor: ") {
				t.Errorf("got %v, want one error on a.proto containing %q", ds, tc.want)
			}
			if _, err := protodesc.NewFiles(&descriptorpb.FileDescriptorSet{File: []*descriptorpb.FileDescriptorProto{f}}); err == nil &&
				tc.name != "edition 2026" && tc.name != "syntax editions with edition proto3" {
				t.Errorf("protodesc.NewFiles accepts the file: the test's premise is wrong")
			}
		})
	}
}

// TestValid: valid files pass, MessageSets (which protodesc refuses in
// binaries built without the protolegacy tag) included; an invalid file is
// reported once, on itself, not on the files that import it.
func TestValid(t *testing.T) {
	p2 := good()
	p2.Syntax = s("proto2")
	ed := good()
	ed.Syntax, ed.Edition = s("editions"), descriptorpb.Edition_EDITION_2023.Enum()
	set := &descriptorpb.FileDescriptorProto{Name: s("set.proto"), Package: s("set"), Syntax: s("proto2"),
		MessageType: []*descriptorpb.DescriptorProto{{Name: s("S"), Options: &descriptorpb.MessageOptions{MessageSetWireFormat: proto.Bool(true)},
			ExtensionRange: []*descriptorpb.DescriptorProto_ExtensionRange{{Start: i32(4), End: i32(2147483647)}}}}}
	user := &descriptorpb.FileDescriptorProto{Name: s("user.proto"), Package: s("user"), Syntax: s("proto2"), Dependency: []string{"set.proto"},
		MessageType: []*descriptorpb.DescriptorProto{{Name: s("Item"), Extension: []*descriptorpb.FieldDescriptorProto{{
			Name: s("item"), Number: i32(1 << 30), Extendee: s(".set.S"), Type: descriptorpb.FieldDescriptorProto_TYPE_MESSAGE.Enum(),
			TypeName: s(".user.Item"), Label: descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum()}}}}}
	// A MessageSet whose ranges lie above 2^29-1 (two of them: the
	// stand-in must not make them overlap), with an extension there.
	high := proto.Clone(set).(*descriptorpb.FileDescriptorProto)
	high.Name = s("high.proto")
	high.Package = s("high")
	high.MessageType[0].ExtensionRange = []*descriptorpb.DescriptorProto_ExtensionRange{{Start: i32(1 << 29), End: i32(1<<29 + 10)}, {Start: i32(1 << 30), End: i32(1<<30 + 10)}}
	highUser := proto.Clone(user).(*descriptorpb.FileDescriptorProto)
	highUser.Name, highUser.Dependency = s("high_user.proto"), []string{"high.proto"}
	highUser.MessageType[0].Extension[0].Extendee = s(".high.S")
	for _, files := range [][]*descriptorpb.FileDescriptorProto{{good()}, {p2}, {ed}, {set, user}, {user, set}, {high, highUser}} {
		if ds := descheck.Files(files); len(ds) != 0 {
			t.Errorf("%s: %v", files[0].GetName(), ds)
		}
	}

	bad := good()
	bad.MessageType[0].Field[0].Number = i32(0)
	importer := &descriptorpb.FileDescriptorProto{Name: s("b.proto"), Package: s("b"), Syntax: s("proto3"), Dependency: []string{"a.proto"}}
	ds := descheck.Files([]*descriptorpb.FileDescriptorProto{importer, bad})
	if len(ds) != 1 || ds[0].File != "a.proto" {
		t.Errorf("an invalid import: %v, want one error on a.proto", ds)
	}

	noName := good()
	noName.Name = nil
	if ds := descheck.Files([]*descriptorpb.FileDescriptorProto{noName}); len(ds) != 1 || !strings.Contains(ds[0].Message, "proto_file entry 0 has no name") {
		t.Errorf("a file without a name: %v", ds)
	}
	if ds := descheck.Files([]*descriptorpb.FileDescriptorProto{good(), good()}); len(ds) != 1 || !strings.Contains(ds[0].Message, "appears more than once") {
		t.Errorf("a file twice: %v", ds)
	}
}

// TestCorpusValid: every file of ../shared/corpus that the compiler
// accepts from source passes, with its imports, as protoc would send them
// in a request: the check refuses nothing that `protoplay gen` accepts.
func TestCorpusValid(t *testing.T) {
	shared, ok := gentest.SharedDir()
	if !ok {
		t.Skip("../shared is absent: skipping the corpus (set PROTOPLAY_SHARED)")
	}
	dir := filepath.Join(shared, "corpus")
	fsys := os.DirFS(dir)
	roots := map[string][]string{"benchmarks": {"benchmarks"}, "protobuf-3.21.12": {"protobuf-3.21.12"},
		"googleapis": {"googleapis", "protobuf"}, "protobuf": {"protobuf"}}
	checked := 0
	for root, importPaths := range roots {
		err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".proto") {
				return err
			}
			name := strings.TrimPrefix(p, root+"/")
			res := compiler.Compile(t.Context(), compiler.Request{FS: fsys, ImportPaths: importPaths, Files: []string{name}, NoGenerate: true})
			if res.HasErrors() {
				return nil
			}
			var protos []*descriptorpb.FileDescriptorProto
			seen := map[string]bool{}
			var walk func(fd protoreflect.FileDescriptor)
			walk = func(fd protoreflect.FileDescriptor) {
				if seen[fd.Path()] {
					return
				}
				seen[fd.Path()] = true
				for i := 0; i < fd.Imports().Len(); i++ {
					walk(fd.Imports().Get(i).FileDescriptor)
				}
				protos = append(protos, protoutil.ProtoFromFileDescriptor(fd))
			}
			walk(res.Files[0])
			if ds := descheck.Files(protos); len(ds) > 0 {
				t.Errorf("%s/%s: accepted from source, refused as descriptors: %v", root, name, ds)
			}
			checked++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d corpus files checked", checked)
}
