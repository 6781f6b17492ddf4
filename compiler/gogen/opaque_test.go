package gogen_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
	"github.com/protoplay/protoplay/internal/gentest"
)

// TestAPILevelResolution: the API level of a message follows
// protoc-gen-go v1.36's precedence: the api_level feature (message, then
// enclosing message, then file, then edition 2024's default API_OPAQUE),
// then apilevelM<file>=, then default_api_level=, then API_OPEN. (The
// order was checked against protogen.Options.New of v1.36.12: for an
// edition 2024 file, default_api_level=API_OPEN still gives API_OPAQUE.)
func TestAPILevelResolution(t *testing.T) {
	srcs := map[string]string{
		"p2.proto": `syntax = "proto2"; package p2; message A { message B {} }`,
		"e23.proto": `edition = "2023"; package e23;
import "google/protobuf/go_features.proto";
message A {
  option features.(pb.go).api_level = API_OPAQUE;
  message B {}
  message C { option features.(pb.go).api_level = API_OPEN; }
}
message D {}`,
		"e23file.proto": `edition = "2023"; package e23file;
import "google/protobuf/go_features.proto";
option features.(pb.go).api_level = API_HYBRID;
message A { option features.(pb.go).api_level = API_OPAQUE; }
message B {}`,
		"e24.proto": `edition = "2024"; package e24;
import "google/protobuf/go_features.proto";
message A { message B {} }
message C { option features.(pb.go).api_level = API_OPEN; }`,
	}
	var files []string
	for f := range srcs {
		files = append(files, f)
	}
	res := compiler.Compile(context.Background(), compiler.Request{Sources: srcs, Files: files, NoGenerate: true})
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		param string
		want  map[string]string // message -> level
	}{
		{"", map[string]string{"p2.A": "API_OPEN", "p2.A.B": "API_OPEN", "e23.A": "API_OPAQUE", "e23.A.B": "API_OPAQUE", "e23.A.C": "API_OPEN", "e23.D": "API_OPEN",
			"e23file.A": "API_OPAQUE", "e23file.B": "API_HYBRID", "e24.A": "API_OPAQUE", "e24.A.B": "API_OPAQUE", "e24.C": "API_OPEN"}},
		{"default_api_level=API_OPAQUE", map[string]string{"p2.A": "API_OPAQUE", "p2.A.B": "API_OPAQUE", "e23.A.C": "API_OPEN", "e23.D": "API_OPAQUE", "e23file.B": "API_HYBRID", "e24.C": "API_OPEN"}},
		{"default_api_level=API_OPAQUE,apilevelMp2.proto=API_OPEN", map[string]string{"p2.A": "API_OPEN", "e23.D": "API_OPAQUE"}},
		{"default_api_level=API_OPEN,apilevelMe24.proto=API_OPEN", map[string]string{"e24.A": "API_OPAQUE", "e24.A.B": "API_OPAQUE"}},
	} {
		opts, err := gogen.ParseOptions(tc.param)
		if err != nil {
			t.Fatal(err)
		}
		for name, want := range tc.want {
			var found bool
			for _, fd := range res.Files {
				gentest.EachMessage(fd.Messages(), func(md protoreflect.MessageDescriptor) {
					if string(md.FullName()) == name {
						found = true
						if got := gogen.APILevel(md, opts); got != want {
							t.Errorf("%q: %s is %s, want %s", tc.param, name, got, want)
						}
					}
				})
			}
			if !found {
				t.Fatalf("no message %s", name)
			}
		}
	}
	for _, bad := range []string{"default_api_level=OPAQUE", "default_api_level=", "apilevelMa.proto=open", "apilevelM=API_OPEN"} {
		if _, err := gogen.ParseOptions(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	o, err := gogen.ParseOptions("default_api_level=API_HYBRID,apilevelMb.proto=API_OPAQUE,apilevelMa.proto=API_OPEN")
	if err != nil || o.String() != "default_api_level=API_HYBRID,apilevelMa.proto=API_OPEN,apilevelMb.proto=API_OPAQUE" {
		t.Errorf("round trip: %q, %v", o.String(), err)
	}
}

// TestOpaqueCompat: a program written against protoc-gen-go's opaque API
// for test_messages_proto2.proto (testdata/opaquecompat/main.go.txt: the
// builder, Get/Set/Has/Clear of scalars, strings, bytes, enums, messages,
// groups, defaults, repeated fields and maps, Which/Has/Clear of the
// oneof and its case constants, nil receivers) builds and runs with
// protoc-gen-go's code (generated with default_api_level=API_OPAQUE by
// the protoc-gen-go of protoplay's go.mod, with the protolegacy tag for
// the schema's MessageSet), and then builds unchanged
// against protoplay's opaque code and prints the same, wire bytes
// included.
func TestOpaqueCompat(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	opaqueCompat(t, "API_OPAQUE")
}

// TestHybridCompat: with default_api_level=API_HYBRID, protoplay writes
// the files protoc-gen-go writes (x.pb.go under //go:build !protoopaque,
// x_protoopaque.pb.go under //go:build protoopaque), the first with the
// open struct's exported fields; the program of TestOpaqueCompat, which
// uses the opaque methods only, builds and runs against each side's code
// without the tag and with -tags protoopaque, and prints what it prints
// against protoc-gen-go's.
func TestHybridCompat(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	opaqueCompat(t, "API_HYBRID")
}

// opaqueCompat runs TestOpaqueCompat's program against protoc-gen-go's
// and protoplay's code of test_messages_proto2.proto generated at level
// (API_OPAQUE or API_HYBRID; for hybrid, with and without the
// protoopaque build tag).
func opaqueCompat(t *testing.T, level string) {
	dir := corpusDir(t)
	const file = "google/protobuf/test_messages_proto2.proto"
	res := compiler.Compile(context.Background(), compiler.Request{FS: os.DirFS(dir), ImportPaths: []string{"protobuf"}, Files: []string{file}, NoGenerate: true})
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	fd := res.Files[0]
	pkg := gentest.ModulePath + "/p2"
	main, err := os.ReadFile(filepath.Join("testdata", "opaquecompat", "main.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	program := strings.ReplaceAll(string(main), "MODULE", gentest.ModulePath)

	// protoc-gen-go's side: the binary TestAPINamesMatchProtocGenGo uses
	// too, built once per test binary (the same package and tags).
	bin := protocGenGoBin(t)
	var set descSet
	set.add(t, fd)
	req := &pluginpb.CodeGeneratorRequest{
		FileToGenerate: []string{file},
		Parameter:      proto.String("default_api_level=" + level + ",module=" + gentest.ModulePath + ",M" + file + "=" + pkg + ";p2"),
		ProtoFile:      set.File,
	}
	resp := gentest.RunPlugin(t, bin, req)
	var theirs []gogen.File
	for _, f := range resp.File {
		theirs = append(theirs, gogen.File{Name: f.GetName(), Content: f.GetContent()})
	}
	hybrid := level == "API_HYBRID"
	if n := len(theirs); n == 0 || !strings.Contains(theirs[n-1].Content, "xxx_hidden_") || hybrid != (n == 2) {
		t.Fatalf("protoc-gen-go wrote no %s code: %d files", level, len(theirs))
	}
	// The build tags to run the program with.
	tagSets := []string{""}
	if hybrid {
		tagSets = append(tagSets, "protoopaque")
	}
	modA := gentest.WriteModule(t, theirs, map[string]string{
		"main.go": program,
		"marshal.go": `package main

import (
	"google.golang.org/protobuf/proto"

	p2 "` + pkg + `"
)

func marshal(m *p2.TestAllTypesProto2) []byte {
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		panic(err)
	}
	return b
}
`}, true)
	wants := map[string]string{}
	for _, tags := range tagSets {
		want, err := gentest.Go(t, modA, "run", "-tags=protolegacy,"+tags, ".")
		if err != nil {
			t.Fatalf("with protoc-gen-go's code (tags %q): %v\n%s", tags, err, want)
		}
		wants[tags] = want
	}

	// protoplay's side.
	opts, err := gogen.ParseOptions("default_api_level=" + level + ",module=" + gentest.ModulePath + ",M" + file + "=" + pkg + ";p2")
	if err != nil {
		t.Fatal(err)
	}
	ours, diags := gogen.Generate(res.Files, opts)
	for _, d := range diags {
		t.Fatalf("%s:%d:%d: %s", d.File, d.Line, d.Column, d.Message)
	}
	modB := gentest.WriteModule(t, ours, map[string]string{
		"main.go": program,
		"marshal.go": `package main

import p2 "` + pkg + `"

func marshal(m *p2.TestAllTypesProto2) []byte {
	b, err := m.Marshal()
	if err != nil {
		panic(err)
	}
	return b
}
`}, false)
	if hybrid {
		var names, theirNames []string
		for _, f := range ours {
			names = append(names, f.Name)
		}
		for _, f := range theirs {
			theirNames = append(theirNames, f.Name)
		}
		if strings.Join(names, " ") != strings.Join(theirNames, " ") {
			t.Errorf("files %q, protoc-gen-go's %q", names, theirNames)
		}
		for i, f := range ours {
			tag := []string{"//go:build !protoopaque\n", "//go:build protoopaque\n"}[i]
			if !strings.Contains(f.Content, "\n\n"+tag+"\npackage p2\n") {
				t.Errorf("%s has no %q line before its package clause", f.Name, strings.TrimSpace(tag))
			}
		}
		for _, side := range [][]gogen.File{ours, theirs} {
			if !strings.Contains(side[0].Content, "\tOptionalInt32 ") || strings.Contains(side[0].Content, "xxx_hidden_") {
				t.Errorf("%s: the !protoopaque file is not the open struct", side[0].Name)
			}
		}
	}
	for _, tags := range tagSets {
		got, err := gentest.Go(t, modB, "run", "-tags="+tags, ".")
		if err != nil {
			t.Fatalf("with protoplay's code (tags %q): %v\n%s", tags, err, got)
		}
		if want := wants[tags]; got != want {
			t.Errorf("output differs (tags %q)\nprotoc-gen-go:\n%s\nprotoplay:\n%s", tags, want, got)
		}
		if !strings.Contains(got, "oneof has=true which=oneof_nested_message (112)") {
			t.Errorf("the program did not run as written:\n%s", got)
		}
	}
}

// TestOpaqueOneofSetter runs a program against opaque code: SetX of a
// oneof member whose case is already set allocates nothing (it reuses the
// message's own wrapper), and the wrapper stays the message's own:
// a Clone, a message decoded from the other's bytes and a built message
// do not see later sets; SetX of another case, of a nil message member
// and of a nil bytes member behave as before.
func TestOpaqueOneofSetter(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	src := `edition = "2024";
package p;
message M {
  oneof k {
    string s = 1;
    M sub = 2;
    bytes raw = 3;
    int64 n = 4;
  }
  int32 a = 5;
}
`
	res := compiler.Compile(context.Background(), compiler.Request{Sources: map[string]string{"p.proto": src}, Files: []string{"p.proto"}, NoGenerate: true})
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	opts, err := gogen.ParseOptions("module=" + gentest.ModulePath + ",Mp.proto=" + gentest.ModulePath + "/p;p")
	if err != nil {
		t.Fatal(err)
	}
	files, diags := gogen.Generate(res.Files, opts)
	for _, d := range diags {
		t.Fatalf("%s:%d:%d: %s", d.File, d.Line, d.Column, d.Message)
	}
	dir := gentest.WriteModule(t, files, map[string]string{"main.go": `package main

import (
	"fmt"
	"testing"

	"` + gentest.ModulePath + `/p"
)

func main() {
	m := &p.M{}
	m.SetS("a")
	fmt.Println("set allocs", testing.AllocsPerRun(100, func() { m.SetS("b") }),
		testing.AllocsPerRun(100, func() { m.SetN(7) }), // the case changes once, then stays
		testing.AllocsPerRun(100, func() { m.SetSub(m) }))
	m.SetS("b")
	c := m.Clone()
	b, _ := m.Marshal()
	d := new(p.M)
	if err := d.Unmarshal(b); err != nil {
		panic(err)
	}
	bs := "b"
	e := p.M_builder{S: &bs}.Build()
	m.SetS("c")
	d.SetS("d")
	fmt.Println("owned", m.GetS(), c.GetS(), d.GetS(), e.GetS())
	e.SetS("e")
	e.SetN(3)
	fmt.Println("case", e.WhichK(), e.GetS() == "", e.GetN())
	e.SetRaw(nil)
	fmt.Println("raw", e.HasRaw(), e.GetRaw() != nil)
	e.SetSub(nil)
	fmt.Println("sub", e.HasK())
}
`}, false)
	got, err := gentest.Go(t, dir, "run", ".")
	if err != nil {
		t.Fatalf("%v\n%s", err, got)
	}
	want := `set allocs 0 0 0
owned c b d b
case n true 3
raw true true
sub false
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestOpaqueBytesSetterNil runs a program against opaque code: SetX(nil)
// of a bytes field stores an empty slice, as protoc-gen-go's setters do,
// for explicit presence (Has true, Get non-nil, encoded as an empty
// field) and implicit presence (Get non-nil, not encoded); a non-nil
// value after a nil one replaces it, and SetX(nil) after a value does not
// keep the old bytes. The setters store v first and replace a nil one
// after (see genAccessors).
func TestOpaqueBytesSetterNil(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	src := `edition = "2024";
package p;
message M {
  bytes e = 1;
  bytes i = 2 [features.field_presence = IMPLICIT];
}
`
	res := compiler.Compile(context.Background(), compiler.Request{Sources: map[string]string{"p.proto": src}, Files: []string{"p.proto"}, NoGenerate: true})
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	opts, err := gogen.ParseOptions("module=" + gentest.ModulePath + ",Mp.proto=" + gentest.ModulePath + "/p;p")
	if err != nil {
		t.Fatal(err)
	}
	files, diags := gogen.Generate(res.Files, opts)
	for _, d := range diags {
		t.Fatalf("%s:%d:%d: %s", d.File, d.Line, d.Column, d.Message)
	}
	dir := gentest.WriteModule(t, files, map[string]string{"main.go": `package main

import (
	"fmt"

	"` + gentest.ModulePath + `/p"
)

func show(step string, m *p.M) {
	b, err := m.Marshal()
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s e has=%v nil=%v %q i nil=%v %q wire=%x\n", step, m.HasE(), m.GetE() == nil, m.GetE(), m.GetI() == nil, m.GetI(), b)
}

func main() {
	m := &p.M{}
	show("zero", m)
	m.SetE(nil)
	m.SetI(nil)
	show("nil", m)
	m.SetE([]byte("x"))
	m.SetI([]byte("y"))
	show("set", m)
	m.SetE(nil)
	m.SetI(nil)
	show("nil again", m)
	m.ClearE()
	show("clear", m)
}
`}, false)
	got, err := gentest.Go(t, dir, "run", ".")
	if err != nil {
		t.Fatalf("%v\n%s", err, got)
	}
	want := `zero e has=false nil=true "" i nil=true "" wire=
nil e has=true nil=false "" i nil=false "" wire=0a00
set e has=true nil=false "x" i nil=false "y" wire=0a0178120179
nil again e has=true nil=false "" i nil=false "" wire=0a00
clear e has=false nil=true "" i nil=false "" wire=
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestOpaqueDirectBuild: Build of a message whose fields all go into the
// struct as they are (implicit presence scalars, strings and bytes,
// repeated, map and message fields; no presence bit, no oneof) is one
// composite literal (see directBuild), and returns what the builder holds;
// a message with a presence bit keeps the field-by-field form.
func TestOpaqueDirectBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	src := `edition = "2024";
package p;
option features.field_presence = IMPLICIT;
message D {
  int32 a = 1;
  string s = 2;
  bytes b = 3;
  repeated int64 r = 4;
  map<string, int32> m = 5;
  D sub = 6;
}
message E {
  int32 a = 1 [features.field_presence = EXPLICIT];
}
`
	res := compiler.Compile(context.Background(), compiler.Request{Sources: map[string]string{"p.proto": src}, Files: []string{"p.proto"}, NoGenerate: true})
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	opts, err := gogen.ParseOptions("module=" + gentest.ModulePath + ",Mp.proto=" + gentest.ModulePath + "/p;p")
	if err != nil {
		t.Fatal(err)
	}
	files, diags := gogen.Generate(res.Files, opts)
	for _, d := range diags {
		t.Fatalf("%s:%d:%d: %s", d.File, d.Line, d.Column, d.Message)
	}
	code := files[0].Content
	for _, want := range []string{
		"func (b0 D_builder) Build() *D {\n\treturn &D{\n\t\txxx_hidden_A:",
		"func (b0 E_builder) Build() *E {\n\tm0 := &E{}",
	} {
		if !strings.Contains(code, want) {
			t.Errorf("generated code has no %q", want)
		}
	}
	dir := gentest.WriteModule(t, files, map[string]string{"main.go": `package main

import (
	"fmt"

	"` + gentest.ModulePath + `/p"
)

func main() {
	d := p.D_builder{A: 7, S: "s", B: []byte("b"), R: []int64{1, 2}, M: map[string]int32{"k": 3}, Sub: p.D_builder{A: 8}.Build()}.Build()
	fmt.Println(d.GetA(), d.GetS(), string(d.GetB()), d.GetR(), d.GetM(), d.GetSub().GetA(), d.HasSub())
	b, err := d.Marshal()
	if err != nil {
		panic(err)
	}
	fmt.Printf("%x\n", b)
	z := p.D_builder{}.Build()
	fmt.Println(z != nil, z.GetA(), z.GetB() == nil, z.GetR() == nil, z.HasSub())
	seven := int32(7)
	e := p.E_builder{A: &seven}.Build()
	fmt.Println(e.HasA(), e.GetA(), p.E_builder{}.Build().HasA())
}
`}, false)
	got, err := gentest.Go(t, dir, "run", ".")
	if err != nil {
		t.Fatalf("%v\n%s", err, got)
	}
	want := `7 s b [1 2] map[k:3] 8 true
08071201731a0162220201022a050a016b100332020808
true 0 true true false
true 7 false
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
