package gogen

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/protoplay/protoplay/compiler/diag"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Internal lists, for the external tests.
var (
	PrinterLocals = printerLocals
	Predeclared   = predeclared
)

// StdImportPaths returns the import paths of stdImports.
func StdImportPaths() map[string]string {
	out := map[string]string{}
	for _, s := range stdImports {
		out[s.path] = s.name
	}
	return out
}

// OneofGoNames returns, by message full name, the real oneofs of the
// messages of files in declaration order, each as its struct field's Go
// name followed by the wrapper type names of its members, as
// Generate(files, opts) names them. Messages without one are left out, and
// so are opaque messages: their oneof field and wrapper types are hidden,
// so no caller can store a typed nil in them.
func OneofGoNames(files []protoreflect.FileDescriptor, opts Options) map[protoreflect.FullName][][]string {
	g, _ := newGeneratorMemo(files, opts, nil)
	out := map[protoreflect.FullName][][]string{}
	for name, mn := range g.msgs {
		if g.isOpaque(mn.desc) {
			continue
		}
		for _, o := range mn.oneofs {
			if o.desc.IsSynthetic() {
				continue
			}
			names := []string{o.goName}
			for _, f := range o.fields {
				names = append(names, f.wrapper)
			}
			out[name] = append(out[name], names)
		}
	}
	return out
}

// GenerateWhole is Generate printing each file in one jennifer Render of
// the whole file (which runs go/format over it all): the reference that
// the file printed piece by piece must match byte for byte.
func GenerateWhole(files []protoreflect.FileDescriptor, opts Options) ([]File, []diag.Diagnostic) {
	renderWholeFile = true
	defer func() { renderWholeFile = false }()
	return Generate(files, opts)
}

// SetRenderWholeFile makes Generate print each file with one jennifer
// Render (go/format over the whole file), the reference TestRenderPieces
// compares the piece-by-piece printing with.
func SetRenderWholeFile(on bool) { renderWholeFile = on }

// ManyMessages is manyMessages, for the external tests.
func ManyMessages(n int) string { return manyMessages(n) }

// SetShapeCheck sets shapeCheck (nil: unset); not safe beside generation.
func SetShapeCheck(f func(raw, formatted []byte)) { shapeCheck = f }

// FormatPiece is formatPiece: go/format's output for a piece.
func FormatPiece(raw []byte) ([]byte, error) { return formatPiece(raw) }

// SetPieceHook sets pieceHook (nil: unset); not safe beside generation.
func SetPieceHook(f func(raw []byte)) { pieceHook = f }

// WidthFree reports, for each chunk of raw (a piece as jennifer prints
// it), whether scanChunks found it width-free; nil when raw does not scan.
func WidthFree(raw []byte) []bool {
	chunks, ok := scanChunks(raw)
	if !ok {
		return nil
	}
	out := make([]bool, len(chunks))
	for i, c := range chunks {
		out[i] = c.widthFree
	}
	return out
}

// CheckWidthFree checks scanChunks's claim for each width-free chunk of
// raw: the chunk with its placeholders' tokens given other lengths (two
// sets: lengths 1 to 60, and all 90), gofmt'd on its own, is the template
// of the chunk's own shape filled with those tokens. It returns how many
// chunks it checked, and the first mismatch.
func CheckWidthFree(raw []byte) (int, error) {
	chunks, ok := scanChunks(raw)
	if !ok {
		return 0, nil
	}
	n := 0
	for _, c := range chunks {
		if !c.widthFree {
			continue
		}
		f, err := formatPiece(c.shape)
		if err != nil {
			return n, fmt.Errorf("shape does not format: %v\n%s", err, c.shape)
		}
		t, err := newTemplate(f, raw, c.tokens, false)
		if err != nil {
			return n, err
		}
		for _, fixed := range []int{0, 90} {
			v := []byte{'\n'}
			copied := c.start
			for i, sp := range c.tokens {
				v = append(v, raw[copied:sp.off]...)
				copied = int(sp.end)
				size := fixed
				if size == 0 {
					size = 1 + (i*37)%60
				}
				switch sp.ph {
				case 'i':
					v = append(v, strings.Repeat("Q", size)...)
				case 'd':
					v = append(v, strings.Repeat("9", size)...)
				case 'h':
					v = append(v, "0x"+strings.Repeat("F", size)...)
				case 's':
					v = append(v, `"`+strings.Repeat("z", size)+`"`...)
				default:
					v = append(v, raw[sp.off:sp.end]...)
				}
			}
			v = append(v, raw[copied:c.end]...)
			want, err := formatPiece(v)
			if err != nil {
				return n, fmt.Errorf("variant does not format: %v", err)
			}
			vc, ok := scanChunks(v)
			if !ok || len(vc) != 1 || len(vc[0].tokens) != len(c.tokens) {
				return n, fmt.Errorf("variant does not scan as one chunk:\n%s", v)
			}
			if got := t.fill(v, vc[0].tokens); !bytes.Equal(got, want) {
				return n, fmt.Errorf("width-free chunk lays out differently with other widths:\n--- chunk:\n%s\n--- filled template:\n%s\n--- gofmt:\n%s", raw[c.start:c.end], got, want)
			}
		}
		n++
	}
	return n, nil
}

// SetLineHook sets lineHook (nil: unset); not safe beside generation.
func SetLineHook(f func()) { lineHook = f }

// SetNoChunkTemplates sets noChunkTemplates; not safe beside generation.
func SetNoChunkTemplates(on bool) { noChunkTemplates = on }

// LineUnits reports, for each chunk of raw (a piece as jennifer prints
// it), whether it is width-free and lineUnits cuts it into lines; nil when
// raw does not scan.
func LineUnits(raw []byte) []bool {
	chunks, ok := scanChunks(raw)
	if !ok {
		return nil
	}
	out := make([]bool, len(chunks))
	for i := range chunks {
		if chunks[i].widthFree {
			_, out[i] = lineUnits(raw, &chunks[i])
		}
	}
	return out
}
