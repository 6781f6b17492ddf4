package gogen_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
	"github.com/protoplay/protoplay/internal/gentest"
)

// diffSchema is one compilation the differential test generates and
// compares: files (relative to the corpus folder root) compiled together.
// Their messages are compared; their imports are generated too.
type diffSchema struct {
	root  string
	files []string
}

// diffSchemas are the corpus schemas of TestDifferential: the conformance
// test messages (proto2, proto3 and their editions forms), the unittest
// schemas that protoplay compiles, and the benchmark messages (followed by
// googleapisDiffSchemas, see withGoogleapis).
var diffSchemas = []diffSchema{
	{"protobuf", []string{"google/protobuf/test_messages_proto2.proto"}},
	{"protobuf", []string{"google/protobuf/test_messages_proto3.proto"}},
	{"protobuf", []string{"editions/golden/test_messages_proto2_editions.proto"}},
	{"protobuf", []string{"editions/golden/test_messages_proto3_editions.proto"}},
	{"protobuf", []string{"conformance/test_protos/test_messages_edition2023.proto"}},
	{"protobuf", []string{"google/protobuf/unittest.proto"}}, // edition 2023
	{"protobuf", []string{"google/protobuf/unittest_proto3.proto"}},
	{"protobuf", []string{"google/protobuf/unittest_proto3_arena.proto"}},
	{"protobuf", []string{"google/protobuf/unittest_proto3_optional.proto"}},
	{"protobuf", []string{"google/protobuf/unittest_proto3_extensions.proto"}},
	{"protobuf", []string{"google/protobuf/unittest_mset.proto"}},
	{"protobuf", []string{"google/protobuf/unittest_optimize_for.proto"}},
	{"protobuf", []string{"google/protobuf/unittest_embed_optimize_for.proto"}},
	{"protobuf", []string{"google/protobuf/unittest_extension_set.proto"}},
	{"protobuf", []string{"google/protobuf/unittest_retention.proto"}},
	{"protobuf", []string{"google/protobuf/unittest_well_known_types.proto"}},
	{"protobuf", []string{"google/protobuf/map_unittest.proto"}},
	{"protobuf", []string{"google/protobuf/map_proto2_unittest.proto"}},
	{"protobuf", []string{"google/protobuf/any_test.proto"}},
	{"protobuf", []string{"editions/golden/simple_proto2.proto"}},
	{"protobuf", []string{"editions/golden/simple_proto3.proto"}},
	// Edition 2024 (issue 25: the experimental compiler) and the files
	// using `import option`. unittest_lite_edition_2024.proto and
	// unittest_custom_options_unlinked.proto declare no message (their
	// generated code is built by TestCorpusBuilds).
	{"protobuf", []string{"google/protobuf/unittest_delimited.proto"}},
	{"protobuf", []string{"google/protobuf/map_proto3_unittest.proto"}},
	{"protobuf", []string{"google/protobuf/unittest_arena.proto"}},
	{"protobuf", []string{"google/protobuf/unittest_drop_unknown_fields.proto"}},
	{"protobuf", []string{"google/protobuf/unittest_features.proto"}},
	{"protobuf", []string{"google/protobuf/unittest_custom_features.proto"}},
	{"protobuf", []string{"google/protobuf/unittest_fuzz_extensions.proto"}},
	{"protobuf", []string{"google/protobuf/unittest_lazy_dependencies.proto"}},
	{"protobuf", []string{"google/protobuf/unittest_preserve_unknown_enum.proto"}},
	{"protobuf", []string{"google/protobuf/unittest_preserve_unknown_enum2.proto"}},
	{"protobuf", []string{"google/protobuf/unittest_redaction.proto"}},
	{"protobuf", []string{"google/protobuf/unittest_string_view.proto"}},
	{"protobuf", []string{"google/protobuf/unittest_utf8_string_extensions.proto"}},
	{"protobuf", []string{"google/protobuf/edition_unittest.proto"}},
	{"protobuf", []string{"google/protobuf/unittest_no_field_presence.proto"}},
	{"protobuf", []string{"google/protobuf/unittest_string_type.proto"}},
	{"protobuf", []string{"google/protobuf/unittest_legacy_features.proto"}},
	// A custom option whose value holds a MessageSet (compiler/frontend
	// messageset.go), and the edition 2024 file that imports it as an
	// option dependency.
	{"protobuf", []string{"google/protobuf/unittest_custom_options.proto"}},
	{"protobuf", []string{"google/protobuf/unittest_import_option.proto"}},
	// protobuf 3.21.12's forms of schemas the newer tree has moved to
	// edition 2024.
	{"protobuf-3.21.12", []string{"google/protobuf/unittest.proto"}}, // proto2
	{"protobuf-3.21.12", []string{"google/protobuf/unittest_no_field_presence.proto"}},
	{"protobuf-3.21.12", []string{"google/protobuf/unittest_preserve_unknown_enum.proto"}},
	{"protobuf-3.21.12", []string{"google/protobuf/unittest_preserve_unknown_enum2.proto"}},
	{"protobuf-3.21.12", []string{"google/protobuf/unittest_drop_unknown_fields.proto"}},
	{"protobuf-3.21.12", []string{"google/protobuf/unittest_arena.proto"}},
	{"protobuf-3.21.12", []string{"google/protobuf/unittest_lazy_dependencies.proto"}},
	{"benchmarks", []string{"benchmarks.proto", "datasets/google_message1/proto2/benchmark_message1_proto2.proto",
		"datasets/google_message1/proto3/benchmark_message1_proto3.proto", "datasets/google_message2/benchmark_message2.proto"}},
}

