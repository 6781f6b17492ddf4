package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/protoplay/protoplay/compiler"
	"github.com/protoplay/protoplay/internal/gentest"
)

// protobufRoot returns the protobuf source tree of the shared corpus, or
// skips the test.
func protobufRoot(t *testing.T) string {
	t.Helper()
	shared, ok := gentest.SharedDir()
	if !ok {
		t.Skip("../shared is absent: skipping the conformance testee (it is generated from ../shared/corpus/protobuf; set PROTOPLAY_SHARED)")
	}
	root := filepath.Join(shared, "corpus", "protobuf")
	if _, err := os.Stat(filepath.Join(root, "conformance", "conformance.proto")); err != nil {
		t.Skipf("no conformance.proto under %s: skipping the conformance testee", root)
	}
	return root
}

// TestConformance builds the testee from the corpus, then acts as a small
// conformance runner: it sends binary payloads built with protobuf-go
// (dynamicpb over the same schemas) and checks the answers.
func TestConformance(t *testing.T) {
	root := protobufRoot(t)
	if testing.Short() {
		t.Skip("builds the conformance testee")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	res, err := Generate(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	for f, why := range res.LeftOut {
		t.Logf("left out of the testee: %s: %s", f, why)
	}
	bin := filepath.Join(t.TempDir(), "conformance-testee")
	if err := Build(ctx, res, gentest.RepoRoot(), t.TempDir(), bin, true); err != nil {
		t.Fatal(err)
	}

	schemas := compileSchemas(t, root, res.Included)
	r := startRunner(t, ctx, bin, schemas)
	var cases []testCase
	for _, s := range res.Included[1:] {
		for full := range s.Messages {
			md := schemas.message(t, full)
			switch {
			case strings.HasSuffix(full, "TestAllRequiredTypesProto2"):
				cases = append(cases, requiredCases(md)...)
			case full == "protobuf_editions_test.proto2.Proto2Required":
				cases = append(cases, splitRequiredCases(t, md)...)
			default:
				cases = append(cases, jsonValueCases(t, md, r.types)...)
				cases = append(cases, jsonInputCases(t, md, r.types)...)
				cases = append(cases, textValueCases(t, md, r.textTypes)...)
				cases = append(cases, textInputCases(t, md, r.textTypes)...)
				cases = append(cases, validCases(t, md)...)
				cases = append(cases, malformedCases(t, md)...)
				cases = append(cases, overlongTagCases(t, md)...)
				cases = append(cases, utf8Cases(t, md)...)
			}
		}
	}
	cases = append(cases, protocolCases()...)
	sort.SliceStable(cases, func(i, j int) bool { return cases[i].name < cases[j].name })

	passed, failed, skipped := 0, 0, 0
	jsonPassed, jsonFailed, jsonSkipped := 0, 0, 0
	textPassed, textFailed, textSkipped := 0, 0, 0
	for _, c := range cases {
		isJSON := c.json != "" || c.output == "JSON"
		isText := c.textSet || c.text != "" || c.output == "TEXT_FORMAT"
		switch r.run(t, c) {
		case outcomePass:
			passed++
			if isJSON {
				jsonPassed++
			}
			if isText {
				textPassed++
			}
		case outcomeSkip:
			skipped++
			if isJSON {
				jsonSkipped++
			}
			if isText {
				textSkipped++
			}
		default:
			failed++
			if isJSON {
				jsonFailed++
			}
			if isText {
				textFailed++
			}
		}
	}
	r.close(t)
	summary := fmt.Sprintf("conformance: %d passed, %d failed, %d skipped (JSON: %d passed, %d failed, %d skipped; text: %d passed, %d failed, %d skipped)",
		passed, failed, skipped, jsonPassed, jsonFailed, jsonSkipped, textPassed, textFailed, textSkipped)
	fmt.Println(summary)
	t.Log(summary)
}

// schemaSet holds the linked descriptors of the testee's schemas.
type schemaSet struct{ files []protoreflect.FileDescriptor }

func compileSchemas(t *testing.T, root string, included []Schema) schemaSet {
	t.Helper()
	var names []string
	for _, s := range included {
		names = append(names, s.File)
	}
	res := compiler.Compile(context.Background(), compiler.Request{FS: os.DirFS(root), Files: names, NoGenerate: true})
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	return schemaSet{files: res.Files}
}

func (s schemaSet) message(t *testing.T, full string) protoreflect.MessageDescriptor {
	t.Helper()
	for _, f := range s.files {
		if !strings.HasPrefix(full, string(f.Package())+".") {
			continue
		}
		if md := f.Messages().ByName(protoreflect.Name(strings.TrimPrefix(full, string(f.Package())+"."))); md != nil {
			return md
		}
	}
	t.Fatalf("no message %s in the testee's schemas", full)
	return nil
}

// testCase is one request and the answer expected.
type testCase struct {
	name        string
	messageType string
	protobuf    []byte // protobuf_payload, when json and text are empty
	json, text  string
	output      string // requested output format; "" means PROTOBUF
	want        string // the ConformanceResponse result field expected
	wantPayload []byte // for want == "protobuf_payload"
	// wantJSON is, for want == "json_payload", JSON that protojson reads
	// as the same message as the answer (ref's type, or messageType's).
	wantJSON string
	// textSet says text is the payload (an empty text is a valid one).
	textSet bool
	// wantText is, for want == "text_payload", text that prototext reads
	// as the same message as the answer; wantTextExact, when set, is the
	// answer itself (for output prototext cannot read, such as unknown
	// fields by number).
	wantText, wantTextExact string
	// printUnknown sets the request's print_unknown_fields.
	printUnknown bool
	// category is the request's test_category ("" for the default).
	category string
	ref      protoreflect.MessageDescriptor
}

type outcome int

const (
	outcomeFail outcome = iota
	outcomePass
	outcomeSkip
)

// runner talks to one testee process.
type runner struct {
	cmd     *exec.Cmd
	stderr  *bytes.Buffer
	in      io.WriteCloser
	out     *bufio.Reader
	reqType protoreflect.MessageType
	resType protoreflect.MessageType
	format  protoreflect.EnumDescriptor
	types   *dynamicpb.Types // the schemas' types, for protojson
	// textTypes are the schemas' types rebuilt by protodesc, for
	// prototext (see textTypes).
	textTypes *dynamicpb.Types
}

func startRunner(t *testing.T, ctx context.Context, bin string, schemas schemaSet) *runner {
	t.Helper()
	cmd := exec.CommandContext(ctx, bin)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	req := schemas.message(t, "conformance.ConformanceRequest")
	return &runner{
		cmd:       cmd,
		stderr:    &stderr,
		in:        in,
		out:       bufio.NewReader(out),
		reqType:   dynamicpb.NewMessageType(req),
		resType:   dynamicpb.NewMessageType(schemas.message(t, "conformance.ConformanceResponse")),
		format:    req.Fields().ByName("requested_output_format").Enum(),
		types:     schemas.jsonTypes(t),
		textTypes: schemas.textTypes(t),
	}
}

// close ends the testee's input; it must then exit with status 0.
func (r *runner) close(t *testing.T) {
	t.Helper()
	r.in.Close()
	if err := r.cmd.Wait(); err != nil {
		t.Errorf("testee: %v\n%s", err, r.stderr.String())
	}
}

// run sends c and checks the answer, reporting a failure with t.Errorf.
func (r *runner) run(t *testing.T, c testCase) outcome {
	t.Helper()
	req := r.reqType.New()
	f := req.Descriptor().Fields()
	switch {
	case c.json != "":
		req.Set(f.ByName("json_payload"), protoreflect.ValueOfString(c.json))
	case c.text != "" || c.textSet:
		req.Set(f.ByName("text_payload"), protoreflect.ValueOfString(c.text))
	default:
		req.Set(f.ByName("protobuf_payload"), protoreflect.ValueOfBytes(c.protobuf))
	}
	output := c.output
	if output == "" {
		output = "PROTOBUF"
	}
	req.Set(f.ByName("requested_output_format"), protoreflect.ValueOfEnum(r.format.Values().ByName(protoreflect.Name(output)).Number()))
	req.Set(f.ByName("message_type"), protoreflect.ValueOfString(c.messageType))
	if c.printUnknown {
		req.Set(f.ByName("print_unknown_fields"), protoreflect.ValueOfBool(true))
	}
	if c.category != "" {
		cat := f.ByName("test_category")
		req.Set(cat, protoreflect.ValueOfEnum(cat.Enum().Values().ByName(protoreflect.Name(c.category)).Number()))
	}
	b, err := proto.Marshal(req.Interface())
	if err != nil {
		t.Fatal(err)
	}
	var size [4]byte
	binary.LittleEndian.PutUint32(size[:], uint32(len(b)))
	if _, err := r.in.Write(append(size[:], b...)); err != nil {
		t.Fatalf("%s: writing to the testee: %v", c.name, err)
	}
	if _, err := io.ReadFull(r.out, size[:]); err != nil {
		t.Fatalf("%s: reading from the testee: %v", c.name, err)
	}
	b = make([]byte, binary.LittleEndian.Uint32(size[:]))
	if _, err := io.ReadFull(r.out, b); err != nil {
		t.Fatalf("%s: reading from the testee: %v", c.name, err)
	}
	resp := r.resType.New()
	if err := proto.Unmarshal(b, resp.Interface()); err != nil {
		t.Fatalf("%s: decoding the ConformanceResponse: %v", c.name, err)
	}
	od := resp.Descriptor().Oneofs().ByName("result")
	got := resp.WhichOneof(od)
	if got == nil {
		t.Errorf("%s: response has no result", c.name)
		return outcomeFail
	}
	detail := fmt.Sprint(resp.Get(got).Interface())
	if string(got.Name()) != c.want {
		in := hexOf(c.protobuf)
		if c.json != "" {
			in = c.json
		}
		if c.textSet {
			in = c.text
		}
		t.Errorf("%s: got %s (%.300s), want %s\n  input: %.600s", c.name, got.Name(), detail, c.want, in)
		return outcomeFail
	}
	switch c.want {
	case "skipped":
		return outcomeSkip
	case "json_payload":
		if err := r.sameJSON(c, resp.Get(got).String()); err != nil {
			t.Errorf("%s: %v", c.name, err)
			return outcomeFail
		}
	case "text_payload":
		if c.wantTextExact != "" {
			if s := resp.Get(got).String(); s != c.wantTextExact {
				t.Errorf("%s: got text %q, want %q", c.name, s, c.wantTextExact)
				return outcomeFail
			}
		} else if err := r.sameText(c, resp.Get(got).String()); err != nil {
			t.Errorf("%s: %v", c.name, err)
			return outcomeFail
		}
	case "protobuf_payload":
		payload := resp.Get(got).Bytes()
		if !bytes.Equal(payload, c.wantPayload) {
			same := "decodes to a different message"
			if c.ref != nil {
				a, b := dynamicpb.NewMessage(c.ref), dynamicpb.NewMessage(c.ref)
				if proto.Unmarshal(payload, a) == nil && proto.Unmarshal(c.wantPayload, b) == nil && proto.Equal(a, b) {
					same = "decodes to the same message (field order differs)"
				}
			}
			i := 0
			for i < len(payload) && i < len(c.wantPayload) && payload[i] == c.wantPayload[i] {
				i++
			}
			from := max(0, i-24)
			t.Errorf("%s: re-serialization differs from protobuf-go's at byte %d of %d (want %d bytes); it %s\n  input: %s\n  got[%d:]:  %s\n  want[%d:]: %s",
				c.name, i, len(payload), len(c.wantPayload), same, hexOf(c.protobuf),
				from, hexOf(payload[from:min(len(payload), i+60)]), from, hexOf(c.wantPayload[from:min(len(c.wantPayload), i+60)]))
			return outcomeFail
		}
	}
	return outcomePass
}

func hexOf(b []byte) string {
	if len(b) > 400 {
		return hex.EncodeToString(b[:400]) + fmt.Sprintf("... (%d bytes)", len(b))
	}
	return hex.EncodeToString(b)
}

// protocolCases are about the protocol, not the payloads.
func protocolCases() []testCase {
	const p3 = "protobuf_test_messages.proto3.TestAllTypesProto3"
	return []testCase{
		{name: "Protocol.JsonInput", messageType: p3, json: `{"optionalInt32": 1}`, output: "JSON", want: "json_payload", wantJSON: `{"optionalInt32": 1}`},
		{name: "Protocol.JsonInputProtobufOutput", messageType: p3, json: `{"optionalInt32": 1}`, want: "protobuf_payload", wantPayload: []byte{0x08, 0x01}},
		{name: "Protocol.ProtobufInputJsonOutput", messageType: p3, protobuf: []byte{0x08, 0x01}, output: "JSON", want: "json_payload", wantJSON: `{"optionalInt32": 1}`},
		{name: "Protocol.TextInput", messageType: p3, text: "optional_int32: 1", output: "TEXT_FORMAT", want: "text_payload", wantText: "optional_int32: 1"},
		{name: "Protocol.TextInputProtobufOutput", messageType: p3, text: "optional_int32: 1", want: "protobuf_payload", wantPayload: []byte{0x08, 0x01}},
		{name: "Protocol.ProtobufInputTextOutput", messageType: p3, protobuf: []byte{0x08, 0x01}, output: "TEXT_FORMAT", want: "text_payload", wantText: "optional_int32: 1"},
		{name: "Protocol.EmptyTextInput", messageType: p3, textSet: true, output: "TEXT_FORMAT", want: "text_payload", wantText: ""},
		// A message type the testee was not built with is a feature it
		// does not support: skipped, not a runtime error (which always
		// counts as a failure).
		{name: "Protocol.UnknownMessageType", messageType: "no.such.Message", protobuf: []byte{0x08, 0x01}, want: "skipped"},
		{name: "Protocol.UnknownMessageTypeJSON", messageType: "no.such.Message", json: `{}`, output: "JSON", want: "skipped"},
		{name: "Protocol.EmptyMessageType", messageType: "", protobuf: []byte{0x08, 0x01}, want: "skipped"},
		{name: "Protocol.EditionUnstableType", messageType: "protobuf_test_messages.edition_unstable.TestAllTypesEditionUnstable", protobuf: []byte{0x08, 0x01}, want: "skipped"},
		{name: "Protocol.FailureSet", messageType: "conformance.FailureSet", protobuf: nil, want: "protobuf_payload", wantPayload: []byte{}},
		{name: "Protocol.EmptyPayload", messageType: p3, protobuf: nil, want: "protobuf_payload", wantPayload: []byte{}},
	}
}

// reencoded is a case whose input protobuf-go accepts (required fields
// checked): the testee must answer protobuf-go's deterministic encoding of
// it.
func reencoded(t *testing.T, md protoreflect.MessageDescriptor, name string, input []byte) testCase {
	t.Helper()
	m := dynamicpb.NewMessage(md)
	if err := proto.Unmarshal(input, m); err != nil {
		t.Fatalf("%s.%s: protobuf-go rejects the input: %v", md.FullName(), name, err)
	}
	want, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if want == nil {
		want = []byte{}
	}
	return testCase{name: string(md.FullName()) + "." + name, messageType: string(md.FullName()),
		protobuf: input, want: "protobuf_payload", wantPayload: want, ref: md}
}

// rejected is a case the testee must answer with parse_error.
func rejected(md protoreflect.MessageDescriptor, name string, input []byte) testCase {
	return testCase{name: string(md.FullName()) + "." + name, messageType: string(md.FullName()), protobuf: input, want: "parse_error"}
}

// rejectedByBoth is rejected, for an input that protobuf-go rejects too.
func rejectedByBoth(t *testing.T, md protoreflect.MessageDescriptor, name string, input []byte) testCase {
	t.Helper()
	if err := proto.Unmarshal(input, dynamicpb.NewMessage(md)); err == nil {
		t.Fatalf("%s.%s: protobuf-go accepts the input", md.FullName(), name)
	}
	return rejected(md, name, input)
}

// longVarint encodes v as a varint of exactly size bytes (continuation
// bits on zero bytes after the value's own).
func longVarint(v uint64, size int) []byte {
	b := protowire.AppendVarint(nil, v)
	for len(b) < size {
		b[len(b)-1] |= 0x80
		b = append(b, 0)
	}
	return b
}

// overlongTagCases: a tag is a varint holding field_number << 3 |
// wire_type, which fits 32 bits and so at most 5 bytes. The C++ and upb
// parsers reject a tag written in more bytes; protobuf-go reads any varint
// of up to 10 bytes as a tag (so these inputs are not checked against it).
// The testee must answer parse_error for 6- to 10-byte tags wherever a tag
// is read (top level, nested message, group, unknown group, map entry,
// END_GROUP), and read non-minimal tags of 2 to 5 bytes as their value.
func overlongTagCases(t *testing.T, md protoreflect.MessageDescriptor) []testCase {
	t.Helper()
	fields := md.Fields()
	num := func(name string) protowire.Number { return fields.ByName(protoreflect.Name(name)).Number() }
	tag := func(n protowire.Number, typ protowire.Type) uint64 { return protowire.EncodeTag(n, typ) }
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	var cases []testCase
	for size := 6; size <= 10; size++ {
		cases = append(cases, rejected(md, fmt.Sprintf("Malformed.OverlongTag%dBytes", size),
			cat(longVarint(tag(num("optional_int32"), protowire.VarintType), size), []byte{0x01})))
	}
	for size := 2; size <= 5; size++ {
		cases = append(cases, reencoded(t, md, fmt.Sprintf("Tag.NonMinimal%dBytes", size),
			cat(longVarint(tag(num("optional_int32"), protowire.VarintType), size), []byte{0x05})))
	}
	unknownGroup := protowire.AppendTag(nil, 12005, protowire.StartGroupType)
	unknownEnd := protowire.AppendTag(nil, 12005, protowire.EndGroupType)
	cases = append(cases,
		rejected(md, "Malformed.OverlongTagUnknownField", cat(longVarint(tag(12001, protowire.VarintType), 6), []byte{0x01})),
		rejected(md, "Malformed.OverlongTagLenField", cat(longVarint(tag(num("optional_string"), protowire.BytesType), 7), protowire.AppendString(nil, "a"))),
		rejected(md, "Malformed.OverlongTagInUnknownGroup", cat(unknownGroup, longVarint(tag(1, protowire.VarintType), 6), []byte{0x01}, unknownEnd)),
		rejected(md, "Malformed.OverlongEndGroupTag", cat(unknownGroup, longVarint(tag(12005, protowire.EndGroupType), 6))),
		rejected(md, "Malformed.OverlongTagInMapEntry", cat(protowire.AppendTag(nil, num("map_int32_int32"), protowire.BytesType),
			protowire.AppendBytes(nil, cat(longVarint(tag(1, protowire.VarintType), 8), []byte{0x01, 0x10, 0x02})))),
	)
	if nested := fields.ByName("optional_nested_message"); nested != nil {
		a := nested.Message().Fields().ByName("a").Number()
		cases = append(cases, rejected(md, "Malformed.OverlongTagNested", cat(protowire.AppendTag(nil, nested.Number(), protowire.BytesType),
			protowire.AppendBytes(nil, cat(longVarint(tag(a, protowire.VarintType), 6), []byte{0x01})))))
	}
	for i := 0; i < fields.Len(); i++ {
		if g := fields.Get(i); g.Kind() == protoreflect.GroupKind && !g.IsList() {
			inner := g.Message().Fields().Get(0)
			cases = append(cases, rejected(md, "Malformed.OverlongTagInGroup."+string(g.Name()), cat(protowire.AppendTag(nil, g.Number(), protowire.StartGroupType),
				longVarint(tag(inner.Number(), protowire.VarintType), 9), []byte{0x01}, protowire.AppendTag(nil, g.Number(), protowire.EndGroupType))))
			break
		}
	}
	return cases
}

// utf8Cases: where the schema checks UTF-8 (proto3, editions with
// utf8_validation VERIFY), invalid UTF-8 in a string anywhere (singular,
// repeated, oneof, map key or value, a nested message) is a parse error,
// so it can never reach the output; where it does not (proto2, editions
// with NONE), the same bytes are kept and must come back unchanged, with
// no serialize_error. Bytes in unknown fields are never checked.
// (Through the binary protocol no input yields a message that holds
// invalid UTF-8 in a checked field, so serialize_error has no case here;
// JSON and text input are skipped by the testee.)
func utf8Cases(t *testing.T, md protoreflect.MessageDescriptor) []testCase {
	t.Helper()
	fields := md.Fields()
	str := func(name string, v []byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(nil, fields.ByName(protoreflect.Name(name)).Number(), protowire.BytesType), v)
	}
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	bad := []byte{'a', 0xff}
	inputs := map[string][]byte{
		"Singular":       str("optional_string", bad),
		"RepeatedSecond": cat(str("repeated_string", []byte("ok")), str("repeated_string", bad)),
		"Oneof":          str("oneof_string", bad),
		"MapKey":         str("map_string_string", cat([]byte{0x0a, 0x02}, bad, []byte{0x12, 0x00})),
		"MapValue":       str("map_string_string", cat([]byte{0x0a, 0x01, 'k', 0x12, 0x02}, bad)),
		"Overlong":       str("optional_string", []byte{0xc0, 0xaf}),
		"Truncated":      str("optional_string", []byte{0xe2, 0x82}),
		"AboveMax":       str("optional_string", []byte{0xf4, 0x90, 0x80, 0x80}),
	}
	if nested := fields.ByName("optional_nested_message"); nested != nil {
		core := nested.Message().Fields().ByName("corecursive")
		inner := protowire.AppendBytes(protowire.AppendTag(nil, core.Number(), protowire.BytesType), str("optional_string", bad))
		inputs["Nested"] = protowire.AppendBytes(protowire.AppendTag(nil, nested.Number(), protowire.BytesType), inner)
	}
	names := make([]string, 0, len(inputs))
	for n := range inputs {
		names = append(names, n)
	}
	sort.Strings(names)
	var cases []testCase
	for _, n := range names {
		switch {
		case md.ParentFile().Syntax() == protoreflect.Proto3:
			cases = append(cases, rejectedByBoth(t, md, "InvalidUTF8."+n, inputs[n]))
		case verifiesUTF8(md):
			// protobuf-go decides UTF-8 checking from the syntax alone
			// for descriptors it did not build (these are protocompile's),
			// so it is not asked about editions files.
			cases = append(cases, rejected(md, "InvalidUTF8."+n, inputs[n]))
		default:
			cases = append(cases, reencoded(t, md, "InvalidUTF8NotChecked."+n, inputs[n]))
		}
	}
	cases = append(cases, reencoded(t, md, "InvalidUTF8InUnknownField", cat(protowire.AppendTag(nil, 12004, protowire.BytesType), protowire.AppendBytes(nil, bad))))
	return cases
}

// splitRequiredCases (for protobuf_editions_test.proto2.Proto2Required: 15
// required scalars and a required sub_message with the same 15): a
// message field given more than once is merged, and required fields are
// checked on the merged message, so a required sub-message may arrive in
// pieces that are each incomplete. Complete results must be answered with
// the merged message; incomplete ones are parse errors.
func splitRequiredCases(t *testing.T, md protoreflect.MessageDescriptor) []testCase {
	t.Helper()
	r := rand.New(rand.NewSource(3))
	m := populate(md, r, 0)
	if err := proto.CheckInitialized(m.Interface()); err != nil {
		t.Fatalf("%s: populated message is not complete: %v", md.FullName(), err)
	}
	subField := md.Fields().ByName("sub_message")
	sub := mustMarshal(t, m.Get(subField).Message().Interface())
	m.Clear(subField)
	top, err := proto.MarshalOptions{Deterministic: true, AllowPartial: true}.Marshal(m.Interface())
	if err != nil {
		t.Fatal(err)
	}
	subRecs, topRecs := splitRecords(t, sub), splitRecords(t, top)
	lp := func(parts ...[]byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(nil, subField.Number(), protowire.BytesType), bytes.Join(parts, nil))
	}
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	half := len(subRecs) / 2
	firstHalf, secondHalf := bytes.Join(subRecs[:half], nil), bytes.Join(subRecs[half:], nil)
	var perField []byte
	for _, rec := range subRecs {
		perField = append(perField, lp(rec)...)
	}
	topHalf := len(topRecs) / 2
	return []testCase{
		reencoded(t, md, "Required.Complete", cat(top, lp(sub))),
		reencoded(t, md, "Required.SubMessageSplitInTwo", cat(top, lp(firstHalf), lp(secondHalf))),
		reencoded(t, md, "Required.SubMessageEmptyThenComplete", cat(top, lp(), lp(sub))),
		reencoded(t, md, "Required.SubMessageOneFieldPerPiece", cat(top, perField)),
		reencoded(t, md, "Required.SubMessagePiecesAroundTopLevel", cat(lp(firstHalf), top, lp(secondHalf))),
		reencoded(t, md, "Required.TopLevelAndSubMessageInterleaved", cat(bytes.Join(topRecs[:topHalf], nil), lp(secondHalf), bytes.Join(topRecs[topHalf:], nil), lp(firstHalf))),
		rejectedByBoth(t, md, "Required.SubMessagePiecesStillMissingOne", cat(top, lp(firstHalf), lp(bytes.Join(subRecs[half:len(subRecs)-1], nil)))),
		rejectedByBoth(t, md, "Required.SubMessageAbsent", top),
		rejectedByBoth(t, md, "Required.SubMessageEmpty", cat(top, lp())),
		rejectedByBoth(t, md, "Required.TopLevelMissingOne", cat(bytes.Join(topRecs[1:], nil), lp(sub))),
	}
}

