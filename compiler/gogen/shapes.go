package gogen

import (
	"bytes"
	"errors"
	"go/scanner"
	"go/token"
	"strings"
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
// around them, which the shape keeps as they are. So the gofmt'd text of
// a chunk is kept as its shape's template, whose placeholders are filled
// with each later chunk's own tokens: a message's methods, which differ
// from the next message's mostly by names, numbers and strings, are gofmt'd
// a few times per call rather than once per message. A width-free chunk
// (see scanChunks: no aligned columns, no one-line choice) is keyed by its
// normKey instead, its shape without the placeholders' lengths: gofmt
// lays it out the same whatever the lengths of its names, so messages
// whose names differ in length (as in most real schemas) share templates
// too. The chunks of a piece whose keys are new are formatted together,
// in one go/format run, and the text of each is remembered as its
// template (a go/scanner pass over it finds the holes).
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
	m     map[pieceKey]*template // a digest of a chunk's key: its gofmt'd text as a template
	bytes int                    // keys and values held
}

// shapeMemoMax bounds the bytes a shapeMemo holds (keys and values); past
// it, new shapes are formatted without being remembered.
const shapeMemoMax = 32 << 20

func newShapeMemo() *shapeMemo {
	return &shapeMemo{m: map[pieceKey]*template{}}
}

// over reports whether s holds more than maxBytes of keys and values.
func (s *shapeMemo) over(maxBytes int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bytes > maxBytes
}

// format returns formatPiece(raw), from remembered shapes where it can,
// with the direct text of ins (see emitText) put between its
// declarations. The chunks whose keys are new are formatted together, in
// one go/format run, as the piece was before, and each one's gofmt'd text
// is remembered as its key's template.
func (s *shapeMemo) format(raw []byte, ins []textInsert) ([]byte, error) {
	if pieceHook != nil {
		pieceHook(raw)
	}
	if s == nil || bytes.IndexByte(raw, '\r') >= 0 {
		return formatSegments(raw, ins)
	}
	chunks, ok := scanChunks(raw)
	if !ok {
		return formatSegments(raw, ins)
	}
	texts := make([][]byte, len(chunks))
	var fresh []int        // chunks whose keys have no template
	var units [][]lineUnit // fresh chunks' lines (see lineUnits), by chunk
	for i := range chunks {
		c := &chunks[i]
		key := c.shape
		if c.widthFree {
			key = c.normKey(raw)
		}
		c.key = shapeDigest(key)
		if t := s.lookup(c.key); t != nil && !noChunkTemplates {
			texts[i] = t.fill(raw, c.tokens)
			continue
		}
		if c.widthFree {
			if us, ok := lineUnits(raw, c); ok {
				text, ok := s.fromLines(raw, us)
				if !ok && s.learnDocs(raw, us) {
					text, ok = s.fromLines(raw, us)
				}
				if ok {
					texts[i] = text
					if lineHook != nil {
						lineHook()
					}
					continue
				}
				if units == nil {
					units = make([][]lineUnit, len(chunks))
				}
				units[i] = us
			}
		}
		fresh = append(fresh, i)
	}
	if len(fresh) > 0 {
		if !formatFresh(raw, chunks, fresh, texts) {
			return formatSegments(raw, ins)
		}
		s.remember(raw, chunks, fresh, texts)
		for _, i := range fresh {
			if units != nil && units[i] != nil {
				s.rememberLines(raw, units[i], texts[i])
			}
		}
	}
	if shapeCheck != nil {
		shapeCheck(raw, joinChunks(texts, chunks, nil))
	}
	return joinChunks(texts, chunks, ins), nil
}

// joinChunks joins the formatted chunks of a piece (texts) and the direct
// texts of ins, each put before the first chunk that starts after its
// offset, with a blank line between any two.
func joinChunks(texts [][]byte, chunks []chunkShape, ins []textInsert) []byte {
	n := 0
	for _, t := range texts {
		n += len(t) + 2
	}
	for _, in := range ins {
		n += len(in.text) + 2
	}
	out := make([]byte, 0, n)
	k := 0
	for i, t := range texts {
		for ; k < len(ins) && ins[k].off <= chunks[i].start; k++ {
			out = appendBlock(out, ins[k].text)
		}
		out = appendBlock(out, t)
	}
	for ; k < len(ins); k++ {
		out = appendBlock(out, ins[k].text)
	}
	return out
}

