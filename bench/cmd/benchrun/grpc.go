package main

import (
	"bytes"
	"context"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/pluginpb"

	"github.com/protoplay/protoplay/compiler"
)

// The gRPC row: one unary call of testdata/grpc.proto's Bench.Echo, the
// mixed message both ways, over an in-process grpc-go connection (bufconn),
// with protoplay's messages and services=grpc code (and grpccodec) against
// protoc-gen-go's messages and protoc-gen-go-grpc's code (and grpc's own
// codec). Both sides set up the same server and connection; only the
// generated code and the codec differ. Generated into gen/grpcbench, run in
// a go test invocation of its own.

const grpcBenchDir = "gen/grpcbench"

// grpcbench is a module of its own (gen/grpcbench/go.mod), so that grpc-go
// and the codec module stay out of the bench module's dependencies (grpc-go
// would move vtprotobuf's runtime to another version).
const grpcBenchModule = "grpcbench"

// generateGRPC generates both peers' code for testdata/grpc.proto and
// mixed.proto into gen/grpcbench, with the benchmark and a go.mod.
func generateGRPC() error {
	os.RemoveAll(grpcBenchDir)
	srcs := map[string]string{}
	for _, name := range []string{"grpc.proto", "mixed.proto"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			return err
		}
		srcs[name] = string(b)
	}
	mapping := func(p Peer) map[string]string {
		return map[string]string{
			"grpc.proto":  grpcBenchModule + "/" + p.Dir + "/svc;svc",
			"mixed.proto": grpcBenchModule + "/" + p.Dir + "/mixed;mixed",
		}
	}
	// protoplay, services=grpc.
	res := compiler.Compile(context.Background(), compiler.Request{
		Sources: srcs,
		Files:   []string{"mixed.proto", "grpc.proto"},
		Options: compiler.Options{Module: grpcBenchModule, GRPC: true, ImportMap: mapping(PeerPP)},
	})
	if err := res.Err(); err != nil {
		return fmt.Errorf("grpc.proto: protoplay: %v", err)
	}
	for _, f := range res.Generated {
		if err := writeFile(filepath.Join(grpcBenchDir, filepath.FromSlash(f.Name)), f.Content); err != nil {
			return err
		}
	}
	// protoc-gen-go and protoc-gen-go-grpc, through CodeGeneratorRequests.
	var fdps []*descriptorpb.FileDescriptorProto
	for _, name := range []string{"mixed.proto", "grpc.proto"} {
		for _, fd := range res.Files {
			if fd.Path() == name {
				fdps = append(fdps, protodesc.ToFileDescriptorProto(fd))
			}
		}
	}
	param := "module=" + grpcBenchModule
	for k, v := range mapping(PeerPG) {
		param += ",M" + k + "=" + v
	}
	for _, plugin := range []struct {
		name  string
		files []string
	}{{"protoc-gen-go", []string{"mixed.proto", "grpc.proto"}}, {"protoc-gen-go-grpc", []string{"grpc.proto"}}} {
		req := &pluginpb.CodeGeneratorRequest{FileToGenerate: plugin.files, Parameter: proto.String(param), ProtoFile: fdps}
		in, err := proto.Marshal(req)
		if err != nil {
			return err
		}
		bin, _ := filepath.Abs(filepath.Join("gen", "bin", plugin.name))
		cmd := exec.Command(bin)
		cmd.Stdin = bytes.NewReader(in)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%s: %v", plugin.name, err)
		}
		var resp pluginpb.CodeGeneratorResponse
		if err := proto.Unmarshal(out.Bytes(), &resp); err != nil || resp.Error != nil {
			return fmt.Errorf("%s: %v %s", plugin.name, err, resp.GetError())
		}
		for _, f := range resp.File {
			if err := writeFile(filepath.Join(grpcBenchDir, filepath.FromSlash(f.GetName())), f.GetContent()); err != nil {
				return err
			}
		}
	}
	root, err := filepath.Abs("..")
	if err != nil {
		return err
	}
	gomod := "module " + grpcBenchModule + "\n\ngo 1.26\n\nrequire (\n" +
		"\tgithub.com/protoplay/protoplay v0.0.0\n\tgithub.com/protoplay/protoplay/codec v0.0.0\n" +
		"\tgoogle.golang.org/grpc v1.85.0\n\tgoogle.golang.org/protobuf v1.36.12\n)\n\n" +
		"replace github.com/protoplay/protoplay => " + root + "\n\n" +
		"replace github.com/protoplay/protoplay/codec => " + filepath.Join(root, "codec") + "\n"
	if err := writeFile(filepath.Join(grpcBenchDir, "go.mod"), gomod); err != nil {
		return err
	}
	sum, err := os.ReadFile(filepath.Join(root, "codec", "go.sum"))
	if err != nil {
		return err
	}
	if err := writeFile(filepath.Join(grpcBenchDir, "go.sum"), string(sum)); err != nil {
		return err
	}
	mod := func(p Peer, pkg string) string { return grpcBenchModule + "/" + p.Dir + "/" + pkg }
	src := strings.NewReplacer("PPMIXED", mod(PeerPP, "mixed"), "PGMIXED", mod(PeerPG, "mixed"),
		"PPSVC", mod(PeerPP, "svc"), "PGSVC", mod(PeerPG, "svc"),
		"PPLITERAL", strings.ReplaceAll(mixedLiteral, "P.", "ppm."), "PGLITERAL", strings.ReplaceAll(mixedLiteral, "P.", "pgm.")).Replace(grpcBenchTemplate)
	formatted, err := format.Source([]byte(src))
	if err != nil {
		return fmt.Errorf("grpc bench: %v", err)
	}
	return writeFile(filepath.Join(grpcBenchDir, "bench_test.go"), string(formatted))
}

