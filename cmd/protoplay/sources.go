package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/protoplay/protoplay/compiler"
)

// multiFlag collects a repeatable string flag such as -I.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// schemaFlags are where a command's schema comes from: import roots for
// the .proto files named, and descriptor sets.
type schemaFlags struct {
	roots multiFlag
	// sets is --descriptor_set_in: FileDescriptorSet files, separated by
	// the OS's list separator (':' on Unix, ';' on Windows), as protoc
	// spells it; repeatable.
	sets multiFlag
}

// importFlags registers -I/--proto_path and --descriptor_set_in on fs.
func importFlags(fs *flag.FlagSet) *schemaFlags {
	var f schemaFlags
	fs.Var(&f.roots, "I", "import root `DIR` (repeatable; also -IDIR, -I=DIR; default: the current directory)")
	fs.Var(&f.roots, "proto_path", "same as -I (--proto_path=DIR)")
	fs.Var(&f.sets, "descriptor_set_in", "`FILES`: FileDescriptorSets to take files from, as protoc writes them (--descriptor_set_out with --include_imports) and buf builds images, separated by '"+string(os.PathListSeparator)+"' (repeatable); a FILE.proto named that a set holds is taken from the set; with no FILE.proto named, the schema is every file of the sets")
	return &f
}

// hasSets reports whether descriptor sets were given.
func (f *schemaFlags) hasSets() bool { return len(f.sets) > 0 }

// request adds the descriptor sets to req, read from disk.
func (f *schemaFlags) request(req compiler.Request) (compiler.Request, error) {
	for _, list := range f.sets {
		for _, name := range filepath.SplitList(list) {
			if name == "" {
				continue
			}
			b, err := os.ReadFile(name)
			if err != nil {
				return req, err
			}
			req.DescriptorSets = append(req.DescriptorSets, compiler.DescriptorSet{Name: name, Data: b})
		}
	}
	return req, nil
}

// compileFiles compiles files found under roots on disk, naming them as
// protoc does: a file given by a path under one of the roots is named
// relative to that root. ctx bounds the compilation (see compiler.Compile).
func compileFiles(ctx context.Context, in *schemaFlags, files []string, opts compiler.Request) (*compiler.Result, error) {
	opts, err := in.request(opts)
	if err != nil {
		return nil, err
	}
	roots := []string(in.roots)
	if len(roots) == 0 {
		roots = []string{"."}
	}
	absRoots := make([]string, len(roots))
	for i, r := range roots {
		a, err := filepath.Abs(r)
		if err != nil {
			return nil, err
		}
		absRoots[i] = a
	}
	names := make([]string, len(files))
	outside := map[string]string{} // name -> directory, for files on disk under no root
	var shadowed []compiler.Diagnostic
	for i, f := range files {
		name, onDisk, under := relativeToRoot(absRoots, f)
		names[i] = filepath.ToSlash(name)
		if onDisk && !under {
			outside[names[i]] = packageRoot(f)
		}
		if under {
			if by := shadowedBy(roots, absRoots, f, name); by != "" {
				shadowed = append(shadowed, compiler.Diagnostic{Severity: compiler.SeverityError, File: f,
					Message: fmt.Sprintf("the file is shadowed in the import paths: its name %s finds %s first; give that file instead, or order the -I paths so that this file's comes first", names[i], by)})
			}
		}
	}
	if len(shadowed) > 0 {
		return &compiler.Result{Diagnostics: shadowed}, nil
	}
	fsRoots := make([]string, len(absRoots))
	for i, a := range absRoots {
		fsRoots[i] = strings.TrimPrefix(filepath.ToSlash(a), "/")
		if fsRoots[i] == "" {
			fsRoots[i] = "."
		}
	}
	opts.FS = os.DirFS("/")
	opts.ImportPaths = fsRoots
	opts.ImportPathNames = roots
	opts.Files = names
	res := compiler.Compile(ctx, opts)
	// As protoc says: a file named on the command line must be under an
	// import path, or its name (as imports name it) is unknown.
	for i, d := range res.Diagnostics {
		if dir, ok := outside[d.File]; ok && d.Message == "file does not exist" {
			res.Diagnostics[i].Message = fmt.Sprintf("the file is not under an import path (-I), so it has no name to import it by: add -I %s, as protoc's --proto_path", dir)
			res.Diagnostics[i].Notes = nil
		}
	}
	// As protoc warns: a mistyped -I otherwise shows only as files not
	// found, if any are.
	for i, r := range roots {
		if st, err := os.Stat(absRoots[i]); err != nil || !st.IsDir() {
			what := "does not exist"
			if err == nil {
				what = "is not a directory"
			}
			res.Diagnostics = append(res.Diagnostics, compiler.Diagnostic{Severity: compiler.SeverityWarning, Message: fmt.Sprintf("import path %s %s", r, what)})
		}
	}
	return res, nil
}

