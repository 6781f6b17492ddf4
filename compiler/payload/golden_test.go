package payload

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// itemHex is an Item (testdata/wire.proto) with every field set, as
// `protoplay encode` writes it, followed by an unknown field in the
// extension range (101), an unknown field (31), field 1 written with the
// wrong wire type (I32) and an overlong varint for field 1.
const itemHex = "a2 06 03 65 78 74 08 96 01 12 06 68 c3 a9 6c 6c 6f 1a 03 01 04 7f 22 05 0a 01 61 10 01 " +
	"22 0e 0a 01 62 10 fe ff ff ff ff ff ff ff ff 01 28 01 32 04 08 01 32 00 3d 07 00 00 00 3d ff ff ff ff " +
	"41 00 00 00 00 00 00 e0 3f 4a 03 00 ff 61 53 58 01 54 62 26 0a 20 74 79 70 65 2e 67 6f 6f 67 6c 65 " +
	"61 70 69 73 2e 63 6f 6d 2f 70 70 2e 77 69 72 65 2e 49 74 65 6d 12 02 08 03 " +
	"a8 06 2a f8 01 07 0d 01 00 00 00 08 80 00"

// nestHex returns depth levels of field number num (LEN) nested in each
// other, the innermost empty.
func nestHex(num byte, depth int) string {
	var b []byte
	for i := 0; i < depth; i++ {
		n := len(b)
		var l []byte
		for n >= 0x80 {
			l = append(l, byte(n)|0x80)
			n >>= 7
		}
		l = append(l, byte(n))
		b = append(append([]byte{num<<3 | 2}, l...), b...)
	}
	s, _ := FormatBinary(b, Hex)
	return string(s)
}

// groupsHex returns depth groups of field 1 nested in each other.
func groupsHex(depth int) string {
	return strings.Repeat("0b ", depth) + strings.TrimSpace(strings.Repeat("0c ", depth))
}

// goldenCases are payloads whose raw decode, wire view and decoded value
// are kept in testdata/golden/NAME.txt. Most come from the headers of the
// bug-case .proto files copied into testdata.
var goldenCases = []struct {
	name, file, typ, hex string
}{
	{"item", "wire.proto", "pp.wire.Item", itemHex},
	{"c14_group", "14_group_in_oneof.proto", "bugcorpus.c14.Check", "0b 08 05 0c"},
	{"c14_group_wrong_end", "14_group_in_oneof.proto", "bugcorpus.c14.Check", "0b 08 05 14"},
	{"c14_group_no_end", "14_group_in_oneof.proto", "bugcorpus.c14.Check", "0b 08 05"},
	{"c16_int32_minus1", "16_negative_varints.proto", "bugcorpus.c16.Reading", "08 ff ff ff ff ff ff ff ff ff 01"},
	{"c16_int32_minus1_5byte", "16_negative_varints.proto", "bugcorpus.c16.Reading", "08 ff ff ff ff 0f"},
	{"c16_int32_min", "16_negative_varints.proto", "bugcorpus.c16.Reading", "08 80 80 80 80 f8 ff ff ff ff 01"},
	{"c16_enum_minus2", "16_negative_varints.proto", "bugcorpus.c16.Reading", "10 fe ff ff ff ff ff ff ff ff 01"},
	{"c16_varint_11byte", "16_negative_varints.proto", "bugcorpus.c16.Reading", "08 ff ff ff ff ff ff ff ff ff ff 01"},
	{"c17_closed_enum_unknown", "17_closed_enum_unknowns.proto", "bugcorpus.c17.Palette", "08 07"},
	{"c17_closed_enum_packed", "17_closed_enum_unknowns.proto", "bugcorpus.c17.Palette", "12 03 01 07 02"},
	{"c17_closed_enum_map", "17_closed_enum_unknowns.proto", "bugcorpus.c17.Palette", "1a 05 0a 01 6b 10 07"},
	{"c19_negative_zero", "19_float_special_values.proto", "bugcorpus.c19.Measure", "09 00 00 00 00 00 00 00 80"},
	{"c20_deep_ok", "20_recursive_message_defaults.proto", "bugcorpus.c20.Chain", nestHex(1, MaxDepth-1)},
	{"c20_too_deep", "20_recursive_message_defaults.proto", "bugcorpus.c20.Chain", nestHex(1, MaxDepth)},
	{"c22_len_max_uint64", "22_malformed_length_overflow.proto", "bugcorpus.c22.Blob", "0a ff ff ff ff ff ff ff ff ff 01"},
	{"c22_len_2pow31", "22_malformed_length_overflow.proto", "bugcorpus.c22.Blob", "0a 80 80 80 80 08"},
	{"c22_len_past_end", "22_malformed_length_overflow.proto", "bugcorpus.c22.Blob", "0a 05 01"},
	{"c22_nested_len_past_end", "22_malformed_length_overflow.proto", "bugcorpus.c22.Blob", "12 03 0a ff 7f"},
	{"c22_wire_type_6", "22_malformed_length_overflow.proto", "bugcorpus.c22.Blob", "0e"},
	{"c22_wire_type_7", "22_malformed_length_overflow.proto", "bugcorpus.c22.Blob", "0f"},
	{"c22_unknown_huge_skip", "22_malformed_length_overflow.proto", "bugcorpus.c22.Blob", "3a ff ff ff ff ff ff ff ff 7f"},
	{"c23_empty_map_entry", "23_unsafe_unmarshal_empty_strings.proto", "bugcorpus.c23.Labels", "0a 04 0a 00 12 00"},
	{"c23_empty_oneof", "23_unsafe_unmarshal_empty_strings.proto", "bugcorpus.c23.Labels", "12 00"},
	{"c23_empty_repeated", "23_unsafe_unmarshal_empty_strings.proto", "bugcorpus.c23.Labels", "1a 00 1a 01 78"},
	{"c25_max_field_number", "25_large_field_numbers.proto", "bugcorpus.c25.Edge", "f8 ff ff ff 0f 01"},
	{"c25_4byte_tag", "25_large_field_numbers.proto", "bugcorpus.c25.Edge", "82 80 80 40 00"},
	{"c25_field_2pow29", "25_large_field_numbers.proto", "bugcorpus.c25.Edge", "80 80 80 80 10 01"},
	{"c25_field_0", "25_large_field_numbers.proto", "bugcorpus.c25.Edge", "00 01"},
	{"c25_extension_max", "25_large_field_numbers.proto", "bugcorpus.c25.Host", "fd ff ff ff 0f 2a 00 00 00"},
	{"c30_zero_values", "30_proto2_required_and_defaults.proto", "bugcorpus.c30.Job", "08 00 10 00"},
	{"c30_missing_required", "30_proto2_required_and_defaults.proto", "bugcorpus.c30.Job", "18 03"},
	{"truncated_varint", "wire.proto", "pp.wire.Item", "08 96"},
	{"truncated_fixed64", "wire.proto", "pp.wire.Item", "41 00 00 00"},
	{"overlong_varint", "wire.proto", "pp.wire.Item", "08 80 80 80 00"},
	{"end_group_alone", "wire.proto", "pp.wire.Item", "54"},
	{"groups_too_deep", "wire.proto", "pp.wire.Item", groupsHex(MaxUnknownDepth + 1)},
	{"groups_deepest", "wire.proto", "pp.wire.Item", groupsHex(MaxUnknownDepth)},
	{"tag_overlong_9bytes", "wire.proto", "pp.wire.Item", "88 80 80 80 80 80 80 80 00 d2 09"},
	{"tag_5byte_nonminimal", "wire.proto", "pp.wire.Item", "88 80 80 80 00 d2 09"},
	{"empty", "wire.proto", "pp.wire.Item", ""},
}

