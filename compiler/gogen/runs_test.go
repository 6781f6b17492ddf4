package gogen_test

import (
	"context"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
	"github.com/protoplay/protoplay/internal/gentest"
)

// Issue 24 kind 5: the name of a file's resolver is a one-to-one function
// of its path, and a Go identifier. Every path of up to five runes over an
// alphabet of letters, a digit, the separators protoc-gen-go's
// sanitizing folds together and a non-ASCII letter, bare and with
// ".proto", gets a distinct valid name.
func TestResolverNameOneToOne(t *testing.T) {
	alphabet := []string{"a", "B", "1", "/", ".", "_", "-", "é"}
	seen := map[string]string{}
	check := func(path string) {
		name := gogen.ProtoJSONResolverName(path)
		if !token.IsIdentifier(name) || !token.IsExported(name) {
			t.Fatalf("%q: %q is not an exported Go identifier", path, name)
		}
		if prev, ok := seen[name]; ok {
			t.Fatalf("%q and %q both give %s", prev, path, name)
		}
		seen[name] = path
	}
	var walk func(prefix string, n int)
	walk = func(prefix string, n int) {
		check(prefix)
		check(prefix + ".proto")
		if n == 0 {
			return
		}
		for _, r := range alphabet {
			walk(prefix+r, n-1)
		}
	}
	walk("", 5)
	for path, want := range map[string]string{
		"google/protobuf/any.proto":        "NewMessage_google_protobuf_any_proto",
		"google/protobuf/field_mask.proto": "NewMessage_google_protobuf_field__mask_proto",
		"a/b_c.proto":                      "NewMessage_a_b__c_proto",
		"a_b/c.proto":                      "NewMessage_a__b_c_proto",
		"a.b.proto":                        "NewMessage_a_b_proto___dd",
		"x-y.proto":                        "NewMessage_x_y_proto___hd",
		"é.proto":                          "NewMessage___proto___x0000e9d",
	} {
		if got := gogen.ProtoJSONResolverName(path); got != want {
			t.Errorf("%s: got %s, want %s", path, got, want)
		}
	}
}

