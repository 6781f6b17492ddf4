package compiler

import (
	"context"
	"encoding/base64"
	"sort"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/protoplay/protoplay/compiler/descheck"
	"github.com/protoplay/protoplay/compiler/diag"
	"github.com/protoplay/protoplay/compiler/frontend"
	"github.com/protoplay/protoplay/compiler/payload"
)

// DescriptorSet is a compiled schema given as input: a serialized
// google.protobuf.FileDescriptorSet, as `protoc --descriptor_set_out`
// (with --include_imports) and `buf build -o image.binpb` write it (a
// buf image is a FileDescriptorSet whose files carry extra fields, which
// are ignored).
type DescriptorSet struct {
	// Name names the set in diagnostics (the file it was read from).
	Name string
	// Data is the set's binary encoding.
	Data []byte
}

// DescriptorSetExtensions are the file name endings that mark an entry of
// Request.Sources (and so of a Workspace request's Files) as a descriptor
// set rather than .proto text: its content is the set's bytes, or those
// bytes in standard base64 (how the JSON API carries them).
var DescriptorSetExtensions = []string{".binpb", ".pb", ".protoset", ".desc"}

// IsDescriptorSetName reports whether a Sources entry called name holds a
// descriptor set (see DescriptorSetExtensions).
func IsDescriptorSetName(name string) bool {
	for _, ext := range DescriptorSetExtensions {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

// splitSources takes the descriptor-set entries out of sources: the
// .proto sources left (sources itself when it has none) and the sets, by
// name.
func splitSources(sources map[string]string) (map[string]string, []DescriptorSet) {
	var sets []DescriptorSet
	for name := range sources {
		if IsDescriptorSetName(name) {
			sets = append(sets, DescriptorSet{Name: name})
		}
	}
	if sets == nil {
		return sources, nil
	}
	sort.Slice(sets, func(i, j int) bool { return sets[i].Name < sets[j].Name })
	rest := make(map[string]string, len(sources)-len(sets))
	for name, text := range sources {
		if !IsDescriptorSetName(name) {
			rest[name] = text
		}
	}
	for i := range sets {
		text := sources[sets[i].Name]
		if b, err := base64.StdEncoding.DecodeString(text); err == nil {
			sets[i].Data = b
		} else {
			sets[i].Data = []byte(text)
		}
	}
	return rest, sets
}

// linkedSets is the files of a request's descriptor sets, linked.
type linkedSets struct {
	// files holds every file of the sets, in the order the sets list
	// them (the first set first); byPath the same by path.
	files  []protoreflect.FileDescriptor
	byPath map[string]protoreflect.FileDescriptor
	// origin is the set that holds each file, for diagnostics.
	origin map[string]string
}

// fdsType is the payload schema of FileDescriptorSet, whose wire view
// positions a malformed set's fault.
func fdsType() (*payload.Schema, protoreflect.MessageDescriptor) {
	s, err := payload.NewSchema([]protoreflect.FileDescriptor{descriptorpb.File_google_protobuf_descriptor_proto})
	if err != nil {
		return nil, nil
	}
	md, _ := s.FindMessage("google.protobuf.FileDescriptorSet")
	return s, md
}

// linkSets parses sets and links their files as the protoc plugin's
// request is linked (GenerateFromDescriptors): protodesc.NewFiles's checks
// (package descheck), then protocompile's linker (frontend.Link), which
// unlike protodesc accepts MessageSets. Each file's imports must be in a
// set, or be one of the standard files the front end bundles
// (google/protobuf/*.proto), which are then compiled from that bundle.
// Problems are error diagnostics whose File is the set's name: bytes that
// are not a FileDescriptorSet (with the byte offset of the fault), a file
// two sets give differently, a missing import, a descriptor the checks
// refuse (its file named in the message).
func linkSets(ctx context.Context, sets []DescriptorSet, lim Limits) (*linkedSets, []Diagnostic) {
	var ds []Diagnostic
	errorf := func(set, format string, args ...any) {
		d := diag.Errorf(format, args...)
		d.File = set
		ds = append(ds, d)
	}
	protos := map[string]*descriptorpb.FileDescriptorProto{}
	ls := &linkedSets{byPath: map[string]protoreflect.FileDescriptor{}, origin: map[string]string{}}
	var order []string
	for _, set := range sets {
		if len(set.Data) > MaxInputBytes {
			d := diag.Errorf("descriptor set of %d bytes exceeds the limit of %d bytes (MaxInputBytes)", len(set.Data), MaxInputBytes)
			d.File, d.Limit = set.Name, "MaxInputBytes"
			ds = append(ds, d)
			continue
		}
		var fds descriptorpb.FileDescriptorSet
		if err := proto.Unmarshal(set.Data, &fds); err != nil {
			msg := strings.TrimPrefix(err.Error(), "proto: ")
			if s, md := fdsType(); s != nil {
				if _, perr := s.WireView(md, set.Data); perr != nil {
					msg = perr.Error()
				}
			}
			errorf(set.Name, "not a FileDescriptorSet: %s", msg)
			continue
		}
		if len(fds.File) == 0 {
			errorf(set.Name, "the descriptor set holds no file")
		}
		for _, fd := range fds.File {
			name := fd.GetName()
			if prev, ok := protos[name]; ok {
				if !proto.Equal(prev, fd) {
					errorf(set.Name, "%s differs from the file of the same name in %s", name, ls.origin[name])
				}
				continue
			}
			protos[name] = fd
			ls.origin[name] = set.Name
			order = append(order, name)
		}
	}
	if len(ds) > 0 {
		return nil, ds
	}
	// Imports missing from the sets: the front end's bundled standard
	// files, when they are standard, else an error.
	added := map[string]bool{}
	for k := 0; k < len(order); k++ {
		name := order[k]
		if added[name] {
			continue
		}
		for _, dep := range protos[name].GetDependency() {
			if _, ok := protos[dep]; ok {
				continue
			}
			if strings.HasPrefix(dep, "google/protobuf/") {
				res := frontend.Compile(ctx, frontend.Request{Files: []string{dep}, Limits: lim})
				if !res.HasErrors() && len(res.Files) == 1 {
					addStandard(res.Files[0], protos, &order, added)
					continue
				}
			}
			errorf(ls.origin[name], "%s imports %s, which is not in the descriptor set (write the set with its imports: protoc --include_imports, or buf build)", name, dep)
		}
	}
	if len(ds) > 0 {
		return nil, ds
	}
	list := make([]*descriptorpb.FileDescriptorProto, len(order))
	for k, name := range order {
		list[k] = protos[name]
	}
	// protodesc's checks (descheck), then protocompile's linker, as for a
	// protoc plugin's request: protodesc itself refuses MessageSets (see
	// frontend.Link), which the corpus's benchmark schemas declare.
	place := func(fds []Diagnostic) []Diagnostic {
		for k := range fds {
			d := &fds[k]
			if set, ok := ls.origin[d.File]; ok {
				d.Message = strings.TrimPrefix(d.String(), string(d.Severity)+": ")
				d.File, d.Line, d.Column, d.EndLine, d.EndColumn = set, 0, 0, 0, 0
			}
		}
		return fds
	}
	if cds := descheck.Files(list); len(cds) > 0 {
		return nil, place(cds)
	}
	res := frontend.Link(list, order)
	if res.HasErrors() {
		return nil, place(res.Diagnostics)
	}
	for k, fd := range res.Files {
		if added[order[k]] {
			continue
		}
		ls.byPath[fd.Path()] = fd
		ls.files = append(ls.files, fd)
	}
	return ls, nil
}

// addStandard adds fd, a standard file compiled from the front end's
// bundle, and the standard files it imports, to protos and order.
func addStandard(fd protoreflect.FileDescriptor, protos map[string]*descriptorpb.FileDescriptorProto, order *[]string, added map[string]bool) {
	if _, ok := protos[fd.Path()]; ok {
		return
	}
	imps := fd.Imports()
	for i := 0; i < imps.Len(); i++ {
		addStandard(imps.Get(i).FileDescriptor, protos, order, added)
	}
	protos[fd.Path()] = protodesc.ToFileDescriptorProto(fd)
	*order = append(*order, fd.Path())
	added[fd.Path()] = true
}

// setFilesOf lists the files of the set called name, in its order, but
// the standard google/protobuf/*.proto ones; nil when no set has that
// name.
func setFilesOf(ls *linkedSets, name string) []string {
	if !IsDescriptorSetName(name) {
		return nil
	}
	var out []string
	found := false
	for _, fd := range ls.files {
		if ls.origin[fd.Path()] != name {
			continue
		}
		found = true
		if !strings.HasPrefix(fd.Path(), "google/protobuf/") {
			out = append(out, fd.Path())
		}
	}
	if found && out == nil {
		out = []string{}
	}
	return out
}

// withSets runs the front end on req with its descriptor sets (in
// req.DescriptorSets and in Sources entries named as sets): the sets'
// files are linked first (linkSets); the .proto sources are compiled as
// before; and the result's Files are the compiled sources followed by the
// sets' files: those named in req.Files, or when req.Files is empty all of
// them but the standard google/protobuf/*.proto files, which are imports. A source file may not import a set's file (the front end does
// not see the sets), and may not have a set file's path.
func withSets(ctx context.Context, req Request) *frontend.Result {
	sources, fromSources := splitSources(req.Sources)
	sets := append(append([]DescriptorSet(nil), req.DescriptorSets...), fromSources...)
	fe := func(files []string) *frontend.Result {
		return frontend.Compile(ctx, frontend.Request{
			Sources:         sources,
			FS:              req.FS,
			ImportPaths:     req.ImportPaths,
			ImportPathNames: req.ImportPathNames,
			Files:           files,
			Limits:          req.Limits,
			Cache:           req.LinkCache,
		})
	}
	if len(sets) == 0 {
		return fe(req.Files)
	}
	ls, ds := linkSets(ctx, sets, req.Limits)
	if len(ds) > 0 {
		return &frontend.Result{Diagnostics: ds}
	}
	var srcFiles, setFiles []string
	for _, f := range req.Files {
		if _, ok := ls.byPath[f]; ok {
			setFiles = append(setFiles, f)
		} else if ofSet := setFilesOf(ls, f); ofSet != nil {
			// A set named as a file to compile: its files (but the
			// standard ones, imports).
			setFiles = append(setFiles, ofSet...)
		} else {
			srcFiles = append(srcFiles, f)
		}
	}
	for name := range sources {
		if set, ok := ls.origin[name]; ok {
			d := diag.Errorf("%s is both a source file and a file of descriptor set %s", name, set)
			d.File = name
			return &frontend.Result{Diagnostics: []Diagnostic{d}}
		}
	}
	res := &frontend.Result{}
	if len(srcFiles) > 0 || len(req.Files) == 0 && len(sources) > 0 {
		res = fe(srcFiles)
		if res.HasErrors() {
			return res
		}
	}
	if len(req.Files) == 0 {
		for _, fd := range ls.files {
			// The standard files a set carries for its imports
			// (--include_imports) are imports here too, as the front
			// end's bundled copies are: not generated, their types not
			// listed.
			if !strings.HasPrefix(fd.Path(), "google/protobuf/") {
				res.Files = append(res.Files, fd)
			}
		}
	} else {
		for _, f := range setFiles {
			res.Files = append(res.Files, ls.byPath[f])
		}
	}
	if len(res.Files) == 0 {
		res.Diagnostics = append(res.Diagnostics, diag.Errorf("no input files"))
	}
	return res
}
