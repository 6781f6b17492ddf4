package gogen_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/compiler/gogen"
	"github.com/protoplay/protoplay/compiler/payload"
	"github.com/protoplay/protoplay/internal/gentest"
)

// verdictSet is a group of schemas compiled together: their generated Go
// and the compiler/payload schema over the same descriptors.
type verdictSet struct {
	name      string
	roots     []protoreflect.FileDescriptor // files whose messages are tested
	gen       []gogen.File
	importMap map[string]string // .proto path -> "import/path;name"
	schema    *payload.Schema
}

// verdictInput and verdictOutput are testdata/verdict.go.txt's input and
// output records.
type verdictInput struct {
	Key    string `json:"key"`
	Prefix string `json:"prefix,omitempty"`
	Body   string `json:"body"`
}

type verdictOutput struct {
	Err        string `json:"err,omitempty"`
	Marshaled  string `json:"marshaled,omitempty"`
	MarshalErr string `json:"marshal_err,omitempty"`
	Size       int    `json:"size"`
}

// TestVerdicts: the generated code and compiler/payload (what `protoplay
// decode` runs, on google.golang.org/protobuf) accept and reject the same
// bytes. For every message of every testdata/cases schema, and of the
// corpus's test_messages_proto2/proto3 and test_messages_edition2023, it
// builds payloads aimed at the checks made on a whole message: required
// fields (complete values; a sub-message, oneof member, group or map value
// split in two occurrences; one half only; empty and key-only map entries;
// a merge of two inputs, whose verdict must be that of their
// concatenation) and UTF-8 (invalid bytes in every string field, map keys
// and values, and one level down). Each payload goes through the generated
// Unmarshal (or UnmarshalWith then UnmarshalDepth for a merge) and through
// payload.Schema.Decode; the verdicts must agree. What both accept, the
// generated Marshal must re-encode (Size agreeing) to bytes Decode accepts.
func TestVerdicts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	sets := []*verdictSet{casesVerdictSet(t)}
	if shared, ok := gentest.SharedDir(); ok {
		sets = append(sets, corpusVerdictSets(t, filepath.Join(shared, "corpus"))...)
	} else {
		t.Log("../shared is absent: TestVerdicts covers testdata/cases only (set PROTOPLAY_SHARED for the corpus)")
	}

	var gen []gogen.File
	seenFile := map[string]bool{}
	imports := map[string]string{} // import path -> alias
	var registry []string
	var inputs []verdictInput
	type meta struct {
		set  *verdictSet
		md   protoreflect.MessageDescriptor
		what string
	}
	var metas []meta
	for _, set := range sets {
		for _, f := range set.gen {
			if !seenFile[f.Name] {
				seenFile[f.Name] = true
				gen = append(gen, f)
			}
		}
		for _, fd := range set.roots {
			path, _, _ := strings.Cut(set.importMap[fd.Path()], ";")
			gentest.EachMessage(fd.Messages(), func(md protoreflect.MessageDescriptor) {
				alias, ok := imports[path]
				if !ok {
					alias = fmt.Sprintf("p%d", len(imports))
					imports[path] = alias
				}
				key := set.name + ":" + string(md.FullName())
				registry = append(registry, fmt.Sprintf("\t%q: func() message { return new(%s.%s) },", key, alias, gogen.GoName(md)))
				b := &payloadBuilder{finite: map[protoreflect.FullName]bool{}}
				for _, p := range append(b.payloads(md), casePayloads[md.FullName()]...) {
					inputs = append(inputs, verdictInput{Key: key, Prefix: hex.EncodeToString(p.prefix), Body: hex.EncodeToString(p.body)})
					metas = append(metas, meta{set, md, p.what})
				}
			})
		}
	}
	sort.Strings(registry)
	var reg strings.Builder
	byAlias := map[string]string{}
	for path, alias := range imports {
		byAlias[alias] = path
	}
	reg.WriteString("package main\n\n" + gentest.ImportBlock(byAlias))
	reg.WriteString("\nvar registry = map[string]func() message{\n" + strings.Join(registry, "\n") + "\n}\n")
	harness, err := os.ReadFile(filepath.Join("testdata", "verdict.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	mod := gentest.WriteModule(t, gen, map[string]string{
		"verdict/main.go":     string(harness),
		"verdict/registry.go": reg.String(),
	}, false)
	in, err := json.Marshal(inputs)
	if err != nil {
		t.Fatal(err)
	}
	inPath, outPath := filepath.Join(mod, "in.json"), filepath.Join(mod, "out.json")
	if err := os.WriteFile(inPath, in, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := gentest.Go(t, mod, "run", "./verdict", inPath, outPath); err != nil {
		t.Fatalf("verdict harness: %v\n%s", err, out)
	}
	raw, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	var outputs []verdictOutput
	if err := json.Unmarshal(raw, &outputs); err != nil || len(outputs) != len(inputs) {
		t.Fatalf("harness output: %d records for %d inputs, %v", len(outputs), len(inputs), err)
	}

	stats := map[string]int{}
	bad := 0
	for i, o := range outputs {
		in, m := inputs[i], metas[i]
		b, _ := hex.DecodeString(in.Prefix + in.Body)
		_, perr := m.set.schema.Decode(m.md, b, payload.DecodeOptions{In: payload.Binary, Out: payload.Text})
		var problem string
		switch {
		case strings.HasPrefix(o.Err, "panic:"):
			problem = "generated code " + o.Err
		case (o.Err == "") != (perr == nil):
			problem = fmt.Sprintf("verdicts differ: generated %q, payload %v", o.Err, perr)
		case o.Err == "" && o.MarshalErr != "":
			problem = "accepted, then Marshal failed: " + o.MarshalErr
		case o.Err == "" && o.Size != len(o.Marshaled)/2:
			problem = fmt.Sprintf("Size() = %d, Marshal wrote %d bytes", o.Size, len(o.Marshaled)/2)
		case o.Err == "":
			re, _ := hex.DecodeString(o.Marshaled)
			if _, err := m.set.schema.Decode(m.md, re, payload.DecodeOptions{In: payload.Binary, Out: payload.Text}); err != nil {
				problem = fmt.Sprintf("payload rejects the generated re-encoding %s: %v", o.Marshaled, err)
			}
			// protoplay decode's default output, JSON, fails only where
			// it cannot show what was accepted (invalid UTF-8 in a proto2
			// string, an empty google.protobuf.Value), and says so.
			if _, err := m.set.schema.Decode(m.md, b, payload.DecodeOptions{In: payload.Binary, Out: payload.JSON}); err != nil {
				if !strings.Contains(err.Error(), "JSON cannot represent it") {
					problem = fmt.Sprintf("accepted, but JSON output fails: %v", err)
				}
				stats["accepted; JSON cannot show it"]++
			}
		}
		if problem != "" {
			bad++
			if bad <= 25 {
				t.Errorf("%s (%s) prefix %q body %q: %s", in.Key, m.what, in.Prefix, in.Body, problem)
			}
			continue
		}
		switch {
		case o.Err == "":
			stats["accepted"]++
		case strings.Contains(o.Err, "required field"):
			stats["rejected: required field"]++
		case strings.Contains(o.Err, "UTF-8"):
			stats["rejected: UTF-8"]++
		default:
			stats["rejected: other"]++
		}
		if in.Prefix != "" {
			stats["merges"]++
		}
		stats["set "+m.set.name]++
	}
	if bad > 25 {
		t.Errorf("... %d disagreements in all", bad)
	}
	t.Logf("%d payloads over %d sets: %v", len(inputs), len(sets), stats)
	// The payloads must exercise both verdicts of both checks, or the
	// comparison proves nothing.
	for _, k := range []string{"accepted", "rejected: required field", "rejected: UTF-8", "merges"} {
		if stats[k] < 10 {
			t.Errorf("only %d payloads %s", stats[k], k)
		}
	}
}

