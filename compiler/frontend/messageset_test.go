package frontend

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
)

// messageSetOptionSource sets a custom option whose value holds a
// MessageSet, with an extension whose own value holds one again, and one
// inside a group.
const messageSetOptionSource = `syntax = "proto2";
package ms;
import "google/protobuf/descriptor.proto";
message Set {
  option message_set_wire_format = true;
  extensions 4 to max;
}
message Elem {
  extend Set { optional Elem message_set_extension = 1000; }
  optional string s = 1;
  optional Set inner = 2;
}
message Agg {
  optional Set mset = 5;
  optional int32 i = 1;
  optional group G = 6 { optional Set gset = 1; }
}
extend google.protobuf.FileOptions { optional Agg agg = 50000; }
extend google.protobuf.MessageOptions { optional Set mopt = 50001; }
option (agg) = { i: 7 mset { [ms.Elem.message_set_extension] { s: "x" inner { [ms.Elem.message_set_extension] { s: "y" } } } } G { gset { [ms.Elem.message_set_extension] { s: "g" } } } };
message User {
  option (mopt) = { [ms.Elem.message_set_extension] { s: "z" } };
}
`

// TestMessageSetInOption (issue 25): a custom option whose value holds a
// MessageSet compiles, as protoc compiles it, and its value is written as
// protoc writes it: each extension of the MessageSet as an item group
// (type_id, message), nested ones too, inside a group too, for file and
// message options. The
// expected bytes are built here; when protoc is on PATH they are also
// compared with its descriptor set.
func TestMessageSetInOption(t *testing.T) {
	res := Compile(context.Background(), Request{Sources: map[string]string{"ms.proto": messageSetOptionSource}, Files: []string{"ms.proto"}})
	if res.HasErrors() {
		t.Fatal(res.Diagnostics)
	}
	lenField := func(num protowire.Number, v []byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(nil, num, protowire.BytesType), v)
	}
	item := func(typeID protowire.Number, msg []byte) []byte {
		b := protowire.AppendTag(nil, 1, protowire.StartGroupType)
		b = protowire.AppendVarint(protowire.AppendTag(b, 2, protowire.VarintType), uint64(typeID))
		b = append(b, lenField(3, msg)...)
		return protowire.AppendTag(b, 1, protowire.EndGroupType)
	}
	inner := lenField(2, item(1000, lenField(1, []byte("y"))))
	group := protowire.AppendTag(nil, 6, protowire.StartGroupType)
	group = append(group, lenField(1, item(1000, lenField(1, []byte("g"))))...)
	group = protowire.AppendTag(group, 6, protowire.EndGroupType)
	agg := append([]byte{0x08, 7}, lenField(5, item(1000, append(lenField(1, []byte("x")), inner...)))...)
	wantFile := lenField(50000, append(agg, group...))
	wantMsg := lenField(50001, item(1000, lenField(1, []byte("z"))))

	fd := res.Files[0]
	gotFile := fd.Options().ProtoReflect().GetUnknown()
	gotMsg := fd.Messages().ByName("User").Options().ProtoReflect().GetUnknown()
	if !bytes.Equal(gotFile, wantFile) {
		t.Errorf("file options: %x, want %x", gotFile, wantFile)
	}
	if !bytes.Equal(gotMsg, wantMsg) {
		t.Errorf("message options: %x, want %x", gotMsg, wantMsg)
	}

	protoc, err := exec.LookPath("protoc")
	if err != nil {
		t.Log("protoc is not on PATH: not compared with protoc")
		return
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "ms.proto"), []byte(messageSetOptionSource), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "set.pb")
	cmd := exec.Command(protoc, "-I", dir, "--descriptor_set_out="+out, "ms.proto")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("protoc: %v\n%s", err, b)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var set descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(data, &set); err != nil {
		t.Fatal(err)
	}
	pf := set.GetFile()[0]
	if got := pf.GetOptions().ProtoReflect().GetUnknown(); !bytes.Equal(got, wantFile) {
		t.Errorf("protoc's file options: %x, the test's %x", got, wantFile)
	}
	for _, m := range pf.GetMessageType() {
		if m.GetName() == "User" {
			if got := m.GetOptions().ProtoReflect().GetUnknown(); !bytes.Equal(got, wantMsg) {
				t.Errorf("protoc's message options: %x, the test's %x", got, wantMsg)
			}
		}
	}
}

