package payload

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/protoplay/protoplay/compiler/diag"
)

func TestInferRules(t *testing.T) {
	h := func(s string) []byte {
		b, err := parseHex([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	text, err := Infer([][]byte{
		// 1: varint 150; 2: "hi"; 3: {1: 1}; 4: packed [1, 2]; 5: float 1.5;
		// 6: group {1: 7}; 7: repeated varint; 8: bytes ff
		h("08 96 01 12 02 68 69 1a 02 08 01 22 02 01 02 2d 00 00 c0 3f 33 08 07 34 38 01 38 00 42 01 ff"),
		h("08 01 12 00 1a 00 22 01 05 2d 00 00 80 3f 42 02 ff fe"),
	}, InferOptions{Name: "Shape", Package: "my.pkg"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"edition = \"2023\";", "package my.pkg;", "message Shape {",
		"int64 field1 = 1;", "string field2 = 2;", "Field3Message field3 = 3;", "message Field3Message {",
		"repeated int64 field4 = 4;", "float field5 = 5;",
		"Field6Message field6 = 6 [features.message_encoding = DELIMITED];",
		"repeated bool field7 = 7;", "bytes field8 = 8;",
		"// Seen as VARINT 2 times, in 2 of 2 messages; values 1 to 150.",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
}

func TestInferEnumAndSint(t *testing.T) {
	var samples [][]byte
	for _, v := range []byte{1, 2, 3, 1, 2, 3} {
		samples = append(samples, []byte{0x08, v, 0x10, v*2 + v%2 + 1})
	}
	text, err := Infer(samples, InferOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Field1Enum field1 = 1;", "FIELD1_ENUM_0 = 0;", "FIELD1_ENUM_3 = 3;"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
}

func TestInferErrors(t *testing.T) {
	deep := bytes.Repeat([]byte{0x0b}, MaxInferDepth+1) // SGROUP of field 1, nested
	deep = append(deep, bytes.Repeat([]byte{0x0c}, MaxInferDepth+1)...)
	for _, c := range []struct {
		name    string
		samples [][]byte
		opt     InferOptions
		kind    string
		limit   string
		offset  int
		record  int
	}{
		{"none", nil, InferOptions{}, diag.KindUsage, "", -1, 0},
		{"too many", make([][]byte, MaxInferSamples+1), InferOptions{}, diag.KindLimit, "MaxInferSamples", -1, 0},
		{"truncated LEN in the second", [][]byte{{0x08, 0x01}, {0x08, 0x01, 0x12, 0x05, 0x61}}, InferOptions{}, diag.KindPayload, "", 3, 1},
		{"groups too deep", [][]byte{deep}, InferOptions{}, diag.KindLimit, "MaxInferDepth", MaxInferDepth - 1, 0},
		{"bad name", [][]byte{{0x08, 0x01}}, InferOptions{Name: "1x"}, diag.KindUsage, "", -1, 0},
		{"bad package", [][]byte{{0x08, 0x01}}, InferOptions{Package: "a..b"}, diag.KindUsage, "", -1, 0},
		{"too big", [][]byte{make([]byte, MaxInputBytes+1)}, InferOptions{}, diag.KindLimit, "MaxInputBytes", -1, 0},
	} {
		_, err := Infer(c.samples, c.opt)
		var e *diag.Error
		if !errors.As(err, &e) {
			t.Errorf("%s: error %v, want a *diag.Error", c.name, err)
			continue
		}
		if e.Kind != c.kind || e.Limit != c.limit || e.Offset != c.offset || e.Record != c.record {
			t.Errorf("%s: %+v, want kind %s limit %q offset %d record %d", c.name, e, c.kind, c.limit, c.offset, c.record)
		}
	}
}

func TestInferDeepLenIsBytes(t *testing.T) {
	// LEN values nested past MaxInferDepth are declared bytes.
	b := []byte{0x08, 0x01}
	for i := 0; i < MaxInferDepth+3; i++ {
		b = append([]byte{0x0a, byte(len(b))}, b...)
		if len(b) > 120 {
			break
		}
	}
	text, err := Infer([][]byte{b}, InferOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(text, "message Field1Message {"); got != MaxInferDepth-1 {
		t.Errorf("%d nested message types, want %d (MaxInferDepth - 1)\n%s", got, MaxInferDepth-1, text)
	}
}

func TestRankTypesErrors(t *testing.T) {
	s := compileSource(t, `syntax = "proto3"; package f; message A { int32 x = 1; string s = 2; } message B { string x = 1; }`)
	mds := s.Messages()
	if _, err := s.RankTypes([]byte{0x08, 0x01, 0x12, 0x09, 0x61}, mds, 0); err == nil {
		t.Fatal("no error for a truncated payload")
	} else if e := AsError(err); e.Kind != diag.KindPayload || e.Offset != 3 {
		t.Errorf("error %+v, want KindPayload at byte 3", e)
	}
	fits, err := s.RankTypes([]byte{0x08, 0x01, 0x12, 0x01, 0xff}, mds, 0)
	if err != nil {
		t.Fatal(err)
	}
	if fits[0].Type != "f.A" || fits[0].BadStrings != 1 || fits[0].Score != 0.4 || fits[0].Mismatched != 0 || fits[1].Type != "f.B" || fits[1].Mismatched != 1 || fits[1].Unknown != 1 {
		t.Errorf("fits %+v", fits)
	}
	if _, err := s.RankTypes(make([]byte, MaxInputBytes+1), mds, 0); AsError(err).Kind != diag.KindLimit {
		t.Errorf("oversized payload: %v", err)
	}
}