// casePayloads are the payloads of the case files' headers, tried beside
// the built ones.
var casePayloads = map[protoreflect.FullName][]testPayload{
	"bughunt.b32.Assembly": {
		{what: "case 32 A", body: unhexT("0a 02 08 01 0a 02 10 07")},
		{what: "case 32 B", body: unhexT("12 02 08 01 12 02 10 07")},
		{what: "case 32 C", body: unhexT("22 0b 0a 01 6b 12 02 08 01 12 02 10 07")},
		{what: "case 32 D", prefix: unhexT("0a 02 08 01"), body: unhexT("1a 01 61")},
	},
}

func unhexT(s string) []byte {
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		panic(err)
	}
	return b
}

// casesVerdictSet compiles the testdata/cases schemas that TestCasesBuild
// builds, with the same options.
func casesVerdictSet(t *testing.T) *verdictSet {
	srcs := caseSources(t)
	res := compiler.Compile(context.Background(), compiler.Request{Sources: srcs, Files: buildableCases(srcs), NoGenerate: true})
	if err := res.Err(); err != nil {
		t.Fatalf("compile cases: %v", err)
	}
	fds := res.Files
	opts := gentest.Rehome(fds, gogen.Options{EnumMaps: true})
	gen, diags := gogen.Generate(fds, opts)
	for _, d := range diags {
		t.Fatalf("%s:%d:%d: %s", d.File, d.Line, d.Column, d.Message)
	}
	schema, err := payload.NewSchema(res.Files)
	if err != nil {
		t.Fatal(err)
	}
	return &verdictSet{name: "cases", roots: fds, gen: gen, importMap: opts.ImportMap, schema: schema}
}