// splitRecords splits an encoding into its records.
func splitRecords(t *testing.T, b []byte) [][]byte {
	t.Helper()
	var out [][]byte
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		k := protowire.ConsumeFieldValue(num, typ, b[max(n, 0):])
		if n < 0 || k < 0 {
			t.Fatalf("splitRecords: bad encoding %x", b)
		}
		out = append(out, b[:n+k])
		b = b[n+k:]
	}
	return out
}

// requiredCases: TestAllRequiredTypesProto2 has required fields that
// recurse (recursive_message is required), so no finite message is
// complete; an empty payload must be rejected for the missing fields.
func requiredCases(md protoreflect.MessageDescriptor) []testCase {
	return []testCase{{
		name: string(md.FullName()) + ".MissingRequired", messageType: string(md.FullName()),
		protobuf: []byte{}, want: "parse_error",
	}}
}

// validCases are payloads protobuf-go accepts; the testee must answer with
// exactly the bytes protobuf-go's parse of them serializes to with
// Deterministic set (protoc-gen-go's order: fields by number, oneof members
// last, map entries by key, unknown fields last).
func validCases(t *testing.T, md protoreflect.MessageDescriptor) []testCase {
	t.Helper()
	det := proto.MarshalOptions{Deterministic: true}
	var cases []testCase
	// addSpec adds a case whose answer is given: where protobuf-go departs
	// from the protobuf spec (it keeps undeclared values of closed enums in
	// the field; the spec, protoc's C++ and protoplay move them to the
	// unknown fields).
	addSpec := func(name string, input, want []byte) {
		cases = append(cases, testCase{
			name: string(md.FullName()) + "." + name, messageType: string(md.FullName()),
			protobuf: input, want: "protobuf_payload", wantPayload: want, ref: md,
		})
	}
	add := func(name string, input []byte) {
		m := dynamicpb.NewMessage(md)
		if err := proto.Unmarshal(input, m); err != nil {
			t.Fatalf("%s.%s: protobuf-go rejects the input: %v", md.FullName(), name, err)
		}
		want, err := det.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if want == nil {
			want = []byte{}
		}
		cases = append(cases, testCase{
			name: string(md.FullName()) + "." + name, messageType: string(md.FullName()),
			protobuf: input, want: "protobuf_payload", wantPayload: want, ref: md,
		})
	}
	for seed := int64(1); seed <= 8; seed++ {
		m := populate(md, rand.New(rand.NewSource(seed)), 0)
		b, err := det.Marshal(m.Interface())
		if err != nil {
			t.Fatal(err)
		}
		// This file's own encoder (for inputs in other orders and
		// encodings) must mean what protobuf-go means.
		back := dynamicpb.NewMessage(md)
		if err := proto.Unmarshal(encode(m, false), back); err != nil || !proto.Equal(m.Interface(), back) {
			t.Fatalf("%s seed %d: number-order encoding does not round-trip through protobuf-go: %v", md.FullName(), seed, err)
		}
		add(fmt.Sprintf("Populated.Seed%d", seed), b)
		add(fmt.Sprintf("Populated.Seed%d.NumberOrder", seed), encode(m, false))
		add(fmt.Sprintf("Populated.Seed%d.ReversedFields", seed), reversedFields(m))
		add(fmt.Sprintf("Populated.Seed%d.UnknownFields", seed), append(b, unknownFields()...))
		add(fmt.Sprintf("Populated.Seed%d.UnknownFieldsFirst", seed), append(unknownFields(), b...))
		add(fmt.Sprintf("Populated.Seed%d.PackingSwapped", seed), swapPacking(m))
	}

	// Each oneof member alone, with a zero value too: a set member with a
	// zero value is still set.
	for i := 0; i < md.Oneofs().Len(); i++ {
		od := md.Oneofs().Get(i)
		if od.IsSynthetic() {
			continue
		}
		for j := 0; j < od.Fields().Len(); j++ {
			fd := od.Fields().Get(j)
			r := rand.New(rand.NewSource(int64(j)))
			m := dynamicpb.NewMessage(md)
			m.Set(fd, value(fd, r, 0))
			add("Oneof."+string(fd.Name()), mustMarshal(t, m))
			z := dynamicpb.NewMessage(md)
			if fd.Message() != nil {
				z.Set(fd, protoreflect.ValueOfMessage(dynamicpb.NewMessage(fd.Message())))
			} else {
				z.Set(fd, fd.Default())
			}
			add("Oneof."+string(fd.Name())+".Zero", mustMarshal(t, z))
		}
		// Two members in a row: the last one wins.
		if od.Fields().Len() >= 2 {
			a, b := od.Fields().Get(0), od.Fields().Get(od.Fields().Len()-1)
			ma, mb := dynamicpb.NewMessage(md), dynamicpb.NewMessage(md)
			ma.Set(a, value(a, rand.New(rand.NewSource(1)), 0))
			mb.Set(b, value(b, rand.New(rand.NewSource(2)), 0))
			add("Oneof.LastWins", append(mustMarshal(t, ma), mustMarshal(t, mb)...))
			add("Oneof.LastWinsReversed", append(mustMarshal(t, mb), mustMarshal(t, ma)...))
		}
	}

	fields := md.Fields()
	tag := func(name string, typ protowire.Type) []byte {
		return protowire.AppendTag(nil, fields.ByName(protoreflect.Name(name)).Number(), typ)
	}
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	varint := func(v uint64) []byte { return protowire.AppendVarint(nil, v) }

	// Scalars: the last value wins; varints longer than their type.
	add("Scalar.LastWins", cat(tag("optional_int32", 0), varint(1), tag("optional_int32", 0), varint(2)))
	add("Scalar.Int32From64BitVarint", cat(tag("optional_int32", 0), varint(0xFFFFFFFF00000001)))
	add("Scalar.Uint32From64BitVarint", cat(tag("optional_uint32", 0), varint(0x1234567800000005)))
	add("Scalar.BoolFromLargeVarint", cat(tag("optional_bool", 0), varint(1<<40)))
	add("Scalar.NonMinimalVarint", cat(tag("optional_int64", 0), []byte{0x81, 0x80, 0x80, 0x00}))
	add("Scalar.NegativeInt32", cat(tag("optional_int32", 0), varint(uint64(math.MaxUint64))))
	add("Scalar.NegativeZeroDouble", cat(tag("optional_double", 1), protowire.AppendFixed64(nil, math.Float64bits(math.Copysign(0, -1)))))
	add("Scalar.NaNFloat", cat(tag("optional_float", 5), protowire.AppendFixed32(nil, 0x7fc00001)))
	// A nested message given twice is merged.
	nested := fields.ByName("optional_nested_message")
	if nested != nil {
		a := nested.Message().Fields().ByName("a")
		inner1 := cat(protowire.AppendTag(nil, a.Number(), 0), varint(7))
		inner2 := cat(protowire.AppendTag(nil, nested.Message().Fields().ByName("corecursive").Number(), protowire.BytesType), varint(2), tag("optional_int32", 0), varint(9))
		lp := func(b []byte) []byte { return protowire.AppendBytes(nil, b) }
		add("Message.Merged", cat(tag("optional_nested_message", 2), lp(inner1), tag("optional_nested_message", 2), lp(inner2)))
	}
	// Maps: the last entry for a key wins; missing key or value means the
	// zero value; fields of an entry in any order.
	if mf := fields.ByName("map_int32_int32"); mf != nil {
		entry := func(parts ...[]byte) []byte {
			return cat(tag("map_int32_int32", 2), protowire.AppendBytes(nil, cat(parts...)))
		}
		k := func(v uint64) []byte { return cat([]byte{0x08}, varint(v)) }
		v := func(x uint64) []byte { return cat([]byte{0x10}, varint(x)) }
		add("Map.DuplicateKeyLastWins", cat(entry(k(1), v(2)), entry(k(1), v(3))))
		add("Map.MissingKey", entry(v(5)))
		add("Map.MissingValue", entry(k(5)))
		add("Map.EmptyEntry", entry())
		add("Map.ValueBeforeKey", entry(v(4), k(3)))
		add("Map.UnknownFieldInEntry", entry(k(1), []byte{0x18, 0x05}, v(2)))
	}
	if mf := fields.ByName("map_string_nested_message"); mf != nil {
		add("Map.MessageValueMissing", cat(tag("map_string_nested_message", 2), protowire.AppendBytes(nil, cat([]byte{0x0a, 0x01, 'k'}))))
	}
	// Enums: an undeclared value stays in the field (open) or moves to the
	// unknown fields (closed).
	add("Enum.Undeclared", cat(tag("optional_nested_enum", 0), varint(12345)))
	add("Enum.Negative", cat(tag("optional_nested_enum", 0), varint(uint64(math.MaxUint64))))
	if f := fields.ByName("repeated_nested_enum"); f != nil {
		// Expanded on purpose: one element per record.
		e := func(v uint64) []byte {
			return cat(protowire.AppendTag(nil, f.Number(), protowire.VarintType), varint(v))
		}
		in := cat(e(1), e(777), e(2))
		switch {
		case f.Enum().IsClosed() && !f.IsPacked():
			addSpec("Enum.RepeatedUndeclared", in, cat(e(1), e(2), e(777)))
		case f.Enum().IsClosed():
			addSpec("Enum.RepeatedUndeclared", in, cat(tag("repeated_nested_enum", 2), protowire.AppendBytes(nil, []byte{1, 2}), e(777)))
		default:
			add("Enum.RepeatedUndeclared", in)
		}
	}
	if f := fields.ByName("map_string_nested_enum"); f != nil {
		entry := func(k string, v uint64) []byte {
			return cat(tag("map_string_nested_enum", 2), protowire.AppendBytes(nil, cat([]byte{0x0a}, protowire.AppendString(nil, k), []byte{0x10}, varint(v))))
		}
		in := cat(entry("a", 777), entry("b", 1))
		if f.MapValue().Enum().IsClosed() {
			// The whole entry goes to the unknown fields.
			addSpec("Enum.MapUndeclared", in, cat(entry("b", 1), entry("a", 777)))
		} else {
			add("Enum.MapUndeclared", in)
		}
	}
	// A known field with the wrong wire type is an unknown field.
	add("WireType.Mismatch", cat(tag("optional_int32", protowire.Fixed32Type), protowire.AppendFixed32(nil, 5)))
	// Extensions (proto2) are kept like unknown fields.
	if md.ExtensionRanges().Len() > 0 {
		n := md.ExtensionRanges().Get(0)[0]
		add("Extension.Unknown", cat(protowire.AppendTag(nil, n, 0), varint(99)))
	}
	// Strings that are not UTF-8 where the schema does not check.
	if !verifiesUTF8(md) {
		add("String.InvalidUTF8NotChecked", cat(tag("optional_string", 2), protowire.AppendBytes(nil, []byte{0xff, 0xfe})))
	}
	return cases
}

