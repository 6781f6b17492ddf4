package interp_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
	"github.com/protoplay/protoplay/compiler/payload"
	"github.com/protoplay/protoplay/internal/gentest"
	"github.com/protoplay/protoplay/interp"
)

// runSchema interprets the generated code of req and, in a subtest per
// file of req.Files, round-trips the sample of every message type the file
// declares through it, comparing with the reference codec (protobuf-go's
// dynamicpb, deterministic: fields by number, map entries by key, which is
// the order generated Marshal writes too): Unmarshal then Marshal gives the
// reference bytes, Size is their length, Clone is Equal and marshals the
// same after the original is Reset. A sample that lacks required fields (a
// cycle of required messages cannot be filled) must make the generated
// Unmarshal fail (see missingRequired for why protobuf-go is not asked).
func runSchema(t *testing.T, req compiler.Request) {
	t.Helper()
	// Generate the files req.Files import too (but the well-known types,
	// which are compiled into the interpreter), as a build would need.
	first := compiler.Compile(context.Background(), compiler.Request{Sources: req.Sources, FS: req.FS, ImportPaths: req.ImportPaths, Files: req.Files, NoGenerate: true})
	if err := first.Err(); err != nil {
		t.Fatal(err)
	}
	all := append([]string(nil), req.Files...)
	seen := map[string]bool{}
	for _, f := range req.Files {
		seen[f] = true
	}
	var walk func(fd protoreflect.FileDescriptor)
	walk = func(fd protoreflect.FileDescriptor) {
		for i := 0; i < fd.Imports().Len(); i++ {
			imp := fd.Imports().Get(i).FileDescriptor
			if _, wkt := gogen.WellKnownImportPath(imp.Path()); !seen[imp.Path()] && !wkt {
				seen[imp.Path()] = true
				all = append(all, imp.Path())
			}
			walk(imp)
		}
	}
	for _, fd := range first.Files {
		walk(fd)
	}
	gen := req
	gen.Files = all
	res, files := gentest.Generate(t, gen)
	opts := gentest.Rehome(res.Files, req.Options)
	start := time.Now()
	ip, err := interp.New(files, interp.Options{Root: gentest.ModulePath})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d generated files (%d bytes) loaded into the interpreter in %v", len(files), totalBytes(files), time.Since(start).Round(time.Millisecond))
	byPath := map[string]protoreflect.FileDescriptor{}
	for _, fd := range res.Files {
		byPath[fd.Path()] = fd
	}
	for _, file := range req.Files {
		fd := byPath[file]
		t.Run(strings.TrimSuffix(file, ".proto"), func(t *testing.T) {
			importPath, _, _ := strings.Cut(opts.ImportMap[fd.Path()], ";")
			n, refused, size := 0, 0, 0
			defer func() {
				t.Logf("%d message types round-tripped (%d sample bytes), %d refused for lacking required fields, as they must be", n, size, refused)
			}()
			var walk func(protoreflect.MessageDescriptors)
			walk = func(mds protoreflect.MessageDescriptors) {
				for i := 0; i < mds.Len(); i++ {
					md := mds.Get(i)
					if md.IsMapEntry() {
						continue
					}
					switch size1, ok := roundTrip(t, ip, importPath, md); {
					case !ok:
					case size1 < 0:
						refused++
					default:
						n++
						size += size1
					}
					walk(md.Messages())
				}
			}
			walk(fd.Messages())
		})
	}
}

// roundTrip checks message type md (see runSchema) and returns the sample's
// size, or -1 when both the generated code and the reference refused it,
// and whether the checks passed.
func roundTrip(t *testing.T, ip *interp.Interpreter, importPath string, md protoreflect.MessageDescriptor) (int, bool) {
	t.Helper()
	name := string(md.FullName())
	rt, err := ip.RoundTrip(importPath, gogen.GoName(md))
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return 0, false
	}
	sample := payload.Sample(md)
	ref, err := proto.MarshalOptions{Deterministic: true, AllowPartial: true}.Marshal(sample)
	if err != nil {
		t.Errorf("%s: reference marshal: %v", name, err)
		return 0, false
	}
	var refErr error
	if missingRequired(sample) {
		refErr = errors.New("required field not set")
	}
	r, err := rt(ref)
	if (err != nil) != (refErr != nil) {
		t.Errorf("%s: generated Unmarshal error %v, reference %v", name, err, refErr)
		return 0, false
	}
	if err != nil {
		return -1, true
	}
	ok := true
	if !bytes.Equal(r.Out, ref) {
		t.Errorf("%s: Marshal after Unmarshal differs from the reference at byte %d\n got %x\nwant %x", name, firstDiff(r.Out, ref), r.Out, ref)
		ok = false
	}
	if r.Size != len(r.Out) {
		t.Errorf("%s: Size %d, Marshal wrote %d bytes", name, r.Size, len(r.Out))
		ok = false
	}
	if !r.CloneEqual {
		t.Errorf("%s: Clone is not Equal", name)
		ok = false
	}
	if !bytes.Equal(r.CloneOut, r.Out) {
		t.Errorf("%s: the clone marshals differently after Reset of the original", name)
		ok = false
	}
	return len(ref), ok
}