// corpusVerdictSets compiles the conformance test messages of the corpus,
// each file generated as its own Go package as TestDifferential does.
func corpusVerdictSets(t *testing.T, dir string) []*verdictSet {
	fsys := os.DirFS(dir)
	var sets []*verdictSet
	for _, in := range []struct {
		name  string
		files []string
	}{
		{"proto2", []string{"google/protobuf/test_messages_proto2.proto"}},
		{"proto3", []string{"google/protobuf/test_messages_proto3.proto"}},
		{"edition2023", []string{"conformance/test_protos/test_messages_edition2023.proto"}},
	} {
		res := compiler.Compile(context.Background(), compiler.Request{FS: fsys, ImportPaths: []string{"protobuf"}, Files: in.files, NoGenerate: true})
		if err := res.Err(); err != nil {
			t.Logf("%s: not compiled, not tested: %v", in.name, err)
			continue
		}
		set := &verdictSet{name: in.name, importMap: map[string]string{}}
		seen := map[string]bool{}
		for _, fd := range res.Files {
			set.roots = append(set.roots, fd)
			opts := rehomePerFile(fd, "verdict/"+in.name)
			out, diags := gogen.Generate(withDeps(fd), opts)
			for _, d := range diags {
				t.Fatalf("%s:%d:%d: %s", d.File, d.Line, d.Column, d.Message)
			}
			for _, f := range out {
				if !seen[f.Name] {
					seen[f.Name] = true
					set.gen = append(set.gen, f)
				}
			}
			for k, v := range opts.ImportMap {
				set.importMap[k] = v
			}
		}
		schema, err := payload.NewSchema(res.Files)
		if err != nil {
			t.Fatal(err)
		}
		set.schema = schema
		sets = append(sets, set)
	}
	return sets
}

// payloadBuilder writes payloads for one message type by hand, with
// protowire, so that they can hold what no encoder writes: a sub-message
// in pieces, entries without a value, invalid UTF-8.
type payloadBuilder struct {
	// finite memoizes whether a type has a finite value with every
	// required field set (a cycle of required message fields has none).
	finite map[protoreflect.FullName]bool
}

type testPayload struct {
	what         string
	prefix, body []byte
}

const maxBuildDepth = 8

func (b *payloadBuilder) isFinite(md protoreflect.MessageDescriptor) bool {
	if f, ok := b.finite[md.FullName()]; ok {
		return f
	}
	b.finite[md.FullName()] = false
	for _, fd := range requiredFields(md) {
		if fd.Message() != nil && !b.isFinite(fd.Message()) {
			return false
		}
	}
	b.finite[md.FullName()] = true
	return true
}