// opaqueDiffSchemas are compared a second time, generated with
// default_api_level=API_OPAQUE (the edition 2024 files of diffSchemas are
// opaque anyway): every explicit-presence kind (proto2, proto3 optional,
// editions), defaults, closed enums, groups, oneofs, maps and extensions,
// and the benchmark messages.
var opaqueDiffSchemas = []diffSchema{
	{"protobuf", []string{"google/protobuf/test_messages_proto2.proto"}},
	{"protobuf", []string{"google/protobuf/test_messages_proto3.proto"}},
	{"protobuf", []string{"editions/golden/test_messages_proto2_editions.proto"}},
	{"protobuf", []string{"editions/golden/test_messages_proto3_editions.proto"}},
	{"protobuf", []string{"conformance/test_protos/test_messages_edition2023.proto"}},
	{"protobuf", []string{"google/protobuf/unittest_proto3_optional.proto"}},
	{"protobuf", []string{"google/protobuf/map_unittest.proto"}},
	{"protobuf-3.21.12", []string{"google/protobuf/unittest.proto"}},
	{"benchmarks", []string{"benchmarks.proto", "datasets/google_message1/proto2/benchmark_message1_proto2.proto",
		"datasets/google_message1/proto3/benchmark_message1_proto3.proto", "datasets/google_message2/benchmark_message2.proto"}},
}

// hybridDiffSchemas are compared a third time, generated with
// default_api_level=API_HYBRID: the open form with the opaque accessors
// (x.pb.go, the module's tests as built by default) and the opaque form
// (x_protoopaque.pb.go, compared in a second run of the tests under the
// protoopaque build tag, on these schemas' types only): proto2, proto3
// and editions presence, defaults, closed enums, groups, oneofs and maps.
// Their types get the ordinary number of inputs (see heavy in
// difftest.go.txt): the code of both forms comes from the open and opaque
// printers, which the other runs give the most.
var hybridDiffSchemas = []diffSchema{
	{"protobuf", []string{"google/protobuf/test_messages_proto2.proto"}},
	{"protobuf", []string{"google/protobuf/test_messages_proto3.proto"}},
	{"protobuf", []string{"conformance/test_protos/test_messages_edition2023.proto"}},
}

// diffRun is a schema to generate with an API level as default_api_level
// ("": the option unset).
type diffRun struct {
	diffSchema
	level string
}

