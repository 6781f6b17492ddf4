package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/internal/genprotonote"
)

// Editions this plugin accepts: proto2 and proto3 files (which protoc does
// not check against the range) and editions 2023 and 2024, the newest
// edition the compiler core supports.
const (
	minimumEdition = descriptorpb.Edition_EDITION_PROTO2
	maximumEdition = descriptorpb.Edition_EDITION_2024
)

// run reads one CodeGeneratorRequest from r and writes the response to w.
func run(r io.Reader, w io.Writer) error {
	in, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("reading the request: %w", err)
	}
	req := &pluginpb.CodeGeneratorRequest{}
	if err := proto.Unmarshal(in, req); err != nil {
		// google.golang.org/protobuf says what but not where; the wire
		// view of the request's own schema finds the byte offset.
		res := &compiler.Result{Files: []protoreflect.FileDescriptor{pluginpb.File_google_protobuf_compiler_plugin_proto}}
		if s, serr := res.Schema(); serr == nil {
			if _, werr := s.WireView("google.protobuf.compiler.CodeGeneratorRequest", in); werr != nil {
				return fmt.Errorf("decoding the request (%d bytes): %w", len(in), werr)
			}
		}
		return fmt.Errorf("decoding the request (%d bytes): %w", len(in), err)
	}
	resp, notes := respond(req)
	out, err := proto.Marshal(resp)
	if err != nil {
		return fmt.Errorf("encoding the response: %w", err)
	}
	if _, err = w.Write(out); err != nil {
		return err
	}
	// protoc and buf pass a plugin's standard error through.
	for _, n := range notes {
		fmt.Fprintln(noteOut, "protoc-gen-protoplay:", n)
	}
	return nil
}

// noteOut is where run writes its notes (standard error).
var noteOut io.Writer = os.Stderr

// generate answers a request (see respond), without the notes.
func generate(req *pluginpb.CodeGeneratorRequest) *pluginpb.CodeGeneratorResponse {
	resp, _ := respond(req)
	return resp
}

// respond answers a request: the generated files, or an error listing
// every problem as "file:line:col: message" lines. Problems with the input
// never fail the call; they go into the response as protoc expects. The
// notes are the generated code's imports of protoc-gen-go's googleapis
// packages, which it cannot build against (see genprotonote).
func respond(req *pluginpb.CodeGeneratorRequest) (*pluginpb.CodeGeneratorResponse, []string) {
	resp := &pluginpb.CodeGeneratorResponse{
		SupportedFeatures: proto.Uint64(uint64(pluginpb.CodeGeneratorResponse_FEATURE_PROTO3_OPTIONAL |
			pluginpb.CodeGeneratorResponse_FEATURE_SUPPORTS_EDITIONS)),
		MinimumEdition: proto.Int32(int32(minimumEdition)),
		MaximumEdition: proto.Int32(int32(maximumEdition)),
	}
	fail := func(msg string) (*pluginpb.CodeGeneratorResponse, []string) {
		resp.Error = proto.String(msg)
		return resp, nil
	}

	opts, err := compiler.ParseOptions(req.GetParameter())
	if err != nil {
		return fail(err.Error())
	}
	// runtime=local unless runtime=import, as protoplay gen.
	opts = opts.WithToolDefaults()
	// The well-known types' Go is protoplay's runtime/wkt, which generated
	// code imports: asked for (buf's include_wkt, protoc given
	// google/protobuf/timestamp.proto), they are not generated again,
	// unless an M option places them elsewhere.
	var files, notes []string
	for _, f := range req.GetFileToGenerate() {
		if p, ok := compiler.WellKnownImportPath(f); ok && opts.ImportMap[f] == "" {
			notes = append(notes, "note: "+f+" is not generated: its Go is protoplay's package "+strings.TrimPrefix(p, "github.com/protoplay/protoplay/")+", which generated code imports")
			continue
		}
		files = append(files, f)
	}
	if len(files) == 0 && len(notes) > 0 {
		return resp, notes
	}
	res := compiler.GenerateFromDescriptors(req.GetProtoFile(), files, opts)
	if err := res.Err(); err != nil {
		return fail(err.Error())
	}
	for _, f := range res.Generated {
		resp.File = append(resp.File, &pluginpb.CodeGeneratorResponse_File{
			Name:    proto.String(f.Name),
			Content: proto.String(f.Content),
		})
	}
	for _, n := range genprotonote.Find(res, opts) {
		notes = append(notes, n.Format("--protoplay_opt="))
	}
	if n := genprotonote.Unplaced(res, opts, "--protoplay_opt="); n != "" {
		notes = append(notes, n)
	}
	return resp, notes
}
