package gogen_test

import (
	"context"
	"strings"
	"testing"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
)

func TestParseOptions(t *testing.T) {
	o, err := gogen.ParseOptions("paths=source_relative,Ma.proto=example.com/a;a,unknown_fields=drop,enum_maps=true,runtime=local")
	if err != nil {
		t.Fatal(err)
	}
	if o.Paths != "source_relative" || o.ImportMap["a.proto"] != "example.com/a;a" || !o.DropUnknown || !o.EnumMaps || o.Runtime != "local" {
		t.Fatalf("%+v", o)
	}
	back, err := gogen.ParseOptions(o.String())
	if err != nil || back.String() != o.String() {
		t.Fatalf("String() does not round-trip: %q -> %+v, %v", o.String(), back, err)
	}
	for _, bad := range []string{"paths=x", "unknown_fields=maybe", "enum_maps=1", "nope=1", "default_import_prefix=", "runtime=vendor", "runtime="} {
		if _, err := gogen.ParseOptions(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	// protoc-gen-go's options that buf.gen.yaml files carry say what to do.
	for opt, want := range map[string]string{"plugins=grpc": "give services=grpc", "annotate_code": "protoplay writes no .meta annotation files"} {
		if _, err := gogen.ParseOptions(opt); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", opt, err, want)
		}
	}
}

// The enum maps (and their init-time cost) come only with enum_maps=true;
// the enum and its String method are always there.
func TestEnumMapsOption(t *testing.T) {
	src := map[string]string{"e.proto": "syntax = \"proto3\";\npackage e;\nenum Color { RED = 0; BLUE = 1; }\n"}
	for _, tc := range []struct {
		param string
		maps  bool
	}{{"", false}, {"enum_maps=true", true}, {"enum_maps=false", false}} {
		o, _ := gogen.ParseOptions(tc.param)
		res := compiler.Compile(context.Background(), compiler.Request{Sources: src, Options: o})
		if err := res.Err(); err != nil {
			t.Fatal(err)
		}
		code := res.Generated[0].Content
		if got := strings.Contains(code, "var Color_name = map[int32]string"); got != tc.maps {
			t.Errorf("%q: Color_name present = %v", tc.param, got)
		}
		if !strings.Contains(code, "func (x Color) String() string") {
			t.Errorf("%q: String method missing", tc.param)
		}
	}
}

// runtime=import is the zero Options' default; the command-line tools'
// default (WithToolDefaults) is runtime=local, which an explicit
// runtime=import overrides, and the last runtime= given wins.
func TestRuntimeDefaults(t *testing.T) {
	o, err := gogen.ParseOptions("runtime=local,runtime=import")
	if err != nil || o.Runtime != "import" || o.String() != "runtime=import" {
		t.Fatalf("runtime=import after local: %+v (%q), %v", o, o.String(), err)
	}
	if back, err := gogen.ParseOptions(o.String()); err != nil || back.Runtime != "import" {
		t.Fatalf("ParseOptions(%q) = %+v, %v", o.String(), back, err)
	}
	if got := o.WithToolDefaults().Runtime; got != "import" {
		t.Errorf("WithToolDefaults of runtime=import: %q, want import", got)
	}
	if got := (gogen.Options{}).WithToolDefaults().Runtime; got != "local" {
		t.Errorf("WithToolDefaults of no runtime=: %q, want local", got)
	}
	if got, _ := gogen.ParseOptions("services=grpc"); got.WithToolDefaults().Runtime != "" {
		t.Errorf("WithToolDefaults with services=grpc: %q, want the import (service code imports the module)", got.WithToolDefaults().Runtime)
	}
	if got, _ := gogen.ParseOptions("paths=source_relative"); got.Runtime != "" {
		t.Errorf("no runtime= parses to Runtime %q, want \"\" (import)", got.Runtime)
	}
}

// runtime=local with source_relative: the runtime goes at
// protoplay/runtime/... relative to the output root (the generated
// packages' shared import path prefix is the module root), and with
// packages under two hosts and no module= it is a clear error.
func TestRuntimeLocalPaths(t *testing.T) {
	src := map[string]string{
		"x/a.proto": `syntax = "proto3"; package a; option go_package = "example.com/m/x"; import "google/protobuf/duration.proto"; message A { google.protobuf.Duration d = 1; }`,
		"y/b.proto": `syntax = "proto3"; package b; option go_package = "example.com/m/y"; message B {}`,
	}
	opts, _ := compiler.ParseOptions("paths=source_relative,runtime=local")
	generatedWith(t, src, opts, `"example.com/m/protoplay/runtime/wkt/durationpb"`, "x/")
	src["y/b.proto"] = `syntax = "proto3"; package b; option go_package = "other.org/y"; message B {}`
	res := compiler.Compile(context.Background(), compiler.Request{Sources: src, Options: opts})
	// The way out it names is runtime_root=: module= does not combine
	// with paths=source_relative.
	if err := res.Err(); err == nil || !strings.Contains(err.Error(), "share no import path prefix") || !strings.Contains(err.Error(), "give runtime_root=IMPORT_PATH") {
		t.Errorf("packages under two hosts: %v", err)
	}
	opts, _ = compiler.ParseOptions("paths=source_relative,runtime=local,module=example.com/m")
	if err := compiler.Compile(context.Background(), compiler.Request{Sources: src, Options: opts}).Err(); err == nil || !strings.Contains(err.Error(), "cannot use module= with paths=source_relative") {
		t.Errorf("module= with paths=source_relative: %v", err)
	}
	opts, _ = compiler.ParseOptions("paths=source_relative,runtime=local,runtime_root=example.com/out")
	generatedWith(t, src, opts, `"example.com/out/protoplay/runtime/wkt/durationpb"`, "x/")
	opts, _ = compiler.ParseOptions("runtime=local")
	res = compiler.Compile(context.Background(), compiler.Request{Sources: src, Options: opts})
	if err := res.Err(); err == nil || !strings.Contains(err.Error(), "give module=PATH (and go_package") {
		t.Errorf("packages under two hosts, paths=import: %v", err)
	}
}

// generatedWith compiles src (x/a.proto importing duration.proto, and
// y/b.proto) with opts and checks that the .pb.go files whose names start
// with prefix import imp, and that both files and the local runtime's
// wire and durationpb packages are generated.
func generatedWith(t *testing.T, src map[string]string, opts compiler.Options, imp, prefix string) {
	t.Helper()
	res := compiler.Compile(context.Background(), compiler.Request{Sources: src, Options: opts})
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	got := " "
	for _, f := range res.Generated {
		got += f.Name + " "
		if strings.HasSuffix(f.Name, ".pb.go") && strings.HasPrefix(f.Name, prefix) && !strings.Contains(f.Content, imp) {
			t.Errorf("%s does not import %s:\n%s", f.Name, imp, f.Content)
		}
	}
	for _, want := range []string{"x/a.pb.go", "y/b.pb.go", "protoplay/runtime/wire/wire.go", "protoplay/runtime/wkt/durationpb/duration.pb.go"} {
		if !strings.Contains(got, " "+want+" ") {
			t.Errorf("no %s in%s", want, got)
		}
	}
}

// runtime_root= is the import path of the output directory under
// paths=source_relative: the runtime is imported from below it whatever
// the files' Go packages say (two packages under two hosts, which share no
// prefix to put it under, included), and written at protoplay/runtime in
// the output directory. It goes with paths=source_relative and
// runtime=local only.
func TestRuntimeRootOption(t *testing.T) {
	src := map[string]string{
		"x/a.proto": `syntax = "proto3"; package a; option go_package = "example.com/m/x"; import "google/protobuf/duration.proto"; message A { google.protobuf.Duration d = 1; }`,
		"y/b.proto": `syntax = "proto3"; package b; option go_package = "other.org/y"; message B {}`,
	}
	opts, err := compiler.ParseOptions("paths=source_relative,runtime=local,runtime_root=example.com/app/gen/")
	if err != nil {
		t.Fatal(err)
	}
	if back, err := compiler.ParseOptions(opts.String()); err != nil || back.RuntimeRoot != "example.com/app/gen" {
		t.Fatalf("String() %q does not round-trip: %+v, %v", opts.String(), back, err)
	}
	generatedWith(t, src, opts, `"example.com/app/gen/protoplay/runtime/wire"`, "")
	for bad, want := range map[string]string{
		"runtime_root=example.com/app":                                      "goes with paths=source_relative",
		"paths=source_relative,runtime=import,runtime_root=example.com/app": "runtime=import imports it",
		"paths=source_relative,runtime_root=":                               "want the Go import path",
		"paths=source_relative,runtime_root=/abs/dir":                       "want the Go import path",
	} {
		if _, err := gogen.ParseOptions(bad); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error saying %q", bad, err, want)
		}
	}
}

