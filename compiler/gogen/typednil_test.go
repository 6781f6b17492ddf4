package gogen_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
	"github.com/protoplay/protoplay/internal/gentest"
)

// typedNilSchemas are the project's own schemas TestTypedNilOneof covers:
// every .proto file under each folder (relative to the repository root,
// also its import root), those without a oneof contributing nothing.
var typedNilSchemas = []string{
	"testdata/cases",
	"testdata/golden",
	"testdata/examples",
	"testdata/example",
	"compiler/gogen/testdata/equal",
}

// typedNilCorpus are the conformance test messages of ../shared/corpus
// (folder protobuf), in each syntax.
var typedNilCorpus = []string{
	"google/protobuf/test_messages_proto2.proto",
	"google/protobuf/test_messages_proto3.proto",
	"editions/golden/test_messages_proto2_editions.proto",
	"editions/golden/test_messages_proto3_editions.proto",
	"conformance/test_protos/test_messages_edition2023.proto",
}

// TestTypedNilOneof generates every message with a real oneof of
// typedNilSchemas and typedNilCorpus, and with the well-known types'
// (runtime/wkt: google.protobuf.Value) runs testdata/typednil.go.txt
// against them: each exported method of the message (found by reflection,
// so future methods are covered), called with one oneof member set to a
// typed nil ((*M_A)(nil)), must give what it gives on the empty message,
// as protobuf-go, whose reflection reads a nil wrapper pointer as no
// member (case 54). Its package, typednil, lives in the module the JSON
// and text differential tests share (genModule), so the corpus's
// test_messages are the packages they compile, built once for all.
func TestTypedNilOneof(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	t.Parallel() // see parallel in main_test.go
	bin, dir := genTestBinary(t, "typednil", "protolegacy")
	if !genModule.corpus {
		t.Log("../shared is absent: TestTypedNilOneof covers the project's own schemas only, not the corpus's test_messages (set PROTOPLAY_SHARED)")
	}
	out, err := runGenTest(t, bin, dir, nil, "-test.count=1", "-test.v", "-test.run=^TestTypedNilOneof$")
	if err != nil {
		t.Fatalf("typed-nil oneof checks failed: %v\n%s", err, out)
	}
	var logs []string
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "method calls") {
			logs = append(logs, strings.TrimSpace(line))
		}
	}
	if len(logs) == 0 {
		t.Fatalf("the typed-nil oneof checks ran no test:\n%s", out)
	}
	t.Logf("%d message types from %d schema groups: %s", genModule.typed.types, len(genModule.typed.groups), strings.Join(logs, "; "))
}

// typedNilRegistry collects the typednil package's registry: each message
// with a oneof, with a setter per member that stores a typed nil.
type typedNilRegistry struct {
	imports map[string]string // alias → import path
	reg     strings.Builder
	types   int
	groups  []string // the schema groups that added a type, in order
}

// add registers the messages of fd (generated under opts) that have a
// real oneof, under the group tag.
func (r *typedNilRegistry) add(t *testing.T, tag string, fd protoreflect.FileDescriptor, opts gogen.Options) {
	t.Helper()
	path, _, _ := strings.Cut(opts.ImportMap[fd.Path()], ";")
	if p, wkt := gogen.WellKnownImportPath(fd.Path()); wkt {
		path = p
	}
	alias := fmt.Sprintf("p%d", len(r.imports))
	goNames := gogen.OneofGoNames(withDeps(fd), opts)
	if _, wkt := gogen.WellKnownImportPath(fd.Path()); wkt {
		goNames = gogen.OneofGoNames([]protoreflect.FileDescriptor{fd}, opts)
	}
	n := 0
	gentest.EachMessage(fd.Messages(), func(md protoreflect.MessageDescriptor) {
		oneofs := goNames[md.FullName()]
		if len(oneofs) == 0 {
			return // no oneof, or proto3 optional fields only
		}
		n++
		typ := alias + "." + gogen.GoName(md)
		fmt.Fprintf(&r.reg, "\t{name: %q, new: func() any { return new(%s) }, members: []member{\n", tag+":"+string(md.FullName()), typ)
		for _, o := range oneofs {
			for _, w := range o[1:] {
				fmt.Fprintf(&r.reg, "\t\t{%q, func(m any) { m.(*%s).%s = (*%s.%s)(nil) }},\n", w, typ, o[0], alias, w)
			}
		}
		r.reg.WriteString("\t}},\n")
	})
	if n == 0 {
		return
	}
	r.imports[alias] = path
	r.types += n
	if !slices.Contains(r.groups, tag) {
		r.groups = append(r.groups, tag)
	}
}

