package compiler_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/protoplay/protoplay/compiler"
)

// Symbols gives, for the editor's hover and go-to-definition, each
// declaration with its name's position and a detail line (field number,
// type, wire type, tag bytes, Go name), and each type name written in the
// sources resolved to its declaration, across files and into imports.
func TestSymbols(t *testing.T) {
	files := map[string]string{
		"a.proto": `syntax = "proto3";
package a;
import "b.proto";
import "google/protobuf/timestamp.proto";
// A person.
message Person {
  string name = 1;
  b.Address home = 2;
  repeated int32 ids = 3;
  google.protobuf.Timestamp at = 20;
  map<string, b.Address> more = 4;
  oneof contact { string email = 5; }
}
service S { rpc Get(Person) returns (b.Address); }
`,
		"b.proto": "syntax = \"proto3\";\npackage b;\nmessage Address { string street = 1; }\n",
	}
	w := &compiler.Workspace{}
	req, _ := json.Marshal(compiler.CompileRequest{Files: files})
	b, cerr := w.Call(context.Background(), "symbols", req)
	if cerr != nil {
		t.Fatal(cerr)
	}
	var res compiler.SymbolsResult
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	sym := map[string]compiler.Declaration{}
	for _, s := range res.Symbols {
		sym[s.Name] = s
	}
	for _, c := range []struct {
		name, kind, file string
		line, col        int
		detail           string
	}{
		{"a.Person", "message", "a.proto", 6, 9, "message a.Person · Go: Person"},
		{"a.Person.name", "field", "a.proto", 7, 10, "field 1 · string · wire type 2 (LEN) · tag 0a · Go: Name"},
		{"a.Person.ids", "field", "a.proto", 9, 18, "field 3 · repeated int32 · wire type 2 (LEN) · tag 1a · Go: Ids"},
		{"a.Person.at", "field", "a.proto", 10, 29, "field 20 · google.protobuf.Timestamp · wire type 2 (LEN) · tag a2 01 · Go: At"},
		{"a.Person.email", "field", "a.proto", 12, 26, "in oneof contact"},
		{"a.S.Get", "method", "a.proto", 14, 17, "rpc Get(a.Person) returns (b.Address)"},
		{"b.Address", "message", "b.proto", 3, 9, "Go: Address"},
		{"google.protobuf.Timestamp", "message", "google/protobuf/timestamp.proto", 0, 0, "Go: Timestamp"},
	} {
		s, ok := sym[c.name]
		if !ok {
			t.Errorf("no symbol %s", c.name)
			continue
		}
		if s.Kind != c.kind || s.File != c.file || s.Line != c.line || s.Column != c.col || !strings.Contains(s.Detail, c.detail) {
			t.Errorf("%s = %+v, want %s in %s at %d:%d with %q", c.name, s, c.kind, c.file, c.line, c.col, c.detail)
		}
	}
	if sym["a.Person"].Doc != "A person." {
		t.Errorf("a.Person doc %q", sym["a.Person"].Doc)
	}
	refs := map[string]string{}
	for _, r := range res.References {
		refs[r.File+":"+itoa(r.Line)+":"+itoa(r.Column)] = r.Target
	}
	for at, want := range map[string]string{
		"a.proto:8:3":   "b.Address",
		"a.proto:10:3":  "google.protobuf.Timestamp",
		"a.proto:11:3":  "b.Address", // a map's value type
		"a.proto:14:21": "a.Person",
		"a.proto:14:38": "b.Address",
	} {
		if refs[at] != want {
			t.Errorf("reference at %s = %q, want %s (all: %v)", at, refs[at], want, refs)
		}
	}
	// A schema with errors is an error of kind schema.
	bad, _ := json.Marshal(compiler.CompileRequest{Files: map[string]string{"x.proto": "syntax = \"proto3\";\nmessage X { Y y = 1; }\n"}})
	if _, cerr := w.Call(context.Background(), "symbols", bad); cerr == nil || cerr.Kind != compiler.KindSchema {
		t.Errorf("symbols of a broken schema: %v", cerr)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
