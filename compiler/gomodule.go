package compiler

import (
	"context"
	"encoding/hex"
	"fmt"
	"path"
	"sort"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"

	protoplay "github.com/protoplay/protoplay"
	"github.com/protoplay/protoplay/compiler/gogen"
)

// ModuleRequest asks for the generated Go as a Go module that builds
// anywhere (Module): go.mod, the generated code, the runtime it needs
// (runtime=local) and a main.go that round-trips a message.
type ModuleRequest struct {
	Files Sources `json:"files"`
	// Options are generator options, "k=v,k=v" (see ParseOptions).
	// runtime=local and paths=import are implied, services= is ignored
	// (service code needs grpc-go or connect-go); module= sets the module
	// path when Module is empty.
	Options string `json:"options,omitempty"`
	// Module is the go.mod module path. Default: the options' module=,
	// else the import path prefix the generated packages share, one
	// element above a package that would sit at the module root (main.go
	// is there).
	Module string `json:"module,omitempty"`
	// Type is the message type main.go round-trips, "pkg.Message".
	// Default: the first message type declared in the files (by path).
	Type   string      `json:"type,omitempty"`
	Limits *CallLimits `json:"limits,omitempty"`
}

// ModuleResult is the answer to Module.
type ModuleResult struct {
	// Module is the go.mod module path.
	Module string `json:"module"`
	// Type is the message type main.go round-trips; "" when the schema has
	// none (main.go then only imports the packages).
	Type string `json:"type"`
	// Files are go.mod, main.go, the generated files and the runtime
	// packages, paths relative to the module root, sorted.
	Files []File `json:"files"`
}

// GoModuleVersion is the go directive of the go.mod Module writes: the
// oldest Go that builds the generated code and the runtime (for range over
// an int, maps and slices).
const GoModuleVersion = "1.23"