// An M option without a Go import path (no "=", nothing after it, or a
// package name alone) is refused, as protoc-gen-go cannot place such a
// file either; taken as unset, it would replace the file's own go_package
// with the default prefix.
func TestImportMapOptionNeedsPath(t *testing.T) {
	for _, bad := range []string{"Mshop/v1/shop.proto", "Mshop/v1/shop.proto=", "Mshop/v1/shop.proto=;shopv1"} {
		if _, err := gogen.ParseOptions(bad); err == nil || !strings.Contains(err.Error(), "option Mshop/v1/shop.proto=") || !strings.Contains(err.Error(), "want the Go import path of the file's package") {
			t.Errorf("%q: %v, want an error asking for the Go import path", bad, err)
		}
	}
	for _, good := range []string{"Mshop/v1/shop.proto=example.com/shop/v1", "Mshop/v1/shop.proto=example.com/shop/v1;shopv1"} {
		if _, err := gogen.ParseOptions(good); err != nil {
			t.Errorf("%q: %v", good, err)
		}
	}
}

// An M option without ";name" moves a file's package and keeps the name
// its go_package gives after ";", as protoc-gen-go does (it was the M
// path's last element, so code written as apipb.A did not build); an M
// name wins; with no go_package name, the M path's last element names it.
func TestImportMapKeepsGoPackageName(t *testing.T) {
	src := map[string]string{
		"a.proto": `syntax = "proto3"; package a; option go_package = "example.com/x/apiv1;apipb"; message A {}`,
		"b.proto": `syntax = "proto3"; package b; option go_package = "example.com/x/b"; message B {}`,
	}
	for params, want := range map[string]string{
		"Ma.proto=example.com/y/moved":         "package apipb\n",
		"Ma.proto=example.com/y/moved;movedpb": "package movedpb\n",
		"Mb.proto=example.com/y/moved":         "package moved\n",
	} {
		opts, err := compiler.ParseOptions(params)
		if err != nil {
			t.Fatal(err)
		}
		file := params[1:strings.Index(params, "=")]
		res := compiler.Compile(context.Background(), compiler.Request{Sources: src, Files: []string{file}, Options: opts})
		if err := res.Err(); err != nil {
			t.Fatal(err)
		}
		if len(res.Generated) == 0 || res.Generated[0].Name != "example.com/y/moved/"+strings.TrimSuffix(file, ".proto")+".pb.go" || !strings.Contains(res.Generated[0].Content, want) {
			t.Errorf("%s: %s, want %q", params, res.Generated[0].Name, want)
		}
	}
}

