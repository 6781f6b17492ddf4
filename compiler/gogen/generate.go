// Package gogen is protoplay's Go backend: linked descriptors in, gofmt'd Go
// files out, printed with github.com/dave/jennifer.
//
// Generated code is plain structs with generated Marshal, MarshalAppend,
// Unmarshal, Size, Reset, Clone, Equal and getters. It imports only the
// standard library, protoplay's runtime/wire and the packages of the message
// types it refers to; it does no work at init and registers nothing.
package gogen

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/protoplay/protoplay/compiler/diag"
	"go/format"
	"go/scanner"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"
	"github.com/protoplay/protoplay/internal/parallel"
	"github.com/protoplay/protoplay/internal/version"
	"github.com/protoplay/protoplay/runtime/wire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// File is one generated Go file. Name is slash-separated and relative to
// the output root (see Options.Paths).
type File struct {
	Name    string `json:"name"`
	Content string `json:"content"`
}

type generator struct {
	opts         Options
	files        []*fileNames // every file reachable from the request, dependencies first
	byPath       map[string]*fileNames
	msgs         map[protoreflect.FullName]*messageNames
	enums        map[protoreflect.FullName]*enumNames
	pkgGenerated map[string]bool // Go import paths of the files being generated
	// visibleDecls holds, for each file, the package-level identifiers its
	// code must leave alone in each Go package it writes to: those of the
	// file and of the files it imports (see checkCollisions).
	visibleDecls map[*fileNames]map[string]map[string]goDecl
	// levels holds each message's API level, resolved on first use
	// (see isOpaque).
	levels map[protoreflect.FullName]apiLevel
	// protoopaque is set while the _protoopaque.pb.go file of an
	// API_HYBRID file is printed: all its messages are opaque there (see
	// isOpaque, isHybridOpen, fileIsHybrid).
	protoopaque bool
	// requireMemo holds canRequire's answers, made on first use.
	requireMemo map[protoreflect.FullName]bool
	// validateSets holds, per file and view, the messages printed with
	// ValidateGroup, made on first use (see validated).
	validateSets map[validatedKey]map[protoreflect.FullName]bool

	// check, when set, is called after each piece of output (see
	// renderFile) with the bytes of Go generated so far; written counts
	// those of the files already done.
	check   func(outputBytes int) error
	written int

	// cache, when set, holds pieces of earlier calls (see Cache); keys
	// computes their keys for this call.
	cache    *Cache
	cacheSet *optionSet // cache's set of these options
	keys     *keyer
	// memo, when set (with a cache), keeps per-descriptor work between
	// calls (see descMemo).
	memo *descMemo

	// shapes remembers the gofmt'd shapes of the chunks printed in this
	// call (see shapeMemo): the cache's, or made by the first renderFile.
	shapes *shapeMemo

	// The file being printed: its names, its jen.File (whose imports
	// direct text registers), its import names by path (see qual).
	curFile  *fileNames
	fileJF   *jen.File
	impNames map[string]string
	// pieceText collects the direct text of the piece being built (see
	// emitText); nil when text goes into the jen.File.
	pieceText *textSegments
}

// checkError is an error returned by GenerateWith's check function.
type checkError struct{ err error }

func (e *checkError) Error() string { return e.err.Error() }
func (e *checkError) Unwrap() error { return e.err }

// Generate produces one .pb.go file for each of files. Their imports are
// used for names and import paths but produce no output. It returns
// diagnostics, and no files, when the input cannot become Go code that
// builds: Go package name conflicts, identifier collisions, import cycles
// between Go packages, bad import or output paths.
func Generate(files []protoreflect.FileDescriptor, opts Options) ([]File, []diag.Diagnostic) {
	return GenerateWith(files, opts, nil)
}

// GenerateWith is Generate with a check: once the names are decided,
// and after each top-level declaration group it prints (an enum, or a
// message with its enums), GenerateWith calls check with the number of
// bytes of Go generated so far, over all files. A non-nil error stops
// generation at once: the result is no files and one diag.Diagnostic, on
// the file being generated (the first, before printing), whose Message is
// the error's text. Callers use it for limits on output size, time and
// memory (see package compiler). A nil check is Generate.
func GenerateWith(files []protoreflect.FileDescriptor, opts Options, check func(outputBytes int) error) ([]File, []diag.Diagnostic) {
	return GenerateCached(files, opts, check, nil)
}

