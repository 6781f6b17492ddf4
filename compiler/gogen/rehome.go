package gogen

import (
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

// Rehome returns base with the options that place every file reachable
// from files (except the well-known types, which live in protoplay's
// runtime) under module, keeping its own import path (from go_package, or
// DefaultImportPrefix and its proto package) and package name below it:
// M mappings for each file base does not map already, Paths "import" and
// Module module. Tests and protoplay check --generated use it to put a
// schema's generated packages into one temporary module.
func Rehome(files []protoreflect.FileDescriptor, module string, base Options) Options {
	opts := base
	opts.ImportMap = map[string]string{}
	for k, v := range base.ImportMap {
		opts.ImportMap[k] = v
	}
	seen := map[string]bool{}
	var walk func(fd protoreflect.FileDescriptor)
	walk = func(fd protoreflect.FileDescriptor) {
		if seen[fd.Path()] {
			return
		}
		seen[fd.Path()] = true
		for i := 0; i < fd.Imports().Len(); i++ {
			walk(fd.Imports().Get(i).FileDescriptor)
		}
		if _, ok := WellKnownImportPath(fd.Path()); ok {
			return
		}
		if _, ok := opts.ImportMap[fd.Path()]; ok {
			return
		}
		gp := ""
		if fo, ok := fd.Options().(*descriptorpb.FileOptions); ok {
			gp = fo.GetGoPackage()
		}
		path, name, _ := strings.Cut(gp, ";")
		if path == "" || !strings.ContainsAny(path, "./") {
			if name == "" {
				name = path
			}
			path = DefaultImportPrefix + "/" + strings.ReplaceAll(string(fd.Package()), ".", "/")
			if fd.Package() == "" {
				path = DefaultImportPrefix + "/" + strings.TrimSuffix(fd.Path(), ".proto")
			}
		}
		v := module + "/" + path
		if name != "" {
			v += ";" + name
		}
		opts.ImportMap[fd.Path()] = v
	}
	for _, fd := range files {
		walk(fd)
	}
	opts.Paths = "import"
	opts.Module = module
	return opts
}
