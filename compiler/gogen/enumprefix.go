package gogen

import (
	"strings"
	"unicode"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

// Values of the Go feature strip_enum_prefix (features.(pb.go), field 3
// of pb.GoFeatures in google/protobuf/go_features.proto).
const (
	stripEnumPrefixUnspecified  = 0
	stripEnumPrefixKeep         = 1
	stripEnumPrefixGenerateBoth = 2
	stripEnumPrefixStrip        = 3
)

// stripEnumPrefix is the strip_enum_prefix feature resolved for an enum
// value: set on the value, else on its enum, else on the messages
// enclosing the enum, else on the file; KEEP (the default of every
// edition so far) when set nowhere.
func stripEnumPrefix(v protoreflect.EnumValueDescriptor) int {
	for d := protoreflect.Descriptor(v); d != nil; d = d.Parent() {
		if n := goFeature(d.Options(), 3); n != stripEnumPrefixUnspecified {
			return n
		}
		if _, ok := d.(protoreflect.FileDescriptor); ok {
			break
		}
	}
	return stripEnumPrefixKeep
}

// goFeature returns the varint field num of the pb.GoFeatures set in
// opts' features (FeatureSet extension 1002), 0 when unset. It reads the
// encoded options, so that it works whether or not the extension type is
// linked into the binary.
func goFeature(opts proto.Message, num protowire.Number) int {
	if opts == nil {
		return 0
	}
	var features *descriptorpb.FeatureSet
	switch o := opts.(type) {
	case *descriptorpb.FileOptions:
		features = o.GetFeatures()
	case *descriptorpb.MessageOptions:
		features = o.GetFeatures()
	case *descriptorpb.EnumOptions:
		features = o.GetFeatures()
	case *descriptorpb.EnumValueOptions:
		features = o.GetFeatures()
	}
	if features == nil {
		return 0
	}
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(features)
	if err != nil {
		return 0
	}
	val := 0
	for _, goFeatures := range fieldBytes(b, 1002) {
		for len(goFeatures) > 0 {
			n, typ, l := protowire.ConsumeTag(goFeatures)
			if l < 0 {
				break
			}
			goFeatures = goFeatures[l:]
			if n == num && typ == protowire.VarintType {
				v, l := protowire.ConsumeVarint(goFeatures)
				if l < 0 {
					break
				}
				val = int(v)
				goFeatures = goFeatures[l:]
				continue
			}
			l = protowire.ConsumeFieldValue(n, typ, goFeatures)
			if l < 0 {
				break
			}
			goFeatures = goFeatures[l:]
		}
	}
	return val
}

// fieldBytes returns the values of the LEN field num in the message b.
func fieldBytes(b []byte, num protowire.Number) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		n, typ, l := protowire.ConsumeTag(b)
		if l < 0 {
			return out
		}
		b = b[l:]
		if n == num && typ == protowire.BytesType {
			v, l := protowire.ConsumeBytes(b)
			if l < 0 {
				return out
			}
			out = append(out, v)
			b = b[l:]
			continue
		}
		l = protowire.ConsumeFieldValue(n, typ, b)
		if l < 0 {
			return out
		}
		b = b[l:]
	}
	return out
}

// trimEnumPrefix removes the enum's name from the start of a value's
// name as protoc-gen-go does (its strs.TrimEnumPrefix): prefix is the
// enum's name lower-cased without underscores, compared with the value's
// letters case-insensitively, underscores skipped; the underscores after
// it are dropped too. The name stays whole when it does not start with
// the prefix or would be left empty.
func trimEnumPrefix(s, prefix string) string {
	s0 := s
	for len(s) > 0 && len(prefix) > 0 {
		if s[0] == '_' {
			s = s[1:]
			continue
		}
		if unicode.ToLower(rune(s[0])) != rune(prefix[0]) {
			return s0
		}
		s, prefix = s[1:], prefix[1:]
	}
	if len(prefix) > 0 {
		return s0
	}
	s = strings.TrimLeft(s, "_")
	if len(s) == 0 {
		return s0
	}
	return s
}

// enumValuePrefix is the prefix trimEnumPrefix takes for ed.
func enumValuePrefix(ed protoreflect.EnumDescriptor) string {
	return strings.ReplaceAll(strings.ToLower(string(ed.Name())), "_", "")
}
