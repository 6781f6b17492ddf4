package interp

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/protoplay/protoplay/interp/symbols"
)

// checkInstantiations finds what yaegi v0.16.1 cannot run correctly in
// files: it names an interpreted type by its package's name, not its
// import path ("v1.Msg"), and caches generic instantiations by that name,
// so wire.New[Msg] in one package named v1 and wire.New[Msg] in another
// package named v1 would share one instance and hand out messages of the
// wrong type. It returns an error naming both packages and the type when
// two packages of the same name instantiate wire.New (or wire.NewIn, the
// opaque API's) with types of the same name. files are keyed by import path.
func checkInstantiations(files map[string][]File) error {
	fset := token.NewFileSet()
	type parsed struct {
		path string
		file *ast.File
	}
	names := map[string]string{} // import path -> package name
	var all []parsed
	for p, fs := range files {
		for _, f := range fs {
			af, err := parser.ParseFile(fset, f.Name, f.Content, parser.SkipObjectResolution)
			if err != nil {
				return fmt.Errorf("interp: %w", err)
			}
			names[p] = af.Name.Name
			all = append(all, parsed{p, af})
		}
	}
	// Which loaded packages share a name? Only they can collide.
	byName := map[string]int{}
	for _, n := range names {
		byName[n]++
	}
	shared := false
	for _, c := range byName {
		shared = shared || c > 1
	}
	if !shared {
		return nil
	}
	users := map[string]map[string]bool{} // "name.Type" -> defining import paths
	for _, pf := range all {
		local := map[string]string{} // name in this file -> import path
		for _, is := range pf.file.Imports {
			ip, _ := strconv.Unquote(is.Path.Value)
			n := names[ip]
			if ip == symbols.WirePath {
				n = "wire"
			}
			if is.Name != nil {
				n = is.Name.Name
			}
			if n != "" {
				local[n] = ip
			}
		}
		ast.Inspect(pf.file, func(n ast.Node) bool {
			ix, ok := n.(*ast.IndexExpr)
			if !ok {
				return true
			}
			sel, ok := ix.X.(*ast.SelectorExpr)
			if !ok || (sel.Sel.Name != "New" && sel.Sel.Name != "NewIn") {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); !ok || local[id.Name] != symbols.WirePath {
				return true
			}
			def, typ := pf.path, ""
			switch t := ix.Index.(type) {
			case *ast.Ident:
				typ = t.Name
			case *ast.SelectorExpr:
				q, ok := t.X.(*ast.Ident)
				if !ok {
					return true
				}
				def, typ = local[q.Name], t.Sel.Name
			}
			if _, loaded := names[def]; !loaded || typ == "" {
				return true // a compiled type (the well-known types): no confusion
			}
			key := names[def] + "." + typ
			if users[key] == nil {
				users[key] = map[string]bool{}
			}
			users[key][def] = true
			return true
		})
	}
	keys := make([]string, 0, len(users))
	for k := range users {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if len(users[k]) > 1 {
			paths := make([]string, 0, len(users[k]))
			for p := range users[k] {
				paths = append(paths, p)
			}
			sort.Strings(paths)
			name, typ, _ := strings.Cut(k, ".")
			return fmt.Errorf("interp: packages %s are all named %s and all declare a message type %s that their code decodes: "+
				"the interpreter (yaegi v0.16.1) names a type by its package name, not its import path, and cannot tell them apart; "+
				"give the packages different names (go_package = \"path;name\")", strings.Join(paths, " and "), name, typ)
		}
	}
	return nil
}

// packageFiles groups the generated .go files by the import path of their
// directory below root.
func packageFiles(files []File, root string) map[string][]File {
	out := map[string][]File{}
	for _, f := range files {
		if strings.HasSuffix(f.Name, ".go") {
			p := path.Dir(path.Join(root, f.Name))
			out[p] = append(out[p], f)
		}
	}
	return out
}
