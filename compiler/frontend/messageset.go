package frontend

import (
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/protoplay/protoplay/compiler/diag"
)

// A custom option whose value holds a MessageSet (a message with
// message_set_wire_format) is valid: protoc accepts it and writes the
// MessageSet's extensions in MessageSet wire format. The experimental
// compiler refuses it unless google.golang.org/protobuf is built with the
// protolegacy tag (ir.checkMessageSetFieldUsage, asking
// internal/messageset.CanSupportMessageSets), although the only thing it
// needs protobuf-go for is nothing: it evaluates the value all the same
// and encodes it with its own encoder (ir.Value.Marshal), writing each
// extension of the MessageSet as an ordinary field. So the front end drops
// that one error (isMessageSetOptionError) and re-encodes those
// extensions as protoc does (messageSetOptions), without build tags, in
// every face.

// isMessageSetOptionError reports whether d is the experimental compiler's
// refusal of a MessageSet extension in an option value.
func isMessageSetOptionError(d diag.Diagnostic) bool {
	return d.Severity == diag.SeverityError && strings.HasPrefix(d.Message, "field `") &&
		strings.HasSuffix(d.Message, "` may not be used in an option: it uses 'message set wire format' legacy proto1 feature which is not supported")
}

// dropMessageSetOptionErrors returns ds without the errors
// isMessageSetOptionError recognizes.
func dropMessageSetOptionErrors(ds []diag.Diagnostic) []diag.Diagnostic {
	out := ds[:0]
	for _, d := range ds {
		if !isMessageSetOptionError(d) {
			out = append(out, d)
		}
	}
	return out
}

// msIndex is what messageSetOptions needs of the files of a set: message
// types by full name (no leading dot) and extensions by extendee and
// number.
type msIndex struct {
	messages map[string]*descriptorpb.DescriptorProto
	exts     map[msExtKey]*descriptorpb.FieldDescriptorProto
}

type msExtKey struct {
	extendee string
	num      protowire.Number
}

// messageSetOptions re-encodes, in the option values of every file of set
// (the unknown fields of each options message: its custom options), each
// extension of a MessageSet as protoc writes it: an item group (field 1)
// holding the extension's number (type_id, field 2) and its message
// (field 3), the message re-encoded the same way; inside message fields
// and groups too. It does nothing when no
// file of set declares a MessageSet.
func messageSetOptions(set *descriptorpb.FileDescriptorSet) {
	ix := msIndex{messages: map[string]*descriptorpb.DescriptorProto{}, exts: map[msExtKey]*descriptorpb.FieldDescriptorProto{}}
	anySet := false
	var addMessages func(prefix string, mds []*descriptorpb.DescriptorProto)
	addExts := func(fds []*descriptorpb.FieldDescriptorProto) {
		for _, fd := range fds {
			ix.exts[msExtKey{strings.TrimPrefix(fd.GetExtendee(), "."), protowire.Number(fd.GetNumber())}] = fd
		}
	}
	addMessages = func(prefix string, mds []*descriptorpb.DescriptorProto) {
		for _, md := range mds {
			name := prefix + md.GetName()
			ix.messages[name] = md
			anySet = anySet || md.GetOptions().GetMessageSetWireFormat()
			addExts(md.GetExtension())
			addMessages(name+".", md.GetNestedType())
		}
	}
	for _, f := range set.GetFile() {
		prefix := ""
		if f.GetPackage() != "" {
			prefix = f.GetPackage() + "."
		}
		addMessages(prefix, f.GetMessageType())
		addExts(f.GetExtension())
	}
	if !anySet {
		return
	}
	for _, f := range set.GetFile() {
		ix.options(f.GetOptions(), "google.protobuf.FileOptions")
		ix.messageOptions(f.GetMessageType())
		ix.fieldOptions(f.GetExtension())
		ix.enumOptions(f.GetEnumType())
		for _, s := range f.GetService() {
			ix.options(s.GetOptions(), "google.protobuf.ServiceOptions")
			for _, m := range s.GetMethod() {
				ix.options(m.GetOptions(), "google.protobuf.MethodOptions")
			}
		}
	}
}

func (ix msIndex) messageOptions(mds []*descriptorpb.DescriptorProto) {
	for _, md := range mds {
		ix.options(md.GetOptions(), "google.protobuf.MessageOptions")
		ix.fieldOptions(md.GetField())
		ix.fieldOptions(md.GetExtension())
		for _, o := range md.GetOneofDecl() {
			ix.options(o.GetOptions(), "google.protobuf.OneofOptions")
		}
		for _, r := range md.GetExtensionRange() {
			ix.options(r.GetOptions(), "google.protobuf.ExtensionRangeOptions")
		}
		ix.enumOptions(md.GetEnumType())
		ix.messageOptions(md.GetNestedType())
	}
}