// module= with paths=source_relative is one error about the options, with
// no file, not the same error at every file generated.
func TestModuleWithSourceRelative(t *testing.T) {
	src := map[string]string{
		"x/a.proto": `syntax = "proto3"; package a; option go_package = "example.com/m/x"; message A {}`,
		"y/b.proto": `syntax = "proto3"; package b; option go_package = "example.com/m/y"; message B {}`,
	}
	opts, err := compiler.ParseOptions("paths=source_relative,module=example.com/m")
	if err != nil {
		t.Fatal(err)
	}
	res := compiler.Compile(context.Background(), compiler.Request{Sources: src, Options: opts})
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].File != "" || !strings.Contains(res.Diagnostics[0].Message, "cannot use module= with paths=source_relative") || res.Generated != nil {
		t.Errorf("diagnostics %+v, %d files generated; want one error with no file and no output", res.Diagnostics, len(res.Generated))
	}
}

// TestParseLazyOption: lazy= names a field by its full name, repeatable;
// String gives the names back in order; a name that is no full name is
// an error naming the option.
func TestParseLazyOption(t *testing.T) {
	o, err := gogen.ParseOptions("lazy=p.M.b,lazy=p.M.a")
	if err != nil {
		t.Fatal(err)
	}
	if !o.Lazy["p.M.a"] || !o.Lazy["p.M.b"] || len(o.Lazy) != 2 {
		t.Fatalf("Lazy = %v", o.Lazy)
	}
	if got, want := o.String(), "lazy=p.M.a,lazy=p.M.b"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	for _, bad := range []string{"lazy=", "lazy=field", "lazy=.p.M.a"} {
		if _, err := gogen.ParseOptions(bad); err == nil || !strings.Contains(err.Error(), "option lazy=") {
			t.Errorf("%s: error %v, want one naming the option", bad, err)
		}
	}
}
