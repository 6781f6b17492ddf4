package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/internal/gentest"
	"github.com/protoplay/protoplay/internal/version"
)

// exampleDir is the folder of the example schema. A function, not a
// package variable: this test binary also runs as the plugin
// (TestMain), in other folders, where the checkout's root is not
// looked up.
func exampleDir() string { return filepath.Join(gentest.RepoRoot(), "testdata", "example") }

// optionSets are the plugin parameters every comparison runs with.
var optionSets = []string{
	"",
	"paths=source_relative",
	"unknown_fields=drop",
	"module=example.com",
	"paths=source_relative,Mexample.proto=example.com/other;other",
}

// request builds the CodeGeneratorRequest protoc would send for files: every
// file of their import closure as a FileDescriptorProto, dependencies first.
func request(t *testing.T, req compiler.Request, param string) *pluginpb.CodeGeneratorRequest {
	t.Helper()
	req.NoGenerate = true
	res := compiler.Compile(context.Background(), req)
	if err := res.Err(); err != nil {
		t.Fatalf("compile: %v", err)
	}
	out := &pluginpb.CodeGeneratorRequest{
		FileToGenerate:  req.Files,
		CompilerVersion: &pluginpb.Version{Major: proto.Int32(3), Minor: proto.Int32(21), Patch: proto.Int32(12)},
	}
	if param != "" {
		out.Parameter = proto.String(param)
	}
	seen := map[string]bool{}
	var add func(fd protoreflect.FileDescriptor)
	add = func(fd protoreflect.FileDescriptor) {
		if seen[fd.Path()] {
			return
		}
		seen[fd.Path()] = true
		for i := 0; i < fd.Imports().Len(); i++ {
			add(fd.Imports().Get(i).FileDescriptor)
		}
		out.ProtoFile = append(out.ProtoFile, protodesc.ToFileDescriptorProto(fd))
	}
	for _, f := range res.Files {
		add(f)
	}
	return out
}

// compileOutput is what compiler.Compile generates for the same input,
// with the command-line tools' defaults (runtime=local unless
// runtime=import), as the plugin and protoplay gen apply them.
func compileOutput(t *testing.T, req compiler.Request, param string) []compiler.File {
	t.Helper()
	opts, err := compiler.ParseOptions(param)
	if err != nil {
		t.Fatal(err)
	}
	req.Options = opts.WithToolDefaults()
	res := compiler.Compile(context.Background(), req)
	if err := res.Err(); err != nil {
		t.Fatalf("compile: %v", err)
	}
	return res.Generated
}

// runRequest runs the plugin on req, as protoc would, and returns its
// response.
func runRequest(t *testing.T, req *pluginpb.CodeGeneratorRequest) *pluginpb.CodeGeneratorResponse {
	t.Helper()
	in, err := proto.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(bytes.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	resp := &pluginpb.CodeGeneratorResponse{}
	if err := proto.Unmarshal(out.Bytes(), resp); err != nil {
		t.Fatal(err)
	}
	return resp
}

// sameFiles fails the test unless the response carries exactly want.
func sameFiles(t *testing.T, resp *pluginpb.CodeGeneratorResponse, want []compiler.File) {
	t.Helper()
	if resp.Error != nil {
		t.Fatalf("response error: %s", resp.GetError())
	}
	if len(resp.File) != len(want) {
		t.Fatalf("response has %d files, compiler.Compile %d", len(resp.File), len(want))
	}
	for i, f := range resp.File {
		if f.GetName() != want[i].Name {
			t.Errorf("file %d: name %q, compiler.Compile %q", i, f.GetName(), want[i].Name)
		}
		if f.GetContent() != want[i].Content {
			t.Errorf("%s: content differs from compiler.Compile's\n%s", f.GetName(), firstDiff(f.GetContent(), want[i].Content))
		}
		if f.InsertionPoint != nil || f.GeneratedCodeInfo != nil {
			t.Errorf("%s: unexpected insertion point or generated code info", f.GetName())
		}
	}
}

func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ":\n plugin:  " + a + "\n compile: " + b
		}
	}
	return "(no line differs)"
}

func exampleRequest() compiler.Request {
	return compiler.Request{FS: os.DirFS(exampleDir()), Files: []string{"example.proto"}}
}

