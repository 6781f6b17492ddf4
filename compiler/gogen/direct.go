package gogen

import (
	"io"
	"reflect"
	"strings"

	"github.com/dave/jennifer/jen"
)

// Direct text: the declarations whose shape is the same in every message
// (the wrappers Marshal, Unmarshal, MarshalJSON, String and the like, a
// doc comment and a body of one to three lines) are written as gofmt'd Go
// text at once, rather than built as a jennifer tree, printed, scanned and
// put together from the shape memo's templates, which gives the same
// bytes at several times the cost. jennifer prints the rest.
//
// A piece's builders hand such text to emitText between the jennifer code
// they add to the piece's jen.File. While renderFile builds a piece, the
// code added so far is set aside as one group and the text after it
// (textSegments); the groups are printed unformatted one after another and
// gofmt'd as one piece, and each text is put in the formatted piece where
// it was emitted, between whole top-level declarations (see
// shapeMemo.format). Outside renderFile's pieces (the whole-file render
// that TestRenderPieces compares with, a failing piece printed again for
// its error), the text goes into the jen.File as it is, for go/format to
// read with the rest: so the tests that compare the pieces with one
// go/format run over the whole file check the text too.

// textSegments collects a piece's direct text: texts[i] follows the
// jennifer code of groups[i]; the code after the last text is the piece
// file's own group.
type textSegments struct {
	groups []*jen.Group
	texts  [][]byte
}

// A textInsert is direct text to put in a formatted piece after the
// declarations that end before off, in the piece's unformatted bytes.
type textInsert struct {
	off  int
	text []byte
}

// textMark is the comment renderFile prints where a direct text goes, to
// find the place in the unformatted piece: Go printed from a schema holds
// no NUL (see safeText).
const textMark = "//\x00gogen:text\x00"

// emptyGroup is the root group of a new jen.File, with no code: a piece's
// jen.File starts a new one after each text.
var emptyGroup = *jen.NewFile("p").Group

// emitText adds text, whole top-level declarations in gofmt's layout,
// each with its doc comment, to the piece jf holds, after the code added
// to it so far; paths are the import paths text's qualified names use
// (under the names g.qual gave them), which are registered in the file.
// The caller puts text on a declaration boundary: after a jf.Line()
// ending the code before it, or at the piece's start.
func (g *generator) emitText(jf *jen.File, text []byte, paths ...string) {
	s := g.pieceText
	if s == nil {
		for _, p := range paths {
			if p != g.curFile.importPath {
				registerImport(jf, p)
			}
		}
		jf.Add(jen.Op(string(text)))
		jf.Line()
		return
	}
	for _, p := range paths {
		if p != g.curFile.importPath {
			registerImport(g.fileJF, p)
		}
	}
	if n := len(s.texts); n > 0 && groupLen(jf.Group) == 0 {
		// Nothing printed since the last text: join them.
		t := append(s.texts[n-1], '\n', '\n')
		s.texts[n-1] = append(t, text...)
		return
	}
	s.groups = append(s.groups, jf.Group)
	s.texts = append(s.texts, text)
	ng := emptyGroup
	jf.Group = &ng
}

// groupLen is the number of items in g.
func groupLen(g *jen.Group) int {
	return reflect.ValueOf(g).Elem().FieldByName("items").Len()
}

// registerImport registers path, another package's, in jf's imports, as
// printing a name qualified by it would, unless it is there already.
func registerImport(jf *jen.File, path string) {
	if importsValue(jf).MapIndex(reflect.ValueOf(path)).IsValid() {
		return
	}
	pf := jen.NewFile("p")
	pf.Add(jen.Qual(path, "X"))
	_ = pf.Group.RenderWithFile(io.Discard, jf) // only the registration matters
}

// qual appends name qualified by the import path, as jen.Qual prints it
// in the file being printed: unqualified in the file's own package.
func (g *generator) qual(b []byte, path, name string) []byte {
	if path != g.curFile.importPath {
		b = append(b, g.impNames[path]...)
		b = append(b, '.')
	}
	return append(b, name...)
}

// expand appends tmpl, gofmt'd Go, to b with its marks replaced: %T by
// mn's Go type name, %R by its file's resolver name (see
// ProtoJSONResolverName), and %W, %J, %X and %S by the qualifiers of
// runtime/wire, protojson, prototext and slices as the file names them
// ("wire.", or nothing in the package itself). The templates hold no
// other '%'.
func (g *generator) expand(b []byte, tmpl string, mn *messageNames) []byte {
	for {
		i := strings.IndexByte(tmpl, '%')
		if i < 0 || i+1 >= len(tmpl) {
			return append(b, tmpl...)
		}
		b = append(b, tmpl[:i]...)
		switch tmpl[i+1] {
		case 'T':
			b = append(b, mn.goName...)
		case 'R':
			b = append(b, mn.file.resolverName...)
		case 'W':
			b = g.qual(b, RuntimeImportPath, "")
		case 'J':
			b = g.qual(b, ProtoJSONImportPath, "")
		case 'X':
			b = g.qual(b, ProtoTextImportPath, "")
		case 'S':
			b = g.qual(b, "slices", "")
		default:
			b = append(b, tmpl[i:i+2]...)
		}
		tmpl = tmpl[i+2:]
	}
}
