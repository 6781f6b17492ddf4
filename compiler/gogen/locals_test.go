package gogen_test

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
	"github.com/protoplay/protoplay/internal/gentest"
)

// The predeclared list is Go's universe block.
func TestPredeclaredIsUniverse(t *testing.T) {
	want := slices.Sorted(slices.Values(types.Universe.Names()))
	want = slices.DeleteFunc(want, func(s string) bool { return s == "unsafe" }) // a package, not in the universe scope of a file
	got := slices.Sorted(slices.Values(gogen.Predeclared))
	if !slices.Equal(got, want) {
		t.Errorf("predeclared = %q\nuniverse    = %q", got, want)
	}
}

// importNameSchema returns proto files whose Go packages are named like
// everything an import must not be called in generated code: each local of
// the generated methods, each standard import, predeclared identifiers, the
// importing file's own types and oneof interface. importer.proto (proto2) and
// importer_ed.proto (editions, DELIMITED) refer to all of them from every
// kind of field: singular, repeated, map key/value, oneof, enum default.
func importNameSchema() (map[string]string, []string) {
	names := append([]string(nil), gogen.PrinterLocals...)
	for _, n := range gogen.StdImportPaths() {
		names = append(names, n)
	}
	names = append(names, "string", "int32", "len", "append", "nil", "any", "true", "error", "byte", "min",
		"Uses", "isUses_Pick", "UsesEd", "timestamppb")
	slices.Sort(names)
	srcs := map[string]string{}
	files := []string{"importer.proto", "importer_ed.proto"}
	var imports, fields, fieldsEd strings.Builder
	num := 1
	for i, n := range names {
		file := fmt.Sprintf("dep%02d.proto", i)
		files = append(files, file)
		srcs[file] = fmt.Sprintf(`syntax = "proto2";
package dep%02d;
option go_package = "example.com/deps/p%02d;%s";
message Sub { optional int32 z = 1; }
enum Kind { KIND_ZERO = 0; KIND_ONE = 1; }
`, i, i, n)
		fmt.Fprintf(&imports, "import %q;\n", file)
		p := fmt.Sprintf("dep%02d", i)
		for _, f := range []string{
			"optional %[1]s.Sub one_%[2]d = %[3]d;",
			"repeated %[1]s.Sub many_%[2]d = %[4]d;",
			"map<int32, %[1]s.Sub> by_id_%[2]d = %[5]d;",
			"map<string, %[1]s.Kind> kinds_%[2]d = %[6]d;",
			"optional %[1]s.Kind kind_%[2]d = %[7]d [default = KIND_ONE];",
			"repeated %[1]s.Kind kinds_list_%[2]d = %[8]d;",
		} {
			fmt.Fprintf(&fields, "  "+f+"\n", p, i, num, num+1, num+2, num+3, num+4, num+5)
		}
		fmt.Fprintf(&fields, "  oneof pick_%[2]d { %[1]s.Sub sub_%[2]d = %[3]d; %[1]s.Kind kind_of_%[2]d = %[4]d; }\n", p, i, num+6, num+7)
		fmt.Fprintf(&fieldsEd, "  %[1]s.Sub delimited_%[2]d = %[3]d [features.message_encoding = DELIMITED];\n  repeated %[1]s.Sub delimited_list_%[2]d = %[4]d [features.message_encoding = DELIMITED];\n  %[1]s.Kind kind_%[2]d = %[5]d;\n", p, i, num, num+1, num+2)
		num += 8
	}
	srcs["importer.proto"] = "syntax = \"proto2\";\npackage importer;\noption go_package = \"example.com/importer;importer\";\n" +
		imports.String() + "message Uses {\n" + fields.String() + "  oneof pick { int32 none = 100000; }\n}\n"
	srcs["importer_ed.proto"] = "edition = \"2023\";\npackage importer_ed;\noption go_package = \"example.com/importer_ed;importer_ed\";\n" +
		imports.String() + "message UsesEd {\n" + fieldsEd.String() + "}\n"
	return srcs, files
}

// Issue 10 kind 3 (case 38, generalized): the generated code of files that
// import packages named like locals, standard imports, predeclared
// identifiers and the file's own declarations builds, vets, and round-trips
// a message using every one of them, with both option sets.
func TestImportNamesBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	srcs, files := importNameSchema()
	for _, param := range []string{"", "unknown_fields=drop,enum_maps=true"} {
		opts, err := gogen.ParseOptions(param)
		if err != nil {
			t.Fatal(err)
		}
		_, gen := gentest.Generate(t, compiler.Request{Sources: srcs, Files: files, Options: opts})
		var test strings.Builder
		test.WriteString("package importer\n\nimport (\n\t\"testing\"\n")
		var set strings.Builder
		for i := 0; i < len(files)-2; i++ {
			fmt.Fprintf(&test, "\tp%02d \"gentest/example.com/deps/p%02d\"\n", i, i)
			fmt.Fprintf(&set, "\t{\n\tz, k := int32(%[1]d), p%02[1]d.Kind_KIND_ONE\n\tm.One_%[1]d = &p%02[1]d.Sub{Z: &z}\n\tm.Many_%[1]d = []*p%02[1]d.Sub{{Z: &z}, {}}\n"+
				"\tm.ById_%[1]d = map[int32]*p%02[1]d.Sub{%[1]d: {Z: &z}}\n\tm.Kinds_%[1]d = map[string]p%02[1]d.Kind{\"k\": k}\n\tm.Kind_%[1]d = &k\n"+
				"\tm.KindsList_%[1]d = []p%02[1]d.Kind{k, 0}\n\tm.Pick_%[1]d = &Uses_Sub_%[1]d{Sub_%[1]d: &p%02[1]d.Sub{Z: &z}}\n\t}\n", i)
		}
		test.WriteString(")\n\nfunc TestAllImports(t *testing.T) {\n\tm := &Uses{}\n" + set.String() +
			"\tb, err := m.Marshal()\n\tif err != nil {\n\t\tt.Fatal(err)\n\t}\n\tvar got Uses\n\tif err := got.Unmarshal(b); err != nil {\n\t\tt.Fatal(err)\n\t}\n" +
			"\tif !got.Equal(m) || !m.Clone().Equal(m) || got.Size() != len(b) {\n\t\tt.Error(\"round trip\")\n\t}\n}\n")
		dir := gentest.WriteModule(t, gen, map[string]string{"example.com/importer/all_test.go": test.String()}, false)
		if out, err := gentest.Go(t, dir, "vet", "./..."); err != nil {
			t.Fatalf("go vet with options %q: %v\n%s", param, err, out)
		}
		if param != "" {
			continue // the round trip once is enough
		}
		if out, err := gentest.Go(t, dir, "test", "-count=1", "./example.com/importer"); err != nil {
			t.Fatalf("go test with options %q: %v\n%s", param, err, out)
		}
	}
}