// Module compiles req.Files and returns them as a Go module that needs no
// network and no other module (imported files other than the well-known
// types are generated into it, at <module>/<their import path>): `go build ./... && go run .` in a folder
// holding Files works offline. When the generated packages share no
// import path prefix, the module is the one of the request's files that no
// other of them imports, and the files they import whose packages lie
// outside it (copies of dependencies such as google/type/*.proto, uploaded
// with the API) are generated into it as imported files are. A schema with
// errors is an *Error of KindSchema; a module path that does not hold
// every generated package, or files no other imports whose packages share
// no prefix, an *Error of KindUsage, as
// is a build whose runtime sources cannot be loaded (the playground's
// core, offline before its prefetch; the message names the module's
// runtime).
func (w *Workspace) Module(ctx context.Context, req ModuleRequest) (*ModuleResult, error) {
	opts, err := ParseOptions(req.Options)
	if err != nil {
		return nil, err
	}
	opts.Paths = ""
	opts.Runtime = "local"
	// Service code needs grpc-go or connect-go: not a module with no
	// requirements.
	opts.GRPC, opts.Connect = false, false
	s, err := w.schemaWithin(ctx, req.Files, req.Limits)
	if err != nil {
		return nil, err
	}
	w.mu.Lock()
	files := w.cached.res.Files
	w.mu.Unlock()
	mod := req.Module
	if mod == "" {
		mod = opts.Module
	}
	placeDeps := false // the request's dependencies go under mod (moduleOfTops)
	if mod == "" {
		pkgs, err := gogen.GoPackages(files, opts)
		if err != nil {
			return nil, &Error{Kind: KindSchema, Offset: -1, Message: err.Error()}
		}
		if mod, err = gogen.LocalRuntimeRoot(pkgs, opts); err != nil {
			// Files that others of the request import may be copies of
			// their dependencies, with Go packages of their own (an API
			// uploaded with the google/api or google/type files it uses):
			// the module is then the one of the files no other imports, and
			// those dependencies are placed as imported files are.
			root, tops, ok := moduleOfTops(files, req.Files, opts)
			if !ok {
				return nil, &Error{Kind: KindUsage, Offset: -1, Message: err.Error()}
			}
			mod, pkgs, placeDeps = root, tops, true
		}
		for _, p := range pkgs {
			if p == mod {
				// main.go takes the module root: the module is one level up.
				if mod = path.Dir(mod); mod == "." {
					return nil, &Error{Kind: KindUsage, Offset: -1, Message: fmt.Sprintf("package %s sits where main.go goes; give a module path above it", p)}
				}
				break
			}
		}
	}
	if placeDeps {
		for _, fd := range files {
			if _, mapped := opts.ImportMap[fd.Path()]; mapped || !importedByOthers(files, fd.Path()) {
				continue
			}
			if ip, name := gogen.GoPackageOf(fd, opts); ip != mod && !strings.HasPrefix(ip, mod+"/") {
				if opts.ImportMap == nil {
					opts.ImportMap = map[string]string{}
				}
				opts.ImportMap[fd.Path()] = mod + "/" + ip + ";" + name
			}
		}
	}
	mod = strings.TrimSuffix(mod, "/")
	opts.Module = mod

	// The imported files other than the well-known types (google/api/*,
	// google/type/*, ...) are generated into the module too, each at
	// <module>/<its own import path>, so that it needs no other module.
	names := make([]string, 0, len(req.Files))
	for name := range req.Files {
		names = append(names, name)
	}
	sort.Strings(names)
	seen := map[string]bool{}
	var imported []string
	var walk func(fd protoreflect.FileDescriptor)
	walk = func(fd protoreflect.FileDescriptor) {
		imps := fd.Imports()
		for i := 0; i < imps.Len(); i++ {
			imp := imps.Get(i).FileDescriptor
			p := imp.Path()
			if seen[p] {
				continue
			}
			seen[p] = true
			walk(imp)
			if _, ok := req.Files[p]; ok {
				continue
			}
			if _, wkt := gogen.WellKnownImportPath(p); wkt {
				continue
			}
			if _, ok := opts.ImportMap[p]; !ok {
				ip, name := gogen.GoPackageOf(imp, opts)
				if opts.ImportMap == nil {
					opts.ImportMap = map[string]string{}
				}
				opts.ImportMap[p] = mod + "/" + ip + ";" + name
			}
			imported = append(imported, p)
		}
	}
	for _, fd := range files {
		walk(fd)
	}

	// The module holds the runtime (runtime=local is implied): its sources
	// are loaded first, so that a failure (the playground's core fetches
	// them, and may be offline) names the module's runtime, not an option
	// the caller never gave.
	if _, err := protoplay.RuntimeFS(); err != nil {
		return nil, &Error{Kind: KindUsage, Offset: -1, Message: fmt.Sprintf("the module's copy of the runtime (%s/protoplay/runtime): %v", mod, err)}
	}
	ctx, lim, cancel := w.limits(ctx, req.Limits)
	defer cancel()
	res := Compile(ctx, Request{Sources: req.Files, Files: append(names, imported...), Options: opts, Limits: lim})
	if err := res.Err(); err != nil {
		// The module path does not hold a package, or a limit was hit.
		return nil, err
	}
	out := &ModuleResult{Module: mod, Files: res.Generated}
	typ := protoreflect.FullName(req.Type)
	if typ == "" {
		if ms := s.Messages(); len(ms) > 0 {
			for _, m := range ms {
				if _, ok := req.Files[m.File]; ok || !strings.HasPrefix(m.File, "google/protobuf/") && fromSet(req.Files, m.File) {
					typ = protoreflect.FullName(m.Name)
					break
				}
			}
		}
	}
	main, err := roundTripMain(s, res.Files, opts, typ)
	if err != nil {
		return nil, err
	}
	out.Type = string(typ)
	out.Files = append(out.Files,
		File{Name: "go.mod", Content: fmt.Sprintf("module %s\n\ngo %s\n", mod, GoModuleVersion)},
		File{Name: "main.go", Content: main})
	sortFiles(out.Files)
	return out, nil
}

// importedByOthers tells whether a file of files other than the one at
// path imports it.
func importedByOthers(files []protoreflect.FileDescriptor, path string) bool {
	for _, fd := range files {
		if fd.Path() == path {
			continue
		}
		imps := fd.Imports()
		for i := 0; i < imps.Len(); i++ {
			if imps.Get(i).Path() == path {
				return true
			}
		}
	}
	return false
}

