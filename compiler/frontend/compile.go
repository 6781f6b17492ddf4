package frontend

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unicode/utf8"

	"github.com/bufbuild/protocompile/experimental/fdp"
	"github.com/bufbuild/protocompile/experimental/incremental"
	"github.com/bufbuild/protocompile/experimental/incremental/queries"
	"github.com/bufbuild/protocompile/experimental/ir"
	"github.com/bufbuild/protocompile/experimental/report"
	"github.com/bufbuild/protocompile/experimental/source"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/protoplay/protoplay/compiler/diag"
	"github.com/protoplay/protoplay/internal/parallel"
)

// Compile parses and links the requested files with protocompile's
// experimental compiler (github.com/bufbuild/protocompile/experimental: the
// compiler buf builds images with, editions up to 2024), then builds
// protobuf-go descriptors of them (see linkFiles). It never panics: a
// panic inside the compiler or a check is returned as an error diagnostic
// saying "internal error". A limit of req.Limits that is hit, a cancelled
// ctx or one past its deadline stop the compilation with an error
// diagnostic (with Limit set, for limits and the deadline): the deadline
// and MaxMemoryBytes are checked before compiling, as each file is opened,
// between the passes over the compiled descriptors, before each file is
// linked and after linking; MaxSourceBytes and MaxNesting as each file is
// opened.
//
// Every diagnostic of the compile is returned, errors and warnings of
// every file, with the compiler's other spans, notes, help and suggested
// edits, in a deterministic order (file, line, column, then message).
//
// A group (a delimited message field) named by its message type's name
// in an option value (`G { ... }`, as protoc has always accepted it) is
// compiled as protoc compiles it; see groupNames.
func Compile(ctx context.Context, req Request) *Result {
	var texts map[string]string
	res := compileOnce(ctx, req, func(served map[string]string, ds []diag.Diagnostic) { texts = groupNameTexts(served, ds) })
	return retryGroupNames(ctx, req, res, texts)
}