// TestExampleSameBytes: the plugin's answer for testdata/example is byte for
// byte what compiler.Compile generates, for each option set, and it goes
// through the wire encoding of request and response as protoc's would.
func TestExampleSameBytes(t *testing.T) {
	for _, param := range optionSets {
		t.Run(param, func(t *testing.T) {
			req := request(t, exampleRequest(), param)
			if n := len(req.ProtoFile); n != 2 || req.ProtoFile[0].GetName() != "google/protobuf/timestamp.proto" {
				t.Fatalf("request files: %d, first %q; want timestamp.proto then example.proto", n, req.ProtoFile[0].GetName())
			}
			if req.ProtoFile[1].SourceCodeInfo == nil {
				t.Fatal("request lost source_code_info")
			}
			resp := runRequest(t, req)
			sameFiles(t, resp, compileOutput(t, exampleRequest(), param))
			if !strings.Contains(resp.File[0].GetContent(), "// A person in the address book.") {
				t.Error("comments from source_code_info are missing")
			}
			const feats = pluginpb.CodeGeneratorResponse_FEATURE_PROTO3_OPTIONAL | pluginpb.CodeGeneratorResponse_FEATURE_SUPPORTS_EDITIONS
			if resp.GetSupportedFeatures() != uint64(feats) {
				t.Errorf("supported_features = %d, want %d", resp.GetSupportedFeatures(), feats)
			}
			if resp.GetMinimumEdition() != int32(descriptorpb.Edition_EDITION_PROTO2) || resp.GetMaximumEdition() != int32(descriptorpb.Edition_EDITION_2024) {
				t.Errorf("editions [%d, %d], want [PROTO2, 2024]", resp.GetMinimumEdition(), resp.GetMaximumEdition())
			}
		})
	}
}

// A file protoc lists twice in file_to_generate (given as ./a.proto and
// a.proto) is generated once, as protoc-gen-go does; it failed with
// "output file ... is also generated for ...".
func TestFileToGenerateTwice(t *testing.T) {
	req := request(t, exampleRequest(), "")
	req.FileToGenerate = append(req.FileToGenerate, req.FileToGenerate...)
	resp := runRequest(t, req)
	if resp.Error != nil {
		t.Fatal(resp.GetError())
	}
	sameFiles(t, resp, compileOutput(t, exampleRequest(), ""))
}

// A well-known type's file asked for (buf's include_wkt) is not generated
// again: its Go is the runtime's, which generated code imports; a note
// says so. Alone, it gives no files and no error. With an M option it is
// generated where the option says.
func TestWellKnownFileNotGenerated(t *testing.T) {
	req := request(t, exampleRequest(), "")
	req.FileToGenerate = append([]string{"google/protobuf/timestamp.proto"}, req.FileToGenerate...)
	resp, notes := respond(req)
	if resp.Error != nil {
		t.Fatal(resp.GetError())
	}
	sameFiles(t, resp, compileOutput(t, exampleRequest(), ""))
	const want = "note: google/protobuf/timestamp.proto is not generated: its Go is protoplay's package runtime/wkt/timestamppb, which generated code imports"
	if len(notes) != 1 || notes[0] != want {
		t.Errorf("notes %q, want %q", notes, want)
	}
	req.FileToGenerate = []string{"google/protobuf/timestamp.proto"}
	if resp, notes := respond(req); resp.Error != nil || len(resp.File) != 0 || len(notes) != 1 {
		t.Errorf("timestamp.proto alone: error %q, %d files, notes %q", resp.GetError(), len(resp.File), notes)
	}
	req.Parameter = proto.String("Mgoogle/protobuf/timestamp.proto=example.com/own/timestamppb")
	if resp, _ := respond(req); resp.Error != nil || len(resp.File) == 0 || !strings.HasPrefix(resp.File[0].GetName(), "example.com/own/timestamppb/") {
		t.Errorf("timestamp.proto with an M option: error %q, files %v", resp.GetError(), resp.File)
	}
}

