package interp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"io"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	yaegi "github.com/traefik/yaegi/interp"

	"github.com/protoplay/protoplay/interp/gocheck"
)

// A Session is what the browser's interpreter Worker holds (wasm/interp):
// the generated code of the current schema, loaded once (Load), then
// checked per message type against the reference codec's bytes (Check)
// and run by programs (Run). Its methods take and return plain structs
// whose JSON is the Worker's protocol (see Call). It is not safe for
// concurrent use.
type Session struct {
	files []File
	root  string
	brk   string
	ip    *Interpreter
	types map[string]TypeRef
	// fns caches the check function of each message type.
	fns map[string]func([]byte) gocheck.Outcome

	// Output, when set, receives what a program run by Run writes, as it
	// writes it: stream is "stdout" or "stderr", text one write. It lets
	// a caller show output while the program runs, and keep it when the
	// program is stopped (the page ends a runaway program's Worker, and
	// Run never returns). Run stops calling it after MaxStreamedOutput
	// bytes; RunResult still holds all of the output.
	Output func(stream, text string)
}

// MaxStreamedOutput is how many bytes of a program's output Run hands to
// Session.Output (stdout and stderr together).
const MaxStreamedOutput = 1 << 20

// streamWriter passes each write to out until the shared budget is spent.
type streamWriter struct {
	stream string
	out    func(stream, text string)
	budget *int
}

func (w streamWriter) Write(p []byte) (int, error) {
	if n := min(len(p), *w.budget); n > 0 {
		*w.budget -= n
		w.out(w.stream, string(p[:n]))
	}
	return len(p), nil
}

// LoadRequest is the generated code of one schema.
type LoadRequest struct {
	// Files are the generated files as the core's generate returns them
	// (paths=import, so a file's directory is its package's import path
	// below Root). Service files (_grpc.pb.go, .connect.go) must be left
	// out: their imports are not available to the interpreter.
	Files []File `json:"files"`
	// Root is the import path the file names are relative to: the
	// module= option, or "".
	Root string `json:"root,omitempty"`
	// Break names a message type (full name) whose generated Marshal is
	// deliberately broken before loading: it flips the low bit of the
	// middle byte of every output. A test hook (the page's
	// ?breakcheck=TYPE), so that a test can see a check fail.
	Break string `json:"break,omitempty"`
}

// TypeRef locates the generated Go type of a message type.
type TypeRef struct {
	// Name is the message type's full name, "pkg.Outer.Inner".
	Name string `json:"name"`
	// ImportPath is the Go import path of its package.
	ImportPath string `json:"importPath"`
	// GoName is the Go type's name in that package, "Outer_Inner".
	GoName string `json:"goName"`
	// Builder tells that the type has protoc-gen-go's opaque accessors: a
	// builder (<GoName>_builder, whose Build returns the message) and
	// Set/Get/Has/Clear methods, as the opaque and hybrid API levels
	// generate. Without it the type's fields are exported (the open API).
	Builder bool `json:"builder,omitempty"`
	// Field is the type's first field of a Go basic type (or []byte) that
	// a program can write and read: with Builder, a builder field with
	// Set<Name> and Get<Name> methods; without, an exported struct field
	// of that type itself (not a pointer) with a Get<Name> method. The
	// playground's Run tab starts its program with it. Nil when there is
	// none.
	Field *FieldRef `json:"field,omitempty"`
}

// FieldRef is a field of a generated message type, by its Go names.
type FieldRef struct {
	// Name is the field's Go name: the struct or builder field, and the
	// suffix of its Get, Set, Has and Clear methods.
	Name string `json:"name"`
	// Type is its Go type: "string", "bool", "int32", "int64", "uint32",
	// "uint64", "float32", "float64" or "[]byte".
	Type string `json:"type"`
	// Pointer tells that the builder's field is a pointer to Type (an
	// explicit-presence field; nil leaves it unset).
	Pointer bool `json:"pointer,omitempty"`
}

// Position is a place in a Go file: 1-based line and column (bytes).
type Position struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	// Func is the function a panic unwound ("main.main"); empty for
	// compile errors.
	Func string `json:"func,omitempty"`
}