func totalBytes(files []gogen.File) (n int) {
	for _, f := range files {
		n += len(f.Content)
	}
	return n
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func TestTestMessages(t *testing.T) {
	shared, ok := gentest.SharedDir()
	if !ok {
		t.Skip("../shared is absent: no corpus to run")
	}
	root := filepath.Join(shared, "corpus", "protobuf")
	for _, c := range []struct{ dir, file string }{
		{root, "google/protobuf/test_messages_proto3.proto"},
		{root, "google/protobuf/test_messages_proto2.proto"},
		{filepath.Join(root, "conformance", "test_protos"), "test_messages_edition2023.proto"},
		{root, "editions/golden/test_messages_proto2_editions.proto"},
		{root, "editions/golden/test_messages_proto3_editions.proto"},
	} {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(c.dir, c.file))
			if err != nil {
				t.Fatal(err)
			}
			runSchema(t, compiler.Request{Sources: map[string]string{c.file: string(b)}, Files: []string{c.file}})
			// The opaque API's decoder calls runtime/wire's generic NewIn,
			// AppendIn and MakeSlice, which the interpreted wire must
			// supply (wireGenerics).
			t.Run("API_OPAQUE", func(t *testing.T) {
				runSchema(t, compiler.Request{Sources: map[string]string{c.file: string(b)}, Files: []string{c.file},
					Options: gogen.Options{DefaultAPILevel: "API_OPAQUE"}})
			})
		})
	}
}

// caseFiles reads testdata/cases: every .proto source, and the names of
// those that become Go code (all but those rejected on purpose, as in
// compiler/gogen's TestCasesBuild), in name order.
func caseFiles(t *testing.T) (map[string]string, []string) {
	dir := filepath.Join(gentest.RepoRoot(), "testdata", "cases")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	srcs := map[string]string{}
	var files []string
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".proto") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		srcs[name] = string(b)
		switch {
		case gentest.RejectedCase(name):
			continue // rejected on purpose (see gogen's TestCaseDiagnostics)
		}
		files = append(files, name)
	}
	return srcs, files
}

// TestCases runs the generated code of every case file of testdata/cases
// that becomes Go code (all but those rejected on purpose, as in
// compiler/gogen's TestCasesBuild) under the interpreter, at each API
// level (a hybrid message's code as built without the protoopaque tag).
func TestCases(t *testing.T) {
	srcs, files := caseFiles(t)
	for _, o := range []struct {
		name string
		opts gogen.Options
	}{
		{"enum_maps=true", gogen.Options{EnumMaps: true}},
		{"unknown_fields=drop", gogen.Options{DropUnknown: true}},
		{"default_api_level=API_HYBRID", gogen.Options{DefaultAPILevel: "API_HYBRID"}},
		{"default_api_level=API_OPAQUE", gogen.Options{DefaultAPILevel: "API_OPAQUE"}},
	} {
		t.Run(o.name, func(t *testing.T) {
			runSchema(t, compiler.Request{Sources: srcs, Files: files, Options: o.opts})
		})
	}
}

const smallProto = `syntax = "proto3";
package small;
option go_package = "example.com/small;small";
message M {
  int32 a = 1;
  string s = 2;
  repeated int64 r = 3;
  map<string, int32> m = 4;
}
`

