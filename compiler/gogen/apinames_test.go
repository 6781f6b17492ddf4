package gogen_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
	"github.com/protoplay/protoplay/internal/gentest"
)

var protocGenGo struct {
	once sync.Once
	bin  string
	err  error
	out  string
}

// protocGenGoBin builds the protoc-gen-go of protoplay's go.mod (with the
// protolegacy tag, for MessageSets) once per test run.
func protocGenGoBin(t *testing.T) string {
	t.Helper()
	protocGenGo.once.Do(func() {
		protocGenGo.bin = filepath.Join(sharedTempDir(t), "protoc-gen-go")
		protocGenGo.out, protocGenGo.err = gentest.Go(t, gentest.RepoRoot(), "build", "-tags=protolegacy", "-o", protocGenGo.bin, "google.golang.org/protobuf/cmd/protoc-gen-go")
	})
	if protocGenGo.err != nil {
		t.Fatalf("building protoc-gen-go: %v\n%s", protocGenGo.err, protocGenGo.out)
	}
	return protocGenGo.bin
}

// TestAPINamesMatchProtocGenGo: for every case file of testdata/cases
// that protoc-gen-go v1.36.12 accepts, generated with default_api_level
// API_OPAQUE and API_HYBRID, each name of the opaque and hybrid APIs that
// protoc-gen-go's code declares once (the accessors Get, Set, Has, Clear
// and Which, the builder types with their fields and Build, the oneof case
// constants), by Go package and build tag, protoplay's code declares too.
// A name protoc-gen-go declares twice, or as both a method and a struct
// field of one type, is its own collision (its code does not build): there
// protoplay's name takes "_" suffixes (cases 38x and 38y).
func TestAPINamesMatchProtocGenGo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds protoc-gen-go")
	}
	bin := protocGenGoBin(t)
	srcs := caseSources(t)
	files := buildableCases(srcs)
	res, _ := gentest.Generate(t, compiler.Request{Sources: srcs, Files: files})
	byPath := map[string]int{}
	for i, fd := range res.Files {
		byPath[fd.Path()] = i
	}
	compared := 0
	for _, level := range []string{"API_OPAQUE", "API_HYBRID"} {
		opts := gentest.Rehome(res.Files, gogen.Options{DefaultAPILevel: level})
		ours, diags := gogen.Generate(res.Files, opts)
		for _, d := range diags {
			t.Fatalf("%s: %s:%d:%d: %s", level, d.File, d.Line, d.Column, d.Message)
		}
		have := apiNames(t, ours)
		var missing []string
		for _, name := range files {
			i, ok := byPath[name]
			if !ok {
				continue
			}
			var set descSet
			set.add(t, res.Files[i])
			param := []string{"default_api_level=" + level, "module=" + gentest.ModulePath}
			for _, f := range set.File {
				if m, ok := opts.ImportMap[f.GetName()]; ok {
					param = append(param, "M"+f.GetName()+"="+m)
				}
			}
			req := &pluginpb.CodeGeneratorRequest{FileToGenerate: []string{name}, Parameter: proto.String(strings.Join(param, ",")), ProtoFile: set.File}
			theirs, err := runPlugin(bin, req)
			if err != nil {
				t.Logf("%s at %s: protoc-gen-go refuses it: %v", name, level, err)
				continue
			}
			want := apiNames(t, theirs)
			for key, n := range want {
				if n.count > 1 || n.clash {
					continue
				}
				compared++
				if have[key] == nil {
					missing = append(missing, fmt.Sprintf("%s: %s", name, key))
				}
			}
		}
		sort.Strings(missing)
		for _, m := range missing {
			t.Errorf("%s: protoc-gen-go declares %s; protoplay does not", level, m)
		}
	}
	if compared == 0 {
		t.Fatal("no names compared")
	}
	t.Logf("%d names of protoc-gen-go's opaque and hybrid code compared", compared)
}

// apiName is how often a name is declared, and whether it is also a
// struct field of the method's type.
type apiName struct {
	count int
	clash bool
}

// apiNames collects the opaque and hybrid API names files declare, keyed
// "dir [tag] name": methods Type.GetX (Get, Set, Has, Clear, Which and
// Build), the _builder types and their fields, and the exported constants
// ending in _case.
func apiNames(t *testing.T, files []gogen.File) map[string]*apiName {
	t.Helper()
	out := map[string]*apiName{}
	fields := map[string]bool{}
	decls := map[string]int{} // package-level names, by "dir [tag] name"
	var methods []string
	for _, f := range files {
		if !strings.HasSuffix(f.Name, ".pb.go") {
			continue
		}
		tag := "[!protoopaque]"
		if strings.HasSuffix(f.Name, "_protoopaque.pb.go") {
			tag = "[protoopaque]"
		} else if !strings.Contains(f.Content, "//go:build !protoopaque") {
			tag = "[any]"
		}
		af, err := parser.ParseFile(token.NewFileSet(), f.Name, f.Content, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		prefix := path.Dir(f.Name) + " " + tag + " "
		add := func(name string) {
			n := out[prefix+name]
			if n == nil {
				n = &apiName{}
				out[prefix+name] = n
			}
			n.count++
		}
		for _, d := range af.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					decls[prefix+d.Name.Name]++
				}
				if d.Recv == nil || !d.Name.IsExported() {
					continue
				}
				recv := d.Recv.List[0].Type
				if s, ok := recv.(*ast.StarExpr); ok {
					recv = s.X
				}
				id, ok := recv.(*ast.Ident)
				if !ok || !id.IsExported() {
					continue
				}
				for _, p := range []string{"Get", "Set", "Has", "Clear", "Which", "Build"} {
					if strings.HasPrefix(d.Name.Name, p) {
						add(id.Name + "." + d.Name.Name)
						methods = append(methods, prefix+id.Name+"."+d.Name.Name)
						break
					}
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.ValueSpec:
						for _, n := range s.Names {
							decls[prefix+n.Name]++
							if d.Tok == token.CONST && n.IsExported() && strings.HasSuffix(n.Name, "_case") {
								add(n.Name)
							}
						}
					case *ast.TypeSpec:
						decls[prefix+s.Name.Name]++
						st, ok := s.Type.(*ast.StructType)
						if !ok {
							continue
						}
						builder := strings.HasSuffix(s.Name.Name, "_builder")
						if builder {
							add(s.Name.Name)
						}
						for _, fl := range st.Fields.List {
							for _, n := range fl.Names {
								fields[prefix+s.Name.Name+"."+n.Name] = true
								if builder && n.IsExported() {
									add(s.Name.Name + "." + n.Name)
								}
							}
						}
					}
				}
			}
		}
	}
	for _, m := range methods {
		if fields[m] {
			out[m].clash = true
		}
	}
	// A package-level name declared twice, and the methods and fields of
	// a type declared twice, are collisions.
	for key, n := range out {
		dir, rest, _ := strings.Cut(key, "] ")
		typ, _, _ := strings.Cut(rest, ".")
		if decls[dir+"] "+typ] > 1 {
			n.clash = true
		}
	}
	return out
}

// runPlugin runs a protoc plugin on req and returns its files, or its
// error.
func runPlugin(bin string, req *pluginpb.CodeGeneratorRequest) ([]gogen.File, error) {
	resp, err := gentest.CallPlugin(bin, req)
	if err != nil {
		return nil, err
	}
	var files []gogen.File
	for _, f := range resp.File {
		files = append(files, gogen.File{Name: f.GetName(), Content: f.GetContent()})
	}
	return files, nil
}