// Problem is an error with the positions it names (compile errors: each
// error's; a panic: the interpreted frames, innermost first).
type Problem struct {
	Message   string     `json:"message"`
	Positions []Position `json:"positions,omitempty"`
}

// LoadResult is the answer to Load.
type LoadResult struct {
	// Types are the message types of the loaded code, by full name.
	Types []TypeRef `json:"types"`
	// Error is why the code could not be loaded (nil when it was).
	Error *Problem `json:"error,omitempty"`
	// ElapsedMs is the time Load took, in milliseconds.
	ElapsedMs float64 `json:"elapsedMs"`
}

// Load interprets req's files, replacing what the session held. A file
// that the interpreter cannot compile is an error in the result (with
// positions when the interpreter gave them), not a failed call.
func (s *Session) Load(req LoadRequest) (*LoadResult, error) {
	start := time.Now()
	s.files, s.root, s.brk, s.ip, s.fns = req.Files, req.Root, req.Break, nil, map[string]func([]byte) gocheck.Outcome{}
	s.types = MessageTypes(req.Files, req.Root)
	files := req.Files
	if req.Break != "" {
		t, ok := s.types[req.Break]
		if !ok {
			return nil, fmt.Errorf("interp: break: no message type %s in the generated code", req.Break)
		}
		var err error
		if files, err = breakMarshal(files, req.Root, t); err != nil {
			return nil, err
		}
	}
	out := &LoadResult{Types: make([]TypeRef, 0, len(s.types))}
	for _, t := range s.types {
		out.Types = append(out.Types, t)
	}
	sort.Slice(out.Types, func(i, j int) bool { return out.Types[i].Name < out.Types[j].Name })
	ip, err := New(files, Options{Root: req.Root})
	if err != nil {
		out.Error = problemOf(err)
	} else {
		s.ip = ip
	}
	out.ElapsedMs = ms(time.Since(start))
	return out, nil
}

// MessageTypes finds the message types that files declare, by full name:
// every generated file has a resolver function (NewMessage_<file>, see
// gogen.ProtoJSONResolverName) whose switch maps each full name the file
// declares to new(GoType).
func MessageTypes(files []File, root string) map[string]TypeRef {
	out := map[string]TypeRef{}
	fset := token.NewFileSet()
	for _, f := range files {
		if !strings.HasSuffix(f.Name, ".go") || !strings.Contains(f.Content, "NewMessage_") || !inDefaultBuild(f.Content) {
			continue
		}
		af, err := parser.ParseFile(fset, f.Name, f.Content, parser.SkipObjectResolution)
		if err != nil {
			continue // New reports it
		}
		importPath := path.Dir(path.Join(root, f.Name))
		access := accessOf(af)
		for _, d := range af.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || !strings.HasPrefix(fd.Name.Name, "NewMessage_") || fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				cc, ok := n.(*ast.CaseClause)
				if !ok || len(cc.List) != 1 || len(cc.Body) != 1 {
					return true
				}
				lit, ok := cc.List[0].(*ast.BasicLit)
				ret, ok2 := cc.Body[0].(*ast.ReturnStmt)
				if !ok || !ok2 || lit.Kind != token.STRING || len(ret.Results) != 1 {
					return true
				}
				call, ok := ret.Results[0].(*ast.CallExpr)
				if !ok || len(call.Args) != 1 {
					return true
				}
				if fn, ok := call.Fun.(*ast.Ident); !ok || fn.Name != "new" {
					return true
				}
				id, ok := call.Args[0].(*ast.Ident)
				if !ok {
					return true
				}
				name, err := strconv.Unquote(lit.Value)
				if err == nil {
					t := TypeRef{Name: name, ImportPath: importPath, GoName: id.Name}
					t.Builder, t.Field = access.field(id.Name)
					out[name] = t
				}
				return false
			})
		}
	}
	return out
}

// goAccess is what a generated file declares of its types' Go surface:
// struct types by name, and the methods of each receiver type.
type goAccess struct {
	structs map[string]*ast.StructType
	methods map[string]map[string]bool
}

