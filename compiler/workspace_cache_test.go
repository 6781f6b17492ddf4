package compiler

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Tests of the workspace's generate cache (gogen.Cache): an edit reuses
// the printed Go of every message and enum it did not change, and the
// result is byte for byte a cold compile's.

// coldGenerate compiles files with no cache.
func coldGenerate(t *testing.T, files Sources, options string) *CompileResult {
	t.Helper()
	res, err := (&Workspace{}).Generate(context.Background(), CompileRequest{Files: files, Options: options})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// sameOutput fails unless a and b hold the same diagnostics and files,
// byte for byte.
func sameOutput(t *testing.T, step string, warm, cold *CompileResult) {
	t.Helper()
	if len(warm.Diagnostics) != len(cold.Diagnostics) {
		t.Fatalf("%s: %d diagnostics incrementally, %d cold:\n%v\n%v", step, len(warm.Diagnostics), len(cold.Diagnostics), warm.Diagnostics, cold.Diagnostics)
	}
	for i := range warm.Diagnostics {
		if warm.Diagnostics[i].Key() != cold.Diagnostics[i].Key() {
			t.Fatalf("%s: diagnostic %d: %+v incrementally, %+v cold", step, i, warm.Diagnostics[i], cold.Diagnostics[i])
		}
	}
	if len(warm.Generated) != len(cold.Generated) {
		t.Fatalf("%s: %d files incrementally, %d cold", step, len(warm.Generated), len(cold.Generated))
	}
	for i, f := range warm.Generated {
		c := cold.Generated[i]
		if f.Name != c.Name || f.Content != c.Content {
			t.Fatalf("%s: %s differs from a cold compile's %s:\n%s", step, f.Name, c.Name, firstDifference(f.Content, c.Content))
		}
	}
}

func firstDifference(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return "line " + strconv.Itoa(i+1) + ":\n  incremental: " + al[i] + "\n  cold:        " + bl[i]
		}
	}
	return "one is a prefix of the other"
}