// packageDecl is a .proto file's package statement.
var packageDecl = regexp.MustCompile(`(?m)^\s*package\s+([A-Za-z_][\w.]*)\s*;`)

// packageRoot is the import path to suggest for f, a .proto file under
// no -I: the directory above the folders its package names, when f lies
// in them (proto/b/v1/b.proto of package b.v1: proto), as imports of it
// are usually rooted there; else f's own directory.
func packageRoot(f string) string {
	dir := filepath.Dir(f)
	b, err := os.ReadFile(f)
	if err != nil {
		return dir
	}
	m := packageDecl.FindSubmatch(b)
	if m == nil {
		return dir
	}
	pkgDir := filepath.FromSlash(strings.ReplaceAll(string(m[1]), ".", "/"))
	clean := filepath.Clean(dir)
	if clean == pkgDir {
		return "."
	}
	if strings.HasSuffix(clean, string(filepath.Separator)+pkgDir) {
		return strings.TrimSuffix(clean, string(filepath.Separator)+pkgDir)
	}
	return dir
}

// shadowedBy returns the file (as -I and the name spell it) that an
// import of name finds before f, the file on disk given on the command
// line: the same name under an earlier root. "" when name finds f. roots
// are the -I values as given, absRoots the same made absolute.
func shadowedBy(roots, absRoots []string, f, name string) string {
	a, err := filepath.Abs(f)
	if err != nil {
		return ""
	}
	for i, r := range absRoots {
		p := filepath.Join(r, name)
		if p == a {
			return ""
		}
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			if same, err := os.Stat(a); err == nil && os.SameFile(st, same) {
				return ""
			}
			return filepath.Join(roots[i], name)
		}
	}
	return ""
}

// relativeToRoot maps a file path given on the command line to its name
// under the first import root that contains it (under true); other paths
// are taken as already relative to a root. onDisk says whether f exists
// as given: a file on disk under no root cannot be named (see
// compileFiles).
func relativeToRoot(absRoots []string, f string) (name string, onDisk, under bool) {
	if _, err := os.Stat(f); err == nil {
		if a, err := filepath.Abs(f); err == nil {
			for _, r := range absRoots {
				if rel, err := filepath.Rel(r, a); err == nil && !strings.HasPrefix(rel, "..") {
					return rel, true, true
				}
			}
		}
		return f, true, false
	}
	return f, false, false
}

// printDiagnostics writes the diagnostics, each as "file:line:col:
// severity: message" (protoc's form, which editors and CI annotators
// parse), then its other spans, notes, help and suggested edits, indented
// (see compiler.Diagnostic.Details), and reports whether any was an error.
// Warnings are written only when warnings is true (errors, and the notes
// that place them, always are).
func printDiagnostics(w io.Writer, res *compiler.Result, warnings bool) bool {
	for _, d := range res.Diagnostics {
		if !warnings && d.Severity == compiler.SeverityWarning {
			continue
		}
		fmt.Fprintln(w, d.String())
		fmt.Fprint(w, d.Details())
	}
	return res.HasErrors()
}