// appendBlock appends t to out, after a blank line when out already holds
// a block; an empty t adds nothing.
func appendBlock(out, t []byte) []byte {
	if len(t) == 0 {
		return out
	}
	if len(out) > 0 {
		out = append(out, '\n', '\n')
	}
	return append(out, t...)
}

// lookup returns the template for a chunk's key (its shape, or for a
// width-free chunk its normKey), or nil.
func (s *shapeMemo) lookup(key pieceKey) *template {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[key]
}

// shapeDigest is the memo's key for a chunk's shape or normKey: a 128-bit
// digest, as a piece's key is (see pieceKey), so that the memo holds no
// copy of the shapes.
func shapeDigest(key []byte) pieceKey {
	d := newDigest()
	d.Write(key)
	return d.sum()
}

// rememberMax is the longest gofmt'd chunk remembered: longer ones (a
// large message's codec methods) seldom meet their key again.
const rememberMax = 4 << 10

// remember keeps the gofmt'd text of each chunk listed in fresh (texts)
// as its key's template, while the memo has room.
func (s *shapeMemo) remember(raw []byte, chunks []chunkShape, fresh []int, texts [][]byte) {
	for _, i := range fresh {
		c := &chunks[i]
		if len(texts[i]) > rememberMax {
			continue
		}
		// A copy: texts[i] is part of the fresh chunks' go/format output,
		// which the memo should not keep whole.
		t, err := newTemplate(bytes.Clone(texts[i]), raw, c.tokens, true)
		if err != nil {
			continue
		}
		size := len(c.key) + len(t.text) + 8*len(t.holes)
		s.mu.Lock()
		if s.bytes+size > shapeMemoMax {
			s.mu.Unlock()
			return
		}
		if _, ok := s.m[c.key]; !ok {
			s.m[c.key] = t
			s.bytes += size
		}
		s.mu.Unlock()
	}
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

// pieceHook, when set (by tests), is called with each piece the memo is
// asked to format.
var pieceHook func(raw []byte)

// shapeCheck, when set (by tests), is called with each piece the memo
// formatted from its chunks and the result.
var shapeCheck func(raw, formatted []byte)

// lineHook, when set (by tests), is called for each chunk put together
// from line templates (see lineUnits).
var lineHook func()

// noChunkTemplates, when set (by tests), makes the memo look up no chunk's
// template, so that every chunk it can put together from line templates
// is.
var noChunkTemplates bool

// A template is a shape gofmt'd: its text, and where in it the
// placeholders are, in the order of the shape's tokens.
type template struct {
	text  []byte
	holes []hole // the placeholders in text, in order
}

// A hole is a placeholder in a template's text: its offset and length.
type hole struct{ off, n int32 }

// newTemplate finds the holes in f for the chunk's tokens (spans in raw):
// f is the chunk's shape gofmt'd, or when real is set the chunk itself
// gofmt'd (which is the shape's text with the placeholders filled: see
// shapeMemo). An error: f's tokens of those kinds are not the shape's
// placeholders (or the chunk's tokens), one for one.
func newTemplate(f, raw []byte, spans []tokSpan, real bool) (*template, error) {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(f))
	var sc scanner.Scanner
	sc.Init(file, f, nil, scanner.ScanComments)
	t := &template{text: f, holes: make([]hole, 0, len(spans))}
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
		want := raw[spans[i].off:spans[i].end]
		if !real {
			ph = appendPlaceholder(ph[:0], spans[i].ph, want)
			want = ph
		}
		if string(want) != lit {
			return nil, errShapeLost
		}
		t.holes = append(t.holes, hole{int32(file.Offset(pos)), int32(len(lit))})
	}
	if len(t.holes) != len(spans) || sc.ErrorCount != 0 {
		return nil, errShapeLost
	}
	return t, nil
}

var errShapeLost = errors.New("gogen: gofmt did not keep a shape's placeholders")

// fill returns t's text with its placeholders replaced by the chunk's own
// tokens (spans in raw): of the placeholders' lengths when t was made from
// the chunk's shape, of any lengths when the chunk is width-free (see
// chunkShape.widthFree) and t was made from a chunk of the same normKey.
func (t *template) fill(raw []byte, spans []tokSpan) []byte {
	n := len(t.text)
	for i, h := range t.holes {
		n += int(spans[i].end-spans[i].off) - int(h.n)
	}
	out := make([]byte, 0, n)
	copied := 0
	for i, h := range t.holes {
		sp := spans[i]
		out = append(out, t.text[copied:h.off]...)
		out = append(out, raw[sp.off:sp.end]...)
		copied = int(h.off + h.n)
	}
	return append(out, t.text[copied:]...)
}