func accessOf(af *ast.File) goAccess {
	a := goAccess{structs: map[string]*ast.StructType{}, methods: map[string]map[string]bool{}}
	for _, d := range af.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				if ts, ok := sp.(*ast.TypeSpec); ok {
					if st, ok := ts.Type.(*ast.StructType); ok {
						a.structs[ts.Name.Name] = st
					}
				}
			}
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) != 1 {
				continue
			}
			r := d.Recv.List[0].Type
			if se, ok := r.(*ast.StarExpr); ok {
				r = se.X
			}
			if id, ok := r.(*ast.Ident); ok {
				if a.methods[id.Name] == nil {
					a.methods[id.Name] = map[string]bool{}
				}
				a.methods[id.Name][d.Name.Name] = true
			}
		}
	}
	return a
}

// basicGoTypes are the field types FieldRef names.
var basicGoTypes = map[string]bool{"string": true, "bool": true, "int32": true, "int64": true, "uint32": true, "uint64": true, "float32": true, "float64": true}

// field tells whether the type goName has a builder, and finds its
// TypeRef.Field.
func (a goAccess) field(goName string) (builder bool, f *FieldRef) {
	st, builder := a.structs[goName+"_builder"]
	if !builder {
		st = a.structs[goName]
	}
	if st == nil {
		return builder, nil
	}
	ms := a.methods[goName]
	for _, fl := range st.Fields.List {
		if len(fl.Names) != 1 || !fl.Names[0].IsExported() {
			continue
		}
		name := fl.Names[0].Name
		typ, ptr := fl.Type, false
		if se, ok := typ.(*ast.StarExpr); ok {
			typ, ptr = se.X, true
		}
		var tn string
		switch t := typ.(type) {
		case *ast.Ident:
			if basicGoTypes[t.Name] {
				tn = t.Name
			}
		case *ast.ArrayType:
			if id, ok := t.Elt.(*ast.Ident); ok && t.Len == nil && id.Name == "byte" && !ptr {
				tn = "[]byte"
			}
		}
		if tn == "" || !ms["Get"+name] || builder && !ms["Set"+name] || !builder && ptr {
			continue
		}
		return builder, &FieldRef{Name: name, Type: tn, Pointer: ptr}
	}
	return builder, nil
}

// breakMarshal returns files with t's Marshal made wrong (see
// LoadRequest.Break and gocheck.BreakMarshal).
func breakMarshal(files []File, root string, t TypeRef) ([]File, error) {
	out := append([]File(nil), files...)
	for i, f := range out {
		if path.Dir(path.Join(root, f.Name)) != t.ImportPath || !inDefaultBuild(f.Content) {
			continue
		}
		if c, ok := gocheck.BreakMarshal(f.Content, t.GoName); ok {
			out[i].Content = c
			return out, nil
		}
	}
	return nil, fmt.Errorf("interp: break: no Marshal method of %s.%s in the generated code", t.ImportPath, t.GoName)
}

// The checks' shapes are package gocheck's, the one definition of the
// checks that protoplay check --generated runs too.
type (
	// CheckRequest asks for the checks of one message type (see Check).
	CheckRequest = gocheck.Request
	// Probe is a payload and what the reference codec said decoding it.
	Probe = gocheck.Probe
	// Step is the outcome of one check.
	Step = gocheck.Step
	// CheckResult is what the generated code of one message type did.
	CheckResult = gocheck.Result
)

// checkSource is the interpreted function that runs the generated code of
// one message type on b: gocheck.Exercise (interpreted from gocheck.Source)
// through gocheck.Adapter, its Outcome handed over field by field.
const checkSource = `import (
	%[1]s %[3]q
	%[5]s %[6]q
)

func %[2]s(b []byte) (u, m, cm, r, p string, out, cout []byte, size int, ceq, req bool) {
	o := %[4]s
	return o.Unmarshal, o.Marshal, o.CloneMarshal, o.Reparse, o.Panic, o.Out, o.CloneOut, o.Size, o.CloneEqual, o.ReparsedEqual
}
`

