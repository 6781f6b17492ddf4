package interp

import (
	"errors"
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"go/types"
	"path"
	"sort"
	"strings"
)

// MaxTypeErrors is how many type errors typeCheck reports, as go build
// stops at 10 errors per package.
const MaxTypeErrors = 10

// errNotTypeChecked is what typeCheck's importer answers for every
// import: imported packages are the interpreter's (compiled symbols and
// generated code), not source go/types can read in a browser.
var errNotTypeChecked = errors.New("not type-checked here")

// typeCheck checks a program's file as the compiler does before it runs
// anything: every error the file has on its own, not the first, including
// the ones yaegi lets pass (a variable declared and not used, an imported
// package not used). Imported packages are not read: for each, go/types
// stands in a package of no declarations under the package's name (names
// maps import paths to package names; the last path element otherwise),
// treats what is selected from one as of unknown type, and reports no
// error that follows from that, so the file's own errors are what remain.
// Errors about imported packages' contents are the interpreter's to find
// when it compiles the program. It returns nil or a scanner.ErrorList
// sorted by position, of at most MaxTypeErrors errors and a last "too many
// errors".
//
// A file with a dot import is not checked: the names it takes from the
// package are not known here.
func typeCheck(fset *token.FileSet, f *ast.File, names map[string]string) error {
	for _, imp := range f.Imports {
		if imp.Name != nil && imp.Name.Name == "." {
			return nil
		}
	}
	var list scanner.ErrorList
	report := func(pos token.Pos, msg string) {
		list = append(list, &scanner.Error{Pos: fset.Position(pos), Msg: msg})
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Implicits: map[ast.Node]types.Object{}}
	conf := types.Config{
		// A package and an error: go/types keeps the package (its name
		// right) and marks it fake.
		Importer: importerFunc(func(p string) (*types.Package, error) {
			name, ok := names[p]
			if !ok {
				name = path.Base(p)
			}
			return types.NewPackage(p, name), errNotTypeChecked
		}),
		Error: func(err error) {
			var te types.Error
			if errors.As(err, &te) && !isImportFailure(te) {
				report(te.Pos, te.Msg)
			}
		},
	}
	conf.Check("main", fset, []*ast.File{f}, info)
	// go/types counts a fake package as used; the file's own uses say.
	used := map[types.Object]bool{}
	for _, obj := range info.Uses {
		if _, ok := obj.(*types.PkgName); ok {
			used[obj] = true
		}
	}
	for _, spec := range f.Imports {
		var obj types.Object
		if spec.Name != nil {
			obj = info.Defs[spec.Name]
		} else {
			obj = info.Implicits[spec]
		}
		pn, ok := obj.(*types.PkgName)
		if !ok || pn.Name() == "_" || used[pn] {
			continue
		}
		// As go/types words it (Checker.errorUnusedPkg).
		p := pn.Imported().Path()
		if pn.Name() == path.Base(p) {
			report(spec.Pos(), fmt.Sprintf("%q imported and not used", p))
		} else {
			report(spec.Pos(), fmt.Sprintf("%q imported as %s and not used", p, pn.Name()))
		}
	}
	if len(list) == 0 {
		return nil
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].Pos.Offset < list[j].Pos.Offset })
	if len(list) > MaxTypeErrors {
		list = append(list[:MaxTypeErrors], &scanner.Error{Pos: list[MaxTypeErrors].Pos, Msg: "too many errors"})
	}
	return list
}

// isImportFailure reports whether te is go/types saying an import could
// not be read (errNotTypeChecked).
func isImportFailure(te types.Error) bool {
	return !te.Soft && strings.HasPrefix(te.Msg, "could not import ")
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
