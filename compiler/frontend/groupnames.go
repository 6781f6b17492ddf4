package frontend

import (
	"context"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/protoplay/protoplay/compiler/diag"
)

// A group, or since editions a delimited message field whose name is its
// message type's name lower-cased and whose type is declared beside it
// (protoc's "group-like" field), may be named in the text format of an
// option value by its type's name: `G { x: 1 }` for `optional group G =
// 6 { ... }`. protoc has accepted that spelling from the start (before
// version 27 it was the only one; since then the field's own name `g` is
// accepted too). The experimental compiler knows only the field's name and
// refuses the other ("cannot resolve message field name for `T`", at the
// name), where the legacy compiler and protoc accept it.
//
// So Compile retries such a compile with each refused name written as the
// field's name: lower-cased, which keeps every offset, line and column of
// the file as it was. It keeps the retry only when it compiles with no
// error and each name it changed is, in the linked descriptors, the type
// name of a group-like field of the message named in the error; else the
// first compile's result stands. A group nested in a group is refused only
// once its parent resolves, so the retry repeats, at most
// maxGroupNameRounds times.

// groupNameError is the start of the experimental compiler's refusal; the
// message type's full name and a backquote follow.
const groupNameError = "cannot resolve message field name for `"

// maxGroupNameRounds bounds the retries (one per level of groups nested
// in option values).
const maxGroupNameRounds = 8

// groupRef is one refused name that may be a group's type name: at byte
// offset off of file, in a literal of message type typ (full name).
type groupRef struct {
	file, ident, typ string
	off              int
}

// groupNameTexts returns the texts of the files that ds refuses a
// candidate name in (nil if none), copied from served.
func groupNameTexts(served map[string]string, ds []diag.Diagnostic) map[string]string {
	var texts map[string]string
	for _, d := range ds {
		if _, ok := groupErrorType(d); ok {
			if t, ok := served[d.File]; ok {
				if texts == nil {
					texts = map[string]string{}
				}
				texts[d.File] = t
			}
		}
	}
	return texts
}

// groupErrorType returns the message type named by d if d is the
// compiler's refusal of a name in a message literal: its span is the
// field, name and value, starting on one line.
func groupErrorType(d diag.Diagnostic) (string, bool) {
	if d.Severity != diag.SeverityError || !strings.HasPrefix(d.Message, groupNameError) || !strings.HasSuffix(d.Message, "`") {
		return "", false
	}
	if d.Line < 1 || d.Column < 1 {
		return "", false
	}
	return strings.TrimSuffix(strings.TrimPrefix(d.Message, groupNameError), "`"), true
}

// groupRefs returns the refused names of ds that could be a group's type
// name: an identifier of ASCII letters, digits and underscores with an
// upper-case letter, as texts holds it at the error's span.
func groupRefs(ds []diag.Diagnostic, texts map[string]string) []groupRef {
	var refs []groupRef
	for _, d := range ds {
		typ, ok := groupErrorType(d)
		if !ok {
			continue
		}
		text, ok := texts[d.File]
		if !ok {
			continue
		}
		off := lineOffset(text, d.Line)
		if off < 0 {
			continue
		}
		start, end := off+d.Column-1, len(text)
		if nl := strings.IndexByte(text[off:], '\n'); nl >= 0 {
			end = off + nl
		}
		if start >= end {
			continue
		}
		// The span is the whole field (`G { ... }`); the name leads it.
		ident := text[start:end]
		if i := strings.IndexFunc(ident, func(r rune) bool { return !isIdentByte(r) }); i >= 0 {
			ident = ident[:i]
		}
		if !isGroupTypeName(ident) {
			continue
		}
		refs = append(refs, groupRef{file: d.File, ident: ident, typ: typ, off: start})
	}
	return refs
}

// lineOffset is the byte offset of 1-based line in text, or -1.
func lineOffset(text string, line int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	return off
}

func isIdentByte(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_'
}

// isGroupTypeName reports whether s is an ASCII identifier with an
// upper-case letter (a lower-cased one is already the field's name).
func isGroupTypeName(s string) bool {
	upper := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= 'a' && c <= 'z', c == '_', c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return upper
}

// retryGroupNames is Compile's retry (see above) of res, the compile of
// req, whose diagnostics' files' texts are texts.
func retryGroupNames(ctx context.Context, req Request, res *Result, texts map[string]string) *Result {
	refs := groupRefs(res.Diagnostics, texts)
	if len(refs) == 0 {
		return res
	}
	overlay := map[string]string{}
	var all []groupRef
	var last *Result
	for round := 0; len(refs) > 0 && round < maxGroupNameRounds; round++ {
		for _, r := range refs {
			t, ok := overlay[r.file]
			if !ok {
				t = texts[r.file]
			}
			overlay[r.file] = t[:r.off] + strings.ToLower(r.ident) + t[r.off+len(r.ident):]
		}
		all = append(all, refs...)
		retry := req
		retry.Sources = make(map[string]string, len(req.Sources)+len(overlay))
		for name, text := range req.Sources {
			retry.Sources[name] = text
		}
		for name, text := range overlay {
			retry.Sources[name] = text
		}
		texts = nil
		last = compileOnce(ctx, retry, func(served map[string]string, ds []diag.Diagnostic) { texts = groupNameTexts(served, ds) })
		refs = groupRefs(last.Diagnostics, texts)
	}
	if last.HasErrors() || !groupLike(last.Files, all) {
		return res
	}
	return last
}

// groupLike reports whether each of refs names, in files or their
// imports, the type of a group-like field of its message: a field named
// the type's name lower-cased, of group kind (a group, or a delimited
// message field), whose type is declared in the same message.
func groupLike(files []protoreflect.FileDescriptor, refs []groupRef) bool {
	for _, r := range refs {
		md := findMessageIn(files, protoreflect.FullName(r.typ))
		if md == nil {
			return false
		}
		fd := md.Fields().ByName(protoreflect.Name(strings.ToLower(r.ident)))
		if fd == nil || fd.Kind() != protoreflect.GroupKind || string(fd.Message().Name()) != r.ident || fd.Message().Parent() != md {
			return false
		}
	}
	return true
}

// findMessageIn finds the message type called name in files or the files
// they import, directly or not.
func findMessageIn(files []protoreflect.FileDescriptor, name protoreflect.FullName) protoreflect.MessageDescriptor {
	seen := map[string]bool{}
	var visit func(f protoreflect.FileDescriptor) protoreflect.MessageDescriptor
	visit = func(f protoreflect.FileDescriptor) protoreflect.MessageDescriptor {
		if seen[f.Path()] {
			return nil
		}
		seen[f.Path()] = true
		if md := findMessage(f.Messages(), name); md != nil {
			return md
		}
		imports := f.Imports()
		for i := 0; i < imports.Len(); i++ {
			if md := visit(imports.Get(i).FileDescriptor); md != nil {
				return md
			}
		}
		return nil
	}
	for _, f := range files {
		if md := visit(f); md != nil {
			return md
		}
	}
	return nil
}
