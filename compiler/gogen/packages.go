package gogen

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

// RuntimeImportPath is the import path of the runtime every generated file
// uses.
const (
	RuntimeImportPath = "github.com/protoplay/protoplay/runtime/wire"
	wktImportPrefix   = "github.com/protoplay/protoplay/runtime/wkt/"
)

// wellKnown maps the well-known type files to the packages protoplay
// generates for them under runtime/wkt. Generated code that imports one of
// these files uses protoplay's package, never google.golang.org/protobuf's.
var wellKnown = map[string]string{
	"google/protobuf/any.proto":            "anypb",
	"google/protobuf/api.proto":            "apipb",
	"google/protobuf/duration.proto":       "durationpb",
	"google/protobuf/empty.proto":          "emptypb",
	"google/protobuf/field_mask.proto":     "fieldmaskpb",
	"google/protobuf/source_context.proto": "sourcecontextpb",
	"google/protobuf/struct.proto":         "structpb",
	"google/protobuf/timestamp.proto":      "timestamppb",
	"google/protobuf/type.proto":           "typepb",
	"google/protobuf/wrappers.proto":       "wrapperspb",
	"google/protobuf/descriptor.proto":     "descriptorpb",
}

// WellKnownImportPath returns the runtime package that holds the code for a
// well-known type file, and whether name is one.
func WellKnownImportPath(name string) (string, bool) {
	pkg, ok := wellKnown[name]
	if !ok {
		return "", false
	}
	return wktImportPrefix + pkg, true
}

type fileNames struct {
	desc       protoreflect.FileDescriptor
	importPath string
	pkgName    string
	generate   bool
}

// splitGoPackage splits "path;name" into its parts.
func splitGoPackage(s string) (importPath, name string) {
	if i := strings.Index(s, ";"); i >= 0 {
		return s[:i], s[i+1:]
	}
	return s, ""
}

// resolvePackage decides a file's Go import path and package name:
// an M mapping wins, then protoplay's well-known type packages, then
// go_package, then the documented default (see Options.DefaultImportPrefix).
func resolvePackage(fd protoreflect.FileDescriptor, opts *Options) (importPath, name string) {
	file := fd.Path()
	if m, ok := opts.ImportMap[file]; ok {
		importPath, name = splitGoPackage(m)
	} else if p, ok := WellKnownImportPath(file); ok {
		importPath = p
	} else if fo, ok := fd.Options().(*descriptorpb.FileOptions); ok && fo.GetGoPackage() != "" {
		importPath, name = splitGoPackage(fo.GetGoPackage())
		if !strings.ContainsAny(importPath, "./") && name == "" {
			// A bare name (go_package = "foo") was once a package name
			// only; keep it as the name and place the file by default.
			name, importPath = importPath, ""
		}
	}
	if importPath == "" {
		prefix := opts.DefaultImportPrefix
		if prefix == "" {
			prefix = DefaultImportPrefix
		}
		if pkg := string(fd.Package()); pkg != "" {
			importPath = prefix + "/" + strings.ReplaceAll(pkg, ".", "/")
		} else {
			importPath = prefix + "/" + strings.TrimSuffix(file, ".proto")
		}
	}
	if name == "" {
		name = path.Base(importPath)
	}
	return importPath, goPackageName(name)
}

// goPackageName makes name a usable Go package name: a valid identifier
// (goSanitized), and not "documentation", which the go command ignores
// (go/build skips files of package documentation).
func goPackageName(name string) string {
	name = goSanitized(name)
	if name == "documentation" {
		return "_documentation"
	}
	return name
}

// outputPath is where the Go file for f goes.
func outputPath(f *fileNames, opts *Options) (string, error) {
	base := strings.TrimSuffix(f.desc.Path(), ".proto") + ".pb.go"
	if opts.Paths == "source_relative" {
		if opts.Module != "" {
			return "", fmt.Errorf("cannot use module= with paths=source_relative")
		}
		return base, nil
	}
	out := path.Join(f.importPath, path.Base(base))
	if opts.Module != "" {
		prefix := strings.TrimSuffix(opts.Module, "/") + "/"
		if !strings.HasPrefix(out, prefix) {
			return "", fmt.Errorf("output path %q for %s does not start with module= prefix %q", out, f.desc.Path(), opts.Module)
		}
		out = strings.TrimPrefix(out, prefix)
	}
	return out, nil
}

