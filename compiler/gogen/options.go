package gogen

import (
	"fmt"
	"sort"
	"strings"
)

// Options control the Go backend. The zero value is the default: import
// paths from go_package, output paths from import paths, unknown fields kept.
//
// Options are usually given as protoc plugin parameters, a comma-separated
// list of key=value pairs (see ParseOptions), so the same strings work for
// `protoplay gen --opt`, `protoc --protoplay_opt` and buf's `opt:`.
type Options struct {
	// Paths selects where output files go, as protoc-gen-go's paths=:
	// "import" (default) puts foo.pb.go in the directory of its Go import
	// path; "source_relative" puts it beside foo.proto.
	Paths string
	// Module, as protoc-gen-go's module=, strips this prefix (and the
	// following slash) from output paths. Only with Paths "import".
	Module string
	// ImportMap maps a .proto file name to a Go import path, optionally
	// followed by ";name" for the package name, as protoc-gen-go's
	// M<file>=<path> parameters. It takes precedence over go_package.
	ImportMap map[string]string
	// DropUnknown, parameter unknown_fields=drop, omits the per-message
	// unknown-field storage: unknown fields (and extensions, which protoplay
	// keeps as unknown bytes) are skipped on Unmarshal and lost on Marshal,
	// and no extension variables (E_Foo) are generated.
	// It saves 8 bytes per message instance (one pointer) and the copy of
	// unknown bytes on decode. Closed-enum values that are not declared are
	// dropped too. Default: keep (the protobuf spec's behaviour).
	DropUnknown bool
	// DefaultImportPrefix is the import path prefix for files with no
	// go_package and no M mapping, parameter default_import_prefix=. Such a
	// file gets the import path DefaultImportPrefix + "/" + its proto
	// package with dots turned into slashes (or its file path without
	// ".proto" when it has no package), and the package name is the last
	// element of that path. Default "protoplay.local".
	DefaultImportPrefix string
	// EnumMaps, parameter enum_maps=true, emits each enum's
	// Enum_name/Enum_value maps, as protoc-gen-go does, for code that uses
	// them. Off by default: String does not need them, and Go initializes
	// package-level maps at program start even when nothing refers to them,
	// about 512 bytes and 4 allocations per enum of 3 values (measured with
	// GODEBUG=inittrace=1), where a package without them has no init work.
	EnumMaps bool
	// GRPC and Connect, parameter services=grpc, services=connect or
	// services=grpc+connect (or services= given twice), generate service
	// code as protoc-gen-go-grpc and protoc-gen-connect-go do: foo_grpc.pb.go
	// beside foo.pb.go, in its package, and fooconnect/foo.connect.go, a
	// package of its own. Default none (services=none): a service produces
	// no code. See services.go.
	GRPC, Connect bool
	// Runtime, parameter runtime=import|local, says where the generated code
	// finds protoplay's runtime. "import" (or "", the default here; the
	// command-line tools default to "local", see WithToolDefaults) imports
	// github.com/protoplay/protoplay/runtime/wire and runtime/wkt/*. "local"
	// writes the runtime packages the output imports (runtime/wire and the
	// runtime/wkt packages it uses, with their own dependencies) into the
	// output, at import path <root>/protoplay/runtime/..., and rewrites the
	// generated imports to them, so the output builds with no network and no
	// github.com/protoplay/protoplay module. <root> is Module when set, else
	// the longest import path prefix the generated packages share (an error
	// when they share none); with paths=source_relative it is the import
	// path the output directory stands for (a file's Go package with the
	// file's directory taken off its end, e.g. example.com/m for x/a.proto
	// in example.com/m/x), when every generated file says the same, so that
	// separate runs into one directory (buf runs a plugin per directory)
	// share one runtime. Service code (services=) still imports grpc-go,
	// connect-go and github.com/protoplay/protoplay/codec. See runtime.go.
	Runtime string
	// RuntimeRoot, parameter runtime_root=IMPORT_PATH, is the import path
	// of the output directory under paths=source_relative with
	// runtime=local: the runtime is written to protoplay/runtime/... in
	// the output directory and imported as
	// RuntimeRoot/protoplay/runtime/..., whatever the files' Go packages
	// say. A file's go_package need not name the module it is generated
	// into (a single package builds anywhere, as with protoc-gen-go), so
	// the import path the output directory stands for by the Go packages
	// (see Runtime) can be one no go.mod gives it; protoplay gen sets
	// RuntimeRoot from the go.mod above its -o directory when the option
	// is not given. Only with paths=source_relative (with paths=import,
	// module= is the output directory's import path) and not with
	// runtime=import.
	RuntimeRoot string
	// DefaultAPILevel, parameter default_api_level=API_OPEN|API_HYBRID|API_OPAQUE,
	// is the API level of a message whose file and enclosing declarations
	// resolve no features.(pb.go).api_level (editions before 2024 set
	// none by default), as protoc-gen-go's option of the same name; ""
	// is API_OPEN. See APILevel for the precedence.
	DefaultAPILevel string
	// APILevelMap, parameters apilevelM<file>=<level>, gives the API level
	// of the named .proto file's messages over DefaultAPILevel, as
	// protoc-gen-go's apilevelM options.
	APILevelMap map[string]string
	// Lazy, parameters lazy=<field full name> (repeatable), names the
	// singular message fields (e.g. "pkg.Msg.field") that an opaque
	// message decodes on first access, as it does the fields marked
	// [lazy = true] or [unverified_lazy = true] (see lazy.go). A name that
	// is no singular message field of an opaque message is decoded
	// eagerly, as the open API decodes every field.
	Lazy map[string]bool
	// Features, parameter features=F+F+... (or features= given several
	// times, whose values add up), chooses the method families generated
	// for every message (see Features); the zero value is all of them.
	// Validate refuses a set that leaves out a family another one calls.
	Features Features
}

