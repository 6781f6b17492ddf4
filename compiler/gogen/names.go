package gogen

import (
	"go/token"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// This file is the naming pass: every Go identifier the backend prints is
// decided here, once, before any code is written. The rules are
// protoc-gen-go's (google.golang.org/protobuf/compiler/protogen), so code
// written against protoc-gen-go's exported names keeps compiling; the methods
// protoplay adds join the reserved set.

// reservedMethods are the method names a generated message has or may
// have. A field whose Go name (or whose getter "Get"+name) would collide gets
// "_" appended, in declaration order, as protoc-gen-go does. The first eight
// are protoc-gen-go's set; the rest are protoplay's. Changing this set changes
// generated field names, so it only grows when a method is added.
var reservedMethods = []string{
	"Reset", "String", "ProtoMessage", "Marshal", "Unmarshal",
	"ExtensionRangeArray", "ExtensionMap", "Descriptor",
	// protoplay's own methods.
	"Size", "Clone", "Equal", "MarshalAppend", "MarshalToSizedBuffer",
	"UnmarshalDepth", "UnmarshalWith", "UnmarshalGroup", "MarshalJSON", "UnmarshalJSON",
	"CheckInitialized", "MarshalProtoJSON", "UnmarshalProtoJSON", "EncodeProtoJSON",
	"DecodeProtoJSON", "MarshalText", "UnmarshalText", "MarshalProtoText", "UnmarshalProtoText",
	"EncodeProtoText", "DecodeProtoText", "ProtoUnknownFields", "ValidateGroup",
}

type messageNames struct {
	desc   protoreflect.MessageDescriptor
	file   *fileNames
	goName string
	fields []*fieldNames // declaration order
	oneofs []*oneofNames // declaration order, synthetic ones included
	// builder is the opaque and hybrid APIs' M_builder type.
	builder string
	// opaque is set in an opaque view (see opaqueView).
	opaque bool
}

type fieldNames struct {
	desc   protoreflect.FieldDescriptor
	goName string // struct field; the getter is "Get"+goName
	// wrapper is the oneof wrapper type for a member of a real oneof.
	wrapper string
	// defaultName is the package-level constant or variable holding the
	// field's explicit default, Default_Message_Field.
	defaultName string
	oneof       *oneofNames // nil unless in a real (non-synthetic) oneof
	// camel is protoc-gen-go's camelCase of the field: its proto name
	// camel-cased (a group's lower-cased field name, not its type's),
	// "Build_" for "Build", and "_<number>" appended to both of two
	// fields whose camel-cased names are equal (_foo and X_foo). It is
	// the base of the opaque and hybrid accessors (GetX, SetX, HasX,
	// ClearX) and of the builder field.
	camel string
	// api is the field's GoName in protoc-gen-go (camel-cased, "_"
	// suffixes against protoc-gen-go's eight reserved method names and
	// earlier fields' names and getters, a oneof reserving no getter):
	// the base of the oneof case constant and of a hybrid message's
	// backward-compatible getter.
	api string
	// hybridInfix is protoc-gen-go's hasConflictHybrid: a hybrid
	// message's accessors of the field are Get_X, Set_X, Has_X and
	// Clear_X, since one of GetX, SetX, HasX, ClearX is another field's
	// camel name.
	hybridInfix bool
	// caseName is the oneof case constant of a real oneof's member,
	// M_<api>_case, and opaqueWrapper its oneof wrapper type in the
	// opaque form, m_<api> (both package-level, derived).
	caseName, opaqueWrapper string
	// bit, in an opaque view (see opaqueView), is 1 + the field's index
	// in the presence bitmap; 0 for a field without a bit.
	bit int
	// opaque is set in an opaque view (see opaqueView).
	opaque bool
	// lazy is set in an opaque view for a field decoded on first access
	// (see lazy.go).
	lazy bool
}

type oneofNames struct {
	desc   protoreflect.OneofDescriptor
	goName string // struct field holding the interface
	iface  string // unexported interface type, "is"+Message_Oneof
	fields []*fieldNames
	// camel and api are the oneof's protoc-gen-go camelCase (the base of
	// WhichX, HasX, ClearX) and GoName (the base of its case type and
	// not-set constant); see fieldNames. hybridInfix: a hybrid message's
	// are Which_X, Has_X and Clear_X.
	camel, api  string
	hybridInfix bool
	// caseType and notSet are the package-level names of a real oneof's
	// case type, case_M_<api>, and its constant for no member set,
	// M_<api>_not_set_case (derived).
	caseType, notSet string
}

type enumNames struct {
	desc   protoreflect.EnumDescriptor
	file   *fileNames
	goName string
	values []string // constant names, by value index
	// aliases, when not nil, holds by value index the long name of a
	// value whose strip_enum_prefix is GENERATE_BOTH ("" for others): a
	// constant equal to the short one.
	aliases []string
	// nameMap and valueMap are the Enum_name and Enum_value variables
	// printed under enum_maps=true.
	nameMap, valueMap string
}

// GoCamelCase converts a proto name to a Go identifier as protoc-gen-go
// does (its strs.GoCamelCase): words start at "_" + lowercase letter or at
// a digit run; "." joins nested names with "_" (or capitalizes when a
// lowercase letter follows); a leading "_" becomes "X". So "foo_bar" is
// FooBar, "_foo" is XFoo and "Outer.Inner" is Outer_Inner. A generated
// struct field or oneof has this name unless it collides with another
// declaration, which then takes "_" suffixes.
func GoCamelCase(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '.' && i+1 < len(s) && isLower(s[i+1]):
			// Dropped; the lowercase letter after it starts a new word.
		case c == '.':
			b = append(b, '_')
		case c == '_' && (i == 0 || s[i-1] == '.'):
			b = append(b, 'X')
		case c == '_' && i+1 < len(s) && isLower(s[i+1]):
			// Dropped; the lowercase letter after it starts a new word.
		case isDigit(c):
			b = append(b, c)
		default:
			if isLower(c) {
				c -= 'a' - 'A'
			}
			b = append(b, c)
			for ; i+1 < len(s) && isLower(s[i+1]); i++ {
				b = append(b, s[i+1])
			}
		}
	}
	return string(b)
}

