package gogen

import (
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
