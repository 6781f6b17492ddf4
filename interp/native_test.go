package interp_test

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
	"github.com/protoplay/protoplay/compiler/payload"
	"github.com/protoplay/protoplay/internal/gentest"
	"github.com/protoplay/protoplay/interp"
)

// checkFunc is the Go source of one check, run both by the interpreter and
// natively: it decodes b into a message of type %[2]s.%[3]s and describes
// everything the generated code did with it in one line.
const checkFunc = `
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
	init := m.CheckInitialized()
	m.Reset()
	cout, cerr := c.Marshal()
	return fmt.Sprintf("out=%%x size=%%d eq=%%v back=%%v init=%%v clone=%%x cerr=%%v", out, c.Size(), eq, eqBack, init, cout, cerr)
}
`

// TestNativeAgrees runs the same checks on the same inputs through the
// generated code twice, interpreted and compiled by the Go toolchain, and
// requires the same results: for every message type, the sample, the
// empty message, the sample with each oneof member set instead, the sample
// with an unknown field appended, the sample cut short by one byte
// (malformed: the errors must agree too), and the sample with invalid UTF-8
// appended to a string field.
func TestNativeAgrees(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	t.Run("cases", func(t *testing.T) {
		srcs, files := caseFiles(t)
		nativeAgrees(t, compiler.Request{Sources: srcs, Files: files, Options: gogen.Options{EnumMaps: true}})
	})
	t.Run("test_messages", func(t *testing.T) {
		shared, ok := gentest.SharedDir()
		if !ok {
			t.Skip("../shared is absent: no corpus to run")
		}
		srcs := map[string]string{}
		root := filepath.Join(shared, "corpus", "protobuf")
		for name, p := range map[string]string{
			"google/protobuf/test_messages_proto3.proto": filepath.Join(root, "google/protobuf/test_messages_proto3.proto"),
			"google/protobuf/test_messages_proto2.proto": filepath.Join(root, "google/protobuf/test_messages_proto2.proto"),
			"test_messages_edition2023.proto":            filepath.Join(root, "conformance/test_protos/test_messages_edition2023.proto"),
		} {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			srcs[name] = string(b)
		}
		nativeAgrees(t, compiler.Request{Sources: srcs, Files: []string{
			// (Not editions/golden/test_messages_proto2_editions.proto: its
			// package is named proto2 too, with the same type names, which
			// the interpreter cannot load beside test_messages_proto2; see
			// TestSameNamedPackages. TestTestMessages runs it alone.)
			"google/protobuf/test_messages_proto3.proto", "google/protobuf/test_messages_proto2.proto", "test_messages_edition2023.proto"}})
	})
}

