package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/internal/gentest"
)

// edition2024Sources use features.(pb.go).strip_enum_prefix in every
// mode (KEEP, STRIP, GENERATE_BOTH), set on the file, on an enum and on a
// value, so that each level overrides the one around it; with nested
// enums and messages, a oneof, a map, an enum whose values do not all
// start with its prefix, and one whose prefix, stripped, would leave a
// name starting with a digit.
var edition2024Sources = map[string]string{
	"keep.proto": `edition = "2024";
package e24.keep;
import "google/protobuf/go_features.proto";
option go_package = "example.com/e24/keep";
option features.(pb.go).api_level = API_OPEN;
option features.(pb.go).strip_enum_prefix = STRIP_ENUM_PREFIX_KEEP;
enum Color { COLOR_UNSPECIFIED = 0; COLOR_RED = 1; BLUE = 2; }
enum Shade {
  option features.(pb.go).strip_enum_prefix = STRIP_ENUM_PREFIX_STRIP;
  SHADE_UNSPECIFIED = 0;
  SHADE_DARK = 1 [features.(pb.go).strip_enum_prefix = STRIP_ENUM_PREFIX_KEEP];
  SHADE_LIGHT = 2 [features.(pb.go).strip_enum_prefix = STRIP_ENUM_PREFIX_GENERATE_BOTH];
}
message Paint {
  enum Finish { FINISH_UNSPECIFIED = 0; FINISH_MATTE = 1; }
  Color color = 1;
  Shade shade = 2;
  Finish finish = 3;
  oneof tint { string name = 4; int32 code = 5; }
  map<string, Color> palette = 6;
  message Layer { Finish finish = 1; repeated Paint paints = 2; }
  Layer layer = 7;
}
`,
	"strip.proto": `edition = "2024";
package e24.strip;
import "google/protobuf/go_features.proto";
option go_package = "example.com/e24/strip";
option features.(pb.go).api_level = API_OPEN;
option features.(pb.go).strip_enum_prefix = STRIP_ENUM_PREFIX_STRIP;
enum Size { SIZE_UNSPECIFIED = 0; SIZE_BIG = 1; SIZE_SMALL = 2; }
enum Level {
  option features.(pb.go).strip_enum_prefix = STRIP_ENUM_PREFIX_KEEP;
  LEVEL_UNSPECIFIED = 0;
  LEVEL_HIGH = 1 [features.(pb.go).strip_enum_prefix = STRIP_ENUM_PREFIX_STRIP];
  LEVEL_LOW = 2 [features.(pb.go).strip_enum_prefix = STRIP_ENUM_PREFIX_GENERATE_BOTH];
}
enum Version {
  option features.enforce_naming_style = STYLE_LEGACY;
  VERSION_UNSPECIFIED = 0;
  VERSION_1 = 1;
  VERSION_TWO = 2;
}
message Box {
  enum Kind { KIND_UNSPECIFIED = 0; KIND_CRATE = 1; OTHER = 2; }
  Size size = 1;
  Level level = 2;
  Kind kind = 3;
  Version version = 4;
}
`,
	"both.proto": `edition = "2024";
package e24.both;
import "google/protobuf/go_features.proto";
option go_package = "example.com/e24/both";
option features.(pb.go).api_level = API_OPEN;
option features.(pb.go).strip_enum_prefix = STRIP_ENUM_PREFIX_GENERATE_BOTH;
enum Mode { MODE_UNSPECIFIED = 0; MODE_FAST = 1; MODE_SAFE = 2; }
enum State {
  option features.(pb.go).strip_enum_prefix = STRIP_ENUM_PREFIX_STRIP;
  STATE_UNSPECIFIED = 0;
  STATE_ON = 1 [features.(pb.go).strip_enum_prefix = STRIP_ENUM_PREFIX_GENERATE_BOTH];
  STATE_OFF = 2 [features.(pb.go).strip_enum_prefix = STRIP_ENUM_PREFIX_KEEP];
}
enum Phase {
  option features.(pb.go).strip_enum_prefix = STRIP_ENUM_PREFIX_KEEP;
  PHASE_UNSPECIFIED = 0;
  PHASE_START = 1;
}
message Job {
  enum Step { STEP_UNSPECIFIED = 0; STEP_ONE = 1; }
  Mode mode = 1;
  State state = 2;
  Phase phase = 3;
  Step step = 4;
  repeated Step steps = 5;
}
`,
}

// protoreflectOnly are the exported names of protoc-gen-go's output that
// protoplay's generated code leaves out by design: they exist to hand the
// message to google.golang.org/protobuf's reflection, which generated code
// never imports (docs/generated-code.md). Keyed by the name as exportedNames
// spells it, "*" standing for any type.
var protoreflectOnly = map[string]string{
	"*.ProtoReflect":   "protoreflect.Message / protoreflect.Enum: the reflection API",
	"*.Descriptor":     "the descriptor bytes' legacy accessor (deprecated in protoc-gen-go)",
	"*.EnumDescriptor": "the descriptor bytes' legacy accessor (deprecated in protoc-gen-go)",
	"*.Type":           "protoreflect.EnumType",
	"*.Number":         "protoreflect.EnumNumber",
	"*.ProtoMessage":   "the proto.Message marker of the APIv1 interface",
	"File_*":           "the file's protoreflect.FileDescriptor variable",
}

