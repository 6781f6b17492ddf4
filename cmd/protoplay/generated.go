package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/protoplay/protoplay"
	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
	"github.com/protoplay/protoplay/compiler/payload"
)

// checkModule is the module path of the temporary module that check
// --generated builds; every generated package is placed under it.
const checkModule = "protoplaycheck"

// generatedCheck is the Go source of the check of one message type, run by
// the harness that check --generated builds: it decodes b into a message of
// type %[2]s.%[3]s and describes in one line what the generated methods did.
const generatedCheck = `
func check%[1]d(b []byte) string {
	m := new(%[2]s.%[3]s)
	if err := m.Unmarshal(b); err != nil {
		return "unmarshal: " + err.Error()
	}
	out, err := m.Marshal()
	if err != nil {
		return "marshal: " + err.Error()
	}
	c := m.Clone()
	eq := c.Equal(m) && m.Equal(c)
	back := new(%[2]s.%[3]s)
	berr := back.Unmarshal(out)
	eqBack := berr == nil && back.Equal(m)
	m.Reset()
	cout, cerr := c.Marshal()
	return fmt.Sprintf("out=%%x size=%%d clone-equal=%%v reparsed-equal=%%v clone-out=%%x clone-err=%%v", out, c.Size(), eq, eqBack, cout, cerr)
}
`

// runCheckGenerated is check --generated: it generates the Go code of files
// into a temporary module beside protoplay's runtime, builds a harness with
// the go command on PATH, and for every message type declared in files
// decodes the sample's reference encoding (protobuf-go, deterministic) with
// the generated Unmarshal and requires Marshal to give the same bytes, Size
// their length, Clone to be Equal and independent of the original, and a
// re-parse of the output to be Equal; a sample that cannot have all its
// required fields (a cycle of them) must be refused by the generated
// Unmarshal.
func runCheckGenerated(roots, files []string, stdout, stderr io.Writer) int {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		fmt.Fprintln(stderr, "protoplay check --generated: no Go toolchain on PATH: the go command is needed to build the generated code")
		return 1
	}
	res, err := compileFiles(context.Background(), roots, files, compiler.Request{NoGenerate: true})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if printDiagnostics(stderr, res) {
		return 1
	}
	opts := compiler.Rehome(res.Files, checkModule, compiler.Options{})
	// Generate the imported files too (but the well-known types): the
	// requested ones need their packages.
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
	for _, d := range diags {
		fmt.Fprintln(stderr, d.String())
	}
	if len(diags) > 0 {
		return 1
	}
	dir, err := os.MkdirTemp("", "protoplay-check-")
	if err != nil {
		fmt.Fprintln(stderr, "protoplay check:", err)
		return 1
	}
	defer os.RemoveAll(dir)

	// The harness: one check function per message type of the requested
	// files, and a main that runs check i on each "i hex" line of stdin.
	var mds []protoreflect.MessageDescriptor
	var funcs strings.Builder
	imports := map[string]string{}
	for _, fd := range res.Files {
		if _, wkt := gogen.WellKnownImportPath(fd.Path()); wkt {
			continue
		}
		importPath, _, _ := strings.Cut(opts.ImportMap[fd.Path()], ";")
		alias := fmt.Sprintf("p%d", len(imports))
		eachMessage(fd.Messages(), func(md protoreflect.MessageDescriptor) {
			imports[alias] = importPath
			fmt.Fprintf(&funcs, generatedCheck, len(mds), alias, gogen.GoName(md))
			mds = append(mds, md)
		})
	}
	if len(mds) == 0 {
		fmt.Fprintln(stdout, "0 message types")
		return 0
	}
	var main strings.Builder
	main.WriteString("package main\n\nimport (\n\t\"bufio\"\n\t\"encoding/hex\"\n\t\"fmt\"\n\t\"os\"\n\t\"strconv\"\n\t\"strings\"\n\n")
	for alias, p := range imports {
		fmt.Fprintf(&main, "\t%s %q\n", alias, p)
	}
	main.WriteString(")\n")
	main.WriteString(funcs.String())
	main.WriteString("\nvar checks = []func([]byte) string{")
	for i := range mds {
		fmt.Fprintf(&main, "check%d, ", i)
	}
	main.WriteString(`}

func run(i int, b []byte) (s string) {
	defer func() {
		if p := recover(); p != nil {
			s = fmt.Sprint("panic: ", p)
		}
	}()
	return checks[i](b)
}

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 1<<28)
	for sc.Scan() {
		f := strings.Fields(sc.Text() + " ")
		i, _ := strconv.Atoi(f[0])
		var b []byte
		if len(f) > 1 {
			b, _ = hex.DecodeString(f[1])
		}
		fmt.Println(run(i, b))
	}
}
`)
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
		err = fs.WalkDir(protoplay.RuntimeSources, "runtime", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasSuffix(p, "_test.go") {
				return err
			}
			b, err := fs.ReadFile(protoplay.RuntimeSources, p)
			if err != nil {
				return err
			}
			return write(path.Join("protoplay", p), string(b))
		})
	}
	for _, f := range gen {
		if err == nil {
			err = write(f.Name, f.Content)
		}
	}
	if err == nil {
		err = write("harness/main.go", main.String())
	}
	if err != nil {
		fmt.Fprintln(stderr, "protoplay check:", err)
		return 1
	}
	build := exec.Command(goCmd, "build", "-o", "harness.bin", "./harness")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(stderr, "protoplay check --generated: building the generated code failed: %v\n%s", err, out)
		return 1
	}

	// The reference: each sample's deterministic encoding, and whether it
	// lacks required fields (a cycle of required messages cannot be
	// filled), which Unmarshal must then refuse.
	var input bytes.Buffer
	refs := make([][]byte, len(mds))
	refErrs := make([]error, len(mds))
	for i, md := range mds {
		sample := payload.Sample(md)
		refs[i], err = proto.MarshalOptions{Deterministic: true, AllowPartial: true}.Marshal(sample)
		if err != nil {
			fmt.Fprintf(stderr, "protoplay check: %s: reference marshal: %v\n", md.FullName(), err)
			return 1
		}
		if missingRequired(sample) {
			refErrs[i] = fmt.Errorf("required field not set")
		}
		fmt.Fprintf(&input, "%d %x\n", i, refs[i])
	}
	harness := exec.Command(filepath.Join(dir, "harness.bin"))
	harness.Stdin = &input
	harness.Stderr = stderr
	out, err := harness.Output()
	if err != nil {
		fmt.Fprintf(stderr, "protoplay check --generated: the harness failed: %v\n", err)
		return 1
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(mds) {
		fmt.Fprintf(stderr, "protoplay check --generated: the harness answered %d of %d checks\n", len(lines), len(mds))
		return 1
	}
	failed := 0
	for i, md := range mds {
		got := lines[i]
		ref := refs[i]
		switch {
		case refErrs[i] != nil && strings.HasPrefix(got, "unmarshal: "):
			fmt.Fprintf(stdout, "ok    %s (the sample lacks required fields, a cycle of them, and is refused: %s)\n", md.FullName(), strings.TrimPrefix(got, "unmarshal: "))
		case refErrs[i] != nil:
			failed++
			fmt.Fprintf(stdout, "FAIL  %s: the sample lacks required fields, but the generated Unmarshal accepts it\n", md.FullName())
		default:
			want := fmt.Sprintf("out=%x size=%d clone-equal=true reparsed-equal=true clone-out=%x clone-err=<nil>", ref, len(ref), ref)
			if got == want {
				fmt.Fprintf(stdout, "ok    %s (sample: %d bytes)\n", md.FullName(), len(ref))
				continue
			}
			failed++
			fmt.Fprintf(stdout, "FAIL  %s: %s\n", md.FullName(), describeMismatch(got, want))
		}
	}
	fmt.Fprintf(stdout, "%d message types, %d failed (generated code built with %s)\n", len(mds), failed, goCmd)
	if failed > 0 {
		return 1
	}
	return 0
}

