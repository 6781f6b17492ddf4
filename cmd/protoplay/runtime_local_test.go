package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// protoplay gen --opt runtime=local writes the runtime packages the output
// imports beside it, under the output's module path, and the output builds
// with no network once a go.mod names that path: with module= (the runtime
// at <out>/protoplay/runtime/...) and without (the runtime below the
// generated packages' shared import path prefix).
func TestGenRuntimeLocal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	for _, tc := range []struct {
		name   string
		opts   []string
		modDir string // where go.mod goes, relative to -o
		module string
		want   []string
	}{
		{"module=", []string{"--opt", "runtime=local", "--opt", "module=example.com/addressbook"}, ".", "example.com/addressbook",
			[]string{"v1/example.pb.go", "protoplay/runtime/wire/wire.go", "protoplay/runtime/wkt/timestamppb/timestamp.pb.go"}},
		{"import paths", []string{"--opt", "runtime=local"}, "example.com/addressbook/v1", "example.com/addressbook/v1",
			[]string{"example.com/addressbook/v1/example.pb.go", "example.com/addressbook/v1/protoplay/runtime/wire/wire.go", "example.com/addressbook/v1/protoplay/runtime/wkt/timestamppb/timestamp.go"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			args := append([]string{"-I", "../../testdata/example", "-o", out}, tc.opts...)
			if code, errs := runGenArgs(t, append(args, "example.proto")...); code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			got := files(t, out)
			for _, w := range tc.want {
				if !contains(got, w) {
					t.Errorf("no %s in %q", w, got)
				}
			}
			for _, f := range got {
				if strings.Contains(f, "descriptorpb") || strings.Contains(f, "structpb") || strings.HasSuffix(f, "_test.go") {
					t.Errorf("%s written, but nothing imports it", f)
				}
				b, _ := os.ReadFile(filepath.Join(out, f))
				if strings.Contains(string(b), `"github.com/protoplay/protoplay/`) {
					t.Errorf("%s still imports github.com/protoplay/protoplay", f)
				}
			}
			buildOffline(t, filepath.Join(out, tc.modDir), tc.module)
		})
	}
}

// buildOffline writes a go.mod for module into dir and runs go build ./...
// there with no network and an empty module cache; -trimpath, so that the
// build cache keys the packages by import path and content, not by the
// temporary directory, and a later run reuses their compilation.
func buildOffline(t *testing.T, dir, module string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+module+"\n\ngo 1.23\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "build", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod -trimpath", "GOPROXY=off", "GOSUMDB=off", "GOWORK=off", "GOTOOLCHAIN=local",
		"GOMODCACHE="+filepath.Join(t.TempDir(), "modcache"))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./... offline: %v\n%s", err, b)
	}
}

