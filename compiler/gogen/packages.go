package gogen

import (
	"fmt"
	"github.com/protoplay/protoplay/compiler/diag"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

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

// WellKnownFiles returns the well-known type files, descriptor.proto
// included, whose Go code protoplay keeps under runtime/wkt, sorted by
// path ("google/protobuf/any.proto", ...). It is the one list of them: the
// compiler's standard imports and the runtime/wkt golden test derive theirs
// from it. The caller owns the slice.
func WellKnownFiles() []string {
	names := make([]string, 0, len(wellKnown))
	for name := range wellKnown {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
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
	outName    string // the generated file's path (see outputPath); set for generated files
	// resolverName is the file's ProtoJSON resolver function (see
	// ProtoJSONResolverName), a derived declaration.
	resolverName string
	// public holds the forwards of the file's public imports, set by
	// renderOne before the file is printed (see publicForwards).
	public []publicImport
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
	importPath, name, _ = resolvePackageFrom(fd, opts)
	return importPath, name
}

// PlacedByDefault returns fd's Go import path and whether it is the
// default one, opts.DefaultImportPrefix's (protoplay.local when unset)
// and the file's proto package: no M option, go_package or well-known
// type package gives it (protoc-gen-go refuses such a file).
func PlacedByDefault(fd protoreflect.FileDescriptor, opts Options) (importPath string, byDefault bool) {
	importPath, _, byDefault = resolvePackageFrom(fd, &opts)
	return importPath, byDefault
}

// resolvePackageFrom is resolvePackage, also saying whether the import
// path is the default one.
func resolvePackageFrom(fd protoreflect.FileDescriptor, opts *Options) (importPath, name string, byDefault bool) {
	file := fd.Path()
	if m, ok := opts.ImportMap[file]; ok {
		importPath, name = splitGoPackage(m)
		if name == "" {
			// As protoc-gen-go: an M option without ";name" moves the
			// package, and go_package's ";name" still names it.
			if fo, ok := fd.Options().(*descriptorpb.FileOptions); ok {
				_, name = splitGoPackage(fo.GetGoPackage())
			}
		}
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
		byDefault = true
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
	return importPath, goPackageName(name), byDefault
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
			return "", fmt.Errorf("output path %q for %s does not start with module= prefix %q; give the file a Go package below it (M%s=%s/%s puts it there)", out, f.desc.Path(), opts.Module, f.desc.Path(), strings.TrimSuffix(opts.Module, "/"), f.importPath)
		}
		out = strings.TrimPrefix(out, prefix)
	}
	return out, nil
}

// goPackagePath is the source path of a file's go_package option
// (FileDescriptorProto.options = 8, FileOptions.go_package = 11).
var goPackagePath = protoreflect.SourcePath{8, 11}

// checkImportPaths reports an import path that Go code cannot use, for the
// files generated and for the files whose types their code refers to: the
// go command accepts only paths of ASCII letters, digits and "-._~+",
// with non-empty elements that neither start nor end with a dot
// (golang.org/x/mod/module.CheckImportPath). The diagnostic points at the
// go_package option when the path comes from it.
func (g *generator) checkImportPaths() []diag.Diagnostic {
	var diags []diag.Diagnostic
	checked := map[*fileNames]bool{}
	check := func(f *fileNames) {
		if checked[f] {
			return
		}
		checked[f] = true
		problem := importPathProblem(f.importPath)
		if problem == "" {
			return
		}
		d := diag.Diagnostic{Severity: diag.SeverityError, File: f.desc.Path(), Message: fmt.Sprintf("Go import path %q %s", f.importPath, problem)}
		if _, mapped := g.opts.ImportMap[f.desc.Path()]; mapped {
			d.Message += " (from the M" + f.desc.Path() + " option)"
		} else if loc := f.desc.SourceLocations().ByPath(goPackagePath); loc.Path != nil {
			d.Line, d.Column = loc.StartLine+1, loc.StartColumn+1
			d.Message += "; fix the go_package option"
		}
		diags = append(diags, d)
	}
	for _, f := range g.files {
		if !f.generate {
			continue
		}
		check(f)
		forEachFieldType(f.desc, func(_ protoreflect.FieldDescriptor, t protoreflect.Descriptor) {
			check(g.byPath[t.ParentFile().Path()])
		})
		g.forEachMethodType(f.desc, func(_ protoreflect.MethodDescriptor, t protoreflect.Descriptor) {
			check(g.byPath[t.ParentFile().Path()])
		})
	}
	return diags
}

// importPathProblem says what is wrong with p as a Go import path, or "".
func importPathProblem(p string) string {
	if p == "" {
		return "is empty"
	}
	for _, r := range p {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("-._~+/", r)) {
			return fmt.Sprintf("holds %q; Go import paths hold only ASCII letters, digits and -._~+", r)
		}
	}
	for _, elem := range strings.Split(p, "/") {
		switch {
		case elem == "":
			return "has an empty element (a leading, trailing or double slash)"
		case elem[0] == '.' || elem[len(elem)-1] == '.':
			return fmt.Sprintf("has the element %q, which starts or ends with a dot", elem)
		}
	}
	return ""
}

