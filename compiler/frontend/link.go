package frontend

import (
	"errors"
	"fmt"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/protoplay/protoplay/compiler/diag"
)

// newFileDescriptor builds the protobuf-go descriptor of f with protodesc,
// its imports taken from linked.
func newFileDescriptor(f *descriptorpb.FileDescriptorProto, linked map[string]*linkedFile) (protoreflect.FileDescriptor, error) {
	r := &linkedResolver{files: linked}
	seen := map[string]bool{}
	var add func(p string)
	add = func(p string) {
		lf := linked[p]
		if seen[p] || lf == nil {
			return
		}
		seen[p] = true
		r.order = append(r.order, lf)
		imps := lf.fd.Imports()
		for i := 0; i < imps.Len(); i++ {
			add(imps.Get(i).Path())
		}
	}
	for _, dep := range f.GetDependency() {
		add(dep)
	}
	return buildFile(f, r)
}

// buildFile is protodesc.NewFile with the compiler's acceptance of
// MessageSet messages: protodesc refuses message_set_wire_format unless
// the binary is built with the protolegacy tag, so such a message is
// built without the option, its extension ranges ending at the largest
// field number (a MessageSet's may reach 2^31-1): IsMessageSet reports
// false, and extension numbers above 536,870,911 cannot be declared.
func buildFile(f *descriptorpb.FileDescriptorProto, r protodesc.Resolver) (protoreflect.FileDescriptor, error) {
	fd, err := protodesc.NewFile(f, r)
	if err == nil || !hasMessageSet(f.GetMessageType()) {
		return fd, err
	}
	f = proto.Clone(f).(*descriptorpb.FileDescriptorProto)
	clearMessageSet(f.GetMessageType())
	return protodesc.NewFile(f, r)
}

func hasMessageSet(ms []*descriptorpb.DescriptorProto) bool {
	for _, m := range ms {
		if m.GetOptions().GetMessageSetWireFormat() || hasMessageSet(m.GetNestedType()) {
			return true
		}
	}
	return false
}

func clearMessageSet(ms []*descriptorpb.DescriptorProto) {
	for _, m := range ms {
		if m.GetOptions().GetMessageSetWireFormat() {
			m.Options.MessageSetWireFormat = nil
			for _, r := range m.GetExtensionRange() {
				const maxEnd = 536870911 + 1 // exclusive
				if r.GetEnd() > maxEnd {
					r.End = proto.Int32(maxEnd)
				}
			}
		}
		clearMessageSet(m.GetNestedType())
	}
}

// linkedResolver resolves a file's imports to the descriptors linked so
// far, and names to their declarations in the file's imports, searched in
// a fixed order (order: the transitive imports, depth first).
type linkedResolver struct {
	files map[string]*linkedFile
	order []*linkedFile
}

func (r *linkedResolver) FindFileByPath(p string) (protoreflect.FileDescriptor, error) {
	if lf := r.files[p]; lf != nil {
		return lf.fd, nil
	}
	return nil, protoregistry.NotFound
}

func (r *linkedResolver) FindDescriptorByName(name protoreflect.FullName) (protoreflect.Descriptor, error) {
	for _, lf := range r.order {
		if d := lf.find(name); d != nil {
			return d, nil
		}
	}
	return nil, protoregistry.NotFound
}

// find returns the declaration of name in the file, nil if it declares
// none. The file's index of names (messages, fields, oneofs, enums, enum
// values, extensions, services, methods) is built on the first call.
func (lf *linkedFile) find(name protoreflect.FullName) protoreflect.Descriptor {
	lf.once.Do(func() { lf.names = nameIndex(lf.fd) })
	return lf.names[name]
}

