package gogen

import (
	"context"
	"github.com/protoplay/protoplay/compiler/diag"
	"go/format"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/bufbuild/protocompile"
	"github.com/bufbuild/protocompile/wellknownimports"
	"google.golang.org/protobuf/reflect/protoreflect"
)

func TestGoCamelCase(t *testing.T) {
	for in, want := range map[string]string{
		"foo_bar":          "FooBar",
		"FooBar":           "FooBar",
		"foo__bar":         "Foo_Bar",
		"_foo":             "XFoo",
		"foo.bar":          "FooBar",
		"Foo.Bar":          "Foo_Bar",
		"foo1bar":          "Foo1Bar",
		"QUEUE_DEPTH":      "QUEUE_DEPTH",
		"queueDepth":       "QueueDepth",
		"tally_sheet":      "TallySheet",
		"Outer.Inner_Part": "Outer_Inner_Part",
	} {
		if got := GoCamelCase(in); got != want {
			t.Errorf("GoCamelCase(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestGoPackageName(t *testing.T) {
	for in, want := range map[string]string{
		"type":          "_type",
		"v1":            "v1",
		"1abc":          "_1abc",
		"foo-bar":       "foo_bar",
		"documentation": "_documentation",
	} {
		if got := goPackageName(in); got != want {
			t.Errorf("goPackageName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCommentText(t *testing.T) {
	for in, want := range map[string]string{
		" plain text */ /*":        " plain text */ /*",
		"tab\there":                "tab\there",
		"bom\ufeffmid":             "bom\ufffdmid",
		"nul\x00 esc\x1b del\x7f":  "nul\ufffd esc\ufffd del\ufffd",
		"c1\u0085\u009b":           "c1 \ufffd",
		"cr\rvt\vff\f":             "cr vt ff ",
		"ls\u2028ps\u2029":         "ls ps ",
		"latin1 caf\xe9 \xff\xfe":  "latin1 caf\ufffd \ufffd\ufffd",
		"cut \xe2\x80":             "cut \ufffd\ufffd",
		"go:generate rm -rf /":     " go:generate rm -rf /",
		"go:build ignore":          " go:build ignore",
		"line a.go:1":              " line a.go:1",
		"export F":                 " export F",
		"extern f":                 " extern f",
		"nolint:all":               " nolint:all",
		" go:generate spaced":      " go:generate spaced",
		"Go:Generate":              "Go:Generate",
		"http://example.com":       "http://example.com",
		" +build linux":            " \\+build linux",
		"+build":                   "\\+build",
		"\ufeffgo:generate x":      "\ufffdgo:generate x",
		"\x01+build x":             "\ufffd+build x",
		"\t+build x":               "\t\\+build x",
		"see +build in the middle": "see +build in the middle",
	} {
		if got := commentText(in); got != want {
			t.Errorf("commentText(%q) = %q, want %q", in, got, want)
		}
	}
}

// A gofmt failure is described by its first error and at most three
// source lines, never the whole file.
func TestFormatFailureIsShort(t *testing.T) {
	src := "package p\n\n" + strings.Repeat("var x = 1\n", 400) + "func f() { \x00 }\n" + strings.Repeat("var y = 2\n", 400)
	_, err := format.Source([]byte(src))
	if err == nil {
		t.Fatal("source formatted")
	}
	got := formatFailure(err, []byte(src)).Error()
	if len(got) > 600 || strings.Count(got, "\n") > 3 || !strings.Contains(got, "line 403") || !strings.Contains(got, `\x00`) {
		t.Errorf("formatFailure = %q", got)
	}
}

// namesFor compiles srcs with protocompile and runs the naming pass on the
// files named (every source when none).
func namesFor(t *testing.T, srcs map[string]string, opts Options, files ...string) (*generator, []diag.Diagnostic) {
	t.Helper()
	if len(files) == 0 {
		for name := range srcs {
			files = append(files, name)
		}
		sort.Strings(files)
	}
	c := protocompile.Compiler{
		Resolver:       wellknownimports.WithStandardImports(&protocompile.SourceResolver{Accessor: protocompile.SourceAccessorFromMap(srcs)}),
		SourceInfoMode: protocompile.SourceInfoStandard,
	}
	linked, err := c.Compile(context.Background(), files...)
	if err != nil {
		t.Fatal(err)
	}
	fds := make([]protoreflect.FileDescriptor, len(linked))
	for i, f := range linked {
		fds[i] = f
	}
	return newGenerator(fds, opts)
}

// A real oneof's getter is reserved like a field's: get_o and oneof o
// cannot both be GetO, whichever comes first. A synthetic oneof (proto3
// optional) has no getter and reserves none.
func TestOneofGetterReserved(t *testing.T) {
	g, diags := namesFor(t, map[string]string{"a.proto": `syntax = "proto3";
package a;
message Probe { int32 get_o = 1; oneof o { int32 a = 2; } }
message Switch { oneof o { int32 a = 1; } string get_o = 2; }
message Opt { optional int32 o = 1; int32 get_x_o = 2; }
message Plain { oneof o { int32 a = 1; } int32 get_p = 2; }
`}, Options{})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	for msg, want := range map[string]string{
		"a.Probe":  "GetO O_",    // field first keeps GetO; the oneof takes O_ (getter GetO_)
		"a.Switch": "GetO_ O",    // oneof first keeps O (getter GetO); the field takes GetO_
		"a.Opt":    "O GetXO XO", // synthetic oneof _o is XO, with no getter
		"a.Plain":  "GetP O",     // unrelated names are untouched
	} {
		mn := g.msgs[protoreflect.FullName(msg)]
		var got []string
		for _, fn := range mn.fields {
			if fn.oneof == nil {
				got = append(got, fn.goName)
			}
		}
		for _, o := range mn.oneofs {
			got = append(got, o.goName)
		}
		// Fields outside real oneofs, in order, then the oneofs.
		if strings.Join(got, " ") != want {
			t.Errorf("%s: names %q, want %q", msg, got, want)
		}
	}
}

// Imports are named once per generated file: standard imports keep their
// names, a proto package named like a local, a standard import, a
// predeclared identifier or one of the file's Go package's declarations is
// numbered, and two packages with one name get distinct names.
func TestImportNames(t *testing.T) {
	dep := func(pkg, goPkg string) string {
		return "syntax = \"proto3\";\npackage " + pkg + ";\noption go_package = \"" + goPkg + "\";\nmessage S {}\n"
	}
	srcs := map[string]string{
		"b.proto":      dep("pb", "example.com/b"),
		"wire.proto":   dep("pwire", "example.com/x/wire"),
		"math.proto":   dep("pmath", "example.com/math;math"),
		"str.proto":    dep("pstr", "example.com/str;string"),
		"uses.proto":   dep("puses", "example.com/uses;Main"),
		"main2.proto":  dep("pmain2", "example.com/other/main;Main"),
		"b1.proto":     dep("pb1", "example.com/b1"),
		"plain.proto":  dep("pplain", "example.com/plain"),
		"unused.proto": dep("punused", "example.com/unused;m"),
		"main.proto": `syntax = "proto3";
package main;
option go_package = "example.com/main";
import "b.proto"; import "wire.proto"; import "math.proto"; import "str.proto"; import "uses.proto";
import "main2.proto"; import "b1.proto"; import "plain.proto"; import "unused.proto";
message Main {
  pb.S b = 1; pwire.S w = 2; pmath.S m = 3; pstr.S s = 4; puses.S u = 5; pmain2.S u2 = 6;
  pb1.S b1 = 7; pplain.S p = 8;
}
`,
	}
	g, diags := namesFor(t, srcs, Options{}, "main.proto")
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	var got []string
	for _, imp := range g.importNames(g.byPath["main.proto"]) {
		got = append(got, imp.path+"="+imp.name)
	}
	want := []string{
		"bytes=bytes", "maps=maps", "math=math", "slices=slices", "strconv=strconv", "unicode/utf8=utf8",
		RuntimeImportPath + "=wire", ProtoJSONImportPath + "=protojson", ProtoTextImportPath + "=prototext",
		"example.com/b=b1", "example.com/x/wire=wire1", "example.com/math=math1", "example.com/str=string1",
		"example.com/uses=Main1", "example.com/other/main=Main2", "example.com/b1=b11", "example.com/plain=plain",
	}
	if !slices.Equal(got, want) {
		t.Errorf("import names:\n got %q\nwant %q", got, want)
	}
}

// A derived package-level name (oneof wrapper or interface, Default_
// constant, enum map) yields to the schema's types and enum values, and to
// derived names decided before it; two schema names that collide are a
// diagnostic naming both.
func TestDerivedNamesYield(t *testing.T) {
	srcs := map[string]string{"a.proto": `syntax = "proto2";
package a;
message Holder { oneof pick { int32 foo = 1; } }
message Holder_Foo {}
message Nested { enum K { Bar = 0; } oneof o { int32 bar = 1; } }
message Pref { optional int32 q = 1 [default = 3]; }
message Default_Pref_Q {}
enum Named { name = 0; value = 1; }
message A { oneof b__c { int32 x = 1; } }
message A_B { oneof c { int32 y = 1; } }
`}
	g, diags := namesFor(t, srcs, Options{EnumMaps: true})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	field := func(msg string, i int) *fieldNames { return g.msgs[protoreflect.FullName(msg)].fields[i] }
	for got, want := range map[string]string{
		field("a.Holder", 0).wrapper:      "Holder_Foo_",
		field("a.Nested", 0).wrapper:      "Nested_Bar_",
		field("a.Pref", 0).defaultName:    "Default_Pref_Q_",
		g.enums["a.Named"].nameMap:        "Named_name_",
		g.enums["a.Named"].valueMap:       "Named_value_",
		g.msgs["a.A"].oneofs[0].iface:     "isA_B_C",
		g.msgs["a.A_B"].oneofs[0].iface:   "isA_B_C_",
		g.enums["a.Nested.K"].values[0]:   "Nested_Bar",
		g.msgs["a.Default_Pref_Q"].goName: "Default_Pref_Q",
	} {
		if got != want {
			t.Errorf("got %s, want %s", got, want)
		}
	}
	_, diags = namesFor(t, map[string]string{"b.proto": `syntax = "proto2";
package b;
enum E { X = 0; }
message E_X {}
`}, Options{})
	if len(diags) != 1 || !strings.Contains(diags[0].Message, "E_X") || diags[0].Line != 4 {
		t.Errorf("enum value vs message: %v", diags)
	}
}
