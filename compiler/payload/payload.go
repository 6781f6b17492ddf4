// Package payload encodes, decodes and inspects protobuf payloads against a
// schema compiled by package compiler. It is the schema-driven half of
// protoplay's core, shared by the CLI and the browser playground, so every
// result is a plain value with JSON tags and the package does no I/O.
//
// The wire format followed is the one specified at
// https://protobuf.dev/programming-guides/encoding: a payload is a sequence of
// fields, each a tag (a varint holding field number << 3 | wire type) and a
// value whose shape the wire type gives: VARINT (0), I64 (1, 8 bytes little
// endian), LEN (2, a varint byte count then that many bytes), SGROUP (3) and
// EGROUP (4) bracketing a group's fields, and I32 (5, 4 bytes little endian).
// JSON is the canonical ProtoJSON mapping
// (https://protobuf.dev/programming-guides/json) and text is the protobuf
// text format (https://protobuf.dev/reference/protobuf/textformat-spec),
// both written and read exactly as protoplay's generated code does
// (runtime/protojson and runtime/prototext, through descriptor-driven
// adapters over dynamicpb messages: json.go, text.go). Decode keeps
// repeated scalar, string and bytes fields out of dynamicpb, reading them
// from the payload's bytes as it writes them, and decodes the elements of
// repeated message fields one at a time (lazy.go), so that its memory is
// a small multiple of the payload's size.
//
// Every entry point bounds its work: inputs larger than MaxInputBytes and
// nesting deeper than MaxDepth (or, inside unknown fields, MaxUnknownDepth)
// are rejected with a *diag.Error of kind diag.KindLimit; tags longer than
// MaxTagBytes are malformed (diag.KindPayload) even where
// google.golang.org/protobuf reads them; and malformed input of any kind
// gives a *diag.Error, never a panic.
package payload

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/protoplay/protoplay/compiler/diag"
	"github.com/protoplay/protoplay/internal/suggest"
)

// Limits on what one call accepts. They keep a browser tab and a shared CI
// machine safe from pathological input.
const (
	// MaxInputBytes is the largest input accepted by any function of this
	// package, in bytes: a binary payload, its hex or base64 text, or a
	// JSON or text-format value.
	MaxInputBytes = 8 << 20

	// MaxDepth is the deepest nesting of messages and groups of known
	// fields accepted, the top-level message being depth 1: a message
	// field's value, a group field's value and a map entry each count one
	// level (so a map's message value is two below its map's message). It
	// is also the recursion limit handed to google.golang.org/protobuf when
	// decoding binary, which counts the same way, and runtime/wire's
	// DefaultMaxDepth for generated code. JSON and text are counted as the
	// binary form of the same value (runtime/protojson, runtime/prototext):
	// a google.protobuf.Struct object inside a Value costs three levels
	// (Struct, map entry, Value), a ListValue array two, and the entries of
	// an empty map nothing. So what one reader accepts, the others read
	// back once written (but for the message inside an Any, which JSON and
	// text read inline and binary keeps as bytes).
	MaxDepth = 100

	// MaxUnknownDepth is the deepest nesting of groups inside one unknown
	// field (one the schema does not define, or written with another wire
	// type), that field's own group included, counted apart from MaxDepth
	// and afresh at every unknown field, as runtime/wire's
	// MaxUnknownGroupDepth for generated code. google.golang.org/protobuf
	// allows 10,000 there; binary input over this limit is diag.KindLimit. In a
	// raw decode every field is unknown, and LEN values read as messages
	// count here too (past the limit they are shown as bytes).
	MaxUnknownDepth = 100

	// MaxViewFields is the most fields and packed elements a wire view
	// (DecodeRaw, WireView) lists, in byte order, nested ones included;
	// the rest are decoded and checked but left out, and the View says
	// how many and from which byte offset (View.Unlisted, UnlistedFrom).
	// So a view, and a listing of it, grows with the payload only up to
	// this many rows.
	MaxViewFields = 100_000

	// MaxViewBytesPerInputByte bounds what DecodeRaw and WireView allocate:
	// at most this many bytes per input byte, plus MaxViewOverhead. The
	// raw decoder also does at most MaxUnknownDepth passes over any byte.
	MaxViewBytesPerInputByte = 2048
	// MaxViewOverhead is the fixed part of the allocation bound above.
	MaxViewOverhead = 64 << 10
)