func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// goSanitized makes s a valid Go identifier: characters other than letters
// and digits become "_", and a keyword or a name not starting with a letter
// gets a "_" prefix ("type" -> "_type").
func goSanitized(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return '_'
	}, s)
	r, _ := utf8.DecodeRuneInString(s)
	if token.Lookup(s).IsKeyword() || !unicode.IsLetter(r) {
		return "_" + s
	}
	return s
}

// localName is a descriptor's full name without its file's package.
func localName(d protoreflect.Descriptor) string {
	pkg := string(d.ParentFile().Package())
	name := string(d.FullName())
	if pkg != "" {
		name = strings.TrimPrefix(name, pkg+".")
	}
	return name
}

func newEnumNames(f *fileNames, parent *messageNames, d protoreflect.EnumDescriptor) *enumNames {
	e := &enumNames{desc: d, file: f, goName: GoCamelCase(localName(d))}
	e.nameMap, e.valueMap = e.goName+"_name", e.goName+"_value"
	// A top-level enum's constants are Enum_VALUE; a nested enum's are
	// Message_VALUE. Value names are not camel-cased.
	prefix := e.goName
	if parent != nil {
		prefix = parent.goName
	}
	// strip_enum_prefix (edition 2024 and later) drops the enum's name
	// from the start of a value's name; GENERATE_BOTH keeps the long name
	// as an alias (aliases), as protoc-gen-go names them.
	vals := d.Values()
	for i := 0; i < vals.Len(); i++ {
		v := vals.Get(i)
		long := prefix + "_" + string(v.Name())
		switch stripEnumPrefix(v) {
		case stripEnumPrefixStrip:
			e.values = append(e.values, prefix+"_"+trimEnumPrefix(string(v.Name()), enumValuePrefix(d)))
		case stripEnumPrefixGenerateBoth:
			short := prefix + "_" + trimEnumPrefix(string(v.Name()), enumValuePrefix(d))
			e.values = append(e.values, short)
			if short != long {
				if e.aliases == nil {
					e.aliases = make([]string, vals.Len())
				}
				e.aliases[i] = long
			}
		default:
			e.values = append(e.values, long)
		}
	}
	return e
}

