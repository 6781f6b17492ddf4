package main

import (
	"sort"
	"strings"
	"testing"

	"github.com/protoplay/protoplay/compiler"
)

// The plugin takes the services= option as protoc-gen-go-grpc and
// protoc-gen-connect-go users pass theirs (--protoplay_opt=services=grpc,
// buf's opt: services=grpc+connect) and answers with the service files.
// Service code imports github.com/protoplay/protoplay/codec, so with
// services= the runtime is imported too (no runtime=local default).
func TestServicesOption(t *testing.T) {
	src := map[string]string{"api/echo.proto": `syntax = "proto3";
package echo.v1;
option go_package = "example.com/echo/echov1";
message Req {}
// Echo echoes.
service Echo { rpc Say(Req) returns (Req); rpc Chat(stream Req) returns (stream Req); }
`}
	for _, tc := range []struct{ param, want string }{
		{"runtime=import", "example.com/echo/echov1/echo.pb.go"},
		{"paths=source_relative,services=grpc", "api/echo.pb.go api/echo_grpc.pb.go"},
		{"paths=source_relative,services=grpc,services=connect", "api/echo.pb.go api/echo_grpc.pb.go api/echov1connect/echo.connect.go"},
		{"services=grpc+connect", "example.com/echo/echov1/echo.pb.go example.com/echo/echov1/echo_grpc.pb.go example.com/echo/echov1/echov1connect/echo.connect.go"},
	} {
		resp := generate(request(t, compiler.Request{Sources: src, Files: []string{"api/echo.proto"}}, tc.param))
		if resp.Error != nil {
			t.Fatalf("%q: %s", tc.param, resp.GetError())
		}
		var names []string
		for _, f := range resp.File {
			names = append(names, f.GetName())
			if strings.HasSuffix(f.GetName(), "_grpc.pb.go") && !strings.Contains(f.GetContent(), "// Echo echoes.") {
				t.Errorf("%q: %s lost the service comment", tc.param, f.GetName())
			}
		}
		sort.Strings(names)
		if got := strings.Join(names, " "); got != tc.want {
			t.Errorf("%q: files %s, want %s", tc.param, got, tc.want)
		}
	}
	if resp := generate(request(t, compiler.Request{Sources: src, Files: []string{"api/echo.proto"}}, "services=rest")); !strings.Contains(resp.GetError(), "services") {
		t.Errorf("services=rest: error %q", resp.GetError())
	}
}