// AsError returns err as a *diag.Error, wrapping other errors as diag.KindValue.
func AsError(err error) *diag.Error {
	if err == nil {
		return nil
	}
	var e *diag.Error
	if errors.As(err, &e) {
		return e
	}
	return &diag.Error{Kind: diag.KindValue, Message: err.Error(), Offset: -1}
}

// depthMessage is the message of every MaxDepth error.
var depthMessage = fmt.Sprintf("nesting deeper than %d levels of messages, groups and map entries (MaxDepth)", MaxDepth)

func checkSize(n int) error {
	if n > MaxInputBytes {
		e := diag.New(diag.KindLimit, "input of %d bytes exceeds the limit of %d bytes (MaxInputBytes)", n, MaxInputBytes)
		e.Limit = "MaxInputBytes"
		return e
	}
	return nil
}

// Schema resolves message types, extensions and Any type URLs from the
// files of one compile result and everything they import. It is safe for
// concurrent use once built. Its methods that take a message descriptor
// use the schema's own descriptor of the same full name (see NewSchema).
type Schema struct {
	// Files holds every file of the compile result and its transitive
	// imports, registered by path.
	Files *protoregistry.Files
	// Types resolves messages, enums and extensions over Files as dynamic
	// types; the JSON and text adapters and proto.Unmarshal resolve
	// extensions and Any types with it.
	Types *dynamicpb.Types
	roots []protoreflect.FileDescriptor
	textCaches
	reach reachMemo
}

// NewSchema builds a Schema from the Files of a compiler.Result. It fails
// only if two files define the same name, which a successful compilation
// rules out.
//
// An editions file, and any file importing one (directly or not), is
// rebuilt as google.golang.org/protobuf's own descriptor (protodesc.NewFile),
// so that its codecs decide what they decide for protoc-gen-go types:
// protocompile's descriptors do not tell them about editions features
// (RequiredNumbers omits LEGACY_REQUIRED fields, and utf8_validation =
// VERIFY goes unseen), so a payload missing such a required field, or with
// invalid UTF-8 in such a string, would be accepted. proto2 and proto3
// files alone need no rebuilding (it costs about 3 ms for the conformance
// test messages and descriptor.proto). A file protodesc cannot rebuild (an
// edition it does not know yet) is kept as protocompile's descriptor.
func NewSchema(files []protoreflect.FileDescriptor) (*Schema, error) {
	s := &Schema{Files: new(protoregistry.Files)}
	seen := map[string]bool{}
	rebuilt := map[string]bool{}
	var add func(fd protoreflect.FileDescriptor) error
	add = func(fd protoreflect.FileDescriptor) error {
		if seen[fd.Path()] {
			return nil
		}
		seen[fd.Path()] = true
		rebuild := fd.Syntax() == protoreflect.Editions
		imps := fd.Imports()
		for i := 0; i < imps.Len(); i++ {
			if imp := imps.Get(i).FileDescriptor; imp != nil && !imp.IsPlaceholder() {
				if err := add(imp); err != nil {
					return err
				}
				rebuild = rebuild || rebuilt[imp.Path()]
			}
		}
		own := fd
		if rebuild {
			if nf, err := protodesc.NewFile(protodesc.ToFileDescriptorProto(fd), s.Files); err == nil {
				own = nf
				rebuilt[fd.Path()] = true
			}
		}
		if err := s.Files.RegisterFile(own); err != nil {
			return diag.New(diag.KindType, "%v", err)
		}
		return nil
	}
	for _, f := range files {
		if err := add(f); err != nil {
			return nil, err
		}
		own, err := s.Files.FindFileByPath(f.Path())
		if err != nil {
			return nil, diag.New(diag.KindType, "%v", err)
		}
		s.roots = append(s.roots, own)
	}
	s.Types = dynamicpb.NewTypes(s.Files)
	return s, nil
}

