package gogen_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/protoplay/protoplay/compiler"
)

// parallelSources is a run of many files over three Go packages that
// import one another (c imports b, b imports a) and the well-known types, with services, oneofs, maps
// and nested types: the printing goroutines of renderParallel each take
// files of every package.
func parallelSources(n int) map[string]string {
	srcs := map[string]string{}
	for i := range n {
		pkg := []string{"a", "b", "c"}[3*i/n]
		var b strings.Builder
		fmt.Fprintf(&b, "syntax = \"proto3\";\npackage p.%s;\noption go_package = \"example.com/m/%s\";\n", pkg, pkg)
		b.WriteString("import \"google/protobuf/timestamp.proto\";\n")
		if i > 0 {
			fmt.Fprintf(&b, "import \"f%d.proto\";\n", i-1)
		}
		fmt.Fprintf(&b, "enum E%d { E%d_ZERO = 0; E%d_ONE = 1; }\n", i, i, i)
		fmt.Fprintf(&b, "message M%d {\n  string s = 1;\n  map<string, int64> m = 2;\n  oneof o { int32 x = 3; string y = 4; }\n", i)
		fmt.Fprintf(&b, "  google.protobuf.Timestamp at = 5;\n  repeated E%d es = 6;\n  message N { optional bytes b = 1; }\n  N n = 7;\n", i)
		if i > 0 {
			prev := []string{"a", "b", "c"}[3*(i-1)/n]
			fmt.Fprintf(&b, "  p.%s.M%d prev = 8;\n", prev, i-1)
		}
		b.WriteString("}\n")
		fmt.Fprintf(&b, "service S%d { rpc Do(M%d) returns (M%d); }\n", i, i, i)
		srcs[fmt.Sprintf("f%d.proto", i)] = b.String()
	}
	return srcs
}

// TestParallelRenderMatchesSerial: files printed on several goroutines
// (renderParallel, used when GOMAXPROCS > 1 and there is no piece cache)
// come out byte for byte as printed one after another on one, for each
// API level (hybrid files print twice), with services and runtime=local;
// and an output limit met on any goroutine stops the run with the limit's
// one diagnostic, as it does on one.
func TestParallelRenderMatchesSerial(t *testing.T) {
	srcs := parallelSources(24)
	gen := func(procs int, param string, limits compiler.Limits) *compiler.Result {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		opts, err := compiler.ParseOptions(param)
		if err != nil {
			t.Fatal(err)
		}
		return compiler.Compile(context.Background(), compiler.Request{Sources: srcs, Options: opts, Limits: limits})
	}
	for _, param := range []string{
		"services=grpc+connect",
		"default_api_level=API_OPAQUE,services=grpc",
		"default_api_level=API_HYBRID,apilevelMf3.proto=API_OPEN",
		"runtime=local,module=example.com/m",
	} {
		serial := gen(1, param, compiler.Limits{})
		if err := serial.Err(); err != nil {
			t.Fatalf("%s: %v", param, err)
		}
		size := 0
		for _, f := range serial.Generated {
			size += len(f.Content)
		}
		for _, procs := range []int{2, 5} {
			par := gen(procs, param, compiler.Limits{})
			if err := par.Err(); err != nil {
				t.Fatalf("%s, GOMAXPROCS %d: %v", param, procs, err)
			}
			if len(par.Generated) != len(serial.Generated) {
				t.Fatalf("%s, GOMAXPROCS %d: %d files, serially %d", param, procs, len(par.Generated), len(serial.Generated))
			}
			for i, f := range par.Generated {
				if s := serial.Generated[i]; f.Name != s.Name || f.Content != s.Content {
					t.Errorf("%s, GOMAXPROCS %d: %s differs from the serial run's %s", param, procs, f.Name, s.Name)
				}
			}
			res := gen(procs, param, compiler.Limits{MaxOutputBytes: size / 2})
			if len(res.Generated) != 0 || len(res.Diagnostics) != 1 || !strings.Contains(res.Diagnostics[0].Message, "MaxOutputBytes") {
				t.Errorf("%s, GOMAXPROCS %d, output limit %d: %d files, diagnostics %v", param, procs, size/2, len(res.Generated), res.Diagnostics)
			}
		}
	}
}
