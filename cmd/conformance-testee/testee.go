// This file builds protoplay's conformance testee: a program that speaks
// the protobuf conformance protocol (conformance.proto) through
// protoplay-generated code only.
//
// The schemas it needs (conformance.proto and the test_messages protos)
// belong to the protobuf project and are not copied into this repository,
// and neither is code generated from them. Build compiles them from a
// protobuf source tree (../shared/corpus/protobuf) with compiler.Compile,
// writes the generated packages plus the hand-written main (main.go.txt)
// into a fresh Go module and runs `go build` there:
//
//	go run ./cmd/conformance-testee -o bin/conformance-testee
//
// The test in this package builds the testee the same way and drives it as a
// small conformance runner.

package main

import (
	"context"
	_ "embed"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/protoplay/protoplay/compiler"
)

// mainSource is the testee's hand-written main package file.
//
//go:embed main.go.txt
var mainSource string

// ModulePath is the module path of the generated testee module.
const ModulePath = "testee"

// Schema is one .proto file of the protobuf tree that the testee is built
// from, with the Go package its code goes to and the top-level messages the
// testee answers for.
type Schema struct {
	// File is the path relative to the protobuf source root.
	File string
	// Package is the Go package directory (and name) under ModulePath.
	Package string
	// Messages are the Go type names (as generated) of the messages the
	// testee accepts in ConformanceRequest.message_type, keyed by their
	// full proto name.
	Messages map[string]string
	// Required schemas fail the build when they do not compile; others are
	// left out with a note.
	Required bool
}

// Schemas are the files the testee is built from. The first is
// conformance.proto itself: its ConformanceRequest and ConformanceResponse
// are protoplay-generated too.
var Schemas = []Schema{
	{File: "conformance/conformance.proto", Package: "conformance", Required: true},
	{File: "google/protobuf/test_messages_proto3.proto", Package: "proto3", Required: true, Messages: map[string]string{
		"protobuf_test_messages.proto3.TestAllTypesProto3": "TestAllTypesProto3",
	}},
	{File: "google/protobuf/test_messages_proto2.proto", Package: "proto2", Required: true, Messages: map[string]string{
		"protobuf_test_messages.proto2.TestAllTypesProto2":         "TestAllTypesProto2",
		"protobuf_test_messages.proto2.TestAllRequiredTypesProto2": "TestAllRequiredTypesProto2",
	}},
	{File: "conformance/test_protos/test_messages_edition2023.proto", Package: "editions", Messages: map[string]string{
		"protobuf_test_messages.editions.TestAllTypesEdition2023": "TestAllTypesEdition2023",
	}},
	{File: "editions/golden/test_messages_proto2_editions.proto", Package: "editionsproto2", Messages: map[string]string{
		"protobuf_test_messages.editions.proto2.TestAllTypesProto2":         "TestAllTypesProto2",
		"protobuf_test_messages.editions.proto2.TestAllRequiredTypesProto2": "TestAllRequiredTypesProto2",
	}},
	{File: "editions/golden/test_messages_proto3_editions.proto", Package: "editionsproto3", Messages: map[string]string{
		"protobuf_test_messages.editions.proto3.TestAllTypesProto3": "TestAllTypesProto3",
	}},
	// Not a conformance suite message: a proto2 message whose required
	// sub-message has required fields and no required recursion (every
	// required-bearing message of test_messages_proto2 requires itself, so
	// none can be complete), for the project's own runner to send complete
	// messages whose required sub-message arrives in pieces.
	{File: "editions/codegen_tests/proto2_required.proto", Package: "proto2required", Messages: map[string]string{
		"protobuf_editions_test.proto2.Proto2Required": "Proto2Required",
	}},
}

// Result says what Generate produced.
type Result struct {
	// Files are the generated .pb.go files and the testee's main package,
	// relative to the module root (go.mod not included).
	Files []compiler.File
	// Included are the schemas compiled into the testee.
	Included []Schema
	// Left out are optional schemas that did not compile, with the reason.
	LeftOut map[string]string
}

// Generate compiles Schemas from protobufRoot (a protobuf source tree such
// as ../shared/corpus/protobuf) and returns the testee's source files.
func Generate(ctx context.Context, protobufRoot string) (*Result, error) {
	if _, err := os.Stat(filepath.Join(protobufRoot, Schemas[0].File)); err != nil {
		return nil, fmt.Errorf("no protobuf source tree at %s: %w", protobufRoot, err)
	}
	fsys := os.DirFS(protobufRoot)
	res := &Result{LeftOut: map[string]string{}}
	for _, s := range Schemas {
		// Each schema alone first, so that an optional one that protoplay
		// cannot handle is left out instead of failing the build.
		r := compiler.Compile(ctx, compiler.Request{FS: fsys, Files: []string{s.File}, Options: options([]Schema{s})})
		if err := r.Err(); err != nil {
			if s.Required {
				return nil, fmt.Errorf("compiling %s: %w", s.File, err)
			}
			res.LeftOut[s.File] = err.Error()
			continue
		}
		res.Included = append(res.Included, s)
	}
	var files []string
	for _, s := range res.Included {
		files = append(files, s.File)
	}
	r := compiler.Compile(ctx, compiler.Request{FS: fsys, Files: files, Options: options(res.Included)})
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("compiling the testee's schemas: %w", err)
	}
	for _, s := range res.Included {
		for _, goName := range s.Messages {
			if !declares(r.Generated, s.Package, goName) {
				return nil, fmt.Errorf("%s: generated code has no type %s", s.File, goName)
			}
		}
	}
	res.Files = append(r.Generated,
		compiler.File{Name: "main.go", Content: mainSource},
		compiler.File{Name: "messages.go", Content: messagesSource(res.Included, r.Generated)})
	sort.Slice(res.Files, func(i, j int) bool { return res.Files[i].Name < res.Files[j].Name })
	return res, nil
}

