package frontend

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
)

// The compiler's queries run one per processor (queryParallelism), and a
// compile of many files gives the same descriptors and diagnostics under
// several processors as under one: googleapis' files (make bench's
// compiler-speed schema) and the sources of TestDiagnosticsDeterministic.
func TestParallelQueriesSameResult(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	runtime.GOMAXPROCS(1)
	if got := queryParallelism(); got != 1 {
		t.Fatalf("queryParallelism under GOMAXPROCS 1 = %d", got)
	}
	runtime.GOMAXPROCS(4)
	if got := queryParallelism(); got != 4 {
		t.Fatalf("queryParallelism under GOMAXPROCS 4 = %d, want 4: the compiler's queries run one per processor", got)
	}

	dir := corpusDir(t)
	var files []string
	root := filepath.Join(dir, "googleapis")
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".proto") {
			rel, _ := filepath.Rel(root, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(files)
	if len(files) == 0 {
		t.Skip("no googleapis files in the corpus")
	}
	withErrors := map[string]string{
		"a.proto": "syntax = \"proto3\";\npackage a;\nimport \"b.proto\";\nimport \"missing.proto\";\nmessage A { b.B b = 1; Nope n = 2; int32 x = 2; }\n",
		"b.proto": "syntax = \"proto3\";\npackage b;\nmessage B { int32 y = 1\n int32 z = 2; }\n",
		"c.proto": "syntax = \"proto3\";\npackage c;\nimport \"b.proto\";\nenum E { ONE = 1; }\nmessage C { Other o = 1; }\n",
	}
	compile := func(procs int, req Request) string {
		runtime.GOMAXPROCS(procs)
		req.Cache = &LinkCache{} // a session made under procs
		res := Compile(context.Background(), req)
		var b strings.Builder
		for _, d := range res.Diagnostics {
			b.WriteString(d.String() + "\n" + d.Details())
		}
		for _, fd := range res.Files {
			data, err := proto.MarshalOptions{Deterministic: true}.Marshal(protodesc.ToFileDescriptorProto(fd))
			if err != nil {
				t.Fatal(err)
			}
			b.Write(data)
		}
		return b.String()
	}
	for _, req := range []Request{
		{FS: os.DirFS(dir), ImportPaths: []string{"googleapis", "protobuf"}, Files: files},
		{Sources: withErrors},
	} {
		one := compile(1, req)
		if len(one) == 0 {
			t.Fatal("no output")
		}
		for i := 0; i < 3; i++ {
			if got := compile(4, req); got != one {
				t.Fatalf("a compile under 4 processors differs from one under 1 (run %d)", i)
			}
		}
	}
}
