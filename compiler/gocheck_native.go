//go:build !js && !wasip1

package compiler

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"time"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/protoplay/protoplay"
	"github.com/protoplay/protoplay/compiler/gogen"
	"github.com/protoplay/protoplay/interp/gocheck"
)

// The checks of generated Go code (package gocheck): their request and
// result shapes, as the browser's interpreter (interp.Session) has them.
type (
	GoCheckRequest = gocheck.Request
	GoCheckResult  = gocheck.Result
	GoCheckStep    = gocheck.Step
)

// ErrNoGoToolchain is CheckGenerated's error when there is no go command
// to build the generated code with.
var ErrNoGoToolchain = errors.New("no Go toolchain on PATH: the go command is needed to build the generated code")

// CheckGeneratedOptions configure CheckGenerated.
type CheckGeneratedOptions struct {
	// GoCommand is the go command that builds the generated code; "" is
	// the one named "go" on PATH.
	GoCommand string
	// Break names a message type (full name) whose generated Marshal is
	// deliberately broken before building (see gocheck.BreakMarshal): a
	// test hook, like the page's ?breakcheck=TYPE.
	Break string
	// Generator are the generator options the code is generated with, of
	// which CheckGenerated takes those that shape the messages' Go:
	// DefaultAPILevel and APILevelMap (the API level), DropUnknown,
	// EnumMaps and DefaultImportPrefix. Where the packages go is its own
	// choice (one temporary module), and service code is not generated.
	Generator Options
}

// GeneratedCheck is CheckGenerated's report.
type GeneratedCheck struct {
	// Results are the checks of each message type declared in the
	// compiled files (not their imports), in declaration order.
	Results []*GoCheckResult
	// GoCommand is the go command that built the harness.
	GoCommand string
	// APILevels are the Go API each checked message type was generated
	// with ("API_OPEN", "API_HYBRID" or "API_OPAQUE", see gogen.APILevel),
	// by full name.
	APILevels map[string]string
}

// checkModule is the module path of the temporary module CheckGenerated
// builds; every generated package is placed under it.
const checkModule = "protoplaycheck"

