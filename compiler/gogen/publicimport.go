package gogen

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"unicode"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"
)

// forward is a declaration of a file's Go package that stands for one of
// another package, by the same name: `type T = other.T`.
type forward struct {
	tok  token.Token // token.TYPE, token.CONST or token.VAR
	name string
}

// publicForwards is what f's Go file forwards of each file it imports
// publicly (`import public "x.proto"`) from another Go package, as
// protoc-gen-go does: code that names those types through f's package
// keeps compiling. For each such import, in the file's order: the file's
// path, its Go import path and the forwards, one per exported top-level
// type, constant and variable of its generated code, except a name f's
// package declares itself, the file's list of extensions (as
// protoc-gen-go leaves out its File_ descriptor) and declarations that
// are forwards themselves (a public import's public imports are not
// followed). The imported file's code is printed for this, without the
// cache and the output check.
func (g *generator) publicForwards(f *fileNames) ([]publicImport, error) {
	var out []publicImport
	imps := f.desc.Imports()
	for i := 0; i < imps.Len(); i++ {
		imp := imps.Get(i)
		if !imp.IsPublic {
			continue
		}
		impF := g.byPath[imp.Path()]
		if impF == nil || impF.importPath == f.importPath {
			continue
		}
		cache, check, opaque := g.cache, g.check, g.protoopaque
		g.cache, g.check, g.protoopaque = nil, nil, false
		src, err := g.renderFile(impF)
		g.cache, g.check, g.protoopaque = cache, check, opaque
		if err != nil {
			return nil, fmt.Errorf("printing %s, which %s imports publicly: %w", imp.Path(), f.desc.Path(), err)
		}
		fs, err := exportedDecls(src, ExtensionsListName(imp.Path()))
		if err != nil {
			return nil, fmt.Errorf("reading the Go of %s, which %s imports publicly: %w", imp.Path(), f.desc.Path(), err)
		}
		// A name the package declares itself (in f or a file of the
		// package f imports) stays the package's own: no forward.
		own := g.visibleDecls[f][f.importPath]
		kept := fs[:0]
		for _, fw := range fs {
			if _, taken := own[fw.name]; !taken {
				kept = append(kept, fw)
			}
		}
		out = append(out, publicImport{path: imp.Path(), importPath: impF.importPath, forwards: kept})
	}
	return out, nil
}

// publicImport is one public import's forwards (see publicForwards).
type publicImport struct {
	path, importPath string
	forwards         []forward
}

// exportedDecls lists the exported top-level types, constants and
// variables of Go source src in order, leaving out skip and those whose
// type or value is a name of another package (type T = other.T).
func exportedDecls(src, skip string) ([]forward, error) {
	file, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var out []forward
	add := func(tok token.Token, name string, expr ast.Expr) {
		if r, _ := utf8.DecodeRuneInString(name); !unicode.IsUpper(r) || name == skip {
			return
		}
		if _, ok := expr.(*ast.SelectorExpr); ok {
			return
		}
		out = append(out, forward{tok, name})
	}
	for _, d := range file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, spec := range gd.Specs {
			switch spec := spec.(type) {
			case *ast.TypeSpec:
				add(gd.Tok, spec.Name.Name, spec.Type)
			case *ast.ValueSpec:
				for i, n := range spec.Names {
					var v ast.Expr
					if i < len(spec.Values) {
						v = spec.Values[i]
					}
					add(gd.Tok, n.Name, v)
				}
			}
		}
	}
	return out, nil
}

// genForwards prints pub's forwards into jf.
func genForwards(jf *jen.File, pub []publicImport) {
	for _, p := range pub {
		jf.Comment("Symbols defined in public import of " + safeText(p.path) + ".")
		for _, fw := range p.forwards {
			var s *jen.Statement
			switch fw.tok {
			case token.TYPE:
				s = jen.Type()
			case token.CONST:
				s = jen.Const()
			default:
				s = jen.Var()
			}
			jf.Add(s.Id(fw.name).Op("=").Qual(p.importPath, fw.name))
		}
		jf.Line()
	}
}

// forwardsKey is the text a forwards piece is printed from, for its cache
// key.
func forwardsKey(pub []publicImport) string {
	k := "forwards"
	for _, p := range pub {
		k += "\x00" + p.path + "\x00" + p.importPath
		for _, fw := range p.forwards {
			k += "\x00" + fw.tok.String() + " " + fw.name
		}
	}
	return k
}
