package gentest

import (
	"bytes"
	"fmt"
	"os/exec"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/pluginpb"
)

// RunPlugin runs the protoc plugin binary bin on req (see CallPlugin) and
// returns its response; a plugin that fails to run, writes bytes that are
// not a CodeGeneratorResponse or answers with an error fails the test.
func RunPlugin(t *testing.T, bin string, req *pluginpb.CodeGeneratorRequest) *pluginpb.CodeGeneratorResponse {
	t.Helper()
	resp, err := CallPlugin(bin, req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// CallPlugin runs the protoc plugin binary bin on req, as protoc would (the
// request's bytes on standard input, the response's on standard output),
// and returns its response, or an error naming bin when it fails to run
// (with its standard error), writes bytes that are not a
// CodeGeneratorResponse or answers with an error.
func CallPlugin(bin string, req *pluginpb.CodeGeneratorRequest) (*pluginpb.CodeGeneratorResponse, error) {
	in, err := proto.Marshal(req)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s: %v\n%s", bin, err, stderr.String())
	}
	var resp pluginpb.CodeGeneratorResponse
	if err := proto.Unmarshal(out, &resp); err != nil {
		return nil, fmt.Errorf("%s: %v", bin, err)
	}
	if resp.Error != nil {
		return nil, fmt.Errorf("%s: %s", bin, resp.GetError())
	}
	return &resp, nil
}
