// Package interp runs generated Go code without compiling it: the files that
// compiler.Compile generates for a schema are loaded, under their import
// paths, into a github.com/traefik/yaegi interpreter, which runs them
// against protoplay's runtime (runtime/wire, runtime/wkt) and the standard
// library packages the generated code imports, both linked in as compiled
// symbols (package interp/symbols). It is the stage after the compiler that
// lets a host without a Go toolchain (the browser) exercise the very code a
// user sees: decode a payload with the generated Unmarshal, re-encode it
// with Marshal, and so on (see RoundTrip).
//
// The package lives outside compiler/ so that the compiler core (and its
// wasm build) never links the interpreter.
//
// What yaegi (v0.16.1) cannot run, and how this package bridges it:
//
//   - Generic functions of compiled packages cannot be instantiated by
//     interpreted code. runtime/wire's one generic function that generated
//     code calls, wire.New[T], is supplied by an interpreted runtime/wire
//     that re-exports the compiled symbols and adds New (see wireSource);
//     under the interpreter it allocates each message on its own instead of
//     from the Decoder's slabs, which changes no observable result.
//   - yaegi names an interpreted type by its package name, not its import
//     path, and so confuses the instantiations wire.New[T] of two packages
//     of the same name with message types of the same name; New refuses
//     such a set of files with an error that says so (checkInstantiations).
//   - yaegi cannot load the extension variables of generated code (E_Foo,
//     of runtime/wire's generic types Ext and ExtList, and the file's
//     Extensions_ list): instantiating a generic type of another package
//     with a message type of the package being loaded fails its type
//     checking ("incomplete type", "constant definition loop"). They are
//     left out of the files the interpreter loads (withoutExtensions), so
//     a schema with extensions runs, its extensions staying unknown
//     fields; a program that names E_Foo gets an undefined-name error.
//   - yaegi fails on the standard library's source of slices.Grow,
//     slices.Clone and maps.Clone (constraints like S ~[]E); interpreted
//     replacements with the same results are loaded instead (see
//     stdgeneric.go).
//
// The generated code itself needs no change to run here: every file of
// testdata/cases and the conformance test_messages schemas round-trip
// under the interpreter (see the package tests).
package interp

import (
	"bytes"
	"fmt"
	"go/build/constraint"
	"go/constant"
	"go/parser"
	"go/token"
	"io"
	"path"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing/fstest"

	yaegi "github.com/traefik/yaegi/interp"

	"github.com/protoplay/protoplay/interp/gocheck"
	"github.com/protoplay/protoplay/interp/symbols"
)

// File is one generated Go file, as the compiler returns it (compiler.File,
// gogen.File and the JSON of the core's GeneratedFile have this shape):
// Name is slash-separated and relative to Options.Root. The package does
// not import the compiler, so that the interpreter's wasm module does not
// link it.
type File struct {
	Name    string `json:"name"`
	Content string `json:"content"`
}

// FileLike is any struct type of File's shape (compiler.File among them),
// so that New takes the compiler's []compiler.File as it is.
type FileLike interface {
	~struct {
		Name    string `json:"name"`
		Content string `json:"content"`
	}
}

// Options configure an Interpreter.
type Options struct {
	// Root is the import path that the generated files' names are relative
	// to: the module= generator option, or "" when the files were generated
	// with paths=import and no module (their names then start with their
	// import path).
	Root string
	// Stdout and Stderr receive what interpreted code prints (io.Discard
	// when nil).
	Stdout, Stderr io.Writer
}

// An Interpreter holds one schema's generated code, loaded and ready to
// run. It is not safe for concurrent use.
type Interpreter struct {
	in   *yaegi.Interpreter
	next int // counter for the names of helper functions
	// names maps the import path of every package a program may import
	// to the package's name (typeCheck's).
	names map[string]string
}

// compiledWire is the import path under which runtime/wire's compiled
// symbols are registered; the path runtime/wire itself is the interpreted
// package of wireSource, which re-exports them and adds the generic
// function New.
const compiledWire = "protoplay.compiled/runtime/wire"

