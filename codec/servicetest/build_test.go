package servicetest

import (
	"strings"
	"testing"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/internal/gentest"
)

// TestServicesBuild builds and vets service code whose methods use message
// types of other Go packages: two packages with one package name (v1), one
// whose name is a local of the generated code (stream), a well-known type,
// a method named with a Go keyword (type), a deprecated service and method,
// and comments holding directives. The imports must get distinct names and
// the code must build with grpc-go and connect-go.
func TestServicesBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code with grpc-go and connect-go")
	}
	srcs := map[string]string{
		"a/v1/a.proto": `syntax = "proto3";
package a.v1;
option go_package = "example.com/a/v1;v1";
import "b/v1/b.proto";
import "s/s.proto";
import "google/protobuf/empty.proto";
message A { string x = 1; }
//go:generate echo not a directive
// Svc spans packages.
service Svc {
  option deprecated = true;
  rpc Get(b.v1.B) returns (A);
  rpc type(google.protobuf.Empty) returns (stream s.S) { option deprecated = true; option idempotency_level = IDEMPOTENT; }
  rpc Put(stream s.S) returns (google.protobuf.Empty);
  rpc Both(stream b.v1.B) returns (stream A);
}
service Empty {}
`,
		"b/v1/b.proto": `syntax = "proto3";
package b.v1;
option go_package = "example.com/b/v1;v1";
message B { int32 y = 1; }
`,
		"s/s.proto": `syntax = "proto3";
package s;
option go_package = "example.com/s;stream";
message S { bytes z = 1; }
`,
	}
	_, gen := gentest.Generate(t, compiler.Request{
		Sources: srcs,
		Files:   []string{"a/v1/a.proto", "b/v1/b.proto", "s/s.proto"},
		Options: compiler.Options{GRPC: true, Connect: true},
	})
	// The gRPC file's own package name is in no scope; "stream" is a local
	// of its code. The Connect file imports both v1 packages.
	want := map[string]string{
		"a_grpc.pb.go": `stream1 "gentest/example.com/s"`,
		"a.connect.go": `v11 "gentest/example.com/b/v1"`,
	}
	for _, f := range gen {
		for suffix, imp := range want {
			if strings.HasSuffix(f.Name, "/"+suffix) {
				if !strings.Contains(f.Content, imp) {
					t.Errorf("%s lacks the import %s", f.Name, imp)
				}
				delete(want, suffix)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("not generated: %v", want)
	}
	dir := gentest.WriteModule(t, gen, map[string]string{"go.mod": tempGoMod(t), "go.sum": codecSum(t)}, false)
	if out, err := gentest.Go(t, dir, "vet", "./..."); err != nil {
		t.Fatalf("go vet: %v\n%s", err, out)
	}
}