func requiredFields(md protoreflect.MessageDescriptor) []protoreflect.FieldDescriptor {
	var out []protoreflect.FieldDescriptor
	for i := 0; i < md.Fields().Len(); i++ {
		if fd := md.Fields().Get(i); fd.Cardinality() == protoreflect.Required {
			out = append(out, fd)
		}
	}
	return out
}

// piece encodes a value of md with the given fields set, each to a valid
// value (messages complete, when finite).
func (b *payloadBuilder) piece(md protoreflect.MessageDescriptor, fields []protoreflect.FieldDescriptor, depth int) []byte {
	var out []byte
	for _, fd := range fields {
		out = append(out, b.field(fd, depth)...)
	}
	return out
}

// complete encodes a value of md with every required field set, and
// nothing else.
func (b *payloadBuilder) complete(md protoreflect.MessageDescriptor, depth int) []byte {
	return b.piece(md, requiredFields(md), depth)
}

// field encodes one occurrence of fd holding a valid value.
func (b *payloadBuilder) field(fd protoreflect.FieldDescriptor, depth int) []byte {
	switch {
	case fd.IsMap():
		return occurrence(fd, append(b.field(fd.MapKey(), depth), b.field(fd.MapValue(), depth+1)...))
	case fd.Message() != nil:
		if depth >= maxBuildDepth || !b.isFinite(fd.Message()) {
			return nil
		}
		return occurrence(fd, b.complete(fd.Message(), depth+1))
	}
	return scalar(fd)
}

// occurrence encodes fd (a message, group or map entry) holding the
// encoded contents v.
func occurrence(fd protoreflect.FieldDescriptor, v []byte) []byte {
	if fd.Kind() == protoreflect.GroupKind {
		out := protowire.AppendTag(nil, fd.Number(), protowire.StartGroupType)
		out = append(out, v...)
		return protowire.AppendTag(out, fd.Number(), protowire.EndGroupType)
	}
	return protowire.AppendBytes(protowire.AppendTag(nil, fd.Number(), protowire.BytesType), v)
}

// str encodes a string occurrence of fd holding the raw bytes s.
func str(fd protoreflect.FieldDescriptor, s string) []byte {
	return protowire.AppendString(protowire.AppendTag(nil, fd.Number(), protowire.BytesType), s)
}

// scalar encodes one valid, unpacked occurrence of the scalar field fd.
func scalar(fd protoreflect.FieldDescriptor) []byte {
	n := fd.Number()
	switch fd.Kind() {
	case protoreflect.StringKind:
		return str(fd, "ok")
	case protoreflect.BytesKind:
		return str(fd, "\x00\xff")
	case protoreflect.EnumKind:
		v := fd.Enum().Values().Get(0).Number()
		return protowire.AppendVarint(protowire.AppendTag(nil, n, protowire.VarintType), uint64(int64(v)))
	case protoreflect.Fixed32Kind, protoreflect.Sfixed32Kind, protoreflect.FloatKind:
		return protowire.AppendFixed32(protowire.AppendTag(nil, n, protowire.Fixed32Type), 1)
	case protoreflect.Fixed64Kind, protoreflect.Sfixed64Kind, protoreflect.DoubleKind:
		return protowire.AppendFixed64(protowire.AppendTag(nil, n, protowire.Fixed64Type), 1)
	}
	return protowire.AppendVarint(protowire.AppendTag(nil, n, protowire.VarintType), 1)
}

func firstString(md protoreflect.MessageDescriptor) protoreflect.FieldDescriptor {
	for i := 0; i < md.Fields().Len(); i++ {
		if fd := md.Fields().Get(i); fd.Kind() == protoreflect.StringKind {
			return fd
		}
	}
	return nil
}

