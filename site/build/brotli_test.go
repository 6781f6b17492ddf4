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
	b := &builder{root: t.TempDir(), brotliQuality: 11}
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

// The cache is keyed by the input and the quality: a quick build
// (make serve's -brotli) reuses a quality 11 .br that make site left, and
// make site never takes a quick build's .br for its own.
func TestBrotliCacheQuality(t *testing.T) {
	root := t.TempDir()
	data := bytes.Repeat([]byte("protoplay brotli quality "), 4000)
	quick := &builder{root: root, brotliQuality: 5}
	q5, from, err := quick.brotliFrom(data)
	if err != nil || from != "quality 5" {
		t.Fatalf("quality 5: %q, %v", from, err)
	}
	release := &builder{root: root, brotliQuality: 11}
	q11, from, err := release.brotliFrom(data)
	if err != nil || from != "quality 11" {
		t.Fatalf("quality 11 after a quality 5 build: %q, %v; want it compressed again", from, err)
	}
	if _, from, _ := quick.brotliFrom(data); from != "quality 11, cached" {
		t.Errorf("quality 5 after a quality 11 build: %q, want the cached quality 11", from)
	}
	for q, br := range map[int][]byte{5: q5, 11: q11} {
		got, err := io.ReadAll(brotli.NewReader(bytes.NewReader(br)))
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("quality %d: the .br does not decode to its input (%v)", q, err)
		}
	}
}
