package gogen

import (
	"bytes"
	"encoding/binary"
	"go/scanner"
	"go/token"
)

// Line templates: a width-free chunk (see scanChunks) whose chunk key the
// shape memo has not seen is most often new only as a whole: a message's
// Marshal or Unmarshal is a new sequence of the same few statements, one
// group per field. So the memo also keeps the gofmt'd text of single
// lines, and a chunk whose every line it has seen is put together from
// them, without go/format.
//
// This holds for a width-free chunk that lineUnits accepts, a chunk in
// which every line is either a whole simple statement (its brackets
// balanced, ending where Go's scanner ends a statement), a case or
// default label, the opening line of a block (if, for, switch, select, a
// top-level func, "} else {"), or the closing brace of a block alone; or
// a group of comment lines at column 1 right before a top-level
// declaration (its doc comment). For such a chunk go/printer's output is
// line for line its input's: it keeps every line break between
// statements and at block braces, collapses each run of blank lines to
// one, indents a line by the blocks open around it (a case label one
// less), and lays out the tokens of a line by the line's own syntax
// (width-free: there are no aligned cells, which alone could tie one
// line's layout to another's). A doc comment is reformatted by the
// comment alone (go/doc/comment; see stableDocComments). So the gofmt'd
// text of a code line is a function of its tokens, as its normKey gives
// them, and the depth of braces it starts at, which is its key; a doc
// comment's key is its text. The templates are learned from the chunks
// that go/format does format (rememberLines), and TestShapeMemoMatchesGofmt
// compares the chunks put together from lines with go/format's output.

// A lineUnit is a line of a chunk (see lineUnits), or a doc comment's
// lines.
type lineUnit struct {
	key    pieceKey
	tokens []tokSpan // its IDENT, INT and STRING tokens, as chunkShape.tokens
	blank  bool      // one or more blank lines come before it
	doc    bool      // a doc comment: its template has no holes
	// start and end are a doc comment's text in raw.
	start, end int
}

// semicolonEnds reports whether a line whose last token is tok ends a
// statement (the Go scanner inserts a semicolon after it).
func semicolonEnds(tok token.Token) bool {
	switch tok {
	case token.IDENT, token.INT, token.FLOAT, token.IMAG, token.CHAR, token.STRING,
		token.BREAK, token.CONTINUE, token.FALLTHROUGH, token.RETURN,
		token.INC, token.DEC, token.RPAREN, token.RBRACK, token.RBRACE:
		return true
	}
	return false
}