// withLevels is schemas, then opaque generated with API_OPAQUE, then
// hybrid generated with API_HYBRID.
func withLevels(schemas, opaque, hybrid []diffSchema) []diffRun {
	var out []diffRun
	for _, s := range schemas {
		out = append(out, diffRun{s, ""})
	}
	for _, s := range opaque {
		out = append(out, diffRun{s, "API_OPAQUE"})
	}
	for _, s := range hybrid {
		out = append(out, diffRun{s, "API_HYBRID"})
	}
	return out
}

// options are rehomePerFile's options for fd, with r's level; an opaque
// or hybrid run's packages live under their own root.
func (r diffRun) options(fd protoreflect.FileDescriptor) gogen.Options {
	root := diffPackageRoot[r.root]
	switch r.level {
	case "API_OPAQUE":
		root += "o"
	case "API_HYBRID":
		root += "h"
	}
	opts := rehomePerFile(fd, root)
	opts.DefaultAPILevel = r.level
	return opts
}

// name is how the registry names the run's schema.
func (r diffRun) name() string {
	n := r.root + "/" + strings.Join(r.files, ",")
	if r.level != "" {
		n += "@" + r.level
	}
	return n
}

// googleapisDiffSchemas are real-world schemas from corpus/googleapis
// (import roots googleapis and protobuf), compared by TestDifferential,
// TestJSONDifferential and TestTextDifferential: the well-known types in
// fields, maps, repeated fields and oneofs (Timestamp, Duration, Any,
// Struct, Value, ListValue, FieldMask, the wrappers, Empty), maps of
// messages and enums, oneofs of messages, an enum with allow_alias
// (storage), fields with json_name (container), and deep nesting.
var googleapisDiffSchemas = []diffSchema{
	{"googleapis", []string{"google/rpc/error_details.proto", "google/rpc/status.proto", "google/rpc/context/attribute_context.proto"}},
	{"googleapis", []string{"google/type/datetime.proto", "google/type/money.proto", "google/type/interval.proto", "google/type/expr.proto", "google/type/latlng.proto", "google/type/postal_address.proto"}},
	{"googleapis", []string{"google/api/distribution.proto", "google/api/metric.proto", "google/api/http.proto", "google/api/httpbody.proto"}},
	{"googleapis", []string{"google/firestore/v1/document.proto", "google/firestore/v1/write.proto", "google/firestore/v1/query.proto"}},
	{"googleapis", []string{"google/logging/v2/log_entry.proto"}},
	{"googleapis", []string{"google/datastore/v1/entity.proto", "google/datastore/v1/query.proto"}},
	{"googleapis", []string{"google/spanner/v1/type.proto", "google/spanner/v1/result_set.proto"}},
	{"googleapis", []string{"google/iam/v1/policy.proto", "google/longrunning/operations.proto"}},
}

// googleapisDiffSchemasHeavy are the large googleapis files (thousands of
// lines each), compared only when PROTOPLAY_DIFF_HEAVY is set: they
// multiply the generated module's build and run time (on one core, about
// 7 minutes for TestDifferential and 6 for TestJSONDifferential, near go
// test's default timeout):
//
//	PROTOPLAY_DIFF_HEAVY=1 go test -timeout 40m -run 'Differential' ./compiler/gogen
var googleapisDiffSchemasHeavy = []diffSchema{
	{"googleapis", []string{"google/privacy/dlp/v2/dlp.proto"}},
	{"googleapis", []string{"google/cloud/deploy/v1/cloud_deploy.proto"}},
	{"googleapis", []string{"google/container/v1/cluster_service.proto"}},
	{"googleapis", []string{"google/storage/v2/storage.proto"}},
	{"googleapis", []string{"google/pubsub/v1/pubsub.proto"}},
	{"googleapis", []string{"google/logging/v2/logging_config.proto"}},
	{"googleapis", []string{"google/spanner/v1/spanner.proto"}},
	{"googleapis", []string{"google/firestore/v1/firestore.proto"}},
	{"googleapis", []string{"google/bigtable/v2/data.proto", "google/bigtable/v2/types.proto"}},
}