// describeMismatch names the first field of the harness line got that
// differs from want, and for bytes the first differing byte.
func describeMismatch(got, want string) string {
	if !strings.HasPrefix(got, "out=") {
		return got
	}
	g, w := strings.Fields(got), strings.Fields(want)
	for i := range min(len(g), len(w)) {
		if g[i] == w[i] {
			continue
		}
		gk, gv, _ := strings.Cut(g[i], "=")
		_, wv, _ := strings.Cut(w[i], "=")
		if gk == "out" || gk == "clone-out" {
			at := 0
			for at < len(gv) && at < len(wv) && gv[at] == wv[at] {
				at++
			}
			return fmt.Sprintf("%s differs from the reference encoding at byte %d (generated %d bytes, reference %d)", gk, at/2, len(gv)/2, len(wv)/2)
		}
		return fmt.Sprintf("%s is %s, want %s", gk, gv, wv)
	}
	return got
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

// missingRequired reports whether m or a message below it lacks a required
// field. It reads Cardinality, not the descriptor's RequiredNumbers, which
// protocompile leaves empty for editions fields with field_presence =
// LEGACY_REQUIRED (so protobuf-go's own check passes such messages).
func missingRequired(m protoreflect.Message) bool {
	fields := m.Descriptor().Fields()
	for i := 0; i < fields.Len(); i++ {
		if fd := fields.Get(i); fd.Cardinality() == protoreflect.Required && !m.Has(fd) {
			return true
		}
	}
	missing := false
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsMap():
			if fd.MapValue().Message() != nil {
				v.Map().Range(func(_ protoreflect.MapKey, e protoreflect.Value) bool {
					missing = missingRequired(e.Message())
					return !missing
				})
			}
		case fd.Message() == nil:
		case fd.IsList():
			for j := 0; j < v.List().Len() && !missing; j++ {
				missing = missingRequired(v.List().Get(j).Message())
			}
		default:
			missing = missingRequired(v.Message())
		}
		return !missing
	})
	return missing
}