// TestCasesSameBytes: the same for every accepted file of testdata/cases
// (proto2, proto3, editions, groups, collisions, comments), one request.
func TestCasesSameBytes(t *testing.T) {
	dir := filepath.Join(gentest.RepoRoot(), "testdata", "cases")
	creq := compiler.Request{FS: os.DirFS(dir), Files: caseFiles(t)}
	for _, param := range []string{"", "paths=source_relative,unknown_fields=drop"} {
		resp := generate(request(t, creq, param))
		sameFiles(t, resp, compileOutput(t, creq, param))
		t.Logf("options %q: %d files identical", param, len(resp.File))
	}
}

// caseFiles lists the files of testdata/cases that compiler.Compile
// accepts.
func caseFiles(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(gentest.RepoRoot(), "testdata", "cases"))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range entries {
		n := e.Name()
		if !strings.HasSuffix(n, ".proto") || gentest.RejectedCase(n) {
			continue // rejected on purpose (see compiler/gogen's TestCaseDiagnostics)
		}
		files = append(files, n)
	}
	return files
}

// TestErrors: bad parameters and generator diagnostics come back in the
// response's error field, with no files.
func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		name, param, want string
		edit              func(*pluginpb.CodeGeneratorRequest)
	}{
		{name: "unknown option", param: "frobnicate=1", want: `unknown option "frobnicate"`},
		{name: "bad paths", param: "paths=nowhere", want: `option paths="nowhere"`},
		{name: "bad unknown_fields", param: "unknown_fields=maybe", want: `option unknown_fields="maybe"`},
		{name: "missing file", edit: func(r *pluginpb.CodeGeneratorRequest) { r.FileToGenerate = []string{"absent.proto"} },
			want: "absent.proto: not among the request's proto_file entries"},
		{name: "missing dependency", edit: func(r *pluginpb.CodeGeneratorRequest) { r.ProtoFile = r.ProtoFile[1:] },
			want: "google/protobuf/timestamp.proto"},
		{name: "no files", edit: func(r *pluginpb.CodeGeneratorRequest) { r.FileToGenerate = nil }, want: "no files to generate"},
		{name: "module mismatch", param: "module=elsewhere.org",
			want: "example.proto: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := request(t, exampleRequest(), "")
			req.Parameter = proto.String(tc.param)
			if tc.edit != nil {
				tc.edit(req)
			}
			resp := generate(req)
			if resp.Error == nil {
				t.Fatalf("no error; %d files", len(resp.File))
			}
			if !strings.Contains(resp.GetError(), tc.want) {
				t.Errorf("error %q does not contain %q", resp.GetError(), tc.want)
			}
			if len(resp.File) != 0 {
				t.Errorf("%d files alongside the error", len(resp.File))
			}
			t.Logf("error: %s", resp.GetError())
		})
	}
}

// TestTruncatedRequest: bytes that are not a CodeGeneratorRequest are an
// error (no response) with the byte offset and field path of the fault,
// not google.golang.org/protobuf's "cannot parse invalid wire-format data"
// alone.
func TestTruncatedRequest(t *testing.T) {
	in, err := proto.Marshal(request(t, exampleRequest(), ""))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err = run(bytes.NewReader(in[:len(in)-3]), &out)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("decoding the request (%d bytes): at byte ", len(in)-3)) || !strings.Contains(err.Error(), "(in proto_file[") || out.Len() != 0 {
		t.Errorf("error %v, %d bytes written", err, out.Len())
	}
}

// TestGeneratorDiagnostic: a generator diagnostic (here a Go
// package name clash between two files given the same import path) is a
// "file:line:col: message" line when the backend knows the position.
func TestGeneratorDiagnostic(t *testing.T) {
	creq := compiler.Request{
		Sources: map[string]string{
			"a.proto": "syntax = \"proto3\";\npackage a;\noption go_package = \"example.com/same;one\";\nmessage A {}\n",
			"b.proto": "syntax = \"proto3\";\npackage b;\noption go_package = \"example.com/same;two\";\nmessage B {}\n",
		},
		Files: []string{"a.proto", "b.proto"},
	}
	want := compiler.Compile(context.Background(), creq)
	if !want.HasErrors() {
		t.Skip("compiler.Compile accepts the clash; nothing to compare")
	}
	resp := generate(request(t, compiler.Request{Sources: creq.Sources, Files: creq.Files, NoGenerate: true}, ""))
	var lines []string
	for _, d := range want.Diagnostics {
		lines = append(lines, d.String())
	}
	if resp.GetError() != strings.Join(lines, "\n") {
		t.Errorf("plugin error:\n%s\ncompiler.Compile diagnostics:\n%s", resp.GetError(), strings.Join(lines, "\n"))
	}
}