// withGoogleapis is schemas followed by googleapisDiffSchemas and, under
// PROTOPLAY_DIFF_HEAVY, googleapisDiffSchemasHeavy.
func withGoogleapis(schemas []diffSchema) []diffSchema {
	out := append(append([]diffSchema(nil), schemas...), googleapisDiffSchemas...)
	if os.Getenv("PROTOPLAY_DIFF_HEAVY") != "" {
		out = append(out, googleapisDiffSchemasHeavy...)
	}
	return out
}

// importRoots are the -I roots of the corpus folder root (see corpusRoots).
func importRoots(root string) []string {
	for _, r := range corpusRoots {
		if r.name == root {
			return r.roots
		}
	}
	return []string{root}
}

// diffPackageRoot is the folder of the generated module that holds the Go
// packages of corpus folder root's files.
var diffPackageRoot = map[string]string{"protobuf": "dp", "protobuf-3.21.12": "d3", "benchmarks": "db", "googleapis": "dg"}

// The LITE_RUNTIME copies (unittest_lite.proto, map_lite_unittest.proto,
// unittest_proto3_arena_lite.proto, ...) compile but are left out to bound
// the build: protoplay ignores optimize_for, so their code is that of
// unittest.proto, map_unittest.proto and unittest_proto3_arena.proto.

// diffLeftOut are the unittest-family schemas of corpus/protobuf that the
// differential test does not cover, with the compiler error that keeps
// them out (TestDifferential checks that each still fails that way, so the
// list cannot go stale).
var diffLeftOut = map[string]string{
	// EDITION_UNSTABLE, which no released protoc accepts either.
	"conformance/test_protos/test_messages_edition_unstable.proto": "unrecognized `edition` declaration value",
}

