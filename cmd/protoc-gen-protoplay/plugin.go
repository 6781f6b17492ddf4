package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/bufbuild/protocompile"
	"github.com/bufbuild/protocompile/reporter"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
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

	opts, err := gogen.ParseOptions(req.GetParameter())
	if err != nil {
		return fail(err.Error())
	}
	if len(req.GetFileToGenerate()) == 0 {
		return fail("no files to generate")
	}
	fds, err := link(req)
	if err != nil {
		return fail(err.Error())
	}

	gen, diags := generateSafe(fds, opts)
	if len(diags) > 0 {
		lines := make([]string, len(diags))
		for i, d := range diags {
			lines[i] = compiler.Diagnostic{File: d.File, Line: d.Line, Column: d.Column,
				Severity: compiler.SeverityError, Message: d.Message}.String()
		}
		return fail(strings.Join(lines, "\n"))
	}
	for _, f := range gen {
		resp.File = append(resp.File, &pluginpb.CodeGeneratorResponse_File{
			Name:    proto.String(f.Name),
			Content: proto.String(f.Content),
		})
	}
	return resp
}

// link turns the request's FileDescriptorProtos into linked descriptors for
// the files to generate.
//
// It links them with protocompile, the linker compiler.Compile uses, rather
// than with protodesc.NewFiles: protodesc refuses MessageSet messages
// (message_set_wire_format, found in test_messages_proto2.proto) unless the
// binary is built with the protolegacy tag, while compiler.Compile accepts
// them; the same linker also means gogen sees the same descriptor
// implementation whichever face asked. Only the request's files are
// consulted: protoc sends the whole import closure.
func link(req *pluginpb.CodeGeneratorRequest) ([]protoreflect.FileDescriptor, error) {
	byName := make(map[string]*descriptorpb.FileDescriptorProto, len(req.GetProtoFile()))
	for _, f := range req.GetProtoFile() {
		byName[f.GetName()] = f
	}
	for _, name := range req.GetFileToGenerate() {
		if byName[name] == nil {
			return nil, fmt.Errorf("%s: not among the request's proto_file entries", name)
		}
	}
	var errs []string
	c := protocompile.Compiler{
		Resolver: protocompile.ResolverFunc(func(name string) (protocompile.SearchResult, error) {
			if f := byName[name]; f != nil {
				return protocompile.SearchResult{Proto: proto.Clone(f).(*descriptorpb.FileDescriptorProto)}, nil
			}
			return protocompile.SearchResult{}, fmt.Errorf("%s: imported but not among the request's proto_file entries", name)
		}),
		Reporter: reporter.NewReporter(func(err reporter.ErrorWithPos) error {
			pos := err.GetPosition()
			errs = append(errs, compiler.Diagnostic{File: pos.Filename, Line: pos.Line, Column: pos.Col,
				Severity: compiler.SeverityError, Message: err.Unwrap().Error()}.String())
			return nil
		}, nil),
		SourceInfoMode: protocompile.SourceInfoStandard, // keeps the request's source_code_info
		MaxParallelism: 1,
	}
	linked, err := c.Compile(context.Background(), req.GetFileToGenerate()...)
	if len(errs) > 0 {
		return nil, errors.New(strings.Join(errs, "\n"))
	}
	if err != nil {
		return nil, err
	}
	fds := make([]protoreflect.FileDescriptor, len(linked))
	for i, f := range linked {
		fds[i] = f
	}
	return fds, nil
}

// generateSafe runs the backend, turning a panic into a diagnostic as
// compiler.Compile does, so protoc reports it instead of a broken pipe.
func generateSafe(fds []protoreflect.FileDescriptor, opts gogen.Options) (files []gogen.File, diags []gogen.Diagnostic) {
	defer func() {
		if p := recover(); p != nil {
			files = nil
			diags = []gogen.Diagnostic{{File: fds[0].Path(), Message: fmt.Sprintf("internal error: %v", p)}}
		}
	}()
	return gogen.Generate(fds, opts)
}
