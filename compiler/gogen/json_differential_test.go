package gogen_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
	"github.com/protoplay/protoplay/internal/gentest"
)

// jsonDiffSchemas are the conformance test messages (proto2, proto3 and
// their editions forms), three unittest schemas, and (through
// withGoogleapis) the googleapis schemas of TestDifferential.
var jsonDiffSchemas = []diffSchema{
	{"protobuf", []string{"google/protobuf/test_messages_proto2.proto"}},
	{"protobuf", []string{"google/protobuf/test_messages_proto3.proto"}},
	{"protobuf", []string{"editions/golden/test_messages_proto2_editions.proto"}},
	{"protobuf", []string{"editions/golden/test_messages_proto3_editions.proto"}},
	{"protobuf", []string{"conformance/test_protos/test_messages_edition2023.proto"}},
	// proto3 optional fields, every well-known type in every position,
	// and maps of every key and value kind.
	{"protobuf", []string{"google/protobuf/unittest_proto3_optional.proto"}},
	{"protobuf", []string{"google/protobuf/unittest_well_known_types.proto"}},
	{"protobuf", []string{"google/protobuf/map_unittest.proto"}},
}

// jsonOpaqueDiffSchemas are compared a second time with the opaque API
// (default_api_level=API_OPAQUE).
var jsonOpaqueDiffSchemas = []diffSchema{
	{"protobuf", []string{"google/protobuf/test_messages_proto2.proto"}},
	{"protobuf", []string{"google/protobuf/test_messages_proto3.proto"}},
	{"protobuf", []string{"editions/golden/test_messages_proto2_editions.proto"}},
	{"protobuf", []string{"google/protobuf/unittest_proto3_optional.proto"}},
}

// TestJSONDifferential generates jsonDiffSchemas and runs
// testdata/jsondiff.go.txt against them in a temporary module: the
// generated ProtoJSON methods are compared with
// google.golang.org/protobuf/encoding/protojson (over dynamicpb) on random
// values in both directions, under each option, and on a table of valid and
// invalid JSON inputs (see that file); and testdata/jsonedge.go.txt's
// hand-written edge values and inputs and every field of every message
// type given each of a list of JSON values. The schemas include
// real-world googleapis files and the well-known types as top-level
// messages (and, under PROTOPLAY_DIFF_HEAVY, the large googleapis files).
func TestJSONDifferential(t *testing.T) {
	runDifferential(t, "JSON", "-skip", "^TestText|^TestExtensions")
}

// extDiffSchemas are compiled into the module of TestJSONDifferential for
// their extensions only (their messages are left out of the registry of
// the other differential tests): the unittest files of protobuf 3.21
// (proto2: groups, defaults, packed, nested and imported types) and of
// the current protobuf (edition 2023).
var extDiffSchemas = []diffSchema{
	{"protobuf-3.21.12", []string{"google/protobuf/unittest.proto"}},
	{"protobuf", []string{"google/protobuf/unittest.proto"}},
}

// TestExtensionsDifferential runs testdata/extdiff.go.txt in the module of
// TestJSONDifferential: every extension of the conformance test messages
// and of extDiffSchemas, through its generated E_ variable, is compared
// with proto.GetExtension and proto.SetExtension (over dynamicpb) on
// random values, in binary (both directions), ProtoJSON and text (each
// side reading the other's output), with the file's generated Extensions_
// list in the codecs' options.
func TestExtensionsDifferential(t *testing.T) {
	runDifferential(t, "extensions", "-run", "^TestExtensions")
}

// TestTextDifferential runs testdata/textdiff.go.txt in the module of
// TestJSONDifferential: the generated text-format methods are compared with
// google.golang.org/protobuf/encoding/prototext (over dynamicpb) on random
// values in both directions, under each option, and on a table of valid and
// invalid text inputs and mutations of valid ones (see that file), with
// jsonedge.go.txt's text-format edge inputs and field tokens; and
// compiler/payload's text format (FormatValue, ParseValue) with the
// generated MarshalProtoText and UnmarshalProtoText (TestTextPayloadAdapter).
func TestTextDifferential(t *testing.T) {
	runDifferential(t, "text", "-run", "^TestText")
}

// runDifferential runs the tests of the shared generated module's jsondiff
// package (see genModule) that flag and pattern select.
func runDifferential(t *testing.T, what, flag, pattern string) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	corpusDir(t) // skips these tests alike when the corpus is absent
	t.Parallel() // see parallel in main_test.go
	bin, dir := genTestBinary(t, "jsondiff", "protolegacy")
	out, err := runGenTest(t, bin, dir, nil, "-test.count=1", "-test.v", "-test."+strings.TrimPrefix(flag, "-"), pattern)
	if err != nil {
		t.Fatalf("%s differential tests failed: %v\n%s", what, err, out)
	}
	var kept []string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "=== ") || strings.TrimSpace(line) == "" {
			continue
		}
		kept = append(kept, line)
	}
	t.Log("\n" + strings.Join(kept, "\n"))
}

