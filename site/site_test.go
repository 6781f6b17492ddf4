package site_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/protoplay/protoplay/site"
)

func gz(s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	io.WriteString(w, s)
	w.Close()
	return b.Bytes()
}

var dist = fstest.MapFS{
	"index.html":                   {Data: []byte("<!doctype html>page")},
	"index.html.gz":                {Data: gz("<!doctype html>page")},
	"protoplay-01234567ab.wasm":    {Data: []byte("\x00asm\x01\x00\x00\x00")},
	"protoplay-01234567ab.wasm.gz": {Data: gz("\x00asm\x01\x00\x00\x00")},
	"protoplay-01234567ab.wasm.br": {Data: []byte("brotli bytes")},
	"app-89abcdef01.js":            {Data: []byte("console.log(1)")},
	"THIRD_PARTY_NOTICES.txt":      {Data: []byte("protoplay: third-party notices")},
}

func get(t *testing.T, h http.Handler, path, acceptEncoding string) *http.Response {
	t.Helper()
	r := httptest.NewRequest("GET", path, nil)
	if acceptEncoding != "" {
		r.Header.Set("Accept-Encoding", acceptEncoding)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Result()
}

func TestHandlerServesWasmCompressed(t *testing.T) {
	t.Parallel()
	h := site.Handler(dist)
	for _, c := range []struct{ accept, enc, body string }{
		{"gzip, deflate, br", "br", "brotli bytes"},
		{"gzip", "gzip", string(gz("\x00asm\x01\x00\x00\x00"))},
		{"br;q=0, gzip", "gzip", string(gz("\x00asm\x01\x00\x00\x00"))},
		{"", "", "\x00asm\x01\x00\x00\x00"},
	} {
		res := get(t, h, "/protoplay-01234567ab.wasm", c.accept)
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/wasm" ||
			res.Header.Get("Content-Encoding") != c.enc || string(body) != c.body {
			t.Errorf("Accept-Encoding %q: %d %q %q, body %q", c.accept, res.StatusCode,
				res.Header.Get("Content-Type"), res.Header.Get("Content-Encoding"), body)
		}
		if !strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") {
			t.Errorf("Accept-Encoding %q: no Vary", c.accept)
		}
		if !strings.Contains(res.Header.Get("Cache-Control"), "immutable") {
			t.Errorf("hashed asset not cached for good: %q", res.Header.Get("Cache-Control"))
		}
	}
}

func TestHandlerIndex(t *testing.T) {
	t.Parallel()
	h := site.Handler(dist)
	res := get(t, h, "/", "gzip")
	if res.StatusCode != 200 || res.Header.Get("Content-Encoding") != "gzip" ||
		!strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") ||
		res.Header.Get("Cache-Control") != "no-cache" ||
		!strings.Contains(res.Header.Get("Content-Security-Policy"), "'wasm-unsafe-eval'") {
		t.Errorf("index: %d %v", res.StatusCode, res.Header)
	}
	// A revalidation with the ETag gets 304.
	r := httptest.NewRequest("GET", "/", nil)
	r.Header.Set("Accept-Encoding", "gzip")
	r.Header.Set("If-None-Match", res.Header.Get("ETag"))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusNotModified {
		t.Errorf("revalidation: %d, want 304", w.Code)
	}
}

// TestHandlerUnhashedRevalidated: files without a content hash in their
// names (the notices, the license) change under the same name, so they
// are revalidated, not cached for good; .txt is served as UTF-8 text.
func TestHandlerUnhashedRevalidated(t *testing.T) {
	t.Parallel()
	h := site.Handler(dist)
	res := get(t, h, "/THIRD_PARTY_NOTICES.txt", "")
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || res.Header.Get("Cache-Control") != "no-cache" ||
		res.Header.Get("Content-Type") != "text/plain; charset=utf-8" || string(body) != "protoplay: third-party notices" {
		t.Errorf("notices: %d %v %q", res.StatusCode, res.Header, body)
	}
	if cc := get(t, h, "/app-89abcdef01.js", "").Header.Get("Cache-Control"); !strings.Contains(cc, "immutable") {
		t.Errorf("hashed app.js: Cache-Control %q", cc)
	}
}

func TestHandlerRefuses(t *testing.T) {
	t.Parallel()
	h := site.Handler(dist)
	for _, p := range []string{"/index.html.gz", "/protoplay-01234567ab.wasm.br", "/nope.js", "/../site.go"} {
		if res := get(t, h, p, "gzip"); res.StatusCode != 404 {
			t.Errorf("%s: %d, want 404", p, res.StatusCode)
		}
	}
	r := httptest.NewRequest("POST", "/", nil)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", w.Code)
	}
}

func TestHandlerWithoutPageExplains(t *testing.T) {
	t.Parallel()
	res := get(t, site.Handler(nil), "/", "")
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "make serve") {
		t.Errorf("%d %s", res.StatusCode, body)
	}
}
