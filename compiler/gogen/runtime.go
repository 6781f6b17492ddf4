package gogen

import (
	"fmt"
	"go/format"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"

	protoplay "github.com/protoplay/protoplay"
	"github.com/protoplay/protoplay/compiler/diag"
)

// runtimeModule is the import path prefix of protoplay's runtime packages
// ("github.com/protoplay/protoplay" + "/runtime/wire", ...).
const runtimeModule = "github.com/protoplay/protoplay"

// LocalRuntimeRoot returns the module path under which runtime=local puts
// the runtime for the generated packages of importPaths: opts.Module when
// set, else the longest prefix of whole path elements that every import
// path shares. It is an error when there is none (packages under two
// different hosts): the caller must give module=.
func LocalRuntimeRoot(importPaths []string, opts Options) (string, error) {
	if opts.Module != "" {
		return strings.TrimSuffix(opts.Module, "/"), nil
	}
	// module= does not combine with paths=source_relative; runtime_root=
	// names the output directory's import path there.
	give := "give module=PATH"
	if opts.Paths == "source_relative" {
		give = "give runtime_root=IMPORT_PATH, the import path of the output directory"
	}
	if len(importPaths) == 0 {
		return "", fmt.Errorf("runtime=local: no generated package to place the runtime beside; %s", give)
	}
	common := strings.Split(importPaths[0], "/")
	for _, p := range importPaths[1:] {
		el := strings.Split(p, "/")
		n := 0
		for n < len(common) && n < len(el) && common[n] == el[n] {
			n++
		}
		common = common[:n]
	}
	if len(common) == 0 {
		paths := append([]string(nil), importPaths...)
		sort.Strings(paths)
		if opts.Paths != "source_relative" {
			give += " (and go_package or M options that put every package below it)"
		}
		return "", fmt.Errorf("runtime=local: the generated packages (%s) share no import path prefix to place the runtime under; %s", strings.Join(paths, ", "), give)
	}
	return strings.Join(common, "/"), nil
}

// localRuntime is the runtime=local step (see Options.Runtime): it rewrites
// the runtime imports of out to <root>/protoplay/runtime/..., and adds the
// runtime packages those files need, transitively, from the embedded
// sources (package protoplay's RuntimeFS: embedded, or loaded when first
// needed in the playground's core), their imports rewritten
// the same way.
func (g *generator) localRuntime(out []File) ([]File, error) {
	var importPaths []string
	seen := map[string]bool{}
	for _, f := range g.byPath {
		if f.generate && !seen[f.importPath] {
			seen[f.importPath] = true
			importPaths = append(importPaths, f.importPath)
		}
	}
	// Under paths=source_relative the runtime goes at the output
	// directory's own import path when the files say what it is: every
	// run into that directory (buf runs the plugin once per directory)
	// then shares one runtime, whatever packages it generates.
	root, ok := g.opts.RuntimeRoot, g.opts.RuntimeRoot != ""
	if !ok && g.opts.Module == "" && g.opts.Paths == "source_relative" {
		root, ok = sourceRelativeBase(g.byPath)
	}
	if !ok {
		var err error
		if root, err = LocalRuntimeRoot(importPaths, g.opts); err != nil {
			// runtime=local is the command-line tools' default, so
			// the way back to the import is worth saying.
			return nil, fmt.Errorf("%v; or runtime=import to import github.com/protoplay/protoplay/runtime from a module that provides it", err)
		}
	}
	local := root + "/protoplay"
	// outDir turns an import path below root into the output directory of
	// a file in it, as outputPath does for generated files: below module=,
	// or (paths=source_relative) below root, the import path of the output
	// directory or, when the files do not say it, the packages' shared
	// prefix.
	outDir := func(importPath string) string {
		if g.opts.Module != "" || g.opts.Paths == "source_relative" {
			return strings.TrimPrefix(importPath, root+"/")
		}
		return importPath
	}

	need := map[string]bool{} // runtime package dirs, "runtime/wire"
	var queue []string
	want := func(imports []string) {
		for _, p := range imports {
			if dir, ok := strings.CutPrefix(p, runtimeModule+"/"); ok && strings.HasPrefix(dir, "runtime/") && !need[dir] {
				need[dir] = true
				queue = append(queue, dir)
			}
		}
	}
	for i, f := range out {
		content, imports, err := rewriteRuntimeImports(f.Name, f.Content, local)
		if err != nil {
			return nil, err
		}
		out[i].Content = content
		want(imports)
	}
	var sources fs.FS
	for len(queue) > 0 {
		if sources == nil {
			var err error
			if sources, err = protoplay.RuntimeFS(); err != nil {
				return nil, fmt.Errorf("runtime=local: the runtime's sources: %v", err)
			}
		}
		dir := queue[0]
		queue = queue[1:]
		entries, err := fs.ReadDir(sources, dir)
		if err != nil {
			return nil, fmt.Errorf("runtime=local: runtime package %s is not embedded: %v", dir, err)
		}
		for _, e := range entries {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
				continue
			}
			src, err := fs.ReadFile(sources, dir+"/"+e.Name())
			if err != nil {
				return nil, err
			}
			content, imports, err := rewriteRuntimeImports(dir+"/"+e.Name(), string(src), local)
			if err != nil {
				return nil, err
			}
			want(imports)
			out = append(out, File{Name: path.Join(outDir(local+"/"+dir), e.Name()), Content: content})
		}
	}
	return out, nil
}