// malformedCases are payloads every protobuf parser must reject.
func malformedCases(t *testing.T, md protoreflect.MessageDescriptor) []testCase {
	t.Helper()
	fields := md.Fields()
	tag := func(name string, typ protowire.Type) []byte {
		return protowire.AppendTag(nil, fields.ByName(protoreflect.Name(name)).Number(), typ)
	}
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	bad := map[string][]byte{
		"TruncatedTag":           {0x80},
		"TruncatedVarint":        cat(tag("optional_int32", 0), []byte{0x80}),
		"TruncatedFixed32":       cat(tag("optional_fixed32", 5), []byte{1, 2}),
		"TruncatedFixed64":       cat(tag("optional_fixed64", 1), []byte{1, 2, 3}),
		"LengthPastEnd":          cat(tag("optional_string", 2), []byte{5, 'a', 'b'}),
		"LengthOverflow":         cat(tag("optional_bytes", 2), protowire.AppendVarint(nil, math.MaxUint64), []byte{'a'}),
		"NestedTruncatedVarint":  cat(tag("optional_nested_message", 2), []byte{2, 0x08, 0x80}),
		"NestedLengthPastParent": cat(tag("optional_nested_message", 2), []byte{3, 0x12, 0x05, 0x08}),
		"OverlongVarint":         cat(tag("optional_int32", 0), bytes.Repeat([]byte{0xff}, 10), []byte{0x01}),
		"OverlongVarintTag":      cat(bytes.Repeat([]byte{0x88}, 10), []byte{0x01}),
		"WireType6":              {0x0e, 0x00},
		"WireType7":              {0x0f, 0x00},
		"FieldNumberZero":        {0x00, 0x01},
		"FieldNumberTooLarge":    cat(protowire.AppendVarint(nil, uint64(1<<29)<<3), []byte{0x01}),
		"UnmatchedEndGroup":      protowire.AppendTag(nil, 1000, protowire.EndGroupType),
		"UnterminatedGroup":      cat(protowire.AppendTag(nil, 1000, protowire.StartGroupType), []byte{0x08, 0x01}),
		"MismatchedEndGroup":     cat(protowire.AppendTag(nil, 1000, protowire.StartGroupType), protowire.AppendTag(nil, 1001, protowire.EndGroupType)),
		"PackedFixed32BadLength": cat(tag("repeated_fixed32", 2), []byte{3, 1, 2, 3}),
		"PackedTruncatedVarint":  cat(tag("repeated_int32", 2), []byte{2, 0x01, 0x80}),
		"MapEntryTruncated":      cat(tag("map_int32_int32", 2), []byte{2, 0x08, 0x80}),
	}
	if verifiesUTF8(md) {
		bad["InvalidUTF8String"] = cat(tag("optional_string", 2), protowire.AppendBytes(nil, []byte{'a', 0xff}))
		bad["InvalidUTF8RepeatedString"] = cat(tag("repeated_string", 2), protowire.AppendBytes(nil, []byte{0xc0, 0x80}))
		bad["InvalidUTF8MapKey"] = cat(tag("map_string_string", 2), protowire.AppendBytes(nil, []byte{0x0a, 0x01, 0xff, 0x12, 0x00}))
		bad["InvalidUTF8Surrogate"] = cat(tag("optional_string", 2), protowire.AppendBytes(nil, []byte{0xed, 0xa0, 0x80}))
	}
	if g := fields.ByName("data"); g != nil && g.Kind() == protoreflect.GroupKind {
		bad["GroupWrongEnd"] = cat(protowire.AppendTag(nil, g.Number(), protowire.StartGroupType), protowire.AppendTag(nil, g.Number()+1, protowire.EndGroupType))
		bad["GroupUnterminated"] = protowire.AppendTag(nil, g.Number(), protowire.StartGroupType)
	}
	names := make([]string, 0, len(bad))
	for n := range bad {
		names = append(names, n)
	}
	sort.Strings(names)
	var cases []testCase
	for _, n := range names {
		if err := proto.Unmarshal(bad[n], dynamicpb.NewMessage(md)); err == nil && !strings.HasPrefix(n, "InvalidUTF8") {
			// protobuf-go decides UTF-8 checking from the syntax alone for
			// descriptors it did not build, so only those cases may differ.
			t.Fatalf("%s.%s: protobuf-go accepts this malformed input", md.FullName(), n)
		}
		cases = append(cases, testCase{
			name: string(md.FullName()) + ".Malformed." + n, messageType: string(md.FullName()),
			protobuf: bad[n], want: "parse_error",
		})
	}
	return cases
}

