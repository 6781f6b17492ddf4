package gogen

import (
	"bytes"
	"errors"
	"go/scanner"
	"go/token"
	"hash/maphash"
	"sync"
)

// A shapeMemo formats pieces (see formatPiece) without running go/format
// again on what it has formatted before in another shape's clothes. A
// piece is cut into chunks at its top-level blank lines (one declaration
// each, with its doc comment, as jennifer prints them), and each chunk
// into its shape: its text with every identifier, decimal or hexadecimal
// integer and one-line ASCII string literal replaced by a placeholder of
// the same length and kind (xxx, 111 or 0x11, "xx"). gofmt's output for a
// chunk depends on its shape alone: go/printer never adds, drops or
// reorders those tokens nor changes their text, and lays them out by their
// kinds, their widths (alignment counts runes; the placeholders keep the
// count of the ASCII tokens they stand for) and the lines and comments
// around them, which the shape keeps as they are. So a shape met a second
// time is formatted once, as a template whose placeholders are filled with
// each chunk's own tokens from then on: a message's methods, which differ
// from the next message's mostly by names, numbers and strings, are gofmt'd
// a few times per call rather than once per message. The chunks of a piece
// whose shapes are new are formatted together, in one go/format run.
//
// The chunks are gofmt'd on their own: gofmt separates top-level
// declarations by at most one blank line and a chunk starts after one, so
// the formatted chunks joined by one blank line are the formatted piece
// (TestShapeMemoMatchesGofmt compares the two on every piece of the
// goldens and the bug cases, TestCorpusGofmtClean on the corpus). A piece
// the scanner refuses, or whose chunks do not format, is formatted whole,
// as before, for go/format's own error.
type shapeMemo struct {
	mu    sync.Mutex
	m     map[string]*template // a chunk's shape: the shape gofmt'd (trimmed)
	bytes int                  // keys and values held
	seed  maphash.Seed
	seen  map[uint64]struct{} // hashes of the shapes met once
}

// shapeMemoMax bounds the bytes a shapeMemo holds (keys and values); past
// it, new shapes are formatted without being remembered.
const shapeMemoMax = 32 << 20

// shapeSeenMax bounds the shapes a shapeMemo notes as met.
const shapeSeenMax = 1 << 20

func newShapeMemo() *shapeMemo {
	return &shapeMemo{m: map[string]*template{}, seed: maphash.MakeSeed(), seen: map[uint64]struct{}{}}
}

// format returns formatPiece(raw), from remembered shapes where it can.
// A shape is remembered the second time it is met: the chunks met first
// (most of them, in a schema whose messages differ) are formatted
// together, in one go/format run, as the piece was before.
func (s *shapeMemo) format(raw []byte) ([]byte, error) {
	if s == nil || bytes.IndexByte(raw, '\r') >= 0 {
		return formatPiece(raw)
	}
	chunks, ok := scanChunks(raw)
	if !ok {
		return formatPiece(raw)
	}
	texts := make([][]byte, len(chunks))
	var fresh []int // chunks whose shapes are met for the first time
	for i := range chunks {
		c := &chunks[i]
		t, seen := s.lookup(c.shape)
		switch {
		case t != nil:
			texts[i] = t.fill(raw, c.tokens)
		case seen:
			text, ok := s.chunk(raw, c)
			if !ok {
				return formatPiece(raw)
			}
			texts[i] = text
		default:
			fresh = append(fresh, i)
		}
	}
	if len(fresh) == len(chunks) {
		return formatPiece(raw)
	}
	if len(fresh) > 0 && !formatFresh(raw, chunks, fresh, texts) {
		return formatPiece(raw)
	}
	n := 0
	for _, t := range texts {
		n += len(t) + 2
	}
	out := make([]byte, 0, n)
	for _, t := range texts {
		if len(t) == 0 {
			continue
		}
		if len(out) > 0 {
			out = append(out, '\n', '\n')
		}
		out = append(out, t...)
	}
	if shapeCheck != nil {
		shapeCheck(raw, out)
	}
	return out, nil
}

// lookup returns shape's template, or whether shape was met before (and
// notes it met).
func (s *shapeMemo) lookup(shape []byte) (t *template, seen bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t = s.m[string(shape)]; t != nil {
		return t, true
	}
	h := maphash.Bytes(s.seed, shape)
	if _, seen = s.seen[h]; !seen && len(s.seen) < shapeSeenMax {
		s.seen[h] = struct{}{}
	}
	return nil, seen
}