func newMessageNames(f *fileNames, d protoreflect.MessageDescriptor) *messageNames {
	m := &messageNames{desc: d, file: f, goName: GoCamelCase(localName(d))}
	m.builder = m.goName + "_builder"
	for i, ods := 0, d.Oneofs(); i < ods.Len(); i++ {
		od := ods.Get(i)
		name := GoCamelCase(string(od.Name()))
		m.oneofs = append(m.oneofs, &oneofNames{desc: od, goName: name, camel: name, api: name})
	}
	for i, fds := 0, d.Fields(); i < fds.Len(); i++ {
		fd := fds.Get(i)
		name := string(fd.Name())
		if isGroupLike(fd) {
			name = string(fd.Message().Name())
		}
		camel := GoCamelCase(string(fd.Name()))
		fn := &fieldNames{desc: fd, goName: GoCamelCase(name), camel: camel, api: camel}
		if od := fd.ContainingOneof(); od != nil {
			o := m.oneofs[od.Index()]
			o.fields = append(o.fields, fn)
			if !od.IsSynthetic() {
				fn.oneof = o
			}
		}
		m.fields = append(m.fields, fn)
	}

	used := make(map[string]bool, len(reservedMethods)+2*len(m.fields))
	for _, r := range reservedMethods {
		used[r] = true
	}
	// A name is taken with its getter: a field named get_o (GetO) and a
	// oneof o (field O, getter GetO) cannot both keep their names.
	unique := func(name string, hasGetter bool) string {
		for used[name] || (hasGetter && used["Get"+name]) {
			name += "_"
		}
		used[name] = true
		if hasGetter {
			used["Get"+name] = true
		}
		return name
	}
	for _, fn := range m.fields {
		fn.goName = unique(fn.goName, true)
		fn.wrapper = m.goName + "_" + fn.goName
		fn.defaultName = "Default_" + m.goName + "_" + fn.goName
		if od := fn.desc.ContainingOneof(); od != nil {
			o := m.oneofs[od.Index()]
			if o.fields[0] == fn {
				// Oneofs take their names in the order of their first
				// member, as in protoc-gen-go. A real oneof has a getter
				// GetX, which protoc-gen-go forgets to reserve (a field
				// get_x after oneof x then breaks its build); a synthetic
				// one (proto3 optional) has none.
				o.goName = unique(o.goName, !od.IsSynthetic())
				o.iface = "is" + m.goName + "_" + o.goName
			}
		}
	}
	// A oneof wrapper type yields to a nested message or enum of the same
	// name, by taking "_" suffixes.
	nested := map[string]bool{}
	for i, mds := 0, d.Messages(); i < mds.Len(); i++ {
		nested[GoCamelCase(localName(mds.Get(i)))] = true
	}
	for i, eds := 0, d.Enums(); i < eds.Len(); i++ {
		nested[GoCamelCase(localName(eds.Get(i)))] = true
	}
	for _, fn := range m.fields {
		if fn.desc.ContainingOneof() != nil {
			for nested[fn.wrapper] {
				fn.wrapper += "_"
			}
		}
	}
	apiNames(m, nested)
	return m
}

// pgReservedMethods are the method names protoc-gen-go's field naming
// avoids (protogen's usedNames).
var pgReservedMethods = []string{"Reset", "String", "ProtoMessage", "Marshal", "Unmarshal", "ExtensionRangeArray", "ExtensionMap", "Descriptor"}

// apiNames decides the names of m's opaque and hybrid APIs as
// protoc-gen-go v1.36 does (compiler/protogen's newMessage and
// opaqueNewMessageHook): each field's and oneof's api (protoc-gen-go's
// GoName), camel and hybridInfix, and the package-level names derived
// from them (case types and constants, opaque wrapper types), which
// checkCollisions may still give "_" suffixes where they meet other
// declarations. nested holds the Go names of m's nested types, which a
// oneof wrapper type yields to.
func apiNames(m *messageNames, nested map[string]bool) {
	used := map[string]bool{}
	for _, r := range pgReservedMethods {
		used[r] = true
	}
	unique := func(name string, hasGetter bool) string {
		for used[name] || (hasGetter && used["Get"+name]) {
			name += "_"
		}
		used[name] = true
		used["Get"+name] = hasGetter // as protogen: a oneof unmarks a getter
		return name
	}
	for _, fn := range m.fields {
		fn.api = unique(fn.api, true)
		if od := fn.desc.ContainingOneof(); od != nil {
			if o := m.oneofs[od.Index()]; o.fields[0] == fn {
				o.api = unique(o.api, false)
			}
		}
	}
	// The camel names: "Build" is the builder's method; two fields of one
	// camel name both take "_<number>", and so do their oneofs.
	for _, fn := range m.fields {
		if fn.camel == "Build" {
			fn.camel += "_"
		}
	}
	byCamel := map[string]*fieldNames{}
	suffix := func(fn *fieldNames) {
		s := "_" + strconv.Itoa(int(fn.desc.Number()))
		fn.camel += s
		if od := fn.desc.ContainingOneof(); od != nil {
			m.oneofs[od.Index()].camel += s
		}
	}
	for _, fn := range m.fields {
		if other, ok := byCamel[fn.camel]; ok {
			suffix(other)
			suffix(fn)
			continue
		}
		byCamel[fn.camel] = fn
	}
	camels := map[string]bool{}
	for _, fn := range m.fields {
		if od := fn.desc.ContainingOneof(); od != nil {
			camels[m.oneofs[od.Index()].camel] = true
		}
		camels[fn.camel] = true
	}
	for _, fn := range m.fields {
		methods := []string{"Set", "Get", "Has", "Clear"}
		if !fn.desc.HasPresence() {
			methods = methods[:2]
		}
		for _, p := range methods {
			if camels[p+fn.camel] {
				fn.hybridInfix = true
			}
		}
		if od := fn.desc.ContainingOneof(); od != nil {
			o := m.oneofs[od.Index()]
			for _, p := range []string{"Has", "Clear", "Which"} {
				if camels[p+o.camel] {
					o.hybridInfix = true
				}
			}
		}
	}
	for _, o := range m.oneofs {
		o.caseType = "case_" + m.goName + "_" + o.api
		o.notSet = m.goName + "_" + o.api + "_not_set_case"
	}
	for _, fn := range m.fields {
		if fn.oneof == nil {
			continue
		}
		fn.caseName = m.goName + "_" + fn.api + "_case"
		w := m.goName + "_" + fn.api
		for nested[w] {
			w += "_"
		}
		fn.opaqueWrapper = unexported(w)
	}
}

