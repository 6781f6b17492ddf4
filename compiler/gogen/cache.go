package gogen

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"reflect"
	"slices"
	"strconv"
	"sync"

	"github.com/dave/jennifer/jen"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

// A Cache keeps the gofmt'd Go of each piece of generated code (a
// top-level enum, a message with its own enums, a file's resolver
// function or its notes on extensions and services; see renderFile) between
// calls of GenerateCached, so that an edit regenerates only the pieces
// whose inputs changed: an editor session (compiler.Workspace) recompiles
// the whole schema on every keystroke, and printing and gofmt'ing the
// pieces is nearly all of the backend's time.
//
// A message or enum piece is keyed by a 128-bit digest (pieceKey) of everything its code is printed from
// (see pieceKey): the options, its file's Go package, import names and
// file-level descriptor (syntax, edition, options), the descriptor of its
// top-level message or enum (nested types included), the comments it
// prints (its own type's and those of what is declared in it, but not its
// nested messages', which are pieces of their own), the Go names decided
// for that subtree, and for every type its fields
// refer to, that type's Go name, package, top-level descriptor (without
// comments, which only that type's own pieces print), its
// file's descriptor, whether it can hold required fields and whether it
// is printed with ValidateGroup (a choice made over its whole file, see
// validated; every message of the subtree too); plus the
// import names the file had registered before the piece. A change to any
// of them, in the file or in a file it imports, is another key, so a hit
// gives the bytes a cold run prints (TestCacheMatchesCold checks it over
// sequences of edits). A file's resolver and notes are keyed by the same
// file names, options and imports and the text they are printed from
// (textKey).
//
// The cache keeps pieces per option set (Options, whose value is part of
// every key, so sets share no pieces): for each of the last
// MaxCacheOptionSets option sets used, the pieces of its last two calls;
// after each call it drops the rest. Callers alternating options (a page's
// Go pane and its Go interpreter) so keep each other's pieces, and the
// size is bounded by about 2*MaxCacheOptionSets outputs of one call. A
// Cache is safe for concurrent use; the zero value is ready.
type Cache struct {
	mu     sync.Mutex
	pieces map[pieceKey]*cachedPiece
	// sets are the option sets of the last calls, most recent first, at
	// most MaxCacheOptionSets.
	sets []*optionSet
	// Hits and Misses count the pieces reused and printed over the
	// cache's life (for tests and measurements).
	Hits, Misses int
	// memo is the descMemo entries of the last call.
	memo map[protoreflect.Descriptor]*memoEntry
	// shapes is the shape memo of the calls (see shapeMemo): an edit's
	// pieces, printed again, mostly find their chunks' templates there.
	shapes *shapeMemo
}

// cacheShapesMax bounds the shape memo a Cache keeps between calls: one
// past it at a call's start is dropped for a new one. The memo is kept
// for editor sessions, whose schemas hold thousands of chunks, not
// millions.
const cacheShapesMax = 16 << 20

// shapeMemo returns the cache's shape memo for a call.
func (c *Cache) shapeMemo() *shapeMemo {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.shapes == nil || c.shapes.over(cacheShapesMax) {
		c.shapes = newShapeMemo()
	}
	return c.shapes
}

// A descMemo keeps, by descriptor, the work of a call that is a function
// of a linked descriptor alone, for the next call: a linked descriptor
// is never changed, so the same one (the same pointer: a file the
// compiler's link cache reused, or a standard file) has the same
// content. It holds the Go names of messages and enums and the digests
// of descriptors and files that piece keys are made of (shape, own,
// head, protos); subtree, which reads the names of other types, is not
// kept. Only the last call's entries are kept, each copied before a call
// changes it, so that calls running at once never share a write.
type descMemo struct {
	prev, next map[protoreflect.Descriptor]*memoEntry
}

type memoEntry struct {
	msg        *messageNames // file is the call's that named it
	enum       *enumNames
	shape, own []byte
	protos     *fileProtos
	head       []byte
}

