// Package symbols holds the compiled symbols that the interpreter (package
// interp) exposes to interpreted generated code: protoplay's runtime
// (runtime/wire, runtime/protojson, runtime/prototext and the well-known types of runtime/wkt) and the standard
// library packages the generated code imports, and those a program of the
// playground's Run tab commonly imports. The tables are written by
// yaegi's extract tool (go generate); TestSymbolsFresh in package interp
// fails when they are stale.
package symbols

import "reflect"

// Symbols maps "<import path>/<package name>" to the package's exported
// symbols, in the shape github.com/traefik/yaegi/interp.Exports expects.
var Symbols = map[string]map[string]reflect.Value{}

// Packages are the import paths whose symbols are extracted, in the order
// given to the extract tool.
var Packages = []string{
	"github.com/protoplay/protoplay/runtime/protojson",
	"github.com/protoplay/protoplay/runtime/prototext",
	"github.com/protoplay/protoplay/runtime/wire",
	"github.com/protoplay/protoplay/runtime/wkt/anypb",
	"github.com/protoplay/protoplay/runtime/wkt/apipb",
	"github.com/protoplay/protoplay/runtime/wkt/descriptorpb",
	"github.com/protoplay/protoplay/runtime/wkt/durationpb",
	"github.com/protoplay/protoplay/runtime/wkt/emptypb",
	"github.com/protoplay/protoplay/runtime/wkt/fieldmaskpb",
	"github.com/protoplay/protoplay/runtime/wkt/sourcecontextpb",
	"github.com/protoplay/protoplay/runtime/wkt/structpb",
	"github.com/protoplay/protoplay/runtime/wkt/timestamppb",
	"github.com/protoplay/protoplay/runtime/wkt/typepb",
	"github.com/protoplay/protoplay/runtime/wkt/wrapperspb",
	"bytes", "cmp", "errors", "fmt", "maps", "math", "slices", "strconv", "strings", "unicode/utf8",
	// For programs of the Run tab (os is package interp's own table,
	// sandbox.go: no files, no processes).
	"bufio", "encoding/hex", "encoding/json", "log", "sort", "time",
	"context", "encoding/base64", "encoding/binary", "encoding/csv", "io", "math/bits", "math/rand",
	"path", "regexp", "sync", "text/tabwriter", "unicode",
}

//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract -name symbols github.com/protoplay/protoplay/runtime/protojson github.com/protoplay/protoplay/runtime/prototext github.com/protoplay/protoplay/runtime/wire github.com/protoplay/protoplay/runtime/wkt/anypb github.com/protoplay/protoplay/runtime/wkt/apipb github.com/protoplay/protoplay/runtime/wkt/descriptorpb github.com/protoplay/protoplay/runtime/wkt/durationpb github.com/protoplay/protoplay/runtime/wkt/emptypb github.com/protoplay/protoplay/runtime/wkt/fieldmaskpb github.com/protoplay/protoplay/runtime/wkt/sourcecontextpb github.com/protoplay/protoplay/runtime/wkt/structpb github.com/protoplay/protoplay/runtime/wkt/timestamppb github.com/protoplay/protoplay/runtime/wkt/typepb github.com/protoplay/protoplay/runtime/wkt/wrapperspb bytes cmp errors fmt maps math slices strconv strings unicode/utf8 bufio encoding/hex encoding/json log sort time context encoding/base64 encoding/binary encoding/csv io math/bits math/rand path regexp sync text/tabwriter unicode

// WirePath is runtime/wire's import path.
const WirePath = "github.com/protoplay/protoplay/runtime/wire"