// editSequence is a workspace edited step by step: each step replaces or
// adds files; the edits reach imported files (enum values, required
// fields, go_package, comments, names) so that a cached piece would be
// stale if its key missed what it is printed from.
var editSequence = []struct {
	name    string
	files   Sources
	options string
}{
	{"start", Sources{
		"dep.proto": `syntax = "proto2";
package dep;
option go_package = "example.com/dep";
// Color is a color.
enum Color { RED = 0; GREEN = 1; }
message Inner { optional int32 x = 1; }
`,
		"main.proto": `syntax = "proto2";
package app;
option go_package = "example.com/app";
import "dep.proto";
// M is the main message.
message M {
  optional dep.Color color = 1;
  optional dep.Inner inner = 2;
  map<string, dep.Inner> byName = 3;
  oneof o { string s = 4; dep.Inner i = 5; }
  message Nested { optional dep.Color c = 1 [default = GREEN]; }
  optional Nested nested = 6;
}
message Other { repeated int32 v = 1; }
enum Local { LOCAL_ZERO = 0; }
`}, ""},
	{"comment in the importer", Sources{"main.proto": ""}, ""}, // filled below
	{"imported enum's first value renamed", Sources{"dep.proto": `syntax = "proto2";
package dep;
option go_package = "example.com/dep";
// Color is a color.
enum Color { BLUE = 0; GREEN = 1; }
message Inner { optional int32 x = 1; }
`}, ""},
	{"imported message gets a required field", Sources{"dep.proto": `syntax = "proto2";
package dep;
option go_package = "example.com/dep";
// Color is a color.
enum Color { BLUE = 0; GREEN = 1; }
message Inner { required int32 x = 1; }
`}, ""},
	{"imported file's go_package moves", Sources{"dep.proto": `syntax = "proto2";
package dep;
option go_package = "example.com/elsewhere/dep2";
// Color is a color.
enum Color { BLUE = 0; GREEN = 1; }
message Inner { required int32 x = 1; }
`}, ""},
	{"options change", nil, "enum_maps=true"},
	{"field added, message renamed", Sources{"main.proto": `syntax = "proto2";
package app;
option go_package = "example.com/app";
import "dep.proto";
import "google/protobuf/timestamp.proto";
// M is the main message.
message M {
  optional dep.Color color = 1;
  optional dep.Inner inner = 2;
  map<string, dep.Inner> byName = 3;
  oneof o { string s = 4; dep.Inner i = 5; }
  message Nested { optional dep.Color c = 1 [default = GREEN]; }
  optional Nested nested = 6;
  optional google.protobuf.Timestamp at = 7;
}
message Renamed { repeated int32 v = 1; optional M m = 2; }
enum Local { LOCAL_ZERO = 0; }
`}, "enum_maps=true"},
	{"an unused import (a warning) in the imported file", Sources{"dep.proto": `syntax = "proto2";
package dep;
option go_package = "example.com/elsewhere/dep2";
import "google/protobuf/empty.proto";
// Color is a color.
enum Color { BLUE = 0; GREEN = 1; }
message Inner { required int32 x = 1; }
`}, "enum_maps=true"},
	{"the importer edited, the file with a warning reused", Sources{"main.proto": "// a comment at the top\n"}, "enum_maps=true"}, // filled below
	{"a schema error", Sources{"main.proto": `syntax = "proto2"; message { }`}, ""},
	{"back to the start", nil, ""}, // filled below
	{"editions, features", Sources{"main.proto": `edition = "2023";
package app;
option go_package = "example.com/app";
option features.field_presence = IMPLICIT;
import "dep.proto";
message M {
  dep.Color color = 1;
  string s = 2 [features.field_presence = EXPLICIT];
  message Nested { int32 y = 1; }
}
`}, ""},
	{"editions, file feature changed", Sources{"main.proto": `edition = "2023";
package app;
option go_package = "example.com/app";
import "dep.proto";
message M {
  dep.Color color = 1;
  string s = 2 [features.field_presence = EXPLICIT];
  message Nested { int32 y = 1; }
}
`}, ""},
	{"proto3, same names", Sources{"main.proto": `syntax = "proto3";
package app;
option go_package = "example.com/app";
import "dep.proto";
message M {
  dep.Color color = 1;
  string s = 2;
  message Nested { int32 y = 1; }
}
`}, ""},
	// Which messages get ValidateGroup depends on the lazy fields of
	// their whole file: each step changes it for Part and Leaf, whose
	// own descriptors do not change.
	{"edition 2024, no lazy field", Sources{"main.proto": lazyMain("")}, ""},
	{"edition 2024, a lazy field in another message", Sources{"main.proto": lazyMain(" [lazy = true]")}, ""},
	{"edition 2024, the lazy field removed", Sources{"main.proto": lazyMain("")}, ""},
}

// lazyMain is an edition 2024 (opaque) main.proto whose Holder.part has
// the options opt.
func lazyMain(opt string) string {
	return `edition = "2024";
package app;
option go_package = "example.com/app";
import "dep.proto";
message M { Part p = 1; dep.Inner inner = 2; }
message Part { string s = 1; Leaf leaf = 2; }
message Leaf { int32 x = 1; }
message Holder { Part part = 1` + opt + `; dep.Inner inner = 2` + opt + `; }
`
}

func init() {
	start := editSequence[0].files
	editSequence[1].files = Sources{"main.proto": strings.Replace(start["main.proto"], "// M is the main message.", "// M is the main message, edited.", 1)}
	for i, step := range editSequence {
		if step.name == "back to the start" {
			editSequence[i].files = start
		}
	}
	for i, step := range editSequence {
		if strings.HasPrefix(step.name, "the importer edited") {
			editSequence[i].files = Sources{"main.proto": "// a comment at the top\n" + editSequence[i-2].files["main.proto"]}
		}
	}
}