func (s *Session) checkFunc(t TypeRef) (func([]byte) gocheck.Outcome, error) {
	if f := s.fns[t.Name]; f != nil {
		return f, nil
	}
	s.ip.next++
	alias := fmt.Sprintf("ckpkg%d", s.ip.next)
	self := fmt.Sprintf("ckself%d", s.ip.next)
	fn := fmt.Sprintf("ckfunc%d", s.ip.next)
	if _, err := s.ip.in.Eval(fmt.Sprintf(checkSource, alias, fn, t.ImportPath, gocheck.Adapter(self, alias, t.GoName), self, gocheck.ImportPath)); err != nil {
		return nil, fmt.Errorf("interp: %s: %w", t.Name, err)
	}
	v, err := s.ip.in.Eval(fn)
	if err != nil {
		return nil, fmt.Errorf("interp: %s: %w", t.Name, err)
	}
	g, ok := v.Interface().(func([]byte) (string, string, string, string, string, []byte, []byte, int, bool, bool))
	if !ok {
		return nil, fmt.Errorf("interp: %s: check function has type %s", t.Name, v.Type())
	}
	f := func(b []byte) (o gocheck.Outcome) {
		defer func() {
			// A panic that escapes Exercise's own recovery (in
			// compiled code called from it).
			if p := recover(); p != nil {
				o = gocheck.Outcome{Panic: gocheck.PanicText(p)}
			}
		}()
		o.Unmarshal, o.Marshal, o.CloneMarshal, o.Reparse, o.Panic, o.Out, o.CloneOut, o.Size, o.CloneEqual, o.ReparsedEqual = g(b)
		return o
	}
	s.fns[t.Name] = f
	return f, nil
}

// Check runs the checks of package gocheck (their one definition, which
// protoplay check --generated runs natively too) on the generated code of
// req.Type: gocheck.Exercise, interpreted, on the reference bytes and on
// each probe, judged by gocheck.Judge. The generated Unmarshal must accept
// the reference bytes; Marshal must give the same bytes (or the same bytes
// in another order that the generated Unmarshal decodes to an Equal
// message: an order the reference does not use); Size must be the
// output's length; Clone must be Equal both ways and still marshal to the
// same bytes after the original is Reset (deep). Each probe must be
// refused exactly where the reference refused it, for the same kind of
// reason (a required field not set, invalid UTF-8, or malformed wire
// data). Its error is for a request it cannot run (no code loaded, an
// unknown type, malformed hex), not for a failed check.
func (s *Session) Check(req CheckRequest) (*CheckResult, error) {
	start := time.Now()
	if s.ip == nil {
		return nil, errors.New("interp: no generated code is loaded (load failed or was not called)")
	}
	t, ok := s.types[req.Type]
	if !ok {
		return nil, fmt.Errorf("interp: no message type %s in the generated code", req.Type)
	}
	f, err := s.checkFunc(t)
	if err != nil {
		return nil, err
	}
	ref, probes, err := req.Inputs()
	if err != nil {
		return nil, fmt.Errorf("interp: %w", err)
	}
	var refOut gocheck.Outcome
	if req.RefError == "" {
		refOut = f(ref)
	}
	outs := make([]gocheck.Outcome, len(probes))
	for i, b := range probes {
		outs[i] = f(b)
	}
	res := gocheck.Judge(req, path.Base(t.ImportPath)+"."+t.GoName, refOut, outs)
	res.ElapsedMs = ms(time.Since(start))
	return res, nil
}

// RunRequest is a program to run against the loaded generated code.
type RunRequest struct {
	// Source is a main package (the file main.go) that may import the
	// generated packages by their import paths and the packages of
	// symbols.Packages.
	Source string `json:"source"`
}

// RunResult is what a program did.
type RunResult struct {
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	// Error is a compile error (positions in main.go or a generated file)
	// or a panic (Message "panic: VALUE" worded as Go words it, Positions
	// the interpreted functions that were unwinding, innermost first: the
	// statement that panicked, then in each caller the call, with the
	// yaegi the page's interpreter is built with (site/build/lean.go
	// patches its runCfg); yaegi v0.16.1 as released gives the first
	// statement of each function's body instead. A panic that carries its
	// own position, such as a failed type assertion, has it first); nil
	// when main returned.
	Error *Problem `json:"error,omitempty"`
	// Panicked is true when Error is a panic.
	Panicked bool `json:"panicked,omitempty"`
	// ExitCode is the status the program gave os.Exit (0 when main
	// returned); a status other than 0 also ends Stderr with
	// "exit status N", as go run prints it.
	ExitCode int `json:"exitCode,omitempty"`
	// ElapsedMs is the time the program ran, in milliseconds, after the
	// generated code was loaded (LoadMs).
	ElapsedMs float64 `json:"elapsedMs"`
	LoadMs    float64 `json:"loadMs"`
}