const grpcBenchTemplate = `// Code generated by bench/cmd/benchrun. DO NOT EDIT.

package grpcbench

import (
	"context"
	"net"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	"github.com/protoplay/protoplay/codec/grpccodec"

	ppm "PPMIXED"
	pp "PPSVC"
	pgm "PGMIXED"
	pg "PGSVC"
)

var (
	pInt32 = func(v int32) *int32 { return &v }(7)
	blob   = []byte("seven bytes")
)

type ppServer struct{ pp.UnimplementedBenchServer }

func (ppServer) Echo(_ context.Context, m *ppm.Mixed) (*ppm.Mixed, error) { return m, nil }

type pgServer struct{ pg.UnimplementedBenchServer }

func (pgServer) Echo(_ context.Context, m *pgm.Mixed) (*pgm.Mixed, error) { return m, nil }

// connect starts a grpc-go server on an in-process listener and returns a
// client connection to it.
func connect(b *testing.B, register func(*grpc.Server), sopts []grpc.ServerOption, copts []grpc.DialOption) *grpc.ClientConn {
	lis := bufconn.Listen(1 << 20)
	s := grpc.NewServer(sopts...)
	register(s)
	go s.Serve(lis)
	b.Cleanup(s.Stop)
	copts = append(copts,
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	cc, err := grpc.NewClient("passthrough:///bufnet", copts...)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cc.Close() })
	return cc
}

func BenchmarkGRPCUnary(b *testing.B) {
	ctx := context.Background()
	b.Run("mixed/pp", func(b *testing.B) {
		// protoplay's codec per server and connection; grpccodec.Register()
		// would do the same for the whole program.
		cc := connect(b, func(s *grpc.Server) { pp.RegisterBenchServer(s, ppServer{}) },
			[]grpc.ServerOption{grpc.ForceServerCodecV2(grpccodec.Codec{})},
			[]grpc.DialOption{grpc.WithDefaultCallOptions(grpc.ForceCodecV2(grpccodec.Codec{}))})
		c := pp.NewBenchClient(cc)
		req := &ppm.Mixed{
PPLITERAL	}
		if res, err := c.Echo(ctx, req); err != nil || !res.Equal(req) {
			b.Fatalf("echo: %v", err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := c.Echo(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("mixed/pg", func(b *testing.B) {
		cc := connect(b, func(s *grpc.Server) { pg.RegisterBenchServer(s, pgServer{}) }, nil, nil)
		c := pg.NewBenchClient(cc)
		req := &pgm.Mixed{
PGLITERAL	}
		if _, err := c.Echo(ctx, req); err != nil {
			b.Fatalf("echo: %v", err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := c.Echo(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
	})
}
`

// runGRPCBench runs the gRPC row and returns go test's output.
func runGRPCBench() (string, error) {
	args := []string{"test", "-run", "^$", "-bench", "GRPC", "-benchmem",
		"-count", strconv.Itoa(*flagCount), "-benchtime", *flagBenchtime, "."}
	cmd := exec.Command("go", args...)
	cmd.Dir = grpcBenchDir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("go test in %s: %v\n%s", grpcBenchDir, err, out.String())
	}
	os.WriteFile(filepath.Join("gen", "grpc-bench.txt"), out.Bytes(), 0o644)
	return out.String(), nil
}

// printGRPC prints the gRPC row from go test's output.
func printGRPC(pf func(string, ...any), out string) {
	r, _ := parseBench(out)
	a, ok1 := r.med("GRPCUnary", "mixed", PeerPG.Dir, "ns/op")
	b, ok2 := r.med("GRPCUnary", "mixed", PeerPP.Dir, "ns/op")
	if !ok1 || !ok2 {
		return
	}
	ab, _ := r.med("GRPCUnary", "mixed", PeerPG.Dir, "B/op")
	aa, _ := r.med("GRPCUnary", "mixed", PeerPG.Dir, "allocs/op")
	bb, _ := r.med("GRPCUnary", "mixed", PeerPP.Dir, "B/op")
	ba, _ := r.med("GRPCUnary", "mixed", PeerPP.Dir, "allocs/op")
	pf("\n### gRPC: one unary call (grpc-go, in-process bufconn connection), the mixed message both ways\n\n")
	pf("protoc-gen-go = protoc-gen-go + protoc-gen-go-grpc with grpc's codec; protoplay = services=grpc with grpccodec. Client and server in one process: the times include both sides' encode and decode.\n\n")
	pf("| row | message | protoc-gen-go ns/op | protoplay ns/op | ratio | protoc-gen-go B/op, allocs | protoplay B/op, allocs | alloc ratio |\n|---|---|---:|---:|---:|---:|---:|---:|\n")
	pf("| grpc unary call | mixed | %s | %s | **%s** | %s B, %s | %s B, %s | %s |\n", num(a), num(b), ratio(b, a), num(ab), num(aa), num(bb), num(ba), ratio(ba, aa))
}
