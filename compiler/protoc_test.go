package compiler_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/internal/gentest"
)

// protocCorpus are the corpus files the mutations are applied to: proto2
// and proto3 files of protobuf 3.21.12, which protoc 3.21.12 compiles.
var protocCorpus = []string{
	"google/protobuf/unittest_import.proto",               // proto2
	"google/protobuf/map_proto2_unittest.proto",           // proto2, imports
	"google/protobuf/unittest_proto3_optional.proto",      // proto3
	"google/protobuf/util/internal/testdata/oneofs.proto", // proto3, imports WKTs
}

// A mutation is a change protoc rejects: snippet is appended to the file.
// In it, "%L" is "optional " in proto2 files and "" in proto3 ones.
type mutation struct {
	name    string
	syntax  string // "proto2", "proto3" or "" for both
	snippet string
}

var protocMutations = []mutation{
	{"duplicate field number", "", "message Mut { %Lint32 a = 1; %Lint32 b = 1; }"},
	{"duplicate field name", "", "message Mut { %Lint32 a = 1; %Lint32 a = 2; }"},
	{"field number zero", "", "message Mut { %Lint32 a = 0; }"},
	{"field number negative", "", "message Mut { %Lint32 a = -1; }"},
	{"field number in 19000-19999", "", "message Mut { %Lint32 a = 19000; }"},
	{"field number too large", "", "message Mut { %Lint32 a = 536870912; }"},
	{"reserved number used", "", "message Mut { reserved 5; %Lint32 a = 5; }"},
	{"reserved range used", "", "message Mut { reserved 2 to 9; %Lint32 a = 5; }"},
	{"reserved name used", "", "message Mut { reserved \"a\"; %Lint32 a = 1; }"},
	{"reserved ranges overlap", "", "message Mut { reserved 1 to 5; reserved 3; }"},
	{"enum reserved number used", "", "enum MutE { reserved 1; MUT_A = 0; MUT_B = 1; }"},
	{"enum reserved name used", "", "enum MutE { reserved \"MUT_B\"; MUT_A = 0; MUT_B = 1; }"},
	{"enum value reused without allow_alias", "", "enum MutE { MUT_A = 0; MUT_B = 0; }"},
	{"allow_alias without aliases", "", "enum MutE { option allow_alias = true; MUT_A = 0; MUT_B = 1; }"},
	{"enum value out of int32 range", "", "enum MutE { MUT_A = 0; MUT_B = 2147483648; }"},
	{"enum values clash in the enclosing scope", "", "enum MutE1 { MUT_X = 0; } enum MutE2 { MUT_X = 0; }"},
	{"field and nested type share a name", "", "message Mut { message A {} %Lint32 A = 1; }"},
	{"field and enum value share a name", "", "message Mut { enum E { X = 0; } %Lint32 X = 1; }"},
	{"oneof and field share a name", "", "message Mut { oneof a { int32 x = 1; } %Lint32 a = 2; }"},
	{"map in oneof", "", "message Mut { oneof o { map<int32, int32> m = 1; } }"},
	{"repeated in oneof", "", "message Mut { oneof o { repeated int32 r = 1; } }"},
	{"float map key", "", "message Mut { map<float, int32> m = 1; }"},
	{"message map key", "", "message Mut { map<Mut, int32> m = 1; }"},
	{"packed on a singular field", "", "message Mut { %Lint32 a = 1 [packed = true]; }"},
	{"packed on repeated strings", "", "message Mut { repeated string s = 1 [packed = true]; }"},
	{"packed in a oneof", "", "message Mut { oneof o { int32 a = 1 [packed = true]; } }"},
	{"packed on a map", "", "message Mut { map<int32, int32> m = 1 [packed = true]; }"},
	{"packed set twice", "", "message Mut { repeated int32 a = 1 [packed = true, packed = false]; }"},
	{"jstype on int32", "", "message Mut { %Lint32 a = 1 [jstype = JS_STRING]; }"},
	{"deprecated set to a number", "", "message Mut { %Lint32 a = 1 [deprecated = 1]; }"},
	{"duplicate message", "", "message Mut {} message Mut {}"},
	{"duplicate enum value name", "", "enum MutE { MUT_A = 0; MUT_A = 1; }"},
	{"map entry name taken", "", "message Mut { message MutEntry {} map<int32, int32> mut = 1; }"},
	{"reserved name after its field", "", "message Mut { %Lint32 a = 1; reserved \"a\"; }"},
	{"enum reserved zero used", "", "enum MutE { MUT_A = 0; reserved 0; }"},
	{"enum reserved range backwards", "", "enum MutE { MUT_A = 0; reserved 5 to 1; }"},
	{"lazy on a scalar", "", "message Mut { %Lint32 a = 1 [lazy = true]; }"},
	{"option set twice", "", "message Mut { option deprecated = true; option deprecated = false; }"},
	{"unknown option", "", "message Mut { option (nonexistent) = 1; }"},
	{"unknown field type", "", "message Mut { %LNoSuchType a = 1; }"},
	{"duplicate method", "", "message Mut {} service MutS { rpc A(Mut) returns (Mut); rpc A(Mut) returns (Mut); }"},
	{"scalar rpc input", "", "message Mut {} service MutS { rpc A(int32) returns (Mut); }"},
	{"json_name on an extension", "proto2", "message Mut { extensions 100 to 199; } extend Mut { optional int32 e = 100 [json_name = \"x\"]; }"},
	{"default json_names clash", "proto3", "message Mut { int32 foo_bar = 1; int32 fooBar = 2; }"},
	{"proto3 first enum value not zero", "proto3", "enum MutE { MUT_A = 1; }"},
	{"proto3 required", "proto3", "message Mut { required int32 a = 1; }"},
	{"proto3 default", "proto3", "message Mut { int32 a = 1 [default = 1]; }"},
	{"proto3 group", "proto3", "message Mut { group G = 1 {} }"},
	{"proto3 extension range", "proto3", "message Mut { extensions 100 to 199; }"},
	{"proto3 closed enum field", "proto3", "import \"google/protobuf/unittest_import.proto\";\nmessage Mut { protobuf_unittest_import.ImportEnum e = 1; }"},
	{"proto3 message_set_wire_format", "proto3", "message Mut { option message_set_wire_format = true; }"},
	{"proto3 optional in oneof", "proto3", "message Mut { oneof o { optional int32 a = 1; } }"},
	{"proto2 field without label", "proto2", "message Mut { int32 a = 1; }"},
	{"proto2 default on repeated", "proto2", "message Mut { repeated int32 a = 1 [default = 1]; }"},
	{"proto2 default on a message", "proto2", "message Mut { optional Mut m = 1 [default = 1]; }"},
	{"proto2 default out of range", "proto2", "message Mut { optional int32 a = 1 [default = 3000000000]; }"},
	{"proto2 default of the wrong type", "proto2", "message Mut { optional int32 a = 1 [default = \"x\"]; }"},
	{"proto2 default not an enum value", "proto2", "enum MutE { MUT_A = 0; } message Mut { optional MutE e = 1 [default = MUT_NOPE]; }"},
	{"proto2 extension range overlaps a field", "proto2", "message Mut { extensions 1 to 10; optional int32 a = 5; }"},
	{"proto2 extension ranges overlap", "proto2", "message Mut { extensions 1 to 10; extensions 5 to 20; }"},
	{"proto2 extension range too large", "proto2", "message Mut { extensions 1 to 536870912; }"},
	{"proto2 extension out of range", "proto2", "message Mut { extensions 100 to 199; } extend Mut { optional int32 e = 5; }"},
	{"proto2 extension of a message without ranges", "proto2", "message Mut {} extend Mut { optional int32 e = 100; }"},
	{"proto2 extension number used twice", "proto2", "message Mut { extensions 100 to 199; } extend Mut { optional int32 e = 100; optional int32 f = 100; }"},
	{"proto2 required extension", "proto2", "message Mut { extensions 100 to 199; } extend Mut { required int32 e = 100; }"},
	{"proto2 message set with a field", "proto2", "message Mut { option message_set_wire_format = true; extensions 4 to max; optional int32 a = 1; }"},
	{"proto2 message set extension not a message", "proto2", "message Mut { option message_set_wire_format = true; extensions 4 to max; } extend Mut { optional int32 e = 4; }"},
	{"proto2 map with label", "proto2", "message Mut { optional map<int32, int32> m = 1; }"},
	{"proto2 map value enum not starting at 0", "proto2", "enum MutE { MUT_B = 2; MUT_Z = 0; } message Mut { map<int32, MutE> m = 1; }"},
	{"proto2 group name lower case", "proto2", "message Mut { optional group g = 1 {} }"},
	{"proto2 packed group in a oneof", "proto2", "message Mut { oneof o { group G = 1 [packed = true] {} } }"},
	{"proto2 label in a oneof", "proto2", "message Mut { oneof o { optional int32 a = 1; } }"},
	{"proto3 enum values clash without prefix", "proto3", "enum MutE { MUT_E_FOO = 0; FOO = 1; }"},
}

