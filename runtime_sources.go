//go:build !protoplay_lazyruntime

package protoplay

import (
	"embed"
	"io/fs"
)

// RuntimeSources holds the .go files of every package under runtime/ (no
// _test.go files), with slash-separated paths as in the repository
// ("runtime/wire/wire.go", "runtime/wkt/timestamppb/timestamp.pb.go").
//
//go:embed runtime/protojson/decode.go runtime/protojson/doc.go runtime/protojson/encode.go runtime/protojson/errors.go runtime/protojson/ext.go runtime/protojson/message.go runtime/prototext/decode.go runtime/prototext/encode.go runtime/prototext/errors.go runtime/prototext/ext.go runtime/prototext/message.go runtime/prototext/token.go runtime/wire/decoder.go runtime/wire/doc.go runtime/wire/errors.go runtime/wire/ext.go runtime/wire/ext_typed.go runtime/wire/lazy.go runtime/wire/message.go runtime/wire/wire.go runtime/wkt/anypb/any.go runtime/wkt/anypb/any.pb.go runtime/wkt/anypb/any_json.go runtime/wkt/anypb/any_text.go runtime/wkt/apipb/api.pb.go runtime/wkt/descriptorpb/descriptor.pb.go runtime/wkt/doc.go runtime/wkt/durationpb/duration.go runtime/wkt/durationpb/duration.pb.go runtime/wkt/durationpb/duration_json.go runtime/wkt/emptypb/empty.pb.go runtime/wkt/fieldmaskpb/field_mask.go runtime/wkt/fieldmaskpb/field_mask.pb.go runtime/wkt/fieldmaskpb/field_mask_json.go runtime/wkt/sourcecontextpb/source_context.pb.go runtime/wkt/structpb/struct.go runtime/wkt/structpb/struct.pb.go runtime/wkt/structpb/struct_json.go runtime/wkt/timestamppb/timestamp.go runtime/wkt/timestamppb/timestamp.pb.go runtime/wkt/timestamppb/timestamp_json.go runtime/wkt/typepb/type.pb.go runtime/wkt/wrapperspb/wrappers.go runtime/wkt/wrapperspb/wrappers.pb.go runtime/wkt/wrapperspb/wrappers_json.go
var RuntimeSources embed.FS

// RuntimeFS returns RuntimeSources; see runtime_sources_lazy.go for the
// build without them.
func RuntimeFS() (fs.FS, error) { return RuntimeSources, nil }

// RuntimeFiles returns RuntimeSources as a map from slash-separated path
// ("runtime/wire/wire.go") to content: what site/build writes as the
// playground's runtime asset, which the core built with the tag
// protoplay_lazyruntime loads (LoadRuntimeSources there).
func RuntimeFiles() (map[string]string, error) {
	files := map[string]string{}
	err := fs.WalkDir(RuntimeSources, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := RuntimeSources.ReadFile(p)
		files[p] = string(b)
		return err
	})
	return files, err
}