// TestProtoc runs the plugin (this test binary as the plugin: see
// pluginBinary) under the real protoc, when there is one, and compares what
// it writes with compiler.Compile's output.
func TestProtoc(t *testing.T) {
	protoc, err := exec.LookPath("protoc")
	if err != nil {
		t.Skip("protoc not found on PATH (Debian: apt-get install protobuf-compiler); skipping the end-to-end plugin test")
	}
	if testing.Short() {
		t.Skip("runs protoc and the plugin on every case and corpus file")
	}
	if v, err := exec.Command(protoc, "--version").Output(); err == nil {
		t.Logf("using %s (%s)", protoc, strings.TrimSpace(string(v)))
	}
	bin, env := pluginBinary(t)
	for _, param := range optionSets {
		t.Run(param, func(t *testing.T) {
			out := t.TempDir()
			args := []string{"--plugin=protoc-gen-protoplay=" + bin, "--protoplay_out=" + out, "-I", exampleDir()}
			if param != "" {
				args = append(args, "--protoplay_opt="+param)
			}
			args = append(args, "example.proto")
			cmd := exec.Command(protoc, args...)
			cmd.Env = env
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("protoc %s: %v\n%s", strings.Join(args, " "), err, b)
			}
			want := compileOutput(t, exampleRequest(), param)
			var got []string
			filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					rel, _ := filepath.Rel(out, p)
					got = append(got, filepath.ToSlash(rel))
				}
				return nil
			})
			if len(got) != len(want) {
				t.Fatalf("protoc wrote %v; compiler.Compile generates %d files", got, len(want))
			}
			for _, f := range want {
				b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(f.Name)))
				if err != nil {
					t.Fatalf("protoc output: %v", err)
				}
				if string(b) != f.Content {
					t.Errorf("%s: protoc output differs from compiler.Compile's\n%s", f.Name, firstDiff(string(b), f.Content))
				}
			}
		})
	}
	t.Run("cases", func(t *testing.T) {
		dir := filepath.Join(gentest.RepoRoot(), "testdata", "cases")
		same, protocRejected := 0, 0
		for _, name := range caseFiles(t) {
			out := t.TempDir()
			cmd := exec.Command(protoc, "--plugin=protoc-gen-protoplay="+bin, "--protoplay_out="+out, "-I", dir, name)
			cmd.Env = env
			if b, err := cmd.CombinedOutput(); err != nil {
				res := compiler.Compile(context.Background(), compiler.Request{FS: os.DirFS(dir), Files: []string{name}, Options: compiler.Options{}.WithToolDefaults()})
				if res.HasErrors() {
					t.Errorf("%s: protoc and compiler.Compile both reject it; protoc says:\n%s", name, b)
				} else if strings.Contains(string(b), "--protoplay_out:") {
					t.Errorf("%s: the plugin failed under protoc:\n%s", name, b)
				} else {
					protocRejected++
					t.Logf("%s: protoc %s rejects it, protocompile accepts it: %s", name, "3.21", strings.TrimSpace(string(b)))
				}
				continue
			}
			for _, f := range compileOutput(t, compiler.Request{FS: os.DirFS(dir), Files: []string{name}}, "") {
				b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(f.Name)))
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				if string(b) != f.Content {
					t.Errorf("%s: %s from protoc differs from compiler.Compile's\n%s", name, f.Name, firstDiff(string(b), f.Content))
					continue
				}
				same++
			}
		}
		t.Logf("testdata/cases under protoc: %d files identical to compiler.Compile's, %d inputs rejected by protoc only", same, protocRejected)
	})
	t.Run("corpus", func(t *testing.T) {
		shared, ok := gentest.SharedDir()
		if !ok {
			t.Skip("../shared is absent: skipping protoc on corpus files")
		}
		for _, c := range []struct{ root, name string }{
			{"protobuf", "google/protobuf/test_messages_proto2.proto"},
			{"protobuf", "google/protobuf/test_messages_proto3.proto"},
			{"protobuf", "google/protobuf/unittest_proto3.proto"},
			{"protobuf", "conformance/conformance.proto"},
			{"protobuf-3.21.12", "google/protobuf/unittest.proto"},
			{"protobuf-3.21.12", "google/protobuf/map_unittest.proto"},
			{"protobuf-3.21.12", "google/protobuf/unittest_custom_options.proto"},
			{"protobuf-3.21.12", "google/protobuf/unittest_mset.proto"},
			{"benchmarks", "benchmarks.proto"},
		} {
			root, name := filepath.Join(shared, "corpus", c.root), c.name
			out := t.TempDir()
			cmd := exec.Command(protoc, "--plugin=protoc-gen-protoplay="+bin, "--protoplay_out="+out, "-I", root, name)
			cmd.Env = env
			if b, err := cmd.CombinedOutput(); err != nil {
				if strings.Contains(string(b), "--protoplay_out:") {
					t.Errorf("%s: the plugin failed under protoc:\n%s", name, b)
				} else {
					first, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
					t.Logf("%s: protoc rejects it: %s", name, first)
				}
				continue
			}
			res := compiler.Compile(context.Background(), compiler.Request{FS: os.DirFS(root), Files: []string{name}, Options: compiler.Options{}.WithToolDefaults()})
			if err := res.Err(); err != nil {
				// protoc checked the file and the plugin linked protoc's
				// descriptors; compiler.Compile's own checks are protocompile's.
				t.Logf("%s: protoc accepts it, compiler.Compile rejects it: %v", name, err)
				continue
			}
			for _, f := range res.Generated {
				b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(f.Name)))
				if err != nil {
					t.Errorf("%s: %v", name, err)
				} else if string(b) != f.Content {
					t.Errorf("%s: %s from protoc differs from compiler.Compile's\n%s", name, f.Name, firstDiff(string(b), f.Content))
				} else {
					t.Logf("%s: identical (%d bytes)", name, len(b))
				}
			}
		}
	})
	t.Run("error", func(t *testing.T) {
		cmd := exec.Command(protoc, "--plugin=protoc-gen-protoplay="+bin, "--protoplay_out="+t.TempDir(),
			"--protoplay_opt=paths=sideways", "-I", exampleDir(), "example.proto")
		cmd.Env = env
		b, err := cmd.CombinedOutput()
		if err == nil {
			t.Fatalf("protoc accepted a bad parameter:\n%s", b)
		}
		if !strings.Contains(string(b), `option paths="sideways"`) {
			t.Errorf("protoc output does not carry the plugin's error:\n%s", b)
		}
	})
}