// Issue 10 kind 2b: every mutation of a corpus file that protoc rejects,
// compiler.Compile rejects too, with a diagnostic positioned in the mutated
// file; both accept the files unmutated. protoc 3.21.12 predates editions,
// so the files are proto2 and proto3.
func TestRejectsWhatProtocRejects(t *testing.T) {
	protoc, err := exec.LookPath("protoc")
	if err != nil {
		t.Skip("protoc is not installed: skipping the comparison with protoc")
	}
	shared, ok := gentest.SharedDir()
	if !ok {
		t.Skip("../shared is absent: skipping the comparison with protoc on corpus files")
	}
	root := filepath.Join(shared, "corpus", "protobuf-3.21.12")
	runProtoc := func(name, src string) (bool, string) {
		overlay := t.TempDir()
		p := filepath.Join(overlay, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(protoc, "-I", overlay, "-I", root, "-o", os.DevNull, name).CombinedOutput()
		return err == nil, strings.TrimSpace(string(out))
	}
	compile := func(name, src string) *compiler.Result {
		return compiler.Compile(context.Background(), compiler.Request{
			Sources: map[string]string{name: src}, FS: os.DirFS(root), Files: []string{name}, NoGenerate: true})
	}
	checked := 0
	defer func() { t.Logf("%d mutations of %d corpus files checked", checked, len(protocCorpus)) }()
	for _, name := range protocCorpus {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		syntax := "proto2"
		if strings.Contains(src, "syntax = \"proto3\"") {
			syntax = "proto3"
		}
		if ok, out := runProtoc(name, src); !ok {
			t.Fatalf("protoc rejects %s unmutated: %s", name, out)
		}
		if err := compile(name, src).Err(); err != nil {
			t.Fatalf("compiler.Compile rejects %s unmutated: %v", name, err)
		}
		label := ""
		if syntax == "proto2" {
			label = "optional "
		}
		for _, m := range protocMutations {
			if m.syntax != "" && m.syntax != syntax {
				continue
			}
			checked++
			mutated := src + "\n" + strings.ReplaceAll(m.snippet, "%L", label) + "\n"
			if ok, _ := runProtoc(name, mutated); ok {
				t.Errorf("%s, %s: protoc accepts the mutation (fix the mutation)", name, m.name)
				continue
			}
			res := compile(name, mutated)
			positioned := false
			for _, d := range res.Diagnostics {
				positioned = positioned || d.Severity == compiler.SeverityError && d.File == name && d.Line > 0
			}
			switch {
			case !res.HasErrors():
				_, out := runProtoc(name, mutated)
				t.Errorf("%s, %s: protoc rejects it, compiler.Compile accepts it; protoc says: %s", name, m.name, out)
			case !positioned:
				t.Errorf("%s, %s: rejected without a position in the file: %v", name, m.name, res.Diagnostics)
			}
		}
	}
}
