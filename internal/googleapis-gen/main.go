// Command googleapis-gen writes compiler/frontend/googleapis: the
// descriptors of the common googleapis files (google/api, google/type,
// google/rpc, google/longrunning) that every compilation can import like the
// well-known types, taken from the Go packages Google publishes for them
// (google.golang.org/genproto/googleapis/..., cloud.google.com/go/longrunning),
// which carry each file's descriptor. It is a module of its own so that
// protoplay's module, and the wasm, do not depend on those packages (the
// longrunning package links gRPC): protoplay embeds only the descriptors,
// as one FileDescriptorSet, with the googleapis license beside it.
//
//	cd internal/googleapis-gen && go run . -o ../../compiler/frontend/googleapis
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"

	_ "cloud.google.com/go/longrunning/autogen/longrunningpb"
	_ "google.golang.org/genproto/googleapis/api"
	_ "google.golang.org/genproto/googleapis/api/annotations"
	_ "google.golang.org/genproto/googleapis/api/configchange"
	_ "google.golang.org/genproto/googleapis/api/distribution"
	_ "google.golang.org/genproto/googleapis/api/error_reason"
	_ "google.golang.org/genproto/googleapis/api/httpbody"
	_ "google.golang.org/genproto/googleapis/api/label"
	_ "google.golang.org/genproto/googleapis/api/metric"
	_ "google.golang.org/genproto/googleapis/api/monitoredres"
	_ "google.golang.org/genproto/googleapis/api/serviceconfig"
	_ "google.golang.org/genproto/googleapis/api/visibility"
	_ "google.golang.org/genproto/googleapis/rpc/code"
	_ "google.golang.org/genproto/googleapis/rpc/context"
	_ "google.golang.org/genproto/googleapis/rpc/context/attribute_context"
	_ "google.golang.org/genproto/googleapis/rpc/errdetails"
	_ "google.golang.org/genproto/googleapis/rpc/http"
	_ "google.golang.org/genproto/googleapis/rpc/status"
	_ "google.golang.org/genproto/googleapis/type/calendarperiod"
	_ "google.golang.org/genproto/googleapis/type/color"
	_ "google.golang.org/genproto/googleapis/type/date"
	_ "google.golang.org/genproto/googleapis/type/datetime"
	_ "google.golang.org/genproto/googleapis/type/dayofweek"
	_ "google.golang.org/genproto/googleapis/type/decimal"
	_ "google.golang.org/genproto/googleapis/type/expr"
	_ "google.golang.org/genproto/googleapis/type/fraction"
	_ "google.golang.org/genproto/googleapis/type/interval"
	_ "google.golang.org/genproto/googleapis/type/latlng"
	_ "google.golang.org/genproto/googleapis/type/localized_text"
	_ "google.golang.org/genproto/googleapis/type/money"
	_ "google.golang.org/genproto/googleapis/type/month"
	_ "google.golang.org/genproto/googleapis/type/phone_number"
	_ "google.golang.org/genproto/googleapis/type/postaladdress"
	_ "google.golang.org/genproto/googleapis/type/quaternion"
	_ "google.golang.org/genproto/googleapis/type/timeofday"
)

// prefixes are the folders taken.
var prefixes = []string{"google/api/", "google/type/", "google/rpc/", "google/longrunning/"}

func main() {
	out := flag.String("o", "", "output folder (compiler/frontend/googleapis)")
	flag.Parse()
	if *out == "" {
		log.Fatal("-o is required")
	}
	var set descriptorpb.FileDescriptorSet
	var names []string
	protoregistry.GlobalFiles.RangeFiles(func(fd protoreflect.FileDescriptor) bool {
		for _, p := range prefixes {
			if strings.HasPrefix(fd.Path(), p) {
				names = append(names, fd.Path())
			}
		}
		return true
	})
	sort.Strings(names)
	for _, name := range names {
		fd, _ := protoregistry.GlobalFiles.FindFileByPath(name)
		fdp := protodesc.ToFileDescriptorProto(fd)
		fdp.SourceCodeInfo = nil
		set.File = append(set.File, fdp)
	}
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(&set)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*out, "googleapis.binpb"), b, 0o644); err != nil {
		log.Fatal(err)
	}
	// Where the descriptors came from, for the notices and for review.
	bi, _ := debug.ReadBuildInfo()
	var src strings.Builder
	src.WriteString("# The modules googleapis.binpb was generated from (internal/googleapis-gen).\n")
	licence := ""
	for _, m := range bi.Deps {
		if strings.HasPrefix(m.Path, "google.golang.org/genproto") || m.Path == "cloud.google.com/go/longrunning" {
			fmt.Fprintf(&src, "%s %s\n", m.Path, m.Version)
		}
		if m.Path == "google.golang.org/genproto/googleapis/api" {
			licence = filepath.Join(modCache(), m.Path+"@"+m.Version, "LICENSE")
		}
	}
	fmt.Fprintf(&src, "\n# Files (%d):\n%s\n", len(names), strings.Join(names, "\n"))
	if err := os.WriteFile(filepath.Join(*out, "SOURCES.txt"), []byte(src.String()), 0o644); err != nil {
		log.Fatal(err)
	}
	lic, err := os.ReadFile(licence)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*out, "LICENSE"), lic, 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d files, %d bytes\n", len(names), len(b))
}

func modCache() string {
	if d := os.Getenv("GOMODCACHE"); d != "" {
		return d
	}
	return filepath.Join(os.Getenv("HOME"), "go", "pkg", "mod")
}
