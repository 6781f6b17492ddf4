// Package site serves the playground page built by site/build: the files
// of site/dist, embedded in the binary when it is built with the
// "playground" tag (make serve does), or any fs.FS for tests.
//
// Responses use the precompressed .br or .gz twin of a file when the
// client accepts it, with the original's Content-Type (application/wasm
// for the core), so nothing is compressed per request. Assets with a
// content hash in their names (app-1a2b3c4d5e.js) are cached for good;
// the rest (index.html, LICENSE.txt, THIRD_PARTY_NOTICES.txt, the icon)
// is revalidated.
package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"regexp"
	"strings"
	"sync"
	"time"
)

// Dist is the built page: the embedded site/dist under the "playground"
// build tag, nil otherwise.
var Dist fs.FS

// Handler serves dist. A nil dist serves a page that says how to build
// the playground, so a binary built from a fresh clone without it still
// explains itself.
func Handler(dist fs.FS) http.Handler {
	if dist == nil {
		return http.HandlerFunc(notBuilt)
	}
	return &server{dist: dist, etags: map[string]string{}}
}

type server struct {
	dist  fs.FS
	mu    sync.Mutex
	etags map[string]string
}

var contentTypes = map[string]string{
	".wasm": "application/wasm",
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".html": "text/html; charset=utf-8",
	".svg":  "image/svg+xml",
	".json": "application/json",
	".png":  "image/png",
	".txt":  "text/plain; charset=utf-8",
}

// hashedRE matches the names site/build gives assets: a hyphen and ten
// hex digits of the content's SHA-256 before the extension.
var hashedRE = regexp.MustCompile(`-[0-9a-f]{10}\.[a-z]+$`)

// csp allows the page's own scripts and the compilation of its wasm
// ('wasm-unsafe-eval'); CodeMirror sets inline styles.
const csp = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data: blob:; worker-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if name == "" {
		name = "index.html"
	}
	// The compressed twins are served by negotiation, not by name.
	if strings.HasSuffix(name, ".gz") || strings.HasSuffix(name, ".br") || !fs.ValidPath(name) {
		http.NotFound(w, r)
		return
	}
	data, err := fs.ReadFile(s.dist, name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	ct := contentTypes[path.Ext(name)]
	if ct == "" {
		ct = mime.TypeByExtension(path.Ext(name))
	}
	if ct != "" {
		h.Set("Content-Type", ct)
	}
	h.Set("X-Content-Type-Options", "nosniff")
	h.Add("Vary", "Accept-Encoding")
	if name == "index.html" {
		h.Set("Cache-Control", "no-cache")
		h.Set("Content-Security-Policy", csp)
		h.Set("Referrer-Policy", "no-referrer") // the hash holds the user's schema
	} else if hashedRE.MatchString(name) {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}

	body, enc := data, ""
	accept := r.Header.Get("Accept-Encoding")
	for _, c := range []struct{ token, ext string }{{"br", ".br"}, {"gzip", ".gz"}} {
		if !accepts(accept, c.token) {
			continue
		}
		if z, err := fs.ReadFile(s.dist, name+c.ext); err == nil {
			body, enc = z, c.token
			break
		}
	}
	if enc != "" {
		h.Set("Content-Encoding", enc)
	}
	h.Set("ETag", s.etag(name+"|"+enc, body))
	// ServeContent handles Range, If-None-Match and HEAD; the zero
	// modtime keeps it from sending Last-Modified.
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(body))
}

func (s *server) etag(key string, body []byte) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.etags[key]; ok {
		return e
	}
	sum := sha256.Sum256(body)
	e := `"` + hex.EncodeToString(sum[:8]) + `"`
	s.etags[key] = e
	return e
}

// accepts reports whether an Accept-Encoding header value allows coding,
// honouring q=0 (RFC 9110, section 12.5.3).
func accepts(header, coding string) bool {
	for _, part := range strings.Split(header, ",") {
		tok, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(tok), coding) && strings.TrimSpace(tok) != "*" {
			continue
		}
		q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
		return !(q == "q=0" || q == "q=0.0" || q == "q=0.00" || q == "q=0.000")
	}
	return false
}

func notBuilt(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" && r.URL.Path != "/index.html" {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusServiceUnavailable)
	io.WriteString(w, notBuiltPage)
}

const notBuiltPage = `<!doctype html>
<meta charset="utf-8"><title>protoplay: playground not built</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40em;margin:4em auto;padding:0 1em}code{background:#8882;padding:1px 4px;border-radius:4px}</style>
<h1>The playground is not in this binary</h1>
<p>This <code>protoplay</code> was built without the page. Build it, then run it again:</p>
<pre><code>make serve</code></pre>
<p>or, step by step: <code>make site</code> (builds site/dist), then
<code>go build -tags playground ./cmd/protoplay</code> and <code>protoplay serve</code>.</p>
`