// RunFile is the name a program's positions are given in.
const RunFile = "main.go"

// Run interprets req.Source in a fresh interpreter holding the session's
// generated code (a program's main runs once, and what it declares must
// not leak into the checks) and returns its output. The time a program
// may take is the caller's to limit: interpreted code cannot be stopped
// from inside a single-threaded wasm module (the page ends its Worker).
func (s *Session) Run(req RunRequest) (*RunResult, error) {
	if s.files == nil {
		return nil, errors.New("interp: no generated code is loaded")
	}
	var stdout, stderr bytes.Buffer
	var outW, errW io.Writer = &stdout, &stderr
	if s.Output != nil {
		budget := MaxStreamedOutput
		outW = io.MultiWriter(&stdout, streamWriter{"stdout", s.Output, &budget})
		errW = io.MultiWriter(&stderr, streamWriter{"stderr", s.Output, &budget})
	}
	start := time.Now()
	ip, err := New(s.files, Options{Root: s.root, Stdout: outW, Stderr: errW})
	res := &RunResult{LoadMs: ms(time.Since(start))}
	if err != nil {
		res.Error = problemOf(err)
		return res, nil
	}
	start = time.Now()
	err = ip.run(req.Source)
	res.ElapsedMs = ms(time.Since(start))
	frames, rest := panicFrames(stderr.String())
	res.Stdout, res.Stderr = stdout.String(), rest
	var p yaegi.Panic
	if errors.As(err, &p) {
		if code, ok := exitStatus(p.Value); ok {
			// os.Exit: not a panic. A status other than 0 is said on
			// stderr, as go run says it.
			err = nil
			res.ExitCode = code
			if code != 0 {
				res.Stderr += exitCode(code).String() + "\n"
			}
		}
	}
	switch {
	case err == nil:
	case errors.As(err, &p):
		res.Panicked = true
		msg, at := goPanicText(gocheck.PanicText(p.Value))
		if at != nil {
			// The panic's own position is the expression's, more
			// precise than the frames' (a statement's, or with yaegi as
			// released the first statement of each function).
			frames = append([]Position{*at}, frames...)
		}
		res.Error = &Problem{Message: "panic: " + msg, Positions: frames}
	default:
		res.Error = problemOf(err)
	}
	return res, nil
}

// zeroValueRE matches the reflect panic yaegi v0.16.1 raises where Go
// dereferences a nil pointer.
var zeroValueRE = regexp.MustCompile(`^reflect: call of reflect\.Value\.\w+ on zero Value$`)

// goPanicText words a panic of interpreted code as Go words it: the
// reflect package's panics that yaegi raises for a nil pointer
// dereference and an index out of range become Go's runtime errors, and a
// position yaegi puts in front of the text ("main.go:9:14: interface
// conversion: ...") is taken out and returned.
func goPanicText(text string) (string, *Position) {
	var at *Position
	if m := positionRE.FindStringSubmatch(text); m != nil {
		l, _ := strconv.Atoi(m[2])
		c, _ := strconv.Atoi(m[3])
		at = &Position{File: trimSrc(m[1]), Line: l, Column: c}
		text = text[len(m[0]):]
	}
	switch {
	case zeroValueRE.MatchString(text):
		text = "runtime error: invalid memory address or nil pointer dereference"
	case text == "reflect: slice index out of range" || text == "reflect: array index out of range" || text == "reflect: string index out of range":
		text = "runtime error: index out of range"
	}
	return text, at
}