// TestCacheMatchesCold compiles editSequence, then every testdata case,
// then googleapis files with edits, in one Workspace (so with its cache)
// and each step cold, and compares every byte of the output.
func TestCacheMatchesCold(t *testing.T) {
	w := &Workspace{}
	files := Sources{}
	for _, step := range editSequence {
		for k, v := range step.files {
			files[k] = v
		}
		cp := Sources{}
		for k, v := range files {
			cp[k] = v
		}
		warm, err := w.Generate(context.Background(), CompileRequest{Files: cp, Options: step.options})
		if err != nil {
			t.Fatal(err)
		}
		sameOutput(t, step.name, warm, coldGenerate(t, cp, step.options))
	}
	if w.gen.Hits == 0 || w.link.Hits == 0 {
		t.Errorf("the edit sequence reused %d pieces and %d linked files, want some of each", w.gen.Hits, w.link.Hits)
	}

	// Every case of testdata/cases, one after the other and then each
	// with its first message's comment changed.
	cases, _ := filepath.Glob("../testdata/cases/*.proto")
	sort.Strings(cases)
	for _, c := range cases {
		b, err := os.ReadFile(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range []string{string(b), string(b) + "\n// trailing\n", strings.Replace(string(b), "message ", "// edited\nmessage ", 1)} {
			src := Sources{filepath.Base(c): text}
			warm, err := w.Generate(context.Background(), CompileRequest{Files: src})
			if err != nil {
				t.Fatal(err)
			}
			sameOutput(t, c, warm, coldGenerate(t, src, ""))
		}
	}
}

// TestCacheMatchesColdGoogleAPIs edits storage.proto and dlp.proto (in
// ../shared/corpus) the ways a person does and compares each compile
// with a cold one.
func TestCacheMatchesColdGoogleAPIs(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	root := filepath.Join("..", "..", "shared", "corpus", "googleapis")
	read := func(p string) string {
		b, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			t.Skipf("no ../shared/corpus (%v): skipping the googleapis edits", err)
		}
		return string(b)
	}
	storage, dlp := read("google/privacy/dlp/v2/storage.proto"), read("google/privacy/dlp/v2/dlp.proto")
	const sp, dp = "google/privacy/dlp/v2/storage.proto", "google/privacy/dlp/v2/dlp.proto"
	w := &Workspace{}
	steps := []struct {
		name  string
		files Sources
	}{
		{"both", Sources{sp: storage, dp: dlp}},
		{"comment appended to dlp", Sources{sp: storage, dp: dlp + "// edit\n"}},
		{"comment inside a dlp message others refer to", Sources{sp: storage, dp: strings.Replace(dlp, "message InspectConfig {\n", "message InspectConfig {\n  // edit\n", 1)}},
		{"comment on a storage message dlp uses", Sources{sp: strings.Replace(storage, "message InfoType {\n", "// InfoType, edited.\nmessage InfoType {\n", 1), dp: dlp}},
		{"comment on a storage field dlp uses", Sources{sp: strings.Replace(storage, "message InfoType {\n", "message InfoType {\n  // edited\n", 1), dp: dlp}},
		{"field added to a storage message dlp uses", Sources{sp: strings.Replace(storage, "message InfoType {\n", "message InfoType {\n  int64 added_field = 99;\n", 1), dp: dlp}},
		{"storage enum value renamed", Sources{sp: strings.Replace(storage, "LIKELIHOOD_UNSPECIFIED = 0;", "LIKELIHOOD_UNKNOWN = 0;", 1), dp: dlp}},
		{"back", Sources{sp: storage, dp: dlp}},
	}
	for _, s := range steps {
		warm, err := w.Generate(context.Background(), CompileRequest{Files: s.files})
		if err != nil {
			t.Fatal(err)
		}
		if len(warm.Generated) == 0 {
			t.Fatalf("%s: no output: %v", s.name, warm.Diagnostics)
		}
		sameOutput(t, s.name, warm, coldGenerate(t, s.files, ""))
	}
}

