package gogen_test

import (
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
// and a lazy field of its own; and a lazy field of a type with no
// required field (Flat), whose pending encoding Marshal writes as it is
// when it is canonical, with a field of each kind of canonical form.
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
  Flat flat = 7 [lazy = true];
}
enum Color {
  option features.enum_type = CLOSED;
  RED = 0;
  GREEN = 1;
}
message Flat {
  int32 i = 1;
  sint32 s = 2;
  bool b = 3;
  string str = 4;
  bytes by = 5;
  repeated int32 p = 6;
  repeated int32 u = 7 [features.repeated_field_encoding = EXPANDED];
  fixed32 f = 8;
  double d = 9;
  Flat sub = 10;
  oneof o {
    int32 o1 = 11;
    string o2 = 12;
  }
  Color c = 13;
  uint32 u32 = 14;
  int32 imp = 15 [features.field_presence = IMPLICIT];
  map<int32, string> m = 16;
  Flat lsub = 17 [lazy = true];
  repeated Color cs = 18;
  Flat g = 19 [features.message_encoding = DELIMITED];
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
	vint := func(num protowire.Number, v uint64) []byte {
		return protowire.AppendVarint(protowire.AppendTag(nil, num, protowire.VarintType), v)
	}
	packed := func(vs ...uint64) []byte {
		var b []byte
		for _, v := range vs {
			b = protowire.AppendVarint(b, v)
		}
		return b
	}
	// flat builds a Flat encoding from its fields' records.
	flat := func(recs ...[]byte) []byte { return field(7, cat(recs...)) }
	i7, s3, b1 := vint(1, 7), vint(2, protowire.EncodeZigZag(-3)), vint(3, 1)
	str, by := field(4, []byte("hi")), field(5, []byte{0})
	p := field(6, packed(1, 2, 300))
	u := cat(vint(7, 1), vint(7, 2))
	f8 := protowire.AppendFixed32(protowire.AppendTag(nil, 8, protowire.Fixed32Type), 5)
	d9 := protowire.AppendFixed64(protowire.AppendTag(nil, 9, protowire.Fixed64Type), 0x3ff8000000000000)
	sub := field(10, vint(1, 1))
	c13, u14, imp := vint(13, 1), vint(14, 9), vint(15, 4)
	lsub := field(17, field(4, []byte("x")))
	o1 := vint(11, 5)
	canon := [][]byte{i7, s3, b1, str, by, p, u, f8, d9, sub, c13, u14, imp, lsub, o1}
	with := func(at int, recs ...[]byte) []byte { // canon with recs in place of canon[at]
		out := append(append([][]byte{}, canon[:at]...), recs...)
		return flat(append(out, canon[at+1:]...)...)
	}
	unknown := vint(99, 1)
	group := cat([]byte{19<<3 | 3}, vint(1, 2), []byte{19<<3 | 4})
	return map[string][]byte{
		// Flat: canonical encodings, and one change each that Marshal
		// writes otherwise.
		"flatcanon":     flat(canon...),
		"flatunkend":    flat(append(append([][]byte{}, canon...), unknown)...),
		"flatgroup":     flat(i7, group),
		"flatempty":     flat(),
		"flatorder":     flat(s3, i7),
		"flatlong":      with(0, []byte{1 << 3, 0x87, 0x00}),
		"flatneg5":      with(0, cat([]byte{1 << 3}, []byte{0xff, 0xff, 0xff, 0xff, 0x0f})),
		"flatbool2":     with(2, vint(3, 2)),
		"flatimp0":      with(12, vint(15, 0)),
		"flatexpanded":  with(5, vint(6, 1), vint(6, 2)),
		"flatpackedu":   with(6, field(7, packed(1, 2))),
		"flatdup":       with(0, i7, vint(1, 8)),
		"flatoneof2":    flat(append(append([][]byte{}, canon...), field(12, []byte("o")))...),
		"flatunkmid":    with(0, i7, unknown),
		"flatenum":      with(10, vint(13, 5)),
		"flatu32":       with(11, vint(14, 1<<32)),
		"flatmap":       flat(i7, field(16, cat(vint(1, 1), field(2, []byte("v"))))),
		"flatcs":        flat(i7, field(18, packed(0, 1))),
		"flatlen":       with(3, []byte{4<<3 | 2, 0x82, 0x00, 'h', 'i'}),
		"flatmerge":     cat(flat(i7), flat(s3)),
		"flatsubbad":    with(9, field(10, []byte{1 << 3, 0x80})),
		"flatlsubbad":   with(13, field(17, field(4, []byte("\xff")))),
		"flatbadutf8":   with(3, field(4, []byte("\xfe"))),
		"flatbadpacked": with(5, field(6, []byte{0x80})),
		"flatbadgroup":  flat(i7, []byte{19<<3 | 3}, vint(1, 2), []byte{20<<3 | 4}),
		"flatbadmap":    flat(field(16, cat(vint(1, 1), field(2, []byte("\xff"))))),
		"empty":         nil,
		"tree":          cat(field(6, cat(inner("t", 0), field(2, inner("u", 0))))),
		"all":           cat(field(1, inner("a", 1, field(3, inner("b", 2))...)), field(2, inner("c", 3)), field(3, inner("d", 4)), field(4, inner("e", 5)), []byte{5 << 3, 7}),
		"merged":        cat(field(1, inner("a", 1)), []byte{5 << 3, 1}, field(1, inner("", 0, 4<<3, 9)), field(1, inner("z", 0))),
		"reqlater":      cat(field(3, inner("a", 0)), field(3, inner("", 7))),
		"emptylazy":     cat(field(1, nil)),
		"badutf8":       cat(field(1, inner("\xff", 1))),
		"badutf8d2":     cat(field(2, inner("a", 1, field(3, inner("\xc0", 1))...))),
		"noreq":         cat(field(1, inner("a", 0))),
		"noreqd2":       cat(field(3, inner("a", 1, field(3, inner("b", 0))...))),
		"badtag":        cat(field(1, []byte{0, 1})),
		"truncated":     cat(field(2, []byte{1<<3 | 2, 5, 'a'})),
		"wiretype":      cat([]byte{1 << 3, 1}),
		"outertrunc":    cat([]byte{1<<3 | 2, 9, 2 << 3, 1}),
		"eagerbad":      cat(field(4, inner("\xff", 1))),
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
	opts, err := gogen.ParseOptions("default_api_level=API_OPAQUE,lazy=lz.Outer.named")
	if err != nil {
		t.Fatal(err)
	}
	res, files := gentest.Generate(t, compiler.Request{
		Sources: map[string]string{"lz.proto": lazySchema, "eg.proto": eagerSchema},
		Files:   []string{"lz.proto", "eg.proto"}, Options: opts})
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
	"reflect"
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

		// A fresh decode: does Marshal leave Flat pending (its bytes
		// written as they are), and write what the decoded form would?
		f := new(lz.Outer)
		if err := f.Unmarshal([]byte(c.b)); err != nil {
			panic(err)
		}
		fb, err := f.Marshal()
		if err != nil || string(fb) != string(b) {
			fmt.Printf("%s: Marshal of the untouched message: %x %v\n", c.name, fb, err)
		}
		fmt.Printf("raw %s %v\n", c.name, reflect.ValueOf(f).Elem().FieldByName("xxx_hidden_Flat").IsNil() && f.HasFlat())
	}

	// ValidateGroup against UnmarshalDepth on Flat encodings and their
	// mutations (every prefix; every byte replaced by a few values): it
	// accepts exactly what the decoder accepts, and what it calls
	// canonical Marshal writes back byte for byte.
	var mutants [][]byte
	for _, c := range cases {
		switch c.name {
		case "flatcanon", "flatgroup", "flatmap", "flatunkend", "flatexpanded":
		default:
			continue
		}
		if c.b[0] != 7<<3|2 || c.b[1] >= 0x80 {
			panic("not one Flat field with a one-byte length: " + c.name)
		}
		base := []byte(c.b[2:])
		for i := 0; i <= len(base); i++ {
			mutants = append(mutants, base[:i])
		}
		for i := range base {
			for _, x := range []byte{0x00, 0x01, 0x7f, 0x80, 0xff, base[i] ^ 1, base[i] ^ 0x40} {
				mb := append([]byte{}, base...)
				mb[i] = x
				mutants = append(mutants, mb)
			}
		}
	}
	canonical := 0
	for _, mb := range mutants {
		for _, depth := range []int{100, 2, 1} {
			k, canon := (*lz.Flat)(nil).ValidateGroup(mb, 0, depth)
			var f lz.Flat
			err := f.UnmarshalDepth(mb, depth)
			if (k >= 0) != (err == nil) || k >= 0 && k != len(mb) {
				fmt.Printf("mutant %x depth %d: ValidateGroup %d, UnmarshalDepth %v\n", mb, depth, k, err)
				continue
			}
			if canon {
				canonical++
				if out, err := f.Marshal(); err != nil || string(out) != string(mb) {
					fmt.Printf("mutant %x: canonical, but Marshal writes %x %v\n", mb, out, err)
				}
			}
		}
	}
	fmt.Printf("mutants %d %d\n", len(mutants), canonical)

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
	raw := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if r, ok := strings.CutPrefix(line, "mutants "); ok {
			var n, canonical int
			if _, err := fmt.Sscan(r, &n, &canonical); err != nil || n < 1000 || canonical == 0 {
				t.Errorf("ValidateGroup checked on %q mutants (total, canonical): want over 1000, some canonical", r)
			}
			t.Logf("ValidateGroup agreed with UnmarshalDepth on %d Flat encodings at 3 depths (%d canonical checks)", n, canonical)
			continue
		}
		if r, ok := strings.CutPrefix(line, "raw "); ok {
			name, v, _ := strings.Cut(r, " ")
			raw[name] = v == "true"
			continue
		}
		name, v, ok := strings.Cut(line, " ")
		if _, known := want[name]; !ok || !known {
			t.Errorf("unexpected output: %s", line)
			continue
		}
		got[name] = v
	}
	for _, name := range names {
		if name == "flatenum" {
			// An undeclared closed-enum value: protoplay keeps it with
			// the unknown fields, as the spec asks; protobuf-go treats
			// every enum as open (protobuf.dev, "Enum Behavior": Go is
			// non-conformant), so it stays the field's value there. The
			// lazy and eager outputs are still compared above.
			continue
		}
		if got[name] != want[name] {
			t.Errorf("%s: protoplay %q, protobuf-go %q", name, got[name], want[name])
		}
	}
	// Marshal copies Flat's bytes exactly for the canonical encodings.
	wantRaw := map[string]bool{"flatcanon": true, "flatunkend": true, "flatgroup": true, "flatempty": true}
	for _, name := range names {
		if want[name] == "error" {
			continue
		}
		if raw[name] != wantRaw[name] {
			t.Errorf("%s: Marshal wrote Flat's pending bytes: %v, want %v", name, raw[name], wantRaw[name])
		}
	}
}