// verifiesUTF8 reports whether string fields of md reject invalid UTF-8:
// proto3 files and editions files that keep the default (VERIFY). The
// editions copy of the proto2 messages sets utf8_validation = NONE.
func verifiesUTF8(md protoreflect.MessageDescriptor) bool {
	switch md.ParentFile().Syntax() {
	case protoreflect.Proto3:
		return true
	case protoreflect.Editions:
		return !strings.Contains(string(md.FullName()), ".proto2.")
	}
	return false
}

func mustMarshal(t *testing.T, m proto.Message) []byte {
	t.Helper()
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// unknownFields are fields of every wire type with numbers no test message
// declares.
func unknownFields() []byte {
	var b []byte
	b = protowire.AppendTag(b, 12001, protowire.VarintType)
	b = protowire.AppendVarint(b, 300)
	b = protowire.AppendTag(b, 12002, protowire.Fixed32Type)
	b = protowire.AppendFixed32(b, 0xdeadbeef)
	b = protowire.AppendTag(b, 12003, protowire.Fixed64Type)
	b = protowire.AppendFixed64(b, 0x0123456789abcdef)
	b = protowire.AppendTag(b, 12004, protowire.BytesType)
	b = protowire.AppendString(b, "unknown")
	b = protowire.AppendTag(b, 12005, protowire.StartGroupType)
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, 1)
	b = protowire.AppendTag(b, 12005, protowire.EndGroupType)
	b = protowire.AppendTag(b, 12001, protowire.VarintType) // a repeat of a number
	b = protowire.AppendVarint(b, 0)
	return b
}

