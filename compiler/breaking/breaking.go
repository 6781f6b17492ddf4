// Package breaking finds the breaking changes between two versions of a
// schema, rule by rule as `buf breaking` (v1.75.0) does in its categories
// FILE, PACKAGE, WIRE_JSON and WIRE: the same rule IDs, the same pairing
// of elements (files by path, messages, enums and services by full name,
// fields by number, extensions by extendee and number, enum values by
// number, methods by name) and the same messages and places. A finding's
// place is in the current file, or, for a deleted element, in the current
// file of its parent (or no line at all when that is the file), as buf
// reports them. See docs/breaking.md for the rules and the few cases the
// package does not judge as buf does.
package breaking

import (
	"fmt"
	"sort"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// Finding is one breaking change.
type Finding struct {
	// Rule is the rule's ID, "FIELD_SAME_TYPE".
	Rule string `json:"rule"`
	// File is the path of the file the change is in: the current file,
	// or the baseline's for a deleted file or package.
	File string `json:"file"`
	// Line and Column are 1-based (Column counts bytes); 0 when the
	// change has no place inside the file (a deleted top-level element).
	Line   int `json:"line"`
	Column int `json:"column"`
	// EndLine and EndColumn close the span (Column-style, exclusive).
	EndLine   int `json:"endLine"`
	EndColumn int `json:"endColumn"`
	// Message says what changed, in buf's words.
	Message string `json:"message"`
}

// String is the finding as `file:line:col: RULE: message` (without
// line:col when it has no place).
func (f Finding) String() string {
	if f.Line == 0 {
		return fmt.Sprintf("%s: %s: %s", f.File, f.Rule, f.Message)
	}
	return fmt.Sprintf("%s:%d:%d: %s: %s", f.File, f.Line, f.Column, f.Rule, f.Message)
}

// Compare returns the breaking changes from baseline to current under the
// rules in use (from Select; nil means DefaultCategories), sorted by file,
// line, column, rule and message. current and baseline are the files to
// compare (not their imports, which are compared only where a field's
// type leads to them), as linked descriptors with source info.
func Compare(current, baseline []protoreflect.FileDescriptor, use map[string]bool) []Finding {
	if use == nil {
		use, _ = Select(nil, nil)
	}
	c := &checker{use: use, cur: index(current), base: index(baseline)}
	c.run()
	sort.Slice(c.out, func(i, j int) bool {
		a, b := c.out[i], c.out[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.Message < b.Message
	})
	// Two pairings can reach one change (a field of a map entry); keep one.
	out := c.out[:0]
	for i, f := range c.out {
		if i > 0 && f == c.out[i-1] {
			continue
		}
		out = append(out, f)
	}
	return out
}

// set is one side's elements, by the keys buf pairs them with.
type set struct {
	files    []protoreflect.FileDescriptor
	byPath   map[string]protoreflect.FileDescriptor
	messages map[protoreflect.FullName]protoreflect.MessageDescriptor
	enums    map[protoreflect.FullName]protoreflect.EnumDescriptor
	services map[protoreflect.FullName]protoreflect.ServiceDescriptor
	// exts are extensions by extendee and number.
	exts map[protoreflect.FullName]map[protoreflect.FieldNumber]protoreflect.FieldDescriptor
	// packages lists the files of each package.
	packages map[string][]protoreflect.FileDescriptor
}

func index(files []protoreflect.FileDescriptor) *set {
	s := &set{
		files:    files,
		byPath:   map[string]protoreflect.FileDescriptor{},
		messages: map[protoreflect.FullName]protoreflect.MessageDescriptor{},
		enums:    map[protoreflect.FullName]protoreflect.EnumDescriptor{},
		services: map[protoreflect.FullName]protoreflect.ServiceDescriptor{},
		exts:     map[protoreflect.FullName]map[protoreflect.FieldNumber]protoreflect.FieldDescriptor{},
		packages: map[string][]protoreflect.FileDescriptor{},
	}
	for _, f := range files {
		s.byPath[f.Path()] = f
		s.packages[string(f.Package())] = append(s.packages[string(f.Package())], f)
		eachElement(f, func(d protoreflect.Descriptor) {
			switch d := d.(type) {
			case protoreflect.MessageDescriptor:
				s.messages[d.FullName()] = d
			case protoreflect.EnumDescriptor:
				s.enums[d.FullName()] = d
			case protoreflect.FieldDescriptor:
				if d.IsExtension() {
					m := s.exts[d.ContainingMessage().FullName()]
					if m == nil {
						m = map[protoreflect.FieldNumber]protoreflect.FieldDescriptor{}
						s.exts[d.ContainingMessage().FullName()] = m
					}
					m[d.Number()] = d
				}
			}
		})
		for i := range f.Services().Len() {
			sv := f.Services().Get(i)
			s.services[sv.FullName()] = sv
		}
	}
	return s
}

// eachElement calls fn on every message, enum and extension of f, nested
// ones included (map entries too, as buf walks them).
func eachElement(f protoreflect.FileDescriptor, fn func(protoreflect.Descriptor)) {
	var walk func(ms protoreflect.MessageDescriptors, es protoreflect.EnumDescriptors, xs protoreflect.ExtensionDescriptors)
	walk = func(ms protoreflect.MessageDescriptors, es protoreflect.EnumDescriptors, xs protoreflect.ExtensionDescriptors) {
		for i := range es.Len() {
			fn(es.Get(i))
		}
		for i := range xs.Len() {
			fn(xs.Get(i))
		}
		for i := range ms.Len() {
			m := ms.Get(i)
			fn(m)
			walk(m.Messages(), m.Enums(), m.Extensions())
		}
	}
	walk(f.Messages(), f.Enums(), f.Extensions())
}

// nestedName is d's name inside its package, "Outer.Inner".
func nestedName(d protoreflect.Descriptor) string {
	full := string(d.FullName())
	if pkg := string(d.ParentFile().Package()); pkg != "" {
		return strings.TrimPrefix(full, pkg+".")
	}
	return full
}

type checker struct {
	use       map[string]bool
	cur, base *set
	out       []Finding
}

// place is a span in a file; the zero place has no line.
type place struct {
	file string
	span []int32
}

func (c *checker) add(rule string, p place, format string, args ...any) {
	if !c.use[rule] {
		return
	}
	f := Finding{Rule: rule, File: p.file, Message: fmt.Sprintf(format, args...)}
	if len(p.span) >= 3 {
		f.Line, f.Column = int(p.span[0])+1, int(p.span[1])+1
		if len(p.span) == 3 {
			f.EndLine, f.EndColumn = f.Line, int(p.span[2])+1
		} else {
			f.EndLine, f.EndColumn = int(p.span[2])+1, int(p.span[3])+1
		}
	}
	c.out = append(c.out, f)
}

// path is d's source path (the descriptor.proto field numbers and
// indexes that lead to it from the file).
func path(d protoreflect.Descriptor) protoreflect.SourcePath {
	switch d := d.(type) {
	case protoreflect.FileDescriptor:
		return nil
	case protoreflect.MessageDescriptor:
		if p, ok := d.Parent().(protoreflect.MessageDescriptor); ok {
			return append(path(p), 3, int32(d.Index()))
		}
		return protoreflect.SourcePath{4, int32(d.Index())}
	case protoreflect.EnumDescriptor:
		if p, ok := d.Parent().(protoreflect.MessageDescriptor); ok {
			return append(path(p), 4, int32(d.Index()))
		}
		return protoreflect.SourcePath{5, int32(d.Index())}
	case protoreflect.FieldDescriptor:
		if d.IsExtension() {
			if p, ok := d.Parent().(protoreflect.MessageDescriptor); ok {
				return append(path(p), 6, int32(d.Index()))
			}
			return protoreflect.SourcePath{7, int32(d.Index())}
		}
		return append(path(d.Parent()), 2, int32(d.Index()))
	case protoreflect.OneofDescriptor:
		return append(path(d.Parent()), 8, int32(d.Index()))
	case protoreflect.EnumValueDescriptor:
		return append(path(d.Parent()), 2, int32(d.Index()))
	case protoreflect.ServiceDescriptor:
		return protoreflect.SourcePath{6, int32(d.Index())}
	case protoreflect.MethodDescriptor:
		return append(path(d.Parent()), 2, int32(d.Index()))
	}
	return nil
}

// at is the place of d (with suffix appended to its path: a part of its
// declaration), or, when the source info has no such span, of the first
// of the fallbacks that it has; with no span at all, a place in d's file
// without a line.
func at(d protoreflect.Descriptor, suffixes ...[]int32) place {
	f := d.ParentFile()
	p := place{file: f.Path()}
	base := path(d)
	if len(suffixes) == 0 {
		suffixes = [][]int32{nil}
	}
	for _, s := range suffixes {
		full := append(append(protoreflect.SourcePath{}, base...), s...)
		if loc := f.SourceLocations().ByPath(full); loc.Path != nil || (len(full) == 0 && f.SourceLocations().Len() > 0) {
			p.span = []int32{int32(loc.StartLine), int32(loc.StartColumn), int32(loc.EndLine), int32(loc.EndColumn)}
			return p
		}
	}
	// A map entry's fields have no declaration of their own: they are
	// at the map field's (as protoc's and buf's source info have them).
	if fd, ok := d.(protoreflect.FieldDescriptor); ok && fd.ContainingMessage().IsMapEntry() {
		entry := fd.ContainingMessage()
		if parent, ok := entry.Parent().(protoreflect.MessageDescriptor); ok {
			for i := range parent.Fields().Len() {
				if f := parent.Fields().Get(i); f.Message() == entry {
					return at(f)
				}
			}
		}
	}
	return p
}

// onlyAt is at(d, suffix) with no fallback: a place without a line
// when the suffix has no span.
func onlyAt(d protoreflect.Descriptor, suffix ...int32) place {
	return at(d, suffix)
}

func (c *checker) run() {
	c.files()
	c.packages()
	c.enumPairs()
	c.messagePairs()
	c.fieldPairs()
	c.servicePairs()
}
