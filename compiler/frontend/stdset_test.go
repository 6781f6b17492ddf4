package frontend

import (
	"bytes"
	"context"
	"embed"
	"flag"
	"io"
	"os"
	"testing"

	"github.com/bufbuild/protocompile"
	"github.com/bufbuild/protocompile/linker"
	"github.com/bufbuild/protocompile/reporter"
	"github.com/bufbuild/protocompile/wellknownimports"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/types/descriptorpb"
)

var update = flag.Bool("update", false, "rewrite bundled/standard.binpb from the standard files' sources")

// bundledSources holds the source of the standard file protocompile does
// not bundle: google/protobuf/go_features.proto (see bundled/LICENSE).
//
//go:embed bundled/google/protobuf/*.proto
var bundledSources embed.FS

// standardFromSource compiles every standard file from its source text, as
// protoc bundles it, with source info: protocompile's wellknownimports
// copies, and bundled/ for go_features.proto.
func standardFromSource(t *testing.T) linker.Files {
	t.Helper()
	c := protocompile.Compiler{
		Resolver: wellknownimports.WithStandardImports(&protocompile.SourceResolver{Accessor: func(path string) (io.ReadCloser, error) {
			return bundledSources.Open("bundled/" + path)
		}}),
		Reporter:       reporter.NewReporter(func(err reporter.ErrorWithPos) error { return err }, nil),
		SourceInfoMode: protocompile.SourceInfoStandard,
		MaxParallelism: 1,
	}
	files, err := c.Compile(context.Background(), standardFiles...)
	if err != nil {
		t.Fatalf("compiling the standard files from source: %v", err)
	}
	return files
}

// standardSetFrom is the FileDescriptorSet standardSet holds: each file as
// protocompile compiled it (its linker.Result's FileDescriptorProto, source
// info included), every file after the files it imports, in
// standardFiles' order otherwise.
func standardSetFrom(t *testing.T, files linker.Files) []byte {
	t.Helper()
	var set descriptorpb.FileDescriptorSet
	done := map[string]bool{}
	var add func(f linker.File)
	add = func(f linker.File) {
		if done[f.Path()] {
			return
		}
		done[f.Path()] = true
		for i := 0; i < f.Imports().Len(); i++ {
			add(files.FindFileByPath(f.Imports().Get(i).Path()))
		}
		res, ok := f.(linker.Result)
		if !ok {
			t.Fatalf("%s: compiled from source but not a linker.Result", f.Path())
		}
		set.File = append(set.File, res.FileDescriptorProto())
	}
	for _, f := range files {
		add(f)
	}
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(&set)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The embedded standard files are the standard files compiled from source
// byte for byte (go test -run TestStandardSet -update rewrites them), and
// each one a compilation links from it is the same descriptor, source info
// included, as the one compiled from source: what a compilation sees of a
// standard file did not change when it stopped parsing them.
func TestStandardSet(t *testing.T) {
	fromSource := standardFromSource(t)
	want := standardSetFrom(t, fromSource)
	if *update {
		if err := os.WriteFile("bundled/standard.binpb", want, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote bundled/standard.binpb (%d bytes)", len(want))
		return
	}
	if !bytes.Equal(standardSet, want) {
		t.Fatalf("bundled/standard.binpb (%d bytes) is not the standard files compiled from source (%d bytes): run go test ./compiler/frontend -run TestStandardSet -update (make generate)", len(standardSet), len(want))
	}
	if got := len(standardProtos()); got != len(standardFiles) {
		t.Errorf("standard.binpb holds %d files, want %d", got, len(standardFiles))
	}
	det := proto.MarshalOptions{Deterministic: true}
	for _, src := range fromSource {
		f, ok := standardFile(src.Path())
		if !ok {
			t.Errorf("%s: not linked from standard.binpb", src.Path())
			continue
		}
		got, err1 := det.Marshal(protodesc.ToFileDescriptorProto(f))
		want, err2 := det.Marshal(protodesc.ToFileDescriptorProto(src))
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: linked from standard.binpb, it is not the descriptor compiled from source", src.Path())
		}
		if f.SourceLocations().Len() != src.SourceLocations().Len() || f.SourceLocations().Len() == 0 {
			t.Errorf("%s: %d source locations, %d compiled from source", src.Path(), f.SourceLocations().Len(), src.SourceLocations().Len())
		}
		for i := 0; i < f.Imports().Len(); i++ {
			imp := f.Imports().Get(i)
			if dep, _ := standardFile(imp.Path()); imp.FileDescriptor != dep {
				t.Errorf("%s: its import %s is not the shared standard file", f.Path(), imp.Path())
			}
		}
	}
}