// TestBuf runs the plugin (see pluginBinary) under buf generate, when buf
// is on PATH (or named by $BUF), with the buf.gen.yaml the README shows,
// and compares the output with compiler.Compile's. buf compiles edition 2023, which Debian's
// protoc cannot, so this also covers an editions request.
func TestBuf(t *testing.T) {
	buf := os.Getenv("BUF")
	if buf == "" {
		var err error
		if buf, err = exec.LookPath("buf"); err != nil {
			t.Skip("buf not found on PATH or in $BUF (go install github.com/bufbuild/buf/cmd/buf@latest); skipping the buf test")
		}
	}
	if testing.Short() {
		t.Skip("runs buf generate")
	}
	bin, env := pluginBinary(t)
	inputs := map[string]string{"example.proto": filepath.Join(exampleDir(), "example.proto")}
	if shared, ok := gentest.SharedDir(); ok {
		inputs["test_messages_edition2023.proto"] = filepath.Join(shared, "corpus", "protobuf", "conformance", "test_protos", "test_messages_edition2023.proto")
	}
	for name, src := range inputs {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			text, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			gen := "version: v2\nplugins:\n  - local: " + bin + "\n    out: gen\n    opt: paths=source_relative\n"
			for name, content := range map[string]string{name: string(text), "buf.gen.yaml": gen} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command(buf, "generate")
			cmd.Dir = dir
			cmd.Env = append(env, "BUF_CACHE_DIR="+t.TempDir())
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("buf generate: %v\n%s", err, out)
			}
			want := compileOutput(t, compiler.Request{Sources: map[string]string{name: string(text)}, Files: []string{name}}, "paths=source_relative")
			for _, f := range want {
				b, err := os.ReadFile(filepath.Join(dir, "gen", filepath.FromSlash(f.Name)))
				if err != nil {
					t.Fatalf("buf output: %v", err)
				}
				if string(b) != f.Content {
					t.Errorf("%s: buf output differs from compiler.Compile's\n%s", f.Name, firstDiff(string(b), f.Content))
				}
			}
			t.Logf("%s: %d files identical under buf", name, len(want))
		})
	}
}