// wireGenerics are runtime/wire's generic functions that generated code
// calls, in source: the compiled ones take messages and scalar slices
// from the Decoder's slabs and arenas, sized from the input; these
// allocate each one, which no result tells apart.
const wireGenerics = `
// New returns a pointer to a new zero message of type T.
func New[T any](d *Decoder) *T { return new(T) }

// NewIn is New for a message whose encoding starts at b[0].
func NewIn[T any](d *Decoder, b []byte, slot int) *T { return new(T) }

// AppendIn appends e to s.
func AppendIn[T any](d *Decoder, s []*T, e *T, b []byte, start, i int) []*T { return append(s, e) }

// MakeSlice returns a slice of length 0 and capacity n.
func MakeSlice[T any](d *Decoder, n int) []T { return make([]T, 0, n) }

// LoadMessage returns *p (a lazy message field; the interpreter's code
// needs no atomic read).
func LoadMessage[T any](p **T) *T { return *p }

// PublishMessage stores v in *p if *p is nil and returns what *p holds.
func PublishMessage[T any](p **T, v *T) *T {
	if *p == nil {
		*p = v
	}
	return *p
}
`

// wireSource returns the source of the interpreted runtime/wire: every
// compiled symbol of syms re-exported (types as aliases, so that they are
// the compiled types; untyped constants as constants; functions, typed
// constants and variables as variables holding their values), and New[T],
// which compiled symbols cannot carry (yaegi cannot instantiate a generic
// function of a compiled package, and resolves an explicit instantiation
// wire.New[T] only in source), and the other generic functions generated
// code calls (wireGenerics).
func wireSource(syms map[string]reflect.Value) string {
	var b strings.Builder
	b.WriteString("package wire\n\nimport w " + strconv.Quote(compiledWire) + "\n\n")
	names := make([]string, 0, len(syms))
	for n := range syms {
		names = append(names, n)
	}
	sort.Strings(names)
	constType := reflect.TypeFor[constant.Value]()
	for _, n := range names {
		v := syms[n]
		switch {
		case v.Kind() == reflect.Pointer && v.IsNil() && !v.CanAddr():
			fmt.Fprintf(&b, "type %s = w.%s\n", n, n)
		case v.Type().Implements(constType):
			fmt.Fprintf(&b, "const %s = w.%s\n", n, n)
		default:
			fmt.Fprintf(&b, "var %s = w.%s\n", n, n)
		}
	}
	b.WriteString(wireGenerics)
	return b.String()
}