// runtime=local with paths=source_relative (the layout buf and protoc
// users ask for): each file sits at its .proto's path, so the output
// directory stands for the import path that is left when a file's
// directory is taken off the end of its Go package, and the runtime goes
// there, at protoplay/runtime in the output directory. A single package in
// a subdirectory and two packages whose shared prefix is below the output
// directory's import path build offline with go.mod at the output
// directory; so do two runs into one directory, one per package (as buf
// runs a plugin, once per directory), where one package uses the other's
// message: both runs put the runtime in the same place, so the packages
// share its types.
func TestGenRuntimeLocalSourceRelative(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	const money = `syntax = "proto3";
package acme.common.v1;
option go_package = "example.com/m/gen/acme/common/v1;commonv1";
import "google/protobuf/duration.proto";
message Money { int64 units = 1; google.protobuf.Duration held = 2; }
`
	const shop = `syntax = "proto3";
package acme.shop.v1;
option go_package = "example.com/m/gen/acme/shop/v1;shopv1";
import "acme/common/v1/money.proto";
message Item { string sku = 1; acme.common.v1.Money price = 2; }
`
	for _, tc := range []struct {
		name   string
		protos map[string]string
		runs   [][]string // the files of each gen run; nil: one run of all
		module string
		want   []string
	}{
		{"one package", map[string]string{"x/a.proto": `syntax = "proto3"; package a; option go_package = "example.com/m/x"; import "google/protobuf/duration.proto"; message A { google.protobuf.Duration d = 1; }`}, nil,
			"example.com/m", []string{"x/a.pb.go", "protoplay/runtime/wire/wire.go", "protoplay/runtime/wkt/durationpb/duration.pb.go"}},
		{"two packages", map[string]string{"acme/common/v1/money.proto": money, "acme/shop/v1/shop.proto": shop}, nil,
			"example.com/m/gen", []string{"acme/common/v1/money.pb.go", "acme/shop/v1/shop.pb.go", "protoplay/runtime/wire/wire.go", "protoplay/runtime/wkt/durationpb/duration.pb.go"}},
		{"a run per package", map[string]string{"acme/common/v1/money.proto": money, "acme/shop/v1/shop.proto": shop}, [][]string{{"acme/shop/v1/shop.proto"}, {"acme/common/v1/money.proto"}},
			"example.com/m/gen", []string{"acme/common/v1/money.pb.go", "acme/shop/v1/shop.pb.go", "protoplay/runtime/wire/wire.go", "protoplay/runtime/wkt/durationpb/duration.pb.go"}},
		{"file at the root", map[string]string{"r.proto": `syntax = "proto3"; package r; option go_package = "example.com/r"; message R { int32 x = 1; }`}, nil,
			"example.com/r", []string{"r.pb.go", "protoplay/runtime/wire/wire.go"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, out := t.TempDir(), t.TempDir()
			var all []string
			for name, text := range tc.protos {
				p := filepath.Join(src, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				all = append(all, name)
			}
			runs := tc.runs
			if runs == nil {
				runs = [][]string{all}
			}
			for _, run := range runs {
				args := append([]string{"-I", src, "-o", out, "--opt", "paths=source_relative", "--opt", "runtime=local"}, run...)
				if code, errs := runGenArgs(t, args...); code != 0 {
					t.Fatalf("gen %s: exit %d: %s", strings.Join(run, " "), code, errs)
				}
			}
			got := files(t, out)
			for _, w := range tc.want {
				if !contains(got, w) {
					t.Errorf("no %s in %q", w, got)
				}
			}
			buildOffline(t, out, tc.module)
		})
	}
}

// gen -o DIR --opt paths=source_relative into a Go module whose path the
// files' go_package does not name (the README's quick start with
// example.proto, go_package example.com/addressbook/v1, in module
// example.com/app): the runtime is imported by the path the go.mod above
// DIR gives DIR, DIR at the module's root or below it, and the module
// builds offline. runtime_root= given on the command line wins.
func TestGenRuntimeLocalGoMod(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	for _, tc := range []struct {
		name, out, opt, wire string
	}{
		{"output at the module root", ".", "", "example.com/app/protoplay/runtime/wire"},
		{"output below it", "internal/gen", "", "example.com/app/internal/gen/protoplay/runtime/wire"},
		{"runtime_root given", "gen", "runtime_root=example.com/app/gen", "example.com/app/gen/protoplay/runtime/wire"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mod := t.TempDir()
			gomod := "// the application\nmodule \"example.com/app\" // quoted\n\ngo 1.23\n"
			if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte(gomod), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(mod, filepath.FromSlash(tc.out))
			args := []string{"-I", "../../testdata/example", "-o", out, "--opt", "paths=source_relative"}
			if tc.opt != "" {
				args = append(args, "--opt", tc.opt)
			}
			if code, errs := runGenArgs(t, append(args, "example.proto")...); code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			b, err := os.ReadFile(filepath.Join(out, "example.pb.go"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), strconv.Quote(tc.wire)) {
				t.Errorf("example.pb.go does not import %s", tc.wire)
			}
			buildOffline(t, mod, "example.com/app")
		})
	}
}

