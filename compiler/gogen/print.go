package gogen

import (
	"bytes"
	"fmt"
	"go/format"
	"runtime"

	"github.com/dave/jennifer/jen"
)

// rawPrinter prints pieces of one Go file with jennifer, unformatted,
// registering the packages they use in the file's jen.File (which decides
// their import names, in the order pieces use them) as
// jen.Group.RenderWithFile does, but without its go/format pass, which
// the caller runs where it likes (see formatPool).
//
// jennifer has no unformatted render of a Group against a File, so the
// piece's Group is put in the File for one unformatted File.Render, whose
// output is the file's head (header comments, package clause, import
// block) followed by the piece; the head, which only changes when a piece
// registers a new import, is printed on its own to be cut off.
type rawPrinter struct {
	jf      *jen.File
	empty   *jen.Group // jf's own (empty) Group, put back after each piece
	head    []byte     // jf's unformatted head for headImps imports
	headImp int        // -1: head not printed yet
	buf     bytes.Buffer
}

func newRawPrinter(jf *jen.File) *rawPrinter {
	return &rawPrinter{jf: jf, empty: jf.Group, headImp: -1}
}

// print returns the unformatted Go of the code pf holds (built by a
// piece's build function; pf's own imports are not used), registering
// its imports in the printer's file. The bytes are those jennifer hands
// go/format in pf.Group.RenderWithFile(w, jf); they are the printer's
// until its next call.
func (r *rawPrinter) print(pf *jen.File) ([]byte, error) {
	r.buf.Reset()
	r.jf.Group, r.jf.NoFormat = pf.Group, true
	err := r.jf.Render(&r.buf)
	r.jf.Group, r.jf.NoFormat = r.empty, false
	if err != nil {
		return nil, err
	}
	if n := importsValue(r.jf).Len(); n != r.headImp {
		var h bytes.Buffer
		r.jf.NoFormat = true
		err := r.jf.Render(&h)
		r.jf.NoFormat = false
		if err != nil {
			return nil, err
		}
		r.head, r.headImp = h.Bytes(), n
	}
	out := r.buf.Bytes()
	if !bytes.HasPrefix(out, r.head) {
		return nil, fmt.Errorf("gogen: jennifer's unformatted file does not start with its head")
	}
	return out[len(r.head):], nil
}

// formatPiece is what pf.Group.RenderWithFile writes after printing raw:
// go/format's output for the piece (a declaration list), trimmed of
// leading and trailing space as renderFile keeps it. The result is a new
// slice.
func formatPiece(raw []byte) ([]byte, error) {
	b, err := format.Source(raw)
	if err != nil {
		return nil, fmt.Errorf("Error %s while formatting source:\n%s", err, raw)
	}
	if b, err = stableDocComments(b); err != nil {
		return nil, err
	}
	if t := bytes.TrimSpace(b); len(t) != len(b) {
		return bytes.Clone(t), nil
	}
	return b, nil
}

// formatSegments is formatPiece for a piece with direct text (see
// emitText): raw is cut at the texts' offsets, each part with code is
// formatted on its own, and the parts and texts are joined with a blank
// line between any two. Without texts it is formatPiece(raw).
func formatSegments(raw []byte, ins []textInsert) ([]byte, error) {
	if len(ins) == 0 {
		return formatPiece(raw)
	}
	var out []byte
	start := 0
	for i := 0; i <= len(ins); i++ {
		end := len(raw)
		if i < len(ins) {
			end = ins[i].off
		}
		if part := raw[start:end]; len(bytes.TrimSpace(part)) > 0 {
			f, err := formatPiece(part)
			if err != nil {
				return nil, err
			}
			out = appendBlock(out, f)
		}
		if i < len(ins) {
			out = appendBlock(out, ins[i].text)
		}
		start = end
	}
	return out, nil
}

// A formatPool formats pieces (with its shapeMemo, which runs formatPiece
// on the shapes it has not seen) on other goroutines, beside the printing
// of the next pieces on a machine with more than one processor. Results
// are taken in the order the pieces were given. With one processor
// (GOMAXPROCS 1, as in the browser) there are no workers and pieces are
// formatted where they are printed.
type formatPool struct {
	jobs   chan *formatJob
	shapes *shapeMemo
}

type formatJob struct {
	raw  []byte
	ins  []textInsert
	out  []byte
	err  error
	done chan struct{}
}