func nativeAgrees(t *testing.T, req compiler.Request) {
	res, files := gentest.Generate(t, req)
	opts := gentest.Rehome(res.Files, req.Options)
	want := map[string]bool{}
	for _, f := range req.Files {
		want[f] = true
	}
	imports := map[string]string{}
	var funcs strings.Builder
	var types []protoreflect.MessageDescriptor
	for _, fd := range res.Files {
		if !want[fd.Path()] {
			continue
		}
		importPath, _, _ := strings.Cut(opts.ImportMap[fd.Path()], ";")
		alias := fmt.Sprintf("p%d", len(imports))
		if fd.Messages().Len() > 0 {
			imports[alias] = importPath
		}
		gentest.EachMessage(fd.Messages(), func(md protoreflect.MessageDescriptor) {
			fmt.Fprintf(&funcs, checkFunc, len(types), alias, gogen.GoName(md))
			types = append(types, md)
		})
	}
	var inputs []string // "index hex" lines
	for i, md := range types {
		for _, b := range inputsFor(t, md) {
			inputs = append(inputs, fmt.Sprintf("%d %x", i, b))
		}
	}

	// Native.
	imports["fmt"] = "fmt"
	var main strings.Builder
	main.WriteString("package main\n\n")
	for _, p := range []string{"bufio", "encoding/hex", "os", "strconv", "strings"} {
		imports[p[strings.LastIndex(p, "/")+1:]] = p
	}
	main.WriteString(gentest.ImportBlock(imports))
	main.WriteString(funcs.String())
	main.WriteString("\nvar checks = []func([]byte) string{")
	for i := range types {
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
	sc.Buffer(nil, 1<<26)
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
	dir := gentest.WriteModule(t, files, map[string]string{"harness/main.go": main.String()}, false)
	if out, err := gentest.Go(t, dir, "build", "-o", "harness.bin", "./harness"); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(filepath.Join(dir, "harness.bin"))
	cmd.Stdin = strings.NewReader(strings.Join(inputs, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("harness: %v", err)
	}
	native := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(native) != len(inputs) {
		t.Fatalf("harness answered %d inputs of %d", len(native), len(inputs))
	}

	// Interpreted: the same functions.
	ip, err := interp.New(files, interp.Options{Root: gentest.ModulePath})
	if err != nil {
		t.Fatal(err)
	}
	delete(imports, "bufio")
	delete(imports, "hex")
	delete(imports, "os")
	delete(imports, "strconv")
	delete(imports, "strings")
	if _, err := ip.Eval(gentest.ImportBlock(imports) + funcs.String()); err != nil {
		t.Fatalf("interpreting the checks: %v", err)
	}
	fns := make([]func([]byte) string, len(types))
	for i := range types {
		v, err := ip.Eval("check" + strconv.Itoa(i))
		if err != nil {
			t.Fatal(err)
		}
		fns[i] = v.Interface().(func([]byte) string)
	}
	agree, errs := 0, 0
	sc := bufio.NewScanner(strings.NewReader(strings.Join(inputs, "\n")))
	sc.Buffer(nil, 1<<26)
	for k := 0; sc.Scan(); k++ {
		f := strings.Fields(sc.Text() + " ")
		i, _ := strconv.Atoi(f[0])
		var b []byte
		if len(f) > 1 {
			b, _ = hex.DecodeString(f[1])
		}
		got := interpRun(fns[i], b)
		if got != native[k] {
			t.Errorf("%s, input %x:\ninterpreted: %s\nnative:      %s", types[i].FullName(), b, got, native[k])
			continue
		}
		agree++
		if strings.HasPrefix(got, "unmarshal: ") {
			errs++
		}
	}
	t.Logf("%d message types, %d inputs: interpreted and native agree on %d (%d of them Unmarshal errors)", len(types), len(inputs), agree, errs)
}

func interpRun(f func([]byte) string, b []byte) (s string) {
	defer func() {
		if p := recover(); p != nil {
			s = fmt.Sprint("panic: ", p)
		}
	}()
	return f(b)
}

// inputsFor returns the payloads TestNativeAgrees feeds message type md.
func inputsFor(t *testing.T, md protoreflect.MessageDescriptor) [][]byte {
	mo := proto.MarshalOptions{Deterministic: true, AllowPartial: true}
	sample := payload.Sample(md)
	ref, err := mo.Marshal(sample)
	if err != nil {
		t.Fatalf("%s: %v", md.FullName(), err)
	}
	out := [][]byte{ref, {}}
	oneofs := md.Oneofs()
	for i := 0; i < oneofs.Len(); i++ {
		fields := oneofs.Get(i).Fields()
		for j := 0; j < fields.Len(); j++ {
			fd := fields.Get(j)
			m := proto.Clone(sample).(*dynamicpb.Message)
			var v protoreflect.Value
			switch fd.Kind() {
			case protoreflect.MessageKind, protoreflect.GroupKind:
				v = protoreflect.ValueOfMessage(payload.Sample(fd.Message()))
			case protoreflect.EnumKind:
				v = protoreflect.ValueOfEnum(fd.Enum().Values().Get(fd.Enum().Values().Len() - 1).Number())
			case protoreflect.BytesKind:
				v = protoreflect.ValueOfBytes([]byte("x\x00"))
			default:
				v = fd.Default()
			}
			m.Set(fd, v)
			b, err := mo.Marshal(m)
			if err != nil {
				t.Fatalf("%s: %v", fd.FullName(), err)
			}
			out = append(out, b)
		}
	}
	unknown := protowire.Number(1000)
	for md.Fields().ByNumber(unknown) != nil {
		unknown++
	}
	withUnknown := protowire.AppendTag(append([]byte(nil), ref...), unknown, protowire.BytesType)
	withUnknown = protowire.AppendString(withUnknown, "unknown")
	out = append(out, withUnknown)
	if len(ref) > 0 {
		out = append(out, ref[:len(ref)-1])
	}
	// Invalid UTF-8 in string fields: an error where the field validates
	// (proto3, editions), kept bytes where it does not (proto2).
	strs := 0
	for i := 0; i < md.Fields().Len() && strs < 3; i++ {
		fd := md.Fields().Get(i)
		if fd.Kind() != protoreflect.StringKind || fd.IsMap() {
			continue
		}
		strs++
		b := protowire.AppendTag(append([]byte(nil), ref...), fd.Number(), protowire.BytesType)
		out = append(out, protowire.AppendBytes(b, []byte("a\xffb")))
	}
	return out
}