// CheckGenerated runs the checks of the generated Go code (package
// gocheck, the same checks the browser runs under its interpreter) on
// res, a compilation without errors (Request.NoGenerate may be set): it
// generates the Go code of res's files and their imports (but the
// well-known types) into a temporary module beside protoplay's runtime,
// builds a harness (gocheck.Harness, with gocheck's exercise.go) with the
// go command, and for every message type declared in res's files asks the
// reference codec (Schema) for the sample's bytes and its verdicts on the
// probes (GoCheckRequests), runs the harness on them and judges the
// outcomes (gocheck.Judge). Its error is ErrNoGoToolchain when there is no
// go command, or says which step failed (generation, writing the module,
// the build with the go command's output, the harness).
func CheckGenerated(ctx context.Context, res *Result, opt CheckGeneratedOptions) (*GeneratedCheck, error) {
	goCmd := opt.GoCommand
	if goCmd == "" {
		var err error
		if goCmd, err = exec.LookPath("go"); err != nil {
			return nil, ErrNoGoToolchain
		}
	}
	schema, err := res.Schema()
	if err != nil {
		return nil, err
	}
	g := opt.Generator
	opts := Rehome(res.Files, checkModule, Options{DefaultAPILevel: g.DefaultAPILevel, APILevelMap: g.APILevelMap,
		DropUnknown: g.DropUnknown, EnumMaps: g.EnumMaps, DefaultImportPrefix: g.DefaultImportPrefix})
	var all []protoreflect.FileDescriptor
	seen := map[string]bool{}
	var walk func(fd protoreflect.FileDescriptor)
	walk = func(fd protoreflect.FileDescriptor) {
		if seen[fd.Path()] {
			return
		}
		seen[fd.Path()] = true
		for i := 0; i < fd.Imports().Len(); i++ {
			walk(fd.Imports().Get(i).FileDescriptor)
		}
		if _, wkt := gogen.WellKnownImportPath(fd.Path()); !wkt {
			all = append(all, fd)
		}
	}
	for _, fd := range res.Files {
		walk(fd)
	}
	gen, diags := gogen.Generate(all, opts)
	if len(diags) > 0 {
		var msgs []string
		for _, d := range diags {
			msgs = append(msgs, d.String())
		}
		return nil, fmt.Errorf("generating the Go code: %s", strings.Join(msgs, "\n"))
	}

	// The message types and their Go types.
	type entry struct {
		name string
		t    gocheck.Type
	}
	byName := map[string]gocheck.Type{}
	levels := map[string]string{}
	for _, fd := range res.Files {
		importPath, _, _ := strings.Cut(opts.ImportMap[fd.Path()], ";")
		eachMessage(fd.Messages(), func(md protoreflect.MessageDescriptor) {
			byName[string(md.FullName())] = gocheck.Type{ImportPath: importPath, GoName: gogen.GoName(md)}
			levels[string(md.FullName())] = gogen.APILevel(md, opts)
		})
	}
	var types []entry
	for _, m := range schema.Messages() {
		if t, ok := byName[m.Name]; ok {
			types = append(types, entry{m.Name, t})
		}
	}
	out := &GeneratedCheck{GoCommand: goCmd, Results: []*GoCheckResult{}, APILevels: map[string]string{}}
	for _, e := range types {
		out.APILevels[e.name] = levels[e.name]
	}
	if len(types) == 0 {
		return out, nil
	}
	if opt.Break != "" {
		t, ok := byName[opt.Break]
		if !ok {
			return nil, fmt.Errorf("break: no message type %s in the generated code", opt.Break)
		}
		broken := false
		for i, f := range gen {
			if path.Dir(path.Join(checkModule, f.Name)) != t.ImportPath {
				continue
			}
			if c, ok := gocheck.BreakMarshal(f.Content, t.GoName); ok {
				gen[i].Content, broken = c, true
				break
			}
		}
		if !broken {
			return nil, fmt.Errorf("break: no Marshal method of %s.%s in the generated code", t.ImportPath, t.GoName)
		}
	}

	dir, err := os.MkdirTemp("", "protoplay-check-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	write := func(name, content string) error {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, []byte(content), 0o644)
	}
	err = write("go.mod", "module "+checkModule+"\n\ngo 1.26\n\nrequire github.com/protoplay/protoplay v0.0.0\n\nreplace github.com/protoplay/protoplay => ./protoplay\n")
	if err == nil {
		err = write("protoplay/go.mod", "module github.com/protoplay/protoplay\n\ngo 1.26\n")
	}
	if err == nil {
		var sources fs.FS
		if sources, err = protoplay.RuntimeFS(); err != nil {
			return nil, fmt.Errorf("the runtime's sources: %w", err)
		}
		err = fs.WalkDir(sources, "runtime", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasSuffix(p, "_test.go") {
				return err
			}
			b, err := fs.ReadFile(sources, p)
			if err != nil {
				return err
			}
			return write(path.Join("protoplay", p), string(b))
		})
	}
	if err == nil {
		// Only exercise.go of package gocheck: the file the interpreter
		// loads too.
		err = write(path.Join("protoplay", strings.TrimPrefix(gocheck.ImportPath, "github.com/protoplay/protoplay/"), "exercise.go"), gocheck.Source)
	}
	for _, f := range gen {
		if err == nil {
			err = write(f.Name, f.Content)
		}
	}
	ts := make([]gocheck.Type, len(types))
	for i, e := range types {
		ts[i] = e.t
	}
	if err == nil {
		err = write("harness/main.go", gocheck.Harness(ts))
	}
	if err != nil {
		return nil, fmt.Errorf("writing the temporary module: %w", err)
	}
	build := exec.CommandContext(ctx, goCmd, "build", "-o", "harness.bin", "./harness")
	build.Dir = dir
	killTreeOnCancel(build)
	// -trimpath: the go command's cache keys the module's packages by
	// import path and content instead of by this temporary folder, so the
	// runtime's packages and unchanged generated ones compile once across
	// checks (and the build's messages name files by import path).
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod -trimpath", "GOPROXY=off")
	if b, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building the generated code with %s failed: %v\n%s", goCmd, err, b)
	}

	// The references, then one harness run on every payload.
	reqs := make([]GoCheckRequest, len(types))
	var input bytes.Buffer
	lines := 0
	for i, e := range types {
		reqs[i] = goCheckRequest(schema, e.name)
		ref, probes, err := reqs[i].Inputs()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.name, err)
		}
		if reqs[i].RefError == "" {
			fmt.Fprintf(&input, "%d %x\n", i, ref)
			lines++
		}
		for _, b := range probes {
			fmt.Fprintf(&input, "%d %x\n", i, b)
			lines++
		}
	}
	harness := exec.CommandContext(ctx, filepath.Join(dir, "harness.bin"))
	harness.Stdin = &input
	killTreeOnCancel(harness)
	var stderr bytes.Buffer
	harness.Stderr = &stderr
	start := time.Now()
	b, err := harness.Output()
	if err != nil {
		return nil, fmt.Errorf("the harness failed: %v\n%s", err, stderr.Bytes())
	}
	elapsed := time.Since(start)
	var outcomes []gocheck.Outcome
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<30)
	for sc.Scan() {
		var o gocheck.Outcome
		if err := json.Unmarshal(sc.Bytes(), &o); err != nil {
			return nil, fmt.Errorf("the harness answered %q: %v", sc.Text(), err)
		}
		outcomes = append(outcomes, o)
	}
	if len(outcomes) != lines {
		return nil, fmt.Errorf("the harness answered %d of %d payloads", len(outcomes), lines)
	}
	for i, e := range types {
		var ref gocheck.Outcome
		if reqs[i].RefError == "" {
			ref, outcomes = outcomes[0], outcomes[1:]
		}
		n := len(reqs[i].Probes)
		r := gocheck.Judge(reqs[i], path.Base(e.t.ImportPath)+"."+e.t.GoName, ref, outcomes[:n])
		outcomes = outcomes[n:]
		r.ElapsedMs = float64(elapsed.Microseconds()) / 1000 / float64(len(types))
		out.Results = append(out.Results, r)
	}
	return out, nil
}