// A chunkShape is one chunk of a piece: its shape, and the spans in the
// piece of the tokens its placeholders stand for, in order (each token of
// a kind shapes replace, placeholder or not: a token kept as it is spans
// its own text, which newTemplate checks the same way).
type chunkShape struct {
	shape      []byte
	key        pieceKey // the memo's key: the digest of shape, or of normKey when widthFree
	tokens     []tokSpan
	start, end int  // the chunk's text in the piece
	multiline  bool // it holds a raw string or a block comment
	// widthFree: gofmt lays the chunk out the same whatever the lengths
	// of its placeholders' tokens (see scanChunks), so a chunk of the same
	// normKey is formatted by the same template.
	widthFree bool
}

type tokSpan struct {
	off, end int32
	tok      token.Token
	ph       byte // the placeholder's kind (see placeholderKind); 0: kept as it is
}

// normKey is c's shape with each placeholder replaced by a mark of its
// kind alone ("\x00" and the kind's letter; Go source holds no NUL), so
// that chunks differing only in the lengths of their names, numbers and
// strings share it.
func (c *chunkShape) normKey(raw []byte) []byte {
	key := make([]byte, 0, len(c.shape))
	copied := 0
	for _, sp := range c.tokens {
		o := int(sp.off) - c.start + 1 // the shape starts with a newline
		key = append(key, c.shape[copied:o]...)
		if sp.ph != 0 {
			key = append(key, 0, sp.ph)
		} else {
			key = append(key, raw[sp.off:sp.end]...)
		}
		copied = o + int(sp.end-sp.off)
	}
	return append(key, c.shape[copied:]...)
}

// An open bracket, as scanChunks tracks it.
type openBracket struct {
	tok   token.Token
	line  int
	idx   int   // the index of the bracket's token in the chunk
	kind  uint8 // bracePlain, braceType, braceBody
	colon bool  // a ':' not ending a case clause right inside it
}

const (
	bracePlain = iota
	braceType  // the braces of a struct or interface type
	braceBody  // a function's body
)