// addJSONDiff adds to m the generated code of the JSON, text and
// extension differential tests' schemas of the corpus at dir, and their
// test package jsondiff (testdata/jsondiff.go.txt and its siblings, with a
// registry of the schemas' messages, resolvers and extensions); and to tn
// the messages with a oneof of the corpus files TestTypedNilOneof covers
// (typedNilCorpus), as generated here.
func addJSONDiff(t *testing.T, dir string, m *moduleFiles, tn *typedNilRegistry) {
	fsys := os.DirFS(dir)
	extra := m.extra
	imports := map[string]string{}
	var reg, resolvers, exts, extLists strings.Builder
	schemas := withLevels(withGoogleapis(jsonDiffSchemas), jsonOpaqueDiffSchemas, nil)
	nMsgSchemas := len(schemas)
	schemas = append(schemas, withLevels(extDiffSchemas, nil, nil)...)
	// Each schema's files are compiled together; one descriptor set per
	// file, whose last file is that file (the root payload.NewSchema and
	// the registry use).
	si := 0
	// addSchema registers fd, whose generated package is imported as
	// alias, as schema si: its resolver, its messages and its descriptors.
	addSchema := func(fd protoreflect.FileDescriptor, alias, path string, msgs bool) {
		var set descSet
		set.add(t, fd)
		imports[alias] = path
		fmt.Fprintf(&resolvers, "\t%s.%s,\n", alias, gogen.ProtoJSONResolverName(fd.Path()))
		if msgs {
			gentest.EachMessage(fd.Messages(), func(md protoreflect.MessageDescriptor) {
				fmt.Fprintf(&reg, "\t{schema: %d, name: %q, new: func() message { return new(%s.%s) }},\n", si, md.FullName(), alias, gogen.GoName(md))
			})
		}
		// The file's extensions, by their E_ variables, and its list.
		xs := fileExtensions(fd)
		for _, xd := range xs {
			name := "E_" + gogen.GoCamelCase(string(xd.Name()))
			if md, ok := xd.Parent().(protoreflect.MessageDescriptor); ok {
				name = "E_" + gogen.GoName(md) + "_" + gogen.GoCamelCase(string(xd.Name()))
			}
			ctor := "extOf"
			if xd.IsList() {
				ctor = "extListOf"
			}
			fmt.Fprintf(&exts, "\t%s(%d, &%s.%s),\n", ctor, si, alias, name)
		}
		if len(xs) > 0 {
			fmt.Fprintf(&extLists, "\t%s.%s,\n", alias, gogen.ExtensionsListName(fd.Path()))
		} else {
			extLists.WriteString("\tnil,\n")
		}
		desc, err := proto.Marshal(&set.FileDescriptorSet)
		if err != nil {
			t.Fatal(err)
		}
		extra[fmt.Sprintf("jsondiff/schemas/%d.binpb", si)] = string(desc)
		si++
	}
	for i, sch := range schemas {
		res := compiler.Compile(context.Background(), compiler.Request{FS: fsys, ImportPaths: importRoots(sch.root), Files: sch.files, NoGenerate: true})
		if err := res.Err(); err != nil {
			t.Fatalf("%s: %v", sch.files[0], err)
		}
		for _, fd := range res.Files {
			opts := sch.options(fd)
			out, diags := gogen.Generate(withDeps(fd), opts)
			for _, d := range diags {
				t.Fatalf("%s:%d:%d: %s", d.File, d.Line, d.Column, d.Message)
			}
			m.add(t, out)
			path, _, _ := strings.Cut(opts.ImportMap[fd.Path()], ";")
			addSchema(fd, fmt.Sprintf("p%d", si), path, i < nMsgSchemas)
			if sch.root == "protobuf" && sch.level == "" && slices.Contains(typedNilCorpus, fd.Path()) {
				tn.add(t, "corpus", fd, opts)
			}
		}
	}
	// The well-known types as top-level messages (runtime/wkt's code):
	// one schema per file (descriptor.proto left out: it is large and has
	// no special JSON form), with the file's generated resolver.
	for _, name := range gogen.WellKnownFiles() {
		if name == "google/protobuf/descriptor.proto" {
			continue
		}
		path, _ := gogen.WellKnownImportPath(name)
		addSchema(standardFile(t, name), "w"+strings.TrimSuffix(path[strings.LastIndex(path, "/")+1:], "pb"), path, true)
	}
	src := "// Code generated by compiler/gogen/json_differential_test.go. DO NOT EDIT.\n\npackage jsondiff\n\n" +
		strings.Replace(gentest.ImportBlock(imports), "import (", "import (\n\tpjson \"github.com/protoplay/protoplay/runtime/protojson\"\n\t\"github.com/protoplay/protoplay/runtime/wire\"\n", 1) + "\nconst nSchemas = " + fmt.Sprint(si) + "\n\nvar registry = []entry{\n" + reg.String() + "}\n\n" +
		"// resolvers are the generated resolver functions of the schemas' files.\nvar resolvers = []func(string) pjson.Message{\n" + resolvers.String() + "}\n\n" +
		"// extRegistry holds the extensions the schemas' files declare.\nvar extRegistry = []extEntry{\n" + exts.String() + "}\n\n" +
		"// extLists are the generated extension lists of the schemas' files (nil: none).\nvar extLists = [][]*wire.Extension{\n" + extLists.String() + "}\n"
	extra["jsondiff/registry_test.go"] = src
	harness, err := os.ReadFile(filepath.Join("testdata", "jsondiff.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	extra["jsondiff/jsondiff_test.go"] = string(harness)
	for _, h := range []string{"textdiff", "jsonedge", "extdiff"} {
		src, err := os.ReadFile(filepath.Join("testdata", h+".go.txt"))
		if err != nil {
			t.Fatal(err)
		}
		extra["jsondiff/"+h+"_test.go"] = string(src)
	}
}

// fileExtensions returns the extensions fd declares, at file level and in
// its messages.
func fileExtensions(fd protoreflect.FileDescriptor) []protoreflect.FieldDescriptor {
	var out []protoreflect.FieldDescriptor
	for i := 0; i < fd.Extensions().Len(); i++ {
		out = append(out, fd.Extensions().Get(i))
	}
	gentest.EachMessage(fd.Messages(), func(md protoreflect.MessageDescriptor) {
		for i := 0; i < md.Extensions().Len(); i++ {
			out = append(out, md.Extensions().Get(i))
		}
	})
	return out
}
