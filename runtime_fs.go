package protoplay

import (
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"
)

// filesFS is a read-only fs.FS of files held in memory: files maps a
// slash-separated path ("runtime/wire/wire.go") to its content; the
// directories are those the paths imply. It is how the build without
// embedded runtime sources (runtime_sources_lazy.go) serves the ones it
// loads.
type filesFS struct {
	files map[string]string
	dirs  map[string][]fs.DirEntry // by directory path, sorted by name; "." is the root
}

func newFilesFS(files map[string]string) *filesFS {
	f := &filesFS{files: files, dirs: map[string][]fs.DirEntry{".": nil}}
	seen := map[string]bool{}
	for name := range files {
		child, isDir := name, false
		for {
			dir := path.Dir(child)
			if !seen[child] {
				seen[child] = true
				f.dirs[dir] = append(f.dirs[dir], entry{info{path.Base(child), int64(len(files[child])), isDir}})
			}
			if dir == "." {
				break
			}
			child, isDir = dir, true
		}
	}
	for _, es := range f.dirs {
		sort.Slice(es, func(i, j int) bool { return es[i].Name() < es[j].Name() })
	}
	return f
}

func (f *filesFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if content, ok := f.files[name]; ok {
		return &openFile{info{path.Base(name), int64(len(content)), false}, strings.NewReader(content)}, nil
	}
	if es, ok := f.dirs[name]; ok {
		return &openDir{info: info{path.Base(name), 0, true}, entries: es}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

func (f *filesFS) ReadFile(name string) ([]byte, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrInvalid}
	}
	content, ok := f.files[name]
	if !ok {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
	}
	return []byte(content), nil
}

func (f *filesFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	es, ok := f.dirs[name]
	if !ok {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	return append([]fs.DirEntry(nil), es...), nil
}

// info is the fs.FileInfo of a file or directory of a filesFS.
type info struct {
	name  string
	size  int64
	isDir bool
}

func (i info) Name() string { return i.name }
func (i info) Size() int64  { return i.size }
func (i info) Mode() fs.FileMode {
	if i.isDir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}
func (i info) ModTime() time.Time { return time.Time{} }
func (i info) IsDir() bool        { return i.isDir }
func (i info) Sys() any           { return nil }

type entry struct{ info }

func (e entry) Type() fs.FileMode          { return e.Mode().Type() }
func (e entry) Info() (fs.FileInfo, error) { return e.info, nil }

type openFile struct {
	info
	*strings.Reader
}

func (f *openFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *openFile) Close() error               { return nil }

type openDir struct {
	info
	entries []fs.DirEntry
	pos     int
}

func (d *openDir) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *openDir) Close() error               { return nil }
func (d *openDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.name, Err: fs.ErrInvalid}
}

func (d *openDir) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.entries[d.pos:]
	if n <= 0 {
		d.pos = len(d.entries)
		return append([]fs.DirEntry(nil), rest...), nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	if n > len(rest) {
		n = len(rest)
	}
	d.pos += n
	return append([]fs.DirEntry(nil), rest[:n]...), nil
}
