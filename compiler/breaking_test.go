package compiler_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/protoplay/protoplay/compiler"
)

const readerBase = `syntax = "proto3";
package shop.v1;

message Item {
  int32 count = 1;
  Color color = 2;
  string name = 3;
  Inner inner = 4;
}

message Inner {
  int32 x = 1;
}

enum Color {
  COLOR_UNSPECIFIED = 0;
  COLOR_RED = 1;
}
`

const readerCurrent = `syntax = "proto3";
package shop.v1;

message Item {
  sint32 count = 1;
  Color color = 2;
  string title = 3;
  Inner inner = 4;
  string note = 5;
}

message Inner {
  int32 x = 1;
  bool flag = 2;
}

enum Color {
  COLOR_UNSPECIFIED = 0;
  COLOR_RED = 1;
  COLOR_BLUE = 2;
}
`

// TestOldReader: bytes written with the current schema, read with the
// baseline: a type change alters the value, an enum value and fields the
// old reader does not know, a renamed field.
func TestOldReader(t *testing.T) {
	var w compiler.Workspace
	ctx := context.Background()
	cur := compiler.Sources{"shop.proto": readerCurrent}
	base := compiler.Sources{"shop.proto": readerBase}
	enc, err := w.Encode(ctx, compiler.EncodeRequest{Files: cur, Type: "shop.v1.Item",
		Input: `{"count": -3, "color": "COLOR_BLUE", "title": "hat", "inner": {"x": 1, "flag": true}, "note": "new"}`})
	if err != nil {
		t.Fatal(err)
	}
	r, err := w.OldReader(ctx, compiler.OldReaderRequest{Files: cur, Baseline: base, Type: "shop.v1.Item", Input: enc.Hex})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, d := range r.Differences {
		got[d.Path] = d.Kind + ": " + d.Baseline + " | " + d.Message
	}
	want := map[string]string{
		"count":      "value: count int32 = 5 | the old reader reads int32 5, not sint32 -3",
		"color":      "enum: color shop.v1.Color = 2 | the old reader's enum shop.v1.Color has no value 2 (no value of shop.v1.Color has this number)",
		"title":      "name: name string = \"hat\" | the old reader calls the field name, not title: the value is the same, its JSON and text names differ",
		"inner.flag": "unknown: unknown field 2 (VARINT) | the old reader has no field 2; it keeps the bytes as an unknown field and drops them from JSON",
		"note":       "unknown: unknown field 5 (LEN) | the old reader has no field 5; it keeps the bytes as an unknown field and drops them from JSON",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s:\n got %q\nwant %q", k, got[k], v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("differences: %v", got)
	}
	if !strings.Contains(r.Value, `"count": 5`) || strings.Contains(r.Value, "note") || !strings.Contains(r.CurrentValue, `"count": -3`) {
		t.Errorf("values: old %s, current %s", r.Value, r.CurrentValue)
	}
	if r.View == nil || r.Current == nil || r.Hex != enc.Hex {
		t.Errorf("views missing or hex %q", r.Hex)
	}
	// A baseline that does not compile is a KindSchema error that says so.
	_, err = w.OldReader(ctx, compiler.OldReaderRequest{Files: cur, Baseline: compiler.Sources{"shop.proto": "syntax = \"proto3\";\nmessage {"}, Type: "shop.v1.Item", Input: enc.Hex})
	if e, ok := err.(*compiler.Error); !ok || e.Kind != compiler.KindSchema || !strings.Contains(e.Message, "the baseline does not compile") {
		t.Errorf("bad baseline: %v", err)
	}
	// A type the baseline lacks is a KindType error.
	if _, err := w.OldReader(ctx, compiler.OldReaderRequest{Files: cur, Baseline: compiler.Sources{"x.proto": "syntax = \"proto3\";\nmessage X {}\n"}, Type: "shop.v1.Item", Input: enc.Hex}); err == nil || err.(*compiler.Error).Kind != compiler.KindType {
		t.Errorf("missing type: %v", err)
	}
}

// TestBreakingJSON: the breaking method through the JSON API, with a
// baseline that does not compile and an unknown category.
func TestBreakingJSON(t *testing.T) {
	var w compiler.Workspace
	ctx := context.Background()
	req, _ := json.Marshal(compiler.BreakingRequest{
		Files:      compiler.Sources{"shop.proto": readerCurrent},
		Baseline:   compiler.Sources{"shop.proto": readerBase},
		Categories: []string{"WIRE"},
	})
	out, cerr := w.Call(ctx, "breaking", req)
	if cerr != nil {
		t.Fatal(cerr)
	}
	var res compiler.BreakingResult
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Changes) != 1 || res.Changes[0].Rule != "FIELD_WIRE_COMPATIBLE_TYPE" || res.Changes[0].Line != 5 || res.Changes[0].Column != 3 {
		t.Errorf("changes: %+v", res.Changes)
	}
	req, _ = json.Marshal(compiler.BreakingRequest{Files: compiler.Sources{"shop.proto": readerCurrent}, Baseline: compiler.Sources{"shop.proto": "syntax = \"proto3\";\nmessage {"}})
	out, cerr = w.Call(ctx, "breaking", req)
	if cerr != nil {
		t.Fatal(cerr)
	}
	res = compiler.BreakingResult{}
	if err := json.Unmarshal(out, &res); err != nil || len(res.BaselineDiagnostics) == 0 || len(res.Changes) != 0 {
		t.Errorf("bad baseline: %s", out)
	}
	req, _ = json.Marshal(compiler.BreakingRequest{Files: compiler.Sources{"shop.proto": readerCurrent}, Baseline: compiler.Sources{"shop.proto": readerBase}, Categories: []string{"NOPE"}})
	if _, cerr = w.Call(ctx, "breaking", req); cerr == nil || cerr.Kind != compiler.KindUsage {
		t.Errorf("unknown category: %v", cerr)
	}
}
