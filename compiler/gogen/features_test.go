package gogen_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
	"github.com/protoplay/protoplay/internal/gentest"
)

// featSchema has a field of each shape the method families treat apart:
// scalars, a repeated scalar, a message, an enum, a map, a oneof, an
// explicit-presence bytes field and a repeated message.
const featSchema = `syntax = "proto3";
package feat;
message M {
  enum Kind { KIND_UNSPECIFIED = 0; KIND_A = 1; KIND_B = 2; }
  message Child { string note = 1; repeated int64 xs = 2; }
  string name = 1;
  int32 id = 2;
  repeated string tags = 3;
  Child child = 4;
  Kind kind = 5;
  map<string, int32> counts = 6;
  oneof choice { string word = 7; Child pick = 8; }
  optional bytes blob = 9;
  repeated Child children = 10;
  double ratio = 11;
}
`

// featValueJSON is the value the generated code of each feature set is
// checked on, in ProtoJSON (read by google.golang.org/protobuf, the
// reference), and featValueGo the same value as a Go literal of the
// generated types (package p).
const (
	featValueJSON = `{"name":"n\u00e9","id":-7,"tags":["a","b"],"child":{"note":"c","xs":["1","-2"]},"kind":"KIND_B","counts":{"k":3,"j":0},"word":"w","blob":"AAE=","children":[{"note":"d"},{}],"ratio":0.5}`
	featValueGo   = `&p.M{Name: "né", Id: -7, Tags: []string{"a", "b"}, Child: &p.M_Child{Note: "c", Xs: []int64{1, -2}}, Kind: p.M_KIND_B, Counts: map[string]int32{"k": 3, "j": 0}, Choice: &p.M_Word{Word: "w"}, Blob: []byte{0, 1}, Children: []*p.M_Child{{Note: "d"}, {}}, Ratio: 0.5}`
)

// featureSets are the features= values TestFeatures generates: each family
// that stands alone, the smallest set holding each of the others, and
// common combinations.
var featureSets = []string{
	"none", "size", "marshal+size", "unmarshal", "equal+size", "clone",
	"marshal+unmarshal+size", "equal+clone+size", "marshal+unmarshal+size+json",
	"marshal+unmarshal+size+json+text", "all",
}