// TestPrinterLocalsListed parses the code generated for the goldens, the
// cases and importNameSchema, with the default options and the options that
// remove code, and fails when a generated function declares an identifier
// (receiver, parameter, result, variable) missing from the printer's
// locals list, or when the code imports a package that is neither a proto
// package nor in the printer's list of standard imports. Import names are
// then checked against both lists and the predeclared identifiers.
func TestPrinterLocalsListed(t *testing.T) {
	var reqs []compiler.Request
	golden := filepath.Join(gentest.RepoRoot(), "testdata", "golden")
	protos, _ := filepath.Glob(filepath.Join(golden, "*.proto"))
	for _, p := range protos {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		reqs = append(reqs, compiler.Request{Sources: map[string]string{filepath.Base(p): string(b)}})
	}
	var caseFiles []string
	caseSrcs := caseSources(t)
	for name := range caseSrcs {
		if !gentest.RejectedCase(name) {
			caseFiles = append(caseFiles, name)
		}
	}
	reqs = append(reqs, compiler.Request{Sources: caseSrcs, Files: caseFiles})
	srcs, files := importNameSchema()
	reqs = append(reqs, compiler.Request{Sources: srcs, Files: files})

	locals := map[string]bool{"_": true}
	for _, l := range gogen.PrinterLocals {
		locals[l] = true
	}
	forbidden := map[string]bool{"init": true}
	for _, n := range gogen.Predeclared {
		forbidden[n] = true
	}
	std := gogen.StdImportPaths()
	undeclared := map[string]string{}
	nfiles := 0
	for _, param := range []string{"", "unknown_fields=drop,enum_maps=true"} {
		opts, err := gogen.ParseOptions(param)
		if err != nil {
			t.Fatal(err)
		}
		for _, req := range reqs {
			req.Options = opts
			res := compiler.Compile(context.Background(), req)
			if err := res.Err(); err != nil {
				t.Fatal(err)
			}
			for _, f := range res.Generated {
				nfiles++
				fset := token.NewFileSet()
				file, err := parser.ParseFile(fset, f.Name, f.Content, parser.SkipObjectResolution)
				if err != nil {
					t.Fatalf("%s: %v", f.Name, err)
				}
				for _, id := range functionLocals(file) {
					if !locals[id.Name] {
						undeclared[id.Name] = fset.Position(id.Pos()).String()
					}
				}
				for _, imp := range file.Imports {
					path, _ := strconv.Unquote(imp.Path.Value)
					name, isStd := std[path]
					if !isStd && !strings.Contains(strings.Split(path, "/")[0], ".") {
						t.Errorf("%s imports %q, which is not in stdImports", f.Name, path)
					}
					if imp.Name != nil {
						name = imp.Name.Name
					} else if !isStd {
						continue // the declared name of a proto package: checked by the build tests
					}
					if locals[name] || forbidden[name] || token.IsKeyword(name) {
						t.Errorf("%s imports %q as %s", f.Name, path, name)
					}
				}
			}
		}
	}
	for name, pos := range undeclared {
		t.Errorf("generated code declares local %q (%s), which is not in printerLocals", name, pos)
	}
	t.Logf("%d generated files checked", nfiles)
}

// functionLocals returns the identifiers declared inside the file's
// functions: receivers, parameters, results, := and var declarations,
// range and type switch variables, and labels.
func functionLocals(file *ast.File) []*ast.Ident {
	var out []*ast.Ident
	fields := func(fl *ast.FieldList) {
		if fl == nil {
			return
		}
		for _, f := range fl.List {
			out = append(out, f.Names...)
		}
	}
	for _, decl := range file.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok {
			continue
		}
		fields(fd.Recv)
		fields(fd.Type.Params)
		fields(fd.Type.Results)
		if fd.Body == nil {
			continue
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if n.Tok == token.DEFINE {
					for _, e := range n.Lhs {
						if id, ok := e.(*ast.Ident); ok {
							out = append(out, id)
						}
					}
				}
			case *ast.ValueSpec:
				out = append(out, n.Names...)
			case *ast.RangeStmt:
				if n.Tok == token.DEFINE {
					for _, e := range []ast.Expr{n.Key, n.Value} {
						if id, ok := e.(*ast.Ident); ok {
							out = append(out, id)
						}
					}
				}
			case *ast.FuncLit:
				fields(n.Type.Params)
				fields(n.Type.Results)
			case *ast.LabeledStmt:
				out = append(out, n.Label)
			case *ast.TypeSpec:
				out = append(out, n.Name)
			}
			return true
		})
	}
	return out
}