// TestBrokenCodeIsCaught proves the round trip can fail: a generated Size
// that counts one byte too many is seen, and the interpreter runs the edited code, not a cached one.
func TestBrokenCodeIsCaught(t *testing.T) {
	req := compiler.Request{Sources: map[string]string{"small.proto": smallProto}, Files: []string{"small.proto"}}
	res, files := gentest.Generate(t, req)
	const sizeFunc = "func (m *M) Size() (n int) {\n"
	broken := false
	for i, f := range files {
		if strings.Contains(f.Content, sizeFunc) {
			files[i].Content = strings.Replace(f.Content, sizeFunc, sizeFunc+"\tdefer func() { n++ }()\n", 1)
			broken = true
		}
	}
	if !broken {
		t.Fatalf("no %q in the generated code", sizeFunc)
	}
	ip, err := interp.New(files, interp.Options{Root: gentest.ModulePath})
	if err != nil {
		t.Fatal(err)
	}
	md := res.Files[len(res.Files)-1].Messages().Get(0)
	rt, err := ip.RoundTrip(gentest.ModulePath+"/example.com/small", "M")
	if err != nil {
		t.Fatal(err)
	}
	ref, err := proto.MarshalOptions{Deterministic: true}.Marshal(payload.Sample(md))
	if err != nil {
		t.Fatal(err)
	}
	r, err := rt(ref)
	if err != nil {
		t.Fatal(err)
	}
	// The Size check of roundTrip is what catches it.
	if r.Size != len(r.Out)+1 {
		t.Fatalf("the broken Size went unnoticed: Size %d, Marshal wrote %d bytes", r.Size, len(r.Out))
	}
}

// TestProgram runs a program (a main package, as a file) against the
// generated package, the way a Run tab would: it builds a message, marshals
// it and prints the hex and the decoded fields through fmt, whose output
// goes to Options.Stdout; main runs once.
func TestProgram(t *testing.T) {
	req := compiler.Request{Sources: map[string]string{"small.proto": smallProto}, Files: []string{"small.proto"}}
	_, files := gentest.Generate(t, req)
	out := runMain(t, files, `package main

import (
	"fmt"

	"gentest/example.com/small"
)

func main() {
	m := &small.M{A: 150, S: "hi", R: []int64{-1}, M: map[string]int32{"k": 1}}
	b, err := m.Marshal()
	if err != nil {
		panic(err)
	}
	var back small.M
	if err := back.Unmarshal(b); err != nil {
		panic(err)
	}
	fmt.Printf("%x %d %s %v %d\n", b, back.A, back.S, back.R, back.M["k"])
}
`)
	const want = "089601120268691a0affffffffffffffffff0122050a016b1001 150 hi [-1] 1\n"
	if out != want {
		t.Fatalf("output %q, want %q", out, want)
	}
}

// runMain runs program, a main package, against the generated files and
// returns what it printed.
func runMain(t *testing.T, files []gogen.File, program string) string {
	t.Helper()
	var out bytes.Buffer
	ip, err := interp.New(files, interp.Options{Root: gentest.ModulePath, Stdout: &out})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ip.Eval(program); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// A public import's forwards run in the interpreter: the forward of an
// extension variable (left out, as the variable it names) takes only its
// own line.
func TestPublicImportForwards(t *testing.T) {
	srcs := map[string]string{
		"x.proto": "syntax = \"proto2\";\npackage x;\noption go_package = \"example.com/x\";\nmessage Thing { optional string name = 1; extensions 100 to 199; }\nextend Thing { optional int32 weight = 100; }\nenum Color { COLOR_UNSPECIFIED = 0; COLOR_RED = 1; }\n",
		"y.proto": "syntax = \"proto3\";\npackage y;\noption go_package = \"example.com/y\";\nimport public \"x.proto\";\nmessage Holder { x.Thing t = 1; }\n",
	}
	_, files := gentest.Generate(t, compiler.Request{Sources: srcs, Files: []string{"x.proto", "y.proto"}})
	out := runMain(t, files, `package main

import (
	"fmt"

	"gentest/example.com/y"
)

func main() {
	name := "a"
	h := &y.Holder{T: &y.Thing{Name: &name}}
	b, err := h.Marshal()
	if err != nil {
		panic(err)
	}
	var back y.Holder
	if err := back.Unmarshal(b); err != nil {
		panic(err)
	}
	fmt.Printf("%x %s %v\n", b, back.T.GetName(), y.Color_COLOR_RED.String())
}
`)
	if want := "0a030a0161 a COLOR_RED\n"; out != want {
		t.Fatalf("output %q, want %q", out, want)
	}
}

// TestUnknownType reports a type the generated package lacks as an error.
func TestUnknownType(t *testing.T) {
	req := compiler.Request{Sources: map[string]string{"small.proto": smallProto}, Files: []string{"small.proto"}}
	_, files := gentest.Generate(t, req)
	ip, err := interp.New(files, interp.Options{Root: gentest.ModulePath})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ip.RoundTrip(gentest.ModulePath+"/example.com/small", "Nope"); err == nil {
		t.Fatal("RoundTrip of a missing type succeeded")
	}
}

// TestCoreDoesNotLinkInterpreter keeps yaegi out of the compiler core's
// wasm module (and so out of its download): only this package and what
// imports it may link the interpreter.
func TestCoreDoesNotLinkInterpreter(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	cmd := exec.Command("go", "list", "-deps", "./wasm", "./compiler/...", "./runtime/...")
	cmd.Dir = gentest.RepoRoot()
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "github.com/traefik/yaegi") || strings.HasPrefix(p, "github.com/protoplay/protoplay/interp") {
			t.Errorf("the core links %s", p)
		}
	}
}