// New loads files (generated Go files, names relative to opt.Root) into a
// new interpreter. It reports an error when a file cannot be parsed or
// type-checked by the interpreter, with the file's position. Interpreted
// code can import the generated packages, the packages of
// symbols.Packages and a sandboxed os (sandbox.go), nothing else (no
// net, no os/exec, no syscall/js, no unsafe).
//
// A file whose //go:build line the default build excludes (a hybrid
// message's x_protoopaque.pb.go, under the protoopaque tag) is left out,
// as go build leaves it out: no build tag is set.
//
// A panic inside the interpreter while it loads the files (yaegi has
// some on code it does not support) is returned as an error naming it,
// not raised: the page's interpreter module would not survive it.
func New[F FileLike](list []F, opt Options) (ip *Interpreter, err error) {
	defer func() {
		if p := recover(); p != nil {
			ip, err = nil, fmt.Errorf("interp: the interpreter failed on this code: %v", p)
		}
	}()
	files := make([]File, 0, len(list))
	for _, f := range list {
		if inDefaultBuild(File(f).Content) {
			files = append(files, File(f))
		}
	}
	if err := checkInstantiations(packageFiles(files, opt.Root)); err != nil {
		return nil, err
	}
	fs := fstest.MapFS{}
	pkgs := map[string]bool{}
	for _, f := range files {
		if !strings.HasSuffix(f.Name, ".go") {
			continue
		}
		p := path.Join("src", opt.Root, f.Name)
		fs[p] = &fstest.MapFile{Data: []byte(withoutExtensions(f.Content))}
		pkgs[path.Dir(path.Join(opt.Root, f.Name))] = true
	}
	syms := map[string]map[string]reflect.Value{}
	for k, v := range symbols.Symbols {
		if k == symbols.WirePath+"/wire" {
			k = compiledWire + "/wire"
		}
		syms[k] = v
	}
	// The checks' exercise.go, which Session.Check interprets (the native
	// harness of protoplay check --generated compiles the same file).
	fs[path.Join("src", gocheck.ImportPath, "exercise.go")] = &fstest.MapFile{Data: []byte(gocheck.Source)}
	fs[path.Join("src", symbols.WirePath, "wire.go")] = &fstest.MapFile{Data: []byte(wireSource(symbols.Symbols[symbols.WirePath+"/wire"]))}
	stdout, stderr := opt.Stdout, opt.Stderr
	if stdout == nil {
		stdout = io.Discard
	}
	if stderr == nil {
		stderr = io.Discard
	}
	syms["os/os"] = osSymbols(stdout, stderr)
	// Restricted (the default): os's environment is the interpreter's
	// own, empty; os.Args is {"main"}.
	in := yaegi.New(yaegi.Options{GoPath: ".", SourcecodeFilesystem: fs, Stdout: stdout, Stderr: stderr, Stdin: bytes.NewReader(nil), Args: []string{"main"}, Env: []string{}})
	// Use loads yaegi's own source of the generic standard library
	// packages (with fmt); the replacements of stdgeneric.go then
	// redefine the functions yaegi cannot run from it.
	if err := in.Use(syms); err != nil {
		return nil, fmt.Errorf("interp: %w", err)
	}
	for _, src := range []string{slicesSource, mapsSource} {
		if _, err := in.Compile(src); err != nil {
			return nil, fmt.Errorf("interp: loading the generic standard library: %w", err)
		}
	}
	if _, err := in.Eval(`import _ "` + symbols.WirePath + `"`); err != nil {
		return nil, fmt.Errorf("interp: loading runtime/wire: %w", err)
	}
	ip = &Interpreter{in: in, names: packageNames(syms, packageFiles(files, opt.Root))}
	paths := make([]string, 0, len(pkgs))
	for p := range pkgs {
		paths = append(paths, p)
	}
	sort.Strings(paths) // the first error is the same from run to run
	for _, p := range paths {
		if _, err := in.Eval(`import _ "` + p + `"`); err != nil {
			return nil, fmt.Errorf("interp: %s: %w", p, err)
		}
	}
	return ip, nil
}

// packageNames maps the import path of every package in syms (keyed
// "PATH/NAME", as yaegi keys its symbol tables) and in files (generated
// packages by import path) to the package's name.
func packageNames(syms map[string]map[string]reflect.Value, files map[string][]File) map[string]string {
	names := map[string]string{symbols.WirePath: "wire"}
	for k := range syms {
		if i := strings.LastIndexByte(k, '/'); i > 0 && k != compiledWire+"/wire" {
			names[k[:i]] = k[i+1:]
		}
	}
	fset := token.NewFileSet()
	for p, fs := range files {
		if f, err := parser.ParseFile(fset, "", fs[0].Content, parser.PackageClauseOnly); err == nil {
			names[p] = f.Name.Name
		}
	}
	return names
}

// Eval interprets src (declarations, statements or an expression, in the
// package main of the interpreter, which may import the generated packages
// by their import paths) and returns the value of its last expression. A
// whole program (a file with "package main" and func main) runs main once;
// note that yaegi also runs main again after every later Eval while it is
// defined, so a program is best given to a fresh Interpreter in one Eval.
func (ip *Interpreter) Eval(src string) (reflect.Value, error) {
	return ip.in.Eval(src)
}