// Features is a set of method families generated for messages, as
// vtprotobuf's features=. Every message always has its struct, getters
// (or opaque accessors and builder), Reset, CheckInitialized and, with
// extension ranges, ProtoUnknownFields; enums always have their constants,
// String and Enum. The zero Features is every family (FeaturesAll).
type Features uint16

// The method families.
const (
	// FeatureMarshal: Marshal, MarshalAppend, MarshalToSizedBuffer. Needs
	// FeatureSize.
	FeatureMarshal Features = 1 << iota
	// FeatureUnmarshal: Unmarshal, UnmarshalDepth, UnmarshalWith,
	// UnmarshalGroup.
	FeatureUnmarshal
	// FeatureSize: Size.
	FeatureSize
	// FeatureEqual: Equal. Needs FeatureSize: in a repeated field, map
	// or oneof a nil message equals an empty one, which Size tells.
	FeatureEqual
	// FeatureClone: Clone.
	FeatureClone
	// FeatureJSON: MarshalJSON, UnmarshalJSON, MarshalProtoJSON,
	// UnmarshalProtoJSON, EncodeProtoJSON, DecodeProtoJSON, the enums'
	// ProtoJSON methods and each file's NewMessage_ resolver. Needs
	// FeatureMarshal, FeatureUnmarshal and FeatureSize: a
	// google.protobuf.Any holds its message's wire encoding, and the
	// resolver's messages (protojson.Message) convert between the two.
	FeatureJSON
	// FeatureText: MarshalText, UnmarshalText, MarshalProtoText,
	// UnmarshalProtoText, String, EncodeProtoText, DecodeProtoText and
	// the enums' DecodeProtoText. Needs FeatureJSON: the text format
	// resolves Any types with the ProtoJSON resolver.
	FeatureText

	// featuresGiven marks a set chosen by features= (so that
	// features=none, no family, differs from the zero value, all).
	featuresGiven
)