// TestFeatures generates featSchema under each of featureSets and checks,
// in one temporary module, that each builds and vets, has the methods of
// its families and no others, and that what it has agrees with
// google.golang.org/protobuf on featValueJSON: Size and Marshal give the
// reference's deterministic encoding, Unmarshal of it gives the value,
// Equal and Clone hold, MarshalJSON gives the reference's ProtoJSON and
// UnmarshalJSON reads it, UnmarshalText reads the reference's text format
// and MarshalText's output reads back. A program using the set
// marshal+unmarshal+size links neither runtime/protojson nor
// runtime/prototext (go list -deps), where one using every family does.
func TestFeatures(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	src := map[string]string{"feat.proto": featSchema}
	res := compiler.Compile(context.Background(), compiler.Request{Sources: src, NoGenerate: true})
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	// The reference encodings of the value.
	ref := dynamicpb.NewMessage(res.Files[0].Messages().ByName("M"))
	if err := protojson.Unmarshal([]byte(featValueJSON), ref); err != nil {
		t.Fatal(err)
	}
	wantBin, err := proto.MarshalOptions{Deterministic: true}.Marshal(ref)
	if err != nil {
		t.Fatal(err)
	}
	j, err := protojson.Marshal(ref)
	if err != nil {
		t.Fatal(err)
	}
	var wantJSON bytes.Buffer
	if err := json.Compact(&wantJSON, j); err != nil {
		t.Fatal(err)
	}
	wantText, err := prototext.Marshal(ref)
	if err != nil {
		t.Fatal(err)
	}

	var gen []gogen.File
	extra := map[string]string{}
	allMethods := []string{"Size", "Marshal", "MarshalAppend", "MarshalToSizedBuffer", "Unmarshal", "UnmarshalDepth", "UnmarshalWith", "UnmarshalGroup",
		"Equal", "Clone", "MarshalJSON", "UnmarshalJSON", "EncodeProtoJSON", "DecodeProtoJSON", "MarshalText", "UnmarshalText", "String", "EncodeProtoText", "DecodeProtoText"}
	for i, set := range featureSets {
		opts, err := gogen.ParseOptions("features=" + set)
		if err != nil {
			t.Fatalf("features=%s: %v", set, err)
		}
		pkg := fmt.Sprintf("%s/f%d", gentest.ModulePath, i)
		opts.ImportMap = map[string]string{"feat.proto": pkg + ";p"}
		out, diags := gogen.Generate(res.Files, opts)
		for _, d := range diags {
			t.Fatalf("features=%s: %s", set, d.Message)
		}
		code := out[0].Content
		has := func(f gogen.Features) bool { return opts.Features.Has(f) }
		family := map[string]bool{
			"Size": has(gogen.FeatureSize), "Marshal": has(gogen.FeatureMarshal), "MarshalAppend": has(gogen.FeatureMarshal), "MarshalToSizedBuffer": has(gogen.FeatureMarshal),
			"Unmarshal": has(gogen.FeatureUnmarshal), "UnmarshalDepth": has(gogen.FeatureUnmarshal), "UnmarshalWith": has(gogen.FeatureUnmarshal), "UnmarshalGroup": has(gogen.FeatureUnmarshal),
			"Equal": has(gogen.FeatureEqual), "Clone": has(gogen.FeatureClone),
			"MarshalJSON": has(gogen.FeatureJSON), "UnmarshalJSON": has(gogen.FeatureJSON), "EncodeProtoJSON": has(gogen.FeatureJSON), "DecodeProtoJSON": has(gogen.FeatureJSON),
			"MarshalText": has(gogen.FeatureText), "UnmarshalText": has(gogen.FeatureText), "String": has(gogen.FeatureText), "EncodeProtoText": has(gogen.FeatureText), "DecodeProtoText": has(gogen.FeatureText),
		}
		for _, name := range allMethods {
			got := regexp.MustCompile(`func \(m \*M\) ` + name + `\(`).MatchString(code)
			if got != family[name] {
				t.Errorf("features=%s: method M.%s generated = %v, want %v", set, name, got, family[name])
			}
		}
		if got := strings.Contains(code, "func NewMessage_"); got != has(gogen.FeatureJSON) {
			t.Errorf("features=%s: resolver generated = %v", set, got)
		}
		out[0].Name = fmt.Sprintf("f%d/feat.pb.go", i)
		gen = append(gen, out[0])
		extra[fmt.Sprintf("f%d/feat_test.go", i)] = featTestProgram(pkg, opts.Features, wantBin, wantJSON.Bytes(), wantText)
	}
	// The link check: a program of the binary families alone, and one of
	// every family.
	for _, c := range []struct{ dir, pkg string }{{"linkbin", "f6"}, {"linkall", "f10"}} {
		extra[c.dir+"/main.go"] = "package main\n\nimport p \"" + gentest.ModulePath + "/" + c.pkg + "\"\n\nfunc main() {\n\tb, _ := (&p.M{Name: \"x\"}).Marshal()\n\tvar m p.M\n\t_ = m.Unmarshal(b)\n}\n"
	}
	mod := gentest.WriteModule(t, gen, extra, true)
	if out, err := gentest.Go(t, mod, "vet", "./..."); err != nil {
		t.Fatalf("go vet: %v\n%s", err, out)
	}
	if out, err := gentest.Go(t, mod, "test", "-count=1", "./..."); err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	for _, c := range []struct {
		dir  string
		want bool
	}{{"linkbin", false}, {"linkall", true}} {
		out, err := gentest.Go(t, mod, "list", "-deps", "./"+c.dir)
		if err != nil {
			t.Fatalf("go list -deps: %v\n%s", err, out)
		}
		for _, p := range []string{"github.com/protoplay/protoplay/runtime/protojson", "github.com/protoplay/protoplay/runtime/prototext"} {
			if got := strings.Contains(out, p+"\n"); got != c.want {
				t.Errorf("%s (features of %s) links %s: %v, want %v", c.dir, c.dir, p, got, c.want)
			}
		}
	}
}