// A Result is what the generated code of one message type did with one
// input (see Interpreter.RoundTrip).
type Result struct {
	// Out is Marshal's output for the message Unmarshal decoded.
	Out []byte
	// Size is the message's Size().
	Size int
	// CloneEqual reports whether Clone() is Equal to the message, both
	// ways (c.Equal(m) && m.Equal(c)).
	CloneEqual bool
	// CloneOut is Marshal's output for the clone, taken after the original
	// was Reset.
	CloneOut []byte
}

// RoundTrip returns a function that runs the generated code of message
// type goType (its Go name) of the package at importPath on a payload: it
// decodes b with Unmarshal, then reports Marshal, Size, Clone and Equal on
// the message (see Result). The error is the first one Unmarshal or Marshal
// returned; an error is returned at once when the type does not exist.
func (ip *Interpreter) RoundTrip(importPath, goType string) (func(b []byte) (Result, error), error) {
	ip.next++
	alias := fmt.Sprintf("rtpkg%d", ip.next)
	fn := fmt.Sprintf("rtfunc%d", ip.next)
	src := fmt.Sprintf(`import %[1]s %[3]q

func %[2]s(b []byte) (out []byte, size int, eq bool, cout []byte, err error) {
	m := new(%[1]s.%[4]s)
	if err = m.Unmarshal(b); err != nil {
		return
	}
	if out, err = m.Marshal(); err != nil {
		return
	}
	size = m.Size()
	c := m.Clone()
	eq = c.Equal(m) && m.Equal(c)
	m.Reset()
	if cout, err = c.Marshal(); err != nil {
		return
	}
	return
}
`, alias, fn, importPath, goType)
	if _, err := ip.in.Eval(src); err != nil {
		return nil, fmt.Errorf("interp: %s.%s: %w", importPath, goType, err)
	}
	v, err := ip.in.Eval(fn)
	if err != nil {
		return nil, fmt.Errorf("interp: %s.%s: %w", importPath, goType, err)
	}
	f, ok := v.Interface().(func([]byte) ([]byte, int, bool, []byte, error))
	if !ok {
		return nil, fmt.Errorf("interp: %s.%s: helper has type %s", importPath, goType, v.Type())
	}
	return func(b []byte) (r Result, err error) {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("interp: %s.%s: panic: %v", importPath, goType, p)
			}
		}()
		r.Out, r.Size, r.CloneEqual, r.CloneOut, err = f(b)
		return r, err
	}, nil
}

// withoutExtensions returns src, a generated Go file, without its
// extension variables: each top-level "var E_..." and "var Extensions_..."
// declaration, which generated code prints as a composite literal from
// its first line to a line that closes it at the start ("}" or "}}"), or
// on one line (a public import's forward of another file's). Nothing else
// in generated code refers to them.
func withoutExtensions(src string) string {
	if !strings.Contains(src, "\nvar E_") && !strings.Contains(src, "\nvar Extensions_") {
		return src
	}
	lines := strings.SplitAfter(src, "\n")
	var b strings.Builder
	b.Grow(len(src))
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !strings.HasPrefix(l, "var E_") && !strings.HasPrefix(l, "var Extensions_") {
			b.WriteString(l)
			continue
		}
		// A declaration of one line: a public import's forward
		// (var E_Foo = other.E_Foo).
		if t := strings.TrimRight(l, "\n"); !strings.HasSuffix(t, "{") {
			continue
		}
		for ; i < len(lines); i++ {
			if t := strings.TrimRight(lines[i], "\n"); t == "}" || t == "}}" || (strings.HasPrefix(lines[i], "var ") && strings.HasSuffix(t, "}")) {
				break
			}
		}
	}
	return b.String()
}

// inDefaultBuild reports whether go build, with no build tags, builds a
// Go file of this content: its //go:build line (before the package
// clause), if any, holds with every tag false.
func inDefaultBuild(content string) bool {
	for _, line := range strings.Split(content, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "package ") {
			break
		}
		if constraint.IsGoBuild(line) {
			expr, err := constraint.Parse(line)
			return err != nil || expr.Eval(func(string) bool { return false })
		}
	}
	return true
}
