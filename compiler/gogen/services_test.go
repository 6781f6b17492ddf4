package gogen_test

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
)

func TestServicesOption(t *testing.T) {
	for _, tc := range []struct {
		param         string
		grpc, connect bool
		str           string
	}{
		{"", false, false, ""},
		{"services=none", false, false, ""},
		{"services=grpc", true, false, "services=grpc"},
		{"services=connect", false, true, "services=connect"},
		{"services=grpc+connect", true, true, "services=grpc+connect"},
		{"services=connect+grpc", true, true, "services=grpc+connect"},
		{"services=grpc,services=connect", true, true, "services=grpc+connect"},
		{"services=grpc,services=none", false, false, ""},
	} {
		o, err := gogen.ParseOptions(tc.param)
		if err != nil {
			t.Fatalf("%q: %v", tc.param, err)
		}
		if o.GRPC != tc.grpc || o.Connect != tc.connect || o.String() != tc.str {
			t.Errorf("%q: GRPC=%v Connect=%v String=%q, want %v %v %q", tc.param, o.GRPC, o.Connect, o.String(), tc.grpc, tc.connect, tc.str)
		}
	}
	for _, bad := range []string{"services=rest", "services=", "services=grpc+", "services=GRPC"} {
		if _, err := gogen.ParseOptions(bad); err == nil || !strings.Contains(err.Error(), "services") {
			t.Errorf("%q: err = %v, want one naming services", bad, err)
		}
	}
}

const echoProto = `syntax = "proto3";
package echo.v1;
option go_package = "example.com/echo/echov1";
message Req { string text = 1; }
message Res { string text = 1; }
// Echo echoes.
service Echo {
  // Say is unary.
  rpc Say(Req) returns (Res);
  rpc Collect(stream Req) returns (Res);
  rpc Expand(Req) returns (stream Res);
  rpc Chat(stream Req) returns (stream Res);
}
`

func generate(t *testing.T, srcs map[string]string, param string) (*compiler.Result, []string) {
	t.Helper()
	o, err := gogen.ParseOptions(param)
	if err != nil {
		t.Fatal(err)
	}
	res := compiler.Compile(context.Background(), compiler.Request{Sources: srcs, Options: o})
	var names []string
	for _, f := range res.Generated {
		names = append(names, f.Name)
	}
	sort.Strings(names)
	return res, names
}

// Service files go where protoc-gen-go-grpc and protoc-gen-connect-go put
// theirs: foo_grpc.pb.go beside foo.pb.go, NAMEconnect/foo.connect.go below.
func TestServiceFiles(t *testing.T) {
	src := map[string]string{"api/echo.proto": echoProto}
	for _, tc := range []struct {
		param string
		want  string
	}{
		{"", "example.com/echo/echov1/echo.pb.go"},
		{"services=grpc", "example.com/echo/echov1/echo.pb.go example.com/echo/echov1/echo_grpc.pb.go"},
		{"services=connect", "example.com/echo/echov1/echo.pb.go example.com/echo/echov1/echov1connect/echo.connect.go"},
		{"services=grpc+connect,paths=source_relative", "api/echo.pb.go api/echo_grpc.pb.go api/echov1connect/echo.connect.go"},
		{"services=grpc+connect,module=example.com/echo", "echov1/echo.pb.go echov1/echo_grpc.pb.go echov1/echov1connect/echo.connect.go"},
	} {
		res, names := generate(t, src, tc.param)
		if err := res.Err(); err != nil {
			t.Fatalf("%q: %v", tc.param, err)
		}
		if got := strings.Join(names, " "); got != tc.want {
			t.Errorf("%q: files %s, want %s", tc.param, got, tc.want)
		}
		for _, f := range res.Generated {
			switch {
			case strings.HasSuffix(f.Name, "_grpc.pb.go"):
				for _, want := range []string{"package echov1\n", "func NewEchoClient(cc grpc.ClientConnInterface) EchoClient",
					"func RegisterEchoServer(s grpc.ServiceRegistrar, srv EchoServer)", `= "/echo.v1.Echo/Say"`,
					"// Say is unary.", "// Echo echoes.", "type UnimplementedEchoServer struct{}",
					"Chat(grpc.BidiStreamingServer[Req, Res]) error", "Expand(*Req, grpc.ServerStreamingServer[Res]) error"} {
					if !strings.Contains(f.Content, want) {
						t.Errorf("%q: %s lacks %q", tc.param, f.Name, want)
					}
				}
				if strings.Contains(f.Content, "func init()") || strings.Contains(f.Content, "RegisterCodec") {
					t.Errorf("%s registers something at init", f.Name)
				}
			case strings.HasSuffix(f.Name, ".connect.go"):
				for _, want := range []string{"package echov1connect\n", `EchoSayProcedure = "/echo.v1.Echo/Say"`,
					"func NewEchoHandler(svc EchoHandler, opts ...connect.HandlerOption) (string, http.Handler)",
					"connect.WithCodec(connectcodec.Codec{})", "Say(ctx context.Context, req *connect.Request[echov1.Req]) (*connect.Response[echov1.Res], error)"} {
					if !strings.Contains(f.Content, want) {
						t.Errorf("%q: %s lacks %q", tc.param, f.Name, want)
					}
				}
			case tc.param == "":
				if !strings.Contains(f.Content, "Services (Echo) produce code with the option services=grpc") {
					t.Errorf("no note on the services option in %s", f.Name)
				}
			}
		}
	}
}

