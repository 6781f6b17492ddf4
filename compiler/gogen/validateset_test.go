package gogen_test

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
	"github.com/protoplay/protoplay/internal/gentest"
)

// partSchema is an edition 2024 (opaque) file without lazy fields;
// holderSchema has lazy fields of a type of partSchema and of its own
// type Local, which reaches Sub and partSchema's Part.
const partSchema = `edition = "2024";
package pt;
message Part {
  string s = 1;
  int32 r = 2 [features.field_presence = LEGACY_REQUIRED];
  Leaf leaf = 3;
}
message Leaf { string t = 1; }
`

const holderSchema = `edition = "2024";
package hd;
import "part.proto";
message Holder {
  pt.Part ext = 1 [lazy = true];
  Local local = 2 [lazy = true];
  int32 x = 3;
}
message Local {
  pt.Part part = 1;
  string u = 2;
  Sub sub = 3;
}
message Sub { int32 y = 1; }
message Unrelated { Sub sub = 1; }
`

// genFiles generates files of sources with opts (module-rehomed): the
// files, and their contents by base name.
func genFiles(t *testing.T, sources map[string]string, files []string, opts string) ([]gogen.File, map[string]string) {
	t.Helper()
	o, err := gogen.ParseOptions(opts)
	if err != nil {
		t.Fatal(err)
	}
	_, out := gentest.Generate(t, compiler.Request{Sources: sources, Files: files, Options: o})
	m := map[string]string{}
	for _, f := range out {
		m[f.Name[strings.LastIndex(f.Name, "/")+1:]] = f.Content
	}
	return out, m
}