func nameIndex(f protoreflect.FileDescriptor) map[protoreflect.FullName]protoreflect.Descriptor {
	m := map[protoreflect.FullName]protoreflect.Descriptor{}
	var walk func(ms protoreflect.MessageDescriptors, es protoreflect.EnumDescriptors, xs protoreflect.ExtensionDescriptors)
	walk = func(ms protoreflect.MessageDescriptors, es protoreflect.EnumDescriptors, xs protoreflect.ExtensionDescriptors) {
		for i := 0; i < es.Len(); i++ {
			e := es.Get(i)
			m[e.FullName()] = e
			for j := 0; j < e.Values().Len(); j++ {
				v := e.Values().Get(j)
				m[v.FullName()] = v
			}
		}
		for i := 0; i < xs.Len(); i++ {
			m[xs.Get(i).FullName()] = xs.Get(i)
		}
		for i := 0; i < ms.Len(); i++ {
			md := ms.Get(i)
			m[md.FullName()] = md
			for j := 0; j < md.Fields().Len(); j++ {
				m[md.Fields().Get(j).FullName()] = md.Fields().Get(j)
			}
			for j := 0; j < md.Oneofs().Len(); j++ {
				m[md.Oneofs().Get(j).FullName()] = md.Oneofs().Get(j)
			}
			walk(md.Messages(), md.Enums(), md.Extensions())
		}
	}
	walk(f.Messages(), f.Enums(), f.Extensions())
	for i := 0; i < f.Services().Len(); i++ {
		s := f.Services().Get(i)
		m[s.FullName()] = s
		for j := 0; j < s.Methods().Len(); j++ {
			m[s.Methods().Get(j).FullName()] = s.Methods().Get(j)
		}
	}
	return m
}

// Link links already-parsed files, as a protoc plugin receives them in a
// CodeGeneratorRequest (protos holds the files to generate and their whole
// import closure, each after its imports), and returns the linked
// descriptors of files, in order. Only protos are consulted, never the
// standard files. Problems are error diagnostics naming the file.
//
// It links with protodesc, as Compile does after compiling (MessageSet
// messages accepted as Compile accepts them: see buildFile), so that the
// backend sees the same descriptor implementation whichever face asked.
func Link(protos []*descriptorpb.FileDescriptorProto, files []string) (res *Result) {
	res = &Result{}
	defer func() {
		res.Diagnostics = Tidy(res.Diagnostics)
	}()
	defer Recover(&res.Diagnostics, func() { res.Files = nil })
	byName := make(map[string]*descriptorpb.FileDescriptorProto, len(protos))
	for _, f := range protos {
		byName[f.GetName()] = f
	}
	if len(files) == 0 {
		res.Diagnostics = append(res.Diagnostics, diag.Errorf("no files to generate"))
		return res
	}
	for _, name := range files {
		if byName[name] == nil {
			d := diag.Errorf("not among the request's proto_file entries")
			d.File = name
			res.Diagnostics = append(res.Diagnostics, d)
		}
	}
	if res.HasErrors() {
		return res
	}
	linked := map[string]*linkedFile{}
	state := map[string]int{} // 1: linking, 2: done
	var link func(name, from string) error
	link = func(name, from string) error {
		switch state[name] {
		case 1:
			return fmt.Errorf("import cycle through %s", name)
		case 2:
			if linked[name] == nil {
				return errors.New("an import failed to link")
			}
			return nil
		}
		f := byName[name]
		if f == nil {
			return fmt.Errorf("imports %s, which is not among the request's proto_file entries", name)
		}
		state[name] = 1
		defer func() { state[name] = 2 }()
		for _, dep := range f.GetDependency() {
			if err := link(dep, name); err != nil {
				return err
			}
		}
		fd, err := newFileDescriptor(f, linked)
		if err != nil {
			return err
		}
		linked[name] = &linkedFile{fd: fd}
		return nil
	}
	for _, name := range files {
		if err := link(name, ""); err != nil {
			d := diag.Errorf("%v", err)
			d.File = name
			res.Diagnostics = append(res.Diagnostics, d)
		}
	}
	if res.HasErrors() {
		return res
	}
	for _, name := range files {
		res.Files = append(res.Files, linked[name].fd)
	}
	return res
}
