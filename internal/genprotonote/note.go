// Package genprotonote finds, in a generation's output, the imports that
// cannot build: protoc-gen-go's Go packages (under google.golang.org/genproto/,
// the googleapis files google/type/*, google/rpc/*, ...; under
// google.golang.org/protobuf/, the bundled files other than the well-known
// types, such as google/protobuf/compiler/plugin.proto) that the generated
// code imports for a .proto file the run did not generate. Their types lack
// the methods protoplay's generated code calls (Size,
// MarshalToSizedBuffer, UnmarshalWith, ...). The CLI and the protoc plugin
// print a note for each, saying which file to generate too and the M
// option that gives it a package of the caller's.
package genprotonote

import (
	"go/parser"
	"go/token"
	"path"
	"sort"
	"strconv"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
)

// Prefixes are where protoc-gen-go's Go for the files protoplay bundles
// lives (their go_package): the googleapis files, and protobuf's own files
// other than the well-known types (which generated code imports from
// protoplay's runtime/wkt instead). Generated code never imports anything
// else below them.
var Prefixes = []string{"google.golang.org/genproto/", "google.golang.org/protobuf/"}

func foreign(importPath string) bool {
	for _, p := range Prefixes {
		if strings.HasPrefix(importPath, p) {
			return true
		}
	}
	return false
}

// Note is one import of protoc-gen-go's googleapis code by generated code.
type Note struct {
	// GoFile is the generated file (its output path) that imports it.
	GoFile string
	// Import is the Go import path, below one of Prefixes.
	Import string
	// Proto is the .proto file whose Go package Import is.
	Proto string
	// M is the import path the note suggests for Proto (the value of an
	// option MProto=M; see suggest).
	M string
}

// Format is the note as one line, with the option spelled opt (the CLI's
// "--opt ", the plugin's "--<name>_opt=").
func (n Note) Format(opt string) string {
	return "note: " + n.GoFile + " imports " + n.Import + ", protoc-gen-go's Go for " + n.Proto +
		", whose types lack the methods protoplay's code calls, so it will not build against it; generate " + n.Proto +
		" too, into a package of yours: add it to the files and " + opt + "M" + n.Proto + "=" + n.M
}