// position returns the 1-based line and column of d in its file, or 0, 0.
func position(d protoreflect.Descriptor) (line, col int) {
	loc := d.ParentFile().SourceLocations().ByDescriptor(d)
	if loc.Path == nil && loc.StartLine == 0 && loc.StartColumn == 0 {
		return 0, 0
	}
	return loc.StartLine + 1, loc.StartColumn + 1
}

func diagAt(d protoreflect.Descriptor, format string, args ...any) Diagnostic {
	line, col := position(d)
	return Diagnostic{File: d.ParentFile().Path(), Line: line, Column: col, Message: fmt.Sprintf(format, args...)}
}

// checkPackageNames reports files that share a Go import path but not a
// package name.
func checkPackageNames(files []*fileNames) []Diagnostic {
	byPath := map[string]*fileNames{}
	var diags []Diagnostic
	for _, f := range files {
		first, ok := byPath[f.importPath]
		if !ok {
			byPath[f.importPath] = f
			continue
		}
		if first.pkgName != f.pkgName && (f.generate || first.generate) {
			diags = append(diags, Diagnostic{File: f.desc.Path(), Line: 1, Column: 1, Message: fmt.Sprintf(
				"Go package %q has inconsistent names %s (%s) and %s (%s)",
				f.importPath, first.pkgName, first.desc.Path(), f.pkgName, f.desc.Path())})
		}
	}
	return diags
}

// goDecl is one package-level Go declaration and the proto element it
// comes from.
type goDecl struct {
	name string
	from protoreflect.Descriptor
	what string
}

