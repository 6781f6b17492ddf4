package wkt_test

import (
	"bytes"
	"encoding/json"
	"testing"

	gjson "google.golang.org/protobuf/encoding/protojson"

	"google.golang.org/protobuf/proto"
	gdescriptor "google.golang.org/protobuf/types/descriptorpb"
	gapi "google.golang.org/protobuf/types/known/apipb"
	gtype "google.golang.org/protobuf/types/known/typepb"

	"github.com/protoplay/protoplay/runtime/protojson"
	"github.com/protoplay/protoplay/runtime/wkt/apipb"
	"github.com/protoplay/protoplay/runtime/wkt/descriptorpb"
	"github.com/protoplay/protoplay/runtime/wkt/typepb"
)

// Issue 24 kind 6 (case 46): runtime/wkt is generated from the standard
// files of the google.golang.org/protobuf go.mod pins, so what an
// up-to-date peer writes with the fields newer protoc releases added
// (Api.edition, Method.edition, Type.edition, FileDescriptorProto's
// option_dependency, DescriptorProto.visibility,
// FeatureSet.enforce_naming_style) reads as protobuf-go reads it, in JSON
// and in binary, and is written back the same.
func TestWellKnownTypesArePinned(t *testing.T) {
	for _, tc := range []struct {
		in     string
		ours   jsonMessage
		theirs func() proto.Message
	}{
		{`{"name":"demo.Svc","methods":[{"name":"Get","edition":"2023"}],"edition":"2023"}`, new(apipb.Api), func() proto.Message { return new(gapi.Api) }},
		{`{"name":"demo.T","edition":"2024"}`, new(typepb.Type), func() proto.Message { return new(gtype.Type) }},
		{`{"name":"a.proto","optionDependency":["b.proto"],"messageType":[{"name":"M","visibility":"VISIBILITY_EXPORT"}],` +
			`"enumType":[{"name":"E","value":[{"name":"E_A","number":0}],"visibility":"VISIBILITY_LOCAL"}],` +
			`"options":{"features":{"enforceNamingStyle":"STYLE2024","defaultSymbolVisibility":"EXPORT_TOP_LEVEL"}}}`,
			new(descriptorpb.FileDescriptorProto), func() proto.Message { return new(gdescriptor.FileDescriptorProto) }},
	} {
		compareIn(t, tc.in, tc.ours, tc.theirs())
		theirs := tc.theirs()
		b, err := tc.ours.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if err := proto.Unmarshal(b, theirs); err != nil {
			t.Fatal(err)
		}
		if len(theirs.ProtoReflect().GetUnknown()) > 0 {
			t.Errorf("%s: protobuf-go reads protoplay's encoding with unknown fields %x", tc.in, theirs.ProtoReflect().GetUnknown())
		}
		got, err := tc.ours.MarshalProtoJSON(protojson.MarshalOptions{})
		want, werr := gjson.Marshal(theirs)
		var compact bytes.Buffer
		if err != nil || werr != nil || json.Compact(&compact, want) != nil || !bytes.Equal(got, compact.Bytes()) {
			t.Errorf("%s: protoplay writes %s (%v), protojson %s (%v)", tc.in, got, err, want, werr)
		}
	}
}