// FeaturesAll is every method family: what the zero Features means.
const FeaturesAll = FeatureMarshal | FeatureUnmarshal | FeatureSize | FeatureEqual | FeatureClone | FeatureJSON | FeatureText

// featureNames are the features= words, in the order String writes them.
var featureNames = []struct {
	name string
	f    Features
}{
	{"marshal", FeatureMarshal}, {"unmarshal", FeatureUnmarshal}, {"size", FeatureSize},
	{"equal", FeatureEqual}, {"clone", FeatureClone}, {"json", FeatureJSON}, {"text", FeatureText},
}

// Has reports whether every family in x is in f (the zero f has them all).
func (f Features) Has(x Features) bool {
	if f == 0 {
		return true
	}
	return f&x == x
}

// String is f as a features= value: "all", "none", or the families joined
// by "+" ("marshal+unmarshal+size").
func (f Features) String() string {
	if f == 0 || f&FeaturesAll == FeaturesAll {
		return "all"
	}
	var words []string
	for _, n := range featureNames {
		if f&n.f != 0 {
			words = append(words, n.name)
		}
	}
	if len(words) == 0 {
		return "none"
	}
	return strings.Join(words, "+")
}

// setFeatures applies features=V: "all", "none", or families joined by
// "+". Values add up over repeated parameters, as services= does.
func (o *Options) setFeatures(v string) error {
	f := o.Features | featuresGiven
	for _, w := range strings.Split(v, "+") {
		switch w {
		case "all":
			f |= FeaturesAll
			continue
		case "none":
			continue
		}
		found := false
		for _, n := range featureNames {
			if n.name == w {
				f |= n.f
				found = true
			}
		}
		if !found {
			return fmt.Errorf(`option features=%q: unknown family %q (want "all", "none", or some of marshal, unmarshal, size, equal, clone, json, text joined by "+")`, v, w)
		}
	}
	o.Features = f
	return nil
}

// Validate reports an option set whose parts cannot go together: a
// features= set leaving out a family that another family it has calls,
// or service code (services=) without the binary codec it sends.
func (o Options) Validate() error {
	f := o.Features
	need := func(has, what Features, why string) error {
		if f.Has(has) && !f.Has(what) {
			return fmt.Errorf("option features=%s: %s needs %s (%s); add it, or use features=all", f, Features(has|featuresGiven), Features(what&^f|featuresGiven), why)
		}
		return nil
	}
	if err := need(FeatureMarshal, FeatureSize, "Marshal sizes its buffer with Size"); err != nil {
		return err
	}
	if err := need(FeatureEqual, FeatureSize, "a nil message in a repeated field, map or oneof equals one of Size 0"); err != nil {
		return err
	}
	if err := need(FeatureJSON, FeatureMarshal|FeatureUnmarshal|FeatureSize, "a google.protobuf.Any in ProtoJSON holds its message's wire encoding"); err != nil {
		return err
	}
	if err := need(FeatureText, FeatureJSON, "the text format resolves Any types with the ProtoJSON resolver"); err != nil {
		return err
	}
	if o.RuntimeRoot != "" {
		if o.Paths != "source_relative" {
			return fmt.Errorf("option runtime_root=%s goes with paths=source_relative (with paths=import, module= is the output directory's import path)", o.RuntimeRoot)
		}
		if o.Runtime == "import" {
			return fmt.Errorf("option runtime_root=%s places the runtime of runtime=local, but runtime=import imports it", o.RuntimeRoot)
		}
	}
	if (o.GRPC || o.Connect) && !f.Has(FeatureMarshal|FeatureUnmarshal|FeatureSize) {
		return fmt.Errorf("option services=%s needs features=marshal+unmarshal+size at least (the service codecs send messages in the wire format); features=%s", o.servicesValue(), f)
	}
	return nil
}