// renamed are protoc-gen-go's names that protoplay spells differently, by
// design: a field named like one of protoplay's own methods (Size, Equal,
// Clone, ...) takes a "_" suffix, its getter too (docs/generated-code.md,
// "Names"). Box's field size is one.
var renamed = map[string]string{
	"Box.GetSize": "Box.GetSize_",
}

// TestProtocGenGoNamesEdition2024 drives protoc-gen-go (built from the
// google.golang.org/protobuf in go.mod) and this plugin with the same
// CodeGeneratorRequest for edition 2024 files, every strip_enum_prefix
// mode at every level, and finds every exported name of protoc-gen-go's
// output (top-level identifiers and methods, parsed with go/parser) in
// protoplay's, but for the reflection API protoplay's code leaves out
// (protoreflectOnly) and the names it suffixes (renamed). The files set
// api_level = API_OPEN: edition 2024's default is the opaque API, which
// protoplay does not generate yet (its plugin warns and writes the open
// one); the open API is what is compared.
func TestProtocGenGoNamesEdition2024(t *testing.T) {
	if testing.Short() {
		t.Skip("builds protoc-gen-go")
	}
	bin := protocGenGoBinary(t)
	var names []string
	for n := range edition2024Sources {
		names = append(names, n)
	}
	sort.Strings(names)
	const param = "paths=source_relative"
	req := request(t, compiler.Request{Sources: compiler.Sources(edition2024Sources), Files: names}, param)

	theirs := gentest.RunPlugin(t, bin, req)
	// enum_maps=true: protoplay writes protoc-gen-go's Enum_name and
	// Enum_value maps only when asked (docs/options.md).
	ourReq := proto.Clone(req).(*pluginpb.CodeGeneratorRequest)
	ourReq.Parameter = proto.String(param + ",enum_maps=true")
	ours := generate(ourReq)
	if ours.Error != nil {
		t.Fatalf("protoc-gen-protoplay: %s", ours.GetError())
	}
	oursByName := map[string]string{}
	for _, f := range ours.File {
		oursByName[f.GetName()] = f.GetContent()
	}
	if len(theirs.File) != len(names) {
		t.Fatalf("protoc-gen-go wrote %d files, want %d", len(theirs.File), len(names))
	}
	for _, f := range theirs.File {
		content, ok := oursByName[f.GetName()]
		if !ok {
			t.Errorf("protoplay wrote no %s", f.GetName())
			continue
		}
		want := exportedNames(t, f.GetName()+" (protoc-gen-go)", f.GetContent())
		have := exportedNames(t, f.GetName()+" (protoplay)", content)
		var sorted []string
		for n := range want {
			sorted = append(sorted, n)
		}
		sort.Strings(sorted)
		for _, n := range sorted {
			if have[n] || reflectOnly(n) {
				continue
			}
			if r, ok := renamed[n]; ok && have[r] {
				continue
			}
			t.Errorf("%s: protoc-gen-go's %s is not in protoplay's output", f.GetName(), n)
		}
		t.Logf("%s: %d exported names in protoc-gen-go's output, %d in protoplay's", f.GetName(), len(want), len(have))
		// The names the modes give, so that the comparison cannot pass
		// on outputs that both lack them.
		for n, ids := range map[string][]string{
			"keep.pb.go":  {"Color_COLOR_RED", "Color_BLUE", "Shade_UNSPECIFIED", "Shade_SHADE_DARK", "Shade_LIGHT", "Shade_SHADE_LIGHT", "Paint_FINISH_MATTE"},
			"strip.pb.go": {"Size_BIG", "Level_LEVEL_UNSPECIFIED", "Level_HIGH", "Level_LOW", "Level_LEVEL_LOW", "Box_CRATE", "Box_OTHER", "Version_1", "Version_TWO"},
			"both.pb.go":  {"Mode_FAST", "Mode_MODE_FAST", "State_ON", "State_STATE_ON", "State_STATE_OFF", "Phase_PHASE_START", "Job_ONE", "Job_STEP_ONE"},
		} {
			if n != f.GetName() {
				continue
			}
			for _, id := range ids {
				if !want[id] || !have[id] {
					t.Errorf("%s: %s: in protoc-gen-go's output %v, in protoplay's %v", n, id, want[id], have[id])
				}
			}
		}
	}
}

// reflectOnly reports whether n is one of protoreflectOnly's names.
func reflectOnly(n string) bool {
	if _, ok := protoreflectOnly[n]; ok {
		return true
	}
	if i := strings.IndexByte(n, '.'); i >= 0 {
		if _, ok := protoreflectOnly["*"+n[i:]]; ok {
			return true
		}
	}
	return strings.HasPrefix(n, "File_")
}

// exportedNames parses Go source and returns its exported top-level
// identifiers (types, functions, constants, variables) and the exported
// methods of its types, as "Type.Method".
func exportedNames(t *testing.T, what, src string) map[string]bool {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), what, src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	names := map[string]bool{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			if d.Recv == nil || len(d.Recv.List) == 0 {
				names[d.Name.Name] = true
				continue
			}
			typ := d.Recv.List[0].Type
			if s, ok := typ.(*ast.StarExpr); ok {
				typ = s.X
			}
			if id, ok := typ.(*ast.Ident); ok && id.IsExported() {
				names[id.Name+"."+d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						names[s.Name.Name] = true
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							names[n.Name] = true
						}
					}
				}
			}
		}
	}
	return names
}
