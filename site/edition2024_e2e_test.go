package site_test

// The corpus's edition 2024 files in the page and in Node (issue 25): each
// compiles, generates the opaque API its edition defaults to, and its
// generated Go passes the page's checks, interpreted in the browser; the
// one refused where protoc refuses it shows that error at its place.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// edition2024Case is one corpus file (relative to the corpus's protobuf/
// directory) with the non-standard files it imports, which join the
// workspace under their import paths, as protoc's -I would find them.
type edition2024Case struct {
	file    string
	imports []string
	// goWant is a piece of the generated Go (an opaque accessor); errWant
	// the first error (line:col and message piece) when the file is
	// refused.
	goWant  string
	errLine int
	errWant string
}

var edition2024Cases = []edition2024Case{
	{file: "editions/golden/edition2024_transform/noop.proto", goWant: "*Edition2024TransformNoop) SetStringField(v string)"},
	{file: "editions/golden/edition2024_transform/edition2023.proto", imports: []string{"google/protobuf/java_mutable_features.proto"}, goWant: "*Edition2024Transform_NestedMessage) HasCordField() bool"},
	{file: "google/protobuf/json_options.proto", imports: []string{"google/protobuf/json_enumvalue_options.proto"}, goWant: "package"},
	{file: "google/protobuf/unittest_custom_options_unlinked.proto", goWant: "package"},
	// import option of two proto2 files, one with a MessageSet-typed
	// custom option.
	{file: "google/protobuf/unittest_import_option.proto", imports: []string{"google/protobuf/unittest_custom_options.proto", "google/protobuf/unittest_custom_options_unlinked.proto"}, goWant: "*TestMessage) SetField1(v int32)"},
	// import option "net/proto/proto1_features.proto": a Google-internal
	// file, not in protobuf's tree; protoc refuses the import too.
	{file: "editions/golden/edition2024_transform/proto3.proto", errLine: 14, errWant: `imported file "net/proto/proto1_features.proto" does not exist`},
	{file: "editions/golden/edition2024_transform/proto2.proto", imports: []string{"editions/input/edition2023_transform/proto3.proto"}, errLine: 21, errWant: `imported file "net/proto/proto1_features.proto" does not exist`},
	// features.(pb.cpp).string_type = STRING_PIECE: cpp_features.proto has
	// no such value, and protoc refuses it at the value too.
	{file: "editions/golden/edition2024_transform/test_messages_proto2.proto", imports: []string{"google/protobuf/java_mutable_features.proto"}, errLine: 83, errWant: "cannot find `STRING_PIECE` in this scope"},
	{file: "editions/golden/edition2024_transform/test_messages_proto3.proto", imports: []string{"google/protobuf/java_mutable_features.proto"}, errLine: 102, errWant: "cannot find `STRING_PIECE` in this scope"},
}

func (c edition2024Case) files(t *testing.T, root string) []map[string]string {
	var files []map[string]string
	for _, name := range append([]string{c.file}, c.imports...) {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, map[string]string{"name": name, "text": string(b)})
	}
	return files
}