func (ix msIndex) fieldOptions(fds []*descriptorpb.FieldDescriptorProto) {
	for _, fd := range fds {
		ix.options(fd.GetOptions(), "google.protobuf.FieldOptions")
	}
}

func (ix msIndex) enumOptions(eds []*descriptorpb.EnumDescriptorProto) {
	for _, ed := range eds {
		ix.options(ed.GetOptions(), "google.protobuf.EnumOptions")
		for _, v := range ed.GetValue() {
			ix.options(v.GetOptions(), "google.protobuf.EnumValueOptions")
		}
	}
}

// options re-encodes the custom options (unknown fields) of opts, an
// options message of type name.
func (ix msIndex) options(opts proto.Message, name string) {
	if opts == nil {
		return
	}
	m := opts.ProtoReflect()
	if !m.IsValid() {
		return
	}
	if u := m.GetUnknown(); len(u) > 0 {
		if out, changed := ix.rewrite(name, u, 0); changed {
			m.SetUnknown(protoreflect.RawFields(out))
		}
	}
}

// maxRewriteDepth bounds the recursion into option values (the compiler
// has bounded their nesting already).
const maxRewriteDepth = 100

// rewrite re-encodes b, the fields of a message of type name, and reports
// whether anything changed (else out is b).
func (ix msIndex) rewrite(name string, b []byte, depth int) (out []byte, changed bool) {
	md := ix.messages[name]
	if depth > maxRewriteDepth {
		return b, false
	}
	isSet := md != nil && md.GetOptions().GetMessageSetWireFormat()
	out = make([]byte, 0, len(b))
	for pos := 0; pos < len(b); {
		num, wt, n := protowire.ConsumeTag(b[pos:])
		if n < 0 {
			return b, false
		}
		m := protowire.ConsumeFieldValue(num, wt, b[pos+n:])
		if m < 0 {
			return b, false
		}
		field := b[pos : pos+n+m]
		pos += n + m
		if wt == protowire.StartGroupType {
			// A group (or a delimited message field): its fields lie
			// between the start tag and the end tag.
			typ := ix.messageType(md, name, num)
			end := protowire.SizeTag(num)
			if typ == "" || m < end {
				out = append(out, field...)
				continue
			}
			nv, c := ix.rewrite(typ, field[n:n+m-end], depth+1)
			if !c {
				out = append(out, field...)
				continue
			}
			out = protowire.AppendTag(append(append(out, field[:n]...), nv...), num, protowire.EndGroupType)
			changed = true
			continue
		}
		if wt != protowire.BytesType {
			out = append(out, field...)
			continue
		}
		typ := ix.messageType(md, name, num)
		if typ == "" {
			out = append(out, field...)
			continue
		}
		v, _ := protowire.ConsumeBytes(field[n:])
		nv, c := ix.rewrite(typ, v, depth+1)
		if isSet {
			if _, ext := ix.exts[msExtKey{name, num}]; ext {
				out = protowire.AppendTag(out, 1, protowire.StartGroupType)
				out = protowire.AppendTag(out, 2, protowire.VarintType)
				out = protowire.AppendVarint(out, uint64(num))
				out = protowire.AppendTag(out, 3, protowire.BytesType)
				out = protowire.AppendBytes(out, nv)
				out = protowire.AppendTag(out, 1, protowire.EndGroupType)
				changed = true
				continue
			}
		}
		if !c {
			out = append(out, field...)
			continue
		}
		out = protowire.AppendBytes(append(out, field[:n]...), nv)
		changed = true
	}
	if !changed {
		return b, false
	}
	return out, true
}

// messageType is the full name of the message type of field num of
// message type name (md, nil for the options messages of descriptor.proto
// when the set does not hold it), or of its extension numbered num; "" if
// it is neither a message field nor a group (a delimited message field).
func (ix msIndex) messageType(md *descriptorpb.DescriptorProto, name string, num protowire.Number) string {
	var fd *descriptorpb.FieldDescriptorProto
	for _, f := range md.GetField() {
		if f.GetNumber() == int32(num) {
			fd = f
			break
		}
	}
	if fd == nil {
		fd = ix.exts[msExtKey{name, num}]
	}
	if fd == nil || (fd.GetType() != descriptorpb.FieldDescriptorProto_TYPE_MESSAGE && fd.GetType() != descriptorpb.FieldDescriptorProto_TYPE_GROUP) {
		return ""
	}
	return strings.TrimPrefix(fd.GetTypeName(), ".")
}