// formatFresh formats the chunks of raw listed in fresh in one go/format
// run, putting each one's text in texts. false: their formatted text did
// not cut into as many chunks (see cutFormatted).
func formatFresh(raw []byte, chunks []chunkShape, fresh []int, texts [][]byte) bool {
	var src []byte
	for _, i := range fresh {
		if chunks[i].multiline {
			return false
		}
		src = append(src, "\n\n\n"...)
		src = append(src, raw[chunks[i].start:chunks[i].end]...)
	}
	f, err := formatPiece(src)
	if err != nil {
		return false
	}
	parts := cutFormatted(f, len(fresh))
	if parts == nil {
		return false
	}
	for k, i := range fresh {
		texts[i] = parts[k]
	}
	return true
}

// cutFormatted cuts f, gofmt'd declarations with no raw string or block
// comment (whose lines need not be indented), at its top-level blank lines
// into n parts, or returns nil when they are not n. In gofmt's output, a
// line inside brackets starts with a tab, and a blank line is empty.
func cutFormatted(f []byte, n int) [][]byte {
	parts := make([][]byte, 0, n)
	start := 0
	for i := 0; i+2 < len(f); i++ {
		if f[i] == '\n' && f[i+1] == '\n' && f[i+2] != '\t' && f[i+2] != ' ' && f[i+2] != '\n' {
			parts = append(parts, f[start:i])
			start = i + 2
		}
	}
	parts = append(parts, f[start:])
	if len(parts) != n {
		return nil
	}
	return parts
}

// shapeCheck, when set (by tests), is called with each piece the memo
// formatted from its chunks and the result.
var shapeCheck func(raw, formatted []byte)

// chunk returns c's text gofmt'd and trimmed, or false when its shape did
// not format or did not keep its tokens.
func (s *shapeMemo) chunk(raw []byte, c *chunkShape) ([]byte, bool) {
	s.mu.Lock()
	t, hit := s.m[string(c.shape)]
	s.mu.Unlock()
	if !hit {
		f, err := formatPiece(c.shape)
		if err != nil {
			return nil, false
		}
		if t, err = newTemplate(f, raw, c.tokens); err != nil {
			return nil, false
		}
		s.mu.Lock()
		size := len(c.shape) + len(t.text) + 8*len(t.holes)
		if s.bytes+size <= shapeMemoMax {
			if _, ok := s.m[string(c.shape)]; !ok {
				s.m[string(c.shape)] = t
				s.bytes += size
			}
		}
		s.mu.Unlock()
	}
	return t.fill(raw, c.tokens), true
}

// A template is a shape gofmt'd: its text, and where in it the
// placeholders are, in the order of the shape's tokens.
type template struct {
	text  []byte
	holes []int32 // offsets in text of the placeholders, each as long as its token
}

// newTemplate finds the placeholders in f, a chunk's shape gofmt'd, for
// the chunk's tokens (spans in raw). An error: f's tokens of those kinds
// are not the shape's placeholders, one for one.
func newTemplate(f, raw []byte, spans []tokSpan) (*template, error) {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(f))
	var sc scanner.Scanner
	sc.Init(file, f, nil, scanner.ScanComments)
	t := &template{text: f, holes: make([]int32, 0, len(spans))}
	var ph []byte
	for {
		pos, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		if tok != token.IDENT && tok != token.INT && tok != token.STRING {
			continue
		}
		i := len(t.holes)
		if i >= len(spans) || spans[i].tok != tok {
			return nil, errShapeLost
		}
		ph = appendPlaceholder(ph[:0], tok, raw[spans[i].off:spans[i].end])
		if string(ph) != lit {
			return nil, errShapeLost
		}
		t.holes = append(t.holes, int32(file.Offset(pos)))
	}
	if len(t.holes) != len(spans) || sc.ErrorCount != 0 {
		return nil, errShapeLost
	}
	return t, nil
}

var errShapeLost = errors.New("gogen: gofmt did not keep a shape's placeholders")

