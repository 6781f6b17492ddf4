package main

import (
	"fmt"
	"io"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/protoplay/protoplay/compiler"
)

// Editions this plugin accepts: proto2 and proto3 files (which protoc does
// not check against the range) and edition 2023, the newest edition the
// compiler core supports.
const (
	minimumEdition = descriptorpb.Edition_EDITION_PROTO2
	maximumEdition = descriptorpb.Edition_EDITION_2023
)

// run reads one CodeGeneratorRequest from r and writes the response to w.
func run(r io.Reader, w io.Writer) error {
	in, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("reading the request: %w", err)
	}
	req := &pluginpb.CodeGeneratorRequest{}
	if err := proto.Unmarshal(in, req); err != nil {
		return fmt.Errorf("decoding the request: %w", err)
	}
	out, err := proto.Marshal(generate(req))
	if err != nil {
		return fmt.Errorf("encoding the response: %w", err)
	}
	_, err = w.Write(out)
	return err
}

// generate answers a request: the generated files, or an error listing
// every problem as "file:line:col: message" lines. Problems with the input
// never fail the call; they go into the response as protoc expects.
func generate(req *pluginpb.CodeGeneratorRequest) *pluginpb.CodeGeneratorResponse {
	resp := &pluginpb.CodeGeneratorResponse{
		SupportedFeatures: proto.Uint64(uint64(pluginpb.CodeGeneratorResponse_FEATURE_PROTO3_OPTIONAL |
			pluginpb.CodeGeneratorResponse_FEATURE_SUPPORTS_EDITIONS)),
		MinimumEdition: proto.Int32(int32(minimumEdition)),
		MaximumEdition: proto.Int32(int32(maximumEdition)),
	}
	fail := func(msg string) *pluginpb.CodeGeneratorResponse {
		resp.Error = proto.String(msg)
		return resp
	}

	opts, err := compiler.ParseOptions(req.GetParameter())
	if err != nil {
		return fail(err.Error())
	}
	res := compiler.GenerateFromDescriptors(req.GetProtoFile(), req.GetFileToGenerate(), opts)
	if err := res.Err(); err != nil {
		return fail(err.Error())
	}
	for _, f := range res.Generated {
		resp.File = append(resp.File, &pluginpb.CodeGeneratorResponse_File{
			Name:    proto.String(f.Name),
			Content: proto.String(f.Content),
		})
	}
	return resp
}