// options places each schema's code in ModulePath/<Package>; the
// well-known types keep their protoplay runtime packages.
func options(schemas []Schema) compiler.Options {
	o := compiler.Options{Paths: "import", Module: ModulePath, ImportMap: map[string]string{}}
	for _, s := range schemas {
		o.ImportMap[s.File] = ModulePath + "/" + s.Package + ";" + s.Package
	}
	return o
}

func declares(files []compiler.File, pkg, goName string) bool {
	for _, f := range files {
		if strings.HasPrefix(f.Name, pkg+"/") && strings.Contains(f.Content, "\ntype "+goName+" struct {") {
			return true
		}
	}
	return false
}

// messagesSource renders messages.go: the table from message_type to a
// constructor of the generated type, the schemas' resolvers and the
// extensions their files declare (files is the generated code, which
// declares an extension list for a file with extensions).
func messagesSource(schemas []Schema, files []compiler.File) string {
	var b strings.Builder
	b.WriteString("// Code generated by protoplay's cmd/conformance-testee. DO NOT EDIT.\n\npackage main\n\nimport (\n\t\"slices\"\n\n\t\"github.com/protoplay/protoplay/runtime/protojson\"\n")
	for _, s := range schemas[1:] {
		fmt.Fprintf(&b, "\t%s %q\n", s.Package, ModulePath+"/"+s.Package)
	}
	b.WriteString(")\n\n// messageTypes maps ConformanceRequest.message_type to a new message.\nvar messageTypes = map[string]func() message{\n")
	for _, s := range schemas[1:] {
		names := make([]string, 0, len(s.Messages))
		for n := range s.Messages {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			fmt.Fprintf(&b, "\t%q: func() message { return new(%s.%s) },\n", n, s.Package, s.Messages[n])
		}
	}
	b.WriteString("}\n\n// resolvers are the generated ProtoJSON resolver functions of the schemas'\n// files (their message types and, through their fields, the well-known types).\nvar resolvers = []func(string) protojson.Message{\n")
	for _, s := range schemas[1:] {
		fmt.Fprintf(&b, "\t%s.%s,\n", s.Package, compiler.ProtoJSONResolverName(s.File))
	}
	b.WriteString("}\n\n// extensions are the extensions the schemas' files declare, for the\n// Extensions option of ProtoJSON and the text format.\nvar extensions = slices.Concat(\n")
	for _, s := range schemas[1:] {
		list := compiler.ExtensionsListName(s.File)
		for _, f := range files {
			if strings.HasPrefix(f.Name, s.Package+"/") && strings.Contains(f.Content, "\nvar "+list+" = ") {
				fmt.Fprintf(&b, "\t%s.%s,\n", s.Package, list)
				break
			}
		}
	}
	b.WriteString(")\n")
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		panic("messages.go does not format: " + err.Error()) // a bug in this file
	}
	return string(src)
}

// WriteModule writes files into dir as a Go module that uses the protoplay
// checkout at repoRoot (for runtime/) through a replace directive.
func WriteModule(dir, repoRoot string, files []compiler.File) error {
	gomod := "module " + ModulePath + "\n\ngo 1.26\n\nrequire github.com/protoplay/protoplay v0.0.0\n\nreplace github.com/protoplay/protoplay => " + repoRoot + "\n"
	all := append([]compiler.File{{Name: "go.mod", Content: gomod}}, files...)
	if sum, err := os.ReadFile(filepath.Join(repoRoot, "go.sum")); err == nil {
		all = append(all, compiler.File{Name: "go.sum", Content: string(sum)})
	}
	for _, f := range all {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(f.Content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// GoCommand returns a go command run in dir, with module mode settings
// that work in a throwaway module, and -trimpath: the build cache then
// keys the testee's packages by import path and content, not by the
// directory they were written to, so the test's module (a temporary
// directory) and conformance/run.sh's (.cache/conformance), and every
// checkout's, share one compilation of the same generated code.
func GoCommand(ctx context.Context, dir string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod -trimpath", "GOWORK=off")
	return cmd
}

// Build writes the testee module into workDir and builds it to binary (an
// absolute path). It runs go vet first when vet is set.
func Build(ctx context.Context, res *Result, repoRoot, workDir, binary string, vet bool) error {
	if err := WriteModule(workDir, repoRoot, res.Files); err != nil {
		return err
	}
	if vet {
		if out, err := GoCommand(ctx, workDir, "vet", "./...").CombinedOutput(); err != nil {
			return fmt.Errorf("go vet of the testee module in %s: %v\n%s", workDir, err, out)
		}
	}
	if out, err := GoCommand(ctx, workDir, "build", "-o", binary, ".").CombinedOutput(); err != nil {
		return fmt.Errorf("go build of the testee module in %s: %v\n%s", workDir, err, out)
	}
	return nil
}