// lineUnits cuts the chunk c of raw (width-free) into its lines and doc
// comments, each with its key, or reports false when a line is not one
// of those that line templates hold for (see above).
func lineUnits(raw []byte, c *chunkShape) ([]lineUnit, bool) {
	src := raw[c.start:c.end]
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(src))
	var sc scanner.Scanner
	sc.Init(file, src, nil, scanner.ScanComments)

	units := make([]lineUnit, 0, 1+bytes.Count(src, []byte("\n")))
	key := make([]byte, 0, 256)
	type line struct {
		start, end  int // of its first token's start and last token's end, in src
		n           int // tokens
		first, last token.Token
		second      token.Token
		closes      int // a '}' opening the line
		braces, bal int // '{' less '}' after the opening one; '(' and '[' less ')' and ']'
		comment     bool
		tok0        int // its first token in c.tokens
		blank       bool
	}
	var cur line
	depth := 0
	docStart, docEnd := -1, -1 // the comment lines waiting for their declaration
	docBlank := false
	ok := true
	tokIdx := 0   // the next of c.tokens
	done := false // a top-level declaration has ended
	finish := func() {
		if cur.n == 0 || !ok {
			return
		}
		if done {
			// A second declaration: go/printer may put a blank line
			// before it (declList), which no line shows.
			ok = false
			return
		}
		if cur.comment {
			if cur.n != 1 || depth != 0 {
				ok = false
				return
			}
			if docStart < 0 {
				docStart, docBlank = cur.start, cur.blank
			} else if cur.blank {
				ok = false // a blank line at depth 0 ends a chunk: not reached
				return
			}
			docEnd = cur.end
			return
		}
		switch {
		case cur.bal != 0 || cur.braces < 0 || cur.braces > 1:
			ok = false
		case cur.braces == 1:
			// A block's opening line.
			opener := cur.first == token.IF || cur.first == token.FOR || cur.first == token.SWITCH || cur.first == token.SELECT ||
				(cur.first == token.FUNC && depth == 0) || (cur.closes == 1 && cur.second == token.ELSE)
			ok = opener && cur.last == token.LBRACE
		case cur.closes == 1:
			ok = cur.n == 1 // a block's closing brace alone
		default:
			ok = semicolonEnds(cur.last) || (cur.last == token.COLON && (cur.first == token.CASE || cur.first == token.DEFAULT))
		}
		if !ok {
			return
		}
		if docStart >= 0 {
			if cur.blank {
				ok = false
				return
			}
			key = append(key[:0], 'D')
			key = append(key, src[docStart:docEnd]...)
			units = append(units, lineUnit{key: shapeDigest(key), blank: docBlank, doc: true, start: c.start + docStart, end: c.start + docEnd})
			docStart = -1
		}
		key = append(key[:0], 'L')
		key = binary.AppendUvarint(key, uint64(depth))
		copied := cur.start
		tokens := c.tokens[cur.tok0:tokIdx]
		for _, sp := range tokens {
			o := int(sp.off) - c.start
			key = append(key, src[copied:o]...)
			if sp.ph != 0 {
				key = append(key, 0, sp.ph)
			} else {
				key = append(key, raw[sp.off:sp.end]...)
			}
			copied = int(sp.end) - c.start
		}
		key = append(key, src[copied:cur.end]...)
		units = append(units, lineUnit{key: shapeDigest(key), tokens: tokens, blank: cur.blank})
		depth += cur.braces - cur.closes
		if depth < 0 {
			ok = false
		}
		done = depth == 0
	}
	prevEnd := 0
	for ok {
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
		if nl := bytes.Count(src[prevEnd:off], []byte("\n")); nl > 0 || cur.n == 0 {
			finish()
			cur = line{start: off, first: tok, blank: nl >= 2, tok0: tokIdx}
		}
		prevEnd = end
		if cur.n == 1 {
			cur.second = tok
		}
		cur.n++
		cur.last = tok
		cur.end = end
		switch tok {
		case token.COMMENT:
			cur.comment = true
		case token.LPAREN, token.LBRACK:
			cur.bal++
		case token.RPAREN, token.RBRACK:
			cur.bal--
			if cur.bal < 0 {
				ok = false
			}
		case token.LBRACE:
			cur.braces++
		case token.RBRACE:
			if cur.n == 1 {
				cur.closes = 1
			} else if cur.braces--; cur.braces < 0 {
				ok = false
			}
		case token.IDENT, token.INT, token.STRING:
			// The chunk's tokens, as scanChunks found them.
			if tokIdx >= len(c.tokens) || int(c.tokens[tokIdx].off) != c.start+off || lit[0] == '`' {
				ok = false
				break
			}
			tokIdx++
		}
		if cur.comment && cur.n > 1 {
			ok = false // a comment after code: not width-free
		}
	}
	finish()
	if !ok || sc.ErrorCount != 0 || depth != 0 || docStart >= 0 || len(units) == 0 || tokIdx != len(c.tokens) {
		return nil, false
	}
	return units, true
}