// run parses src as the file main.go and runs it.
func (ip *Interpreter) run(src string) (err error) {
	defer func() {
		// A panic that escapes yaegi's own recovery (in compiled code
		// called from the program).
		if p := recover(); p != nil {
			err = yaegi.Panic{Value: p}
		}
	}()
	f, err := parser.ParseFile(ip.in.FileSet(), RunFile, src, parser.AllErrors)
	if err != nil {
		return err
	}
	if err := typeCheck(ip.in.FileSet(), f, ip.names); err != nil {
		return err
	}
	prog, err := ip.in.CompileAST(f)
	if err != nil {
		return err
	}
	_, err = ip.in.Execute(prog)
	return err
}

// positionRE matches "file.go:12:3: " at the start of an error message.
var positionRE = regexp.MustCompile(`^(?:.*?/)?([^/\s:]+\.go):(\d+):(\d+):\s*`)

// panicLineRE matches the lines yaegi writes to stderr for each frame a
// panic unwinds: "main.go:9:2: panic: main.main(...)".
var panicLineRE = regexp.MustCompile(`(?m)^(\S+\.go):(\d+):(\d+): panic: (\S*?)(?:\(\.\.\.\))?\n?$\n?`)

// panicFrames takes yaegi's panic lines out of a program's stderr.
func panicFrames(stderr string) ([]Position, string) {
	var out []Position
	for _, m := range panicLineRE.FindAllStringSubmatch(stderr, -1) {
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		out = append(out, Position{File: trimSrc(m[1]), Line: line, Column: col, Func: m[4]})
	}
	return out, panicLineRE.ReplaceAllString(stderr, "")
}

// trimSrc makes a generated file's path as yaegi names it
// ("src/example.com/a/a.pb.go" under the virtual GOPATH) the import path
// form.
func trimSrc(p string) string {
	return strings.TrimPrefix(strings.TrimPrefix(p, "./"), "src/")
}

// problemOf turns an interpreter error into a Problem: each line that
// starts with a position gives one.
func problemOf(err error) *Problem {
	pr := &Problem{Message: err.Error()}
	var list scanner.ErrorList
	if errors.As(err, &list) {
		// Every error on its own line, as go build prints them (the
		// list's Error() gives the first and a count).
		var msg strings.Builder
		for i, e := range list {
			if i > 0 {
				msg.WriteByte('\n')
			}
			msg.WriteString(e.Error())
		}
		pr.Message = msg.String()
		for _, e := range list {
			pr.Positions = append(pr.Positions, Position{File: trimSrc(e.Pos.Filename), Line: e.Pos.Line, Column: e.Pos.Column})
		}
		return pr
	}
	msg := err.Error()
	if i := strings.Index(msg, ": "); i >= 0 && strings.HasPrefix(msg, "interp: ") {
		// "interp: PKG: file.go:1:2: ..." from New.
		msg = msg[i+2:]
		if j := strings.Index(msg, ": "); j >= 0 && !positionRE.MatchString(msg) {
			msg = msg[j+2:]
		}
	}
	for _, line := range strings.Split(msg, "\n") {
		if m := positionRE.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			l, _ := strconv.Atoi(m[2])
			c, _ := strconv.Atoi(m[3])
			pr.Positions = append(pr.Positions, Position{File: trimSrc(m[1]), Line: l, Column: c})
		}
	}
	return pr
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Call runs one method of the session by name ("load", "check", "run")
// on the JSON of its request and returns the JSON of its result: the
// protocol of the interpreter's wasm module (wasm/interp).
func (s *Session) Call(method string, req []byte) ([]byte, error) {
	var out any
	var err error
	switch method {
	case "load":
		var r LoadRequest
		if err = json.Unmarshal(req, &r); err == nil {
			out, err = s.Load(r)
		}
	case "check":
		var r CheckRequest
		if err = json.Unmarshal(req, &r); err == nil {
			out, err = s.Check(r)
		}
	case "run":
		var r RunRequest
		if err = json.Unmarshal(req, &r); err == nil {
			out, err = s.Run(r)
		}
	default:
		return nil, fmt.Errorf("interp: unknown method %q (want load, check or run)", method)
	}
	if err != nil {
		return nil, err
	}
	return json.Marshal(out)
}

// Methods are the names Call accepts.
var Methods = []string{"load", "check", "run"}