// --version prints the plugin's name and version and exits 0 (as
// protoc-gen-go's does); other arguments are a usage error that says how
// the plugin is run.
func TestCommandLine(t *testing.T) {
	var out, errb bytes.Buffer
	if code := cli([]string{"--version"}, strings.NewReader(""), &out, &errb); code != 0 || !strings.HasPrefix(out.String(), "protoc-gen-protoplay "+version.String()+" (go1.") || errb.Len() != 0 {
		t.Errorf("--version: exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	out.Reset()
	if code := cli([]string{"-h"}, strings.NewReader(""), &out, &errb); code != 2 || out.Len() != 0 || !strings.Contains(errb.String(), "run it through protoc") {
		t.Errorf("-h: exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
}

// A file using google.type.Date gets code importing protoc-gen-go's
// google.golang.org/genproto/googleapis/type/date, which it cannot build
// against: the plugin answers with the files and a note (on standard
// error, which protoc and buf pass through) naming the file to generate
// too and the --protoplay_opt M option; with that file generated under
// the option, no note. An option-only import (google/api/annotations.proto)
// gets none.
func TestGenprotoNote(t *testing.T) {
	src := map[string]string{"shop/v1/shop.proto": "syntax = \"proto3\";\npackage shop;\nimport \"google/api/annotations.proto\";\nimport \"google/type/date.proto\";\n" +
		"option go_package = \"example.com/shop/v1\";\nmessage Order { google.type.Date placed = 1; }\n" +
		"service Shop { rpc Get(Order) returns (Order) { option (google.api.http) = {get: \"/v1/orders\"}; } }\n"}
	// runtime=import: the files counted are the generated ones only.
	resp, notes := respond(request(t, compiler.Request{Sources: src, Files: []string{"shop/v1/shop.proto"}}, "runtime=import"))
	const m = "Mgoogle/type/date.proto=example.com/shop/v1/google.golang.org/genproto/googleapis/type/date"
	if resp.GetError() != "" || len(resp.GetFile()) != 1 || len(notes) != 1 ||
		!strings.Contains(notes[0], "example.com/shop/v1/shop.pb.go imports google.golang.org/genproto/googleapis/type/date") ||
		!strings.Contains(notes[0], "--protoplay_opt="+m) {
		t.Fatalf("error %q, %d files, notes %q", resp.GetError(), len(resp.GetFile()), notes)
	}
	resp, notes = respond(request(t, compiler.Request{Sources: src, Files: []string{"shop/v1/shop.proto", "google/type/date.proto"}}, m+",runtime=import"))
	if resp.GetError() != "" || len(resp.GetFile()) != 2 || len(notes) != 0 {
		t.Errorf("with date.proto generated under %s: error %q, %d files, notes %q", m, resp.GetError(), len(resp.GetFile()), notes)
	}
}

// TestHybridTwoFiles: with default_api_level=API_HYBRID the plugin
// returns the two files protoc-gen-go returns for a hybrid file, x.pb.go
// (build tag !protoopaque) and x_protoopaque.pb.go (protoopaque), the
// same bytes as compiler.Compile's.
func TestHybridTwoFiles(t *testing.T) {
	const param = "default_api_level=API_HYBRID,runtime=import"
	resp := runRequest(t, request(t, exampleRequest(), param))
	var names []string
	for _, f := range resp.File {
		names = append(names, f.GetName())
	}
	if want := "example.com/addressbook/v1/example.pb.go example.com/addressbook/v1/example_protoopaque.pb.go"; strings.Join(names, " ") != want {
		t.Fatalf("files %q, want %s", names, want)
	}
	if !strings.Contains(resp.File[0].GetContent(), "//go:build !protoopaque\n") || !strings.Contains(resp.File[1].GetContent(), "//go:build protoopaque\n") {
		t.Error("the files lack their build tags")
	}
	sameFiles(t, resp, compileOutput(t, exampleRequest(), param))
}