func TestGolden(t *testing.T) {
	schemas := map[string]*Schema{}
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			s := schemas[c.file]
			if s == nil {
				s = compileFS(t, testdataFS, testdataRoots, c.file)
				schemas[c.file] = s
			}
			md := mustFind(t, s, c.typ)
			got := goldenReport(t, s, md, c.hex)
			path := filepath.Join("testdata", "golden", c.name+".txt")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from the golden file (go test -update rewrites it); got:\n%s", path, got)
			}
		})
	}
}

// goldenReport renders everything the package says about one payload.
func goldenReport(t *testing.T, s *Schema, md protoreflect.MessageDescriptor, hexIn string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("# type " + string(md.FullName()) + "\n# input " + hexIn + "\n")
	p, enc, err := ParseBinary([]byte(hexIn), Auto)
	if err != nil {
		t.Fatal(err)
	}
	if enc != Hex {
		t.Fatalf("input detected as %s, want hex", enc)
	}
	raw, rerr := DecodeRaw(p)
	if (rerr == nil) != (raw.Error == nil) {
		t.Errorf("DecodeRaw error %v but View.Error %v", rerr, raw.Error)
	}
	b.WriteString("\n== decode --raw\n" + Listing(raw, p))
	wire, werr := s.WireView(md, p)
	if (werr == nil) != (wire.Error == nil) {
		t.Errorf("WireView error %v but View.Error %v", werr, wire.Error)
	}
	b.WriteString("\n== decode --out wire\n" + Listing(wire, p))
	for _, f := range []Format{JSON, Text} {
		b.WriteString("\n== decode --out " + string(f) + "\n")
		dec, err := s.Decode(md, []byte(hexIn), DecodeOptions{Out: f})
		if err != nil {
			e := AsError(err)
			j, _ := json.Marshal(e)
			b.WriteString("error: " + err.Error() + "\n" + string(j) + "\n")
			continue
		}
		b.WriteString(strings.Join(dec.Messages, ""))
	}
	return b.String()
}
