package compiler_test

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"runtime"
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
// message (a new comment each time, so the edited message is printed
// again). Sub-benchmarks: "go" is one edit -> new Go (Workspace.Generate,
// the page's edit) with the workspace's caches warm; "check" is the same
// edit -> diagnostics only (Workspace.Compile: parse and link, no Go), the
// frontend's share; "call" is "go" as the page's Worker makes it, through
// Workspace.CallFiles (JSON request and result, a time limit, the Go as
// changes to the files held). Each reports the mean (ns/op) and p50-ms and p95-ms
// over its edits, and cpu-p50-ms and cpu-p95-ms, the same of the
// process's CPU time per edit (getrusage; in Node, process.cpuUsage),
// which a loaded machine inflates less. Run with -benchtime 20x or more for stable percentiles;
// under GOOS=js GOARCH=wasm with -exec=$(go env GOROOT)/lib/wasm/go_js_wasm_exec
// (and GOGC=1000, as the wasm bridge sets) it measures the core in Node.
// Before each edit, untimed, it collects garbage, as the bridge does when
// the calls pause.
func BenchmarkWorkspaceEditDLP(b *testing.B) {
	const sp, dp = "google/privacy/dlp/v2/storage.proto", "google/privacy/dlp/v2/dlp.proto"
	files := readCorpus(b, sp, dp)
	const anchor = "message InspectConfig {\n"
	if !strings.Contains(files[dp], anchor) {
		b.Fatalf("%s has no %q", dp, anchor)
	}
	benchEdits(b, files, func(i int) (string, string) {
		return dp, strings.Replace(files[dp], anchor, anchor+"  // edit "+strconv.Itoa(i)+"\n", 1)
	})
}

// BenchmarkWorkspaceEditStorage is BenchmarkWorkspaceEditDLP for the page's
// "large googleapis file" session: google/privacy/dlp/v2/storage.proto
// (919 lines) beside google/api/resource.proto, with the edit the page's
// measurement makes (site TestMeasure): a comment line appended to
// storage.proto (a new one each time).
func BenchmarkWorkspaceEditStorage(b *testing.B) {
	const sp, rp = "google/privacy/dlp/v2/storage.proto", "google/api/resource.proto"
	files := readCorpus(b, sp, rp)
	benchEdits(b, files, func(i int) (string, string) {
		return sp, files[sp] + "// edit " + strconv.Itoa(i) + "\n"
	})
}

// readCorpus reads the named files of ../shared/corpus/googleapis, or
// skips b.
func readCorpus(b *testing.B, names ...string) compiler.Sources {
	shared, ok := gentest.SharedDir()
	if !ok {
		b.Skip("../shared is absent")
	}
	root := filepath.Join(shared, "corpus", "googleapis")
	files := compiler.Sources{}
	for _, n := range names {
		t, err := os.ReadFile(filepath.Join(root, n))
		if err != nil {
			b.Skipf("../shared/corpus has no %s: %v", n, err)
		}
		files[n] = string(t)
	}
	return files
}

// benchEdits compiles files once in a Workspace (cold), then, per
// iteration, with edit(i) (a file's name and new text) applied, in the
// sub-benchmarks "go" (Workspace.Generate), "check" (Workspace.Compile)
// and "call" (generate through Workspace.CallFiles), reporting p50-ms and p95-ms beside the mean.
func benchEdits(b *testing.B, files compiler.Sources, edit func(i int) (name, text string)) {
	for _, mode := range []string{"go", "check", "call"} {
		b.Run(mode, func(b *testing.B) {
			w := &compiler.Workspace{}
			have := map[string]string{} // "call": the revs of the Go held
			run := func(srcs compiler.Sources) {
				if mode == "call" {
					// The page's generate, as the wasm bridge makes it:
					// JSON in and out, sources apart, a time limit, and
					// the Go asked for as changes to the files held.
					req, err := json.Marshal(map[string]any{"options": "", "limits": map[string]any{"timeoutMs": 10000}, "have": have})
					if err != nil {
						b.Fatal(err)
					}
					out, cerr := w.CallFiles(context.Background(), "generate", req, srcs)
					if cerr != nil {
						b.Fatal(cerr)
					}
					var res compiler.CompileResult
					if err := json.Unmarshal(out, &res); err != nil {
						b.Fatal(err)
					}
					if len(res.Messages) == 0 || len(res.Changes) == 0 {
						b.Fatalf("no output: %v", res.Diagnostics)
					}
					for _, c := range res.Changes {
						have[c.Name] = c.Rev
					}
					return
				}
				req := compiler.CompileRequest{Files: srcs}
				var res *compiler.CompileResult
				var err error
				if mode == "go" {
					res, err = w.Generate(context.Background(), req)
				} else {
					res, err = w.Compile(context.Background(), req)
				}
				if err != nil {
					b.Fatal(err)
				}
				if len(res.Messages) == 0 || (mode == "go" && len(res.Generated) == 0) {
					b.Fatalf("no output: %v", res.Diagnostics)
				}
			}
			run(maps.Clone(files)) // the first compile, cold
			var took, cpu []time.Duration
			b.ReportAllocs()
			b.ResetTimer()
			// The edits run under the pprof label phase=edit, so that
			// -cpuprofile with `go tool pprof -tagfocus phase=edit` shows
			// them without the first compile.
			pprof.Do(context.Background(), pprof.Labels("phase", "edit"), func(context.Context) {
				for i := 0; i < b.N; i++ {
					srcs := maps.Clone(files)
					name, text := edit(i)
					srcs[name] = text
					// The wasm bridge collects garbage when the calls
					// pause (wasm/main.go, idleGC), so an edit seldom
					// meets a collection of its own: so here, untimed.
					b.StopTimer()
					runtime.GC()
					b.StartTimer()
					t0, c0 := time.Now(), cpuTime()
					run(srcs)
					took = append(took, time.Since(t0))
					cpu = append(cpu, cpuTime()-c0)
				}
			})
			// The median and p95 over the edits, beside the mean (ns/op),
			// and the same of the process's CPU time per edit, which a
			// loaded machine inflates less than the wall time.
			slices.Sort(took)
			slices.Sort(cpu)
			b.ReportMetric(float64(took[len(took)/2])/1e6, "p50-ms")
			b.ReportMetric(float64(took[(len(took)*95+99)/100-1])/1e6, "p95-ms")
			b.ReportMetric(float64(cpu[len(cpu)/2])/1e6, "cpu-p50-ms")
			b.ReportMetric(float64(cpu[(len(cpu)*95+99)/100-1])/1e6, "cpu-p95-ms")
		})
	}
}