// sourceRelativeBase returns the import path that the output directory
// stands for under paths=source_relative, where each generated file sits
// at its .proto file's path: a file a/b/x.proto of Go package
// example.com/m/a/b puts the output directory at example.com/m (and a
// file at the root, at its own package). Every generated file must agree;
// when one's directory does not end its import path, or they disagree,
// the output cannot build as one tree and ok is false.
func sourceRelativeBase(files map[string]*fileNames) (base string, ok bool) {
	for _, f := range files {
		if !f.generate {
			continue
		}
		b, ok := sourceRelativeRoot(f.desc.Path(), f.importPath)
		if !ok {
			return "", false
		}
		if base != "" && b != base {
			return "", false
		}
		base = b
	}
	return base, base != ""
}

// sourceRelativeRoot is the import path the output directory stands for
// under paths=source_relative by one file, at path file (a/b/x.proto) of Go
// package importPath: importPath less the file's directory
// (example.com/m for example.com/m/a/b), importPath itself for a file at
// the root; ok is false when importPath does not end in the directory.
func sourceRelativeRoot(file, importPath string) (root string, ok bool) {
	switch dir := path.Dir(file); {
	case dir == ".":
		return importPath, true
	case strings.HasSuffix(importPath, "/"+dir):
		return strings.TrimSuffix(importPath, "/"+dir), true
	}
	return "", false
}

// SourceRelativeRoot is sourceRelativeRoot for fd's path and its Go
// package under opts.
func SourceRelativeRoot(fd protoreflect.FileDescriptor, opts Options) (string, bool) {
	ip, _ := GoPackageOf(fd, opts)
	return sourceRelativeRoot(fd.Path(), ip)
}

// rewriteRuntimeImports replaces the import paths github.com/protoplay/
// protoplay/runtime/... of a Go file with local + "/runtime/...", and
// returns the file and its import paths before the rewrite. A file with no
// such import is returned as is. src must be gofmt-clean: only the file's
// head (its package clause and import declarations) is formatted again,
// because the new paths may sort in another order; the code below the
// imports is copied unchanged, so the cost does not grow with the file.
func rewriteRuntimeImports(name, src, local string) (string, []string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ImportsOnly)
	if err != nil {
		return "", nil, fmt.Errorf("runtime=local: %v", err)
	}
	var imports []string
	var b strings.Builder
	last := 0
	for _, im := range f.Imports {
		p, err := strconv.Unquote(im.Path.Value)
		if err != nil {
			return "", nil, fmt.Errorf("runtime=local: %s: %v", name, err)
		}
		imports = append(imports, p)
		rest, ok := strings.CutPrefix(p, runtimeModule+"/runtime/")
		if !ok {
			continue
		}
		from, to := fset.Position(im.Path.Pos()).Offset, fset.Position(im.Path.End()).Offset
		b.WriteString(src[last:from])
		b.WriteString(strconv.Quote(local + "/runtime/" + rest))
		last = to
	}
	if last == 0 {
		return src, imports, nil
	}
	// The head ends with the last import declaration (ImportsOnly stops
	// there, so f.Decls holds the import declarations only).
	end := fset.Position(f.Decls[len(f.Decls)-1].End()).Offset
	b.WriteString(src[last:end])
	head, err := format.Source([]byte(b.String()))
	if err != nil {
		return "", nil, fmt.Errorf("runtime=local: %s after the import rewrite: %v", name, err)
	}
	return strings.TrimSuffix(string(head), "\n") + src[end:], imports, nil
}

// GoPackages returns the distinct Go import paths of the packages that
// files generate into with opts, sorted. An error when the files cannot
// become Go (the diagnostics Generate would give, joined).
func GoPackages(files []protoreflect.FileDescriptor, opts Options) ([]string, error) {
	g, diags := newGenerator(files, opts)
	if len(diags) > 0 {
		return nil, diagsError(diags)
	}
	var out []string
	for p := range g.pkgGenerated {
		out = append(out, p)
	}
	sort.Strings(out)
	return out, nil
}

// MessageGoType returns the Go import path, package name and type name
// that message type name gets when files are generated with opts. An error
// when name is not a message of files or their imports, or when the files
// cannot become Go.
func MessageGoType(files []protoreflect.FileDescriptor, opts Options, name protoreflect.FullName) (importPath, pkgName, goName string, err error) {
	g, diags := newGenerator(files, opts)
	if len(diags) > 0 {
		return "", "", "", diagsError(diags)
	}
	m := g.msgs[name]
	if m == nil {
		return "", "", "", fmt.Errorf("%s is not a message type of the schema", name)
	}
	return m.file.importPath, m.file.pkgName, m.goName, nil
}

func diagsError(ds []diag.Diagnostic) error {
	msgs := make([]string, len(ds))
	for i, d := range ds {
		msgs[i] = d.String()
	}
	return fmt.Errorf("%s", strings.Join(msgs, "\n"))
}

// GoPackageOf returns the Go import path and package name that file fd
// gets with opts (an M mapping, protoplay's well-known type packages,
// go_package, or the default), whether or not it is generated.
func GoPackageOf(fd protoreflect.FileDescriptor, opts Options) (importPath, pkgName string) {
	return resolvePackage(fd, &opts)
}