// checkCollisions reports package-level Go identifiers declared twice by the
// generated files of one Go package (for example tally_sheet and TallySheet,
// or Outer.Inner_Part and Outer_Inner.Part). protoc-gen-go emits such code
// and leaves `go build` to fail; protoplay names both proto elements instead.
func (g *generator) checkCollisions() []Diagnostic {
	byPkg := map[string][]goDecl{}
	for _, f := range g.files {
		if !g.pkgGenerated[f.importPath] {
			continue
		}
		byPkg[f.importPath] = append(byPkg[f.importPath], g.fileDecls(f)...)
	}
	var diags []Diagnostic
	pkgs := make([]string, 0, len(byPkg))
	for p := range byPkg {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, p := range pkgs {
		seen := map[string]goDecl{}
		for _, d := range byPkg[p] {
			prev, ok := seen[d.name]
			if !ok {
				seen[d.name] = d
				continue
			}
			diags = append(diags, diagAt(d.from,
				"Go identifier %s for %s %s collides with %s %s (%s); rename one of them",
				d.name, d.what, d.from.FullName(), prev.what, prev.from.FullName(), prev.from.ParentFile().Path()))
		}
	}
	return diags
}

// fileDecls lists the package-level declarations the file's code makes.
func (g *generator) fileDecls(f *fileNames) []goDecl {
	var out []goDecl
	var enum func(ed protoreflect.EnumDescriptor)
	enum = func(ed protoreflect.EnumDescriptor) {
		en := g.enums[ed.FullName()]
		out = append(out, goDecl{en.goName, ed, "enum"})
		if g.opts.EnumMaps {
			out = append(out, goDecl{en.goName + "_name", ed, "enum"}, goDecl{en.goName + "_value", ed, "enum"})
		}
		seen := map[string]bool{}
		for i, v := range en.values {
			if seen[v] {
				continue // aliases of one name are emitted once
			}
			seen[v] = true
			out = append(out, goDecl{v, ed.Values().Get(i), "enum value"})
		}
	}
	var msg func(md protoreflect.MessageDescriptor)
	msg = func(md protoreflect.MessageDescriptor) {
		if md.IsMapEntry() {
			return
		}
		mn := g.msgs[md.FullName()]
		out = append(out, goDecl{mn.goName, md, "message"})
		for _, fn := range mn.fields {
			if fn.oneof != nil {
				out = append(out, goDecl{fn.wrapper, fn.desc, "oneof field"})
			}
			if fn.desc.HasDefault() {
				out = append(out, goDecl{"Default_" + mn.goName + "_" + fn.goName, fn.desc, "field default"})
			}
		}
		for _, o := range mn.oneofs {
			if !o.desc.IsSynthetic() {
				out = append(out, goDecl{o.iface, o.desc, "oneof"})
			}
		}
		for i := 0; i < md.Enums().Len(); i++ {
			enum(md.Enums().Get(i))
		}
		for i := 0; i < md.Messages().Len(); i++ {
			msg(md.Messages().Get(i))
		}
	}
	for i := 0; i < f.desc.Enums().Len(); i++ {
		enum(f.desc.Enums().Get(i))
	}
	for i := 0; i < f.desc.Messages().Len(); i++ {
		msg(f.desc.Messages().Get(i))
	}
	return out
}

// checkImportCycles reports a cycle among Go packages. Proto files may form
// no cycle while the Go packages they map to do (a.proto in package p imports
// b.proto in q, which imports c.proto in p); Go rejects that at build time,
// so protoplay reports the files that close the cycle.
func (g *generator) checkImportCycles() []Diagnostic {
	// edges[p][q] is a file of p whose code refers to a type in q.
	type edge struct {
		file  protoreflect.FileDescriptor
		field protoreflect.FieldDescriptor
		ref   protoreflect.Descriptor
	}
	edges := map[string]map[string]edge{}
	for _, f := range g.files {
		from := f.importPath
		forEachFieldType(f.desc, func(fd protoreflect.FieldDescriptor, t protoreflect.Descriptor) {
			to := g.byPath[t.ParentFile().Path()].importPath
			if to == from {
				return
			}
			if edges[from] == nil {
				edges[from] = map[string]edge{}
			}
			if _, ok := edges[from][to]; !ok {
				edges[from][to] = edge{f.desc, fd, t}
			}
		})
	}
	var diags []Diagnostic
	reported := map[string]bool{}
	for _, f := range g.files {
		if !f.generate || reported[f.importPath] {
			continue
		}
		// Depth-first search for a path back to f's package.
		start := f.importPath
		var pathStack []string
		visited := map[string]bool{}
		var dfs func(p string) bool
		dfs = func(p string) bool {
			tos := make([]string, 0, len(edges[p]))
			for q := range edges[p] {
				tos = append(tos, q)
			}
			sort.Strings(tos)
			for _, q := range tos {
				pathStack = append(pathStack, p)
				if q == start {
					pathStack = append(pathStack, q)
					return true
				}
				if !visited[q] {
					visited[q] = true
					if dfs(q) {
						return true
					}
				}
				pathStack = pathStack[:len(pathStack)-1]
			}
			return false
		}
		if !dfs(start) {
			continue
		}
		var steps []string
		first := edges[pathStack[0]][pathStack[1]].field
		for i := 0; i+1 < len(pathStack); i++ {
			e := edges[pathStack[i]][pathStack[i+1]]
			steps = append(steps, fmt.Sprintf("%s (%s uses %s)", pathStack[i], e.file.Path(), e.ref.FullName()))
			reported[pathStack[i]] = true
		}
		steps = append(steps, pathStack[len(pathStack)-1])
		diags = append(diags, diagAt(first, "%s", "Go import cycle between packages: "+
			strings.Join(steps, " -> ")+"; give the files in the cycle go_package options that break it"))
	}
	return diags
}

// forEachFieldType calls fn for every message or enum type a field of the
// file's messages refers to: the references generated code makes.
// Extensions are left out; they generate no code yet.
func forEachFieldType(fd protoreflect.FileDescriptor, fn func(protoreflect.FieldDescriptor, protoreflect.Descriptor)) {
	field := func(f protoreflect.FieldDescriptor) {
		if f.IsMap() {
			v := f.MapValue()
			if v.Message() != nil {
				fn(f, v.Message())
			} else if v.Enum() != nil {
				fn(f, v.Enum())
			}
			return
		}
		if f.Message() != nil {
			fn(f, f.Message())
		} else if f.Enum() != nil {
			fn(f, f.Enum())
		}
	}
	var msg func(md protoreflect.MessageDescriptor)
	msg = func(md protoreflect.MessageDescriptor) {
		for i := 0; i < md.Fields().Len(); i++ {
			field(md.Fields().Get(i))
		}
		for i := 0; i < md.Messages().Len(); i++ {
			msg(md.Messages().Get(i))
		}
	}
	for i := 0; i < fd.Messages().Len(); i++ {
		msg(fd.Messages().Get(i))
	}
}
