package gogen_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
// member (case 54).
func TestTypedNilOneof(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	type group struct {
		tag   string // package folder in the generated module
		fsys  fs.FS
		roots []string
		files []string
	}
	var groups []group
	for i, dir := range typedNilSchemas {
		full := filepath.Join(gentest.RepoRoot(), filepath.FromSlash(dir))
		names, err := filepath.Glob(filepath.Join(full, "*.proto"))
		if err != nil || len(names) == 0 {
			t.Fatalf("%s: no .proto files (%v)", dir, err)
		}
		g := group{tag: fmt.Sprintf("own%d", i), fsys: os.DirFS(full), roots: []string{"."}}
		for _, n := range names {
			g.files = append(g.files, filepath.Base(n))
		}
		if dir == "testdata/cases" {
			srcs := map[string]string{}
			for _, f := range g.files {
				srcs[f] = ""
			}
			g.files = buildableCases(srcs)
		}
		groups = append(groups, g)
	}
	if shared, ok := gentest.SharedDir(); ok {
		dir := filepath.Join(shared, "corpus")
		groups = append(groups, group{tag: "corpus", fsys: os.DirFS(dir), roots: importRoots("protobuf"), files: typedNilCorpus})
	} else {
		t.Log("../shared is absent: TestTypedNilOneof covers the project's own schemas only, not the corpus's test_messages (set PROTOPLAY_SHARED)")
	}

	var gen []gogen.File
	genSeen := map[string]string{}
	imports := map[string]string{}
	var reg strings.Builder
	types := 0
	for _, g := range groups {
		for _, file := range g.files {
			res := compiler.Compile(context.Background(), compiler.Request{FS: g.fsys, ImportPaths: g.roots, Files: []string{file}, NoGenerate: true})
			if err := res.Err(); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			fd := res.Files[0]
			var withOneofs []protoreflect.MessageDescriptor
			gentest.EachMessage(fd.Messages(), func(md protoreflect.MessageDescriptor) {
				if md.Oneofs().Len() > 0 {
					withOneofs = append(withOneofs, md)
				}
			})
			if len(withOneofs) == 0 {
				continue
			}
			opts := typedNilRehome(fd, g.tag)
			out, diags := gogen.Generate(withDeps(fd), opts)
			n := 0
			for _, d := range diags {
				t.Fatalf("%s:%d:%d: %s", d.File, d.Line, d.Column, d.Message)
			}
			for _, f := range out {
				if prev, ok := genSeen[f.Name]; ok {
					if prev != f.Content {
						t.Fatalf("%s generated twice with different content", f.Name)
					}
					continue
				}
				genSeen[f.Name] = f.Content
				gen = append(gen, f)
			}
			path, _, _ := strings.Cut(opts.ImportMap[fd.Path()], ";")
			alias := fmt.Sprintf("p%d", len(imports))
			goNames := gogen.OneofGoNames(withDeps(fd), opts)
			for _, md := range withOneofs {
				oneofs := goNames[md.FullName()]
				if len(oneofs) == 0 {
					continue // proto3 optional fields only
				}
				n++
				typ := alias + "." + gogen.GoName(md)
				fmt.Fprintf(&reg, "\t{name: %q, new: func() any { return new(%s) }, members: []member{\n", g.tag+":"+string(md.FullName()), typ)
				for _, o := range oneofs {
					for _, w := range o[1:] {
						fmt.Fprintf(&reg, "\t\t{%q, func(m any) { m.(*%s).%s = (*%s.%s)(nil) }},\n", w, typ, o[0], alias, w)
					}
				}
				reg.WriteString("\t}},\n")
				types++
			}
			if n > 0 {
				imports[alias] = path
			}
		}
	}
	// The well-known types (runtime/wkt, generated, with hand-written
	// methods beside: google.protobuf.Value's JSON encoder).
	for _, name := range gogen.WellKnownFiles() {
		fd := standardFile(t, name)
		goNames := gogen.OneofGoNames([]protoreflect.FileDescriptor{fd}, gogen.Options{})
		path, _ := gogen.WellKnownImportPath(name)
		alias := fmt.Sprintf("p%d", len(imports))
		gentest.EachMessage(fd.Messages(), func(md protoreflect.MessageDescriptor) {
			oneofs := goNames[md.FullName()]
			if len(oneofs) == 0 {
				return
			}
			imports[alias] = path
			typ := alias + "." + gogen.GoName(md)
			fmt.Fprintf(&reg, "\t{name: %q, new: func() any { return new(%s) }, members: []member{\n", "wkt:"+string(md.FullName()), typ)
			for _, o := range oneofs {
				for _, w := range o[1:] {
					fmt.Fprintf(&reg, "\t\t{%q, func(m any) { m.(*%s).%s = (*%s.%s)(nil) }},\n", w, typ, o[0], alias, w)
				}
			}
			reg.WriteString("\t}},\n")
			types++
		})
	}
	src, err := os.ReadFile(filepath.Join("testdata", "typednil.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	extra := map[string]string{
		"typednil/typednil_test.go": string(src),
		"typednil/registry_test.go": "// Code generated by compiler/gogen/typednil_test.go. DO NOT EDIT.\n\npackage typednil\n\n" +
			gentest.ImportBlock(imports) + "\nvar registry = []entry{\n" + reg.String() + "}\n",
	}
	mod := gentest.WriteModule(t, gen, extra, false)
	out, err := gentest.Go(t, mod, "test", "-count=1", "-v", "-run=TestTypedNilOneof", "./typednil/")
	if err != nil {
		t.Fatalf("typed-nil oneof checks failed: %v\n%s", err, out)
	}
	var logs []string
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "method calls") {
			logs = append(logs, strings.TrimSpace(line))
		}
	}
	t.Logf("%d message types from %d schema folders: %s", types, len(groups), strings.Join(logs, "; "))
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