// TestCacheBoundedAndKeyed checks that an edit to an imported file
// reprints its importers' pieces that use it, that unchanged pieces are
// reused, and that the cache holds no more than the pieces of the last
// two compiles.
func TestCacheBoundedAndKeyed(t *testing.T) {
	w := &Workspace{}
	gen := func(files Sources) (*CompileResult, int, int) {
		h, m := w.gen.Hits, w.gen.Misses
		res, err := w.Generate(context.Background(), CompileRequest{Files: files})
		if err != nil || len(res.Generated) == 0 {
			t.Fatalf("%v %v", err, res.Diagnostics)
		}
		return res, w.gen.Hits - h, w.gen.Misses - m
	}
	start := editSequence[0].files
	_, hits, misses := gen(start)
	if hits != 0 || misses == 0 {
		t.Fatalf("first compile: %d hits, %d misses", hits, misses)
	}
	total := misses
	// The same sources: every piece reused.
	if _, hits, misses = gen(start); misses != 0 || hits != total {
		t.Fatalf("unchanged sources: %d hits, %d misses, want %d, 0", hits, misses, total)
	}
	// An edit to dep.proto's Color: dep's enum and main's M use it and
	// are printed again, M with every message nested in it (Nested and
	// the map entry ByNameEntry: pieces are keyed by their top-level
	// type's descriptor); dep.Inner, main's Other and Local are not.
	edited := Sources{"main.proto": start["main.proto"], "dep.proto": strings.Replace(start["dep.proto"], "RED = 0", "CRIMSON = 0", 1)}
	res, hits, misses := gen(edited)
	if misses != 4 || hits != total-4 {
		t.Errorf("edit of an imported enum: %d hits, %d misses, want %d, 4 (dep.Color, app.M, app.M.Nested, app.M.ByNameEntry)", hits, misses, total-4)
	}
	var app string
	for _, f := range res.Generated {
		if strings.Contains(f.Name, "main") {
			app = f.Content
		}
	}
	if !strings.Contains(app, "Color_CRIMSON") {
		t.Errorf("main's Go does not use the renamed enum value:\n%s", app)
	}
	// Linked files: dep.proto changed, so it and main.proto, which
	// imports it, were linked again; now an edit of main.proto alone
	// reuses dep.proto.
	lh, lm := w.link.Hits, w.link.Misses
	// (An edit that changes the descriptor: a comment after the last
	// declaration is in no descriptor, and a file whose descriptor did
	// not change is reused.)
	gen(Sources{"main.proto": start["main.proto"] + "message EditMain {}\n", "dep.proto": edited["dep.proto"]})
	if hits, misses := w.link.Hits-lh, w.link.Misses-lm; hits != 1 || misses != 1 {
		t.Errorf("edit of the importer: %d linked files reused, %d linked again, want 1 (dep.proto), 1 (main.proto)", hits, misses)
	}
	lh, lm = w.link.Hits, w.link.Misses
	gen(Sources{"main.proto": start["main.proto"] + "message EditMain {}\n", "dep.proto": edited["dep.proto"] + "message EditDep {}\n"})
	if hits, misses := w.link.Hits-lh, w.link.Misses-lm; hits != 0 || misses != 2 {
		t.Errorf("edit of the imported file: %d linked files reused, %d linked again, want 0, 2 (its importer too)", hits, misses)
	}

	// A comment edit reprints only the pieces of the type it is in: the
	// pieces that refer to that type (app.M and its nested types) read
	// its Go names and descriptor, never its comments.
	gen(Sources{"main.proto": start["main.proto"], "dep.proto": edited["dep.proto"]}) // back to before the two edits above
	withComment := Sources{"main.proto": start["main.proto"] + "// edit\n", "dep.proto": strings.Replace(edited["dep.proto"], "// Color is a color.", "// Color is a colour.", 1) + "// edit\n"}
	res, hits, misses = gen(withComment)
	if misses != 1 || hits != total-1 {
		t.Errorf("comment edit of an imported enum: %d hits, %d misses, want %d, 1 (dep.Color)", hits, misses, total-1)
	}
	sameOutput(t, "comment edit of an imported enum", res, coldGenerate(t, withComment, ""))

	// A comment edited in a message reprints that message's piece only,
	// not those of the messages nested in it (app.M.Nested and the map
	// entry), which print their own comments; one edited in a nested
	// message, that nested message's piece only.
	for _, c := range []struct{ what, old, new, piece string }{
		{"a comment on the parent", "// M is the main message.", "// M is the main message, again.", "app.M"},
		{"a comment on the parent's field", "  optional dep.Inner inner = 2;", "  // inner, commented.\n  optional dep.Inner inner = 2;", "app.M"},
		{"a comment in the nested message", "  message Nested { optional", "  message Nested {\n    // c, commented.\n    optional", "app.M.Nested"},
		{"a comment on the nested message", "  message Nested {", "  // Nested, commented.\n  message Nested {", "app.M.Nested"},
	} {
		src := Sources{"main.proto": strings.Replace(start["main.proto"], c.old, c.new, 1), "dep.proto": withComment["dep.proto"]}
		if src["main.proto"] == start["main.proto"] {
			t.Fatalf("%s: the edit did not apply", c.what)
		}
		gen(withComment)
		res, hits, misses = gen(src)
		if misses != 1 || hits != total-1 {
			t.Errorf("%s: %d hits, %d misses, want %d, 1 (%s)", c.what, hits, misses, total-1, c.piece)
		}
		sameOutput(t, c.what, res, coldGenerate(t, src, ""))
	}

	// Bounded: after many different compiles, at most two compiles'
	// pieces are held.
	for i := 0; i < 20; i++ {
		src := Sources{"x.proto": "syntax = \"proto3\"; package p" + strconv.Itoa(i) + "; message A { int32 a = 1; } message B { string b = 1; } enum E { E_ZERO = 0; }"}
		gen(src)
	}
	if n := w.gen.Len(); n > 10 {
		t.Errorf("the cache holds %d pieces after compiles of 5 pieces each (A, B, E, the resolver, the notes), want at most 10 (the last two compiles')", n)
	}
}