// fromLines returns the gofmt'd text of the chunk whose units are given,
// put together from the memo's line templates, or false when one is
// missing.
func (s *shapeMemo) fromLines(raw []byte, units []lineUnit) ([]byte, bool) {
	ts := make([]*template, len(units))
	n := 0
	s.mu.Lock()
	for i, u := range units {
		t := s.m[u.key]
		if t == nil {
			s.mu.Unlock()
			return nil, false
		}
		ts[i] = t
		n += len(t.text) + 2
		for k, h := range t.holes {
			n += int(u.tokens[k].end-u.tokens[k].off) - int(h.n)
		}
	}
	s.mu.Unlock()
	out := make([]byte, 0, n)
	for i, u := range units {
		if i > 0 {
			out = append(out, '\n')
			if u.blank {
				out = append(out, '\n')
			}
		}
		t := ts[i]
		copied := 0
		for k, h := range t.holes {
			sp := u.tokens[k]
			out = append(out, t.text[copied:h.off]...)
			out = append(out, raw[sp.off:sp.end]...)
			copied = int(h.off + h.n)
		}
		out = append(out, t.text[copied:]...)
	}
	return out, true
}

// learnDocs formats, each on its own, the doc comments of units that
// the memo has no template for, and remembers them, when the memo has a
// template for every other unit: a chunk that is new only by its doc
// comment (a getter's or a method's, printed from the schema's comments)
// is then put together from lines, and go/format reads only the comment.
// A doc comment is reformatted by its text alone (see stableDocComments),
// so formatting it before a stub declaration gives its text in the
// chunk. false: a code line has no template, or a comment did not format.
func (s *shapeMemo) learnDocs(raw []byte, units []lineUnit) bool {
	var docs []int
	s.mu.Lock()
	for i, u := range units {
		if s.m[u.key] != nil {
			continue
		}
		if !u.doc {
			s.mu.Unlock()
			return false
		}
		docs = append(docs, i)
	}
	s.mu.Unlock()
	const stub = "\ntype _ int"
	for _, i := range docs {
		u := &units[i]
		// A newline first, as a chunk's shape has: go/format puts src
		// after "package p;", on whose line a comment is not a doc comment.
		src := append(append([]byte{'\n'}, raw[u.start:u.end]...), stub...)
		f, err := formatPiece(src)
		if err != nil || !bytes.HasSuffix(f, []byte(stub)) {
			return false
		}
		text := f[:len(f)-len(stub)]
		for _, line := range bytes.Split(text, []byte("\n")) {
			if !bytes.HasPrefix(line, []byte("//")) {
				return false
			}
		}
		s.put(u.key, &template{text: text})
	}
	return true
}

// put remembers t as key's template, while the memo has room.
func (s *shapeMemo) put(key pieceKey, t *template) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.m[key]; ok {
		return
	}
	size := len(key) + len(t.text) + 8*len(t.holes)
	if s.bytes+size > shapeMemoMax {
		return
	}
	s.m[key] = t
	s.bytes += size
}

// rememberLines keeps the lines of f, the gofmt'd text of the chunk whose
// units are given, as their keys' templates, when f has the units' lines
// (one line per code line, a run of comment lines per doc comment, a
// blank line where a unit has one before it); otherwise nothing.
func (s *shapeMemo) rememberLines(raw []byte, units []lineUnit, f []byte) {
	lines := bytes.Split(f, []byte("\n"))
	ts := make([]*template, len(units))
	li := 0
	for i, u := range units {
		if i > 0 && u.blank {
			if li >= len(lines) || len(lines[li]) != 0 {
				return
			}
			li++
		}
		if li >= len(lines) || len(lines[li]) == 0 {
			return
		}
		if u.doc {
			start := li
			for li < len(lines) && bytes.HasPrefix(lines[li], []byte("//")) {
				li++
			}
			if li == start {
				return
			}
			ts[i] = &template{text: bytes.Clone(bytes.Join(lines[start:li], []byte("\n")))}
			continue
		}
		t, err := newTemplate(bytes.Clone(lines[li]), raw, u.tokens, true)
		if err != nil {
			return
		}
		ts[i] = t
		li++
	}
	if li != len(lines) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, u := range units {
		if _, ok := s.m[u.key]; ok {
			continue
		}
		size := len(u.key) + len(ts[i].text) + 8*len(ts[i].holes)
		if s.bytes+size > shapeMemoMax {
			return
		}
		s.m[u.key] = ts[i]
		s.bytes += size
	}
}
