package gogen

import (
	"context"
	"fmt"
	"go/format"
	"io"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/bufbuild/protocompile"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// compileForTest links files (from sources, then the standard imports) with
// protocompile directly: package compiler imports this one.
func compileForTest(t *testing.T, fsys fs.FS, roots []string, files ...string) []protoreflect.FileDescriptor {
	t.Helper()
	c := protocompile.Compiler{
		Resolver: protocompile.WithStandardImports(&protocompile.SourceResolver{
			ImportPaths: roots,
			Accessor:    func(p string) (io.ReadCloser, error) { return fsys.Open(p) },
		}),
		SourceInfoMode: protocompile.SourceInfoStandard,
	}
	linked, err := c.Compile(context.Background(), files...)
	if err != nil {
		t.Fatalf("compile %v: %v", files, err)
	}
	out := make([]protoreflect.FileDescriptor, len(linked))
	for i, f := range linked {
		out[i] = f
	}
	return out
}

// manyMessages is a schema exercising every kind of piece: top-level and
// nested enums, nested messages several deep, a map entry (no piece), a
// oneof, comments, an extension and a service.
func manyMessages(n int) string {
	var b strings.Builder
	b.WriteString("syntax = \"proto2\";\npackage many;\noption go_package = \"example.com/many\";\n")
	b.WriteString("import \"google/protobuf/timestamp.proto\";\n")
	b.WriteString("// Color is top-level.\nenum Color { RED = 0; GREEN = 1; }\n")
	for i := range n {
		fmt.Fprintf(&b, "// M%d has a comment.\nmessage M%d {\n  optional int32 a = 1; // trailing\n  enum E { E_%d = 0; }\n", i, i, i)
		fmt.Fprintf(&b, "  message N { optional string s = 1; message O { optional E e = 1; } }\n")
		fmt.Fprintf(&b, "  map<string, N> kids = 2;\n  oneof k { int64 x = 3; N.O o = 4; }\n")
		fmt.Fprintf(&b, "  optional google.protobuf.Timestamp at = 5;\n  extensions 100 to 200;\n}\n")
	}
	b.WriteString("extend M0 { optional int32 ext = 100; }\nservice S { rpc Do(M0) returns (M1); }\n")
	return b.String()
}

// TestGenerateWithCheck: the check is called before printing and sees the
// output grow piece by piece, and its error stops generation with one
// diagnostic and no files.
func TestGenerateWithCheck(t *testing.T) {
	fds := compileForTest(t, fstest.MapFS{"many.proto": {Data: []byte(manyMessages(20))}}, []string{"."}, "many.proto")
	var sizes []int
	files, diags := GenerateWith(fds, Options{}, func(n int) error { sizes = append(sizes, n); return nil })
	if len(diags) > 0 || len(files) != 1 {
		t.Fatalf("%d files, %v", len(files), diags)
	}
	// One call once the names are decided (nothing printed yet), then one
	// per piece: the top-level enum, each message (M with its enum E, N,
	// N.O and the map entry, which prints nothing), the ProtoJSON
	// resolver function, the extensions and the trailer:
	// 1 + 1 + 20*4 + 1 + 1 + 1.
	if len(sizes) != 85 || sizes[0] != 0 {
		t.Errorf("check called %d times (first with %v), want 85, the first with 0", len(sizes), sizes[:min(1, len(sizes))])
	}
	for i := 1; i < len(sizes); i++ {
		if sizes[i] < sizes[i-1] {
			t.Fatalf("sizes not growing: %v", sizes)
		}
	}
	if last := sizes[len(sizes)-1]; last > len(files[0].Content) || last < len(files[0].Content)*9/10 {
		t.Errorf("last size %d, file %d bytes", last, len(files[0].Content))
	}
	stop := fmt.Errorf("over the limit")
	calls := 0
	files, diags = GenerateWith(fds, Options{}, func(n int) error {
		if calls++; calls == 5 {
			return stop
		}
		return nil
	})
	if files != nil || len(diags) != 1 || diags[0].Message != "over the limit" || diags[0].File != "many.proto" || calls != 5 {
		t.Errorf("stopped: %d files, %v after %d calls", len(files), diags, calls)
	}
}

// TestDocCommentGofmtFixedPoint: a doc comment that gofmt's first pass
// turns into a code block and a list which its second pass changes again
// (a numbered list whose items are indented unevenly, as in
// google/spanner/v1's ExecuteBatchDmlResponse) is printed as gofmt's
// fixed point, so the file is gofmt-clean; the pieces still match the
// whole-file render.
func TestDocCommentGofmtFixedPoint(t *testing.T) {
	const proto = `syntax = "proto3";
package p;
option go_package = "example.com/p";

// 1. Check the status. The
// x enum
//    value OK means success.
// 2. If the status was not OK, check the
//    response.
message M {}
`
	fds := compileForTest(t, fstest.MapFS{"p.proto": {Data: []byte(proto)}}, []string{"."}, "p.proto")
	files, diags := Generate(fds, Options{})
	if len(diags) > 0 || len(files) != 1 {
		t.Fatalf("%d files, %v", len(files), diags)
	}
	got := files[0].Content
	if src, err := format.Source([]byte(got)); err != nil || string(src) != got {
		t.Errorf("not gofmt-clean (err %v); gofmt makes it:\n%s", err, src)
	}
	renderWholeFile = true
	whole, _ := Generate(fds, Options{})
	renderWholeFile = false
	if len(whole) != 1 || whole[0].Content != got {
		t.Errorf("differs from the whole-file render")
	}
}