// TestCacheResolverAndNotes edits what a file's resolver function and its
// notes on extensions and services are printed from (the messages and
// their Go names, the files its fields' types come from and their order,
// the extensions, the services and the services= option), each step
// compared with a cold compile, and checks that an edit changing none of
// it (a comment at the end of a file, as the page's measurement types)
// reprints no piece at all.
func TestCacheResolverAndNotes(t *testing.T) {
	dep := `syntax = "proto3";
package dep;
option go_package = "example.com/dep";
message D { int32 x = 1; }
`
	other := `syntax = "proto3";
package other;
option go_package = "example.com/other";
message O { string s = 1; }
`
	main := `syntax = "proto2";
package app;
option go_package = "example.com/app";
import "dep.proto";
import "other.proto";
message M {
  optional dep.D d = 1;
  optional other.O o = 2;
  message N { optional int32 y = 1; }
  map<string, N> byName = 3;
  extensions 100 to 200;
}
`
	w := &Workspace{}
	step := func(name string, files Sources, options string) (hits, misses int) {
		t.Helper()
		h, m := w.gen.Hits, w.gen.Misses
		warm, err := w.Generate(context.Background(), CompileRequest{Files: files, Options: options})
		if err != nil {
			t.Fatal(err)
		}
		if len(warm.Generated) == 0 {
			t.Fatalf("%s: no output: %v", name, warm.Diagnostics)
		}
		sameOutput(t, name, warm, coldGenerate(t, files, options))
		return w.gen.Hits - h, w.gen.Misses - m
	}
	files := Sources{"dep.proto": dep, "other.proto": other, "main.proto": main}
	step("start", files, "")
	// 11 pieces: dep.D, other.O, app.M, app.M.N, app.M.ByNameEntry and
	// each file's resolver and notes.
	if hits, misses := step("a comment appended to main.proto", Sources{"dep.proto": dep, "other.proto": other, "main.proto": main + "// edit\n"}, ""); hits != 11 || misses != 0 {
		t.Errorf("a comment at the end of a file: %d pieces reused, %d printed again, want 11 (every one, the resolvers and notes too), 0", hits, misses)
	}
	edits := []struct{ name, main, options string }{
		{"a message added", main + "message Added { optional int32 a = 1; }\n", ""},
		{"a nested message renamed", strings.NewReplacer(" N {", " Renamed {", ", N>", ", Renamed>").Replace(main), ""},
		{"fields reordered: the resolver asks other's resolver first", strings.Replace(strings.Replace(main, "dep.D d = 1", "other.O o = 1", 1), "other.O o = 2", "dep.D d = 2", 1), ""},
		{"a field's type moved to other.proto", strings.Replace(main, "dep.D d = 1", "other.O d = 1", 1), ""},
		{"an extension added", main + "extend M { optional string ext = 100; }\n", ""},
		{"a second extension", main + "extend M { optional string ext = 100; optional int64 ext2 = 101; }\n", ""},
		{"a service added", main + "service S { rpc Get(M) returns (M); }\n", ""},
		{"the service printed (services=grpc): no note", main + "service S { rpc Get(M) returns (M); }\n", "services=grpc"},
		{"a message removed: the resolver drops its case", strings.Replace(main, "  message N { optional int32 y = 1; }\n  map<string, N> byName = 3;\n", "", 1), ""},
		{"back", main, ""},
	}
	for _, e := range edits {
		if e.main == main && e.name != "back" {
			t.Fatalf("%s: the edit did not apply", e.name)
		}
		step(e.name, Sources{"dep.proto": dep, "other.proto": other, "main.proto": e.main}, e.options)
	}
}