// standardFile compiles name (a well-known type file) from the compiler's
// bundled sources.
func standardFile(t *testing.T, name string) protoreflect.FileDescriptor {
	res := compiler.Compile(context.Background(), compiler.Request{Files: []string{name}, NoGenerate: true})
	if err := res.Err(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res.Files[0]
}

// descSet collects files with their imports, each once and after its
// imports, into the FileDescriptorSet the reference side
// (google.golang.org/protobuf) of the differential tests loads. A
// well-known type file is replaced by the compiler's own (standardFile):
// generated code uses runtime/wkt whatever version of the file the import
// root holds (the corpus's api.proto has a newer field), so the reference
// gets the files runtime/wkt was generated from.
type descSet struct {
	descriptorpb.FileDescriptorSet
	seen map[string]bool
}

func (s *descSet) add(t *testing.T, f protoreflect.FileDescriptor) {
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	if s.seen[f.Path()] {
		return
	}
	if _, wkt := gogen.WellKnownImportPath(f.Path()); wkt {
		f = standardFile(t, f.Path())
	}
	s.seen[f.Path()] = true
	for i := 0; i < f.Imports().Len(); i++ {
		s.add(t, f.Imports().Get(i).FileDescriptor)
	}
	s.File = append(s.File, protodesc.ToFileDescriptorProto(f))
}

// addDiffTest adds to m the generated code of TestDifferential's schemas
// of the corpus at dir (diffSchemas and the googleapis ones, then the
// opaque and hybrid runs) and its test package difftest
// (testdata/difftest.go.txt and its siblings, with a registry of the
// schemas' messages, their descriptors and the fuzz seeds).
func addDiffTest(t *testing.T, dir string, m *moduleFiles) {
	t.Helper()
	fsys := os.DirFS(dir)
	var schemaFiles []string
	extra := m.extra
	type regEntry struct{ name, alias, goName string }
	var entries []regEntry
	schemaOf := map[int]int{}
	imports := map[string]string{}
	runs := withLevels(withGoogleapis(diffSchemas), opaqueDiffSchemas, hybridDiffSchemas)
	for si, s := range runs {
		res := compiler.Compile(context.Background(), compiler.Request{FS: fsys, ImportPaths: importRoots(s.root), Files: s.files, NoGenerate: true})
		if err := res.Err(); err != nil {
			t.Fatalf("%s: %v", s.files[0], err)
		}
		var set descSet
		for _, fd := range res.Files {
			var fdesc protoreflect.FileDescriptor = fd
			set.add(t, fdesc)
			opts := s.options(fdesc)
			out, diags := gogen.Generate(withDeps(fdesc), opts)
			for _, d := range diags {
				t.Fatalf("%s:%d:%d: %s", d.File, d.Line, d.Column, d.Message)
			}
			m.add(t, out)
			path, _, _ := strings.Cut(opts.ImportMap[fdesc.Path()], ";")
			alias := fmt.Sprintf("p%d", len(imports))
			imports[alias] = path
			gentest.EachMessage(fdesc.Messages(), func(md protoreflect.MessageDescriptor) {
				schemaOf[len(entries)] = si
				entries = append(entries, regEntry{name: string(md.FullName()), alias: alias, goName: gogen.GoName(md)})
			})
		}
		desc, err := proto.Marshal(&set.FileDescriptorSet)
		if err != nil {
			t.Fatal(err)
		}
		extra[fmt.Sprintf("difftest/schemas/%d.binpb", si)] = string(desc)
		schemaFiles = append(schemaFiles, s.name())
	}

	// Keys: the full name, qualified by the schema where two share it;
	// an opaque run's are always qualified (the open run's keep the
	// plain names the harness's tests look up).
	count := map[string]int{}
	for i, e := range entries {
		if runs[schemaOf[i]].level == "" {
			count[e.name]++
		}
	}
	var reg strings.Builder
	reg.WriteString("// Code generated by compiler/gogen/differential_test.go. DO NOT EDIT.\n\npackage difftest\n\n" + gentest.ImportBlock(imports))
	reg.WriteString("\n// schemaFiles are the compilations, by index (schemas/N.binpb).\nvar schemaFiles = []string{\n")
	for _, f := range schemaFiles {
		fmt.Fprintf(&reg, "\t%q,\n", f)
	}
	reg.WriteString("}\n\nvar registry = []entry{\n")
	for i, e := range entries {
		key := e.name
		if count[e.name] > 1 || runs[schemaOf[i]].level != "" {
			key += "@" + schemaFiles[schemaOf[i]]
		}
		typ := e.alias + "." + e.goName
		fmt.Fprintf(&reg, "\t{key: %q, schema: %d, name: %q, new: func() message { return new(%s) },\n\t\tequal: func(a, b message) bool { return a.(*%s).Equal(b.(*%s)) },\n\t\tclone: func(m message) message { return m.(*%s).Clone() }},\n", key, schemaOf[i], e.name, typ, typ, typ, typ)
	}
	reg.WriteString("}\n")

	for _, h := range []string{"difftest", "difftest_check", "difftest_mutate"} {
		src, err := os.ReadFile(filepath.Join("testdata", h+".go.txt"))
		if err != nil {
			t.Fatal(err)
		}
		extra["difftest/"+h+"_test.go"] = string(src)
	}
	extra["difftest/registry_test.go"] = reg.String()
	seeds, _ := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzDifferential", "*"))
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		extra["difftest/testdata/fuzz/FuzzDifferential/"+filepath.Base(s)] = string(b)
	}
}

