package main

import (
	"bufio"
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
	Load                                string // load average before -> after the measurement
	Note                                string // why it was skipped, if it was
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
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		if m := measureLine.FindStringSubmatch(sc.Text()); m != nil {
			e.Browser.Lines = append(e.Browser.Lines, m[1])
		}
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
