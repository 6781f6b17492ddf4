package compiler_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/protoplay/protoplay/compiler"
)

// offlineGo runs the go command in dir with no network and no module
// other than dir's own: GOPROXY=off, a fresh empty module cache, no
// workspace, the local toolchain only; -trimpath, so that the build cache
// keys the module's packages by import path and content, not by the
// temporary directory, and a later run reuses their compilation.
func offlineGo(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GOFLAGS=-mod=mod -trimpath", "GOPROXY=off", "GONOSUMDB=*", "GONOSUMCHECK=1", "GOSUMDB=off",
		"GOWORK=off", "GOTOOLCHAIN=local", "GOMODCACHE="+filepath.Join(t.TempDir(), "modcache"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return string(out)
}

// writeFiles writes files below dir.
func writeFiles(t *testing.T, dir string, files []compiler.File) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f.Content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

var importOfProtoplay = regexp.MustCompile(`(?m)^\s*(\w+ )?"github\.com/protoplay/protoplay[/"]`)

// checkStandalone fails when a file of the module imports protoplay's own
// module or go.mod requires anything.
func checkStandalone(t *testing.T, files []compiler.File) {
	t.Helper()
	for _, f := range files {
		if importOfProtoplay.MatchString(f.Content) {
			t.Errorf("%s imports github.com/protoplay/protoplay", f.Name)
		}
		if f.Name == "go.mod" && strings.Contains(f.Content, "require") {
			t.Errorf("go.mod has requirements:\n%s", f.Content)
		}
	}
}

// The module of Workspace.Module builds and runs offline, in an empty
// folder: the example (timestamppb), a case importing struct.proto
// (structpb) and one importing wrappers.proto, and a schema of two
// packages importing each other's types and several well-known types.
func TestModuleBuildsOffline(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, tc := range []struct {
		name     string
		files    compiler.Sources
		options  string
		module   string   // want
		runtimes []string // runtime packages that must be there
	}{
		{"example", compiler.Sources{"example.proto": read("../testdata/example/example.proto")}, "",
			"example.com/addressbook", []string{"protoplay/runtime/wire", "protoplay/runtime/wkt/timestamppb"}},
		{"struct", compiler.Sources{"c19.proto": read("../testdata/cases/19_float_special_values.proto")}, "",
			"example.com/bugcorpus", []string{"protoplay/runtime/wire", "protoplay/runtime/wkt/structpb"}},
		{"wrappers, module= option", compiler.Sources{"c24.proto": read("../testdata/cases/24_oneof_equal_clone_zero.proto")}, "module=example.com",
			"example.com", []string{"protoplay/runtime/wire", "protoplay/runtime/wkt/wrapperspb"}},
		{"two packages", compiler.Sources{
			"a/a.proto": `syntax = "proto3"; package a; option go_package = "example.org/m/a";
import "b/b.proto"; import "google/protobuf/any.proto"; import "google/protobuf/duration.proto";
message A { b.B b = 1; google.protobuf.Any any = 2; google.protobuf.Duration d = 3; map<string, b.B> m = 4; }`,
			"b/b.proto": `syntax = "proto3"; package b; option go_package = "example.org/m/b";
import "google/protobuf/field_mask.proto";
message B { string s = 1; google.protobuf.FieldMask mask = 2; }`,
		}, "services=none", "example.org/m", []string{"protoplay/runtime/wire", "protoplay/runtime/wkt/anypb", "protoplay/runtime/wkt/durationpb", "protoplay/runtime/wkt/fieldmaskpb"}},
		// Copies of the API's dependencies among its files (a .zip of
		// googleapis holds google/type/*.proto too), with Go packages
		// outside the API's: they go into the module as imported files do.
		{"dependencies among the files", compiler.Sources{
			"acme/v1/api.proto": `syntax = "proto3"; package acme.v1; option go_package = "example.com/acme/v1;acmepb";
import "google/type/latlng.proto"; import "vendor/dep/dep.proto";
message Place { google.type.LatLng at = 1; dep.Tag tag = 2; string name = 3; }`,
			"google/type/latlng.proto": `syntax = "proto3"; package google.type;
option go_package = "google.golang.org/genproto/googleapis/type/latlng;latlng";
message LatLng { double latitude = 1; double longitude = 2; }`,
			"vendor/dep/dep.proto": `syntax = "proto3"; package dep; option go_package = "other.org/dep";
import "google/type/latlng.proto";
message Tag { string key = 1; google.type.LatLng near = 2; }`,
		}, "", "example.com/acme", []string{"protoplay/runtime/wire", "google.golang.org/genproto/googleapis/type/latlng", "other.org/dep"}},
		{"googleapis imports, services=grpc left out", compiler.Sources{"library/v1/library.proto": read("../testdata/examples/service.proto")}, "services=grpc",
			"example.com/library", []string{"protoplay/runtime/wire", "protoplay/runtime/wkt/timestamppb", "google.golang.org/genproto/googleapis/type/date", "cloud.google.com/go/longrunning/autogen/longrunningpb"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var w compiler.Workspace
			res, err := w.Module(context.Background(), compiler.ModuleRequest{Files: tc.files, Options: tc.options})
			if err != nil {
				t.Fatal(err)
			}
			if res.Module != tc.module {
				t.Errorf("module %q, want %q", res.Module, tc.module)
			}
			checkStandalone(t, res.Files)
			names := map[string]bool{}
			for _, f := range res.Files {
				names[f.Name] = true
			}
			for _, want := range tc.runtimes {
				found := false
				for n := range names {
					found = found || strings.HasPrefix(n, want+"/")
				}
				if !found {
					t.Errorf("no runtime package %s in %v", want, names)
				}
			}
			if !names["go.mod"] || !names["main.go"] {
				t.Fatalf("no go.mod or main.go in %v", names)
			}
			for n := range names {
				if strings.HasSuffix(n, "_grpc.pb.go") || strings.HasSuffix(n, ".connect.go") {
					t.Errorf("%s: service code in a module with no requirements", n)
				}
				if strings.Contains(n, "descriptorpb") && !strings.Contains(tc.name, "googleapis") {
					t.Errorf("%s: descriptorpb is there, but nothing imports it", n)
				}
			}
			dir := t.TempDir()
			writeFiles(t, dir, res.Files)
			offlineGo(t, dir, "build", "./...")
			out := offlineGo(t, dir, "run", ".")
			if !strings.Contains(out, "round trip ok") || !regexp.MustCompile(`(?m)^[0-9a-f]{2,}$`).MatchString(out) {
				t.Errorf("go run . printed:\n%s", out)
			}
			t.Logf("%s (%s): %d files; go run .: %s", tc.name, res.Type, len(res.Files), strings.TrimSpace(out))
		})
	}
}

// Module's errors: a module path that does not hold the packages, and
// packages with no common prefix and no module path.
func TestModuleErrors(t *testing.T) {
	var w compiler.Workspace
	src := compiler.Sources{
		"a.proto": `syntax = "proto3"; package a; option go_package = "a.example/a"; message A {}`,
		"b.proto": `syntax = "proto3"; package b; option go_package = "b.example/b"; message B {}`,
	}
	_, err := w.Module(context.Background(), compiler.ModuleRequest{Files: src})
	if err == nil || !strings.Contains(err.Error(), "share no import path prefix") {
		t.Errorf("no common prefix: err %v", err)
	}
	// Two files no other imports, of unrelated packages: still no module.
	src["c.proto"] = `syntax = "proto3"; package c; option go_package = "c.example/c"; message C {}`
	src["b.proto"] = `syntax = "proto3"; package b; option go_package = "b.example/b"; import "c.proto"; message B { c.C c = 1; }`
	if _, err := w.Module(context.Background(), compiler.ModuleRequest{Files: src}); err == nil || !strings.Contains(err.Error(), "share no import path prefix") {
		t.Errorf("two top files with no common prefix: err %v", err)
	}
	delete(src, "c.proto")
	src["b.proto"] = `syntax = "proto3"; package b; option go_package = "b.example/b"; message B {}`
	_, err = w.Module(context.Background(), compiler.ModuleRequest{Files: src, Module: "a.example"})
	if err == nil || !strings.Contains(err.Error(), "does not start with module= prefix") {
		t.Errorf("module path not holding b.example/b: err %v", err)
	}
	if _, err := compiler.ParseOptions("runtime=vendor"); err == nil || !strings.Contains(err.Error(), `want "import" or "local"`) {
		t.Errorf("runtime=vendor: err %v", err)
	}
}