// compileOnce is Compile without the group-name retry. It calls served
// with the texts of the files it opened and the compiler's diagnostics
// once the compiler has reported.
func compileOnce(ctx context.Context, req Request, served func(map[string]string, []diag.Diagnostic)) (res *Result) {
	res = &Result{}
	defer func() {
		res.Diagnostics = Tidy(res.Diagnostics)
	}()
	defer Recover(&res.Diagnostics, func() { res.Files = nil })

	files := append([]string(nil), req.Files...) // cleaned below; the caller's slice stays as given
	if len(files) == 0 {
		for name := range req.Sources {
			files = append(files, name)
		}
		sort.Strings(files)
	}
	if len(files) == 0 {
		res.Diagnostics = append(res.Diagnostics, diag.Errorf("no input files"))
		return res
	}
	if maxFiles := Limit(req.Limits.MaxFiles, MaxFiles); len(files) > maxFiles {
		d := diag.Errorf("%d input files exceed the limit of %d (MaxFiles)", len(files), maxFiles)
		d.Limit = diag.LimitFiles
		res.Diagnostics = append(res.Diagnostics, d)
		return res
	}
	if err := StopCheck(ctx, req.Limits.MaxMemoryBytes); err != nil {
		res.Diagnostics = append(res.Diagnostics, diagnosticOfError(err))
		return res
	}
	for i, f := range files {
		files[i] = path.Clean(strings.ReplaceAll(f, "\\", "/"))
	}
	files = dedup(files)

	s := req.Cache.session(&req)
	if s.cache != nil {
		s.cache.mu.Lock()
		defer s.cache.mu.Unlock()
	}
	// A panic leaves the session in an unknown state: start afresh.
	defer func() {
		if p := recover(); p != nil {
			s.reset()
			panic(p)
		}
	}()
	s.op.begin(ctx, &req)
	defer s.op.end()
	s.evictChanged()
	if s.cache != nil && s.cache.prune {
		defer s.forgetSources()
	}

	results, rep, err := incremental.Run(ctx, s.exec, queries.FDS{
		Opener:    s.op,
		Session:   s.session,
		Workspace: source.NewWorkspace(files...),
		Options:   fdsOptions,
	})
	if serr := StopCheck(ctx, req.Limits.MaxMemoryBytes); serr != nil && (err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		res.Diagnostics = append(res.Diagnostics, diagnosticOfError(serr))
		s.reset()
		return res
	}
	if err != nil {
		res.Diagnostics = append(res.Diagnostics, diagnosticOfError(err))
		s.reset()
		return res
	}
	res.Diagnostics = append(res.Diagnostics, dropMessageSetOptionErrors(s.op.diagnostics(rep))...)
	if served != nil {
		served(s.op.served, res.Diagnostics)
	}
	if res.HasErrors() {
		return res
	}
	if len(results) != 1 || results[0].Fatal != nil {
		if len(results) == 1 {
			res.Diagnostics = append(res.Diagnostics, diagnosticOfError(results[0].Fatal))
		}
		if !res.HasErrors() {
			res.Diagnostics = append(res.Diagnostics, diag.Errorf("internal error: the compiler returned no descriptors and no error"))
		}
		return res
	}
	// An encode/decode round trip: the compiler keeps option values as
	// unknown bytes, and decoding them turns the standard options into
	// fields (map_entry, packed, features, ...). It also leaves the
	// compiler's memoized descriptors as they are.
	// Each step below is a pass over every descriptor of the compile,
	// source info included (a file of 12,000 messages: tenths of a second
	// of CPU natively, seconds under GOOS=js), so the deadline is checked
	// between them (stop) and between files (linkFiles). The session's
	// queries are complete by now: it is kept, and a compile tried again
	// starts from here.
	stop := func() bool {
		if err := StopCheck(ctx, req.Limits.MaxMemoryBytes); err != nil {
			res.Diagnostics = append(res.Diagnostics, diagnosticOfError(err))
			return true
		}
		return false
	}
	set, err := roundTrip(results[0].Value)
	if err != nil {
		res.Diagnostics = append(res.Diagnostics, diag.Errorf("internal error: %v", err))
		return res
	}
	if stop() {
		return res
	}
	messageSetOptions(set)
	if ds := linkCheck(set); len(ds) > 0 {
		res.Diagnostics = append(res.Diagnostics, ds...)
		return res
	}
	if stop() {
		return res
	}
	linked, ds := s.linkFiles(set, files, stop)
	res.Diagnostics = append(res.Diagnostics, ds...)
	if res.HasErrors() || stop() {
		return res
	}
	res.Files = linked
	return res
}

// roundTrip returns a copy of in made by encoding and decoding each
// file, on GOMAXPROCS goroutines (a file's bytes are the same in the set's
// encoding and alone, so this is the set's round trip).
func roundTrip(in *descriptorpb.FileDescriptorSet) (*descriptorpb.FileDescriptorSet, error) {
	out := &descriptorpb.FileDescriptorSet{File: make([]*descriptorpb.FileDescriptorProto, len(in.File))}
	errs := make([]error, len(in.File))
	parallel.For(len(in.File), func(_, i int) {
		data, err := proto.Marshal(in.File[i])
		if err != nil {
			errs[i] = fmt.Errorf("encoding the descriptor of %s: %v", in.File[i].GetName(), err)
			return
		}
		f := new(descriptorpb.FileDescriptorProto)
		if err := proto.Unmarshal(data, f); err != nil {
			errs[i] = fmt.Errorf("decoding the descriptor of %s: %v", in.File[i].GetName(), err)
			return
		}
		out.File[i] = f
	})
	return out, errors.Join(errs...)
}

// fdsOptions asks the compiler for source info (comments and spans), as
// protoc's --include_source_info gives it.
var fdsOptions = func() fdp.Options {
	var o fdp.Options
	o.Apply(fdp.IncludeSourceCodeInfo(true))
	return o
}()

