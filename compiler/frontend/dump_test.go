package frontend

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bufbuild/protocompile/protoutil"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// dumpEnv names the file TestDescriptorDump writes; without it the test
// skips. site/build's TestLeanOptionsSameDescriptors runs it against
// protocompile as released and as the wasm core's build patches it
// (site/build/lean.go) and compares the two files.
const dumpEnv = "PROTOPLAY_DESCRIPTOR_DUMP"

// dumpInvalid are inputs whose option interpretation fails or takes an
// unusual path: unknown and mistyped custom options, a custom option on
// the wrong target, an unknown standard option beside a custom one, and
// a descriptor.proto of the request's own (proto3, so its
// UninterpretedOption reads strings with UTF-8 validation) with a custom
// option holding invalid UTF-8, whose clone fails.
var dumpInvalid = []map[string]string{
	{"unknown.proto": `syntax = "proto3";
package p;
message M { int32 a = 1 [(nope) = 1]; }
`},
	{"mistyped.proto": `syntax = "proto2";
package p;
import "google/protobuf/descriptor.proto";
extend google.protobuf.FieldOptions { optional int32 x = 50000; optional M m = 50001; }
message M {
  optional int32 a = 1 [(x) = "s"];
  optional int32 b = 2 [(m) = { a: "t" }, (x) = 3];
  optional int32 c = 3 [(x) = 4, (x) = 5];
  optional int32 d = 4 [default = 7, (x) = 1, json_name = "dd"];
}
`},
	{"target.proto": `syntax = "proto2";
package p;
import "google/protobuf/descriptor.proto";
extend google.protobuf.MessageOptions { optional int32 x = 50000 [targets = TARGET_TYPE_FIELD]; }
message M { option (x) = 1; optional int32 a = 1; }
`},
	{"mixed.proto": `edition = "2023";
package p;
import "google/protobuf/descriptor.proto";
extend google.protobuf.EnumValueOptions { int32 x = 50000; }
enum E { A = 0 [(x) = 1, nope = 2]; B = 1 [(x) = 2, deprecated = true]; }
message M { int32 a = 1 [(y) = 1, features.field_presence = IMPLICIT]; }
`},
	{
		"google/protobuf/descriptor.proto": `syntax = "proto3";
package google.protobuf;
message FileDescriptorSet {}
message FieldOptions {
  repeated UninterpretedOption uninterpreted_option = 999;
  extensions 1000 to max;
}
message MessageOptions {
  repeated UninterpretedOption uninterpreted_option = 999;
  extensions 1000 to max;
}
message UninterpretedOption {
  message NamePart { string name_part = 1; bool is_extension = 2; }
  repeated NamePart name = 2;
  string identifier_value = 3;
  string string_value = 7;
}
`,
		"utf8.proto": `syntax = "proto2";
package p;
import "google/protobuf/descriptor.proto";
extend google.protobuf.FieldOptions { optional bytes x = 50000; }
message M { optional int32 a = 1 [(x) = "\xff\xfe"]; optional int32 b = 2 [(x) = "ok"]; }
`,
	},
}

// TestDescriptorDump writes, for each schema of ../shared/corpus (and
// dlp.proto with storage.proto as the page compiles them), of
// testdata/cases and testdata/golden and of dumpInvalid, the SHA-256 of
// the FileDescriptorProto (deterministic bytes, source info included) of
// every file it compiles to, imports included, and its diagnostics, to the
// file $PROTOPLAY_DESCRIPTOR_DUMP. It checks nothing itself: the file is
// compared with another build's (see dumpEnv).
func TestDescriptorDump(t *testing.T) {
	out := os.Getenv(dumpEnv)
	if out == "" {
		t.Skip(dumpEnv + " is not set: nothing to dump (site/build's TestLeanOptionsSameDescriptors sets it)")
	}
	var b strings.Builder
	// record returns the dump of one compile of req.
	record := func(name string, req Request) (string, bool) {
		var b strings.Builder
		res := Compile(context.Background(), req)
		seen := map[string]bool{}
		var walk func(fd protoreflect.FileDescriptor)
		walk = func(fd protoreflect.FileDescriptor) {
			if seen[fd.Path()] {
				return
			}
			seen[fd.Path()] = true
			imps := fd.Imports()
			for i := 0; i < imps.Len(); i++ {
				walk(imps.Get(i).FileDescriptor)
			}
			data, err := proto.MarshalOptions{Deterministic: true}.Marshal(protoutil.ProtoFromFileDescriptor(fd))
			if err != nil {
				t.Fatalf("%s: %s: %v", name, fd.Path(), err)
			}
			fmt.Fprintf(&b, "%s %x %d\n", fd.Path(), sha256.Sum256(data), len(data))
		}
		for _, fd := range res.Files {
			walk(fd)
		}
		for _, d := range res.Diagnostics {
			// protobuf-go's errors put a space or a no-break space after
			// "proto:", chosen by a hash of the binary (internal/detrand),
			// so that two builds differ there.
			fmt.Fprintf(&b, "diag %s\n", strings.ReplaceAll(d.String(), "proto:\u00a0", "proto: "))
		}
		return b.String(), res.HasErrors()
	}
	// A schema with errors in more than one of its imports is compiled
	// 8 times: which of those errors protocompile reports depends on the
	// order its goroutines run in (released as well as patched). Such a
	// schema's record says "nondeterministic" instead of its diagnostics.
	dump := func(name string, req Request) {
		rec, failed := record(name, req)
		for i := 1; failed && i < 8; i++ {
			if again, _ := record(name, req); again != rec {
				t.Logf("%s: the diagnostics differ between two compiles", name)
				rec = "nondeterministic\n"
				break
			}
		}
		fmt.Fprintf(&b, "== %s\n%s", name, rec)
	}

	shared := os.Getenv("PROTOPLAY_SHARED")
	if shared == "" {
		shared = filepath.Join("..", "..", "..", "shared")
	}
	corpus := filepath.Join(shared, "corpus")
	if _, err := os.Stat(corpus); err != nil {
		t.Log("../shared is absent: the dump has no corpus schemas")
	} else {
		var names []string
		err := filepath.WalkDir(corpus, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".proto") {
				names = append(names, filepath.ToSlash(p[len(corpus)+1:]))
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(names)
		fsys := os.DirFS(corpus)
		for _, n := range names {
			root, rel, _ := strings.Cut(n, "/")
			dump(n, Request{FS: fsys, ImportPaths: []string{root}, Files: []string{rel}})
		}
		// As the page compiles them: the two files as sources, their
		// googleapis imports the embedded descriptors (googleapisSet).
		srcs := map[string]string{}
		for _, n := range []string{"google/privacy/dlp/v2/dlp.proto", "google/privacy/dlp/v2/storage.proto"} {
			text, err := os.ReadFile(filepath.Join(corpus, "googleapis", n))
			if err != nil {
				t.Fatal(err)
			}
			srcs[n] = string(text)
		}
		dump("page dlp.proto", Request{Sources: srcs})
	}
	for _, dir := range []string{"cases", "golden"} {
		dir = filepath.Join("..", "..", "testdata", dir)
		names, err := filepath.Glob(filepath.Join(dir, "*.proto"))
		if err != nil || len(names) == 0 {
			t.Fatalf("no schemas in %s: %v", dir, err)
		}
		for _, n := range names {
			dump(n, Request{FS: os.DirFS(dir), Files: []string{filepath.Base(n)}})
		}
	}
	for i, srcs := range dumpInvalid {
		dump(fmt.Sprintf("invalid %d", i), Request{Sources: srcs})
	}
	if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