// ToolRuntime is the runtime= of protoplay's command-line tools
// (protoplay gen and protoc-gen-protoplay) when their options give none:
// "local", so that what someone who installed the tools generates builds
// in their own module with no further step (github.com/protoplay/protoplay
// is not on the module proxy yet, so code importing its runtime does not
// build outside this repository). runtime=import asks for the import. The
// zero Options, as the library, the playground and the npm package use
// them, keep "import".
const ToolRuntime = "local"

// WithToolDefaults returns o with the defaults of the command-line tools
// applied: Runtime ToolRuntime unless a runtime= option set it or o asks
// for service code (services=), which imports
// github.com/protoplay/protoplay/codec, so needs that module anyway.
func (o Options) WithToolDefaults() Options {
	if o.Runtime == "" && !o.GRPC && !o.Connect {
		o.Runtime = ToolRuntime
	}
	return o
}

// DefaultImportPrefix is the default of Options.DefaultImportPrefix.
const DefaultImportPrefix = "protoplay.local"

// ParseOptions parses protoc-style plugin parameters: "k=v,k=v". Known keys:
// paths=import|source_relative, module=PATH, M<file>=<path>[;name],
// unknown_fields=keep|drop, enum_maps=true|false, default_import_prefix=PATH,
// runtime=import|local, runtime_root=PATH, default_api_level=API_OPEN|API_HYBRID|API_OPAQUE,
// apilevelM<file>=<level>, lazy=<field full name> (repeatable), services=none|grpc|connect|grpc+connect (repeated values add up, so
// "services=grpc,services=connect" is "services=grpc+connect"),
// features=all|none|F+F+... (F one of marshal, unmarshal, size, equal, clone,
// json, text; repeated values add up). An unknown key or a bad value is an
// error naming it, and so is a set Validate refuses.
func ParseOptions(param string) (Options, error) {
	var o Options
	for _, kv := range strings.Split(param, ",") {
		if kv == "" {
			continue
		}
		if err := o.Set(kv); err != nil {
			return o, err
		}
	}
	return o, o.Validate()
}