// entry returns this call's entry for d, started from the last call's;
// nil when m is nil (no cache).
func (m *descMemo) entry(d protoreflect.Descriptor) *memoEntry {
	if m == nil {
		return nil
	}
	if e := m.next[d]; e != nil {
		return e
	}
	e := &memoEntry{}
	if p := m.prev[d]; p != nil {
		*e = *p
	}
	m.next[d] = e
	return e
}

// beginMemo starts a call's descMemo from the last call's entries;
// endMemo keeps its entries for the next call.
func (c *Cache) beginMemo() *descMemo {
	c.mu.Lock()
	defer c.mu.Unlock()
	return &descMemo{prev: c.memo, next: map[protoreflect.Descriptor]*memoEntry{}}
}

func (c *Cache) endMemo(m *descMemo) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.memo = m.next
}

// pieceKey is a 128-bit digest: two maphash sums with independent random
// seeds (chosen per process, so no input can be crafted to collide; an
// accidental collision has odds of about 2^-128 per pair). It is not
// crypto/sha256, which would pull the FIPS crypto packages into the wasm.
type pieceKey [16]byte

var keySeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// digest is a hash.Hash writing to both maphash sums.
type digest struct{ a, b maphash.Hash }

func newDigest() *digest {
	d := &digest{}
	d.a.SetSeed(keySeeds[0])
	d.b.SetSeed(keySeeds[1])
	return d
}

func (d *digest) Write(p []byte) (int, error) {
	d.a.Write(p)
	d.b.Write(p)
	return len(p), nil
}

func (d *digest) sum() pieceKey {
	var k pieceKey
	binary.LittleEndian.PutUint64(k[:8], d.a.Sum64())
	binary.LittleEndian.PutUint64(k[8:], d.b.Sum64())
	return k
}

func (d *digest) bytes() []byte { k := d.sum(); return k[:] }

// MaxCacheOptionSets is how many option sets' pieces a Cache keeps.
const MaxCacheOptionSets = 4

// optionSet is one option set's calls: call counts them, for eviction.
type optionSet struct {
	key  string
	call int
}

type cachedPiece struct {
	text []byte // the piece's gofmt'd, trimmed Go
	// imports are the import paths the piece registered in its file, with
	// the names they got, in registration order.
	imports  []importDef
	set      *optionSet // the option set whose calls printed or used it
	lastCall int        // the last of set's calls that used it
}

type importDef struct{ path, name string }

// Len is the number of pieces the cache holds.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pieces)
}

func (c *Cache) get(k pieceKey, set *optionSet) *cachedPiece {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.pieces[k]
	if p != nil && p.set == set {
		p.lastCall = set.call
		c.Hits++
		return p
	}
	c.Misses++
	return nil
}

func (c *Cache) put(k pieceKey, p *cachedPiece, set *optionSet) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pieces == nil {
		c.pieces = map[pieceKey]*cachedPiece{}
	}
	p.set, p.lastCall = set, set.call
	c.pieces[k] = p
}

// begin starts a call with the options whose key text is optsKey and
// returns its option set, now the most recent; end drops the pieces
// neither it nor that set's call before it used, and those of the sets
// beyond MaxCacheOptionSets.
func (c *Cache) begin(optsKey string) *optionSet {
	c.mu.Lock()
	defer c.mu.Unlock()
	var set *optionSet
	for i, s := range c.sets {
		if s.key == optsKey {
			set = s
			c.sets = slices.Delete(c.sets, i, i+1)
			break
		}
	}
	if set == nil {
		set = &optionSet{key: optsKey}
	}
	set.call++
	c.sets = slices.Insert(c.sets, 0, set)
	return set
}

func (c *Cache) end(set *optionSet) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.sets) > MaxCacheOptionSets {
		clear(c.sets[MaxCacheOptionSets:])
		c.sets = c.sets[:MaxCacheOptionSets]
	}
	for k, p := range c.pieces {
		if (p.set == set && p.lastCall < set.call-1) || !slices.Contains(c.sets, p.set) {
			delete(c.pieces, k)
		}
	}
}