// Find returns a Note for each Go package under Prefixes that res's
// generated files import for a .proto file res did not generate and opts
// does not map (M), once per package, sorted by GoFile. Generated files
// that do not parse are skipped.
func Find(res *compiler.Result, opts compiler.Options) []Note {
	protoOf := map[string]protoreflect.FileDescriptor{} // Go import path -> its .proto file
	generated := map[string]bool{}
	for _, fd := range res.Files {
		generated[fd.Path()] = true
	}
	for _, imp := range compiler.ImportClosure(res.Files) {
		if generated[imp.Path()] {
			continue
		}
		if _, mapped := opts.ImportMap[imp.Path()]; mapped {
			continue
		}
		fo, _ := imp.Options().(*descriptorpb.FileOptions)
		ip, _, _ := strings.Cut(fo.GetGoPackage(), ";")
		if foreign(ip) {
			protoOf[ip] = imp
		}
	}
	if len(protoOf) == 0 {
		return nil
	}
	var notes []Note
	noted := map[string]bool{}
	for _, f := range res.Generated {
		if !strings.HasSuffix(f.Name, ".go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f.Name, importHead(f.Content), parser.ImportsOnly)
		if err != nil {
			continue
		}
		for _, im := range af.Imports {
			p, err := strconv.Unquote(im.Path.Value)
			if err != nil || noted[p] {
				continue
			}
			file, ok := protoOf[p]
			if !ok {
				continue
			}
			noted[p] = true
			notes = append(notes, Note{GoFile: f.Name, Import: p, Proto: file.Path(), M: suggest(f.Name, p, file, res, opts)})
		}
	}
	sort.Slice(notes, func(i, j int) bool {
		return notes[i].GoFile < notes[j].GoFile || notes[i].GoFile == notes[j].GoFile && notes[i].Import < notes[j].Import
	})
	return notes
}

// importHead returns the start of src, a generated Go file, up to its
// first top-level declaration other than an import: all that an
// ImportsOnly parse reads, without copying and scanning the rest (a
// googleapis run's 25 MB took 55 ms).
func importHead(src string) string {
	for i := 0; i < len(src); {
		line := src[i:]
		if j := strings.IndexByte(line, '\n'); j >= 0 {
			line = line[:j+1]
		}
		for _, kw := range []string{"func ", "type ", "var ", "const "} {
			if strings.HasPrefix(line, kw) {
				return src[:i]
			}
		}
		i += len(line)
	}
	return src
}

// suggest is the M value a note gives for the .proto file proto, of Go
// package imp, that the generated file goFile imports:
//
//   - with paths=import, imp below module= when given (the playground's
//     .zip does the same), else below goFile's own package;
//   - with paths=source_relative, proto's file goes to its own directory
//     in the output, so its package must be that directory's: the import
//     path of the output directory (runtime_root, which protoplay gen
//     reads from go.mod; else the one goFile's package and directory
//     give; else example.com/yours), "/", proto's directory, and imp's
//     package name.
func suggest(goFile, imp string, proto protoreflect.FileDescriptor, res *compiler.Result, opts compiler.Options) string {
	if opts.Paths != "source_relative" {
		if m := strings.TrimSuffix(opts.Module, "/"); m != "" {
			return m + "/" + imp
		}
		if i := strings.LastIndex(goFile, "/"); i > 0 {
			return goFile[:i] + "/" + imp
		}
		return "example.com/yours/" + imp
	}
	base := opts.RuntimeRoot
	for _, fd := range res.Files {
		if base == "" && strings.TrimSuffix(fd.Path(), ".proto")+".pb.go" == goFile {
			base, _ = gogen.SourceRelativeRoot(fd, opts)
		}
	}
	if base == "" {
		base = "example.com/yours"
	}
	_, name := gogen.GoPackageOf(proto, opts)
	if dir := path.Dir(proto.Path()); dir != "." {
		base += "/" + dir
	}
	return base + ";" + name
}

// Unplaced is a note on the files res generated whose Go import path is
// protoplay's made-up default (see gogen.PlacedByDefault): no go_package,
// no M option, and no default_import_prefix option chose one. go build
// finds such a package only in a module of that path, and generated code
// that imports it does so by that path; protoc-gen-go refuses such files.
// "" when there are none. The option is spelled opt, as in Note.Format.
func Unplaced(res *compiler.Result, opts compiler.Options, opt string) string {
	if opts.DefaultImportPrefix != "" {
		return ""
	}
	var files, paths []string
	for _, fd := range res.Files {
		if p, ok := gogen.PlacedByDefault(fd, opts); ok {
			files, paths = append(files, fd.Path()), append(paths, p)
		}
	}
	if len(files) == 0 {
		return ""
	}
	// Under paths=source_relative a package's files go where its .proto
	// file is, whatever its import path: that path matters only where
	// generated code imports it (another package, or the runtime placed
	// by it when runtime_root is not known).
	if opts.Paths == "source_relative" && !importsDefault(res) {
		return ""
	}
	switch len(files) {
	case 1:
		return "note: " + files[0] + " has no go_package, so its Go package is " + paths[0] +
			", which go build finds only in a module of that path: give the file option go_package = \"IMPORT_PATH\", or " +
			opt + "M" + files[0] + "=IMPORT_PATH (protoc-gen-go requires one of them)"
	}
	sort.Strings(files)
	shown := strings.Join(files[:min(3, len(files))], ", ")
	if len(files) > 3 {
		shown += ", ..."
	}
	return "note: " + strconv.Itoa(len(files)) + " files (" + shown + ") have no go_package, so their Go packages are placed under " +
		gogen.DefaultImportPrefix + ", which go build finds only in a module of that path: give each file option go_package = \"IMPORT_PATH\", or " +
		opt + "M" + files[0] + "=IMPORT_PATH and the like (protoc-gen-go requires one of them)"
}

// importsDefault reports whether a generated Go file of res imports a
// package under gogen.DefaultImportPrefix.
func importsDefault(res *compiler.Result) bool {
	for _, f := range res.Generated {
		if strings.HasSuffix(f.Name, ".go") && strings.Contains(importHead(f.Content), `"`+gogen.DefaultImportPrefix+"/") {
			return true
		}
	}
	return false
}
