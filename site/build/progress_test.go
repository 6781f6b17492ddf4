package main

import (
	"bytes"
	"regexp"
	"testing"
	"time"
)

// Each step prints a line when it begins and one when it ends, with the
// time since the build began and the step's own duration and detail.
func TestProgress(t *testing.T) {
	var buf bytes.Buffer
	p := &progress{w: &buf, start: time.Now().Add(-2 * time.Second)}
	done := p.step("building the core, %s", "./wasm")
	done(mb(16_760_000))
	p.step("bundling")("")
	want := regexp.MustCompile(`^site/build: \[   2\.\ds\] building the core, \./wasm \.\.\.
site/build: \[   2\.\ds\] building the core, \./wasm: done in 0\.\ds, 16\.76 MB
site/build: \[   2\.\ds\] bundling \.\.\.
site/build: \[   2\.\ds\] bundling: done in 0\.\ds
$`)
	if !want.Match(buf.Bytes()) {
		t.Errorf("progress printed:\n%s", buf.String())
	}
	if got := mb(106_400); got != "106.4 KB" {
		t.Errorf("mb(106400) = %q", got)
	}
}