// GenerateCached is GenerateWith reusing, from cache, the printed pieces
// of earlier calls whose inputs did not change (see Cache); the output is
// byte for byte GenerateWith's. A nil cache is GenerateWith.
func GenerateCached(files []protoreflect.FileDescriptor, opts Options, check func(outputBytes int) error, cache *Cache) ([]File, []diag.Diagnostic) {
	var memo *descMemo
	if cache != nil {
		memo = cache.beginMemo()
		defer cache.endMemo(memo)
	}
	g, diags := newGeneratorMemo(files, opts, memo)
	if len(diags) > 0 {
		return nil, diags
	}
	if cache != nil {
		g.cache, g.keys = cache, newKeyer(g)
		g.cacheSet = cache.begin(g.keys.optsKey)
		defer cache.end(g.cacheSet)
		g.shapes = cache.shapeMemo()
	}
	if check != nil {
		g.check = func(n int) error {
			if err := check(n); err != nil {
				return &checkError{err}
			}
			return nil
		}
		// The naming pass and the cache's keys are passes over every
		// descriptor of the run, before any piece is printed.
		if err := g.check(0); err != nil && len(files) > 0 {
			d, _ := renderError(files[0], "Go", err)
			return nil, []diag.Diagnostic{d}
		}
	}
	var out []File
	if cache == nil && len(files) > 1 && runtime.GOMAXPROCS(0) > 1 {
		var d *diag.Diagnostic
		if out, d, diags = g.renderParallel(files, opts, check); d != nil {
			return nil, []diag.Diagnostic{*d}
		}
	} else {
		for _, fd := range files {
			fo, d, fatal := g.renderOne(fd)
			if fatal {
				return nil, []diag.Diagnostic{*d}
			}
			if d != nil {
				diags = append(diags, *d)
			}
			out = append(out, fo...)
		}
	}
	if len(diags) > 0 {
		return nil, diags
	}
	if opts.Runtime == "local" {
		var err error
		if out, err = g.localRuntime(out); err != nil {
			return nil, []diag.Diagnostic{{Severity: diag.SeverityError, Message: err.Error()}}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// renderOne prints the files of fd: its .pb.go, the _protoopaque.pb.go of
// an API_HYBRID file, and its service files. d is the diagnostic of a
// failure, which leaves the rest of fd's files unprinted; fatal when it
// ends the run (see renderError).
func (g *generator) renderOne(fd protoreflect.FileDescriptor) (out []File, d *diag.Diagnostic, fatal bool) {
	fail := func(what string, err error) ([]File, *diag.Diagnostic, bool) {
		d, fatal := renderError(fd, what, err)
		return out, &d, fatal
	}
	f := g.byPath[fd.Path()]
	pub, err := g.publicForwards(f)
	if err != nil {
		return fail("Go", err)
	}
	f.public = pub
	src, err := g.renderFile(f)
	if err == errReplay {
		// A cached piece's imports came out under other names:
		// print this file without the cache.
		c := g.cache
		g.cache = nil
		src, err = g.renderFile(f)
		g.cache = c
	}
	if err != nil {
		return fail("Go", err)
	}
	g.written += len(src)
	out = append(out, File{Name: f.outName, Content: src})
	if g.fileIsHybrid(fd) {
		// protoc-gen-go's hybrid: the file above (build tag
		// !protoopaque) has the open API and the opaque accessors; a
		// second one (protoopaque) has the opaque API. It is printed
		// without the piece cache, whose pieces are the first file's.
		c := g.cache
		g.cache, g.protoopaque = nil, true
		src, err := g.renderFile(f)
		g.cache, g.protoopaque = c, false
		if err != nil {
			return fail("Go", err)
		}
		g.written += len(src)
		out = append(out, File{Name: protoopaqueName(f.outName), Content: src})
	}
	svc, err := g.renderServices(f)
	if err != nil {
		return fail("service code", err)
	}
	return append(out, svc...), nil, false
}

// renderParallel is renderOne over files on GOMAXPROCS goroutines, so
// that files print beside each other: printing is the larger part of a
// run, and one printing goroutine (with gofmt on the format pool's) kept
// 1.65 of 2 processors busy on googleapis. Each goroutine has a generator
// of its own, made from files and opts as g was (the naming pass is a
// function of those alone, so every generator names alike), sharing g's
// shape memo. The output and the diagnostics are in the order of
// files, as renderOne's loop gives them; check sees the bytes of every
// goroutine's files so far. fatal is the fatal diagnostic of the first
// file in files' order that met one (the others stop at their next file).
// A panic on a goroutine is raised again on the caller's (parallel.For).
func (g *generator) renderParallel(files []protoreflect.FileDescriptor, opts Options, check func(int) error) (out []File, fatal *diag.Diagnostic, diags []diag.Diagnostic) {
	if g.shapes == nil {
		g.shapes = newShapeMemo()
	}
	type result struct {
		out   []File
		d     *diag.Diagnostic
		fatal bool
	}
	results := make([]result, len(files))
	gens := make([]*generator, parallel.Workers(len(files)))
	var total atomic.Int64 // the bytes told to check by every goroutine
	var stop atomic.Bool
	parallel.For(len(files), func(w, i int) {
		if stop.Load() {
			return
		}
		gw := gens[w]
		if gw == nil {
			gw = g
			if w > 0 {
				var ds []diag.Diagnostic
				if gw, ds = newGeneratorMemo(files, opts, nil); len(ds) > 0 {
					panic(fmt.Sprintf("gogen: the naming pass of a printing goroutine disagrees: %v", ds))
				}
				gw.shapes = g.shapes
			}
			if check != nil {
				last := 0 // this goroutine's bytes in total
				gw.check = func(n int) error {
					t := total.Add(int64(n - last))
					last = n
					if err := check(int(t)); err != nil {
						return &checkError{err}
					}
					return nil
				}
			}
			gens[w] = gw
		}
		r := &results[i]
		r.out, r.d, r.fatal = gw.renderOne(files[i])
		if r.fatal {
			stop.Store(true)
		}
	})
	for _, r := range results {
		if r.fatal {
			return nil, r.d, nil
		}
	}
	for _, r := range results {
		if r.d != nil {
			diags = append(diags, *r.d)
		}
		out = append(out, r.out...)
	}
	return out, nil, diags
}

// renderError is the diagnostic of an error printing fd's code (what:
// "Go", "service code"). fatal when a check of the run refused it (a limit,
// see checkError), which ends the run; otherwise the printed code did not
// format, an internal error of this file only.
func renderError(fd protoreflect.FileDescriptor, what string, err error) (d diag.Diagnostic, fatal bool) {
	if ce, ok := err.(*checkError); ok {
		return diag.Diagnostic{Severity: diag.SeverityError, File: fd.Path(), Message: ce.err.Error(), Limit: limitOf(ce.err)}, true
	}
	return diag.Diagnostic{Severity: diag.SeverityError, File: fd.Path(), Message: "internal error: generated " + what + " does not format: " + err.Error()}, false
}

// newGenerator is the naming pass: it decides every Go identifier, import
// path, package name and output path of the files to generate, and reports
// what cannot become Go that builds. No code is printed before it is done.
func newGenerator(files []protoreflect.FileDescriptor, opts Options) (*generator, []diag.Diagnostic) {
	return newGeneratorMemo(files, opts, nil)
}

// newGeneratorMemo is newGenerator taking the Go names of descriptors
// named by earlier calls from memo (nil: none).
func newGeneratorMemo(files []protoreflect.FileDescriptor, opts Options, memo *descMemo) (*generator, []diag.Diagnostic) {
	g := &generator{
		memo:         memo,
		opts:         opts,
		byPath:       map[string]*fileNames{},
		msgs:         map[protoreflect.FullName]*messageNames{},
		enums:        map[protoreflect.FullName]*enumNames{},
		pkgGenerated: map[string]bool{},
	}
	var add func(fd protoreflect.FileDescriptor)
	add = func(fd protoreflect.FileDescriptor) {
		if g.byPath[fd.Path()] != nil {
			return
		}
		f := &fileNames{desc: fd, resolverName: ProtoJSONResolverName(fd.Path())}
		g.byPath[fd.Path()] = f
		imps := fd.Imports()
		for i := 0; i < imps.Len(); i++ {
			add(imps.Get(i).FileDescriptor)
		}
		f.importPath, f.pkgName = resolvePackage(fd, &g.opts)
		g.files = append(g.files, f)
		g.nameFile(f)
	}
	for _, fd := range files {
		add(fd)
	}
	for _, fd := range files {
		f := g.byPath[fd.Path()]
		f.generate = true
		g.pkgGenerated[f.importPath] = true
	}

	var diags []diag.Diagnostic
	if err := opts.Validate(); err != nil {
		return g, []diag.Diagnostic{{Severity: diag.SeverityError, Message: err.Error()}}
	}
	diags = append(diags, g.checkImportPaths()...)
	diags = append(diags, checkPackageNames(g.files)...)
	diags = append(diags, g.checkCollisions()...)
	diags = append(diags, g.checkImportCycles()...)
	diags = append(diags, g.checkOutputPaths(files)...)
	diags = append(diags, g.checkServices()...)
	diags = append(diags, CheckJSONNames(files)...)
	if len(diags) == 0 {
		diags = append(diags, g.checkServiceOutputs(files)...)
	}
	return g, diags
}

// CheckJSONNames refuses a field of files whose json_name is not UTF-8,
// an error diagnostic at the field: generated MarshalJSON writes the name
// as a JSON string, which must be UTF-8 (RFC 8259, section 8.1), and
// protojson fails on every message holding such a field. Other json_names
// are escaped where they are written (see protojson.Encoder.Name). The
// payload faces (compiler.Result.Schema) refuse the same fields.
func CheckJSONNames(files []protoreflect.FileDescriptor) []diag.Diagnostic {
	var diags []diag.Diagnostic
	var fields func(fds protoreflect.FieldDescriptors)
	var msgs func(mds protoreflect.MessageDescriptors)
	fields = func(fds protoreflect.FieldDescriptors) {
		for i := 0; i < fds.Len(); i++ {
			if fd := fds.Get(i); !utf8.ValidString(fd.JSONName()) {
				diags = append(diags, diagAt(fd, "field %s: json_name %s is not valid UTF-8, which ProtoJSON cannot write", fd.FullName(), strconv.QuoteToASCII(fd.JSONName())))
			}
		}
	}
	msgs = func(mds protoreflect.MessageDescriptors) {
		for i := 0; i < mds.Len(); i++ {
			fields(mds.Get(i).Fields())
			msgs(mds.Get(i).Messages())
		}
	}
	for _, fd := range files {
		msgs(fd.Messages())
	}
	return diags
}

func (g *generator) nameFile(f *fileNames) {
	var msg func(md protoreflect.MessageDescriptor)
	msg = func(md protoreflect.MessageDescriptor) {
		mn := g.messageNames(f, md)
		g.msgs[md.FullName()] = mn
		for i := 0; i < md.Enums().Len(); i++ {
			ed := md.Enums().Get(i)
			g.enums[ed.FullName()] = g.enumNames(f, mn, ed)
		}
		for i := 0; i < md.Messages().Len(); i++ {
			msg(md.Messages().Get(i))
		}
	}
	for i := 0; i < f.desc.Enums().Len(); i++ {
		ed := f.desc.Enums().Get(i)
		g.enums[ed.FullName()] = g.enumNames(f, nil, ed)
	}
	for i := 0; i < f.desc.Messages().Len(); i++ {
		msg(f.desc.Messages().Get(i))
	}
}

// messageNames is newMessageNames(f, md), from the memo when an earlier
// call named md: the names are a function of md alone, the file is f.
func (g *generator) messageNames(f *fileNames, md protoreflect.MessageDescriptor) *messageNames {
	e := g.memo.entry(md)
	if e != nil && e.msg != nil {
		c := *e.msg
		c.file = f
		return &c
	}
	mn := newMessageNames(f, md)
	if e != nil {
		e.msg = mn
	}
	return mn
}

// enumNames is newEnumNames(f, parent, ed), from the memo when an
// earlier call named ed: the names are a function of ed (and of its
// parent message's, which are of that message alone), the file is f.
func (g *generator) enumNames(f *fileNames, parent *messageNames, ed protoreflect.EnumDescriptor) *enumNames {
	e := g.memo.entry(ed)
	if e != nil && e.enum != nil {
		c := *e.enum
		c.file = f
		return &c
	}
	en := newEnumNames(f, parent, ed)
	if e != nil {
		e.enum = en
	}
	return en
}

// msgType is the Go type of a message, qualified when it lives in another
// package.
func (g *generator) msgType(md protoreflect.MessageDescriptor) *jen.Statement {
	mn := g.msgs[md.FullName()]
	return jen.Qual(mn.file.importPath, mn.goName)
}

func (g *generator) enumType(ed protoreflect.EnumDescriptor) *jen.Statement {
	en := g.enums[ed.FullName()]
	return jen.Qual(en.file.importPath, en.goName)
}

// renderFile prints f's Go file. Each top-level enum and each message (with
// its own enums, but not its nested messages, which follow as pieces of
// their own) is built and gofmt'd on its own, as a piece, and appended to
// the output as soon as it is printed: jennifer's tree and go/format's
// syntax tree only ever hold one piece, so the time and memory this takes
// grow with the output rather than faster (one jennifer Render of the whole
// file took 4.8 GB for 20,000 small messages). The pieces share one
// jen.File for import names, whose header and import block, known once
// every piece is printed, go in front. The bytes are those of one Render of
// the whole file (TestRenderPieces checks it). After each piece, g.check
// (if set) is told the output's size so far, and an error from it stops
// the file.
func (g *generator) renderFile(f *fileNames) (string, error) {
	jf := g.newGoFile(f)
	g.curFile, g.fileJF = f, jf
	if renderWholeFile { // tests only: the reference the pieces must match
		g.eachPiece(f, func(_ protoreflect.Descriptor, _ string, build func(*jen.File)) error { build(jf); return nil })
		var buf bytes.Buffer
		if err := jf.Render(&buf); err != nil {
			return "", err
		}
		b, err := stableDocComments(buf.Bytes())
		return string(b), err
	}
	// The pieces are kept at their exact sizes and joined once at the end:
	// the output is in memory twice at most, never in a buffer grown by
	// doubling.
	var pieces [][]byte
	size := 0
	// Each piece is printed unformatted here, in order (printing registers
	// its imports in jf, which names them in that order), and gofmt'd by
	// the pool beside the printing of the next ones. queue holds the
	// pieces printed and not yet taken, oldest first; a piece is taken
	// (appended, cached, told to g.check) in order, as soon as it and
	// every piece before it are formatted, so that g.check sees the same
	// sizes, one call per piece, as when each piece was formatted at once.
	raw := newRawPrinter(jf)
	if g.shapes == nil {
		g.shapes = newShapeMemo()
	}
	pool := newFormatPool(g.shapes)
	defer pool.stop()
	type queued struct {
		job   *formatJob // nil for a cached piece
		text  []byte     // a cached piece's text
		build func(*jen.File)
		// put: the piece goes in the cache under key, with the imports
		// it added.
		put   bool
		key   pieceKey
		added []importDef
	}
	var queue []queued
	maxQueue := 4 * runtime.GOMAXPROCS(0)
	take := func(wait bool) error {
		for len(queue) > 0 {
			q := queue[0]
			p := q.text
			if q.job != nil {
				if !wait && len(queue) <= maxQueue {
					select {
					case <-q.job.done:
					default:
						return nil
					}
				}
				<-q.job.done
				if q.job.err != nil {
					return g.pieceFailure(f, q.build, q.job.err)
				}
				p = q.job.out
			}
			queue[0] = queued{}
			queue = queue[1:]
			if q.put {
				g.cache.put(q.key, &cachedPiece{text: p, imports: q.added}, g.cacheSet)
			}
			if len(p) > 0 {
				pieces = append(pieces, p)
				size += len(p) + 2 // a blank line before, a newline after
			}
			if g.check != nil {
				if err := g.check(g.written + size); err != nil {
					return err
				}
			}
		}
		return nil
	}
	// With a cache: jf's registered imports and their text, the state a
	// piece's key includes. The imports of cached pieces are registered
	// in jf (replayed) only when jf is next used, all in one render
	// (replaying piece by piece ran go/format once per piece): imps and
	// state already count them, pending holds them until then.
	var imps map[string]string
	var state string
	var pending []importDef
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		err := g.replayImports(f, jf, pending)
		pending = nil
		return err
	}
	if g.cache != nil {
		imps = fileImports(jf)
		state = importState(imps)
	}
	err := g.eachPiece(f, func(d protoreflect.Descriptor, text string, build func(*jen.File)) error {
		var key pieceKey
		if g.cache != nil {
			if d != nil {
				key = g.keys.pieceKey(f, d, state)
			} else {
				key = g.keys.textKey(f, text, state)
			}
			if c := g.cache.get(key, g.cacheSet); c != nil {
				if len(c.imports) > 0 {
					// The key held the import state, so these paths
					// are new to jf, as when the piece was printed.
					pending = append(pending, c.imports...)
					for _, d := range c.imports {
						imps[d.path] = d.name
					}
					state = importState(imps)
				}
				queue = append(queue, queued{text: c.text})
				return take(false)
			}
		}
		if err := flush(); err != nil {
			return err
		}
		pf := jen.NewFilePathName(f.importPath, f.pkgName)
		texts := &textSegments{}
		g.pieceText = texts
		build(pf)
		g.pieceText = nil
		// Qualified names register their imports in jf.
		var src []byte
		var ins []textInsert
		if len(texts.texts) == 0 {
			b, err := raw.print(pf)
			if err != nil {
				return g.pieceFailure(f, build, err)
			}
			src = b
			if !pool.inline() {
				src = bytes.Clone(src) // raw's buffer is reused
			}
		} else {
			// The code between texts, printed in one render with a mark
			// where each text goes (see emitText), the marks cut out.
			last := pf.Group
			all := emptyGroup
			for _, grp := range texts.groups {
				all.Add(grp)
				all.Add(jen.Comment(textMark))
			}
			all.Add(last)
			pf.Group = &all
			b, err := raw.print(pf)
			pf.Group = last
			if err != nil {
				return g.pieceFailure(f, build, err)
			}
			ins = make([]textInsert, len(texts.texts))
			src = make([]byte, 0, len(b)+len(texts.texts))
			for i := range ins {
				k := bytes.Index(b, []byte(textMark))
				if k < 0 {
					return g.pieceFailure(f, build, errors.New("gogen: a direct text's mark is missing"))
				}
				src = append(src, b[:k]...)
				ins[i] = textInsert{off: len(src), text: texts.texts[i]}
				src = append(src, '\n')
				b = b[k+len(textMark):]
			}
			src = append(src, b...)
		}
		q := queued{job: pool.submit(src, ins), build: build}
		if g.cache != nil {
			q.put, q.key = true, key
			if importsValue(jf).Len() != len(imps) {
				now := fileImports(jf)
				for path, name := range now {
					if _, ok := imps[path]; !ok {
						q.added = append(q.added, importDef{path, name})
					}
				}
				sort.Slice(q.added, func(i, j int) bool { return q.added[i].path < q.added[j].path })
				imps, state = now, importState(now)
			}
		}
		queue = append(queue, q)
		return take(false)
	})
	if err == nil {
		err = take(true)
	}
	if err == nil {
		err = flush()
	}
	if err != nil {
		return "", err
	}
	var head bytes.Buffer
	if err := jf.Render(&head); err != nil {
		return "", err
	}
	var out strings.Builder
	out.Grow(head.Len() + size)
	out.Write(head.Bytes())
	for i, p := range pieces {
		out.WriteByte('\n')
		out.Write(p)
		out.WriteByte('\n')
		pieces[i] = nil // collectable once copied
	}
	return out.String(), nil
}

// pieceFailure describes, briefly (see formatFailure), why a piece of f's
// Go code did not render: jennifer's own error holds the whole unformatted
// piece, so the piece is printed again without formatting and handed to
// go/format here, for the first error and the lines around it.
func (g *generator) pieceFailure(f *fileNames, build func(*jen.File), renderErr error) error {
	pf := jen.NewFilePathName(f.importPath, f.pkgName)
	build(pf)
	pf.NoFormat = true
	var raw bytes.Buffer
	if err := pf.Render(&raw); err != nil {
		return err
	}
	if _, err := format.Source(raw.Bytes()); err != nil {
		return formatFailure(err, raw.Bytes())
	}
	first, _, _ := strings.Cut(renderErr.Error(), "\n")
	return errors.New(first)
}

// versionsComment is the header's record of the generator that wrote a
// file, one comment line each, as protoc-gen-go writes "// versions:" and
// "// \tprotoc-gen-go vX.Y.Z": protoplay's version (internal/version: the
// released version the binary was built as, else the source tree's).
func versionsComment() []string {
	return []string{"versions:", "\tprotoplay " + generatorVersion()}
}

// generatorVersion reads the build information once.
var generatorVersion = sync.OnceValue(version.String)

// renderWholeFile makes renderFile print the file in one jennifer Render,
// as TestRenderPieces's reference.
var renderWholeFile = false

// newGoFile starts f's Go file: its header comments and the names of the
// packages it may import.
func (g *generator) newGoFile(f *fileNames) *jen.File {
	jf := jen.NewFilePathName(f.importPath, f.pkgName)
	jf.HeaderComment("Code generated by protoc-gen-protoplay. DO NOT EDIT.")
	for _, line := range versionsComment() {
		jf.HeaderComment(line)
	}
	// Above the package clause, go vet reads any comment holding "+build"
	// as a (malformed) build constraint.
	jf.HeaderComment("source: " + strings.ReplaceAll(safeText(f.desc.Path()), "+build", "+ build"))
	if !g.has(FeaturesAll) {
		jf.HeaderComment("features: " + g.opts.Features.String() + " (the method families generated; see the features= option)")
	}
	if g.fileIsHybrid(f.desc) {
		if g.protoopaque {
			jf.PackageComment("//go:build protoopaque")
		} else {
			jf.PackageComment("//go:build !protoopaque")
		}
	}
	// Import names, as the naming pass decided them; jennifer prints the
	// imports the code uses.
	g.impNames = map[string]string{}
	for _, imp := range g.importNames(f) {
		g.impNames[imp.path] = imp.name
		if imp.name == imp.declared {
			jf.ImportName(imp.path, imp.name)
		} else {
			jf.ImportAlias(imp.path, imp.name)
		}
	}
	return jf
}

// eachPiece calls piece with a function building each piece of f's Go code
// in order: the forwards of its public imports, every top-level enum,
// every message in declaration order (depth first, a message before its
// nested ones), then the notes on
// extensions and services. d is the enum or message a piece prints (nil
// for the file's resolver and notes); for those, key is the text they are
// printed from (besides f's names, the options and the file's imports),
// which their cache key digests. It stops at the first error piece
// returns.
func (g *generator) eachPiece(f *fileNames, piece func(d protoreflect.Descriptor, key string, build func(*jen.File)) error) error {
	if len(f.public) > 0 {
		pub := f.public
		if err := piece(nil, forwardsKey(pub), func(jf *jen.File) { genForwards(jf, pub) }); err != nil {
			return err
		}
	}
	for i := 0; i < f.desc.Enums().Len(); i++ {
		ed := f.desc.Enums().Get(i)
		if err := piece(ed, "", func(jf *jen.File) { g.genEnum(jf, ed) }); err != nil {
			return err
		}
	}
	var msg func(md protoreflect.MessageDescriptor) error
	msg = func(md protoreflect.MessageDescriptor) error {
		if err := piece(md, "", func(jf *jen.File) { g.genMessage(jf, md) }); err != nil {
			return err
		}
		for i := 0; i < md.Messages().Len(); i++ {
			if err := msg(md.Messages().Get(i)); err != nil {
				return err
			}
		}
		return nil
	}
	for i := 0; i < f.desc.Messages().Len(); i++ {
		if err := msg(f.desc.Messages().Get(i)); err != nil {
			return err
		}
	}
	// The resolver makes protojson.Messages: ProtoJSON's (and so the text
	// format's) type. Extension variables make and read messages with
	// the binary codec.
	if g.has(FeatureJSON) {
		rp := g.resolverPlan(f)
		if err := piece(nil, rp.key(), func(jf *jen.File) { rp.gen(jf, f) }); err != nil {
			return err
		}
	}
	if xs := g.fileExtensions(f.desc); len(xs) > 0 && g.has(FeatureMarshal|FeatureUnmarshal|FeatureSize) {
		if err := piece(nil, g.extensionsKey(f, xs), func(jf *jen.File) { g.genExtensions(jf, f, xs) }); err != nil {
			return err
		}
	}
	var notes []string
	if svcs := f.desc.Services(); svcs.Len() > 0 && !g.servicesOn() {
		var names []string
		for i := 0; i < svcs.Len(); i++ {
			names = append(names, string(svcs.Get(i).Name()))
		}
		notes = append(notes, "// Services ("+strings.Join(names, ", ")+") produce code with the option services=grpc, services=connect or services=grpc+connect.")
	}
	return piece(nil, "notes\x00"+strings.Join(notes, "\x00"), func(jf *jen.File) {
		for _, n := range notes {
			jf.Comment(n)
		}
	})
}

// formatFailure describes a gofmt error in generated source briefly: the
// first error with its line:column in the generated file, how many more
// there are, and at most three lines of the source around it, each cut to
// 120 bytes and made printable. It never holds the whole file.
func formatFailure(err error, src []byte) error {
	var list scanner.ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		return err
	}
	first := list[0]
	var b strings.Builder
	fmt.Fprintf(&b, "line %d, column %d of the generated code: %s", first.Pos.Line, first.Pos.Column, first.Msg)
	if len(list) > 1 {
		fmt.Fprintf(&b, " (and %d more errors)", len(list)-1)
	}
	lines := strings.Split(string(src), "\n")
	for n := first.Pos.Line - 1; n <= first.Pos.Line+1; n++ {
		if n < 1 || n > len(lines) {
			continue
		}
		line := lines[n-1]
		if len(line) > 120 {
			line = line[:120] + "..."
		}
		fmt.Fprintf(&b, "\n\t%d| %s", n, strconv.QuoteToGraphic(line))
	}
	return errors.New(b.String())
}

// commentLines turns a proto comment into Go line comments. Each line is
// handed to jennifer already prefixed with "//", which jennifer prints
// verbatim: a comment holding "*/" or starting with "/*" can then never end
// or open a block comment, and a line never spans two lines. Each line is
// made safe by commentText.
func commentLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if strings.TrimSpace(s) == "" {
		return nil
	}
	var out []string
	for _, line := range strings.Split(s, "\n") {
		line = commentText(strings.TrimRight(line, "\r"))
		if line == "" {
			out = append(out, "//")
			continue
		}
		out = append(out, "//"+line)
	}
	return out
}

