package frontend

import (
	"fmt"
	"slices"
	"strings"

	"github.com/protoplay/protoplay/compiler/diag"
	"github.com/protoplay/protoplay/internal/suggest"
)

// scalarTypes are the names of the scalar field types (descriptor.proto's
// FieldDescriptorProto.Type, as a .proto file spells them).
var scalarTypes = []string{"double", "float", "int32", "int64", "uint32", "uint64", "sint32", "sint64",
	"fixed32", "fixed64", "sfixed32", "sfixed64", "bool", "string", "bytes"}

// suggestType adds a help to protocompile's "cannot find `X` in this
// scope" (a type reference that names nothing) in file d.File:
//   - when a file the request names or the referring file imports declares
//     a message, enum or group of exactly X's last name, that it is
//     declared there, out of reach (nested elsewhere, in another package,
//     or in a file not imported);
//   - otherwise "did you mean" the nearest names (suggest.Closest) among
//     the scalar types (for an unqualified X) and the types declared in the
//     referring file and the files it imports: in X's package (its
//     qualifier), or for an unqualified X in any package, offered
//     qualified when not the referring file's own: "did you mean
//     `string`?" for `strin`, "`b.Address`" for `Adress`.
//
// The candidates depend only on the request and the texts it gives for
// those files (textOf), so a compile in a workspace, whose session keeps
// files of earlier requests, gives the same help as a fresh one.
func (o *opener) suggestType(d *diag.Diagnostic, r reportDiagnostic) {
	const pre, post = "cannot find `", "` in this scope"
	if !strings.HasPrefix(r.message, pre) || !strings.HasSuffix(r.message, post) {
		return
	}
	scoped := false
	for _, h := range r.help {
		scoped = scoped || strings.HasPrefix(h, "the full name of this scope is")
	}
	selfDecls, ok := o.declsOf(d.File)
	if !scoped || !ok { // a symbol found elsewhere: the compiler says where
		return
	}
	if o.suggested++; o.suggested > maxTypeSuggestions {
		return
	}
	name := strings.TrimSuffix(strings.TrimPrefix(r.message, pre), post)
	qual, last := "", name
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		qual, last = name[:i+1], name[i+1:]
	}
	pkg := selfDecls.pkg
	if qual != "" {
		pkg = strings.TrimSuffix(strings.TrimPrefix(qual, "."), ".")
	}
	// The referring file and its imports give the candidates; the
	// request's own files are searched for the exact name too.
	reach := append([]string{d.File}, selfDecls.imports...)
	search := slices.Clone(reach)
	for p := range o.req.Sources {
		search = append(search, p)
	}
	search = append(search, o.req.Files...)
	slices.Sort(search[len(reach):])
	var declaredIn []string
	for _, p := range search {
		if ds, ok := o.declsOf(p); ok && !slices.Contains(declaredIn, p) && slices.Contains(ds.types, last) {
			declaredIn = append(declaredIn, p)
		}
	}
	if len(declaredIn) > 0 {
		d.Help = append(d.Help, fmt.Sprintf("a type named `%s` is declared in %s: import its file and write its full name (package, then enclosing messages)",
			last, strings.Join(declaredIn, ", ")))
		return
	}
	// Candidates are compared by their simple names and offered as the
	// reference would have to be written: qualified by their package
	// when it is not the one the reference is in.
	var cands []string
	shown := map[string]string{}
	add := func(n, show string) {
		if _, ok := shown[n]; !ok {
			shown[n] = show
			cands = append(cands, n)
		}
	}
	if qual == "" {
		for _, n := range scalarTypes {
			add(n, n)
		}
	}
	for _, p := range reach {
		if ds, ok := o.declsOf(p); ok {
			for _, n := range ds.types {
				switch {
				case ds.pkg == pkg:
					add(n, qual+n)
				case qual == "" && ds.pkg != "":
					add(n, ds.pkg+"."+n)
				}
			}
		}
	}
	got := suggest.Closest(last, cands, 3)
	if len(got) == 0 {
		return
	}
	for i, n := range got {
		got[i] = "`" + shown[n] + "`"
	}
	d.Help = append(d.Help, "did you mean "+strings.Join(got, " or ")+"?")
}

// maxTypeSuggestions is how many "cannot find" diagnostics of one compile
// get a suggestion: each compares the name with every type of the files
// in reach, so a file of thousands of unknown names would cost time
// growing as the square of its size.
const maxTypeSuggestions = 100

// declsOf is scanDecls of the file called name as this request gives it
// (textOf), read and scanned once per compile; false when there is none.
func (o *opener) declsOf(name string) (decls, bool) {
	if e, ok := o.declCache[name]; ok {
		return e.ds, e.ok
	}
	t, ok := o.textOf(name)
	var ds decls
	if ok {
		ds = scanDecls(t)
	}
	if o.declCache == nil {
		o.declCache = map[string]cachedDecls{}
	}
	o.declCache[name] = cachedDecls{ds, ok}
	return ds, ok
}

type cachedDecls struct {
	ds decls
	ok bool
}

// decls is what scanDecls finds in a .proto file.
type decls struct {
	pkg     string   // the package statement's name ("" for none)
	imports []string // the paths the import statements name
	types   []string // the names following message, enum and group
}

// scanDecls reads src's tokens outside comments: the package, the
// imports, and the simple names of the types it declares (and, rarely, a
// field or value named after one of those keywords, which costs only a
// candidate). It is a lexical scan for messages, not a parser: src may
// not compile.
func scanDecls(src string) decls {
	var ds decls
	prev, prev2 := "", ""
	isIdent := func(c byte) bool {
		return c == '_' || c == '.' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			if j := strings.Index(src[i+2:], "*/"); j >= 0 {
				i += j + 4
			} else {
				i = len(src)
			}
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(src) && src[j] != c && src[j] != '\n' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			if prev == "import" || prev2 == "import" && (prev == "public" || prev == "weak") {
				ds.imports = append(ds.imports, src[i+1:min(j, len(src))])
			}
			prev, prev2, i = "", prev, j+1
		case isIdent(c) && c != '.' && (c < '0' || c > '9'):
			j := i
			for j < len(src) && isIdent(src[j]) {
				j++
			}
			word := src[i:j]
			switch prev {
			case "message", "enum", "group":
				ds.types = append(ds.types, word)
			case "package":
				ds.pkg = word
			}
			prev, prev2, i = word, prev, j
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		default:
			prev, prev2 = "", prev
			i++
		}
	}
	return ds
}

// textOf is the text of the file called name as this request gives it
// (Sources or FS) or the standard file of that name; false when there is
// none. Unlike files, it holds nothing of earlier requests.
func (o *opener) textOf(name string) (string, bool) {
	if t, err := o.find(name); err == nil {
		return t, true
	}
	return standardSource(name)
}