// TestCustomOptionsAsProtoc (issue 25): unittest_custom_options.proto
// (protobuf 3.21.12's, which the protoc on this machine reads; its
// MessageSet-typed option value used to be refused) compiles, and each
// options message's custom options are protoc's: equal as messages, read
// with the file's own extensions (the byte order of their fields differs:
// the compiler writes an option's fields in source order and merges
// repeated option statements, protoc writes each statement's value in
// field number order). Skipped without the corpus or protoc.
func TestCustomOptionsAsProtoc(t *testing.T) {
	root := filepath.Join(corpusDir(t), "protobuf-3.21.12")
	protoc, err := exec.LookPath("protoc")
	if err != nil {
		t.Skip("protoc is not on PATH")
	}
	const name = "google/protobuf/unittest_custom_options.proto"
	res := Compile(context.Background(), Request{FS: os.DirFS(root), Files: []string{name}})
	if res.HasErrors() {
		t.Fatal(res.Diagnostics)
	}
	out := filepath.Join(t.TempDir(), "set.pb")
	if b, err := exec.Command(protoc, "-I", root, "--descriptor_set_out="+out, name).CombinedOutput(); err != nil {
		t.Fatalf("protoc: %v\n%s", err, b)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var set descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(data, &set); err != nil {
		t.Fatal(err)
	}
	files := new(protoregistry.Files)
	var register func(fd protoreflect.FileDescriptor)
	register = func(fd protoreflect.FileDescriptor) {
		if _, err := files.FindFileByPath(fd.Path()); err == nil {
			return
		}
		for i := 0; i < fd.Imports().Len(); i++ {
			register(fd.Imports().Get(i).FileDescriptor)
		}
		if err := files.RegisterFile(fd); err != nil {
			t.Fatal(err)
		}
	}
	register(res.Files[0])
	resolve := proto.UnmarshalOptions{Resolver: dynamicpb.NewTypes(files)}
	// asOptions reads the custom options of an options message as a
	// dynamic message of its type with the file's extensions.
	asOptions := func(m protoreflect.Message) proto.Message {
		d := dynamicpb.NewMessage(m.Descriptor())
		if err := resolve.Unmarshal(m.GetUnknown(), d); err != nil {
			t.Fatalf("%s: %v", m.Descriptor().FullName(), err)
		}
		return d
	}
	compared := 0
	var walk func(ours, theirs protoreflect.Message, path string)
	walk = func(ours, theirs protoreflect.Message, path string) {
		if strings.HasSuffix(string(ours.Descriptor().Name()), "Options") && len(ours.GetUnknown())+len(theirs.GetUnknown()) > 0 {
			compared++
			if !proto.Equal(asOptions(ours), asOptions(theirs)) {
				t.Errorf("%s: custom options %x, protoc's %x", path, ours.GetUnknown(), theirs.GetUnknown())
			}
		}
		ours.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			switch {
			case fd.Message() == nil:
			case fd.IsList():
				w := theirs.Get(fd).List()
				for i := 0; i < v.List().Len() && i < w.Len(); i++ {
					walk(v.List().Get(i).Message(), w.Get(i).Message(), fmt.Sprintf("%s.%s[%d]", path, fd.Name(), i))
				}
			case theirs.Has(fd):
				walk(v.Message(), theirs.Get(fd).Message(), path+"."+string(fd.Name()))
			}
			return true
		})
	}
	walk(protodesc.ToFileDescriptorProto(res.Files[0]).ProtoReflect(), set.GetFile()[0].ProtoReflect(), name)
	if compared < 20 {
		t.Errorf("compared the custom options of %d options messages, want the file's 20 and more", compared)
	}
}