func dedup(files []string) []string {
	seen := make(map[string]bool, len(files))
	out := files[:0]
	for _, f := range files {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// A LinkCache keeps one compiler session between compiles that share it
// (an editor session: compiler.Workspace): protocompile's incremental
// executor memoizes each file's parse and lowering, and a compile
// recomputes only the files whose text changed and those that import them
// (the changed files' queries are evicted before it runs). The linked
// protobuf-go descriptors are kept too, and reused for a file whose
// descriptor and imports did not change. A LinkCache is safe for
// concurrent use (compiles sharing it run one at a time); the zero value
// is ready.
type LinkCache struct {
	mu    sync.Mutex
	s     *compileSession
	prune bool // forget the request's files after each compile
	// Hits and Misses count, over the cache's life, the request's source
	// files whose descriptor a compile reused (its text, or at least its
	// descriptor, and its imports unchanged) and those it linked again
	// (for tests and measurements).
	Hits, Misses int
}

// compileSession is one executor, opener and IR session, with the
// descriptors linked from them.
type compileSession struct {
	cache   *LinkCache // nil: a session of one compile
	exec    *incremental.Executor
	session *ir.Session
	op      *opener
	linked  map[string]*linkedFile // by path: the descriptors of the last compile
}

type linkedFile struct {
	data  []byte // the FileDescriptorProto's encoding
	fd    protoreflect.FileDescriptor
	once  sync.Once
	names map[protoreflect.FullName]protoreflect.Descriptor
}

func newSession(c *LinkCache) *compileSession {
	s := &compileSession{cache: c, linked: map[string]*linkedFile{}}
	s.reset()
	return s
}

// reset drops everything memoized: after a compile that stopped midway
// (a limit, the deadline), whose queries may be incomplete.
func (s *compileSession) reset() {
	s.exec = incremental.New(incremental.WithParallelism(queryParallelism()))
	s.session = new(ir.Session)
	s.op = &opener{served: map[string]string{}, std: map[string]bool{}}
	s.linked = map[string]*linkedFile{}
}

// queryParallelism is how many of the compiler's queries (a file's
// parse, its lowering, ...) run at once: one per processor (GOMAXPROCS),
// so that on a machine with two or more the independent files of a
// compile (googleapis' 122 files and their imports) are parsed and
// lowered side by side; GOOS=js has one. The result does not depend on
// it: each query's value is its inputs' function, the opener (the only
// state queries share here) takes a lock, and the diagnostics are
// sorted (Tidy). TestParallelQueriesSameResult compares a compile under
// several processors with one under one.
func queryParallelism() int64 {
	return int64(max(runtime.GOMAXPROCS(0), 1))
}

// defaultCache serves the compiles that name no LinkCache: the standard
// files (descriptor.proto above all, which every compile needs) are then
// parsed and lowered once per process. After each compile it forgets the
// request's own files (prune), so that it holds little more than the
// standard files between compiles.
var defaultCache = LinkCache{prune: true}

// session returns the cache's session (defaultCache's when c is nil), or
// a new one for this compile only when req sets input limits (a cached
// file was read under the default ones).
func (c *LinkCache) session(req *Request) *compileSession {
	if req.Limits.MaxSourceBytes != 0 || req.Limits.MaxNesting != 0 {
		return newSession(nil)
	}
	if c == nil {
		c = &defaultCache
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.s == nil {
		c.s = newSession(c)
	}
	return c.s
}

// evictChanged evicts the queries of every file the opener served in an
// earlier compile whose text the request now gives differently (or not at
// all), with every query that depends on them.
func (s *compileSession) evictChanged() {
	var keys []any
	for p, old := range s.op.served {
		text, err := s.op.lookup(p)
		if err == nil && text == old {
			continue
		}
		delete(s.op.served, p)
		delete(s.op.std, p)
		keys = append(keys,
			queries.File{Opener: s.op, Path: p, ReportError: false}.Key(),
			queries.File{Opener: s.op, Path: p, ReportError: true}.Key())
	}
	// Files that could not be opened (missing, over a limit): opened
	// again, as the request may hold them now.
	for p := range s.op.failed {
		keys = append(keys,
			queries.File{Opener: s.op, Path: p, ReportError: false}.Key(),
			queries.File{Opener: s.op, Path: p, ReportError: true}.Key())
	}
	s.op.failed = nil
	if len(keys) > 0 {
		s.exec.Evict(keys...)
	}
}

// forgetSources evicts every file the session holds but the standard
// files (as the standard set gives them), with the queries that depend
// on them, and drops their descriptors.
func (s *compileSession) forgetSources() {
	var keys []any
	for p := range s.op.served {
		if s.op.std[p] {
			continue
		}
		delete(s.op.served, p)
		delete(s.op.files, p)
		delete(s.linked, p)
		keys = append(keys,
			queries.File{Opener: s.op, Path: p, ReportError: false}.Key(),
			queries.File{Opener: s.op, Path: p, ReportError: true}.Key())
	}
	for p := range s.op.failed {
		keys = append(keys,
			queries.File{Opener: s.op, Path: p, ReportError: false}.Key(),
			queries.File{Opener: s.op, Path: p, ReportError: true}.Key())
	}
	s.op.failed = nil
	if len(keys) > 0 {
		s.exec.Evict(keys...)
	}
}

// opener is the compiler's source.Opener: the request's Sources, then its
// FS under each import path, then the standard files. It applies the input
// limits to each file it opens. Its pointer is the queries' key, so one
// opener serves every compile of a session, pointed at each compile's
// request in turn (begin).
type opener struct {
	// mu guards the maps below while the compiler's queries run (Open
	// is called from several goroutines; see queryParallelism).
	mu  sync.Mutex
	ctx context.Context
	req *Request
	// served holds the text of each file opened, by path: a later compile
	// compares it with its request's (evictChanged).
	served map[string]string
	// std holds the paths served as standard files (standardSource):
	// they link as the embedded descriptors (standardLinked).
	std map[string]bool
	// failed holds the paths that could not be opened.
	failed map[string]bool
	// files are the texts opened, for positions in diagnostics.
	files map[string]*source.File
	// limits are the positioned diagnostics of the limits files broke, by
	// path and the message of the error Open returned for them.
	limits map[string]diag.Diagnostic
	// declCache and suggested are suggestType's, for one compile:
	// declarations scanned by path, and how many suggestions were made.
	declCache map[string]cachedDecls
	suggested int
}

func (o *opener) begin(ctx context.Context, req *Request) {
	o.ctx, o.req = ctx, req
	o.limits = map[string]diag.Diagnostic{}
	o.declCache, o.suggested = nil, 0
	if o.files == nil {
		o.files = map[string]*source.File{}
	}
}

func (o *opener) end() { o.ctx, o.req = nil, nil }

// limitOpenError is the error Open returns for a file that breaks a
// limit; its diagnostic is in opener.limits.
type limitOpenError struct{ msg string }

func (e *limitOpenError) Error() string { return e.msg }

// Open implements source.Opener.
func (o *opener) Open(name string) (*source.File, error) {
	if o.ctx != nil {
		if err := StopCheck(o.ctx, o.req.Limits.MaxMemoryBytes); err != nil {
			return nil, err
		}
	}
	text, err := o.find(name)
	std := false
	if errors.Is(err, fs.ErrNotExist) {
		if t, ok := standardSource(name); ok {
			text, err, std = t, nil, true
		}
	}
	var shapeDiag diag.Diagnostic
	misshapen := false
	if err == nil && !std {
		if d, ok := checkShape(name, text, Limit(o.req.Limits.MaxNesting, MaxNesting)); !ok {
			shapeDiag, misshapen = d, true
			err = &limitOpenError{d.Message}
		}
	}
	f := (*source.File)(nil)
	if err == nil {
		f = source.NewFile(name, validComments(text))
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if misshapen {
		o.limits[name+"\x00"+shapeDiag.Message] = shapeDiag
	}
	if err != nil {
		if o.failed == nil {
			o.failed = map[string]bool{}
		}
		o.failed[name] = true
		var le *diag.Error
		if errors.As(err, &le) && le.Kind == diag.KindLimit {
			d := diagnosticOfError(err)
			d.File = name
			o.limits[name+"\x00"+le.Message] = d
			return nil, &limitOpenError{le.Message}
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fs.ErrNotExist
		}
		return nil, err
	}
	o.served[name] = text
	if std {
		o.std[name] = true
	} else {
		delete(o.std, name)
	}
	o.files[name] = f
	return f, nil
}

// lookup returns the text of the file called name: from Sources or FS
// (checked against MaxSourceBytes), else a standard file's.
func (o *opener) lookup(name string) (string, error) {
	text, err := o.find(name)
	if errors.Is(err, fs.ErrNotExist) {
		if t, ok := standardSource(name); ok {
			return t, nil
		}
	}
	return text, err
}

// find returns the text of the file called name, from Sources or FS,
// checked against MaxSourceBytes.
func (o *opener) find(name string) (string, error) {
	req := o.req
	maxBytes := Limit(req.Limits.MaxSourceBytes, MaxSourceBytes)
	tooBig := func(size string) error {
		return limitError(diag.LimitSourceBytes, fmt.Sprintf("file is %s bytes, over the limit of %d (MaxSourceBytes)", size, maxBytes))
	}
	if src, ok := req.Sources[name]; ok {
		if len(src) > maxBytes {
			return "", tooBig(strconv.Itoa(len(src)))
		}
		return src, nil
	}
	if req.FS != nil {
		roots := req.ImportPaths
		if len(roots) == 0 {
			roots = []string{"."}
		}
		for _, root := range roots {
			p := path.Join(root, name)
			f, err := req.FS.Open(p)
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
				// A root that is a file (-I a.proto) holds nothing.
				continue
			}
			if err != nil {
				return "", &fileError{name, err}
			}
			data, err := io.ReadAll(io.LimitReader(f, int64(maxBytes)+1))
			f.Close()
			if err != nil {
				return "", &fileError{name, err}
			}
			if len(data) > maxBytes {
				return "", tooBig("more than " + strconv.Itoa(maxBytes))
			}
			return string(data), nil
		}
	}
	return "", fs.ErrNotExist
}

// hasImportPublic reports whether text, a .proto file, holds an `import
// public` declaration (or these words in a comment or string, which is
// taken as one). A scan, not a regexp: the core does not link regexp.
func hasImportPublic(text string) bool {
	word := func(b byte) bool {
		return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
	}
	for i := 0; ; {
		j := strings.Index(text[i:], "import")
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len("import")
		i = end
		if start > 0 && word(text[start-1]) {
			continue
		}
		rest := strings.TrimLeft(text[end:], " \t\r\n")
		if len(rest) < len(text[end:]) && strings.HasPrefix(rest, "public") && (len(rest) == len("public") || !word(rest[len("public")])) {
			return true
		}
	}
}

// reExports reports whether message is the compiler's "unused import"
// warning for a file that imports files publicly. The compiler misses the
// use of a name such a file re-exports when the name is also reached
// through another import of the file (one that imports the re-exporting
// file itself), and the warning's fix (delete it) then breaks the file;
// protoc warns of none. These warnings are dropped, so an import public
// file that is indeed unused is not warned about.
func (o *opener) reExports(message string) bool {
	rest, ok := strings.CutPrefix(message, "unused import ")
	if !ok {
		return false
	}
	path, err := strconv.Unquote(rest)
	if err != nil {
		return false
	}
	text, ok := o.textOf(path)
	return ok && hasImportPublic(text)
}

// diagnostics converts the compiler's report: each diagnostic's primary
// span becomes its position, its other spans Spans, its edits Fixes.
func (o *opener) diagnostics(rep *report.Report) []diag.Diagnostic {
	if rep == nil {
		return nil
	}
	var out []diag.Diagnostic
	for _, r := range reportDiagnostics(rep) {
		var d diag.Diagnostic
		switch r.level {
		case report.ICE:
			d.Severity, r.message = diag.SeverityError, "internal error in the compiler: "+r.message
		case report.Error:
			d.Severity = diag.SeverityError
		case report.Warning:
			d.Severity = diag.SeverityWarning
		default:
			continue // remarks and debugging output
		}
		if r.level == report.Warning && o.reExports(r.message) {
			continue
		}
		d.Message = r.message
		d.File = r.inFile
		d.Notes, d.Help = r.notes, r.help
		for i, a := range r.annotations {
			f := o.files[a.path]
			if f == nil {
				f = source.NewFile(a.path, "")
			}
			sl, sc := lineCol(f, a.start)
			el, ec := lineCol(f, a.end)
			if i == 0 {
				d.File, d.Line, d.Column = a.path, sl, sc
				if el != sl || ec != sc {
					d.EndLine, d.EndColumn = el, ec
				}
			}
			if len(a.edits) > 0 {
				fix := diag.Fix{Title: a.message}
				if fix.Title == "" {
					fix.Title = "apply the suggested edit"
				}
				for _, e := range a.edits {
					start, end := a.start+e.start, a.start+e.end
					l, c := lineCol(f, start)
					l2, c2 := lineCol(f, end)
					fix.Edits = append(fix.Edits, diag.Edit{File: a.path, Line: l, Column: c, EndLine: l2, EndColumn: c2,
						Offset: start, EndOffset: end, Text: e.replace})
				}
				d.Fixes = append(d.Fixes, fix)
				continue
			}
			if i > 0 {
				d.Spans = append(d.Spans, diag.Span{File: a.path, Line: sl, Column: sc, EndLine: el, EndColumn: ec, Message: a.message})
			}
		}
		if r.message == "imported file does not exist" || r.message == "file does not exist" {
			o.explainMissing(&d, r)
		}
		o.suggestType(&d, r)
		// A file that broke a limit: the limit's own diagnostic, with
		// its position and name.
		if ld, ok := o.limits[r.inFile+"\x00"+r.message]; ok && d.Line == 0 {
			d = ld
		}
		// A standard file's path as the compiler names it.
		d.File = strings.TrimPrefix(d.File, "<built-in>/")
		out = append(out, d)
	}
	return out
}

// explainMissing says which file the compiler did not find, and where it
// looked: protocompile's "imported file does not exist" names neither,
// its span covering the import statement (import "b/c.proto";), and a
// file named on the command line comes as "file does not exist".
func (o *opener) explainMissing(d *diag.Diagnostic, r reportDiagnostic) {
	if len(r.annotations) > 0 {
		a := r.annotations[0]
		if f := o.files[a.path]; f != nil && a.start >= 0 && a.end <= len(f.Text()) && a.start <= a.end {
			stmt := f.Text()[a.start:a.end]
			if i := strings.IndexAny(stmt, `"'`); i >= 0 {
				if j := strings.IndexByte(stmt[i+1:], stmt[i]); j >= 0 {
					if p, err := strconv.Unquote(`"` + stmt[i+1:i+1+j] + `"`); err == nil {
						d.Message = fmt.Sprintf("imported file %q does not exist", p)
					}
				}
			}
		}
	}
	switch {
	case o.req.FS != nil:
		roots := o.req.ImportPaths
		if len(o.req.ImportPathNames) == len(roots) && len(roots) > 0 {
			roots = o.req.ImportPathNames
		}
		if len(roots) == 0 {
			roots = []string{"."}
		}
		d.Notes = append(d.Notes, "searched the import paths "+strings.Join(roots, ", ")+" and the standard google/protobuf/*.proto files")
	default:
		files := "files"
		if len(o.req.Sources) == 1 {
			files = "file"
		}
		d.Notes = append(d.Notes, fmt.Sprintf("searched the %d %s given and the standard google/protobuf/*.proto files", len(o.req.Sources), files))
	}
}

// lineCol returns the 1-based line and byte column of offset in f.
func lineCol(f *source.File, offset int) (int, int) {
	text := f.Text()
	if offset > len(text) {
		offset = len(text)
	}
	if offset < 0 {
		offset = 0
	}
	line := strings.Count(text[:offset], "\n") + 1
	return line, offset - strings.LastIndexByte(text[:offset], '\n')
}

// linkFiles builds protobuf-go descriptors (protodesc) of the compiled
// files, imports first. It
// returns the descriptors of files, in order. A file whose descriptor is
// the same as in the session's last compile, imports included, keeps its
// descriptor.
func (s *compileSession) linkFiles(set *descriptorpb.FileDescriptorSet, files []string, stop func() bool) ([]protoreflect.FileDescriptor, []diag.Diagnostic) {
	linked := map[string]*linkedFile{}
	var ds []diag.Diagnostic
	reused, rebuilt := 0, 0
	for _, f := range set.File {
		if lf := s.standardLinked(f, linked); lf != nil {
			linked[f.GetName()] = lf
			continue
		}
		if stop() {
			return nil, nil
		}
		// The encoding tells a file unchanged since the cache's last
		// compile; without a cache there is none to compare.
		var data []byte
		if s.cache != nil {
			var err error
			if data, err = (proto.MarshalOptions{Deterministic: true}).Marshal(f); err != nil {
				d := diag.Errorf("internal error: encoding the descriptor: %v", err)
				d.File = f.GetName()
				ds = append(ds, d)
				continue
			}
		}
		name := f.GetName()
		if prev := s.linked[name]; prev != nil && string(prev.data) == string(data) && sameImports(prev.fd, linked) {
			linked[name] = prev
			if _, ok := s.op.req.Sources[name]; ok {
				reused++
			}
			continue
		}
		depFailed := false
		for _, dep := range f.GetDependency() {
			depFailed = depFailed || linked[dep] == nil
		}
		if depFailed {
			continue // its import's error is reported
		}
		fd, err := newFileDescriptor(f, linked)
		if err != nil {
			d := diag.Errorf("the compiled descriptor does not link: %v", err)
			d.File = name
			ds = append(ds, d)
			continue
		}
		linked[name] = &linkedFile{data: data, fd: fd}
		if _, ok := s.op.req.Sources[name]; ok {
			rebuilt++
		}
	}
	if len(ds) > 0 {
		return nil, ds
	}
	if s.cache != nil {
		s.cache.Hits += reused
		s.cache.Misses += rebuilt
		s.linked = linked
	}
	out := make([]protoreflect.FileDescriptor, 0, len(files))
	for _, name := range files {
		lf := linked[name]
		if lf == nil {
			d := diag.Errorf("internal error: the compiler returned no descriptor for this file")
			d.File = name
			return nil, append(ds, d)
		}
		out = append(out, lf.fd)
	}
	return out, nil
}

// standardLinked returns the shared descriptor of f (standardLinked) if
// f is a standard file the opener served from the embedded set and its
// imports are linked as their shared descriptors too; else nil.
func (s *compileSession) standardLinked(f *descriptorpb.FileDescriptorProto, linked map[string]*linkedFile) *linkedFile {
	if !s.op.std[f.GetName()] {
		return nil
	}
	for _, dep := range f.GetDependency() {
		if lf := linked[dep]; lf == nil || lf != standardLinked(dep) {
			return nil
		}
	}
	return standardLinked(f.GetName())
}

// sameImports reports whether each import of fd is the descriptor linked
// holds for its path.
func sameImports(fd protoreflect.FileDescriptor, linked map[string]*linkedFile) bool {
	imps := fd.Imports()
	for i := 0; i < imps.Len(); i++ {
		imp := imps.Get(i).FileDescriptor
		lf := linked[imp.Path()]
		if lf == nil || lf.fd != imp {
			return false
		}
	}
	return true
}

// Tidy sorts ds by position (file, line, column, then severity and
// message, so that the order never depends on the compiler's) and drops
// exact repeats.
func Tidy(ds []diag.Diagnostic) []diag.Diagnostic {
	sortDiagnostics(ds)
	seen := make(map[string]bool, len(ds))
	out := ds[:0]
	for _, d := range ds {
		if k := d.Key(); !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	return out
}

func sortDiagnostics(ds []diag.Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		if a.Severity != b.Severity {
			return a.Severity < b.Severity // error before note before warning
		}
		return a.Message < b.Message
	})
}

func diagnosticOfError(err error) diag.Diagnostic {
	d := diag.Errorf("%s", err.Error())
	var fe *fileError
	if errors.As(err, &fe) {
		d.File, d.Message = fe.name, fe.err.Error()
	}
	var pe *incremental.ErrPanic
	if errors.As(err, &pe) {
		d.Message = fmt.Sprintf("internal error in the compiler: %v\n%s", pe.Panic, pe.Backtrace)
	}
	var le *diag.Error
	if errors.As(err, &le) {
		d.Message = le.Message
		d.Limit = le.Limit
	}
	return d
}

type fileError struct {
	name string
	err  error
}

func (e *fileError) Error() string { return e.name + ": " + e.err.Error() }
func (e *fileError) Unwrap() error { return e.err }

// checkShape returns an error diagnostic positioned at the first bracket
// of src ({ [ ( <, outside strings and comments, the lexical rules of
// https://protobuf.dev/reference/protobuf/proto3-spec/) nested deeper
// than max, or at the ; { = , where the sum of their columns passes
// MaxLineScan plus LineScanPerByte per byte of src, and false; or true.
// It reads src once and allocates nothing.
func checkShape(name, src string, max int) (diag.Diagnostic, bool) {
	depth, line, col := 0, 1, 1
	scan, budget := 0, MaxLineScan+LineScanPerByte*len(src)
	scanned := func(col int) bool {
		scan += col - 1
		return scan > budget
	}
	tooLong := func(line, col int) diag.Diagnostic {
		return diag.Diagnostic{File: name, Line: line, Column: col, EndLine: line, EndColumn: col + 1,
			Severity: diag.SeverityError, Limit: diag.LimitLineScan,
			Message: fmt.Sprintf("too many declarations on long lines: the columns of ; { = , add up past %d (MaxLineScan, plus %d per byte of the file), and the compiler reads a line from its start for each position on it; put declarations on lines of their own", budget, LineScanPerByte)}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\n':
			line, col = line+1, 1
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			start := i
			i++
			col++
			for {
				i++
				col++
				if i >= len(src) {
					return diag.Diagnostic{}, true // unterminated: the parser reports it
				}
				if src[i] == '\n' {
					line, col = line+1, 0
				}
				if src[i] == '/' && src[i-1] == '*' && i-1 > start+1 {
					break
				}
			}
		case c == '"' || c == '\'':
			// A string ends at its quote or, unterminated, at the end of
			// the line (the parser reports that).
			for i+1 < len(src) && src[i+1] != c && src[i+1] != '\n' {
				i++
				col++
				if src[i] == '\\' && i+1 < len(src) && src[i+1] != '\n' {
					i++
					col++
				}
			}
			if i+1 < len(src) && src[i+1] == c {
				i++
				col++
			}
		case c == '{' || c == '[' || c == '(' || c == '<':
			if depth++; depth > max {
				return diag.Diagnostic{File: name, Line: line, Column: col, EndLine: line, EndColumn: col + 1,
					Severity: diag.SeverityError, Limit: diag.LimitNesting,
					Message: fmt.Sprintf("nesting deeper than %d levels of { [ ( < (MaxNesting)", max)}, false
			}
			if c == '{' && scanned(col) {
				return tooLong(line, col), false
			}
		case c == ';' || c == '=' || c == ',':
			if scanned(col) {
				return tooLong(line, col), false
			}
		case c == '}' || c == ']' || c == ')' || c == '>':
			depth--
		}
		col++
	}
	return diag.Diagnostic{}, true
}

// validComments returns src with each byte of a comment that is not part
// of valid UTF-8 replaced by U+FFFD: protoc accepts such comments (and
// keeps their bytes), the compiler refuses any invalid UTF-8 in a file.
// Bytes outside comments are left to the compiler to judge. src is
// returned as is when it is valid UTF-8 (the usual case).
func validComments(src string) string {
	if utf8.ValidString(src) {
		return src
	}
	var b strings.Builder
	b.Grow(len(src) + 16)
	comment := func(start, end int) {
		for _, r := range src[start:end] {
			b.WriteRune(r) // an invalid byte ranges as utf8.RuneError
		}
	}
	last := 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			end := strings.IndexByte(src[i:], '\n')
			if end < 0 {
				end = len(src)
			} else {
				end += i
			}
			b.WriteString(src[last:i])
			comment(i, end)
			i, last = end-1, end
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				end = len(src)
			} else {
				end += i + 4
			}
			b.WriteString(src[last:i])
			comment(i, end)
			i, last = end-1, end
		case c == '"' || c == '\'':
			for i+1 < len(src) && src[i+1] != c && src[i+1] != '\n' {
				i++
				if src[i] == '\\' && i+1 < len(src) && src[i+1] != '\n' {
					i++
				}
			}
			if i+1 < len(src) && src[i+1] == c {
				i++
			}
		}
	}
	b.WriteString(src[last:])
	return b.String()
}