// TestValidateGroupOnlyWhereLazy checks which messages get ValidateGroup:
// none in an opaque file without lazy fields, in a file with lazy fields
// only the types its lazy fields reach within it, whatever other files
// are generated with it; and that a lazy field whose type (or a type it
// reaches) is in another file, without the method, still reports
// exactly the eager decoding's errors, through the fallback.
func TestValidateGroupOnlyWhereLazy(t *testing.T) {
	eagerSchema := strings.NewReplacer(" [lazy = true]", "", "package hd;", "package eg;").Replace(holderSchema)
	sources := map[string]string{"part.proto": partSchema, "holder.proto": holderSchema, "eg.proto": eagerSchema}
	files, all := genFiles(t, sources, []string{"part.proto", "holder.proto", "eg.proto"}, "")
	_, alone := genFiles(t, map[string]string{"part.proto": partSchema}, []string{"part.proto"}, "")
	_, holderAlone := genFiles(t, sources, []string{"holder.proto"}, "")
	if all["part.pb.go"] != alone["part.pb.go"] || all["holder.pb.go"] != holderAlone["holder.pb.go"] {
		t.Error("a file's output depends on the files generated with it")
	}
	decl := regexp.MustCompile(`func \(\*(\w+)\) ValidateGroup\(`)
	has := func(src string) string {
		var names []string
		for _, m := range decl.FindAllStringSubmatch(src, -1) {
			names = append(names, m[1])
		}
		return strings.Join(names, " ")
	}
	for _, c := range []struct{ file, want string }{
		{"part.pb.go", ""},
		{"eg.pb.go", ""},
		{"holder.pb.go", "Local Sub"},
	} {
		if got := has(all[c.file]); got != c.want {
			t.Errorf("%s: ValidateGroup on %q, want on %q", c.file, got, c.want)
		}
	}
	if !strings.Contains(all["holder.pb.go"], "if vx, ok := any((*pt.Part)(nil)).(interface {") {
		t.Error("holder.pb.go does not check pt.Part through the interface assertion")
	}
	if !strings.Contains(all["holder.pb.go"], "xxx_lazy_Ext") {
		t.Error("holder.pb.go: Ext is not lazy")
	}

	enc := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	str := func(num protowire.Number, s string) []byte {
		return protowire.AppendString(protowire.AppendTag(nil, num, protowire.BytesType), s)
	}
	msg := func(num protowire.Number, b []byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(nil, num, protowire.BytesType), b)
	}
	vint := func(num protowire.Number, v uint64) []byte {
		return protowire.AppendVarint(protowire.AppendTag(nil, num, protowire.VarintType), v)
	}
	part := func(s string, r bool, leaf string) []byte {
		b := str(1, s)
		if r {
			b = append(b, vint(2, 7)...)
		}
		return append(b, msg(3, str(1, leaf))...)
	}
	local := func(p []byte, u string) []byte { return enc(msg(1, p), str(2, u), msg(3, vint(1, 3))) }
	inputs := map[string][]byte{
		"good":              enc(msg(1, part("a", true, "b")), msg(2, local(part("c", true, "d"), "e")), vint(3, 4)),
		"ext leaf utf8":     msg(1, part("a", true, "\xff")),
		"ext no r":          msg(1, part("a", false, "b")),
		"ext merged r":      enc(msg(1, part("a", false, "b")), msg(1, vint(2, 1))),
		"local part utf8":   msg(2, local(part("\xfe", true, "d"), "e")),
		"local part no r":   msg(2, local(part("c", false, "d"), "e")),
		"local u utf8":      msg(2, local(part("c", true, "d"), "\xff")),
		"local sub cut":     msg(2, enc(str(2, "e"), []byte{0x1a, 5, 8})),
		"local u wire type": msg(2, vint(2, 1)),
		"ext part cut":      msg(1, []byte{0x0a, 9, 'a'}),
	}
	res := compiler.Compile(context.Background(), compiler.Request{Sources: sources, Files: []string{"holder.proto"}, NoGenerate: true})
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	var cases strings.Builder
	want := map[string]string{}
	for name, b := range inputs {
		m := dynamicpb.NewMessage(res.Files[0].Messages().ByName("Holder"))
		if err := proto.Unmarshal(b, m); err != nil {
			want[name] = "error"
		} else {
			out, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			want[name] = fmt.Sprintf("%x", out)
		}
		fmt.Fprintf(&cases, "\t{%q, %q},\n", name, b)
	}
	program := `package main

import (
	"fmt"
	"strings"

	eg "` + gentest.ModulePath + `/protoplay.local/eg"
	hd "` + gentest.ModulePath + `/protoplay.local/hd"
)

var cases = []struct{ name, b string }{
` + cases.String() + `}

func main() {
	for _, c := range cases {
		l, e := new(hd.Holder), new(eg.Holder)
		lerr, eerr := l.Unmarshal([]byte(c.b)), e.Unmarshal([]byte(c.b))
		if fmt.Sprint(lerr) != strings.ReplaceAll(fmt.Sprint(eerr), "eg.", "hd.") {
			fmt.Printf("%s: lazy Unmarshal: %v, eager Unmarshal: %v\n", c.name, lerr, eerr)
		}
		if lerr != nil {
			fmt.Printf("%s error\n", c.name)
			continue
		}
		b, err := l.Marshal()
		if err != nil {
			fmt.Printf("%s: Marshal: %v\n", c.name, err)
		}
		fmt.Printf("%s %x\n", c.name, b)
	}
}
`
	mod := gentest.WriteModule(t, files, map[string]string{"main.go": program}, false)
	out, err := gentest.Go(t, mod, "run", ".")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		name, v, ok := cutLast(line)
		if !ok || inputs[name] == nil {
			t.Errorf("program: %s", line)
			continue
		}
		got[name] = v
	}
	errs := 0
	for _, w := range want {
		if w == "error" {
			errs++
		}
	}
	t.Logf("protobuf-go rejects %d of %d inputs", errs, len(want))
	if errs < 5 || errs == len(want) {
		t.Fatalf("protobuf-go rejects %d of %d inputs: want both kinds", errs, len(want))
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: protoplay %q, protobuf-go %q", name, got[name], w)
		}
	}
}

// cutLast splits line at its last space.
func cutLast(line string) (string, string, bool) {
	i := strings.LastIndex(line, " ")
	if i < 0 {
		return "", "", false
	}
	return line[:i], line[i+1:], true
}
