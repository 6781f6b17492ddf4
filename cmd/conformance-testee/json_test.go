package main

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"
)

// jsonTypes resolves the schemas' message types for protojson (Any).
func (s schemaSet) jsonTypes(t *testing.T) *dynamicpb.Types {
	t.Helper()
	files := new(protoregistry.Files)
	seen := map[string]bool{}
	var add func(f protoreflect.FileDescriptor)
	add = func(f protoreflect.FileDescriptor) {
		if seen[f.Path()] {
			return
		}
		seen[f.Path()] = true
		for i := 0; i < f.Imports().Len(); i++ {
			add(f.Imports().Get(i).FileDescriptor)
		}
		if err := files.RegisterFile(f); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range s.files {
		add(f)
	}
	return dynamicpb.NewTypes(files)
}

// sameJSON checks that the testee's JSON answer reads, under protojson, as
// the message c.wantJSON reads as.
func (r *runner) sameJSON(c testCase, got string) error {
	md := c.ref
	if md == nil {
		mt, err := r.types.FindMessageByName(protoreflect.FullName(c.messageType))
		if err != nil {
			return err
		}
		md = mt.Descriptor()
	}
	o := protojson.UnmarshalOptions{Resolver: r.types, AllowPartial: true}
	a, b := dynamicpb.NewMessage(md), dynamicpb.NewMessage(md)
	if err := o.Unmarshal([]byte(got), a); err != nil {
		return fmt.Errorf("protojson rejects the testee's JSON: %v\n  got: %.600s", err, got)
	}
	if err := o.Unmarshal([]byte(c.wantJSON), b); err != nil {
		return fmt.Errorf("protojson rejects the expected JSON: %v", err)
	}
	if !proto.Equal(a, b) {
		return fmt.Errorf("the testee's JSON is a different message\n  got:  %.600s\n  want: %.600s", got, c.wantJSON)
	}
	return nil
}

// jsonSafe clears, at any depth, the well-known-type fields (other than
// the wrappers) whose random contents have no JSON form (a Timestamp out
// of range, a Value with no kind, an Any of no known type): the special
// forms have their own cases in jsonInputs and in compiler/gogen's
// TestJSONDifferential.
func jsonSafe(m protoreflect.Message) {
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		md := fd.Message()
		if fd.IsMap() {
			md = fd.MapValue().Message()
		}
		if md == nil {
			return true
		}
		if strings.HasPrefix(string(md.FullName()), "google.protobuf.") && !strings.HasSuffix(string(md.FullName()), "Value") || md.FullName() == "google.protobuf.Value" || md.FullName() == "google.protobuf.ListValue" {
			m.Clear(fd)
			return true
		}
		switch {
		case fd.IsMap():
			v.Map().Range(func(_ protoreflect.MapKey, e protoreflect.Value) bool { jsonSafe(e.Message()); return true })
		case fd.IsList():
			for i := 0; i < v.List().Len(); i++ {
				jsonSafe(v.List().Get(i).Message())
			}
		default:
			jsonSafe(v.Message())
		}
		return true
	})
}

// jsonValueCases are random values of md: their protojson form sent as
// JSON for a binary answer (protobuf-go's deterministic encoding of what
// protojson reads) and for a JSON answer, and their binary encoding sent
// for a JSON answer.
func jsonValueCases(t *testing.T, md protoreflect.MessageDescriptor, types *dynamicpb.Types) []testCase {
	t.Helper()
	var cases []testCase
	for seed := 0; seed < 40; seed++ {
		r := rand.New(rand.NewSource(int64(seed)))
		m := populate(md, r, 0)
		jsonSafe(m)
		js, err := protojson.MarshalOptions{Resolver: types}.Marshal(m.Interface())
		if err != nil {
			continue // a required field protobuf-go cannot fill in
		}
		ref := dynamicpb.NewMessage(md)
		if err := (protojson.UnmarshalOptions{Resolver: types}).Unmarshal(js, ref); err != nil {
			t.Fatalf("%s: protojson rejects its own output: %v", md.FullName(), err)
		}
		bin, err := proto.MarshalOptions{Deterministic: true}.Marshal(ref)
		if err != nil {
			t.Fatal(err)
		}
		if bin == nil {
			bin = []byte{}
		}
		name := fmt.Sprintf("%s.Json.Random%d", md.FullName(), seed)
		cases = append(cases,
			testCase{name: name + ".JsonToProtobuf", messageType: string(md.FullName()), json: string(js), want: "protobuf_payload", wantPayload: bin, ref: md},
			testCase{name: name + ".JsonToJson", messageType: string(md.FullName()), json: string(js), output: "JSON", want: "json_payload", wantJSON: string(js), ref: md},
			testCase{name: name + ".ProtobufToJson", messageType: string(md.FullName()), protobuf: bin, output: "JSON", want: "json_payload", wantJSON: string(js), ref: md},
		)
	}
	return cases
}

