package main

import (
	"fmt"
	"math/rand"
	"testing"

	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
)

// textTypes are the schemas' types rebuilt by protodesc, for prototext:
// protobuf-go decides whether a string field checks UTF-8 (editions
// utf8_validation) only on its own descriptors, and protocompile's would
// make prototext accept invalid UTF-8 in edition 2023 strings.
func (s schemaSet) textTypes(t *testing.T) *dynamicpb.Types {
	t.Helper()
	files := new(protoregistry.Files)
	var add func(f protoreflect.FileDescriptor)
	add = func(f protoreflect.FileDescriptor) {
		if _, err := files.FindFileByPath(f.Path()); err == nil {
			return
		}
		for i := 0; i < f.Imports().Len(); i++ {
			add(f.Imports().Get(i).FileDescriptor)
		}
		fdp := protodesc.ToFileDescriptorProto(f)
		var noMessageSet func(ms []*descriptorpb.DescriptorProto)
		noMessageSet = func(ms []*descriptorpb.DescriptorProto) {
			for _, m := range ms {
				if m.GetOptions().GetMessageSetWireFormat() {
					// protodesc refuses MessageSets without the
					// protolegacy tag; the text cases do not use them.
					m.Options.MessageSetWireFormat = nil
					for _, r := range m.ExtensionRange {
						if r.GetEnd() > 1<<29 {
							r.End = proto.Int32(1 << 29)
						}
					}
				}
				noMessageSet(m.NestedType)
			}
		}
		noMessageSet(fdp.MessageType)
		fd, err := protodesc.NewFile(fdp, files)
		if err != nil {
			t.Fatalf("%s: %v", f.Path(), err)
		}
		if err := files.RegisterFile(fd); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range s.files {
		add(f)
	}
	return dynamicpb.NewTypes(files)
}

// textDesc is md as protodesc builds it (see textTypes).
func textDesc(t *testing.T, types *dynamicpb.Types, md protoreflect.MessageDescriptor) protoreflect.MessageDescriptor {
	t.Helper()
	mt, err := types.FindMessageByName(md.FullName())
	if err != nil {
		t.Fatal(err)
	}
	return mt.Descriptor()
}

// sameText checks that the testee's text-format answer reads, under
// prototext, as the message c.wantText reads as.
func (r *runner) sameText(c testCase, got string) error {
	name := protoreflect.FullName(c.messageType)
	if c.ref != nil {
		name = c.ref.FullName()
	}
	mt, err := r.textTypes.FindMessageByName(name)
	if err != nil {
		return err
	}
	md := mt.Descriptor()
	o := prototext.UnmarshalOptions{Resolver: r.textTypes, AllowPartial: true}
	a, b := dynamicpb.NewMessage(md), dynamicpb.NewMessage(md)
	if err := o.Unmarshal([]byte(got), a); err != nil {
		return fmt.Errorf("prototext rejects the testee's text: %v\n  got: %.600s", err, got)
	}
	if err := o.Unmarshal([]byte(c.wantText), b); err != nil {
		return fmt.Errorf("prototext rejects the expected text: %v", err)
	}
	if !proto.Equal(a, b) {
		return fmt.Errorf("the testee's text is a different message\n  got:  %.600s\n  want: %.600s", got, c.wantText)
	}
	return nil
}

// textValueCases are random values of md: their prototext form sent as
// text for a binary answer (protobuf-go's deterministic encoding of what
// prototext reads) and for a text answer, and their binary encoding sent
// for a text answer. The well-known types get random contents too: the
// text format has no special forms for them (Any is expanded when the
// testee knows its type).
func textValueCases(t *testing.T, md protoreflect.MessageDescriptor, types *dynamicpb.Types) []testCase {
	t.Helper()
	md = textDesc(t, types, md)
	var cases []testCase
	for seed := 0; seed < 40; seed++ {
		r := rand.New(rand.NewSource(int64(1000 + seed)))
		m := populate(md, r, 0)
		txt, err := prototext.MarshalOptions{Resolver: types}.Marshal(m.Interface())
		if err != nil {
			continue // invalid UTF-8 in a checked string, or a required field not set
		}
		ref := dynamicpb.NewMessage(md)
		if err := (prototext.UnmarshalOptions{Resolver: types}).Unmarshal(txt, ref); err != nil {
			t.Fatalf("%s: prototext rejects its own output: %v", md.FullName(), err)
		}
		bin, err := proto.MarshalOptions{Deterministic: true}.Marshal(ref)
		if err != nil {
			t.Fatal(err)
		}
		if bin == nil {
			bin = []byte{}
		}
		name := fmt.Sprintf("%s.Text.Random%d", md.FullName(), seed)
		cases = append(cases,
			testCase{name: name + ".TextToProtobuf", messageType: string(md.FullName()), text: string(txt), textSet: true, category: "TEXT_FORMAT_TEST", want: "protobuf_payload", wantPayload: bin, ref: md},
			testCase{name: name + ".TextToText", messageType: string(md.FullName()), text: string(txt), textSet: true, output: "TEXT_FORMAT", category: "TEXT_FORMAT_TEST", want: "text_payload", wantText: string(txt), ref: md},
			testCase{name: name + ".ProtobufToText", messageType: string(md.FullName()), protobuf: bin, output: "TEXT_FORMAT", category: "TEXT_FORMAT_TEST", want: "text_payload", wantText: string(txt), ref: md},
		)
	}
	return cases
}

// textInputs are text-format inputs for the TestAllTypes messages (fields
// a message lacks make the input an unknown-field error, for prototext
// too).
var textInputs = []string{
	``, `# only a comment`, `optional_int32: 1`, `optional_int32 1`, `optional_int32: 0x10`, `optional_int32: -010`, `optional_int32: 1.0`,
	`optional_int32: 2147483648`, `optional_int64: -9223372036854775808`, `optional_uint64: 18446744073709551616`, `optional_uint32: -1`,
	`optional_float: 1.5f`, `optional_float: inf`, `optional_double: -Infinity`, `optional_double: nan`, `optional_double: 1e400`,
	`optional_bool: t`, `optional_bool: 1`, `optional_bool: 2`, `optional_string: "a" 'b'`, `optional_string: "\u00e9\U0001F600\101\x41"`,
	`optional_string: "\377"`, `optional_bytes: "\377\000"`, `optional_string: "\ud83d"`, "optional_string: \"a\nb\"",
	`optional_nested_enum: BAZ`, `optional_nested_enum: 7`, `optional_nested_enum: NOPE`, `optional_nested_enum: -BAZ`,
	`optional_nested_message { a: 1 }`, `optional_nested_message: < a: 1 >`, `optional_nested_message { a: 1 >`, `optional_nested_message {`,
	`repeated_int32: [1, 2, 3]`, `repeated_int32: [1 2]`, `repeated_int32: [1,]`, `repeated_int32 []`, `repeated_nested_message [{a: 1}, {}]`,
	`map_int32_int32 { key: 1 value: 2 }`, `map_int32_int32 [{ key: 1 }, { value: 2 }]`, `map_int32_int32 { key: 1 key: 2 }`, `map_int32_int32 { nope: 1 }`,
	`map_string_nested_message { key: "a" value { a: 1 } }`, `map_bool_bool { key: t value: 1 }`,
	`oneof_uint32: 1`, `oneof_uint32: 1 oneof_string: "x"`, `optional_int32: 1 optional_int32: 2`, `optional_int32: 1; optional_int64: 2,`,
	`no_such_field: 1`, `1: 1`, `99999: 1`, `0: 1`, `[no.such.ext]: 1`, `optional_int32: 1 }`, `optional_int32:`, `optional-int32: 1`,
	`optional_any { [type.googleapis.com/google.protobuf.Duration] { seconds: 1 } }`,
	`optional_any { [type.googleapis.com/protobuf_test_messages.proto3.TestAllTypesProto3] { optional_int32: 5 } }`,
	`optional_any { type_url: "type.googleapis.com/google.protobuf.Duration" value: "\010\001" }`,
	`optional_any { [type.googleapis.com/no.Such] {} }`, `optional_any { type_url: "a" [type.googleapis.com/google.protobuf.Duration] {} }`,
	`optional_timestamp { seconds: 1 nanos: 2 }`, `optional_struct { fields { key: "a" value { number_value: 1 } } }`,
	`Data { group_int32: 1 }`, `data { group_int32: 1 }`, `OptionalGroup { a: 1 }`, `delimited_field { a: 1 }`, `GroupLikeType { c: 1 }`,
	`reserved_field: 1`, `fieldname1: 1 FIELD_NAME11: 2`,
}

// undeclaredClosedEnum reports whether m holds, in a field, list, map or
// nested message, a number that a closed enum does not declare.
func undeclaredClosedEnum(m protoreflect.Message) bool {
	found := false
	check := func(fd protoreflect.FieldDescriptor, v protoreflect.Value) {
		switch {
		case fd.Kind() == protoreflect.EnumKind:
			found = found || fd.Enum().IsClosed() && fd.Enum().Values().ByNumber(v.Enum()) == nil
		case fd.Message() != nil:
			found = found || undeclaredClosedEnum(v.Message())
		}
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList():
			for i := 0; i < v.List().Len(); i++ {
				check(fd, v.List().Get(i))
			}
		case fd.IsMap():
			v.Map().Range(func(_ protoreflect.MapKey, mv protoreflect.Value) bool {
				check(fd.MapValue(), mv)
				return true
			})
		default:
			check(fd, v)
		}
		return !found
	})
	return found
}