// Names the service code declares meet the schema's like any other
// package-level declaration: a collision is a positioned diagnostic, and
// only when that code is generated.
func TestServiceNameCollisions(t *testing.T) {
	for _, tc := range []struct {
		name, src, param, want string
	}{
		{"client type vs message", "syntax = \"proto3\";\npackage p;\nmessage EchoClient {}\nservice Echo { rpc Say(EchoClient) returns (EchoClient); }\n",
			"services=grpc", "Go identifier EchoClient for gRPC declaration of service p.Echo collides with message p.EchoClient"},
		{"desc vs message", "syntax = \"proto3\";\npackage p;\nmessage Echo_ServiceDesc {}\nservice Echo { rpc Say(Echo_ServiceDesc) returns (Echo_ServiceDesc); }\n",
			"services=grpc", "Echo_ServiceDesc"},
		{"two services in connect", "syntax = \"proto3\";\npackage p;\nmessage M {}\nservice A { rpc BC(M) returns (M); }\nservice AB { rpc C(M) returns (M); }\n",
			"services=connect", "Go identifier ABCProcedure for Connect declaration of method p.AB.C collides with Connect declaration of method p.A.BC"},
		{"method names", "syntax = \"proto3\";\npackage p;\nmessage M {}\nservice S { rpc foo_bar(M) returns (M); rpc FooBar(M) returns (M); }\n",
			"services=grpc", "Go method name FooBar for method p.S.FooBar collides with method p.S.foo_bar"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := map[string]string{"p.proto": tc.src}
			if res, _ := generate(t, src, ""); res.Err() != nil {
				t.Fatalf("without services: %v", res.Err())
			}
			res, _ := generate(t, src, tc.param)
			if res.Err() == nil {
				t.Fatalf("no error")
			}
			found := false
			for _, d := range res.Diagnostics {
				if strings.Contains(d.Message, tc.want) {
					found = true
					if d.Line == 0 {
						t.Errorf("diagnostic has no position: %+v", d)
					}
				}
			}
			if !found {
				t.Errorf("diagnostics %+v lack %q", res.Diagnostics, tc.want)
			}
		})
	}
}

// A gRPC file lives in its messages' package, so the packages of its
// methods' types are imports of that package: a cycle through them is
// reported. Connect code, a package of its own, adds none.
func TestServiceImportCycle(t *testing.T) {
	src := map[string]string{
		"a.proto": "syntax = \"proto3\";\npackage a;\noption go_package = \"example.com/a\";\nimport \"b.proto\";\nmessage A {}\nservice S { rpc Get(b.B) returns (A); }\n",
		"b.proto": "syntax = \"proto3\";\npackage b;\noption go_package = \"example.com/b\";\nimport \"c.proto\";\nmessage B { c.C c = 1; }\n",
		"c.proto": "syntax = \"proto3\";\npackage c;\noption go_package = \"example.com/a\";\nmessage C {}\n",
	}
	if res, _ := generate(t, src, "services=connect"); res.Err() != nil {
		t.Fatalf("connect: %v", res.Err())
	}
	res, _ := generate(t, src, "services=grpc")
	if err := res.Err(); err == nil || !strings.Contains(err.Error(), "Go import cycle") {
		t.Fatalf("grpc: err = %v, want an import cycle", err)
	}
}

// Two generated files must not share a path: foo_grpc.proto's .pb.go and
// foo.proto's gRPC file.
func TestServiceOutputCollision(t *testing.T) {
	src := map[string]string{
		"foo.proto":      "syntax = \"proto3\";\npackage p;\noption go_package = \"example.com/p\";\nmessage M {}\nservice S { rpc Get(M) returns (M); }\n",
		"foo_grpc.proto": "syntax = \"proto3\";\npackage p;\noption go_package = \"example.com/p\";\nmessage N {}\n",
	}
	if res, _ := generate(t, src, ""); res.Err() != nil {
		t.Fatal(res.Err())
	}
	res, _ := generate(t, src, "services=grpc")
	if err := res.Err(); err == nil || !strings.Contains(err.Error(), "foo_grpc.pb.go is also generated") {
		t.Fatalf("err = %v", err)
	}
}
