package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteDoc(t *testing.T) {
	var b strings.Builder
	h := docHeader{Date: "2026-12-01", Commit: "abc1234", Machine: "linux/amd64, 2 CPUs, Test CPU", Go: "go1.26.8",
		Load: "1-minute load average 0.50–1.25 over 7 readings, on 2 CPUs", Command: "make bench"}
	tables := "\nRatios are protoplay / peer.\n\n### protoplay vs protoc-gen-go\n\n| row |\n|---|\n| x |\n\n"
	if err := writeDoc(&b, h, tables); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"# Benchmarks\n",
		"| date | 2026-12-01 |\n",
		"| commit | abc1234 |\n",
		"| machine | linux/amd64, 2 CPUs, Test CPU |\n",
		"| load | 1-minute load average 0.50–1.25 over 7 readings, on 2 CPUs |\n",
		"| Go | go1.26.8 |\n",
		"\n## Method\n\n",
		"\n## Results\n\nRatios are protoplay / peer.\n\n### protoplay vs protoc-gen-go\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if !strings.HasSuffix(out, "| x |\n") {
		t.Errorf("the page does not end with the tables and one newline:\n%q", out[len(out)-20:])
	}
	if strings.Index(out, "## Method") > strings.Index(out, "## Results") || strings.Count(out, "## Method") != 1 {
		t.Errorf("the method is not stated once, before the results")
	}
	// An unrecorded value says so rather than leaving an empty cell.
	b.Reset()
	if err := writeDoc(&b, docHeader{Date: "2026-12-01"}, ""); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "| load | not recorded |") {
		t.Errorf("an empty load is not marked:\n%s", b.String())
	}
}

func TestLoadSummary(t *testing.T) {
	out := "# round 1 load: 1.50 1.20 0.90\nBenchmarkX/a/pp 1 2 ns/op\n# round 2 load: 0.75 1.00 0.80\n# end load: 2.25 1.10 0.90\n"
	if got, want := loadSummary(loadLines(out), 2), "1-minute load average 0.75–2.25 over 3 readings, on 2 CPUs"; got != want {
		t.Errorf("loadSummary = %q, want %q", got, want)
	}
	if got := loadSummary(nil, 2); got != "" {
		t.Errorf("no readings: %q, want empty", got)
	}
	if got := loadSummary([]string{"round 1: unknown"}, 2); got != "" {
		t.Errorf("unknown load: %q, want empty", got)
	}
}

func TestCPUModel(t *testing.T) {
	info := []byte("processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) CPU @ 2.20GHz\n\nprocessor\t: 1\nmodel name\t: other\n")
	if got := cpuModel(info); got != "Intel(R) Xeon(R) CPU @ 2.20GHz" {
		t.Errorf("cpuModel = %q", got)
	}
	if got := cpuModel([]byte("processor : 0\n")); got != "" {
		t.Errorf("no model: %q", got)
	}
}

// TestSaveDoc: the page is written whole, and replaces the previous one.
func TestSaveDoc(t *testing.T) {
	path := filepath.Join(t.TempDir(), "benchmarks.md")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := saveDoc(path, docHeader{Date: "2026-12-01", Commit: "abc1234"}, "\n### t\n"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), "# Benchmarks\n") || !strings.HasSuffix(string(b), "### t\n") {
		t.Errorf("page:\n%s", b)
	}
	if _, err := os.Stat(path + ".tmp"); !os.IsNotExist(err) {
		t.Errorf("the temporary file is left: %v", err)
	}
}