// reversedFields encodes m with its fields in descending number order
// (elements of one field keep their order).
func reversedFields(m protoreflect.Message) []byte {
	var fds []protoreflect.FieldDescriptor
	m.Range(func(fd protoreflect.FieldDescriptor, _ protoreflect.Value) bool {
		fds = append(fds, fd)
		return true
	})
	sort.Slice(fds, func(i, j int) bool { return fds[i].Number() > fds[j].Number() })
	var b []byte
	for _, fd := range fds {
		b = appendField(b, fd, m.Get(fd), false)
	}
	return append(b, m.GetUnknown()...)
}

// swapPacking encodes m canonically, except that packable repeated fields
// use the other encoding (packed as expanded and expanded as packed); a
// parser must accept both.
func swapPacking(m protoreflect.Message) []byte {
	return encode(m, true)
}

// encode encodes m with every field in number order (oneof members
// included, as protoc's C++ writes them), map entries by key with key and
// value always present, and unknown fields last; with swap, packable
// repeated fields use the encoding their declaration does not ask for.
func encode(m protoreflect.Message, swap bool) []byte {
	var fds []protoreflect.FieldDescriptor
	m.Range(func(fd protoreflect.FieldDescriptor, _ protoreflect.Value) bool {
		fds = append(fds, fd)
		return true
	})
	sort.Slice(fds, func(i, j int) bool { return fds[i].Number() < fds[j].Number() })
	var b []byte
	for _, fd := range fds {
		b = appendField(b, fd, m.Get(fd), swap)
	}
	return append(b, m.GetUnknown()...)
}