// textInputCases sends textInputs (for a binary answer) with the answer
// protobuf-go gives: parse_error where prototext rejects the input (or
// where it keeps an undeclared closed-enum number, which the official
// suite requires to be rejected), otherwise its deterministic encoding of
// prototext's result.
func textInputCases(t *testing.T, md protoreflect.MessageDescriptor, types *dynamicpb.Types) []testCase {
	t.Helper()
	md = textDesc(t, types, md)
	var cases []testCase
	for i, in := range textInputs {
		c := testCase{name: fmt.Sprintf("%s.Text.Input%d", md.FullName(), i), messageType: string(md.FullName()), text: in, textSet: true, category: "TEXT_FORMAT_TEST", ref: md}
		ref := dynamicpb.NewMessage(md)
		if err := (prototext.UnmarshalOptions{Resolver: types}).Unmarshal([]byte(in), ref); err != nil {
			c.want = "parse_error"
		} else if undeclaredClosedEnum(ref) {
			// prototext keeps the number; C++ and the official suite
			// (ClosedEnumFieldWithUnknownNumber) reject it, as protoplay does.
			c.want = "parse_error"
		} else if bin, err := (proto.MarshalOptions{Deterministic: true}).Marshal(ref); err != nil {
			c.want = "serialize_error"
		} else {
			c.want, c.wantPayload = "protobuf_payload", append([]byte{}, bin...)
		}
		cases = append(cases, c)
	}
	// Unknown fields: dropped from text output unless print_unknown_fields.
	unknown := []byte{0x08, 0x01, 0xb8, 0x3e, 0x05} // field 1 = 1, field 999 = 5 (unknown)
	name := fmt.Sprintf("%s.Text.Unknown", md.FullName())
	if md.Fields().ByNumber(1) != nil && md.Fields().ByNumber(999) == nil && md.Fields().ByNumber(1).Kind() == protoreflect.Int32Kind {
		cases = append(cases,
			testCase{name: name + ".Dropped", messageType: string(md.FullName()), protobuf: unknown, output: "TEXT_FORMAT", category: "TEXT_FORMAT_TEST", want: "text_payload", wantText: "optional_int32: 1", ref: md},
			testCase{name: name + ".Printed", messageType: string(md.FullName()), protobuf: unknown, output: "TEXT_FORMAT", category: "TEXT_FORMAT_TEST", printUnknown: true, want: "text_payload", wantTextExact: "optional_int32:1 999:5", ref: md},
		)
	}
	return cases
}