// TestDifferential generates the diffSchemas and runs testdata/difftest.go.txt
// (with difftest_check.go.txt and difftest_mutate.go.txt) against them in a
// temporary module: every message type is compared with
// google.golang.org/protobuf on random values and on mutated encodings
// (accept/reject and re-encoding; and the generated Clone of each accepted
// value must encode alike, be Equal, and share no memory with the
// original), the recorded benchmark payloads must
// re-encode to the reference's bytes, and FuzzDifferential runs its seeds
// (testdata/fuzz/FuzzDifferential and one random value of every type).
//
// Longer runs under the Go fuzzer:
//
//	PROTOPLAY_FUZZTIME=10m go test -run TestDifferential -v ./compiler/gogen
//
// runs `go test -fuzz=FuzzDifferential -fuzztime=10m` in the generated
// module and copies any failing input the fuzzer records into
// testdata/fuzz/FuzzDifferential, where it stays as a seed.
// PROTOPLAY_DIFFTEST_DIR=dir keeps the generated module in dir, for running
// `go test -tags=protolegacy -fuzz=FuzzDifferential ./difftest` there by
// hand (DIFF_FUZZ_TYPE=substring narrows the message types; DIFF_MUTATIONS,
// DIFF_MUTATIONS_HEAVY, DIFF_VALUES, DIFF_VALUES_HEAVY and DIFF_SEED scale
// TestMutations and TestRandomValues).
func TestDifferential(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	t.Parallel() // see parallel in main_test.go
	dir := corpusDir(t)
	fsys := os.DirFS(dir)

	for file, why := range diffLeftOut {
		res := compiler.Compile(context.Background(), compiler.Request{FS: fsys, ImportPaths: []string{"protobuf"}, Files: []string{file}, NoGenerate: true})
		if err := res.Err(); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("%s is left out of the differential test because it fails to compile with %q, but now: %v (add it to diffSchemas)", file, why, err)
		}
	}

	// The difftest package lives in the module the other differential
	// tests share (genModule): the generated packages it has in common
	// with theirs (the conformance test messages, the googleapis schemas,
	// at both API levels) are compiled once, by one go command at a time.
	bin, pkgDir := genTestBinary(t, "difftest", "protolegacy")
	datasets := []string{
		filepath.Join(dir, "benchmarks/datasets/google_message1/proto3/dataset.google_message1_proto3.pb"),
		filepath.Join(dir, "benchmarks/datasets/google_message1/proto2/dataset.google_message1_proto2.pb"),
		filepath.Join(dir, "benchmarks/datasets/google_message2/dataset.google_message2.pb"),
	}
	env := []string{"DATASETS=" + strings.Join(datasets, ",")}
	out, err := runGenTest(t, bin, pkgDir, env, "-test.count=1", "-test.v")
	var kept []string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "=== ") || strings.Contains(line, "--- PASS: FuzzDifferential/") || strings.TrimSpace(line) == "" {
			continue
		}
		kept = append(kept, line)
	}
	if err != nil {
		t.Fatalf("differential tests failed: %v\n%s", err, strings.Join(kept, "\n"))
	}
	t.Log("\n" + strings.Join(kept, "\n"))
	// The hybrid runs' opaque form (x_protoopaque.pb.go): the comparisons
	// again under the protoopaque build tag, on their types only
	// (DIFF_KEYS); the packages without the tag come from the build cache.
	binOpaque, _ := genTestBinary(t, "difftest", "protolegacy,protoopaque")
	out, err = runGenTest(t, binOpaque, pkgDir, append(env, "DIFF_KEYS=@API_HYBRID"), "-test.count=1", "-test.v",
		"-test.run=^(TestRandomValues|TestMutations|TestRecordedPayloads|FuzzDifferential)$")
	kept = kept[:0]
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "=== ") || strings.Contains(line, "--- PASS: FuzzDifferential/") || strings.TrimSpace(line) == "" {
			continue
		}
		kept = append(kept, line)
	}
	if err != nil {
		t.Fatalf("differential tests of the hybrid runs under the protoopaque tag failed: %v\n%s", err, strings.Join(kept, "\n"))
	}
	t.Log("protoopaque:\n" + strings.Join(kept, "\n"))
	mod := filepath.Dir(pkgDir)
	if ft := os.Getenv("PROTOPLAY_FUZZTIME"); ft != "" {
		out, err := gentest.GoEnv(t, mod, env, "test", "-tags=protolegacy", "-run=^$", "-fuzz=^FuzzDifferential$", "-fuzztime="+ft, "./difftest/")
		t.Log(out)
		found, _ := filepath.Glob(filepath.Join(mod, "difftest", "testdata", "fuzz", "FuzzDifferential", "*"))
		for _, f := range found {
			dst := filepath.Join("testdata", "fuzz", "FuzzDifferential", filepath.Base(f))
			if _, err := os.Stat(dst); err == nil {
				continue
			}
			b, _ := os.ReadFile(f)
			if err := os.WriteFile(dst, b, 0o644); err != nil {
				t.Error(err)
			}
			t.Logf("new failing input kept as a seed: %s", dst)
		}
		if err != nil {
			t.Fatalf("fuzzing: %v", err)
		}
	}
}