func appendField(b []byte, fd protoreflect.FieldDescriptor, v protoreflect.Value, swap bool) []byte {
	switch {
	case fd.IsMap():
		mp := v.Map()
		var keys []protoreflect.MapKey
		mp.Range(func(k protoreflect.MapKey, _ protoreflect.Value) bool {
			keys = append(keys, k)
			return true
		})
		sort.Slice(keys, func(i, j int) bool { return keyLess(fd.MapKey().Kind(), keys[i], keys[j]) })
		for _, k := range keys {
			entry := appendSingle(nil, fd.MapKey(), k.Value(), swap)
			entry = appendSingle(entry, fd.MapValue(), mp.Get(k), swap)
			b = protowire.AppendTag(b, fd.Number(), protowire.BytesType)
			b = protowire.AppendBytes(b, entry)
		}
	case fd.IsList():
		l := v.List()
		packable := fd.Kind() != protoreflect.StringKind && fd.Kind() != protoreflect.BytesKind &&
			fd.Kind() != protoreflect.MessageKind && fd.Kind() != protoreflect.GroupKind
		if packable && fd.IsPacked() != swap {
			var p []byte
			for i := 0; i < l.Len(); i++ {
				p = appendValue(p, fd, l.Get(i), swap)
			}
			b = protowire.AppendTag(b, fd.Number(), protowire.BytesType)
			b = protowire.AppendBytes(b, p)
		} else {
			for i := 0; i < l.Len(); i++ {
				b = appendSingle(b, fd, l.Get(i), swap)
			}
		}
	default:
		b = appendSingle(b, fd, v, swap)
	}
	return b
}

