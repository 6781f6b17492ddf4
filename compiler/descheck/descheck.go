// Package descheck validates FileDescriptorProtos that come from outside
// the compiler, already compiled: the proto_file entries of a protoc
// plugin's CodeGeneratorRequest (protoc, buf or any other tool). A .proto
// source is checked by the parser; descriptors skip it, and the linker
// that follows (protocompile's) checks references and options but not the
// rules the parser enforces, so a request could carry a field number 0, a
// message named "1 bad-name", an out-of-range oneof_index or an edition the
// compiler does not know, and come out as Go that does not build, or as a
// panic.
//
// Files checks each file as google.golang.org/protobuf's protodesc.NewFiles
// does (protoc-gen-go's check: names, numbers, ranges, oneofs, labels and
// types, map entries, packed, groups, JSON names, features, edition
// support), plus the editions protoplay supports (MinEdition to
// MaxEdition).
package descheck

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/protoplay/protoplay/compiler/diag"
)

// The editions protoplay compiles: proto2 and proto3 files, and editions
// files of editions 2023 and 2024, the newest edition its front end
// (protocompile's experimental compiler) and protoc-gen-go v1.36.12
// support. A protoc plugin declares the range in its response
// (minimum_edition, maximum_edition).
const (
	MinEdition = descriptorpb.Edition_EDITION_PROTO2
	MaxEdition = descriptorpb.Edition_EDITION_2024
)

// maxFieldNumber is the largest field number (2^29 - 1), and the largest
// end of an extension range the stand-in for a MessageSet may have.
const maxFieldNumber = 1<<29 - 1

// Files checks protos, the proto_file entries of one request, and returns
// one error diagnostic for each invalid file, in request order: File is the
// file's name and Message the reason, in protodesc's words ("message field
// \"a.M.x\" has an invalid number: 0"). A file is checked after the files
// it imports; one whose import is invalid, missing from protos or part of
// an import cycle is not checked (the linker reports the last two, the
// first is reported on the imported file). No diagnostics means every file
// is valid as protodesc.NewFiles defines it, MessageSets included (which
// protodesc accepts only in binaries built with the protolegacy tag; see
// messageSetStandIn).
func Files(protos []*descriptorpb.FileDescriptorProto) []diag.Diagnostic {
	var diags []diag.Diagnostic
	fail := func(name, format string, args ...any) {
		d := diag.Errorf("invalid descriptor: "+format, args...)
		d.File = name
		diags = append(diags, d)
	}
	byName := map[string]*descriptorpb.FileDescriptorProto{}
	for i, f := range protos {
		switch name := f.GetName(); {
		case name == "":
			fail("", "proto_file entry %d has no name (file path must be populated)", i)
		case byName[name] != nil:
			fail(name, "the file appears more than once among the request's proto_file entries")
		default:
			byName[name] = f
		}
	}
	if len(diags) > 0 {
		return diags
	}

	// state: 0 unvisited, 1 in progress, 2 valid, 3 invalid or not checked.
	state := map[string]int{}
	reg := new(protoregistry.Files)
	sets := map[string]bool{}
	var visit func(f *descriptorpb.FileDescriptorProto) bool
	visit = func(f *descriptorpb.FileDescriptorProto) bool {
		name := f.GetName()
		switch state[name] {
		case 1, 3:
			return false
		case 2:
			return true
		}
		state[name] = 1
		for _, dep := range f.GetDependency() {
			d := byName[dep]
			if d == nil || !visit(d) {
				state[name] = 3
				return false
			}
		}
		if err := checkFile(f, reg, sets); err != nil {
			state[name] = 3
			fail(name, "%s", err)
			return false
		}
		state[name] = 2
		return true
	}
	for _, f := range protos {
		visit(f)
	}
	return diags
}

// checkFile checks one file whose imports are in reg, and adds it there.
// sets holds the full names of the MessageSets of the files checked so far,
// and gets f's.
func checkFile(f *descriptorpb.FileDescriptorProto, reg *protoregistry.Files, sets map[string]bool) error {
	switch f.GetSyntax() {
	case "", "proto2", "proto3":
	case "editions":
		if e := f.GetEdition(); e < descriptorpb.Edition_EDITION_2023 || e > MaxEdition {
			return fmt.Errorf("edition %v is not supported: protoplay compiles proto2, proto3 and %s files", e, supportedEditions())
		}
	default:
		return fmt.Errorf("invalid syntax %q (want proto2, proto3 or editions)", f.GetSyntax())
	}
	f, err := messageSetStandIn(f, sets)
	if err != nil {
		return err
	}
	fd, err := protodesc.NewFile(f, reg)
	if err != nil {
		return fmt.Errorf("%s", protodescText(err))
	}
	if err := reg.RegisterFile(fd); err != nil {
		return fmt.Errorf("%s", protodescText(err))
	}
	return nil
}