// runSets are schemas whose files share Go packages: case 48
// (a/b_c.proto and a_b/c.proto, which protoc-gen-go's path sanitizing
// folds into one name) and other paths that differ only in ".", "_", "-",
// "/" or a non-ASCII letter, a derived name (oneof wrapper) and an import
// name that must avoid a declaration of an imported file of the same Go
// package. In each, use.proto's resolver must reach every type.
func runSets(t *testing.T) map[string]map[string]string {
	t.Helper()
	case48 := map[string]string{}
	dir := filepath.Join(casesDir, "48_resolver_name_separate_runs")
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		case48[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	file := func(pkg, goPkg, body string, imports ...string) string {
		s := "syntax = \"proto3\";\npackage " + pkg + ";\noption go_package = \"example.com/" + goPkg + "\";\n"
		for _, imp := range imports {
			s += "import \"" + imp + "\";\n"
		}
		return s + body
	}
	paths := map[string]string{}
	var fields []string
	for i, p := range []string{"d/a.b.proto", "d/a_b.proto", "d/a__b.proto", "d/a-b.proto", "d/a/b.proto",
		"d/a.b/c.proto", "d/a_b/c_.proto", "d/a/b_c-.proto", "d/aé.proto", "d/a_.proto", "d/a.é.proto", "d/a.proto.proto"} {
		m := fmt.Sprintf("M%d", i)
		paths[p] = file("runs.d", "runs/d;d", "message "+m+" { int32 a = 1; }\n")
		fields = append(fields, fmt.Sprintf("runs.d.%s f%d = %d;", m, i, i+1))
	}
	sort.Strings(fields)
	var imports []string
	for p := range paths {
		imports = append(imports, p)
	}
	sort.Strings(imports)
	paths["use.proto"] = file("runs.use", "runs/use;use", "message Use { "+strings.Join(fields, " ")+" }\n", imports...)

	derived := map[string]string{
		// M.x's wrapper meets base.proto's M_X, which user.proto imports:
		// M_X_ in every run.
		"o/base.proto": file("runs.o", "runs/o;o", "message M_X { int32 a = 1; }\nmessage Dep { int32 a = 1; }\n"),
		// A package named Dep, imported beside base.proto's message Dep:
		// Dep1 in every run.
		"o/dep/dep.proto": file("runs.dep", "runs/dep;Dep", "message D { int32 a = 1; }\n"),
		"o/user.proto": file("runs.o", "runs/o;o", "message M { oneof o { int32 x = 1; } M_X y = 2; runs.dep.D d = 3; }\n",
			"o/base.proto", "o/dep/dep.proto"),
		"use.proto": file("runs.use", "runs/use;use", "message Use { runs.o.M m = 1; runs.o.Dep d = 2; }\n", "o/user.proto", "o/base.proto"),
	}
	return map[string]map[string]string{"case48": case48, "paths": paths, "derived": derived}
}

// Issue 24 kind 5: a generated file is the same bytes whichever files share
// its gen run (all at once, one run per file as buf runs a plugin per
// directory, or any split), and the packages build and resolve each file's
// types through the right function whichever way they were generated.
func TestNamesIndependentOfRun(t *testing.T) {
	sets := runSets(t)
	var union []gogen.File
	for _, setName := range []string{"case48", "derived", "paths"} {
		srcs := sets[setName]
		var all []string
		for p := range srcs {
			all = append(all, p)
		}
		sort.Strings(all)
		runs := [][][]string{{all}}
		var singles [][]string
		for _, p := range all {
			singles = append(singles, []string{p})
		}
		runs = append(runs, singles)
		for k := 1; k < len(all); k++ {
			runs = append(runs, [][]string{all[:k], all[k:]})
		}
		first := map[string]string{}
		for i, split := range runs {
			got := map[string]string{}
			for _, files := range split {
				sub := map[string]string{}
				for p, s := range srcs {
					sub[p] = s
				}
				_, gen := gentest.Generate(t, compiler.Request{Sources: sub, Files: files})
				for _, f := range gen {
					got[f.Name] = f.Content
				}
			}
			if i == 0 {
				first = got
				for name, content := range got {
					union = append(union, gogen.File{Name: "gentest/" + setName + "/" + name, Content: content})
				}
				continue
			}
			for name, want := range first {
				if got[name] != want {
					t.Errorf("%s: %s differs between one run of %q and runs %q", setName, name, all, split)
				}
			}
		}
	}
	// One module for every set, each under its own prefix (the generated
	// imports say gentest/example.com/..., so rewrite them to the set's).
	for i, f := range union {
		set := strings.Split(f.Name, "/")[1]
		union[i].Name = strings.TrimPrefix(f.Name, "gentest/")
		union[i].Content = strings.ReplaceAll(f.Content, `"gentest/example.com/`, `"gentest/`+set+`/example.com/`)
	}
	main := `package main

import (
	"fmt"
	"os"

	case48 "gentest/case48/example.com/bughunt/b48x"
	"gentest/derived/example.com/runs/o"
	derived "gentest/derived/example.com/runs/use"
	paths "gentest/paths/example.com/runs/use"
	"github.com/protoplay/protoplay/runtime/protojson"
)

func main() {
	bad := false
	want := func(r func(string) protojson.Message, name string) {
		if r(name) == nil {
			fmt.Println("resolver does not know", name)
			bad = true
		}
	}
	want(case48.NewMessage_x_proto, "bughunt.b48.Two")
	var x case48.X
	if err := x.UnmarshalProtoJSON([]byte(` + "`" + `{"any":{"@type":"type.googleapis.com/bughunt.b48.Two","a":1}}` + "`" + `),
		protojson.UnmarshalOptions{Resolver: protojson.ResolverFunc(case48.NewMessage_x_proto)}); err != nil {
		fmt.Println(err)
		bad = true
	}
	for i := 0; i < 12; i++ {
		want(paths.NewMessage_use_proto, fmt.Sprintf("runs.d.M%d", i))
	}
	for _, n := range []string{"runs.o.M", "runs.o.M_X", "runs.o.Dep", "runs.dep.D"} {
		want(derived.NewMessage_use_proto, n)
	}
	_ = o.M{O: &o.M_X_{X: 1}, Y: &o.M_X{}}
	if bad {
		os.Exit(1)
	}
	fmt.Println("ok")
}
`
	dir := gentest.WriteModule(t, union, map[string]string{"cmd/runs/main.go": main}, false)
	if out, err := gentest.Go(t, dir, "vet", "./..."); err != nil {
		t.Fatalf("go vet: %v\n%s", err, out)
	}
	if out, err := gentest.Go(t, dir, "run", "./cmd/runs"); err != nil || strings.TrimSpace(out) != "ok" {
		t.Fatalf("go run: %v\n%s", err, out)
	}
}

// A derived name that meets a declaration of a file it does not import
// cannot yield to it in every run (a run without that file cannot see
// it), so a run with both reports it, naming both; each file alone
// generates.
func TestDerivedNameMeetsUnimportedFile(t *testing.T) {
	srcs := map[string]string{
		"a.proto": "syntax = \"proto3\";\npackage p;\noption go_package = \"example.com/p\";\nmessage M { oneof o { int32 x = 1; } }\n",
		"b.proto": "syntax = \"proto3\";\npackage p;\noption go_package = \"example.com/p\";\nmessage M_X { int32 a = 1; }\n",
		"c.proto": "syntax = \"proto3\";\npackage p;\noption go_package = \"example.com/p\";\nenum NewMessage { a_proto = 0; }\n",
		"d.proto": "syntax = \"proto3\";\npackage p;\noption go_package = \"example.com/p\";\nmessage Example { int32 a = 1; }\n",
		"e.proto": "syntax = \"proto3\";\npackage p;\noption go_package = \"example.com/p\";\nimport \"q.proto\";\nmessage E { q.Q q = 1; }\n",
		"q.proto": "syntax = \"proto3\";\npackage q;\noption go_package = \"example.com/q;Example\";\nmessage Q { int32 a = 1; }\n",
	}
	res := compiler.Compile(context.Background(), compiler.Request{Sources: srcs, Files: []string{"a.proto", "b.proto", "c.proto", "d.proto", "e.proto"}, NoGenerate: true})
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	_, diags := gogen.Generate(res.Files, gogen.Options{})
	var got []string
	for _, d := range diags {
		got = append(got, fmt.Sprintf("%s:%d:%d: %s", d.File, d.Line, d.Column, d.Message))
	}
	for _, want := range [][]string{
		{"a.proto:4:", "Go identifier M_X for oneof field p.M.x", "message p.M_X (b.proto)", "a file a.proto does not import"},
		{"a.proto:", "Go identifier NewMessage_a_proto for ProtoJSON resolver of a.proto", "enum value p.a_proto (c.proto)"},
		{"e.proto:1:1:", "Go import name Example for package \"example.com/q\"", "message p.Example (d.proto)"},
	} {
		found := false
		for _, g := range got {
			ok := true
			for _, w := range want {
				ok = ok && strings.Contains(g, w)
			}
			found = found || ok
		}
		if !found {
			t.Errorf("no diagnostic with %q in:\n%s", want, strings.Join(got, "\n"))
		}
	}
	if len(got) != 3 {
		t.Errorf("%d diagnostics, want 3:\n%s", len(got), strings.Join(got, "\n"))
	}
	for _, f := range []string{"a.proto", "b.proto", "c.proto", "d.proto", "e.proto"} {
		res := compiler.Compile(context.Background(), compiler.Request{Sources: srcs, Files: []string{f}})
		if err := res.Err(); err != nil {
			t.Errorf("%s alone: %v", f, err)
		}
	}
}