func keyLess(k protoreflect.Kind, a, b protoreflect.MapKey) bool {
	switch k {
	case protoreflect.BoolKind:
		return !a.Bool() && b.Bool()
	case protoreflect.StringKind:
		return a.String() < b.String()
	case protoreflect.Uint32Kind, protoreflect.Uint64Kind, protoreflect.Fixed32Kind, protoreflect.Fixed64Kind:
		return a.Uint() < b.Uint()
	default:
		return a.Int() < b.Int()
	}
}

func wireType(fd protoreflect.FieldDescriptor) protowire.Type {
	switch fd.Kind() {
	case protoreflect.Fixed32Kind, protoreflect.Sfixed32Kind, protoreflect.FloatKind:
		return protowire.Fixed32Type
	case protoreflect.Fixed64Kind, protoreflect.Sfixed64Kind, protoreflect.DoubleKind:
		return protowire.Fixed64Type
	case protoreflect.StringKind, protoreflect.BytesKind, protoreflect.MessageKind:
		return protowire.BytesType
	case protoreflect.GroupKind:
		return protowire.StartGroupType
	}
	return protowire.VarintType
}

func appendSingle(b []byte, fd protoreflect.FieldDescriptor, v protoreflect.Value, swap bool) []byte {
	b = protowire.AppendTag(b, fd.Number(), wireType(fd))
	if fd.Kind() == protoreflect.GroupKind {
		b = append(b, encode(v.Message(), swap)...)
		return protowire.AppendTag(b, fd.Number(), protowire.EndGroupType)
	}
	return appendValue(b, fd, v, swap)
}