// commentText makes one line of a schema comment safe to print after "//"
// in Go source: safeText, and then a line that would read as a directive
// (//go:generate, //line, //export, //extern, any //word:word) gets a space
// after the "//", and a "+build" line gets a backslash before the "+", so
// that no schema comment runs a command, moves line numbers or makes go vet
// complain.
func commentText(s string) string {
	if isPlainComment(s) {
		return s
	}
	s = safeText(s)
	if isDirective(s) {
		return " " + s
	}
	if t := strings.TrimLeft(s, " \t"); strings.HasPrefix(t, "+build") {
		return s[:len(s)-len(t)] + "\\" + t
	}
	return s
}

// safeText makes schema text (a comment line, a file path) printable inside
// a Go comment. A .proto comment or file name may hold any bytes; Go source
// must be UTF-8 and holds no NUL or byte order mark (The Go Programming
// Language Specification, "Source code representation"). So bytes that are
// not UTF-8 become U+FFFD, as do NUL and the other control characters (C0,
// DEL, C1) and U+FEFF; tab stays; CR, vertical tab, form feed, NEL and the
// line and paragraph separators U+2028 and U+2029 become a space.
func safeText(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '\t':
		case r == '\r', r == '\v', r == '\f', r == '\u0085', r == '\u2028', r == '\u2029':
			r = ' '
		case r < 0x20, r == 0x7f, 0x80 <= r && r < 0xa0, r == '\ufeff':
			r = utf8.RuneError
		}
		b.WriteRune(r) // an invalid byte decodes as utf8.RuneError, U+FFFD
	}
	return b.String()
}

