package main

import (
	"fmt"
	"go/parser"
	"go/token"
	"sort"
	"strconv"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/protoplay/protoplay/compiler"
)

// genprotoPrefix is where protoc-gen-go's Go for the googleapis files
// (google/api/*, google/type/*, google/rpc/*, google/longrunning/*) lives,
// the default Go package of the files protoplay bundles beside the
// well-known types.
const genprotoPrefix = "google.golang.org/genproto/"

// foreignImportNotes returns a note for each Go package under
// google.golang.org/genproto/ that the generated files import for an
// imported .proto file not generated in this run: that package is
// protoc-gen-go's, whose types lack the methods protoplay's code calls
// (Size, MarshalToSizedBuffer, UnmarshalWith, ...), so the output cannot
// build against it. The note says which file to generate too, and the M
// option that puts it in a package of the caller's (below module= when
// given, else below the importing package), as the playground's .zip does.
// Files that cannot be parsed are skipped (they are the generator's own).
func foreignImportNotes(res *compiler.Result, opts compiler.Options) []string {
	// The Go import path of every imported file, from its go_package.
	protoOf := map[string]string{}
	generated := map[string]bool{}
	for _, fd := range res.Files {
		generated[fd.Path()] = true
	}
	seen := map[string]bool{}
	var walk func(fd protoreflect.FileDescriptor)
	walk = func(fd protoreflect.FileDescriptor) {
		imps := fd.Imports()
		for i := 0; i < imps.Len(); i++ {
			imp := imps.Get(i).FileDescriptor
			if seen[imp.Path()] {
				continue
			}
			seen[imp.Path()] = true
			walk(imp)
			if generated[imp.Path()] {
				continue
			}
			if _, mapped := opts.ImportMap[imp.Path()]; mapped {
				continue
			}
			fo, _ := imp.Options().(*descriptorpb.FileOptions)
			ip, _, _ := strings.Cut(fo.GetGoPackage(), ";")
			if strings.HasPrefix(ip, genprotoPrefix) {
				protoOf[ip] = imp.Path()
			}
		}
	}
	for _, fd := range res.Files {
		walk(fd)
	}
	if len(protoOf) == 0 {
		return nil
	}
	var notes []string
	noted := map[string]bool{}
	for _, f := range res.Generated {
		if !strings.HasSuffix(f.Name, ".go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f.Name, f.Content, parser.ImportsOnly)
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
			base := strings.TrimSuffix(opts.Module, "/")
			if base == "" {
				base = goImportDir(f.Name, opts)
			}
			notes = append(notes, fmt.Sprintf("note: %s imports %s, protoc-gen-go's Go for %s, whose types lack the methods protoplay's code calls, so it will not build against it; generate %s too, into a package of yours: add it to the files and --opt M%s=%s/%s",
				f.Name, p, file, file, file, base, p))
		}
	}
	sort.Strings(notes)
	return notes
}

// goImportDir is a prefix for the suggested import path of a generated
// file's foreign import: the file's own package when its output path is
// its import path (paths=import), else "example.com/yours".
func goImportDir(name string, opts compiler.Options) string {
	if opts.Paths == "source_relative" {
		return "example.com/yours"
	}
	if i := strings.LastIndex(name, "/"); i > 0 {
		return name[:i]
	}
	return "example.com/yours"
}