// moduleOfTops is the module path of the request's files that no other of
// them imports (the API rather than the dependencies uploaded with it),
// and their Go packages; ok is false when they have none in common.
func moduleOfTops(files []protoreflect.FileDescriptor, req Sources, opts Options) (mod string, pkgs []string, ok bool) {
	seen := map[string]bool{}
	for _, fd := range files {
		if _, in := req[fd.Path()]; !in || importedByOthers(files, fd.Path()) {
			continue
		}
		if ip, _ := gogen.GoPackageOf(fd, opts); !seen[ip] {
			seen[ip] = true
			pkgs = append(pkgs, ip)
		}
	}
	sort.Strings(pkgs)
	mod, err := gogen.LocalRuntimeRoot(pkgs, opts)
	return mod, pkgs, err == nil && len(pkgs) > 0
}

func sortFiles(fs []File) {
	sort.Slice(fs, func(i, j int) bool { return fs[i].Name < fs[j].Name })
}

// roundTripMain is the main.go of a Module: it unmarshals the sample value
// of typ (the bytes the playground's Encode gives for payload.Sample),
// marshals it again, prints the hex, unmarshals that and compares the two
// values with the generated Equal, exiting 1 on any difference or error.
// With no message type it only prints that.
func roundTripMain(s *Schema, files []protoreflect.FileDescriptor, opts Options, typ protoreflect.FullName) (string, error) {
	if typ == "" {
		return "// The schema declares no message type to round-trip.\npackage main\n\nfunc main() { println(\"no message type in the schema\") }\n", nil
	}
	importPath, _, goName, err := gogen.MessageGoType(files, opts, typ)
	if err != nil {
		return "", &Error{Kind: KindType, Offset: -1, Message: err.Error()}
	}
	sample, err := s.Sample(string(typ), JSON)
	if err != nil {
		return "", err
	}
	bin, err := s.Encode(string(typ), []byte(sample), JSON, Binary)
	if err != nil {
		return "", err
	}
	var lit strings.Builder
	h := hex.EncodeToString(bin)
	for i := 0; i < len(h); i += 64 {
		fmt.Fprintf(&lit, "\t%q +\n", h[i:min(i+64, len(h))])
	}
	lit.WriteString("\t\"\"")
	return fmt.Sprintf(`// Command main round-trips a %[1]s through the generated code:
// it unmarshals the playground's sample value, marshals it again, prints
// the bytes as hex, and checks that they decode to an equal value.
// Build and run it with: go build ./... && go run .
package main

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"os"

	pb %[2]q
)

// sample is the playground's sample value of %[1]s, encoded.
const sample = ""+
%[3]s

func main() {
	in, err := hex.DecodeString(sample)
	if err != nil {
		fail(err)
	}
	var m pb.%[4]s
	if err := m.Unmarshal(in); err != nil {
		fail(fmt.Errorf("unmarshal the sample: %%w", err))
	}
	out, err := m.Marshal()
	if err != nil {
		fail(fmt.Errorf("marshal: %%w", err))
	}
	fmt.Printf("%[1]s: %%d bytes\n%%x\n", len(out), out)
	var back pb.%[4]s
	if err := back.Unmarshal(out); err != nil {
		fail(fmt.Errorf("unmarshal what Marshal wrote: %%w", err))
	}
	if !back.Equal(&m) {
		fail(fmt.Errorf("the value read back differs from the one written"))
	}
	if bytes.Equal(out, in) {
		fmt.Println("round trip ok: the same bytes as the sample")
	} else {
		// Map entries, for one, may be written in another order.
		fmt.Println("round trip ok: an equal value (its bytes differ from the sample's)")
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "round trip failed:", err)
	os.Exit(1)
}
`, typ, importPath, lit.String(), goName), nil
}

// fromSet reports whether path is not a source of files, which holds
// descriptor sets: then it is a set's file.
func fromSet(files Sources, path string) bool {
	if _, ok := files[path]; ok {
		return false
	}
	for name := range files {
		if IsDescriptorSetName(name) {
			return true
		}
	}
	return false
}
