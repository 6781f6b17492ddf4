package frontend

import (
	"bytes"
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bufbuild/protocompile/experimental/incremental"
	"github.com/bufbuild/protocompile/experimental/incremental/queries"
	"github.com/bufbuild/protocompile/experimental/ir"
	"github.com/bufbuild/protocompile/experimental/report"
	"github.com/bufbuild/protocompile/experimental/source"
	"github.com/bufbuild/protocompile/wellknownimports"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

var update = flag.Bool("update", false, "rewrite bundled/standard.binpb from the standard files' sources")

// standardFromSource compiles every standard file from its source text, as
// protoc bundles it, with source info (comments and spans), with the
// compiler Compile runs. The text comes from the versions go.mod pins, so
// that bumping them and running make generate is the whole upgrade:
// protocompile's wellknownimports copies of protoc's google/protobuf
// files, and google.golang.org/protobuf's own go_features.proto
// (src/google/protobuf in its module), which protocompile may carry a
// different version of. TestStandardSetIsPinned checks that the result is
// the descriptors google.golang.org/protobuf compiles in.
func standardFromSource(t *testing.T) *descriptorpb.FileDescriptorSet {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "google.golang.org/protobuf").Output()
	if err != nil {
		t.Fatalf("finding google.golang.org/protobuf's module directory: %v", err)
	}
	goFeatures, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "src", "google", "protobuf", "go_features.proto"))
	if err != nil {
		t.Fatal(err)
	}
	own := source.NewMap(nil)
	own.Add("google/protobuf/go_features.proto", string(goFeatures))
	return compileSources(t, &source.Openers{own, &source.FS{FS: wellknownimports.FS()}}, standardFiles...)
}

// compileSources compiles files with the experimental compiler as Compile
// runs it (one goroutine, source info), from op alone, and returns the
// descriptors after the encode/decode round trip Compile makes (options
// as fields), each file after its imports. Any error fails the test.
func compileSources(t *testing.T, op source.Opener, files ...string) *descriptorpb.FileDescriptorSet {
	t.Helper()
	exec := incremental.New(incremental.WithParallelism(1))
	results, rep, err := incremental.Run(context.Background(), exec, queries.FDS{
		Opener:    op,
		Session:   new(ir.Session),
		Workspace: source.NewWorkspace(files...),
		Options:   fdsOptions,
	})
	if err != nil {
		t.Fatalf("compiling %v: %v", files, err)
	}
	for _, d := range reportDiagnostics(rep) {
		if d.level <= report.Error {
			t.Errorf("compiling %v: %s: %s", files, d.inFile, d.message)
		}
	}
	if len(results) != 1 || results[0].Fatal != nil || results[0].Value == nil {
		t.Fatalf("compiling %v: no descriptors (%v)", files, results)
	}
	data, err := proto.Marshal(results[0].Value)
	if err != nil {
		t.Fatal(err)
	}
	set := new(descriptorpb.FileDescriptorSet)
	if err := proto.Unmarshal(data, set); err != nil {
		t.Fatal(err)
	}
	return set
}