// TestCacheImportReplay edits, one at a time, the comments of messages
// whose fields use types of two Go packages with the same name (so the
// second import gets another name, in the order the pieces register
// them) and of the well-known types: the imports of the pieces reused
// before and after the reprinted one are registered as printing them did,
// and every file is a cold compile's, byte for byte.
func TestCacheImportReplay(t *testing.T) {
	files := Sources{
		"a/dep.proto": "syntax = \"proto3\";\npackage a.dep;\noption go_package = \"example.com/a/dep\";\nmessage X { int32 x = 1; }\n",
		"b/dep.proto": "syntax = \"proto3\";\npackage b.dep;\noption go_package = \"example.com/b/dep\";\nmessage Y { int32 y = 1; }\n",
	}
	main := `syntax = "proto3";
package app;
option go_package = "example.com/app";
import "a/dep.proto";
import "b/dep.proto";
import "google/protobuf/timestamp.proto";
// A uses a/dep.
message A { a.dep.X x = 1; }
// B uses b/dep.
message B { b.dep.Y y = 1; }
// C uses both and a well-known type.
message C { b.dep.Y y = 1; a.dep.X x = 2; google.protobuf.Timestamp at = 3; }
// D uses none.
message D { int32 d = 1; }
`
	w := &Workspace{}
	gen := func(name, text string) {
		t.Helper()
		src := Sources{"main.proto": text}
		for k, v := range files {
			src[k] = v
		}
		warm, err := w.Generate(context.Background(), CompileRequest{Files: src})
		if err != nil {
			t.Fatal(err)
		}
		if len(warm.Generated) == 0 {
			t.Fatalf("%s: no output: %v", name, warm.Diagnostics)
		}
		sameOutput(t, name, warm, coldGenerate(t, src, ""))
	}
	gen("start", main)
	hits := w.gen.Hits
	for _, m := range []string{"A", "B", "C", "D"} {
		edited := strings.Replace(main, "// "+m+" uses", "// "+m+", edited, uses", 1)
		gen(m+" edited", edited)
		gen("back from "+m, main)
	}
	if w.gen.Hits == hits {
		t.Error("no piece was reused")
	}
}

