package compiler_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/internal/gentest"
)

// BenchmarkCompileSmall is the playground's per-keystroke cost for a tiny
// schema: parse, link and generate.
func BenchmarkCompileSmall(b *testing.B) {
	srcs := map[string]string{"a.proto": "syntax = \"proto3\";\npackage a;\nmessage M { int32 a = 1; string s = 2; }\n"}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if res := compiler.Compile(context.Background(), compiler.Request{Sources: srcs}); res.Err() != nil {
			b.Fatal(res.Err())
		}
	}
}

// BenchmarkCompileLarge compiles a ~900-line googleapis file with its
// imports (google/privacy/dlp/v2/storage.proto).
func BenchmarkCompileLarge(b *testing.B) {
	shared, ok := gentest.SharedDir()
	if !ok {
		b.Skip("../shared is absent")
	}
	corpus := filepath.Join(shared, "corpus")
	fsys := os.DirFS(corpus)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		res := compiler.Compile(context.Background(), compiler.Request{FS: fsys, ImportPaths: []string{"googleapis", "protobuf"},
			Files: []string{"google/privacy/dlp/v2/storage.proto"}})
		if res.Err() != nil {
			b.Fatal(res.Err())
		}
	}
}

// BenchmarkWorkspaceEditDLP is the playground's cost of an edit to a big
// schema: google/privacy/dlp/v2/dlp.proto (9,255 lines, in
// ../shared/corpus) beside storage.proto, compiled once in a Workspace
// and then, per iteration, recompiled with a one-line edit inside one
// message (a new comment each time, so the edited message is printed again). The
// reported time is one edit -> new Go, with the workspace's caches warm.
func BenchmarkWorkspaceEditDLP(b *testing.B) {
	shared, ok := gentest.SharedDir()
	if !ok {
		b.Skip("../shared is absent")
	}
	root := filepath.Join(shared, "corpus", "googleapis")
	const sp, dp = "google/privacy/dlp/v2/storage.proto", "google/privacy/dlp/v2/dlp.proto"
	storage, err := os.ReadFile(filepath.Join(root, sp))
	if err != nil {
		b.Skipf("../shared/corpus has no %s: %v", sp, err)
	}
	dlp, err := os.ReadFile(filepath.Join(root, dp))
	if err != nil {
		b.Skipf("../shared/corpus has no %s: %v", dp, err)
	}
	w := &compiler.Workspace{}
	gen := func(dlpText string) {
		res, err := w.Generate(context.Background(), compiler.CompileRequest{Files: compiler.Sources{sp: string(storage), dp: dlpText}})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Generated) == 0 {
			b.Fatalf("no output: %v", res.Diagnostics)
		}
	}
	gen(string(dlp)) // the first compile, cold
	const anchor = "message InspectConfig {\n"
	if !strings.Contains(string(dlp), anchor) {
		b.Fatalf("%s has no %q", dp, anchor)
	}
	var took []time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	// The edits run under the pprof label phase=edit, so that
	// -cpuprofile with `go tool pprof -tagfocus phase=edit` shows them
	// without the first compile.
	pprof.Do(context.Background(), pprof.Labels("phase", "edit"), func(context.Context) {
		for i := 0; i < b.N; i++ {
			t0 := time.Now()
			gen(strings.Replace(string(dlp), anchor, anchor+"  // edit "+strconv.Itoa(i)+"\n", 1))
			took = append(took, time.Since(t0))
		}
	})
	// Medians and p95 over the edits, beside the mean that ns/op is.
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2])/1e6, "p50-ms")
	b.ReportMetric(float64(took[(len(took)*95+99)/100-1])/1e6, "p95-ms")
}