// resolve returns the schema's own descriptor of md's type (see NewSchema),
// found by full name, so that callers may pass descriptors from the
// compile result; md itself if the schema has no such type.
func (s *Schema) resolve(md protoreflect.MessageDescriptor) protoreflect.MessageDescriptor {
	if d, err := s.Files.FindDescriptorByName(md.FullName()); err == nil {
		if own, ok := d.(protoreflect.MessageDescriptor); ok {
			return own
		}
	}
	return md
}

// FindMessage finds a message type by its full name ("pkg.Message", a
// leading dot allowed) in the schema's files and their imports. For an
// unknown name it returns a *diag.Error of kind diag.KindType whose Suggestions are
// the nearest message names by edit distance.
func (s *Schema) FindMessage(name string) (protoreflect.MessageDescriptor, error) {
	full := protoreflect.FullName(strings.TrimPrefix(strings.TrimSpace(name), "."))
	if d, err := s.Files.FindDescriptorByName(full); err == nil {
		if md, ok := d.(protoreflect.MessageDescriptor); ok {
			return md, nil
		}
		k := kindOf(d)
		article := "a"
		if strings.IndexByte("aeiou", k[0]) >= 0 {
			article = "an"
		}
		return nil, diag.New(diag.KindType, "%s is %s %s, not a message", full, article, k)
	}
	var all []string
	s.Files.RangeFiles(func(fd protoreflect.FileDescriptor) bool {
		rangeMessages(fd.Messages(), func(md protoreflect.MessageDescriptor) {
			all = append(all, string(md.FullName()))
		})
		return true
	})
	e := diag.New(diag.KindType, "unknown message type %q", string(full))
	e.Suggestions = nearest(string(full), all, 5)
	if len(e.Suggestions) > 0 {
		e.Message += "; did you mean " + strings.Join(e.Suggestions, ", ") + "?"
	}
	return nil, e
}

// Messages returns every message type declared in the files the schema was
// built from (not their imports), nested types included and synthetic map
// entry types excluded, in declaration order.
func (s *Schema) Messages() []protoreflect.MessageDescriptor {
	var out []protoreflect.MessageDescriptor
	for _, fd := range s.roots {
		rangeMessages(fd.Messages(), func(md protoreflect.MessageDescriptor) {
			out = append(out, md)
		})
	}
	return out
}

func rangeMessages(mds protoreflect.MessageDescriptors, f func(protoreflect.MessageDescriptor)) {
	for i := 0; i < mds.Len(); i++ {
		md := mds.Get(i)
		if md.IsMapEntry() {
			continue
		}
		f(md)
		rangeMessages(md.Messages(), f)
	}
}

func kindOf(d protoreflect.Descriptor) string {
	switch d.(type) {
	case protoreflect.EnumDescriptor:
		return "enum"
	case protoreflect.EnumValueDescriptor:
		return "enum value"
	case protoreflect.FieldDescriptor:
		return "field"
	case protoreflect.ServiceDescriptor:
		return "service"
	case protoreflect.MethodDescriptor:
		return "method"
	case protoreflect.OneofDescriptor:
		return "oneof"
	}
	return "descriptor"
}

// nearest returns up to n candidates closest to name by edit distance,
// comparing against both the full name and its last component so that a
// missing package still finds the type.
func nearest(name string, candidates []string, n int) []string {
	type scored struct {
		name string
		dist int
	}
	lname := strings.ToLower(name)
	lshort := lname[strings.LastIndexByte(lname, '.')+1:]
	var list []scored
	for _, c := range candidates {
		lc := strings.ToLower(c)
		short := lc[strings.LastIndexByte(lc, '.')+1:]
		d := min(suggest.Distance(lname, lc), suggest.Distance(lname, short))
		if lshort != lname {
			// The typed package may be off too: compare last names, one
			// edit worse than an exact full-name match.
			d = min(d, suggest.Distance(lshort, short)+1)
		}
		list = append(list, scored{c, d})
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].dist != list[j].dist {
			return list[i].dist < list[j].dist
		}
		return list[i].name < list[j].name
	})
	// Suggest only names within about half the length of the typed last
	// name, so a typo finds its type and nonsense lists nothing unrelated.
	limit := len(lshort)/2 + 1
	var out []string
	for _, s := range list {
		if len(out) == n || s.dist > limit {
			break
		}
		out = append(out, s.name)
	}
	return out
}