// jsonInputs are JSON inputs for the TestAllTypes messages (fields a
// message lacks make the input an unknown-field error, for protojson too).
var jsonInputs = []string{
	`{}`, `{"optionalInt32": 1}`, `{"optional_int32": 1}`, `{"optionalInt32": "1"}`, `{"optionalInt32": 1.0}`,
	`{"optionalInt32": 1.5}`, `{"optionalInt32": 2147483648}`, `{"optionalInt32": "NaN"}`, `{"optionalInt32": null}`,
	`{"optionalInt64": "-9223372036854775808"}`, `{"optionalUint64": "18446744073709551616"}`, `{"optionalInt64": 1e2}`,
	`{"optionalFloat": "Infinity"}`, `{"optionalFloat": 3.5e38}`, `{"optionalDouble": "-Infinity"}`, `{"optionalDouble": -0}`,
	`{"optionalBool": "true"}`, `{"optionalString": "\ud83d\ude00"}`, `{"optionalString": "\ud83d"}`,
	`{"optionalBytes": "-_8"}`, `{"optionalBytes": "+/8="}`, `{"optionalBytes": "!"}`,
	`{"optionalNestedEnum": "BAZ"}`, `{"optionalNestedEnum": 7}`, `{"optionalNestedEnum": "NOPE"}`,
	`{"repeatedInt32": [1, "2", 3e0]}`, `{"repeatedInt32": [null]}`, `{"repeatedNestedMessage": [{"a": 1}, {}]}`,
	`{"mapInt32Int32": {"-1": 1}}`, `{"mapInt32Int32": {"x": 1}}`, `{"mapBoolBool": {"true": false}}`, `{"mapStringString": {"a": "1", "a": "2"}}`,
	`{"oneofUint32": 1, "oneofString": "x"}`, `{"oneofUint32": null, "oneofString": "x"}`,
	`{"optionalInt32": 1, "optionalInt32": 1}`, `{"optionalInt32": 1, "optional_int32": 1}`, `{"noSuchField": 1}`, `{"optionalInt32": 1,}`,
	`{"optionalTimestamp": "2000-01-01T00:00:00.5+01:00"}`, `{"optionalTimestamp": "0000-12-31T23:59:59Z"}`,
	`{"optionalDuration": "-1.000000001s"}`, `{"optionalDuration": "315576000001s"}`,
	`{"optionalFieldMask": "fooBar,baz.quxQuux"}`, `{"optionalFieldMask": "foo_bar"}`,
	`{"optionalStruct": {"a": [1, "b", null, {"c": true}]}}`, `{"optionalValue": null}`, `{"optionalNullValue": null}`,
	`{"repeatedValue": [null, {}]}`, `{"optionalInt32Wrapper": "5"}`, `{"optionalStringWrapper": null}`,
	`{"optionalAny": {"@type": "type.googleapis.com/google.protobuf.Duration", "value": "2s"}}`,
	`{"optionalAny": {"optionalInt32": 3, "@type": "type.googleapis.com/protobuf_test_messages.proto3.TestAllTypesProto3"}}`,
	`{"optionalAny": {"@type": "type.googleapis.com/no.Such"}}`,
	`{"data": {"groupInt32": 1}}`, `{"optionalgroup": {"a": 1}}`, `{"delimitedField": {"a": 1}}`,
}

// jsonInputCases sends jsonInputs (for a binary answer) with the answer
// protobuf-go gives: parse_error where protojson rejects the input,
// otherwise its deterministic encoding of protojson's result. An unknown
// field under JSON_IGNORE_UNKNOWN_PARSING_TEST is skipped, not an error.
func jsonInputCases(t *testing.T, md protoreflect.MessageDescriptor, types *dynamicpb.Types) []testCase {
	t.Helper()
	var cases []testCase
	for i, in := range jsonInputs {
		for _, ignore := range []bool{false, true} {
			c := testCase{name: fmt.Sprintf("%s.Json.Input%d", md.FullName(), i), messageType: string(md.FullName()), json: in, ref: md}
			if ignore {
				c.name += ".IgnoreUnknown"
				c.category = "JSON_IGNORE_UNKNOWN_PARSING_TEST"
			}
			ref := dynamicpb.NewMessage(md)
			if err := (protojson.UnmarshalOptions{Resolver: types, DiscardUnknown: ignore}).Unmarshal([]byte(in), ref); err != nil {
				c.want = "parse_error"
			} else if bin, err := (proto.MarshalOptions{Deterministic: true}).Marshal(ref); err != nil {
				c.want = "serialize_error"
			} else {
				c.want, c.wantPayload = "protobuf_payload", append([]byte{}, bin...)
			}
			cases = append(cases, c)
		}
	}
	return cases
}