// featTestProgram is the test of the code generated with features f in
// package pkg: a check of each family f has against the reference's
// encodings of featValueGo.
func featTestProgram(pkg string, f gogen.Features, wantBin, wantJSON, wantText []byte) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package p_test\n\nimport (\n\t\"bytes\"\n\t\"encoding/json\"\n\t\"reflect\"\n\t\"testing\"\n\n\tp %q\n)\n\n", pkg)
	b.WriteString("var _ = bytes.Equal\nvar _ = json.Compact\nvar _ = reflect.DeepEqual\n\n")
	fmt.Fprintf(&b, "var wantBin = []byte(%q)\nvar wantJSON = []byte(%q)\nvar wantText = []byte(%q)\n\n", wantBin, wantJSON, wantText)
	b.WriteString("func value() *p.M { return " + featValueGo + " }\n\n")
	b.WriteString("func TestFamilies(t *testing.T) {\n\tm := value()\n\t_ = m\n")
	if f.Has(gogen.FeatureSize) {
		b.WriteString("\tif n := m.Size(); n != len(wantBin) {\n\t\tt.Errorf(\"Size %d, want %d\", n, len(wantBin))\n\t}\n")
	}
	if f.Has(gogen.FeatureMarshal) {
		b.WriteString("\tif got, err := m.Marshal(); err != nil || !bytes.Equal(got, wantBin) {\n\t\tt.Errorf(\"Marshal %x, %v; want %x\", got, err, wantBin)\n\t}\n")
		b.WriteString("\tif got, err := m.MarshalAppend([]byte{9}); err != nil || !bytes.Equal(got, append([]byte{9}, wantBin...)) {\n\t\tt.Errorf(\"MarshalAppend %x, %v\", got, err)\n\t}\n")
	}
	if f.Has(gogen.FeatureUnmarshal) {
		b.WriteString("\tvar u p.M\n\tif err := u.Unmarshal(wantBin); err != nil || !reflect.DeepEqual(&u, m) {\n\t\tt.Errorf(\"Unmarshal: %v\\n got %#v\\nwant %#v\", err, &u, m)\n\t}\n")
		b.WriteString("\tif err := u.Unmarshal(wantBin[:len(wantBin)-1]); err == nil {\n\t\tt.Error(\"Unmarshal of truncated bytes: no error\")\n\t}\n")
	}
	if f.Has(gogen.FeatureEqual) {
		b.WriteString("\tif !m.Equal(value()) {\n\t\tt.Error(\"Equal of the same value: false\")\n\t}\n\to := value()\n\to.Children[1].Xs = []int64{0}\n\tif m.Equal(o) {\n\t\tt.Error(\"Equal of different values: true\")\n\t}\n")
	}
	if f.Has(gogen.FeatureClone) {
		b.WriteString("\tc := m.Clone()\n\tif !reflect.DeepEqual(c, m) || c == m || c.Child == m.Child || &c.Tags[0] == &m.Tags[0] {\n\t\tt.Errorf(\"Clone: %#v\", c)\n\t}\n")
	}
	if f.Has(gogen.FeatureJSON) {
		b.WriteString("\tj, err := m.MarshalJSON()\n\tvar cj bytes.Buffer\n\tif err != nil || json.Compact(&cj, j) != nil || !bytes.Equal(cj.Bytes(), wantJSON) {\n\t\tt.Errorf(\"MarshalJSON %s, %v; want %s\", j, err, wantJSON)\n\t}\n")
		b.WriteString("\tvar uj p.M\n\tif err := uj.UnmarshalJSON(wantJSON); err != nil || !reflect.DeepEqual(&uj, m) {\n\t\tt.Errorf(\"UnmarshalJSON: %v\\n got %#v\", err, &uj)\n\t}\n")
	}
	if f.Has(gogen.FeatureText) {
		b.WriteString("\tvar ut p.M\n\tif err := ut.UnmarshalText(wantText); err != nil || !reflect.DeepEqual(&ut, m) {\n\t\tt.Errorf(\"UnmarshalText of the reference: %v\\n got %#v\", err, &ut)\n\t}\n")
		b.WriteString("\ttx, err := m.MarshalText()\n\tvar back p.M\n\tif err != nil || back.UnmarshalText(tx) != nil || !reflect.DeepEqual(&back, m) || m.String() != string(tx) {\n\t\tt.Errorf(\"MarshalText %s, %v; read back %#v\", tx, err, &back)\n\t}\n")
	}
	b.WriteString("}\n")
	return b.String()
}

// TestFeaturesRefused: a features= set leaving out a family another calls,
// service code without the binary codec and an unknown family are errors
// that say why, from ParseOptions and from Generate (Options built in Go).
func TestFeaturesRefused(t *testing.T) {
	for _, tc := range []struct{ param, want string }{
		{"features=marshal", "marshal needs size"},
		{"features=equal+clone", "equal needs size"},
		{"features=json", "json needs marshal+unmarshal+size"},
		{"features=marshal+size+json", "json needs unmarshal"},
		{"features=text+marshal+unmarshal+size", "text needs json"},
		{"features=clone,services=grpc", "services=grpc needs features=marshal+unmarshal+size"},
		{"features=bogus", `unknown family "bogus"`},
		{"features=", `unknown family ""`},
	} {
		_, err := gogen.ParseOptions(tc.param)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseOptions(%q): %v, want an error holding %q", tc.param, err, tc.want)
		}
	}
	res := compiler.Compile(context.Background(), compiler.Request{Sources: map[string]string{"feat.proto": featSchema}, NoGenerate: true})
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	_, diags := gogen.Generate(res.Files, gogen.Options{Features: gogen.FeatureMarshal})
	if len(diags) != 1 || !strings.Contains(diags[0].Message, "marshal needs size") {
		t.Errorf("Generate with Features marshal: %v", diags)
	}
	// Values add up, and String gives them back.
	o, err := gogen.ParseOptions("features=marshal+size,features=unmarshal")
	if err != nil || o.Features.String() != "marshal+unmarshal+size" || o.String() != "features=marshal+unmarshal+size" {
		t.Errorf("features adding up: %v, %q, %v", o.Features, o.String(), err)
	}
	for _, s := range []string{"features=all", "features=none", "features=size+equal+clone"} {
		o, err := gogen.ParseOptions(s)
		if err != nil || o.String() != s {
			t.Errorf("ParseOptions(%q).String() = %q, %v", s, o.String(), err)
		}
	}
}