// A schema using a type of a bundled googleapis file (google/type/date.proto)
// gets code importing that file's default Go package,
// google.golang.org/genproto/googleapis/type/date: protoc-gen-go's, which
// has none of the methods the generated code calls. gen says so on stderr
// (exit 0, the files written) with the file to add and the M option; doing
// what it says gives runtime=local output that builds offline, and no note.
func TestGenGoogleAPIsNote(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	src := t.TempDir()
	text := "syntax = \"proto3\";\npackage shop;\nimport \"google/api/annotations.proto\";\nimport \"google/type/date.proto\";\n" +
		"option go_package = \"example.com/shop/v1\";\nmessage Order { google.type.Date placed = 1; }\n" +
		"service Shop { rpc Get(Order) returns (Order) { option (google.api.http) = {get: \"/v1/orders\"}; } }\n"
	if err := os.WriteFile(filepath.Join(src, "shop.proto"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"-I", src, "--opt", "runtime=local", "--opt", "module=example.com/shop"}
	code, errs := runGenArgs(t, append(append([]string{"-o", t.TempDir()}, base...), "shop.proto")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	const m = "Mgoogle/type/date.proto=example.com/shop/google.golang.org/genproto/googleapis/type/date"
	for _, want := range []string{"v1/shop.pb.go imports google.golang.org/genproto/googleapis/type/date", "generate google/type/date.proto too", "--opt " + m} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	if strings.Contains(errs, "annotations") {
		t.Errorf("a note for google/api/annotations.proto, whose Go the code does not import:\n%s", errs)
	}
	// The file named but not mapped: outside module=, an error that gives
	// the same M option.
	code, errs = runGenArgs(t, append(append([]string{"-o", t.TempDir()}, base...), "shop.proto", "google/type/date.proto")...)
	if code != 1 || !strings.Contains(errs, "does not start with module= prefix") || !strings.Contains(errs, m+" puts it there") {
		t.Errorf("google/type/date.proto outside module=: exit %d: %s", code, errs)
	}
	out := t.TempDir()
	code, errs = runGenArgs(t, append(append([]string{"-o", out, "--opt", m}, base...), "shop.proto", "google/type/date.proto")...)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d: %s", code, errs)
	}
	buildOffline(t, out, "example.com/shop")
}

// With paths=source_relative the file to add lands in its own directory
// of the output, so the note's M option gives it that directory's import
// path (the output directory's, from go.mod, then the file's directory)
// and its package name; doing what it says builds offline.
func TestGenGoogleAPIsNoteSourceRelative(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	src, mod := t.TempDir(), t.TempDir()
	text := "syntax = \"proto3\";\npackage shop;\nimport \"google/type/date.proto\";\n" +
		"option go_package = \"example.com/shop/v1\";\nmessage Order { google.type.Date placed = 1; }\n"
	if err := os.WriteFile(filepath.Join(src, "shop.proto"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module example.com/app\n\ngo 1.23\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(mod, "gen")
	base := []string{"-I", src, "-o", out, "--opt", "paths=source_relative"}
	code, errs := runGenArgs(t, append(base, "shop.proto")...)
	const m = "Mgoogle/type/date.proto=example.com/app/gen/google/type;date"
	if code != 0 || !strings.Contains(errs, "--opt "+m+"\n") {
		t.Fatalf("exit %d, stderr lacks %q:\n%s", code, m, errs)
	}
	code, errs = runGenArgs(t, append(append(base, "--opt", m), "shop.proto", "google/type/date.proto")...)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d: %s", code, errs)
	}
	buildOffline(t, mod, "example.com/app")
}

// The same note for protobuf's own bundled files other than the
// well-known types: google.protobuf.compiler.CodeGeneratorRequest's Go
// package is protoc-gen-go's pluginpb.
func TestGenProtobufPackageNote(t *testing.T) {
	src := t.TempDir()
	text := "syntax = \"proto3\";\npackage p;\noption go_package = \"example.com/p\";\nimport \"google/protobuf/compiler/plugin.proto\";\nimport \"google/protobuf/timestamp.proto\";\n" +
		"message Log { google.protobuf.compiler.CodeGeneratorRequest req = 1; google.protobuf.Timestamp at = 2; }\n"
	if err := os.WriteFile(filepath.Join(src, "p.proto"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, errs := runGenArgs(t, "-I", src, "-o", t.TempDir(), "p.proto")
	if code != 0 || strings.Count(errs, "note: ") != 1 || !strings.Contains(errs, "imports google.golang.org/protobuf/types/pluginpb, protoc-gen-go's Go for google/protobuf/compiler/plugin.proto") ||
		!strings.Contains(errs, "--opt Mgoogle/protobuf/compiler/plugin.proto=example.com/p/google.golang.org/protobuf/types/pluginpb") {
		t.Errorf("exit %d, stderr:\n%s", code, errs)
	}
}
