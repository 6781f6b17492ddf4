package gentest

import (
	"bytes"
	"os/exec"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/pluginpb"
)

// RunPlugin runs the protoc plugin binary bin on req, as protoc would (the
// request's bytes on standard input, the response's on standard output),
// and returns its response; a plugin that fails to run, writes bytes that
// are not a CodeGeneratorResponse or answers with an error fails the test.
func RunPlugin(t *testing.T, bin string, req *pluginpb.CodeGeneratorRequest) *pluginpb.CodeGeneratorResponse {
	t.Helper()
	in, err := proto.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, stderr.String())
	}
	var resp pluginpb.CodeGeneratorResponse
	if err := proto.Unmarshal(out, &resp); err != nil {
		t.Fatal(err)
	}
	if resp.Error != nil {
		t.Fatalf("%s: %s", bin, resp.GetError())
	}
	return &resp
}