// knownOS and knownArch are the GOOS and GOARCH values go/build knows
// (go/build/syslist.go): a file named x_linux.pb.go or x_arm64.pb.go is
// built only for that system.
var knownOS = []string{"aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios", "js",
	"linux", "nacl", "netbsd", "openbsd", "plan9", "solaris", "wasip1", "windows", "zos"}
var knownArch = []string{"386", "amd64", "amd64p32", "arm", "armbe", "arm64", "arm64be", "loong64", "mips",
	"mipsle", "mips64", "mips64le", "mips64p32", "mips64p32le", "ppc", "ppc64", "ppc64le", "riscv", "riscv64",
	"s390", "s390x", "sparc", "sparc64", "wasm"}

// checkOutputPaths decides the output path of every generated file and
// reports one that cannot hold Go code the go command builds: a path that
// leaves the output directory, a file name the go command ignores (leading
// "_" or ".") or builds for one system only (x_windows.pb.go), a name that
// is not printable UTF-8, or two files written to one path (or to paths
// that differ only in case, which the go command rejects).
func (g *generator) checkOutputPaths(files []protoreflect.FileDescriptor) []diag.Diagnostic {
	var diags []diag.Diagnostic
	bad := func(fd protoreflect.FileDescriptor, format string, args ...any) {
		diags = append(diags, diag.Diagnostic{Severity: diag.SeverityError, File: fd.Path(), Message: fmt.Sprintf(format, args...)})
	}
	if g.opts.Module != "" && g.opts.Paths == "source_relative" {
		// An option error, said once rather than at every file.
		return []diag.Diagnostic{{Severity: diag.SeverityError, Message: "cannot use module= with paths=source_relative (module= strips a prefix from import-path output paths, which source_relative does not write)"}}
	}
	byFold := map[string]*fileNames{}
	for _, fd := range files {
		f := g.byPath[fd.Path()]
		name, err := outputPath(f, &g.opts)
		if err != nil {
			bad(fd, "%s", err)
			continue
		}
		f.outName = name
		base := path.Base(name)
		stem, _, _ := strings.Cut(base, ".")
		elems := strings.Split(stem, "_")
		if len(elems) > 1 && elems[len(elems)-1] == "test" {
			elems = elems[:len(elems)-1]
		}
		last := ""
		if len(elems) > 1 {
			last = elems[len(elems)-1]
		}
		switch {
		case !fs.ValidPath(name) || name == ".":
			bad(fd, "output path %q is not a relative path inside the output directory", name)
		case !utf8.ValidString(name) || strings.ContainsFunc(name, func(r rune) bool { return !unicode.IsGraphic(r) }):
			bad(fd, "output path %q holds characters that are not printable UTF-8; rename the .proto file", name)
		case base[0] == '_' || base[0] == '.':
			bad(fd, "output file %s would be ignored by the go command, which skips names starting with %q; rename the .proto file", base, base[:1])
		case slices.Contains(knownOS, last) || slices.Contains(knownArch, last):
			bad(fd, "output file %s would be built only for %s (a Go file name ending in _%s is a build constraint); rename the .proto file", base, last, last)
		}
		key := strings.ToLower(name)
		if prev, ok := byFold[key]; ok {
			if prev.outName == name {
				bad(fd, "output file %s is also generated for %s; give one of the files another go_package or name", name, prev.desc.Path())
			} else {
				bad(fd, "output file %s and %s, generated for %s, differ only in case, which the go command rejects; rename one of the files", name, prev.outName, prev.desc.Path())
			}
			continue
		}
		byFold[key] = f
	}
	return diags
}

// position returns the 1-based line and column of d in its file, or 0, 0.
func position(d protoreflect.Descriptor) (line, col int) {
	loc := d.ParentFile().SourceLocations().ByDescriptor(d)
	if loc.Path == nil && loc.StartLine == 0 && loc.StartColumn == 0 {
		return 0, 0
	}
	return loc.StartLine + 1, loc.StartColumn + 1
}