// standardSetFrom is the FileDescriptorSet standardSet holds, every file
// after the files it imports, in standardFiles' order otherwise. A file
// google.golang.org/protobuf compiles in (the well-known types,
// descriptor.proto, plugin.proto, go_features.proto) is protobuf-go's
// descriptor, the one go.mod pins, with the comments and spans of the
// source text (compiled, from protocompile's copies) attached to each
// element that text declares, found by name (pinnedWithComments): the
// descriptors are exactly the pinned ones, and an element the text lacks
// has no comment rather than a missing field. cpp_features.proto and
// java_features.proto, which protobuf-go does not compile in, are as the
// compiler compiled them.
func standardSetFrom(t *testing.T, compiled *descriptorpb.FileDescriptorSet) []byte {
	t.Helper()
	byName := map[string]*descriptorpb.FileDescriptorProto{}
	for _, f := range compiled.File {
		byName[f.GetName()] = f
	}
	var set descriptorpb.FileDescriptorSet
	done := map[string]bool{}
	var add func(name string)
	add = func(name string) {
		if done[name] {
			return
		}
		done[name] = true
		fdp := byName[name]
		if fdp == nil {
			t.Fatalf("%s: not compiled", name)
		}
		for _, dep := range fdp.GetDependency() {
			add(dep)
		}
		if pinned, err := protoregistry.GlobalFiles.FindFileByPath(name); err == nil {
			fdp = pinnedWithComments(protodesc.ToFileDescriptorProto(pinned), fdp)
		}
		set.File = append(set.File, fdp)
	}
	for _, name := range standardFiles {
		add(name)
	}
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(&set)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// pinnedWithComments returns pinned with src's source locations whose
// element pinned has too, their paths renumbered to pinned's indexes.
func pinnedWithComments(pinned, src *descriptorpb.FileDescriptorProto) *descriptorpb.FileDescriptorProto {
	out := proto.Clone(pinned).(*descriptorpb.FileDescriptorProto)
	info := &descriptorpb.SourceCodeInfo{}
	for _, loc := range src.GetSourceCodeInfo().GetLocation() {
		path, ok := translatePath(src.ProtoReflect(), out.ProtoReflect(), loc.Path)
		if !ok {
			continue
		}
		l := proto.Clone(loc).(*descriptorpb.SourceCodeInfo_Location)
		l.Path = path
		info.Location = append(info.Location, l)
	}
	out.SourceCodeInfo = info
	return out
}

// translatePath maps a source-info path in a to the path of the same
// element in b: an element of a list of named descriptors by its name,
// any other by its index. ok is false when b has no such element.
func translatePath(a, b protoreflect.Message, path []int32) (out []int32, ok bool) {
	for i := 0; i < len(path); i++ {
		fd := a.Descriptor().Fields().ByNumber(protoreflect.FieldNumber(path[i]))
		if fd == nil || !b.Has(fd) {
			return nil, false
		}
		out = append(out, path[i])
		if !fd.IsList() && fd.Message() == nil {
			return out, i == len(path)-1
		}
		if !fd.IsList() {
			a, b = a.Get(fd).Message(), b.Get(fd).Message()
			continue
		}
		if i+1 == len(path) {
			return out, true
		}
		i++
		la, lb := a.Get(fd).List(), b.Get(fd).List()
		idx := int(path[i])
		if idx >= la.Len() {
			return nil, false
		}
		j := idx
		if fd.Message() != nil {
			if name := nameField(la.Get(idx).Message()); name != "" {
				j = -1
				for k := 0; k < lb.Len(); k++ {
					if nameField(lb.Get(k).Message()) == name {
						j = k
						break
					}
				}
			}
		}
		if j < 0 || j >= lb.Len() {
			return nil, false
		}
		out = append(out, int32(j))
		if fd.Message() == nil {
			return out, i == len(path)-1
		}
		a, b = la.Get(idx).Message(), lb.Get(j).Message()
	}
	return out, true
}

// nameField is a descriptor message's name field, "" if it has none.
func nameField(m protoreflect.Message) string {
	fd := m.Descriptor().Fields().ByName("name")
	if fd == nil || fd.Kind() != protoreflect.StringKind {
		return ""
	}
	return m.Get(fd).String()
}

// standardSources is bundled/SOURCES.txt: the modules, at go.mod's
// versions, standardSetFrom builds the set from (site/build's notices
// read the module lines).
func standardSources(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Path}} {{.Version}}", "github.com/bufbuild/protocompile", "google.golang.org/protobuf").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	return `# The modules standard.binpb is built from (TestStandardSet in compiler/frontend/stdset_test.go,
# make generate; this file too): the descriptors google.golang.org/protobuf compiles in (the
# well-known types, descriptor.proto, plugin.proto, go_features.proto), with the comments of the
# same elements in protocompile's wellknownimports copies of protoc's files and in protobuf-go's
# src/google/protobuf/go_features.proto; cpp_features.proto and java_features.proto as
# protocompile's copies.
` + string(out)
}

// The embedded standard files are standardSetFrom's set byte for byte (go
// test -run TestStandardSet -update rewrites them, part of make generate),
// and each one a compilation links from it is the same descriptor as the
// one in the set, with its source info.
func TestStandardSet(t *testing.T) {
	want := standardSetFrom(t, standardFromSource(t))
	sources := standardSources(t)
	if *update {
		if err := os.WriteFile("bundled/standard.binpb", want, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("bundled/SOURCES.txt", []byte(sources), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote bundled/standard.binpb (%d bytes) and bundled/SOURCES.txt", len(want))
		return
	}
	if b, err := os.ReadFile("bundled/SOURCES.txt"); err != nil || string(b) != sources {
		t.Errorf("bundled/SOURCES.txt does not name go.mod's versions (%v): make generate rewrites it as\n%s", err, sources)
	}
	if !bytes.Equal(standardSet, want) {
		t.Fatalf("bundled/standard.binpb (%d bytes) is not the standard files built from the pinned modules (%d bytes): run go test ./compiler/frontend -run TestStandardSet -update (make generate)", len(standardSet), len(want))
	}
	if got := len(standardProtos()); got != len(standardFiles) {
		t.Errorf("standard.binpb holds %d files, want %d", got, len(standardFiles))
	}
	var set descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(want, &set); err != nil {
		t.Fatal(err)
	}
	det := proto.MarshalOptions{Deterministic: true}
	for _, fdp := range set.File {
		f := standardFD(fdp.GetName())
		if f == nil {
			t.Errorf("%s: not linked from standard.binpb", fdp.GetName())
			continue
		}
		linked := protodesc.ToFileDescriptorProto(f)
		linked.SourceCodeInfo = nil
		bare := proto.Clone(fdp).(*descriptorpb.FileDescriptorProto)
		bare.SourceCodeInfo = nil
		got, err1 := det.Marshal(linked)
		want, err2 := det.Marshal(bare)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: linked from standard.binpb, it is not the descriptor in the set", fdp.GetName())
		}
		if n := len(fdp.GetSourceCodeInfo().GetLocation()); f.SourceLocations().Len() != n || n < 10 {
			t.Errorf("%s: %d source locations linked, %d in the set", fdp.GetName(), f.SourceLocations().Len(), n)
		}
		for i := 0; i < f.Imports().Len(); i++ {
			imp := f.Imports().Get(i)
			if dep := standardFD(imp.Path()); imp.FileDescriptor != dep {
				t.Errorf("%s: its import %s is not the shared standard file", f.Path(), imp.Path())
			}
		}
	}
}
