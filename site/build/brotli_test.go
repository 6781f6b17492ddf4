package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
)

// The .br files decode to their input, and come from the cache the second
// time; the cache keeps only the newest files.
func TestBrotliCached(t *testing.T) {
	b := &builder{root: t.TempDir()}
	data := bytes.Repeat([]byte("protoplay brotli "), 5000)
	br, err := b.brotli(data)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(brotli.NewReader(bytes.NewReader(br)))
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("the .br does not decode to its input (%v)", err)
	}
	if len(br) > len(data)/20 {
		t.Errorf("%d bytes compressed to %d", len(data), len(br))
	}
	cached, _ := filepath.Glob(filepath.Join(b.root, ".cache", "brotli", "*.br"))
	if len(cached) != 1 {
		t.Fatalf("cache holds %v", cached)
	}
	os.WriteFile(cached[0], []byte("from the cache"), 0o644)
	if again, _ := b.brotli(data); string(again) != "from the cache" {
		t.Error("the second compression did not come from the cache")
	}

	dir := t.TempDir()
	for i := 0; i < 5; i++ {
		p := filepath.Join(dir, strconv.Itoa(i)+".br")
		os.WriteFile(p, nil, 0o644)
		at := time.Now().Add(time.Duration(i) * time.Minute)
		os.Chtimes(p, at, at)
	}
	pruneCache(dir, 2)
	left, _ := filepath.Glob(filepath.Join(dir, "*.br"))
	if len(left) != 2 || filepath.Base(left[0]) != "3.br" || filepath.Base(left[1]) != "4.br" {
		t.Errorf("after pruning to 2: %v, want the newest two", left)
	}
}
