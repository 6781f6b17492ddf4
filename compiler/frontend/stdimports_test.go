package frontend

import (
	"context"
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/types/gofeaturespb"
)

// A schema compiles only the standard files it needs, with what they import:
// importing timestamp.proto costs timestamp.proto and descriptor.proto (for
// options), not api.proto, plugin.proto or the rest; a second compile reuses
// them.
func TestStandardFilesCompiledOnDemand(t *testing.T) {
	std.mu.Lock()
	saved := std.files
	std.files = nil
	std.mu.Unlock()
	t.Cleanup(func() {
		std.mu.Lock()
		std.files = saved
		std.mu.Unlock()
	})
	src := map[string]string{"a.proto": `syntax = "proto3";
package a;
import "google/protobuf/timestamp.proto";
option go_package = "example.com/a";
message A { google.protobuf.Timestamp at = 1; }
`}
	compiled := func() []string {
		std.mu.Lock()
		defer std.mu.Unlock()
		var names []string
		for name, e := range std.files {
			if e.file != nil {
				names = append(names, name)
			}
		}
		slices.Sort(names)
		return names
	}
	for range 2 {
		res := Compile(context.Background(), Request{Sources: src})
		if res.HasErrors() {
			t.Fatal(res.Diagnostics)
		}
		want := []string{"google/protobuf/descriptor.proto", "google/protobuf/timestamp.proto"}
		if got := compiled(); !slices.Equal(got, want) {
			t.Fatalf("standard files compiled: %q, want %q", got, want)
		}
	}
	first, _ := standardFile("google/protobuf/timestamp.proto")
	again, _ := standardFile("google/protobuf/timestamp.proto")
	if first == nil || first != again {
		t.Fatal("timestamp.proto compiled twice")
	}
	if _, ok := standardFile("a.proto"); ok {
		t.Fatal("a.proto served as a standard file")
	}
}

// Every file protoc bundles can be imported without being supplied, and is
// compiled from source, comments included.
func TestEveryStandardFileResolves(t *testing.T) {
	for _, name := range standardFiles {
		f, ok := standardFile(name)
		if !ok {
			t.Errorf("%s: not compiled", name)
			continue
		}
		if f.Path() != name || f.Messages().Len()+f.Extensions().Len() == 0 {
			t.Errorf("%s: compiled as %q with no declarations", name, f.Path())
		}
		src := "edition = \"2023\";\npackage user;\nimport \"" + name + "\";\nmessage U {}\n"
		res := Compile(context.Background(), Request{Sources: map[string]string{"u.proto": src}})
		if res.HasErrors() {
			t.Errorf("importing %s: %v", name, res.Diagnostics)
		}
	}
}

// The embedded go_features.proto is the file google.golang.org/protobuf's
// gofeaturespb was generated from: the same descriptor, option for option.
func TestGoFeaturesMatchesGofeaturespb(t *testing.T) {
	f, ok := standardFile("google/protobuf/go_features.proto")
	if !ok {
		t.Fatal("go_features.proto does not compile")
	}
	got := protodesc.ToFileDescriptorProto(f)
	got.SourceCodeInfo = nil
	want := protodesc.ToFileDescriptorProto(gofeaturespb.File_google_protobuf_go_features_proto)
	if !proto.Equal(got, want) {
		t.Errorf("embedded go_features.proto differs from gofeaturespb:\n got %v\nwant %v", got, want)
	}
}

// The common googleapis files are standard imports: every file of the
// embedded set links (so each one's imports are all there), and a
// compilation that imports them gets them, with their options usable.
func TestGoogleAPIsImports(t *testing.T) {
	names := GoogleAPIsFiles()
	for _, want := range []string{
		"google/api/annotations.proto", "google/api/http.proto", "google/api/field_behavior.proto",
		"google/api/resource.proto", "google/api/client.proto", "google/api/launch_stage.proto",
		"google/type/date.proto", "google/type/money.proto", "google/rpc/status.proto",
		"google/rpc/error_details.proto", "google/longrunning/operations.proto",
	} {
		if !slices.Contains(names, want) {
			t.Errorf("%s is not among the googleapis files", want)
		}
	}
	for _, name := range names {
		if f, ok := standardFile(name); !ok || f.Path() != name {
			t.Errorf("%s does not link", name)
		}
	}
	src := map[string]string{"a.proto": `syntax = "proto3";
package a;
import "google/api/annotations.proto";
import "google/api/field_behavior.proto";
import "google/type/date.proto";
message A {
  google.type.Date day = 1 [(google.api.field_behavior) = REQUIRED];
}
service S {
  rpc Get(A) returns (A) { option (google.api.http) = {get: "/v1/a"}; }
}
`}
	res := Compile(context.Background(), Request{Sources: src})
	if res.HasErrors() {
		t.Fatal(res.Diagnostics)
	}
	day := res.Files[0].Messages().ByName("A").Fields().ByName("day")
	if got := day.Message().FullName(); got != "google.type.Date" {
		t.Errorf("day is %s", got)
	}
	if len(res.Diagnostics) != 0 {
		t.Errorf("diagnostics: %v", res.Diagnostics)
	}
	// A request's own copy wins over the embedded one.
	own := map[string]string{
		"google/type/date.proto": "syntax = \"proto3\";\npackage google.type;\nmessage Date { int32 year = 1; }\nmessage Mine {}\n",
		"b.proto":                "syntax = \"proto3\";\nimport \"google/type/date.proto\";\nmessage B { google.type.Mine m = 1; }\n",
	}
	if res := Compile(context.Background(), Request{Sources: own, Files: []string{"b.proto"}}); res.HasErrors() {
		t.Errorf("the request's own google/type/date.proto was not used: %v", res.Diagnostics)
	}
}
