package gogen_test

import (
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

// lazySchema has an opaque message with a field of each way to be lazy
// ([lazy = true], [unverified_lazy = true], the option lazy=) and an
// eager one, of a type with a string (UTF-8 validated), a required field
// and a lazy field of its own.
const lazySchema = `edition = "2023";
package lz;
message Inner {
  string s = 1;
  int32 r = 2 [features.field_presence = LEGACY_REQUIRED];
  Inner child = 3 [lazy = true];
  repeated int32 v = 4;
}
message Outer {
  Inner lazy = 1 [lazy = true];
  Inner unverified = 2 [unverified_lazy = true];
  Inner named = 3;
  Inner eager = 4;
  int32 x = 5;
  Tree tree = 6 [lazy = true];
}
message Tree {
  string s = 1;
  Tree child = 2 [lazy = true];
}
`

// lazyInputs are wire encodings of lz.Outer: valid ones (occurrences of a
// lazy field that merge, a required field given by a later occurrence)
// and bad ones (bad UTF-8, a required field missing, a bad tag, a
// truncated length, the wrong wire type), at depth 1 and 2.
func lazyInputs() map[string][]byte {
	inner := func(s string, r int32, more ...byte) []byte {
		var b []byte
		if s != "" {
			b = protowire.AppendTag(b, 1, protowire.BytesType)
			b = protowire.AppendString(b, s)
		}
		if r != 0 {
			b = protowire.AppendTag(b, 2, protowire.VarintType)
			b = protowire.AppendVarint(b, uint64(r))
		}
		return append(b, more...)
	}
	field := func(num protowire.Number, v []byte) []byte {
		b := protowire.AppendTag(nil, num, protowire.BytesType)
		return protowire.AppendBytes(b, v)
	}
	cat := func(bs ...[]byte) []byte {
		var out []byte
		for _, b := range bs {
			out = append(out, b...)
		}
		return out
	}
	return map[string][]byte{
		"empty":      nil,
		"tree":       cat(field(6, cat(inner("t", 0), field(2, inner("u", 0))))),
		"all":        cat(field(1, inner("a", 1, field(3, inner("b", 2))...)), field(2, inner("c", 3)), field(3, inner("d", 4)), field(4, inner("e", 5)), []byte{5 << 3, 7}),
		"merged":     cat(field(1, inner("a", 1)), []byte{5 << 3, 1}, field(1, inner("", 0, 4<<3, 9)), field(1, inner("z", 0))),
		"reqlater":   cat(field(3, inner("a", 0)), field(3, inner("", 7))),
		"emptylazy":  cat(field(1, nil)),
		"badutf8":    cat(field(1, inner("\xff", 1))),
		"badutf8d2":  cat(field(2, inner("a", 1, field(3, inner("\xc0", 1))...))),
		"noreq":      cat(field(1, inner("a", 0))),
		"noreqd2":    cat(field(3, inner("a", 1, field(3, inner("b", 0))...))),
		"badtag":     cat(field(1, []byte{0, 1})),
		"truncated":  cat(field(2, []byte{1<<3 | 2, 5, 'a'})),
		"wiretype":   cat([]byte{1 << 3, 1}),
		"outertrunc": cat([]byte{1<<3 | 2, 9, 2 << 3, 1}),
		"eagerbad":   cat(field(4, inner("\xff", 1))),
	}
}

// TestLazyFields: an opaque message's lazy fields (all three ways of
// naming one) decode as the eager ones do: Unmarshal's errors, byte for
// byte, and the accessors, Marshal, Equal, Clone, ProtoJSON and text of
// the result are those of the same schema without lazy fields, and
// Unmarshal succeeds and Marshal writes what protobuf-go's do. Then many
// goroutines read one freshly decoded message at once, under -race.
func TestLazyFields(t *testing.T) {
	eagerSchema := strings.NewReplacer(" [lazy = true]", "", " [unverified_lazy = true]", "", "package lz;", "package eg;").Replace(lazySchema)
	res := compiler.Compile(context.Background(), compiler.Request{
		Sources: map[string]string{"lz.proto": lazySchema, "eg.proto": eagerSchema},
		Files:   []string{"lz.proto", "eg.proto"}, NoGenerate: true})
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	opts, err := gogen.ParseOptions("default_api_level=API_OPAQUE,lazy=lz.Outer.named")
	if err != nil {
		t.Fatal(err)
	}
	files, diags := gogen.Generate(res.Files, gogen.Rehome(res.Files, gentest.ModulePath, opts))
	for _, d := range diags {
		t.Fatalf("%s:%d:%d: %s", d.File, d.Line, d.Column, d.Message)
	}
	var lzGo string
	for _, f := range files {
		if strings.HasSuffix(f.Name, "/lz.pb.go") {
			lzGo = f.Content
		}
	}
	for _, want := range []string{"xxx_lazy_Lazy", "xxx_lazy_Unverified", "xxx_lazy_Named", "xxx_lazy_Child"} {
		if !regexp.MustCompile(`\n\t` + want + ` +\[\]byte\n`).MatchString(lzGo) {
			t.Errorf("lz.pb.go has no %q: a lazy field is eager", want)
		}
	}
	if strings.Contains(lzGo, "xxx_lazy_Eager") {
		t.Error("lz.pb.go: the eager field is lazy")
	}

	// protobuf-go's verdict on each input: the error's presence and the
	// deterministic encoding of the result.
	outer := res.Files[0].Messages().ByName("Outer")
	inputs := lazyInputs()
	var names []string
	for name := range inputs {
		names = append(names, name)
	}
	want := map[string]string{}
	var cases strings.Builder
	for _, name := range names {
		m := dynamicpb.NewMessage(outer)
		if err := proto.Unmarshal(inputs[name], m); err != nil {
			want[name] = "error"
		} else {
			b, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			want[name] = fmt.Sprintf("%x", b)
		}
		fmt.Fprintf(&cases, "\t{%q, %q},\n", name, inputs[name])
	}

	program := `package main

import (
	"fmt"
	"os"
	"strings"
	"sync"

	eg "` + gentest.ModulePath + `/protoplay.local/eg"
	lz "` + gentest.ModulePath + `/protoplay.local/lz"
)

var cases = []struct {
	name string
	b    string
}{
` + cases.String() + `}

// view prints what a message holds through each family of methods.
func view(m interface {
	Marshal() ([]byte, error)
	MarshalJSON() ([]byte, error)
	String() string
	CheckInitialized() error
}) string {
	b, err := m.Marshal()
	j, jerr := m.MarshalJSON()
	return fmt.Sprintf("wire %x %v | json %s %v | text %s | init %v", b, err, j, jerr, m.String(), m.CheckInitialized())
}

func main() {
	for _, c := range cases {
		l, e := new(lz.Outer), new(eg.Outer)
		lerr, eerr := l.Unmarshal([]byte(c.b)), e.Unmarshal([]byte(c.b))
		if fmt.Sprint(lerr) != strings.ReplaceAll(fmt.Sprint(eerr), "eg.", "lz.") {
			fmt.Printf("%s: lazy Unmarshal: %v\neager Unmarshal: %v\n", c.name, lerr, eerr)
		}
		if lerr != nil {
			fmt.Printf("%s error\n", c.name)
			continue
		}
		// The clone and its Equal are read before the original is.
		lc := l.Clone()
		if !lc.Equal(l) || !l.Equal(lc) {
			fmt.Printf("%s: the clone differs\n", c.name)
		}
		lv, ev := view(l), strings.ReplaceAll(view(e), "eg.", "lz.")
		if lv != ev {
			fmt.Printf("%s: lazy %s\neager %s\n", c.name, lv, ev)
		}
		acc := func(hl, he bool, sl, se string) {
			if hl != he || sl != se {
				fmt.Printf("%s: accessors: lazy %v %q, eager %v %q\n", c.name, hl, sl, he, se)
			}
		}
		acc(l.HasLazy(), e.HasLazy(), l.GetLazy().GetS(), e.GetLazy().GetS())
		acc(l.HasUnverified(), e.HasUnverified(), l.GetUnverified().GetChild().GetS(), e.GetUnverified().GetChild().GetS())
		acc(l.HasNamed(), e.HasNamed(), fmt.Sprint(l.GetNamed().GetV()), fmt.Sprint(e.GetNamed().GetV()))
		b, err := l.Marshal()
		if err != nil {
			fmt.Printf("%s: Marshal: %v\n", c.name, err)
		}
		fmt.Printf("%s %x\n", c.name, b)
	}

	// Set, Clear and Has on a field with bytes pending.
	var m lz.Outer
	for _, c := range cases {
		if c.name == "all" {
			if err := m.Unmarshal([]byte(c.b)); err != nil {
				panic(err)
			}
		}
	}
	if !m.HasNamed() || !m.HasLazy() {
		fmt.Println("Has: false for a field with bytes pending")
	}
	m.SetLazy(lz.Inner_builder{S: new(string), R: new(int32)}.Build())
	m.ClearNamed()
	if !m.HasLazy() || m.GetLazy().GetS() != "" || m.HasNamed() || m.GetNamed() != nil {
		fmt.Println("Set/Clear: wrong state")
	}

	// Many readers of one freshly decoded message (of a type with no
	// required field: its CheckInitialized decodes nothing): each gets
	// the same decoded sub-messages (run with -race).
	for _, c := range cases {
		if c.name != "tree" {
			continue
		}
		var o lz.Outer
		if err := o.Unmarshal([]byte(c.b)); err != nil {
			panic(err)
		}
		m := o.GetTree()
		const n = 16
		got := make([]*lz.Tree, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				switch i % 4 {
				case 0:
					_ = m.String()
				case 1:
					_, _ = m.Marshal()
				case 2:
					_ = m.Equal(m.Clone())
				}
				_ = m.HasChild()
				got[i] = m.GetChild()
				_ = got[i].GetChild().GetS()
			}()
		}
		wg.Wait()
		for i := range got {
			if got[i] != got[0] || got[i] == nil {
				fmt.Println("readers got different messages")
				os.Exit(1)
			}
		}
	}
}
`
	mod := gentest.WriteModule(t, files, map[string]string{"main.go": program}, false)
	out, err := gentest.Go(t, mod, "run", "-race", ".")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		name, v, ok := strings.Cut(line, " ")
		if _, known := want[name]; !ok || !known {
			t.Errorf("unexpected output: %s", line)
			continue
		}
		got[name] = v
	}
	for _, name := range names {
		if got[name] != want[name] {
			t.Errorf("%s: protoplay %q, protobuf-go %q", name, got[name], want[name])
		}
	}
}