// keyer computes piece keys for one call, memoizing per-file and
// per-type digests.
type keyer struct {
	g        *generator
	optsKey  string
	fileHead map[string][]byte                // file path -> digest of its descriptor without types
	fileProt map[string]*fileProtos           // file path -> its descriptor and comments
	ownKey   map[protoreflect.FullName][]byte // message or top-level enum -> digest of what its piece reads of it (own)
	shapeKey map[protoreflect.FullName][]byte // top-level type -> digest of its descriptor
	deps     map[protoreflect.FullName]string // top-level type -> its references, as key text
	buf      []byte                           // pieceKey's scratch
}

type fileProtos struct {
	fdp *descriptorpb.FileDescriptorProto
	// comments holds, by the source path of a message or top-level enum
	// (ownerKey), the comments that the piece printing it can print:
	// those of everything declared in it but in its nested messages,
	// which are pieces of their own.
	comments map[string][]byte
}

// ownerKey is the key of fileProtos.comments for the locations under
// path: the path of the message or top-level enum the location belongs
// to, as a piece prints it (a top-level type [4 or 5, i], then [3, j]
// for each nested message), in bytes. ok is false for a location under
// no type (the file's options, services, file-level extensions).
func ownerKey(path []int32) (key string, ok bool) {
	if len(path) < 2 || (path[0] != 4 && path[0] != 5) {
		return "", false
	}
	n := 2
	if path[0] == 4 {
		// DescriptorProto.nested_type is field 3.
		for n+1 < len(path) && path[n] == 3 {
			n += 2
		}
	}
	var b []byte
	for _, x := range path[:n] {
		b = binary.AppendVarint(b, int64(x))
	}
	return string(b), true
}

// descriptorOwnerKey is ownerKey of the path of d, a message or a
// top-level enum.
func descriptorOwnerKey(d protoreflect.Descriptor) string {
	var path []int32
	for {
		p := d.Parent()
		_, top := p.(protoreflect.FileDescriptor)
		switch d.(type) {
		case protoreflect.EnumDescriptor:
			path = append(path, int32(d.Index()), 5)
		default:
			if top {
				path = append(path, int32(d.Index()), 4)
			} else {
				path = append(path, int32(d.Index()), 3)
			}
		}
		if top || p == nil {
			break
		}
		d = p
	}
	slices.Reverse(path)
	k, _ := ownerKey(path)
	return k
}

func newKeyer(g *generator) *keyer {
	return &keyer{g: g, optsKey: fmt.Sprintf("%#v", g.opts),
		fileHead: map[string][]byte{}, fileProt: map[string]*fileProtos{},
		ownKey: map[protoreflect.FullName][]byte{}, shapeKey: map[protoreflect.FullName][]byte{}, deps: map[protoreflect.FullName]string{}}
}