func appendValue(b []byte, fd protoreflect.FieldDescriptor, v protoreflect.Value, swap bool) []byte {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return protowire.AppendVarint(b, protowire.EncodeBool(v.Bool()))
	case protoreflect.EnumKind:
		return protowire.AppendVarint(b, uint64(int64(v.Enum())))
	case protoreflect.Int32Kind, protoreflect.Int64Kind:
		return protowire.AppendVarint(b, uint64(v.Int()))
	case protoreflect.Sint32Kind, protoreflect.Sint64Kind:
		return protowire.AppendVarint(b, protowire.EncodeZigZag(v.Int()))
	case protoreflect.Uint32Kind, protoreflect.Uint64Kind:
		return protowire.AppendVarint(b, v.Uint())
	case protoreflect.Fixed32Kind:
		return protowire.AppendFixed32(b, uint32(v.Uint()))
	case protoreflect.Sfixed32Kind:
		return protowire.AppendFixed32(b, uint32(v.Int()))
	case protoreflect.FloatKind:
		return protowire.AppendFixed32(b, math.Float32bits(float32(v.Float())))
	case protoreflect.Fixed64Kind:
		return protowire.AppendFixed64(b, v.Uint())
	case protoreflect.Sfixed64Kind:
		return protowire.AppendFixed64(b, uint64(v.Int()))
	case protoreflect.DoubleKind:
		return protowire.AppendFixed64(b, math.Float64bits(v.Float()))
	case protoreflect.StringKind:
		return protowire.AppendString(b, v.String())
	case protoreflect.BytesKind:
		return protowire.AppendBytes(b, v.Bytes())
	case protoreflect.MessageKind:
		return protowire.AppendBytes(b, encode(v.Message(), swap))
	}
	panic(fmt.Sprintf("unexpected kind %v", fd.Kind()))
}

// maxDepth bounds how deep populate nests messages.
const maxDepth = 2

// populate sets every field of a new md message (one member per oneof) to
// values drawn from r, edge values included.
func populate(md protoreflect.MessageDescriptor, r *rand.Rand, depth int) protoreflect.Message {
	m := dynamicpb.NewMessage(md)
	fields := md.Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		if od := fd.ContainingOneof(); od != nil && !od.IsSynthetic() {
			continue
		}
		if fd.Message() != nil && depth >= maxDepth {
			continue
		}
		switch {
		case fd.IsMap():
			mp := m.Mutable(fd).Map()
			for n := r.Intn(4); n > 0; n-- {
				mp.Set(value(fd.MapKey(), r, depth).MapKey(), value(fd.MapValue(), r, depth))
			}
		case fd.IsList():
			l := m.Mutable(fd).List()
			for n := 1 + r.Intn(3); n > 0; n-- {
				l.Append(value(fd, r, depth))
			}
		default:
			m.Set(fd, value(fd, r, depth))
		}
	}
	for i := 0; i < md.Oneofs().Len(); i++ {
		od := md.Oneofs().Get(i)
		if od.IsSynthetic() {
			continue
		}
		fd := od.Fields().Get(r.Intn(od.Fields().Len()))
		if fd.Message() != nil && depth >= maxDepth {
			continue
		}
		m.Set(fd, value(fd, r, depth))
	}
	return m
}

var (
	sampleStrings = []string{"", "a", "hello, world", "héllo ✓", "😀 emoji", "\x00nul", strings.Repeat("long ", 40)}
	sampleBytes   = [][]byte{{}, {0}, {0xff, 0x00, 0x80}, []byte("bytes"), bytes.Repeat([]byte{0xaa}, 200)}
)

// value draws one value of fd's kind (the element kind for repeated
// fields).
func value(fd protoreflect.FieldDescriptor, r *rand.Rand, depth int) protoreflect.Value {
	pick := func(n int) int { return r.Intn(n) }
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(pick(2) == 1)
	case protoreflect.EnumKind:
		vals := fd.Enum().Values()
		if !fd.Enum().IsClosed() && pick(6) == 0 {
			return protoreflect.ValueOfEnum(1234) // open enums keep undeclared values
		}
		return protoreflect.ValueOfEnum(vals.Get(pick(vals.Len())).Number())
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32([]int32{0, 1, -1, math.MinInt32, math.MaxInt32, r.Int31() - r.Int31()}[pick(6)])
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64([]int64{0, 1, -1, math.MinInt64, math.MaxInt64, r.Int63() - r.Int63()}[pick(6)])
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32([]uint32{0, 1, math.MaxUint32, r.Uint32()}[pick(4)])
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return protoreflect.ValueOfUint64([]uint64{0, 1, math.MaxUint64, r.Uint64()}[pick(4)])
	case protoreflect.FloatKind:
		return protoreflect.ValueOfFloat32([]float32{0, float32(math.Copysign(0, -1)), 1.5, -2.25, math.MaxFloat32,
			math.SmallestNonzeroFloat32, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), r.Float32()}[pick(10)])
	case protoreflect.DoubleKind:
		return protoreflect.ValueOfFloat64([]float64{0, math.Copysign(0, -1), 1.5, -2.25, math.MaxFloat64,
			math.SmallestNonzeroFloat64, math.Inf(1), math.Inf(-1), math.NaN(), r.NormFloat64()}[pick(10)])
	case protoreflect.StringKind:
		return protoreflect.ValueOfString(sampleStrings[pick(len(sampleStrings))])
	case protoreflect.BytesKind:
		if pick(3) == 0 {
			b := make([]byte, 1+pick(40))
			r.Read(b)
			return protoreflect.ValueOfBytes(b)
		}
		return protoreflect.ValueOfBytes(sampleBytes[pick(len(sampleBytes))])
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return protoreflect.ValueOfMessage(populate(fd.Message(), r, depth+1))
	}
	panic(fmt.Sprintf("unexpected kind %v", fd.Kind()))
}
