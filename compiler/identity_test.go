package compiler_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/internal/gentest"
)

var identityRecord = flag.String("identity-record", "", "rewrite testdata/descriptor_identity.tsv from the old front end's descriptors in this folder (root/name.binpb)")

// identityRoots are the corpus folders and the import paths each file of
// them is compiled with, as TestCorpusValid (compiler/descheck) has them.
var identityRoots = map[string][]string{"benchmarks": {"benchmarks"}, "protobuf-3.21.12": {"protobuf-3.21.12"},
	"googleapis": {"googleapis", "protobuf"}, "protobuf": {"protobuf"}}

// Issue 25, descriptor identity: for every corpus file the old front end
// (protocompile v0.14.1's legacy compiler, main at 781bf3f) compiled, the
// FileDescriptorProto the front end returns now, source info included,
// equals the old one, or differs only in the ways listed here, each with
// its reason.
//
// The oracle is the old front end's own output, recorded before the
// switch (testdata/descriptor_identity.tsv: per file, the SHA-256 of the
// old descriptor, deterministically encoded, and of the old descriptor
// normalized as below). protoc was not the oracle: the one here (3.21.12)
// predates editions and fails on most of the newer protobuf corpus, and
// the issue asks what changed against the old front end. Where protoc
// 3.21.12 can compile a file, it was used to say which side is right
// (noted with each difference).
//
// The differences, each undone by identityNormal before the digests are
// compared:
//   - order: the experimental compiler lists an option's source location
//     before the location of the options it is part of (a field's
//     [..] before the field's options path); protoc and the old front end
//     list the enclosing one first. Same locations, other order: the
//     locations are sorted.
//   - edition path: the `edition = "2023";` statement's location is at
//     FileDescriptorProto.syntax (12) now, at edition (14) before.
//   - option bytes: custom option values (unknown fields of the options
//     messages) are written in field-number order now, in source order
//     before (protoc writes field-number order), and a repeated enum
//     option declared [packed = false] (google.api.field_behavior) is
//     written packed now (an upstream difference: protoc and the old front
//     end write it unpacked). Readers accept both encodings: the values
//     are compared decoded with the options' extension types.
//   - proto3_optional on an extension: set now for a proto3 `optional`
//     extension (unittest_proto3_optional.proto's ext_with_optional), as
//     protoc 3.21.12 sets it; the old front end left it out.
//   - source locations of some elements (the files in sourceInfoDiffers,
//     whose descriptors are compared without source info): the
//     experimental compiler gives no location to the [...] block of some
//     field options ([default = BAZ], features), records a group field's
//     type_name (6) at the group keyword where protoc records the type (5)
//     there and the type_name at the group's name, records reserved
//     statements differently, and spans an `option (x) = {...};` statement
//     from its name to its closing brace rather than from `option` to the
//     semicolon. Comments and every other location are the same; generated
//     Go reads comments only.
//   - trailing comments: a trailing comment at the end of a line now keeps
//     its newline when the next line is the enclosing block's end, as
//     protoc does (" Intentionally negative.\n"); the old front end cut it.
//
// Generated Go does not depend on any of these (gogen reads no option
// bytes, no location order, no proto3_optional on extensions), which is
// why the golden files did not change.
func TestDescriptorIdentity(t *testing.T) {
	shared, ok := gentest.SharedDir()
	if !ok {
		t.Skip("../shared is absent: skipping the corpus (set PROTOPLAY_SHARED)")
	}
	dir := filepath.Join(shared, "corpus")
	fsys := os.DirFS(dir)
	const table = "testdata/descriptor_identity.tsv"
	type digests struct{ full, normal, bare string }
	recorded := map[string]digests{}
	if *identityRecord == "" {
		f, err := os.Open(table)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if line := sc.Text(); !strings.HasPrefix(line, "#") && line != "" {
				parts := strings.Split(line, "\t")
				if len(parts) != 4 {
					t.Fatalf("%s: bad line %q", table, line)
				}
				recorded[parts[0]] = digests{parts[1], parts[2], parts[3]}
			}
		}
		f.Close()
		if len(recorded) < 300 {
			t.Fatalf("%s holds %d files", table, len(recorded))
		}
	}
	var out []string
	same, normal := 0, map[string]int{}
	seen := map[string]bool{}
	for root, importPaths := range identityRoots {
		err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".proto") {
				return err
			}
			name := strings.TrimPrefix(p, root+"/")
			res := compiler.Compile(t.Context(), compiler.Request{FS: fsys, ImportPaths: importPaths, Files: []string{name}, NoGenerate: true})
			if *identityRecord != "" {
				old, err := os.ReadFile(filepath.Join(*identityRecord, p+".binpb"))
				if err != nil {
					return nil // the old front end refused it
				}
				if res.HasErrors() {
					t.Errorf("%s: compiled with the old front end, refused now: %v", p, res.Diagnostics)
					return nil
				}
				fdp := new(descriptorpb.FileDescriptorProto)
				if err := proto.Unmarshal(old, fdp); err != nil {
					t.Fatal(err)
				}
				n, _ := identityNormal(t, fdp, res.Files[0])
				out = append(out, fmt.Sprintf("%s\t%s\t%s\t%s", p, digest(t, fdp), digest(t, n), digest(t, bare(n))))
				return nil
			}
			want, ok := recorded[p]
			if !ok {
				return nil // new: the old front end refused it
			}
			seen[p] = true
			if res.HasErrors() {
				t.Errorf("%s: compiled with the old front end, refused now: %v", p, res.Diagnostics)
				return nil
			}
			fdp := protodesc.ToFileDescriptorProto(res.Files[0])
			if digest(t, fdp) == want.full {
				same++
				return nil
			}
			n, kinds := identityNormal(t, fdp, res.Files[0])
			if digest(t, n) != want.normal {
				if !sourceInfoDiffers[p] {
					t.Errorf("%s: the descriptor differs from the old front end's beyond the listed differences", p)
					return nil
				}
				if digest(t, bare(n)) != want.bare {
					t.Errorf("%s: the descriptor, source info aside, differs from the old front end's beyond the listed differences", p)
					return nil
				}
				kinds = append(kinds, "source locations (sourceInfoDiffers)")
			} else if sourceInfoDiffers[p] {
				t.Errorf("%s: listed in sourceInfoDiffers, but its source info is the old front end's: take it out of the list", p)
			}
			for _, k := range kinds {
				normal[k]++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if *identityRecord != "" {
		sort.Strings(out)
		head := "# TestDescriptorIdentity (compiler/identity_test.go): corpus file, SHA-256 of the old front end's\n" +
			"# FileDescriptorProto (protocompile v0.14.1, main at 781bf3f; deterministic encoding, source info\n" +
			"# included), SHA-256 of it normalized (identityNormal), and of that without source info.\n"
		if err := os.WriteFile(table, []byte(head+strings.Join(out, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s: %d files", table, len(out))
		return
	}
	for p := range recorded {
		if !seen[p] {
			t.Errorf("%s: compiled with the old front end, not compiled now", p)
		}
	}
	t.Logf("%d of %d files the old front end compiled: identical descriptors; the others equal after undoing %v", same, len(recorded), normal)
}

// sourceInfoDiffers lists the corpus files whose source locations differ
// from the old front end's in the ways TestDescriptorIdentity lists under
// "source locations": these are compared without source info.
var sourceInfoDiffers = map[string]bool{
	"benchmarks/datasets/google_message1/proto2/benchmark_message1_proto2.proto":      true,
	"benchmarks/datasets/google_message2/benchmark_message2.proto":                    true,
	"benchmarks/datasets/google_message3/benchmark_message3.proto":                    true,
	"benchmarks/datasets/google_message3/benchmark_message3_1.proto":                  true,
	"benchmarks/datasets/google_message3/benchmark_message3_2.proto":                  true,
	"benchmarks/datasets/google_message3/benchmark_message3_3.proto":                  true,
	"benchmarks/datasets/google_message3/benchmark_message3_4.proto":                  true,
	"benchmarks/datasets/google_message3/benchmark_message3_5.proto":                  true,
	"benchmarks/datasets/google_message3/benchmark_message3_6.proto":                  true,
	"benchmarks/datasets/google_message4/benchmark_message4.proto":                    true,
	"benchmarks/datasets/google_message4/benchmark_message4_1.proto":                  true,
	"benchmarks/google_size.proto":                                                    true,
	"googleapis/google/bigtable/v2/bigtable.proto":                                    true,
	"googleapis/google/cloud/deploy/v1/cloud_deploy.proto":                            true,
	"googleapis/google/container/v1/cluster_service.proto":                            true,
	"googleapis/google/datastore/v1/datastore.proto":                                  true,
	"googleapis/google/firestore/v1/firestore.proto":                                  true,
	"googleapis/google/iam/v1/iam_policy.proto":                                       true,
	"googleapis/google/logging/v2/log_entry.proto":                                    true,
	"googleapis/google/logging/v2/logging.proto":                                      true,
	"googleapis/google/logging/v2/logging_config.proto":                               true,
	"googleapis/google/logging/v2/logging_metrics.proto":                              true,
	"googleapis/google/longrunning/operations.proto":                                  true,
	"googleapis/google/privacy/dlp/v2/dlp.proto":                                      true,
	"googleapis/google/pubsub/v1/pubsub.proto":                                        true,
	"googleapis/google/pubsub/v1/schema.proto":                                        true,
	"googleapis/google/spanner/v1/spanner.proto":                                      true,
	"googleapis/google/storage/v2/storage.proto":                                      true,
	"protobuf-3.21.12/google/protobuf/descriptor.proto":                               true,
	"protobuf-3.21.12/google/protobuf/test_messages_proto2.proto":                     true,
	"protobuf-3.21.12/google/protobuf/unittest.proto":                                 true,
	"protobuf-3.21.12/google/protobuf/unittest_enormous_descriptor.proto":             true,
	"protobuf-3.21.12/google/protobuf/unittest_lazy_dependencies_custom_option.proto": true,
	"protobuf-3.21.12/google/protobuf/unittest_lite.proto":                            true,
	"protobuf-3.21.12/google/protobuf/unittest_mset.proto":                            true,
	"protobuf-3.21.12/google/protobuf/util/internal/testdata/books.proto":             true,
	"protobuf-3.21.12/google/protobuf/util/json_format.proto":                         true,
	"protobuf-3.21.12/google/protobuf/util/json_format_proto3.proto":                  true,
	"protobuf-3.21.12/google/protobuf/util/message_differencer_unittest.proto":        true,
	"protobuf/editions/codegen_tests/proto2_enum.proto":                               true,
	"protobuf/editions/codegen_tests/proto2_group.proto":                              true,
	"protobuf/editions/codegen_tests/proto2_proto3_enum.proto":                        true,
	"protobuf/editions/golden/edition2023_transform/test_messages_proto2.proto":       true,
	"protobuf/editions/golden/edition2023_transform/test_messages_proto3.proto":       true,
	"protobuf/editions/golden/test_messages_proto2_editions.proto":                    true,
	"protobuf/editions/golden/test_messages_proto3_editions.proto":                    true,
	"protobuf/google/protobuf/descriptor.proto":                                       true,
	"protobuf/google/protobuf/test_messages_proto2.proto":                             true,
	"protobuf/google/protobuf/test_messages_proto3.proto":                             true,
	"protobuf/google/protobuf/unittest.proto":                                         true,
	"protobuf/google/protobuf/unittest_enormous_descriptor.proto":                     true,
	"protobuf/google/protobuf/unittest_lite.proto":                                    true,
	"protobuf/google/protobuf/unittest_mset.proto":                                    true,
	"protobuf/google/protobuf/unittest_retention.proto":                               true,
	"protobuf/google/protobuf/util/json_format.proto":                                 true,
	"protobuf/google/protobuf/util/json_format_proto3.proto":                          true,
	"protobuf/google/protobuf/util/message_differencer_unittest.proto":                true,
}

// identityNormal returns fdp with the listed differences undone (see
// TestDescriptorIdentity), and the names of those that changed it. fd is
// the file as compiled now: its import closure gives the extension types
// custom option values are decoded with.
func identityNormal(t *testing.T, fdp *descriptorpb.FileDescriptorProto, fd protoreflect.FileDescriptor) (*descriptorpb.FileDescriptorProto, []string) {
	t.Helper()
	kinds := map[string]bool{}
	// Option bytes: decoded with the extension types of the import
	// closure, then encoded deterministically.
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(fdp)
	if err != nil {
		t.Fatal(err)
	}
	n := new(descriptorpb.FileDescriptorProto)
	if err := (proto.UnmarshalOptions{Resolver: extensionTypes(fd)}).Unmarshal(b, n); err != nil {
		t.Fatal(err)
	}
	// proto3_optional on extensions.
	clear3 := func(xs []*descriptorpb.FieldDescriptorProto) {
		for _, x := range xs {
			if x.Proto3Optional != nil {
				x.Proto3Optional = nil
				kinds["proto3_optional on an extension"] = true
			}
		}
	}
	clear3(n.Extension)
	var walk func(ms []*descriptorpb.DescriptorProto)
	walk = func(ms []*descriptorpb.DescriptorProto) {
		for _, m := range ms {
			clear3(m.Extension)
			walk(m.NestedType)
		}
	}
	walk(n.MessageType)
	if info := n.GetSourceCodeInfo(); info != nil {
		keys := make([]string, len(info.Location))
		for i, l := range info.Location {
			if n.GetSyntax() == "editions" && len(l.Path) == 1 && l.Path[0] == 14 {
				l.Path = []int32{12}
				kinds["edition path"] = true
			}
			if c := l.GetTrailingComments(); c != "" && !strings.HasSuffix(c, "\n") {
				l.TrailingComments = proto.String(c + "\n")
			}
			kb, err := proto.MarshalOptions{Deterministic: true}.Marshal(l)
			if err != nil {
				t.Fatal(err)
			}
			keys[i] = string(kb)
		}
		if !sort.SliceIsSorted(info.Location, func(i, j int) bool { return keys[i] < keys[j] }) {
			kinds["order"] = true
		}
		sort.Sort(byKey{info.Location, keys})
	}
	var names []string
	for k := range kinds {
		names = append(names, k)
	}
	sort.Strings(names)
	return n, names
}

type byKey struct {
	locs []*descriptorpb.SourceCodeInfo_Location
	keys []string
}

func (s byKey) Len() int           { return len(s.locs) }
func (s byKey) Less(i, j int) bool { return s.keys[i] < s.keys[j] }
func (s byKey) Swap(i, j int) {
	s.locs[i], s.locs[j] = s.locs[j], s.locs[i]
	s.keys[i], s.keys[j] = s.keys[j], s.keys[i]
}

// extensionTypes holds every extension fd and its imports declare, built
// against google.golang.org/protobuf's own descriptor.proto (so that they
// extend descriptorpb's options messages, which the descriptors are
// decoded into). A file protodesc refuses (a MessageSet's) adds none:
// its custom options stay bytes on both sides.
func extensionTypes(fd protoreflect.FileDescriptor) *protoregistry.Types {
	types := new(protoregistry.Types)
	files := new(protoregistry.Files)
	r := withGlobal{files}
	seen := map[string]bool{}
	var addXs func(xs protoreflect.ExtensionDescriptors)
	addXs = func(xs protoreflect.ExtensionDescriptors) {
		for i := 0; i < xs.Len(); i++ {
			_ = types.RegisterExtension(dynamicpb.NewExtensionType(xs.Get(i)))
		}
	}
	var addMs func(ms protoreflect.MessageDescriptors)
	addMs = func(ms protoreflect.MessageDescriptors) {
		for i := 0; i < ms.Len(); i++ {
			addXs(ms.Get(i).Extensions())
			addMs(ms.Get(i).Messages())
		}
	}
	var add func(f protoreflect.FileDescriptor)
	add = func(f protoreflect.FileDescriptor) {
		if seen[f.Path()] {
			return
		}
		seen[f.Path()] = true
		for i := 0; i < f.Imports().Len(); i++ {
			add(f.Imports().Get(i).FileDescriptor)
		}
		if _, err := protoregistry.GlobalFiles.FindFileByPath(f.Path()); err == nil && f.Path() == "google/protobuf/descriptor.proto" {
			return
		}
		built, err := protodesc.NewFile(protodesc.ToFileDescriptorProto(f), r)
		if err != nil || files.RegisterFile(built) != nil {
			return
		}
		addXs(built.Extensions())
		addMs(built.Messages())
	}
	add(fd)
	return types
}

// withGlobal resolves from files, then from protoregistry.GlobalFiles
// (descriptor.proto).
type withGlobal struct{ files *protoregistry.Files }

func (r withGlobal) FindFileByPath(p string) (protoreflect.FileDescriptor, error) {
	if p == "google/protobuf/descriptor.proto" {
		return protoregistry.GlobalFiles.FindFileByPath(p)
	}
	return r.files.FindFileByPath(p)
}

func (r withGlobal) FindDescriptorByName(n protoreflect.FullName) (protoreflect.Descriptor, error) {
	if d, err := r.files.FindDescriptorByName(n); err == nil {
		return d, nil
	}
	return protoregistry.GlobalFiles.FindDescriptorByName(n)
}

// bare is fdp without source info.
func bare(fdp *descriptorpb.FileDescriptorProto) *descriptorpb.FileDescriptorProto {
	c := proto.Clone(fdp).(*descriptorpb.FileDescriptorProto)
	c.SourceCodeInfo = nil
	return c
}

func digest(t *testing.T, m proto.Message) string {
	t.Helper()
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
