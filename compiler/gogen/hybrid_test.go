package gogen_test

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"sort"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
	"github.com/protoplay/protoplay/internal/gentest"
)

// hybridLevelSources mix API levels within a file: a file at API_HYBRID
// with an open, an opaque and a hybrid message (and a message nested in
// the open one); a file of the default level (open) with one hybrid
// message; a hybrid file (by apilevelM) that declares only an enum.
var hybridLevelSources = map[string]string{
	"hybfile.proto": `edition = "2023";
package hybfile;
import "google/protobuf/go_features.proto";
option go_package = "example.com/m/hybfile";
option features.(pb.go).api_level = API_HYBRID;
message Plain { int32 a = 1; }
message Open {
  option features.(pb.go).api_level = API_OPEN;
  int32 a = 1;
  message Inner { string b = 1; }
  Inner inner = 2;
}
message Opq {
  option features.(pb.go).api_level = API_OPAQUE;
  int32 a = 1;
  oneof o { string s = 2; Open open = 3; }
}
`,
	"hybmsg.proto": `edition = "2023";
package hybmsg;
import "google/protobuf/go_features.proto";
option go_package = "example.com/m/hybmsg";
message H { option features.(pb.go).api_level = API_HYBRID; int32 a = 1; }
message O { int32 a = 1; H h = 2; }
`,
	"enumonly.proto": `edition = "2023";
package enumonly;
option go_package = "example.com/m/enumonly";
enum E { E_ZERO = 0; E_ONE = 1; }
`,
}

// TestHybridFileLevel: as protoc-gen-go v1.36.12 (internal_gengo's
// generateFiles), a file is written as x.pb.go (//go:build !protoopaque)
// and x_protoopaque.pb.go (//go:build protoopaque) when the file's own
// API level is API_HYBRID, messages or not, and in x_protoopaque.pb.go
// every message is opaque, the open ones too; a hybrid message in a file
// of another level gets its hybrid form in the file's one x.pb.go, with
// no build tag. The files, their build tags and the form of each message
// in each (open, hybrid: exported fields and SetX; opaque: hidden fields)
// are protoc-gen-go's, and protoplay's code builds with and without the
// tag.
func TestHybridFileLevel(t *testing.T) {
	if testing.Short() {
		t.Skip("builds protoc-gen-go")
	}
	bin := protocGenGoBin(t)
	var files []string
	for f := range hybridLevelSources {
		files = append(files, f)
	}
	sort.Strings(files)
	res := compiler.Compile(context.Background(), compiler.Request{Sources: hybridLevelSources, Files: files, NoGenerate: true})
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	const param = "module=example.com/m,apilevelMenumonly.proto=API_HYBRID"
	opts, err := gogen.ParseOptions(param)
	if err != nil {
		t.Fatal(err)
	}
	ours, diags := gogen.Generate(res.Files, opts)
	for _, d := range diags {
		t.Fatalf("%s:%d:%d: %s", d.File, d.Line, d.Column, d.Message)
	}
	var set descSet
	for _, fd := range res.Files {
		set.add(t, fd)
	}
	theirs, err := runPlugin(bin, &pluginpb.CodeGeneratorRequest{FileToGenerate: files, Parameter: proto.String(param), ProtoFile: set.File})
	if err != nil {
		t.Fatal(err)
	}
	got, want := apiShapes(t, ours), apiShapes(t, theirs)
	if got != want {
		t.Errorf("protoplay's files:\n%s\nprotoc-gen-go's:\n%s", got, want)
	}
	// The hybrid file's two forms build, and so does the rest.
	mod := gentest.WriteModule(t, ours, nil, false)
	for _, tags := range []string{"", "protoopaque"} {
		if out, err := gentest.Go(t, mod, "vet", "-tags="+tags, "./..."); err != nil {
			t.Errorf("go vet -tags=%q: %v\n%s", tags, err, out)
		}
	}
}

// hybridLevelMessages are the Go names of hybridLevelSources' messages.
var hybridLevelMessages = map[string]bool{"Plain": true, "Open": true, "Open_Inner": true, "Opq": true, "H": true, "O": true}

// apiShapes describes generated files, sorted by base name: each file's
// build constraint and, for each message struct, its form:
// "opaque" (a hidden xxx_hidden_ field), "hybrid" (exported fields and
// a SetX method) or "open".
func apiShapes(t *testing.T, files []gogen.File) string {
	t.Helper()
	var lines []string
	for _, f := range files {
		fs := token.NewFileSet()
		af, err := parser.ParseFile(fs, f.Name, f.Content, parser.ParseComments)
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		tag := "(no build tag)"
		for _, cg := range af.Comments {
			if cg.Pos() > af.Package {
				break
			}
			for _, c := range cg.List {
				if strings.HasPrefix(c.Text, "//go:build ") {
					tag = c.Text
				}
			}
		}
		setters := map[string]bool{}
		forms := map[string]string{}
		for _, d := range af.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil && strings.HasPrefix(d.Name.Name, "Set") {
					if star, ok := d.Recv.List[0].Type.(*ast.StarExpr); ok {
						if id, ok := star.X.(*ast.Ident); ok {
							setters[id.Name] = true
						}
					}
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					ts, ok := s.(*ast.TypeSpec)
					if !ok {
						continue
					}
					st, ok := ts.Type.(*ast.StructType)
					if !ok || !hybridLevelMessages[ts.Name.Name] {
						continue
					}
					form := ""
					for _, fl := range st.Fields.List {
						for _, n := range fl.Names {
							switch {
							case strings.HasPrefix(n.Name, "xxx_hidden_"):
								form = "opaque"
							case n.IsExported() && form == "":
								form = "open"
							}
						}
					}
					if form != "" {
						forms[ts.Name.Name] = form
					}
				}
			}
		}
		var types []string
		for name, form := range forms {
			if form == "open" && setters[name] {
				form = "hybrid"
			}
			types = append(types, name+"="+form)
		}
		sort.Strings(types)
		lines = append(lines, fmt.Sprintf("%s %s: %s", path.Base(f.Name), tag, strings.Join(types, " ")))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
