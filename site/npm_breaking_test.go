package site_test

// The npm package's breaking() and oldReader() in Node (issue 31).

import (
	"path/filepath"
	"strings"
	"testing"
)

const breakingScript = `
import * as pp from "protoplay";
const base = { "shop.proto": 'syntax = "proto3";\npackage shop.v1;\n\nmessage Item {\n  int32 count = 1;\n  string name = 2;\n}\n' };
const cur = { "shop.proto": 'syntax = "proto3";\npackage shop.v1;\n\nmessage Item {\n  sint32 count = 1;\n  string title = 2;\n  string note = 3;\n}\n' };
const file = await pp.breaking(cur, base);
const wire = await pp.breaking(cur, base, { categories: ["WIRE"] });
const bad = await pp.breaking(cur, { "shop.proto": "syntax = \"proto3\";\nmessage {" });
let usage = null;
try { await pp.breaking(cur, base, { categories: ["NOPE"] }); } catch (e) { usage = { kind: e.detail?.kind, message: e.message }; }
let argErr = null;
try { await pp.breaking(cur, base, { rules: "FIELD_SAME_TYPE" }); } catch (e) { argErr = e.message; }
const enc = await pp.encode(cur, "shop.v1.Item", { count: -3, title: "hat", note: "new" });
const old = await pp.oldReader(cur, base, "shop.v1.Item", enc.bytes);
console.log(JSON.stringify({
  file: file.changes.map((c) => c.file + ":" + c.line + ":" + c.column + ": " + c.rule),
  wire: wire.changes.map((c) => c.rule),
  bad: bad.baselineDiagnostics.length, badChanges: bad.changes.length,
  usage, argErr,
  diffs: old.differences.map((d) => d.path + " " + d.kind + " " + d.baseline),
  value: JSON.parse(old.value), hex: old.hex, viewFields: old.view.fields.length,
}));
`

func TestNPMPackageNodeBreaking(t *testing.T) {
	t.Parallel()
	dir := installPackage(t)
	writeFile(t, filepath.Join(dir, "breaking.mjs"), breakingScript)
	var out struct {
		File, Wire, Diffs []string
		Bad, BadChanges   int
		Usage             struct{ Kind, Message string }
		ArgErr            string
		Value             map[string]any
		Hex               string
		ViewFields        int
	}
	runNode(t, dir, &out, "breaking.mjs")
	want := "shop.proto:5:3: FIELD_SAME_TYPE shop.proto:6:3: FIELD_SAME_JSON_NAME shop.proto:6:10: FIELD_SAME_NAME"
	if got := strings.Join(out.File, " "); got != want {
		t.Errorf("FILE changes %q, want %q", got, want)
	}
	if strings.Join(out.Wire, " ") != "FIELD_WIRE_COMPATIBLE_TYPE" {
		t.Errorf("WIRE changes %q", out.Wire)
	}
	if out.Bad == 0 || out.BadChanges != 0 {
		t.Errorf("a baseline with errors: %d diagnostics, %d changes", out.Bad, out.BadChanges)
	}
	if out.Usage.Kind != "usage" || !strings.Contains(out.Usage.Message, `unknown category "NOPE"`) {
		t.Errorf("unknown category: %+v", out.Usage)
	}
	if !strings.Contains(out.ArgErr, "options.rules must be an array of strings") {
		t.Errorf("rules not an array: %q", out.ArgErr)
	}
	wantDiffs := `count value count int32 = 5|title name name string = "hat"|note unknown unknown field 3 (LEN)`
	if got := strings.Join(out.Diffs, "|"); got != wantDiffs {
		t.Errorf("old reader differences %q, want %q", got, wantDiffs)
	}
	if out.Value["count"] != float64(5) || out.Value["name"] != "hat" || out.Value["note"] != nil {
		t.Errorf("old reader value %v", out.Value)
	}
	if out.Hex != "08 05 12 03 68 61 74 1a 03 6e 65 77" || out.ViewFields != 3 {
		t.Errorf("hex %q, %d fields in the view", out.Hex, out.ViewFields)
	}
}
