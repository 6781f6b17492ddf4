package frontend

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

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
// MessageSet messages (message_set_wire_format): protodesc refuses them
// unless the binary is built with the protolegacy tag. Such a file is
// built from a stand-in (each MessageSet without the option, its extension
// ranges, which may reach 2^31-1, cut to the largest field number), and
// each MessageSet message of the result is then given back what the
// stand-in took (markMessageSets): its options say
// message_set_wire_format, its ExtensionRanges are the declared ones, so
// the descriptor is the compiled one. protobuf-go's pseudo-internal
// IsMessageSet method stays false, as it was for the old front end's
// descriptors (which had no such method): it is the switch of protobuf-go's
// MessageSet wire format, which a binary without protolegacy refuses
// ("no support for message_set_wire_format"), and protoplay's generated
// code and payload codec encode a MessageSet as a message with extensions.
// Whether a message is a MessageSet is read from its options. What the
// stand-in cannot hold: an extension numbered above 536,870,911 declared in
// the same file as the MessageSet it extends (protodesc checks it against
// the cut ranges).
func buildFile(f *descriptorpb.FileDescriptorProto, r protodesc.Resolver) (protoreflect.FileDescriptor, error) {
	fd, err := protodesc.NewFile(f, r)
	if err == nil || !hasMessageSet(f.GetMessageType()) {
		return fd, err
	}
	standIn := proto.Clone(f).(*descriptorpb.FileDescriptorProto)
	sets := map[protoreflect.FullName]*descriptorpb.DescriptorProto{}
	prefix := protoreflect.FullName(f.GetPackage())
	clearMessageSet(prefix, standIn.GetMessageType(), f.GetMessageType(), sets)
	if fd, err = protodesc.NewFile(standIn, r); err != nil {
		return nil, err
	}
	if err := markMessageSets(fd, sets); err != nil {
		return nil, err
	}
	return fd, nil
}

func hasMessageSet(ms []*descriptorpb.DescriptorProto) bool {
	for _, m := range ms {
		if m.GetOptions().GetMessageSetWireFormat() || hasMessageSet(m.GetNestedType()) {
			return true
		}
	}
	return false
}

// maxFieldNumber is the largest field number (2^29 - 1).
const maxFieldNumber = 536870911

// clearMessageSet makes each MessageSet of ms (a clone of orig) a stand-in
// protodesc accepts: no message_set_wire_format (an options message is
// kept, for markMessageSets to set it back in), extension ranges wholly
// above maxFieldNumber dropped and the others cut there. sets gets each
// MessageSet's original declaration, by full name.
func clearMessageSet(prefix protoreflect.FullName, ms, orig []*descriptorpb.DescriptorProto, sets map[protoreflect.FullName]*descriptorpb.DescriptorProto) {
	for i, m := range ms {
		name := prefix.Append(protoreflect.Name(m.GetName()))
		if m.GetOptions().GetMessageSetWireFormat() {
			sets[name] = orig[i]
			m.Options.MessageSetWireFormat = nil
			var kept []*descriptorpb.DescriptorProto_ExtensionRange
			for _, r := range m.GetExtensionRange() {
				if r.GetStart() > maxFieldNumber {
					continue
				}
				if r.GetEnd() > maxFieldNumber+1 {
					r.End = proto.Int32(maxFieldNumber + 1)
				}
				kept = append(kept, r)
			}
			m.ExtensionRange = kept
		}
		clearMessageSet(name, m.GetNestedType(), orig[i].GetNestedType(), sets)
	}
}

// markMessageSets gives each MessageSet message of fd, built from the
// stand-in, its declaration's option and extension ranges back. protodesc
// offers no way to build one without the protolegacy tag, so this sets the
// option in the options message protodesc keeps and the extension ranges
// of protobuf-go's descriptor implementation (filedesc.Message:
// L2.ExtensionRanges, L2.ExtensionRangeOptions) through reflect, before
// fd is used anywhere; a protobuf-go whose implementation differs gives an
// error (TestMessageSetDescriptor), not a wrong descriptor.
func markMessageSets(fd protoreflect.FileDescriptor, sets map[protoreflect.FullName]*descriptorpb.DescriptorProto) error {
	for name, decl := range sets {
		md := findMessage(fd.Messages(), name)
		if md == nil {
			return fmt.Errorf("internal error: MessageSet %s not found in its built file", name)
		}
		opts, ok := md.Options().(*descriptorpb.MessageOptions)
		if !ok || opts == nil {
			return fmt.Errorf("internal error: MessageSet %s has no options message", name)
		}
		opts.MessageSetWireFormat = proto.Bool(true)
		if err := setMessageSet(md, decl); err != nil {
			return fmt.Errorf("internal error: marking %s as a MessageSet: %v", name, err)
		}
	}
	return nil
}

func setMessageSet(md protoreflect.MessageDescriptor, decl *descriptorpb.DescriptorProto) error {
	v := reflect.ValueOf(md)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("unexpected descriptor type %T", md)
	}
	l2 := v.Elem().FieldByName("L2")
	if !l2.IsValid() || l2.Kind() != reflect.Pointer || l2.IsNil() {
		return fmt.Errorf("unexpected descriptor layout %T", md)
	}
	ranges := l2.Elem().FieldByName("ExtensionRanges")
	rangeOpts := l2.Elem().FieldByName("ExtensionRangeOptions")
	if !ranges.IsValid() || ranges.Kind() != reflect.Struct || !ranges.CanSet() || !rangeOpts.IsValid() || !rangeOpts.CanSet() {
		return fmt.Errorf("unexpected descriptor layout %T", md)
	}
	fresh := reflect.New(ranges.Type()).Elem() // a new list: the old one's sorted index is stale
	list := fresh.FieldByName("List")
	if !list.IsValid() || list.Type() != reflect.TypeOf([][2]protoreflect.FieldNumber(nil)) {
		return fmt.Errorf("unexpected extension range layout %T", md)
	}
	var rs [][2]protoreflect.FieldNumber
	var fns []func() protoreflect.ProtoMessage
	for _, r := range decl.GetExtensionRange() {
		rs = append(rs, [2]protoreflect.FieldNumber{protoreflect.FieldNumber(r.GetStart()), protoreflect.FieldNumber(r.GetEnd())})
		var fn func() protoreflect.ProtoMessage
		if o := r.GetOptions(); o != nil {
			o = proto.Clone(o).(*descriptorpb.ExtensionRangeOptions)
			fn = func() protoreflect.ProtoMessage { return o }
		}
		fns = append(fns, fn)
	}
	if rangeOpts.Type() != reflect.TypeOf(fns) {
		return fmt.Errorf("unexpected extension range options layout %T", md)
	}
	list.Set(reflect.ValueOf(rs))
	ranges.Set(fresh)
	rangeOpts.Set(reflect.ValueOf(fns))
	if md.ExtensionRanges().Len() != len(rs) {
		return fmt.Errorf("the descriptor does not report what was set")
	}
	return nil
}

// findMessage finds the message called name among ms and their nested
// messages.
func findMessage(ms protoreflect.MessageDescriptors, name protoreflect.FullName) protoreflect.MessageDescriptor {
	for i := 0; i < ms.Len(); i++ {
		m := ms.Get(i)
		if m.FullName() == name {
			return m
		}
		if strings.HasPrefix(string(name), string(m.FullName())+".") {
			if found := findMessage(m.Messages(), name); found != nil {
				return found
			}
		}
	}
	return nil
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
	// protoc lists a file given twice on its command line (as ./a.proto
	// and a.proto) twice: it is generated once.
	files = dedup(slices.Clone(files))
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