// addTypedNil adds to m the generated code of typedNilSchemas (each
// folder its own group of packages, typedNilRehome) and the typednil
// package: testdata/typednil.go.txt and the registry of r, to which it
// adds those schemas and the well-known types.
func addTypedNil(t *testing.T, m *moduleFiles, r *typedNilRegistry) {
	t.Helper()
	for i, dir := range typedNilSchemas {
		full := filepath.Join(gentest.RepoRoot(), filepath.FromSlash(dir))
		names, err := filepath.Glob(filepath.Join(full, "*.proto"))
		if err != nil || len(names) == 0 {
			t.Fatalf("%s: no .proto files (%v)", dir, err)
		}
		var files []string
		for _, n := range names {
			files = append(files, filepath.Base(n))
		}
		if dir == "testdata/cases" {
			srcs := map[string]string{}
			for _, f := range files {
				srcs[f] = ""
			}
			files = buildableCases(srcs)
		}
		tag, fsys := fmt.Sprintf("own%d", i), os.DirFS(full)
		for _, file := range files {
			res := compiler.Compile(context.Background(), compiler.Request{FS: fsys, ImportPaths: []string{"."}, Files: []string{file}, NoGenerate: true})
			if err := res.Err(); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			fd := res.Files[0]
			hasOneof := false
			gentest.EachMessage(fd.Messages(), func(md protoreflect.MessageDescriptor) {
				hasOneof = hasOneof || md.Oneofs().Len() > 0
			})
			if !hasOneof {
				continue
			}
			opts := typedNilRehome(fd, tag)
			out, diags := gogen.Generate(withDeps(fd), opts)
			for _, d := range diags {
				t.Fatalf("%s:%d:%d: %s", d.File, d.Line, d.Column, d.Message)
			}
			m.add(t, out)
			r.add(t, tag, fd, opts)
		}
	}
	// The well-known types (runtime/wkt, generated, with hand-written
	// methods beside: google.protobuf.Value's JSON encoder).
	for _, name := range gogen.WellKnownFiles() {
		r.add(t, "wkt", standardFile(t, name), gogen.Options{})
	}
	src, err := os.ReadFile(filepath.Join("testdata", "typednil.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	m.extra["typednil/typednil_test.go"] = string(src)
	m.extra["typednil/registry_test.go"] = "// Code generated by compiler/gogen/typednil_test.go. DO NOT EDIT.\n\npackage typednil\n\n" +
		gentest.ImportBlock(r.imports) + "\nvar registry = []entry{\n" + r.reg.String() + "}\n"
}

// typedNilRehome places fd and each file it imports (but the well-known
// types) in its own Go package under gentest/typednil/<tag>, whatever its
// go_package, so that schemas of several folders share one module.
func typedNilRehome(fd protoreflect.FileDescriptor, tag string) gogen.Options {
	opts := gogen.Options{Paths: "import", Module: gentest.ModulePath, ImportMap: map[string]string{}}
	for _, f := range withDeps(fd) {
		p := strings.TrimSuffix(f.Path(), ".proto")
		name := "p" + strings.Map(func(r rune) rune {
			switch {
			case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
				return r
			case r >= 'A' && r <= 'Z':
				return r + 'a' - 'A'
			}
			return -1
		}, filepath.Base(p))
		dir := strings.Map(func(r rune) rune {
			if r == '/' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
				return r
			}
			return '_'
		}, p)
		opts.ImportMap[f.Path()] = gentest.ModulePath + "/typednil/" + tag + "/" + dir + ";" + name
	}
	return opts
}