// scanChunks cuts raw into chunks at blank lines outside brackets and
// makes each chunk's shape. false: the scanner found an error (go/format
// reports it).
//
// It also decides whether each chunk is width-free: whether go/printer
// lays it out without looking at the widths of its tokens. go/printer
// keeps the tokens and the line breaks of its input and measures widths
// only to align columns and to choose one-line forms: (1) the cells of a
// struct's or interface's fields, and its one-line form (isOneLineFieldList);
// (2) the specs of a parenthesized const, var, type or import
// declaration; (3) the keys of a composite literal whose elements span
// lines (exprList's vtab after a key's colon, and its size ratios deciding
// where alignment breaks); (4) comments after code on a line, aligned
// with the next lines' (writeCommentPrefix); (5) a function body whose
// braces are on one line, kept on one line when the header and body fit in
// 100 columns (funcBody), aligned with the next one-line function's.
// Block comments and raw strings (multiline) are left out too. A chunk
// holding none of these, as its tokens show them, is width-free: its
// indentation is tabs by bracket depth, and the spaces between its tokens
// depend on their kinds. TestWidthFreeShapes checks it: every width-free
// chunk of the goldens and bug cases formats, with its names, numbers and
// strings lengthened, to its template filled with the longer tokens.
func scanChunks(raw []byte) ([]chunkShape, bool) {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(raw))
	var sc scanner.Scanner
	sc.Init(file, raw, nil, scanner.ScanComments)
	var chunks []chunkShape
	var cur *chunkShape
	copied := 0 // raw is copied into cur.shape up to here
	prevEnd := 0
	line := 1
	var (
		stack     []openBracket
		wait      []int // depths of func keywords whose body brace may follow
		prevTok   token.Token
		prevLine  int
		idx       int         // the token's index in its chunk
		lineFirst token.Token // the first token on the current line
	)
	finish := func(end int) {
		if cur != nil {
			cur.shape = append(cur.shape, raw[copied:end]...)
			cur.end = end
			if cur.multiline {
				cur.widthFree = false
			}
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
		nl := bytes.Count(raw[prevEnd:off], []byte("\n"))
		line += nl
		depth := len(stack)
		if cur == nil || (depth == 0 && nl >= 2) {
			finish(prevEnd)
			// A newline first: go/format puts the piece after "package p;",
			// on whose line a comment would not be a doc comment.
			chunks = append(chunks, chunkShape{shape: append(make([]byte, 0, 1024), '\n'), start: off, widthFree: true})
			cur = &chunks[len(chunks)-1]
			copied = off
			idx, prevTok, prevLine = 0, token.ILLEGAL, 0
			stack, wait = stack[:0], wait[:0]
			nl = 1
		}
		if nl > 0 {
			lineFirst = tok
			// A signature ends on its line: no body follows.
			for len(wait) > 0 && wait[len(wait)-1] >= depth {
				wait = wait[:len(wait)-1]
			}
		}
		switch tok {
		case token.LPAREN, token.LBRACK:
			if tok == token.LPAREN && (prevTok == token.CONST || prevTok == token.VAR || prevTok == token.TYPE || prevTok == token.IMPORT) {
				cur.widthFree = false // (2)
			}
			stack = append(stack, openBracket{tok: tok, line: line, idx: idx})
		case token.LBRACE:
			kind := uint8(bracePlain)
			if prevTok == token.STRUCT || prevTok == token.INTERFACE {
				kind = braceType
			} else if n := len(wait); n > 0 && wait[n-1] == depth {
				kind = braceBody
				wait = wait[:n-1]
			}
			stack = append(stack, openBracket{tok: tok, line: line, idx: idx, kind: kind})
		case token.RPAREN, token.RBRACK, token.RBRACE:
			if depth > 0 {
				b := stack[depth-1]
				stack = stack[:depth-1]
				switch {
				case b.kind == braceType && idx != b.idx+1: // (1)
					cur.widthFree = false
				case b.kind == braceBody && b.line == line: // (5)
					cur.widthFree = false
				case b.colon && b.line != line: // (3)
					cur.widthFree = false
				}
				for len(wait) > 0 && wait[len(wait)-1] >= depth {
					wait = wait[:len(wait)-1]
				}
			}
		case token.COLON:
			if depth > 0 && stack[depth-1].tok == token.LBRACE && lineFirst != token.CASE && lineFirst != token.DEFAULT {
				stack[depth-1].colon = true
			}
		case token.FUNC:
			if n := len(wait); n == 0 || wait[n-1] != depth {
				wait = append(wait, depth)
			}
		case token.COMMENT:
			if lit[1] == '*' {
				cur.multiline = true
			}
			if idx > 0 && prevLine == line { // (4)
				cur.widthFree = false
			}
		case token.IDENT, token.INT, token.STRING:
			if lit[0] == '`' {
				cur.multiline = true
			}
			ph := placeholderKind(tok, lit)
			cur.shape = append(cur.shape, raw[copied:off]...)
			cur.shape = appendPlaceholder(cur.shape, ph, lit)
			copied = end
			cur.tokens = append(cur.tokens, tokSpan{int32(off), int32(end), tok, ph})
		}
		if tok == token.STRING || tok == token.COMMENT {
			line += strings.Count(lit, "\n")
		}
		prevTok, prevLine = tok, line
		prevEnd = end
		idx++
	}
	finish(prevEnd)
	return chunks, sc.ErrorCount == 0
}

// placeholderKind is the kind of placeholder for a token of kind tok and
// text lit: 'i' (an identifier: xxx), 'd' (a decimal integer: 111), 'h' (a
// hexadecimal one: 0x11), 's' (a one-line string: "xx"), or 0 when its
// text could matter to gofmt (non-ASCII, a number gofmt might rewrite, a
// string over lines or holding control characters) and it is kept as it
// is.
func placeholderKind[S ~string | ~[]byte](tok token.Token, lit S) byte {
	switch tok {
	case token.IDENT:
		if printableASCII(lit) {
			return 'i'
		}
	case token.INT:
		if len(lit) > 2 && lit[0] == '0' && lit[1] == 'x' && isDigits(lit[2:], true) {
			return 'h'
		}
		if isDigits(lit, false) {
			return 'd'
		}
	case token.STRING:
		if len(lit) >= 2 && lit[0] == '"' && printableASCII(lit) {
			return 's'
		}
	}
	return 0
}

// appendPlaceholder appends the placeholder of kind ph (see
// placeholderKind) for lit: same kind, same length, or lit itself when ph
// is 0.
func appendPlaceholder[S ~string | ~[]byte](b []byte, ph byte, lit S) []byte {
	n := len(lit)
	switch ph {
	case 'i':
		for range n {
			b = append(b, 'x')
		}
		return b
	case 'h':
		b = append(b, '0', 'x')
		for range n - 2 {
			b = append(b, '1')
		}
		return b
	case 'd':
		for range n {
			b = append(b, '1')
		}
		return b
	case 's':
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