// Set applies one "key=value" parameter to o.
func (o *Options) Set(kv string) error {
	k, v, _ := strings.Cut(kv, "=")
	switch {
	case k == "paths":
		if v != "import" && v != "source_relative" {
			return fmt.Errorf(`option paths=%q: want "import" or "source_relative"`, v)
		}
		o.Paths = v
	case k == "module":
		o.Module = v
	case k == "unknown_fields":
		switch v {
		case "keep":
			o.DropUnknown = false
		case "drop":
			o.DropUnknown = true
		default:
			return fmt.Errorf(`option unknown_fields=%q: want "keep" or "drop"`, v)
		}
	case k == "enum_maps":
		switch v {
		case "true":
			o.EnumMaps = true
		case "false":
			o.EnumMaps = false
		default:
			return fmt.Errorf(`option enum_maps=%q: want "true" or "false"`, v)
		}
	case k == "default_import_prefix":
		if v == "" {
			return fmt.Errorf("option default_import_prefix: empty value")
		}
		o.DefaultImportPrefix = v
	case k == "services":
		return o.setServices(v)
	case k == "features":
		return o.setFeatures(v)
	case k == "runtime":
		switch v {
		case "import", "local":
			o.Runtime = v
		default:
			return fmt.Errorf(`option runtime=%q: want "import" or "local"`, v)
		}
	case k == "runtime_root":
		v = strings.TrimSuffix(v, "/")
		if v == "" || strings.HasPrefix(v, "/") || strings.Contains(v, "//") {
			return fmt.Errorf(`option runtime_root=%q: want the Go import path of the output directory, like "example.com/m/gen"`, v)
		}
		o.RuntimeRoot = v
	case k == "default_api_level":
		if !validAPILevel(v) {
			return fmt.Errorf(`option default_api_level=%q: want "API_OPEN", "API_HYBRID" or "API_OPAQUE"`, v)
		}
		o.DefaultAPILevel = v
	case k == "lazy":
		if v == "" || strings.HasPrefix(v, ".") || !strings.Contains(v, ".") {
			return fmt.Errorf(`option lazy=%q: want the full name of a message field, like "pkg.Msg.field"`, v)
		}
		if o.Lazy == nil {
			o.Lazy = map[string]bool{}
		}
		o.Lazy[v] = true
	case strings.HasPrefix(k, "apilevelM") && len(k) > len("apilevelM"):
		if !validAPILevel(v) {
			return fmt.Errorf(`option %s=%q: want "API_OPEN", "API_HYBRID" or "API_OPAQUE"`, k, v)
		}
		if o.APILevelMap == nil {
			o.APILevelMap = map[string]string{}
		}
		o.APILevelMap[k[len("apilevelM"):]] = v
	case strings.HasPrefix(k, "M") && len(k) > 1:
		if v == "" || strings.HasPrefix(v, ";") {
			// protoc-gen-go cannot place the file either ("unable to
			// determine Go import path"); taken as unset, the file's own
			// go_package would be overridden by the default prefix.
			return fmt.Errorf(`option %s=%q: want the Go import path of the file's package, like "example.com/shop/v1" or "example.com/shop/v1;shopv1"`, k, v)
		}
		if o.ImportMap == nil {
			o.ImportMap = map[string]string{}
		}
		o.ImportMap[k[1:]] = v
	case k == "plugins":
		// protoc-gen-go's old grpc plugin option.
		return fmt.Errorf("option plugins=%s is protoc-gen-go's old way to ask for gRPC code: give services=grpc", v)
	case k == "annotate_code":
		return fmt.Errorf("option annotate_code is protoc-gen-go's: protoplay writes no .meta annotation files; leave it out")
	default:
		return fmt.Errorf("unknown option %q (known: paths, module, M<file>, unknown_fields, enum_maps, default_import_prefix, services, features, runtime, runtime_root, default_api_level, apilevelM<file>, lazy)", k)
	}
	return nil
}

// String renders o as plugin parameters, in a fixed order; ParseOptions of
// the result gives back o.
func (o Options) String() string {
	var parts []string
	if o.Paths != "" {
		parts = append(parts, "paths="+o.Paths)
	}
	if o.Module != "" {
		parts = append(parts, "module="+o.Module)
	}
	if o.DropUnknown {
		parts = append(parts, "unknown_fields=drop")
	}
	if o.EnumMaps {
		parts = append(parts, "enum_maps=true")
	}
	if o.DefaultImportPrefix != "" {
		parts = append(parts, "default_import_prefix="+o.DefaultImportPrefix)
	}
	if s := o.servicesValue(); s != "" {
		parts = append(parts, "services="+s)
	}
	if o.Features != 0 {
		parts = append(parts, "features="+o.Features.String())
	}
	if o.Runtime != "" {
		parts = append(parts, "runtime="+o.Runtime)
	}
	if o.RuntimeRoot != "" {
		parts = append(parts, "runtime_root="+o.RuntimeRoot)
	}
	if o.DefaultAPILevel != "" {
		parts = append(parts, "default_api_level="+o.DefaultAPILevel)
	}
	levels := make([]string, 0, len(o.APILevelMap))
	for k := range o.APILevelMap {
		levels = append(levels, k)
	}
	sort.Strings(levels)
	for _, k := range levels {
		parts = append(parts, "apilevelM"+k+"="+o.APILevelMap[k])
	}
	lazy := make([]string, 0, len(o.Lazy))
	for k := range o.Lazy {
		lazy = append(lazy, k)
	}
	sort.Strings(lazy)
	for _, k := range lazy {
		parts = append(parts, "lazy="+k)
	}
	keys := make([]string, 0, len(o.ImportMap))
	for k := range o.ImportMap {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		parts = append(parts, "M"+k+"="+o.ImportMap[k])
	}
	return strings.Join(parts, ",")
}