// supportedEditions names the editions from 2023 to MaxEdition: "edition
// 2023", or "editions 2023 to 2024".
func supportedEditions() string {
	newest := strings.TrimPrefix(MaxEdition.String(), "EDITION_")
	if MaxEdition == descriptorpb.Edition_EDITION_2023 {
		return "edition " + newest
	}
	return "editions 2023 to " + newest
}

// protodescText is err's text without protobuf-go's "proto:" prefix, which
// is followed by a space or a no-break space chosen by a hash of the binary
// (internal/detrand).
func protodescText(err error) string {
	s := err.Error()
	for _, p := range []string{"proto: ", "proto:\u00a0"} {
		s = strings.TrimPrefix(s, p)
	}
	return s
}

// messageSetStandIn checks the MessageSets (message_set_wire_format) f
// declares as protodesc does under the protolegacy tag: not in proto3, no
// fields, at least one extension range. It returns f itself when f has
// none and extends none; otherwise a copy in which each is an ordinary
// message (its extension ranges and the extensions to it that reach past
// field number 2^29-1 cut there), for protodesc, which refuses every
// MessageSet in binaries built without protolegacy, to check the rest.
// The extensions to a MessageSet must be optional messages, which the
// linker checks afterwards.
func messageSetStandIn(f *descriptorpb.FileDescriptorProto, sets map[string]bool) (*descriptorpb.FileDescriptorProto, error) {
	declared := map[string]bool{}
	var found bool
	var walk func(prefix string, mds []*descriptorpb.DescriptorProto) error
	walk = func(prefix string, mds []*descriptorpb.DescriptorProto) error {
		for _, md := range mds {
			name := prefix + md.GetName()
			if md.GetOptions().GetMessageSetWireFormat() {
				found = true
				declared[name] = true
				if f.GetSyntax() == "proto3" || len(md.GetField()) > 0 || len(md.GetExtensionRange()) == 0 {
					return fmt.Errorf("message %q is an invalid proto1 MessageSet", name)
				}
			}
			if err := walk(name+".", md.GetNestedType()); err != nil {
				return err
			}
		}
		return nil
	}
	pkg := f.GetPackage()
	if pkg != "" {
		pkg += "."
	}
	if err := walk(pkg, f.GetMessageType()); err != nil {
		return nil, err
	}
	extendsSet := func(xs []*descriptorpb.FieldDescriptorProto) bool {
		for _, x := range xs {
			e := strings.TrimPrefix(x.GetExtendee(), ".")
			if declared[e] || sets[e] {
				return true
			}
		}
		return false
	}
	var anyExt func(mds []*descriptorpb.DescriptorProto) bool
	anyExt = func(mds []*descriptorpb.DescriptorProto) bool {
		for _, md := range mds {
			if extendsSet(md.GetExtension()) || anyExt(md.GetNestedType()) {
				return true
			}
		}
		return false
	}
	for name := range declared {
		sets[name] = true
	}
	if !found && !extendsSet(f.GetExtension()) && !anyExt(f.GetMessageType()) {
		return f, nil
	}
	c := proto.Clone(f).(*descriptorpb.FileDescriptorProto)
	cut := func(xs []*descriptorpb.FieldDescriptorProto) {
		for _, x := range xs {
			e := strings.TrimPrefix(x.GetExtendee(), ".")
			if (declared[e] || sets[e]) && x.GetNumber() > maxFieldNumber {
				x.Number = proto.Int32(maxFieldNumber)
			}
		}
	}
	// A stand-in's ranges end at 2^29 (exclusive); those wholly above go,
	// and [2^29-1, 2^29) holds the extensions cut to 2^29-1 when no range
	// does.
	var fix func(mds []*descriptorpb.DescriptorProto)
	fix = func(mds []*descriptorpb.DescriptorProto) {
		for _, md := range mds {
			if md.GetOptions().GetMessageSetWireFormat() {
				md.Options.MessageSetWireFormat = nil
				var kept []*descriptorpb.DescriptorProto_ExtensionRange
				top := false
				for _, r := range md.GetExtensionRange() {
					if r.GetStart() > maxFieldNumber {
						continue
					}
					if r.GetEnd() > maxFieldNumber+1 {
						r.End = proto.Int32(maxFieldNumber + 1)
					}
					top = top || r.GetEnd() == maxFieldNumber+1
					kept = append(kept, r)
				}
				if !top {
					kept = append(kept, &descriptorpb.DescriptorProto_ExtensionRange{Start: proto.Int32(maxFieldNumber), End: proto.Int32(maxFieldNumber + 1)})
				}
				md.ExtensionRange = kept
			}
			cut(md.GetExtension())
			fix(md.GetNestedType())
		}
	}
	fix(c.GetMessageType())
	cut(c.GetExtension())
	return c, nil
}
