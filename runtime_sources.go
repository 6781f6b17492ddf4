// Package protoplay holds the sources of protoplay's runtime (runtime/wire,
// runtime/protojson, runtime/prototext and the well-known type packages under runtime/wkt),
// embedded, for the generator option runtime=local: it writes these
// packages beside the generated code, under the output's own module path,
// so that the output builds with no network and no
// github.com/protoplay/protoplay module (see compiler/gogen's
// Options.Runtime); protoplay check --generated builds against them too.
//
// Only the packages' .go files are embedded, not their tests;
// TestRuntimeSourcesComplete checks the list against runtime/.
package protoplay

import "embed"

// RuntimeSources holds the .go files of every package under runtime/ (no
// _test.go files), with slash-separated paths as in the repository
// ("runtime/wire/wire.go", "runtime/wkt/timestamppb/timestamp.pb.go").
//
//go:embed runtime/protojson/decode.go runtime/protojson/encode.go runtime/protojson/errors.go runtime/protojson/message.go runtime/prototext/decode.go runtime/prototext/encode.go runtime/prototext/errors.go runtime/prototext/message.go runtime/prototext/token.go runtime/wire/decoder.go runtime/wire/doc.go runtime/wire/errors.go runtime/wire/message.go runtime/wire/wire.go runtime/wkt/anypb/any.go runtime/wkt/anypb/any.pb.go runtime/wkt/anypb/any_json.go runtime/wkt/anypb/any_text.go runtime/wkt/apipb/api.pb.go runtime/wkt/descriptorpb/descriptor.pb.go runtime/wkt/doc.go runtime/wkt/durationpb/duration.go runtime/wkt/durationpb/duration.pb.go runtime/wkt/durationpb/duration_json.go runtime/wkt/emptypb/empty.pb.go runtime/wkt/fieldmaskpb/field_mask.go runtime/wkt/fieldmaskpb/field_mask.pb.go runtime/wkt/fieldmaskpb/field_mask_json.go runtime/wkt/sourcecontextpb/source_context.pb.go runtime/wkt/structpb/struct.go runtime/wkt/structpb/struct.pb.go runtime/wkt/structpb/struct_json.go runtime/wkt/timestamppb/timestamp.go runtime/wkt/timestamppb/timestamp.pb.go runtime/wkt/timestamppb/timestamp_json.go runtime/wkt/typepb/type.pb.go runtime/wkt/wrapperspb/wrappers.go runtime/wkt/wrapperspb/wrappers.pb.go runtime/wkt/wrapperspb/wrappers_json.go
var RuntimeSources embed.FS