// TestInterpreterDoesNotLinkCompiler keeps the compiler (protocompile,
// protobuf-go) out of the interpreter's wasm module (wasm/interp), which
// the page downloads after the core: generated code needs only the
// runtime and the standard library.
func TestInterpreterDoesNotLinkCompiler(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	cmd := exec.Command("go", "list", "-deps", "./wasm/interp")
	cmd.Dir = gentest.RepoRoot()
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/traefik/yaegi/interp") {
		t.Fatal("wasm/interp does not link yaegi: the list proves nothing")
	}
	for _, p := range deps {
		if strings.HasPrefix(p, "github.com/protoplay/protoplay/compiler") || strings.HasPrefix(p, "github.com/bufbuild/") || strings.HasPrefix(p, "google.golang.org/protobuf") {
			t.Errorf("the interpreter's module links %s", p)
		}
	}
}

// TestCorpus runs a few larger schemas of ../shared/corpus under the
// interpreter: the DLP storage API (well-known types, nested oneofs, maps
// of messages) and the benchmark messages (GoogleMessage1 to 4, with
// groups, and the files they import).
func TestCorpus(t *testing.T) {
	shared, ok := gentest.SharedDir()
	if !ok {
		t.Skip("../shared is absent: no corpus to run")
	}
	fsys := os.DirFS(filepath.Join(shared, "corpus"))
	for _, c := range []struct {
		roots []string
		files []string
		long  bool
	}{
		{[]string{"googleapis", "protobuf"}, []string{"google/privacy/dlp/v2/storage.proto"}, false},
		{[]string{"benchmarks"}, []string{"benchmarks.proto", "google_size.proto"}, false},
		{[]string{"benchmarks"}, []string{
			"datasets/google_message1/proto2/benchmark_message1_proto2.proto",
			"datasets/google_message1/proto3/benchmark_message1_proto3.proto",
			"datasets/google_message2/benchmark_message2.proto",
		}, false},
		// 4.9 MB of generated Go, which yaegi takes 10 to 25 s to load.
		{[]string{"benchmarks"}, []string{
			"datasets/google_message3/benchmark_message3.proto",
			"datasets/google_message4/benchmark_message4.proto",
		}, true},
	} {
		t.Run(c.files[0], func(t *testing.T) {
			if c.long && testing.Short() {
				t.Skip("long: loads 4.9 MB of generated Go into the interpreter")
			}
			runSchema(t, compiler.Request{FS: fsys, ImportPaths: c.roots, Files: c.files})
		})
	}
}

// missingRequired reports whether m or a message below it lacks a required
// field. It reads Cardinality, not the descriptor's RequiredNumbers, which
// protocompile leaves empty for editions fields with field_presence =
// LEGACY_REQUIRED (so protobuf-go's own check passes such messages).
func missingRequired(m protoreflect.Message) bool {
	fields := m.Descriptor().Fields()
	for i := 0; i < fields.Len(); i++ {
		if fd := fields.Get(i); fd.Cardinality() == protoreflect.Required && !m.Has(fd) {
			return true
		}
	}
	missing := false
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsMap():
			if fd.MapValue().Message() != nil {
				v.Map().Range(func(_ protoreflect.MapKey, e protoreflect.Value) bool {
					missing = missingRequired(e.Message())
					return !missing
				})
			}
		case fd.Message() == nil:
		case fd.IsList():
			for j := 0; j < v.List().Len() && !missing; j++ {
				missing = missingRequired(v.List().Get(j).Message())
			}
		default:
			missing = missingRequired(v.Message())
		}
		return !missing
	})
	return missing
}