// protos returns fd's FileDescriptorProto (protocompile's own, when fd is
// a protocompile result) and its comments grouped by top-level type.
func (k *keyer) protos(fd protoreflect.FileDescriptor) *fileProtos {
	if p := k.fileProt[fd.Path()]; p != nil {
		return p
	}
	e := k.g.memo.entry(fd)
	if e != nil && e.protos != nil {
		k.fileProt[fd.Path()] = e.protos
		return e.protos
	}
	var fdp *descriptorpb.FileDescriptorProto
	if r, ok := fd.(interface {
		FileDescriptorProto() *descriptorpb.FileDescriptorProto
	}); ok {
		fdp = r.FileDescriptorProto()
	} else {
		fdp = protodesc.ToFileDescriptorProto(fd)
	}
	p := &fileProtos{fdp: fdp, comments: map[string][]byte{}}
	for _, loc := range fdp.GetSourceCodeInfo().GetLocation() {
		path := loc.GetPath()
		if loc.LeadingComments == nil && loc.TrailingComments == nil && len(loc.LeadingDetachedComments) == 0 {
			continue
		}
		key, ok := ownerKey(path)
		if !ok {
			continue
		}
		b := p.comments[key]
		for _, x := range path {
			b = binary.AppendVarint(b, int64(x))
		}
		b = appendString(b, loc.GetLeadingComments())
		b = appendString(b, loc.GetTrailingComments())
		for _, d := range loc.LeadingDetachedComments {
			b = appendString(b, d)
		}
		b = append(b, 0xff)
		p.comments[key] = b
	}
	k.fileProt[fd.Path()] = p
	if e != nil {
		e.protos = p
	}
	return p
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

var deterministic = proto.MarshalOptions{Deterministic: true}

// head is the digest of fd's descriptor without its types, services,
// extensions and source info: path, package, syntax, edition, imports and
// options (which hold the file's features).
func (k *keyer) head(fd protoreflect.FileDescriptor) []byte {
	if d := k.fileHead[fd.Path()]; d != nil {
		return d
	}
	e := k.g.memo.entry(fd)
	if e != nil && e.head != nil {
		k.fileHead[fd.Path()] = e.head
		return e.head
	}
	fdp := k.protos(fd).fdp
	h := &descriptorpb.FileDescriptorProto{
		Name: fdp.Name, Package: fdp.Package, Dependency: fdp.Dependency,
		PublicDependency: fdp.PublicDependency, WeakDependency: fdp.WeakDependency,
		Options: fdp.Options, Syntax: fdp.Syntax, Edition: fdp.Edition,
	}
	b, err := deterministic.Marshal(h)
	if err != nil {
		b = []byte(err.Error())
	}
	d := newDigest()
	d.Write(b)
	s := d.bytes()
	k.fileHead[fd.Path()] = s
	if e != nil {
		e.head = s
	}
	return s
}

// topLevel returns the top-level message or enum that d is declared in
// (d itself when it is top-level).
func topLevel(d protoreflect.Descriptor) protoreflect.Descriptor {
	for {
		p := d.Parent()
		if _, ok := p.(protoreflect.FileDescriptor); ok || p == nil {
			return d
		}
		d = p
	}
}

// shape is the digest of a top-level message or enum's descriptor,
// nested types included, without comments: what a piece that refers to a
// type in it can read (a piece prints only its own types' comments, see
// docComments), so that editing a comment reprints only that type's
// pieces, not every piece whose fields refer to it.
func (k *keyer) shape(d protoreflect.Descriptor) []byte {
	if b := k.shapeKey[d.FullName()]; b != nil {
		return b
	}
	e := k.g.memo.entry(d)
	if e != nil && e.shape != nil {
		k.shapeKey[d.FullName()] = e.shape
		return e.shape
	}
	p := k.protos(d.ParentFile())
	var m proto.Message
	switch d := d.(type) {
	case protoreflect.MessageDescriptor:
		m = p.fdp.GetMessageType()[d.Index()]
	case protoreflect.EnumDescriptor:
		m = p.fdp.GetEnumType()[d.Index()]
	}
	b, err := deterministic.Marshal(m)
	if err != nil {
		b = []byte(err.Error())
	}
	h := newDigest()
	h.Write(b)
	s := h.bytes()
	k.shapeKey[d.FullName()] = s
	if e != nil {
		e.shape = s
	}
	return s
}

// own is the digest of what a piece reads of the type it prints, d (a
// message or a top-level enum): the descriptor of d's top-level type,
// nested types included (shape), and the comments the piece prints,
// those of d and everything declared in it but its nested messages
// (see fileProtos.comments): a comment edited in a message reprints
// that message's piece, not its nested messages' or its parent's.
func (k *keyer) own(d protoreflect.Descriptor) []byte {
	if b := k.ownKey[d.FullName()]; b != nil {
		return b
	}
	e := k.g.memo.entry(d)
	if e != nil && e.own != nil {
		k.ownKey[d.FullName()] = e.own
		return e.own
	}
	p := k.protos(d.ParentFile())
	h := newDigest()
	h.Write(k.shape(topLevel(d)))
	h.Write(p.comments[descriptorOwnerKey(d)])
	s := h.bytes()
	k.ownKey[d.FullName()] = s
	if e != nil {
		e.own = s
	}
	return s
}

// typeRef appends to b what a piece can read of a type it refers to.
// Every string is length-prefixed (appendString), so that distinct
// inputs never write the same bytes.
func (k *keyer) typeRef(b []byte, d protoreflect.Descriptor) []byte {
	g := k.g
	b = append(b, "ref"...)
	b = appendString(b, string(d.FullName()))
	b = appendString(b, d.ParentFile().Path())
	switch d := d.(type) {
	case protoreflect.MessageDescriptor:
		if mn := g.msgs[d.FullName()]; mn != nil {
			b = append(b, 'm')
			b = appendStrings(b, mn.goName, mn.file.importPath, mn.file.pkgName)
			b = appendBool(b, g.canRequire(d))
			b = appendBool(b, g.validated(d))
		}
	case protoreflect.EnumDescriptor:
		if en := g.enums[d.FullName()]; en != nil {
			b = append(b, 'e')
			b = appendEnum(b, en)
			b = appendStrings(b, en.file.importPath, en.file.pkgName)
		}
	}
	b = append(b, k.shape(topLevel(d))...)
	return append(b, k.head(d.ParentFile())...)
}

func appendStrings(b []byte, ss ...string) []byte {
	for _, s := range ss {
		b = appendString(b, s)
	}
	return b
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// appendEnum appends the Go names decided for an enum.
func appendEnum(b []byte, en *enumNames) []byte {
	b = appendStrings(b, en.goName, en.nameMap, en.valueMap)
	b = binary.AppendUvarint(b, uint64(len(en.values)))
	b = appendStrings(b, en.values...)
	b = binary.AppendUvarint(b, uint64(len(en.aliases)))
	return appendStrings(b, en.aliases...)
}

// subtree returns the Go names decided for the types declared in the
// top-level type t and the digest of the references of their fields (once
// per t), as key bytes.
func (k *keyer) subtree(t protoreflect.Descriptor) string {
	if s, ok := k.deps[t.FullName()]; ok {
		return s
	}
	b := make([]byte, 0, 256)
	refs := map[protoreflect.FullName]protoreflect.Descriptor{}
	var enum func(ed protoreflect.EnumDescriptor)
	enum = func(ed protoreflect.EnumDescriptor) {
		if en := k.g.enums[ed.FullName()]; en != nil {
			b = append(b, "enum"...)
			b = appendString(b, string(ed.FullName()))
			b = appendEnum(b, en)
		}
	}
	var field func(fd protoreflect.FieldDescriptor)
	field = func(fd protoreflect.FieldDescriptor) {
		if m := fd.Message(); m != nil {
			refs[m.FullName()] = m
		}
		if e := fd.Enum(); e != nil {
			refs[e.FullName()] = e
		}
		if fd.IsMap() {
			field(fd.MapKey())
			field(fd.MapValue())
		}
		if ct := fd.ContainingMessage(); ct != nil {
			refs[ct.FullName()] = ct
		}
	}
	var msg func(md protoreflect.MessageDescriptor)
	msg = func(md protoreflect.MessageDescriptor) {
		if mn := k.g.msgs[md.FullName()]; mn != nil {
			b = append(b, "msg"...)
			b = appendStrings(b, string(md.FullName()), mn.goName, mn.builder)
			b = appendBool(b, k.g.canRequire(md))
			b = appendBool(b, k.g.validated(md))
			b = binary.AppendUvarint(b, uint64(len(mn.fields)))
			for _, fn := range mn.fields {
				oneof := ""
				if fn.oneof != nil {
					oneof = fn.oneof.goName
				}
				b = appendStrings(b, string(fn.desc.Name()), fn.goName, fn.wrapper, fn.defaultName, oneof,
					fn.camel, fn.api, fn.caseName, fn.opaqueWrapper)
				b = appendBool(b, fn.hybridInfix)
			}
			b = binary.AppendUvarint(b, uint64(len(mn.oneofs)))
			for _, on := range mn.oneofs {
				b = appendStrings(b, string(on.desc.Name()), on.goName, on.iface, on.camel, on.api, on.caseType, on.notSet)
				b = appendBool(b, on.hybridInfix)
				b = binary.AppendUvarint(b, uint64(len(on.fields)))
			}
		}
		for i := 0; i < md.Fields().Len(); i++ {
			field(md.Fields().Get(i))
		}
		for i := 0; i < md.Extensions().Len(); i++ {
			field(md.Extensions().Get(i))
		}
		for i := 0; i < md.Enums().Len(); i++ {
			enum(md.Enums().Get(i))
		}
		for i := 0; i < md.Messages().Len(); i++ {
			msg(md.Messages().Get(i))
		}
		b = append(b, "end"...)
	}
	switch t := t.(type) {
	case protoreflect.MessageDescriptor:
		msg(t)
	case protoreflect.EnumDescriptor:
		enum(t)
	}
	names := make([]protoreflect.FullName, 0, len(refs))
	for n := range refs {
		names = append(names, n)
	}
	slices.Sort(names)
	var rb []byte
	for _, n := range names {
		rb = k.typeRef(rb, refs[n])
	}
	h := newDigest()
	h.Write(rb)
	b = append(b, h.bytes()...)
	s := string(b)
	k.deps[t.FullName()] = s
	return s
}

// pieceKey is the key of the piece of f that prints d (a message or a
// top-level enum), given the imports its Go file registered so far.
func (k *keyer) pieceKey(f *fileNames, d protoreflect.Descriptor, importState string) pieceKey {
	b := appendStrings(k.buf[:0], "protoplay gogen piece v1", k.optsKey, f.desc.Path(), f.importPath, f.pkgName, f.resolverName,
		strconv.FormatBool(f.generate), importState, string(d.FullName()))
	b = append(b, k.head(f.desc)...)
	t := topLevel(d)
	b = append(b, k.own(d)...)
	b = append(b, k.subtree(t)...)
	k.buf = b
	h := newDigest()
	h.Write(b)
	return h.sum()
}

// textKey is the key of a piece of f printed from text alone (with f's
// names, the options and the imports its Go file registered so far):
// the resolver, whose text is its resolverPlan's key, and the notes on
// extensions and services, whose text is the notes.
func (k *keyer) textKey(f *fileNames, text, importState string) pieceKey {
	b := appendStrings(k.buf[:0], "protoplay gogen text piece v1", k.optsKey, f.desc.Path(), f.importPath, f.pkgName, f.resolverName,
		strconv.FormatBool(f.generate), importState, text)
	k.buf = b
	h := newDigest()
	h.Write(b)
	return h.sum()
}

// fileImports returns the imports jf has registered, path -> name, read
// from jennifer's unexported state (jennifer exposes no accessor): which
// paths a piece used, so that a cached piece registers the same ones.
func fileImports(jf *jen.File) map[string]string {
	v := importsValue(jf)
	out := make(map[string]string, v.Len())
	it := v.MapRange()
	for it.Next() {
		out[it.Key().String()] = it.Value().FieldByName("name").String()
	}
	return out
}

// importsValue is jf's map of registered imports, for reading.
func importsValue(jf *jen.File) reflect.Value {
	return reflect.ValueOf(jf).Elem().FieldByName("imports")
}

// importState is the text of a file's registered imports, sorted.
func importState(m map[string]string) string {
	paths := make([]string, 0, len(m))
	for p := range m {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	var b []byte
	for _, p := range paths {
		b = append(b, p...)
		b = append(b, '=')
		b = append(b, m[p]...)
		b = append(b, ';')
	}
	return string(b)
}

// errReplay says that a cached piece's imports got other names in its
// file than when it was printed; the file is then printed without the
// cache. It cannot happen for a key that matched, whose import state
// was the same, unless two of the piece's new imports guessed the same
// name (registration order then decides), and is handled for safety.
var errReplay = errors.New("gogen: cached piece's imports replay differently")

// replayImports registers defs in jf, as printing the cached piece did,
// by rendering a qualified name of each; errReplay if a name differs.
func (g *generator) replayImports(f *fileNames, jf *jen.File, defs []importDef) error {
	if len(defs) == 0 {
		return nil
	}
	pf := jen.NewFilePathName(f.importPath, f.pkgName)
	for _, d := range defs {
		pf.Add(jen.Qual(d.path, "X"))
	}
	_ = pf.Group.RenderWithFile(io.Discard, jf) // only the registration matters
	now := fileImports(jf)
	for _, d := range defs {
		if now[d.path] != d.name {
			return errReplay
		}
	}
	return nil
}