// TestCacheConcurrentCalls runs edits from several goroutines on one
// Workspace at once (its caches, and their memo of per-descriptor work,
// shared), with two option sets, each result compared with a cold
// compile; under -race it also checks that no call writes what another
// reads.
func TestCacheConcurrentCalls(t *testing.T) {
	start := editSequence[0].files
	w := &Workspace{}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			options := []string{"", "enum_maps=true"}[g%2]
			for i := 0; i < 6; i++ {
				src := Sources{"dep.proto": start["dep.proto"], "main.proto": start["main.proto"]}
				if i%2 == 1 {
					src["main.proto"] += "// edit " + strconv.Itoa(g) + "\n"
				}
				if i%3 == 2 {
					src["dep.proto"] = strings.Replace(src["dep.proto"], "RED = 0", "RED"+strconv.Itoa(g)+" = 0", 1)
				}
				warm, err := w.Generate(context.Background(), CompileRequest{Files: src, Options: options})
				if err != nil {
					t.Error(err)
					return
				}
				sameOutput(t, "goroutine "+strconv.Itoa(g)+", edit "+strconv.Itoa(i), warm, coldGenerate(t, src, options))
			}
		}(g)
	}
	wg.Wait()
}

// TestCacheKeepsStoppedWork checks that a generation stopped by a limit
// (the page's time limit) keeps the pieces it printed, so that trying
// again continues where it stopped and ends with a cold compile's bytes.
func TestCacheKeepsStoppedWork(t *testing.T) {
	var b strings.Builder
	b.WriteString("syntax = \"proto3\";\npackage big;\n")
	for i := 0; i < 120; i++ {
		b.WriteString("// M" + strconv.Itoa(i) + " is a message.\nmessage M" + strconv.Itoa(i) + " { string a = 1; repeated int64 b = 2; map<string, M0> c = 3; }\n")
	}
	src := Sources{"big.proto": b.String()}
	fe := Compile(context.Background(), Request{Sources: src, NoGenerate: true})
	if fe.HasErrors() {
		t.Fatal(fe.Diagnostics)
	}
	var cache GenerateCache
	tries := 0
	var out []File
	for {
		tries++
		if tries > 20 {
			t.Fatal("no end after 20 tries")
		}
		misses := cache.Misses
		files, ds := generate(fe.Files, Options{}, &cache, nil, func(int) error {
			if cache.Misses-misses >= 50 {
				return &Error{Kind: KindLimit, Limit: LimitDeadline, Message: "stopped"}
			}
			return nil
		})
		if len(ds) == 0 {
			out = files
			break
		}
		if len(ds) != 1 || ds[0].Limit != LimitDeadline {
			t.Fatalf("try %d: %v", tries, ds)
		}
	}
	// 240 pieces (each message and its map entry) and the resolver: at
	// most 50 new ones a try.
	if tries < 5 {
		t.Errorf("%d tries; want at least 5 for 240 pieces at 50 a try", tries)
	}
	cold := Compile(context.Background(), Request{Sources: src})
	if len(cold.Generated) != len(out) {
		t.Fatalf("%d files, cold %d", len(out), len(cold.Generated))
	}
	for i := range out {
		if out[i] != cold.Generated[i] {
			t.Fatalf("%s differs from a cold compile's:\n%s", out[i].Name, firstDifference(out[i].Content, cold.Generated[i].Content))
		}
	}
}