// newFormatPool starts a pool of workers formatting with shapes, or
// none when there is one processor. Stop it with stop.
func newFormatPool(shapes *shapeMemo) *formatPool {
	p := &formatPool{shapes: shapes}
	n := runtime.GOMAXPROCS(0)
	if n < 2 {
		return p
	}
	p.jobs = make(chan *formatJob, 2*n)
	for range n {
		go p.work()
	}
	return p
}

func (p *formatPool) work() {
	for j := range p.jobs {
		j.out, j.err = formatSafely(p.shapes, j.raw, j.ins)
		j.raw, j.ins = nil, nil
		close(j.done)
	}
}

// formatSafely is formatPiece with a panic (which go/format should
// never raise) made an error: a worker's panic could not be recovered
// by the caller's frontend.Recover.
func formatSafely(shapes *shapeMemo, raw []byte, ins []textInsert) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("go/format panicked: %v", r)
		}
	}()
	return shapes.format(raw, ins)
}

func (p *formatPool) stop() {
	if p.jobs != nil {
		close(p.jobs)
	}
}

// inline reports whether p formats where pieces are printed.
func (p *formatPool) inline() bool { return p.jobs == nil }

// submit formats raw with the direct text of ins (which the job keeps:
// the caller hands them over) on the pool, or at once when p has no
// workers.
func (p *formatPool) submit(raw []byte, ins []textInsert) *formatJob {
	j := &formatJob{done: make(chan struct{})}
	if p.jobs == nil {
		j.out, j.err = p.shapes.format(raw, ins)
		close(j.done)
		return j
	}
	j.raw, j.ins = raw, ins
	p.jobs <- j
	return j
}

// stableDocComments returns src, gofmt'd Go, with each top-level doc
// comment that gofmt would change again replaced by gofmt's fixed point
// for it, so that the file is gofmt-clean: go/printer reformats a
// top-level doc comment (go/doc/comment's syntax: code blocks, lists),
// and for some comments its output is not stable: a proto comment with
// a numbered list whose items are indented unevenly (google/spanner/v1's
// ExecuteBatchDml) is printed differently by a second gofmt. The
// reformatting depends on the comment alone, so each such comment is
// formatted on its own, before a stub declaration, until it no longer
// changes. Only comments with an indented line (a code block or a list,
// as gofmt prints them) are tried: the others are stable.
func stableDocComments(src []byte) ([]byte, error) {
	if !bytes.Contains(src, []byte("\n//\t")) && !bytes.Contains(src, []byte("\n//  ")) &&
		!bytes.HasPrefix(src, []byte("//\t")) && !bytes.HasPrefix(src, []byte("//  ")) {
		return src, nil
	}
	lines := bytes.SplitAfter(src, []byte("\n"))
	var out []byte
	changed := false
	for i := 0; i < len(lines); {
		if !bytes.HasPrefix(lines[i], []byte("//")) {
			out = append(out, lines[i]...)
			i++
			continue
		}
		j := i
		indented := false
		for j < len(lines) && bytes.HasPrefix(lines[j], []byte("//")) {
			indented = indented || bytes.HasPrefix(lines[j], []byte("//\t")) || bytes.HasPrefix(lines[j], []byte("//  "))
			j++
		}
		block := bytes.Join(lines[i:j], nil)
		// A doc comment: abutting a declaration at column 1.
		doc := j < len(lines) && len(lines[j]) > 0 && lines[j][0] != '\n' && lines[j][0] != ' ' && lines[j][0] != '\t'
		if doc && indented {
			fixed, err := stableComment(block)
			if err != nil {
				return nil, err
			}
			if !bytes.Equal(fixed, block) {
				block, changed = fixed, true
			}
		}
		out = append(out, block...)
		i = j
	}
	if !changed {
		return src, nil
	}
	return out, nil
}

// stableComment formats block, a doc comment (whole "//" lines, each
// ending in a newline), before a stub declaration until gofmt leaves it
// as it is, and returns it so.
func stableComment(block []byte) ([]byte, error) {
	const head, stub = "package p\n\n", "type _ int\n"
	for range 4 {
		src := append(append([]byte(head), block...), stub...)
		b, err := format.Source(src)
		if err != nil {
			return nil, err
		}
		if !bytes.HasPrefix(b, []byte(head)) || !bytes.HasSuffix(b, []byte(stub)) {
			return nil, fmt.Errorf("gogen: doc comment did not format as a comment")
		}
		next := b[len(head) : len(b)-len(stub)]
		if bytes.Equal(next, block) {
			return block, nil
		}
		block = bytes.Clone(next)
	}
	return nil, fmt.Errorf("gogen: doc comment does not reach a gofmt fixed point")
}