// accessor is the name of fn's opaque or hybrid accessor with prefix
// (Get, Set, Has, Clear): protoc-gen-go's Field.MethodName.
func (fn *fieldNames) accessor(prefix string, hybrid bool) string {
	if hybrid && fn.hybridInfix {
		return prefix + "_" + fn.camel
	}
	return prefix + fn.camel
}

// accessor is the name of o's opaque or hybrid method with prefix (Has,
// Clear, Which): protoc-gen-go's Oneof.MethodName.
func (o *oneofNames) accessor(prefix string, hybrid bool) string {
	if hybrid && o.hybridInfix {
		return prefix + "_" + o.camel
	}
	return prefix + o.camel
}

// isGroupLike reports whether fd is a proto2 group (or an editions
// DELIMITED field shaped like one), whose Go name comes from the message
// name rather than the lower-cased field name.
func isGroupLike(fd protoreflect.FieldDescriptor) bool {
	if fd.Kind() != protoreflect.GroupKind {
		return false
	}
	md := fd.Message()
	if md == nil || strings.ToLower(string(md.Name())) != string(fd.Name()) {
		return false
	}
	if md.ParentFile() != fd.ParentFile() {
		return false
	}
	if fd.IsExtension() {
		return md.Parent() == fd.Parent()
	}
	return md.Parent() == fd.ContainingMessage()
}

// GoName returns the Go identifier protoplay (like protoc-gen-go) gives a
// message or enum type: its name relative to the file's package, camel-cased,
// with nesting joined by "_" (Outer.Inner -> Outer_Inner).
func GoName(d protoreflect.Descriptor) string { return GoCamelCase(localName(d)) }

// reservedImportNames are the names no import may take in generated code:
// the predeclared identifiers, init, the blank identifier and printerLocals.
var reservedImportNames = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{"init": true, "_": true}
	for _, n := range predeclared {
		m[n] = true
	}
	for _, n := range printerLocals {
		m[n] = true
	}
	return m
})

// importName is the name under which a generated file imports a package.
type importName struct {
	path string
	name string // the name the file uses
	// declared is the package's own name (its package clause); when name
	// differs, the import carries name as an alias.
	declared string
}

// importNames decides the names under which file f imports the packages its
// code may refer to: stdImports first, in their order, then the Go packages
// of the messages and enums its fields use, in dependency order. Each takes
// its declared name unless that would be a Go keyword or predeclared
// identifier, init, a local of the generated methods (printerLocals), a
// package-level identifier of f's Go package declared by f or a file it
// imports (those of other files are reported by checkCollisions, so that
// the names do not depend on the gen run), or the name of an import
// decided before it; then, as protoc-gen-go does, the first free name of
// name1, name2, ... (so package b imported beside the local b becomes b1).
func (g *generator) importNames(f *fileNames) []importName {
	reserved, decls := reservedImportNames(), g.visibleDecls[f][f.importPath]
	taken := map[string]bool{}
	var out []importName
	free := func(name string) bool {
		_, decl := decls[name]
		return !reserved[name] && !decl && !taken[name] && !token.Lookup(name).IsKeyword()
	}
	add := func(path, declared string) {
		name := declared
		for i := 1; !free(name); i++ {
			name = declared + strconv.Itoa(i)
		}
		taken[name] = true
		out = append(out, importName{path: path, name: name, declared: declared})
	}
	for _, s := range stdImports {
		add(s.path, s.name)
	}
	used := map[string]bool{}
	forEachFieldType(f.desc, func(_ protoreflect.FieldDescriptor, t protoreflect.Descriptor) {
		used[g.byPath[t.ParentFile().Path()].importPath] = true
	})
	done := map[string]bool{f.importPath: true}
	for _, s := range stdImports {
		done[s.path] = true
	}
	for _, other := range g.files {
		if used[other.importPath] && !done[other.importPath] {
			done[other.importPath] = true
			add(other.importPath, other.pkgName)
		}
	}
	return out
}