// fill returns t's text with its placeholders replaced by the chunk's own
// tokens (spans in raw, of the lengths of the placeholders: the shape's
// tokens, which were found at t's holes).
func (t *template) fill(raw []byte, spans []tokSpan) []byte {
	out := make([]byte, 0, len(t.text))
	copied := 0
	for i, h := range t.holes {
		sp := spans[i]
		out = append(out, t.text[copied:h]...)
		out = append(out, raw[sp.off:sp.end]...)
		copied = int(h) + int(sp.end-sp.off)
	}
	return append(out, t.text[copied:]...)
}

// A chunkShape is one chunk of a piece: its shape, and the spans in the
// piece of the tokens its placeholders stand for, in order (each token of
// a kind shapes replace, placeholder or not: a token kept as it is spans
// its own text, which fillShape checks the same way).
type chunkShape struct {
	shape      []byte
	tokens     []tokSpan
	start, end int  // the chunk's text in the piece
	multiline  bool // it holds a raw string or a block comment
}

type tokSpan struct {
	off, end int32
	tok      token.Token
}

// scanChunks cuts raw into chunks at blank lines outside brackets and
// makes each chunk's shape. false: the scanner found an error (go/format
// reports it).
func scanChunks(raw []byte) ([]chunkShape, bool) {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(raw))
	var sc scanner.Scanner
	sc.Init(file, raw, nil, scanner.ScanComments)
	var chunks []chunkShape
	var cur *chunkShape
	copied := 0 // raw is copied into cur.shape up to here
	prevEnd, depth := 0, 0
	finish := func(end int) {
		if cur != nil {
			cur.shape = append(cur.shape, raw[copied:end]...)
			cur.end = end
		}
	}
	for {
		pos, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue // inserted by the scanner
		}
		off := file.Offset(pos)
		end := off + len(lit)
		if lit == "" {
			end = off + len(tok.String())
		}
		if cur == nil || (depth == 0 && bytes.Count(raw[prevEnd:off], []byte("\n")) >= 2) {
			finish(prevEnd)
			// A newline first: go/format puts the piece after "package p;",
			// on whose line a comment would not be a doc comment.
			chunks = append(chunks, chunkShape{shape: append(make([]byte, 0, 1024), '\n'), start: off})
			cur = &chunks[len(chunks)-1]
			copied = off
		}
		switch tok {
		case token.LPAREN, token.LBRACE, token.LBRACK:
			depth++
		case token.RPAREN, token.RBRACE, token.RBRACK:
			depth--
		case token.COMMENT:
			if lit[1] == '*' {
				cur.multiline = true
			}
		case token.IDENT, token.INT, token.STRING:
			if lit[0] == '`' {
				cur.multiline = true
			}
			cur.shape = append(cur.shape, raw[copied:off]...)
			cur.shape = appendPlaceholder(cur.shape, tok, lit)
			copied = end
			cur.tokens = append(cur.tokens, tokSpan{int32(off), int32(end), tok})
		}
		prevEnd = end
	}
	finish(prevEnd)
	return chunks, sc.ErrorCount == 0
}

// appendPlaceholder appends the placeholder for a token of kind tok and
// text lit: same kind, same length, or lit itself when its text could
// matter to gofmt (non-ASCII, a number gofmt might rewrite, a string over
// lines or holding control characters).
func appendPlaceholder[S ~string | ~[]byte](b []byte, tok token.Token, lit S) []byte {
	n := len(lit)
	switch tok {
	case token.IDENT:
		if !printableASCII(lit) {
			return append(b, lit...)
		}
		for range n {
			b = append(b, 'x')
		}
		return b
	case token.INT:
		if hex := len(lit) > 2 && lit[0] == '0' && lit[1] == 'x' && isDigits(lit[2:], true); hex {
			b = append(b, '0', 'x')
			n -= 2
		} else if !isDigits(lit, false) {
			return append(b, lit...)
		}
		for range n {
			b = append(b, '1')
		}
		return b
	case token.STRING:
		if n < 2 || lit[0] != '"' || !printableASCII(lit) {
			return append(b, lit...)
		}
		b = append(b, '"')
		for range n - 2 {
			b = append(b, 'x')
		}
		return append(b, '"')
	}
	return append(b, lit...)
}

func printableASCII[S ~string | ~[]byte](s S) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

func isDigits[S ~string | ~[]byte](s S, hex bool) bool {
	if len(s) == 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || hex && ('a' <= c && c <= 'f' || 'A' <= c && c <= 'F')) {
			return false
		}
	}
	return true
}