// isPlainComment reports whether s is printable ASCII (or tabs) that
// commentText leaves as it is: the common case, checked without copying.
func isPlainComment(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\t') || c >= 0x7f {
			return false
		}
	}
	return !isDirective(s) && !strings.HasPrefix(strings.TrimLeft(s, " \t"), "+build")
}

// isDirective reports whether "//"+c is a Go directive comment, by the rule
// of go/ast (CommentGroup.Text): "line ", "extern " and "export " prefixes,
// and "[a-z0-9]+:[a-z0-9]" as in //go:generate or //lint:ignore.
func isDirective(c string) bool {
	if strings.HasPrefix(c, "line ") || strings.HasPrefix(c, "extern ") || strings.HasPrefix(c, "export ") {
		return true
	}
	colon := strings.Index(c, ":")
	if colon <= 0 || colon+1 >= len(c) {
		return false
	}
	for i := 0; i <= colon+1; i++ {
		if i == colon {
			continue
		}
		if b := c[i]; !('a' <= b && b <= 'z' || '0' <= b && b <= '9') {
			return false
		}
	}
	return true
}

// docComments returns the leading (and, when trailing is set, trailing)
// comments of d, with a "Deprecated:" paragraph when deprecated is set.
func docComments(d protoreflect.Descriptor, trailing bool, deprecated bool) []jen.Code {
	loc := d.ParentFile().SourceLocations().ByDescriptor(d)
	lines := commentLines(loc.LeadingComments)
	if trailing {
		if t := commentLines(loc.TrailingComments); len(t) > 0 {
			if len(lines) > 0 {
				lines = append(lines, "//")
			}
			lines = append(lines, t...)
		}
	}
	if deprecated {
		if len(lines) > 0 {
			lines = append(lines, "//")
		}
		lines = append(lines, "// Deprecated: Marked as deprecated in "+safeText(d.ParentFile().Path())+".")
	}
	out := make([]jen.Code, len(lines))
	for i, l := range lines {
		out[i] = jen.Comment(l)
	}
	return out
}

func isDeprecated(d protoreflect.Descriptor) bool {
	type dep interface{ GetDeprecated() bool }
	if o, ok := d.Options().(dep); ok {
		return o.GetDeprecated()
	}
	return false
}

// tagBytes is the varint encoding of a field's tag.
func tagBytes(num protoreflect.FieldNumber, typ wire.Type) []byte {
	return wire.AppendTag(nil, int32(num), typ)
}

func hexByte(b byte) *jen.Statement { return jen.Id(fmt.Sprintf("0x%x", b)) }