// BenchmarkRoundTrip measures one interpreted round trip (Unmarshal,
// Marshal, Size, Clone, Equal, Reset, Marshal) of the sample of the
// benchmark corpus's GoogleMessage1.
func BenchmarkRoundTrip(b *testing.B) {
	shared, ok := gentest.SharedDir()
	if !ok {
		b.Skip("../shared is absent")
	}
	req := compiler.Request{FS: os.DirFS(filepath.Join(shared, "corpus", "benchmarks", "datasets")), Files: []string{"google_message1/proto3/benchmark_message1_proto3.proto"}}
	res, files := gentest.Generate(b, req)
	opts := gentest.Rehome(res.Files, req.Options)
	md := res.Files[0].Messages().ByName("GoogleMessage1")
	importPath, _, _ := strings.Cut(opts.ImportMap[res.Files[0].Path()], ";")
	ip, err := interp.New(files, interp.Options{Root: gentest.ModulePath})
	if err != nil {
		b.Fatal(err)
	}
	rt, err := ip.RoundTrip(importPath, "GoogleMessage1")
	if err != nil {
		b.Fatal(err)
	}
	in, err := proto.MarshalOptions{Deterministic: true}.Marshal(payload.Sample(md))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, err := rt(in); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSameNamedPackages: two packages named v1 whose code decodes message
// types of the same name (N) are refused up front with an error naming
// them, where yaegi would mix the types up (a panic or a type error deep in
// the load); same-named packages without such a pair still load and run.
func TestSameNamedPackages(t *testing.T) {
	for _, c := range []struct {
		name, a, b string
		refused    bool
	}{
		{"repeated", "message N { int32 y = 2; } message M { repeated N n = 1; }", "message N { string z = 4; } message M { repeated N n = 1; }", true},
		{"singular", "message N { int32 y = 2; } message M { N n = 1; }", "message N { string z = 4; } message M { N n = 1; }", true},
		{"map value", "message N { int32 y = 2; } message M { map<string, N> n = 1; }", "message N { string z = 4; } message M { N n = 1; }", true},
		{"different types", "message N { int32 y = 2; } message M { N n = 1; }", "message K { string z = 4; } message M { K k = 1; }", false},
		{"flat", "message M { int32 y = 2; }", "message M { string z = 4; }", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			req := compiler.Request{Sources: map[string]string{
				"a.proto": `syntax = "proto3"; package a.v1; option go_package = "example.com/a/v1"; ` + c.a,
				"b.proto": `syntax = "proto3"; package b.v1; option go_package = "example.com/b/v1"; ` + c.b,
			}, Files: []string{"a.proto", "b.proto"}}
			_, files := gentest.Generate(t, req)
			_, err := interp.New(files, interp.Options{Root: gentest.ModulePath})
			if c.refused {
				if err == nil || !strings.Contains(err.Error(), "gentest/example.com/a/v1 and gentest/example.com/b/v1 are all named v1") || !strings.Contains(err.Error(), "message type N") {
					t.Fatalf("error %v", err)
				}
				// Different package names: accepted, and both run.
				for k, src := range req.Sources {
					req.Sources[k] = strings.Replace(src, `/v1"`, `/v1;`+k[:1]+`v1"`, 1)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			runSchema(t, req)
		})
	}
}

// TestLazyFields: an opaque message's lazy fields ([lazy = true],
// [unverified_lazy = true], the option lazy=) call runtime/wire's
// generic LoadMessage and PublishMessage, which the interpreted wire must
// supply (wireGenerics); the messages round-trip as the reference's do.
func TestLazyFields(t *testing.T) {
	const src = `edition = "2023";
package lz;
message Inner {
  string s = 1;
  Inner child = 2 [lazy = true];
  repeated int32 v = 3;
}
message Outer {
  Inner lazy = 1 [lazy = true];
  Inner unverified = 2 [unverified_lazy = true];
  Inner named = 3;
  int32 x = 4;
}
`
	opts, err := gogen.ParseOptions("default_api_level=API_OPAQUE,lazy=lz.Outer.named")
	if err != nil {
		t.Fatal(err)
	}
	runSchema(t, compiler.Request{Sources: map[string]string{"lz.proto": src}, Files: []string{"lz.proto"}, Options: opts})
}