func diagAt(d protoreflect.Descriptor, format string, args ...any) diag.Diagnostic {
	line, col := position(d)
	return diag.Diagnostic{Severity: diag.SeverityError, File: d.ParentFile().Path(), Line: line, Column: col, Message: fmt.Sprintf(format, args...)}
}

// checkPackageNames reports files that share a Go import path but not a
// package name.
func checkPackageNames(files []*fileNames) []diag.Diagnostic {
	byPath := map[string]*fileNames{}
	var diags []diag.Diagnostic
	for _, f := range files {
		first, ok := byPath[f.importPath]
		if !ok {
			byPath[f.importPath] = f
			continue
		}
		if first.pkgName != f.pkgName && (f.generate || first.generate) {
			diags = append(diags, diag.Diagnostic{Severity: diag.SeverityError, File: f.desc.Path(), Line: 1, Column: 1, Message: fmt.Sprintf(
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
	// derived points at the stored name of a declaration protoplay derives
	// from others (a oneof wrapper or interface, a Default_ constant, an
	// enum's _name and _value maps); nil for the types and enum values the
	// schema declares.
	derived *string
}

// checkCollisions decides the package-level Go identifiers of the generated
// files of each Go package, which share one scope. The types and enum value
// constants the schema declares keep their names; two of them with one name
// (tally_sheet and TallySheet, Outer.Inner_Part and Outer_Inner.Part, an
// enum value E_X and a message E_X) are reported, naming both proto
// elements, where protoc-gen-go emits code that does not build.
//
// A derived declaration (a oneof wrapper or interface, a Default_ constant,
// an enum's maps, the ProtoJSON resolver) that meets a taken name takes "_"
// suffixes until it is free, as protoc-gen-go does for oneof wrappers. The
// names it avoids are those of its own file and of the files that file
// imports, directly or not, in the same Go package: the files that are
// present in every gen run that generates it. So a file's names are the
// same whichever other files share the run (one protoc or buf run per
// file or per directory builds the package as one run for all does), and
// a derived name that meets a declaration of a file outside that set is
// reported, naming both, rather than renamed in this run only.
//
// It records, per file, the names its code must not shadow (its visible
// declarations) in g.visibleDecls for the import naming (see importNames),
// and reports an import name that meets a declaration of another file of
// the package.
func (g *generator) checkCollisions() []diag.Diagnostic {
	// own[f][p] is what f's code declares in Go package p: its messages'
	// package and, with services on, the gRPC or Connect package.
	own := map[*fileNames]map[string][]goDecl{}
	for _, f := range g.files {
		m := map[string][]goDecl{f.importPath: g.fileDecls(f)}
		for p, decls := range g.serviceDecls(f) {
			m[p] = append(m[p], decls...)
		}
		own[f] = m
	}
	// g.files lists dependencies first, so the derived names of a file's
	// imports are final when its own are decided.
	g.visibleDecls = map[*fileNames]map[string]map[string]goDecl{}
	for _, f := range g.files {
		vis := map[string]map[string]goDecl{}
		for _, x := range g.importClosure(f) {
			for p, decls := range own[x] {
				if _, writes := own[f][p]; !writes {
					continue
				}
				if vis[p] == nil {
					vis[p] = map[string]goDecl{}
				}
				for _, d := range decls {
					if d.derived != nil && x == f {
						continue
					}
					if _, ok := vis[p][d.name]; !ok {
						vis[p][d.name] = d
					}
				}
			}
		}
		decls := own[f][f.importPath]
		for i := range decls {
			d := &decls[i]
			if d.derived == nil {
				continue
			}
			for {
				if _, taken := vis[f.importPath][*d.derived]; !taken {
					break
				}
				*d.derived += "_"
			}
			d.name = *d.derived
			vis[f.importPath][d.name] = *d
		}
		g.visibleDecls[f] = vis
	}

	// Every declaration of the run, by Go package, for the files whose
	// code is generated (their package is): the schema's own first, then
	// the derived ones, so that a derived name is the one reported.
	type fileDecl struct {
		goDecl
		file *fileNames
	}
	byPkg := map[string][]fileDecl{}
	for _, derivedPass := range []bool{false, true} {
		for _, f := range g.files {
			for p, decls := range own[f] {
				if !g.pkgGenerated[p] && !g.pkgGenerated[f.importPath] {
					continue
				}
				for _, d := range decls {
					if (d.derived != nil) == derivedPass {
						byPkg[p] = append(byPkg[p], fileDecl{d, f})
					}
				}
			}
		}
	}
	var diags []diag.Diagnostic
	pkgs := make([]string, 0, len(byPkg))
	for p := range byPkg {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	all := map[string]map[string]fileDecl{}
	for _, p := range pkgs {
		seen := map[string]fileDecl{}
		for _, d := range byPkg[p] {
			prev, ok := seen[d.name]
			if !ok {
				seen[d.name] = d
				continue
			}
			if d.derived == nil {
				diags = append(diags, diagAt(d.from,
					"Go identifier %s for %s %s collides with %s %s (%s); rename one of them",
					d.name, d.what, d.from.FullName(), prev.what, describeDecl(prev.goDecl), prev.from.ParentFile().Path()))
				continue
			}
			diags = append(diags, diagAt(d.from,
				"Go identifier %s for %s %s collides with %s %s (%s), a file %s does not import; "+
					"a derived name avoids only the names of its file and of the files it imports, so that it does not depend on what else a gen run generates: rename one of them",
				d.name, d.what, describeDecl(d.goDecl), prev.what, describeDecl(prev.goDecl), prev.from.ParentFile().Path(), d.from.ParentFile().Path()))
		}
		all[p] = seen
	}
	// An import name of a generated file that another file of its package
	// declares (lowercase message p beside an import of package p): the
	// import name avoided only the file's visible declarations.
	for _, f := range g.files {
		if !f.generate {
			continue
		}
		for _, imp := range g.importNames(f) {
			if d, ok := all[f.importPath][imp.name]; ok && d.file != f {
				diags = append(diags, diag.Diagnostic{Severity: diag.SeverityError, File: f.desc.Path(), Line: 1, Column: 1, Message: fmt.Sprintf(
					"Go import name %s for package %q in the code of %s collides with %s %s (%s), a file %s does not import; rename one of them",
					imp.name, imp.path, f.desc.Path(), d.what, describeDecl(d.goDecl), d.from.ParentFile().Path(), f.desc.Path())})
			}
		}
	}
	return diags
}

// describeDecl names the proto element a declaration comes from: its full
// name, or the path of the file for a file's own declarations.
func describeDecl(d goDecl) string {
	if fd, ok := d.from.(protoreflect.FileDescriptor); ok {
		return "of " + fd.Path()
	}
	return string(d.from.FullName())
}

// importClosure returns f and every file it imports, directly or not.
func (g *generator) importClosure(f *fileNames) []*fileNames {
	seen := map[string]bool{}
	var out []*fileNames
	var walk func(fd protoreflect.FileDescriptor)
	walk = func(fd protoreflect.FileDescriptor) {
		if seen[fd.Path()] {
			return
		}
		seen[fd.Path()] = true
		out = append(out, g.byPath[fd.Path()])
		imps := fd.Imports()
		for i := 0; i < imps.Len(); i++ {
			walk(imps.Get(i).FileDescriptor)
		}
	}
	walk(f.desc)
	return out
}

// fileDecls lists the package-level declarations the file's code makes.
func (g *generator) fileDecls(f *fileNames) []goDecl {
	var out []goDecl
	enum := func(ed protoreflect.EnumDescriptor) {
		en := g.enums[ed.FullName()]
		out = append(out, goDecl{name: en.goName, from: ed, what: "enum"})
		if g.opts.EnumMaps {
			out = append(out, goDecl{en.nameMap, ed, "enum name map", &en.nameMap}, goDecl{en.valueMap, ed, "enum value map", &en.valueMap})
		}
		seen := map[string]bool{}
		for i, v := range en.values {
			if seen[v] {
				continue // aliases of one name are emitted once
			}
			seen[v] = true
			out = append(out, goDecl{name: v, from: ed.Values().Get(i), what: "enum value"})
		}
		for i, a := range en.aliases {
			if a != "" && !seen[a] {
				seen[a] = true
				out = append(out, goDecl{name: a, from: ed.Values().Get(i), what: "enum value (prefixed alias)"})
			}
		}
	}
	// api holds the declarations of the opaque and hybrid APIs (builder
	// types, oneof case types and constants, the opaque form's oneof
	// wrapper types), decided after the others, so that a name the open
	// API has is the same whatever API level its neighbours have.
	var api []goDecl
	var msg func(md protoreflect.MessageDescriptor)
	msg = func(md protoreflect.MessageDescriptor) {
		if md.IsMapEntry() {
			return
		}
		mn := g.msgs[md.FullName()]
		out = append(out, goDecl{name: mn.goName, from: md, what: "message"})
		level := g.level(md)
		if level == apiOpen && g.fileIsHybrid(md.ParentFile()) {
			// Open in x.pb.go, opaque in x_protoopaque.pb.go: the
			// names of both.
			level = apiHybrid
		}
		if level != apiOpen {
			api = append(api, goDecl{mn.builder, md, "message builder", &mn.builder})
			for _, o := range mn.oneofs {
				if o.desc.IsSynthetic() {
					continue
				}
				api = append(api, goDecl{o.caseType, o.desc, "oneof case type", &o.caseType}, goDecl{o.notSet, o.desc, "oneof case constant", &o.notSet})
				for _, fn := range o.fields {
					api = append(api, goDecl{fn.caseName, fn.desc, "oneof case constant", &fn.caseName}, goDecl{fn.opaqueWrapper, fn.desc, "oneof field", &fn.opaqueWrapper})
				}
			}
		}
		for _, fn := range mn.fields {
			if fn.oneof != nil && level != apiOpaque {
				out = append(out, goDecl{fn.wrapper, fn.desc, "oneof field", &fn.wrapper})
			}
			if fn.desc.HasDefault() {
				out = append(out, goDecl{fn.defaultName, fn.desc, "field default", &fn.defaultName})
			}
		}
		for _, o := range mn.oneofs {
			if !o.desc.IsSynthetic() {
				out = append(out, goDecl{o.iface, o.desc, "oneof", &o.iface})
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
	out = append(out, goDecl{f.resolverName, f.desc, "ProtoJSON resolver", &f.resolverName})
	out = append(out, api...)
	if xs := g.fileExtensions(f.desc); len(xs) > 0 {
		for _, xd := range xs {
			out = append(out, goDecl{name: g.extensionGoName(xd), from: xd, what: "extension"})
		}
		out = append(out, goDecl{name: ExtensionsListName(f.desc.Path()), from: f.desc, what: "extension list"})
	}
	return out
}

// checkImportCycles reports a cycle among Go packages. Proto files may form
// no cycle while the Go packages they map to do (a.proto in package p imports
// b.proto in q, which imports c.proto in p); Go rejects that at build time,
// so protoplay reports the files that close the cycle.
func (g *generator) checkImportCycles() []diag.Diagnostic {
	// edges[p][q] is a file of p whose code refers to a type in q.
	type edge struct {
		file  protoreflect.FileDescriptor
		field protoreflect.Descriptor // a field, or a method of gRPC service code
		ref   protoreflect.Descriptor
	}
	edges := map[string]map[string]edge{}
	for _, f := range g.files {
		from := f.importPath
		addEdge := func(fd protoreflect.Descriptor, t protoreflect.Descriptor) {
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
		}
		forEachFieldType(f.desc, func(fd protoreflect.FieldDescriptor, t protoreflect.Descriptor) { addEdge(fd, t) })
		if g.opts.GRPC { // the gRPC file is in f's package; Connect's package is imported by none
			g.forEachMethodType(f.desc, func(md protoreflect.MethodDescriptor, t protoreflect.Descriptor) { addEdge(md, t) })
		}
	}
	var diags []diag.Diagnostic
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

// manglePath is ProtoJSONResolverName's one-to-one mapping of a file path
// to the letters, digits and "_" of a Go identifier.
func manglePath(path string) string {
	alnum := func(r rune) bool { return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' }
	if base, ok := strings.CutSuffix(path, ".proto"); ok && simplePath(base) {
		return strings.ReplaceAll(strings.ReplaceAll(base, "_", "__"), "/", "_") + "_proto"
	}
	var name, code strings.Builder
	for _, r := range path {
		if alnum(r) {
			name.WriteRune(r)
			continue
		}
		name.WriteByte('_')
		switch r {
		case '/':
			code.WriteByte('s')
		case '.':
			code.WriteByte('d')
		case '_':
			code.WriteByte('u')
		case '-':
			code.WriteByte('h')
		default:
			fmt.Fprintf(&code, "x%06x", r)
		}
	}
	return name.String() + "___" + code.String()
}

// simplePath reports whether base (a path without its ".proto") is
// segments joined by "/", each ASCII letters and digits in words joined by
// single "_".
func simplePath(base string) bool {
	for _, seg := range strings.Split(base, "/") {
		for _, word := range strings.Split(seg, "_") {
			if word == "" {
				return false
			}
			for _, r := range word {
				if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
					return false
				}
			}
		}
	}
	return true
}