func TestEdition2024CorpusInBrowser(t *testing.T) {
	t.Parallel()
	root := filepath.Join(needShared(t, "corpus"), "protobuf")
	// The compile time limit is lifted: this test is about what the page
	// makes of the file, not its speed on a busy machine.
	tab := workspaceTab{query: "?timeout=300000"}
	ok := true
	for _, c := range edition2024Cases {
		tab.next(t, ok)
		ok = t.Run(filepath.Base(c.file), func(t *testing.T) {
			ctx := tab.load(t, map[string]any{"files": c.files(t, root), "active": c.file, "options": ""})
			const errorDiags = `[...document.querySelectorAll('[data-testid=diagnostic].error')]`
			if c.errWant != "" {
				text := eval[string](t, ctx, errorDiags+`[0].innerText.replace(/\s+/g, ' ')`)
				line := eval[string](t, ctx, errorDiags+`[0].dataset.line`)
				if !strings.Contains(text, c.errWant) || line != itoa(c.errLine) {
					t.Errorf("first error %q at line %s; want %q at line %d", text, line, c.errWant, c.errLine)
				}
				return
			}
			if n := eval[int](t, ctx, errorDiags+`.length`); n > 0 {
				t.Fatalf("%d error diagnostics: %s", n, eval[string](t, ctx, errorDiags+`.map(e => e.innerText).join('\n')`))
			}
			// The file's own Go, picked in the Go pane's tabs as a person
			// would (an imported file's Go may be the one shown first).
			goFile := strings.TrimSuffix(filepath.Base(c.file), ".proto") + ".pb.go"
			const goTabs = `[...document.querySelectorAll('[data-testid=go-file-tab]')]`
			waitJS(t, ctx, "the Go pane's tab of "+goFile, goTabs+`.some(b => b.dataset.name.endsWith('/'+`+jsString(goFile)+`))`, 60*time.Second)
			eval[bool](t, ctx, `(() => { `+goTabs+`.find(b => b.dataset.name.endsWith("/"+`+jsString(goFile)+`)).click(); return true; })()`)
			waitJS(t, ctx, "the generated Go", goText+`.includes(`+jsString(c.goWant)+`)`, 60*time.Second)
			selectTab(t, ctx, "tab-checks")
			waitJS(t, ctx, "the checks of the generated Go", goChecksState+` === 'done' || `+goChecksState+` === 'error'`, 150*time.Second)
			status := eval[string](t, ctx, `document.querySelector('[data-testid=go-checks-status]').innerText`)
			if eval[string](t, ctx, goChecksState) == "error" {
				t.Fatalf("the checks of the generated Go stopped: %s", status)
			}
			for _, r := range goCheckRows(t, ctx) {
				if r.Go != "pass" {
					t.Errorf("%s: generated %q: %s", r.Type, r.Go, r.Text)
				}
			}
			t.Logf("%s", status)
		})
	}
}

const edition2024Script = `
import * as pp from "protoplay";
import { readFileSync } from "node:fs";
const cases = JSON.parse(readFileSync("cases.json", "utf8"));
const out = [];
for (const c of cases) {
  // A schema with errors rejects with its diagnostics (error.diagnostics).
  try {
    const r = await pp.compile(c.files);
    out.push({ error: "", go: r.generated.map((g) => g.content).join("\n") });
  } catch (e) {
    const err = (e.diagnostics ?? []).find((d) => d.severity === "error");
    out.push({ error: err ? err.file + ":" + err.line + ": " + err.message : String(e), go: "" });
  }
}
console.log(JSON.stringify(out));
`

// TestNPMPackageNodeEdition2024: the same files through the npm package in
// Node: the same Go pieces, the same refusal at the same place.
func TestNPMPackageNodeEdition2024(t *testing.T) {
	t.Parallel()
	root := filepath.Join(needShared(t, "corpus"), "protobuf")
	dir := installPackage(t)
	var cases []map[string]any
	for _, c := range edition2024Cases {
		files := map[string]string{}
		for _, f := range c.files(t, root) {
			files[f["name"]] = f["text"]
		}
		cases = append(cases, map[string]any{"files": files})
	}
	js, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "cases.json"), string(js))
	writeFile(t, filepath.Join(dir, "edition2024.mjs"), edition2024Script)
	var out []struct{ Error, Go string }
	runNode(t, dir, &out, "edition2024.mjs")
	if len(out) != len(edition2024Cases) {
		t.Fatalf("%d results for %d cases", len(out), len(edition2024Cases))
	}
	for i, c := range edition2024Cases {
		got := out[i]
		if c.errWant != "" {
			if want := c.file + ":" + itoa(c.errLine) + ": "; !strings.HasPrefix(got.Error, want) || !strings.Contains(got.Error, c.errWant) {
				t.Errorf("%s: first error %q; want %s... %q", c.file, got.Error, want, c.errWant)
			}
			continue
		}
		if got.Error != "" {
			t.Errorf("%s: %s", c.file, got.Error)
		} else if !strings.Contains(got.Go, c.goWant) {
			t.Errorf("%s: the generated Go has no %q", c.file, c.goWant)
		}
	}
}
