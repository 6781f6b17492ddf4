package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// Browser is the playground's row of the report: the wasm modules' sizes
// (the core's and the interpreter's) as site/dist serves them, and the
// report lines of site/measure_test.go's TestMeasure, run in Debian's
// chromium (cold starts; edit -> output latency for the example,
// storage.proto and dlp.proto, the first compile against a warm one, the
// same compiles natively as the ratio wasm/native; first output -> checks
// of the generated Go done for the example and storage.proto), with the
// machine's load average before and after.
type Browser struct {
	WasmRaw, WasmGzip, WasmBrotli       int64
	InterpRaw, InterpGzip, InterpBrotli int64
	Lines                               []string
	Edits                               []EditResult // TestMeasure's "edit result" lines
	Load                                string       // load average before -> after the measurement
	Note                                string       // why it was skipped, if it was
}

// EditResult is one schema's edit measurement, as TestMeasure logs it
// (site/measure_test.go's editResult, same fields): times in ms; P50/P95
// of the page's edit -> new Go on screen, Core* of the time in the core,
// Native* of the same compiles natively (the CLI's compiler.Workspace);
// First is the session's first compile in the core, Full a warm full
// compile (engine warm, nothing cached).
type EditResult struct {
	Schema                     string
	Edits                      int
	P50, P95, CoreP50, CoreP95 float64
	NativeP50, NativeP95       float64
	First, Full                float64
	NativeFirst, NativeFull    float64
	Load                       string
}

// editResultLine matches TestMeasure's "edit result {json}" lines.
var editResultLine = regexp.MustCompile(`measure_test\.go:\d+: edit result (\{.*\})\s*$`)

// parseMeasure reads TestMeasure's verbose output into b: the report
// lines and the edit results. An "edit result" line that is not valid
// JSON is an error, so a change of the line's shape cannot go unnoticed.
func (b *Browser) parseMeasure(out string) error {
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if m := editResultLine.FindStringSubmatch(sc.Text()); m != nil {
			var r EditResult
			if err := json.Unmarshal([]byte(m[1]), &r); err != nil {
				return fmt.Errorf("TestMeasure's edit result %s: %v", m[1], err)
			}
			b.Edits = append(b.Edits, r)
			continue
		}
		if m := measureLine.FindStringSubmatch(sc.Text()); m != nil {
			b.Lines = append(b.Lines, m[1])
		}
	}
	return sc.Err()
}

// measureLine matches the t.Logf lines of TestMeasure worth reporting.
var measureLine = regexp.MustCompile(`measure_test\.go:\d+: (.*(first output on screen|edit -> output|native \(compiler|checks of the generated Go).*)$`)

// measureBrowser runs TestMeasure from the repository root (../), which
// make bench has built the page for (make site) and installed chromium for.
func measureBrowser(e *Extra) error {
	e.Browser = &Browser{}
	dist := filepath.Join("..", "site", "dist")
	for _, f := range []struct {
		name, suffix string
		size         *int64
	}{
		{"protoplay", "", &e.Browser.WasmRaw}, {"protoplay", ".gz", &e.Browser.WasmGzip}, {"protoplay", ".br", &e.Browser.WasmBrotli},
		{"interp", "", &e.Browser.InterpRaw}, {"interp", ".gz", &e.Browser.InterpGzip}, {"interp", ".br", &e.Browser.InterpBrotli},
	} {
		matches, _ := filepath.Glob(filepath.Join(dist, f.name+"-*.wasm"+f.suffix))
		if len(matches) != 1 {
			return fmt.Errorf("want one %s/%s-*.wasm%s, found %d (run make site)", dist, f.name, f.suffix, len(matches))
		}
		st, err := os.Stat(matches[0])
		if err != nil {
			return err
		}
		*f.size = st.Size()
	}
	before := loadAverage()
	cmd := exec.Command("go", "test", "-count=1", "-run", "^TestMeasure$", "-v", "-timeout", "20m", "./site")
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "PROTOPLAY_MEASURE=1", "PROTOPLAY_E2E=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("go test -run TestMeasure ./site: %v\n%s", err, out)
	}
	if err := e.Browser.parseMeasure(string(out)); err != nil {
		return err
	}
	e.Browser.Load = before + " -> " + loadAverage()
	if len(e.Browser.Lines) == 0 {
		return fmt.Errorf("TestMeasure reported nothing:\n%s", out)
	}
	return nil
}

// loadAverage is the machine's load averages (1, 5, 15 minutes), or "?".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// Issue 14's targets for the playground (on this 2-core machine): an edit
// -> new Go at most 100 ms at p95 on storage.proto and 300 ms on
// dlp.proto, the session's first compile at most 3x a warm full compile,
// the core at most 2x native, and the core at most 2.0 MB (2,000,000
// bytes) as brotli.
var editP95Target = map[string]float64{"storage.proto": 100, "dlp.proto": 300}

const (
	firstTarget  = 3.0
	nativeTarget = 2.0
	brotliTarget = 2_000_000
)

// printEdits prints b's edit results side by side, then issue 14's
// targets against them, each marked met or not.
func printEdits(pf func(string, ...any), b *Browser) {
	if len(b.Edits) == 0 {
		return
	}
	pf("| edit -> new Go (ms) | edits | page p50 / p95 | core p50 / p95 | native p50 / p95 | wasm/native (core p50) | first compile / warm full, core | ratio | native first / warm full | load |\n")
	pf("|---|---:|---|---|---|---:|---|---:|---|---|\n")
	for _, r := range b.Edits {
		pf("| %s | %d | %.0f / %.0f | %.0f / %.0f | %.1f / %.1f | %.1fx | %.0f / %.0f | %.1fx | %.1f / %.1f | %s |\n",
			r.Schema, r.Edits, r.P50, r.P95, r.CoreP50, r.CoreP95, r.NativeP50, r.NativeP95,
			div(r.CoreP50, r.NativeP50), r.First, r.Full, div(r.First, r.Full), r.NativeFirst, r.NativeFull, r.Load)
	}
	pf("\n| issue 14 target | measured | met |\n|---|---|---|\n")
	met := func(ok bool) string {
		if ok {
			return "**yes**"
		}
		return "no"
	}
	for _, r := range b.Edits {
		if t, ok := editP95Target[r.Schema]; ok {
			pf("| %s: edit -> new Go p95 <= %.0f ms | %.0f ms | %s |\n", r.Schema, t, r.P95, met(r.P95 <= t))
		}
	}
	for _, r := range b.Edits {
		x := div(r.First, r.Full)
		pf("| %s: first compile <= %.0fx a warm one | %.1fx | %s |\n", r.Schema, firstTarget, x, met(x <= firstTarget))
	}
	for _, r := range b.Edits {
		x := div(r.CoreP50, r.NativeP50)
		pf("| %s: wasm/native <= %.0fx (edit, core medians) | %.1fx | %s |\n", r.Schema, nativeTarget, x, met(x <= nativeTarget))
	}
	pf("| core wasm <= %d bytes brotli | %d | %s |\n\n", brotliTarget, b.WasmBrotli, met(b.WasmBrotli <= brotliTarget))
}

// div is a/b, or 0 when b is 0.
func div(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}