func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// payloads returns the payloads tried for md; see TestVerdicts.
func (b *payloadBuilder) payloads(md protoreflect.MessageDescriptor) []testPayload {
	base := b.complete(md, 1)
	out := []testPayload{{what: "empty"}, {what: "complete", body: base}}
	if s, err := (proto.MarshalOptions{AllowPartial: true, Deterministic: true}).Marshal(payload.Sample(md)); err == nil {
		out = append(out, testPayload{what: "sample", body: s})
	}
	add := func(what string, parts ...[]byte) {
		out = append(out, testPayload{what: what, body: cat(append([][]byte{base}, parts...)...)})
	}
	merge := func(what string, prefix []byte, body ...[]byte) {
		out = append(out, testPayload{what: "merge " + what, prefix: cat(base, prefix), body: cat(body...)})
	}
	// halves splits the required fields of sub into two pieces.
	halves := func(sub protoreflect.MessageDescriptor) (p1, p2 []byte, ok bool) {
		req := requiredFields(sub)
		if len(req) == 0 || !b.isFinite(sub) {
			return nil, nil, false
		}
		return b.piece(sub, req[:len(req)/2], 2), b.piece(sub, req[len(req)/2:], 2), true
	}
	for i := 0; i < md.Fields().Len(); i++ {
		fd := md.Fields().Get(i)
		name := string(fd.Name())
		switch {
		case fd.IsMap():
			k, v := fd.MapKey(), fd.MapValue()
			key := scalar(k)
			add(name+": empty entry", occurrence(fd, nil))
			add(name+": key only", occurrence(fd, key))
			if k.Kind() == protoreflect.StringKind {
				add(name+": invalid UTF-8 key", occurrence(fd, cat(str(k, "\xff"), b.field(v, 2))))
			}
			if v.Kind() == protoreflect.StringKind {
				add(name+": invalid UTF-8 value", occurrence(fd, cat(key, str(v, "\xff"))))
			}
			if sub := v.Message(); sub != nil {
				if p1, p2, ok := halves(sub); ok {
					add(name+": value split in its entry", occurrence(fd, cat(key, occurrence(v, p1), occurrence(v, p2))))
					add(name+": value half", occurrence(fd, cat(key, occurrence(v, p1))))
					merge(name+": entry replaced by a partial one", occurrence(fd, cat(key, occurrence(v, p1), occurrence(v, p2))), occurrence(fd, cat(key, occurrence(v, p2))))
				}
				if s := firstString(sub); s != nil {
					add(name+": invalid UTF-8 inside the value", occurrence(fd, cat(key, occurrence(v, cat(b.complete(sub, 2), str(s, "\xff"))))))
				}
			}
		case fd.Message() != nil:
			sub := fd.Message()
			add(name+": empty", occurrence(fd, nil))
			if p1, p2, ok := halves(sub); ok {
				add(name+": split", occurrence(fd, p1), occurrence(fd, p2))
				add(name+": split, reversed", occurrence(fd, p2), occurrence(fd, p1))
				add(name+": half", occurrence(fd, p1))
				merge(name+": split", occurrence(fd, p1), occurrence(fd, p2))
				merge(name+": half, untouched by the body", occurrence(fd, p1))
			}
			if s := firstString(sub); s != nil {
				add(name+": invalid UTF-8 inside", occurrence(fd, cat(b.complete(sub, 2), str(s, "\xff"))))
			}
			// Two levels: a message field g of sub split across two
			// occurrences of fd.
			for j := 0; j < sub.Fields().Len(); j++ {
				g := sub.Fields().Get(j)
				if g.IsMap() || g.Message() == nil {
					continue
				}
				if p1, p2, ok := halves(g.Message()); ok {
					add(name+"."+string(g.Name())+": split across "+name, occurrence(fd, cat(b.complete(sub, 2), occurrence(g, p1))), occurrence(fd, occurrence(g, p2)))
					add(name+"."+string(g.Name())+": half", occurrence(fd, cat(b.complete(sub, 2), occurrence(g, p1))))
					break
				}
			}
		case fd.Kind() == protoreflect.StringKind:
			add(name+": invalid UTF-8", str(fd, "\xff"))
			add(name+": invalid UTF-8 (truncated sequence)", str(fd, "\xc3("))
			add(name+": valid UTF-8", str(fd, "é✓"))
		}
	}
	return out
}
