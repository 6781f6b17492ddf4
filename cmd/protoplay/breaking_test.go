package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/protoplay/protoplay/compiler"
)

const breakingBase = `syntax = "proto3";

package shop.v1;

message Item {
  int32 count = 1;
  string name = 2;
  string note = 3;
}

message Gone {
  string a = 1;
}
`

const breakingCurrent = `syntax = "proto3";

package shop.v1;

message Item {
  string count = 1;
  string title = 2;
  reserved 3;
}
`

// breakingDirs writes a baseline and a current version of a schema and
// returns the two directories.
func breakingDirs(t *testing.T) (base, cur string) {
	t.Helper()
	dir := t.TempDir()
	base, cur = filepath.Join(dir, "base"), filepath.Join(dir, "current")
	for d, text := range map[string]string{base: breakingBase, cur: breakingCurrent} {
		if err := os.MkdirAll(filepath.Join(d, "shop"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "shop", "item.proto"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return base, cur
}

func runBreakingCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"breaking"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestBreakingFileCategory(t *testing.T) {
	base, cur := breakingDirs(t)
	code, out, errs := runBreakingCLI(t, "--against", base, "-I", cur)
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr: %s", code, errs)
	}
	want := `shop/item.proto: MESSAGE_NO_DELETE: Previously present message "Gone" was deleted from file.
shop/item.proto:5:1: FIELD_NO_DELETE: Previously present field "3" with name "note" on message "Item" was deleted.
shop/item.proto:6:3: FIELD_SAME_TYPE: Field "1" with name "count" on message "Item" changed type from "int32" to "string".
shop/item.proto:7:3: FIELD_SAME_JSON_NAME: Field "2" with name "title" on message "Item" changed option "json_name" from "name" to "title".
shop/item.proto:7:10: FIELD_SAME_NAME: Field "2" on message "Item" changed name from "name" to "title".
`
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// TestBreakingCategories: each category picks its rules; WIRE accepts a
// rename and a deleted field whose number is reserved.
func TestBreakingCategories(t *testing.T) {
	base, cur := breakingDirs(t)
	for _, c := range []struct {
		category string
		want     []string
		not      []string
	}{
		{"FILE", []string{"MESSAGE_NO_DELETE", "FIELD_SAME_TYPE", "FIELD_SAME_NAME"}, nil},
		{"PACKAGE", []string{"PACKAGE_MESSAGE_NO_DELETE", "FIELD_SAME_TYPE", "FIELD_NO_DELETE"}, []string{": MESSAGE_NO_DELETE"}},
		{"WIRE_JSON", []string{"FIELD_WIRE_JSON_COMPATIBLE_TYPE", "FIELD_SAME_NAME", "FIELD_NO_DELETE_UNLESS_NAME_RESERVED"}, []string{"FIELD_SAME_TYPE", "FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED"}},
		{"WIRE", []string{"shop/item.proto:6:3: FIELD_WIRE_COMPATIBLE_TYPE"}, []string{"FIELD_SAME_NAME", "NO_DELETE"}},
	} {
		code, out, errs := runBreakingCLI(t, "--against", base, "-I", cur, "--category", c.category)
		if code != 1 {
			t.Errorf("%s: exit %d, want 1; stderr: %s", c.category, code, errs)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: no %s in\n%s", c.category, w, out)
			}
		}
		for _, n := range c.not {
			if strings.Contains(out, n) {
				t.Errorf("%s: %s in\n%s", c.category, n, out)
			}
		}
	}
}

func TestBreakingRuleAndClean(t *testing.T) {
	base, cur := breakingDirs(t)
	// One rule only, a named file.
	code, out, _ := runBreakingCLI(t, "--against", base, "-I", cur, "--rule", "FIELD_SAME_NAME", filepath.Join(cur, "shop", "item.proto"))
	if code != 1 || strings.Count(out, "\n") != 1 || !strings.HasPrefix(out, "shop/item.proto:7:10: FIELD_SAME_NAME: ") {
		t.Errorf("--rule FIELD_SAME_NAME: exit %d, output\n%s", code, out)
	}
	// A baseline compared with itself has no breaking change.
	code, out, errs := runBreakingCLI(t, "--against", base, "-I", base, "--category", "FILE,PACKAGE,WIRE_JSON,WIRE")
	if code != 0 || out != "" {
		t.Errorf("same schema: exit %d, output %q, stderr %q", code, out, errs)
	}
}

func TestBreakingUsage(t *testing.T) {
	base, cur := breakingDirs(t)
	for _, args := range [][]string{
		{"-I", cur},
		{"--against", base, "-I", cur, "--category", "NOPE"},
		{"--against", base, "-I", cur, "--rule", "FIELD_NOPE"},
	} {
		if code, _, errs := runBreakingCLI(t, args...); code != 2 || errs == "" {
			t.Errorf("%q: exit %d, stderr %q; want 2 and a message", args, code, errs)
		}
	}
	// A baseline that does not compile is exit 1 with its diagnostics.
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "x.proto"), []byte("syntax = \"proto3\";\nmessage {"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runBreakingCLI(t, "--against", bad, "-I", cur)
	if code != 1 || !strings.Contains(errs, "x.proto:2:") {
		t.Errorf("bad baseline: exit %d, stderr %q", code, errs)
	}
	code, out, _ := runBreakingCLI(t, "--list-rules")
	if code != 0 || !strings.Contains(out, "FIELD_WIRE_COMPATIBLE_TYPE") || strings.Count(out, "\n") != 64 {
		t.Errorf("--list-rules: exit %d, %d lines", code, strings.Count(out, "\n"))
	}
}

// TestBreakingAgainstDescriptorSet: the baseline may be a descriptor set.
func TestBreakingAgainstDescriptorSet(t *testing.T) {
	base, cur := breakingDirs(t)
	set := filepath.Join(t.TempDir(), "base.binpb")
	var out, errb bytes.Buffer
	writeSet(t, base, "shop/item.proto", set)
	code := run([]string{"breaking", "--against", set, "-I", cur, "--rule", "FIELD_SAME_TYPE"}, strings.NewReader(""), &out, &errb)
	if code != 1 || !strings.Contains(out.String(), `FIELD_SAME_TYPE: Field "1" with name "count"`) {
		t.Errorf("exit %d, out %q, stderr %q", code, out.String(), errb.String())
	}
}

// writeSet compiles name under root and writes it as a FileDescriptorSet
// with source info, as protoc --include_source_info writes one.
func writeSet(t *testing.T, root, name, out string) {
	t.Helper()
	res := compiler.Compile(context.Background(), compiler.Request{FS: os.DirFS(root), Files: []string{name}, NoGenerate: true})
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	set := &descriptorpb.FileDescriptorSet{}
	for _, f := range res.Files {
		set.File = append(set.File, protodesc.ToFileDescriptorProto(f))
	}
	b, err := proto.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
