package frontend

import (
	"sync"

	"github.com/bufbuild/protocompile/linker"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/protoplay/protoplay/compiler/diag"
)

// A LinkCache keeps the linked files of a request's sources between
// compiles that share it (an editor session: compiler.Workspace), so that
// a file that did not change, and whose imports did not, is neither parsed
// nor linked again: compiling a small file that imports a big one (or
// editing one of two big files) pays only for what changed. The standard
// files (well-known types, googleapis) are linked once per process
// anyway (see standardFile).
//
// A file is reused when its text is the same as when it was linked and
// each file it imports is the very descriptor it was linked against: a
// source file reused the same way, or the same standard file. Its
// warnings are reported again with it. The cache holds the files of the
// last compile that had no errors; it is only consulted for requests
// with the default source and nesting limits. A LinkCache is safe for
// concurrent use; the zero value is ready.
type LinkCache struct {
	mu    sync.Mutex
	files map[string]*linkedSource
	// Hits and Misses count the source files reused and compiled, over
	// the cache's life (for tests and measurements).
	Hits, Misses int
}

type linkedSource struct {
	src      string
	file     linker.File
	warnings []diag.Diagnostic
}

// linkLookup is one compile's view of a LinkCache.
type linkLookup struct {
	c      *LinkCache
	req    *Request
	files  map[string]*linkedSource // the cache's files when the compile began
	valid  map[string]bool          // memo of usable
	reused map[string]*linkedSource // the files served from the cache
}

func (c *LinkCache) lookup(req *Request) *linkLookup {
	if c == nil || req.Limits.MaxSourceBytes != 0 || req.Limits.MaxNesting != 0 {
		return nil
	}
	c.mu.Lock()
	files := c.files
	c.mu.Unlock()
	return &linkLookup{c: c, req: req, files: files, valid: map[string]bool{}, reused: map[string]*linkedSource{}}
}

// find returns the cached linked file of the source called name, if it
// can be reused.
func (l *linkLookup) find(name string) (linker.File, bool) {
	if l == nil {
		return nil, false
	}
	if _, ok := l.req.Sources[name]; !ok {
		return nil, false
	}
	if !l.usable(name) {
		l.c.mu.Lock()
		l.c.Misses++
		l.c.mu.Unlock()
		return nil, false
	}
	e := l.files[name]
	l.reused[name] = e
	l.c.mu.Lock()
	l.c.Hits++
	l.c.mu.Unlock()
	return e.file, true
}

// usable reports whether the cached file name has the request's text
// and imports the files the request resolves its imports to.
func (l *linkLookup) usable(name string) bool {
	if v, ok := l.valid[name]; ok {
		return v
	}
	l.valid[name] = false // an import cycle is never usable
	e := l.files[name]
	src, inSources := l.req.Sources[name]
	ok := e != nil && inSources && e.src == src
	if ok {
		imps := e.file.Imports()
		for i := 0; i < imps.Len() && ok; i++ {
			ok = l.sameImport(imps.Get(i).FileDescriptor)
		}
	}
	l.valid[name] = ok
	return ok
}

// sameImport reports whether the request resolves imp's path to imp
// itself.
func (l *linkLookup) sameImport(imp protoreflect.FileDescriptor) bool {
	p := imp.Path()
	if _, ok := l.req.Sources[p]; ok {
		e := l.files[p]
		return e != nil && l.usable(p) && protoreflect.FileDescriptor(e.file) == imp
	}
	if f, ok := standardFile(p); ok {
		return protoreflect.FileDescriptor(f) == imp
	}
	return false
}

// warningsOfReused are the warnings the reused files had when linked.
func (l *linkLookup) warningsOfReused() []diag.Diagnostic {
	if l == nil {
		return nil
	}
	var ds []diag.Diagnostic
	for _, e := range l.reused {
		ds = append(ds, e.warnings...)
	}
	return ds
}

// store makes the cache hold the request's source files of linked (and
// their imports), with their warnings among ds, after a compile with no
// errors.
func (l *linkLookup) store(linked linker.Files, ds []diag.Diagnostic) {
	if l == nil {
		return
	}
	files := map[string]*linkedSource{}
	var add func(f protoreflect.FileDescriptor)
	add = func(f protoreflect.FileDescriptor) {
		p := f.Path()
		src, ok := l.req.Sources[p]
		if !ok || files[p] != nil {
			return
		}
		lf, ok := f.(linker.File)
		if !ok {
			return
		}
		if e := l.reused[p]; e != nil {
			files[p] = e
		} else {
			e := &linkedSource{src: src, file: lf}
			for _, d := range ds {
				if d.File == p && d.Severity == diag.SeverityWarning {
					e.warnings = append(e.warnings, d)
				}
			}
			files[p] = e
		}
		imps := f.Imports()
		for i := 0; i < imps.Len(); i++ {
			add(imps.Get(i).FileDescriptor)
		}
	}
	for _, f := range linked {
		add(f)
	}
	l.c.mu.Lock()
	l.c.files = files
	l.c.mu.Unlock()
}