// goCheckRequest asks the reference codec for the checks of message type
// typ, as the page does (site/src/page/checks.ts, referenceFor): the
// sample's encoding (or the reference's error encoding it), the empty
// payload, and, when the sample has a string field at the top level, the
// sample followed by that field again holding invalid UTF-8; each probe
// with the reference's verdict decoding it.
func goCheckRequest(s *Schema, typ string) GoCheckRequest {
	req := GoCheckRequest{Type: typ, Probes: []gocheck.Probe{{Name: "the empty payload"}}}
	sample, err := s.Sample(typ, JSON)
	var ref []byte
	if err == nil {
		ref, err = s.Encode(typ, []byte(sample), JSON, Binary)
	}
	if err != nil {
		req.RefError = err.Error()
	} else {
		req.Hex = hex.EncodeToString(ref)
		if view, _ := s.WireView(typ, ref); view != nil {
			for _, f := range view.Fields {
				if f.Type != "string" || f.Unknown {
					continue
				}
				name := f.Name
				if name == "" {
					name = fmt.Sprintf("field %d", f.Number)
				}
				tag := protowireTag(uint64(f.Number)<<3 | 2)
				req.Probes = append(req.Probes, gocheck.Probe{Name: "invalid UTF-8 in " + name, Hex: req.Hex + hex.EncodeToString(append(tag, 3, 'a', 0xff, 'b'))})
				break
			}
		}
	}
	for i, p := range req.Probes {
		b, _ := gocheck.ParseHex(p.Hex)
		// Written as text, not JSON: JSON cannot write invalid UTF-8 where
		// the schema allows it (proto2 strings), which is no decoding
		// error.
		if _, err := s.Decode(typ, b, DecodeOptions{In: Binary, Out: Text}); err != nil {
			req.Probes[i].RefError = err.Error()
		}
	}
	return req
}

// protowireTag is the varint encoding of v.
func protowireTag(v uint64) []byte {
	var b []byte
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// eachMessage calls f for every message of mds and, depth first, those
// nested in them, leaving out map entries (which have no Go type).
func eachMessage(mds protoreflect.MessageDescriptors, f func(protoreflect.MessageDescriptor)) {
	for i := 0; i < mds.Len(); i++ {
		md := mds.Get(i)
		if md.IsMapEntry() {
			continue
		}
		f(md)
		eachMessage(md.Messages(), f)
	}
}
