package compiler

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
)

// Tests of the workspace's generated Go as changes (CompileRequest.Have,
// CompileResult.Changes): a caller that applies each change to its copy,
// indexing strings in UTF-16 code units as JavaScript does, holds exactly
// the files a cold compile prints.

// heldFile is a caller's copy of a generated file.
type heldFile struct{ rev, content string }

// applyChanges is what a JavaScript caller does with a result's changes:
// it checks each change's base against its copy and splices the text in
// UTF-16 code units. It returns the new copies.
func applyChanges(t *testing.T, step string, held map[string]heldFile, changes []FileChange) map[string]heldFile {
	t.Helper()
	out := map[string]heldFile{}
	for _, c := range changes {
		if c.Base == "" {
			if c.From != 0 || c.To != 0 {
				t.Fatalf("%s: %s: a whole file with from %d, to %d", step, c.Name, c.From, c.To)
			}
			out[c.Name] = heldFile{c.Rev, c.Insert}
			continue
		}
		h, ok := held[c.Name]
		if !ok || h.rev != c.Base {
			t.Fatalf("%s: %s: a change to rev %q, the caller holds %q (%v)", step, c.Name, c.Base, h.rev, ok)
		}
		u := utf16.Encode([]rune(h.content))
		if c.From < 0 || c.From > c.To || c.To > len(u) {
			t.Fatalf("%s: %s: change %d..%d out of a %d-unit base", step, c.Name, c.From, c.To, len(u))
		}
		text := string(utf16.Decode(u[:c.From])) + c.Insert + string(utf16.Decode(u[c.To:]))
		if c.Rev == c.Base && (c.From != c.To || c.Insert != "") {
			t.Fatalf("%s: %s: same rev %q, yet a change", step, c.Name, c.Rev)
		}
		out[c.Name] = heldFile{c.Rev, text}
	}
	return out
}

func haveOf(held map[string]heldFile) map[string]string {
	have := map[string]string{}
	for name, h := range held {
		have[name] = h.rev
	}
	return have
}

// sameAsCold fails unless held is exactly cold's generated files.
func sameAsCold(t *testing.T, step string, held map[string]heldFile, cold *CompileResult) {
	t.Helper()
	if len(held) != len(cold.Generated) {
		t.Fatalf("%s: the caller holds %d files, a cold compile prints %d", step, len(held), len(cold.Generated))
	}
	for _, f := range cold.Generated {
		h, ok := held[f.Name]
		if !ok {
			t.Fatalf("%s: %s missing", step, f.Name)
		}
		if h.content != f.Content {
			t.Fatalf("%s: %s differs from a cold compile's:\n%s", step, f.Name, firstDifference(h.content, f.Content))
		}
	}
}

// TestWorkspaceChangesMatchCold runs the edit sequence of the cache tests,
// with comments and strings outside ASCII (two-byte, three-byte and
// four-byte UTF-8, which is two UTF-16 units) edited next to each other,
// through one workspace asking for changes, and compares the caller's
// copies with a cold compile at every step.
func TestWorkspaceChangesMatchCold(t *testing.T) {
	w := &Workspace{}
	files := Sources{}
	var held map[string]heldFile
	type step struct {
		name    string
		files   Sources
		options string
	}
	var steps []step
	for _, s := range editSequence {
		steps = append(steps, step{s.name, s.files, s.options})
	}
	uni := `syntax = "proto3";
package uni;
option go_package = "example.com/uni";
// A is café 😀 ∑.
message A { string s = 1; }
// B is 😀😀.
message B { string t = 1; }
`
	steps = append(steps,
		step{"outside ASCII", Sources{"uni.proto": uni}, ""},
		step{"an emoji changed to another with the same first bytes", Sources{"uni.proto": strings.Replace(uni, "😀 ∑", "😁 ∑", 1)}, ""},
		step{"a three-byte rune changed", Sources{"uni.proto": strings.Replace(uni, "😀 ∑", "😁 ∏", 1)}, ""},
		step{"two-unit runes inserted before a change", Sources{"uni.proto": strings.Replace(uni, "B is 😀😀", "B is 😀😀😀", 1)}, ""},
		step{"unchanged", Sources{"uni.proto": strings.Replace(uni, "B is 😀😀", "B is 😀😀😀", 1)}, ""},
		step{"options change every file", Sources{}, "paths=source_relative"},
		step{"a file removed", Sources{"uni.proto": ""}, ""},
	)
	for _, s := range steps {
		for k, v := range s.files {
			if v == "" && s.name == "a file removed" {
				delete(files, k)
				continue
			}
			files[k] = v
		}
		cp := maps.Clone(files)
		have := haveOf(held)
		res, err := w.Generate(context.Background(), CompileRequest{Files: cp, Options: s.options, Have: have})
		if err != nil {
			t.Fatal(err)
		}
		cold := coldGenerate(t, cp, s.options)
		if len(cold.Generated) == 0 {
			if len(res.Changes) != 0 {
				t.Fatalf("%s: %d changes for a compile with errors", s.name, len(res.Changes))
			}
			continue
		}
		if len(res.Generated) != 0 {
			t.Fatalf("%s: %d whole files beside the changes", s.name, len(res.Generated))
		}
		for i, c := range res.Changes {
			if c.Name != cold.Generated[i].Name {
				t.Fatalf("%s: change %d is for %s, file %d is %s", s.name, i, c.Name, i, cold.Generated[i].Name)
			}
		}
		held = applyChanges(t, s.name, held, res.Changes)
		sameAsCold(t, s.name, held, cold)
		if s.name == "unchanged" {
			for _, c := range res.Changes {
				if c.Base != c.Rev {
					t.Errorf("%s: %s got rev %q for the same content as %q", s.name, c.Name, c.Rev, c.Base)
				}
			}
		}
		if s.name == "an emoji changed to another with the same first bytes" {
			for _, c := range res.Changes {
				if c.Base == "" || len(c.Insert) > 200 {
					t.Errorf("%s: %s: a change of %d bytes (base %q), want a small one", s.name, c.Name, len(c.Insert), c.Base)
				}
			}
		}
	}
}

// TestWorkspaceChangesWholeFiles checks when a caller gets whole files:
// without Have (Generated, as before, and no Changes), with an empty
// Have, with a Rev the workspace never gave (another workspace's: a
// restarted Worker) and with a stale one.
func TestWorkspaceChangesWholeFiles(t *testing.T) {
	src := Sources{"a.proto": "syntax = \"proto3\";\npackage a;\nmessage M { int32 x = 1; }\n"}
	edited := Sources{"a.proto": "syntax = \"proto3\";\npackage a;\nmessage M { int32 x = 1; int32 y = 2; }\n"}
	w := &Workspace{}
	plain, err := w.Generate(context.Background(), CompileRequest{Files: src})
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.Generated) != 1 || plain.Changes != nil {
		t.Fatalf("without Have: %d files and %d changes, want 1 file and no changes", len(plain.Generated), len(plain.Changes))
	}
	first, err := w.Generate(context.Background(), CompileRequest{Files: src, Have: map[string]string{}})
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Changes) != 1 || first.Changes[0].Base != "" || first.Changes[0].Insert != plain.Generated[0].Content {
		t.Fatalf("with an empty Have: %+v, want the whole file", first.Changes)
	}
	rev := first.Changes[0].Rev
	other := &Workspace{}
	if _, err := other.Generate(context.Background(), CompileRequest{Files: src}); err != nil {
		t.Fatal(err)
	}
	res, err := other.Generate(context.Background(), CompileRequest{Files: edited, Have: map[string]string{"a.pb.go": rev, "a/a.pb.go": rev}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Changes) != 1 || res.Changes[0].Base != "" || res.Changes[0].Rev == rev {
		t.Fatalf("another workspace's rev: %+v, want the whole file under a new rev", res.Changes)
	}
	// w's last output is src's; a rev older than that gets the whole file.
	if _, err := w.Generate(context.Background(), CompileRequest{Files: edited, Have: map[string]string{}}); err != nil {
		t.Fatal(err)
	}
	res, err = w.Generate(context.Background(), CompileRequest{Files: src, Have: map[string]string{first.Changes[0].Name: rev}})
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Changes[0]; c.Base != "" || c.Insert != plain.Generated[0].Content {
		t.Fatalf("a stale rev: base %q, %d bytes, want the whole file", c.Base, len(c.Insert))
	}
	// A compile with errors answers no changes and leaves the last output.
	bad, err := w.Generate(context.Background(), CompileRequest{Files: Sources{"a.proto": "syntax = \"proto3\";\nmessage {"}, Have: map[string]string{}})
	if err != nil {
		t.Fatal(err)
	}
	if len(bad.Changes) != 0 || len(bad.Generated) != 0 {
		t.Fatalf("a compile with errors: %d changes, %d files", len(bad.Changes), len(bad.Generated))
	}
	last := res.Changes[0]
	res, err = w.Generate(context.Background(), CompileRequest{Files: src, Have: map[string]string{last.Name: last.Rev}})
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Changes[0]; c.Base != last.Rev || c.Rev != last.Rev || c.Insert != "" || c.From != c.To {
		t.Fatalf("after a compile with errors: %+v, want an empty change to %q", c, last.Rev)
	}
}

// TestTextChange checks the replacement textChange finds, in UTF-16 units,
// at the edges of multi-byte runes.
func TestTextChange(t *testing.T) {
	for _, c := range []struct {
		old, new string
		from, to int
		insert   string
	}{
		{"", "", 0, 0, ""},
		{"abc", "abc", 3, 3, ""},
		{"", "abc", 0, 0, "abc"},
		{"abc", "", 0, 3, ""},
		{"a😀b", "a😁b", 1, 3, "😁"},
		{"😀😀x", "😀😀y", 4, 5, "y"},
		{"é", "è", 0, 1, "è"},
		{"xé", "xéé", 2, 2, "é"},
		{strings.Repeat("a", 2000) + "X" + strings.Repeat("b", 2000), strings.Repeat("a", 2000) + "YZ" + strings.Repeat("b", 2000), 2000, 2001, "YZ"},
		{"aaa", "aa", 2, 3, ""},
		{"a\xffb", "a\xfeb", 1, 2, "\xfe"},
	} {
		from, to, insert := textChange(c.old, c.new)
		if from != c.from || to != c.to || insert != c.insert {
			t.Errorf("textChange(%q, %q) = %d, %d, %q; want %d, %d, %q", c.old, c.new, from, to, insert, c.from, c.to, c.insert)
		}
	}
	for _, s := range []string{"", "abc", "é", "😀", "a😀é∑" + strings.Repeat("x", 20) + "😀", "\xff\xfe"} {
		if got, want := utf16Len(s), len(utf16.Encode([]rune(s))); got != want {
			t.Errorf("utf16Len(%q) = %d, want %d", s, got, want)
		}
	}
}

// TestCallFilesIsCallWithTheFilesInTheJSON checks that the sources given
// apart from the JSON (CallFiles, the wasm bridge's path) make the same
// answer as the same sources inside it, for a method of each request
// type that has Files, and are ignored by one whose request has none.
func TestCallFilesIsCallWithTheFilesInTheJSON(t *testing.T) {
	src := Sources{"a.proto": "syntax = \"proto3\";\npackage a;\n// é 😀\nmessage M { int32 x = 1; string s = 2; }\n"}
	filesJSON := `{"a.proto":"syntax = \"proto3\";\npackage a;\n// é 😀\nmessage M { int32 x = 1; string s = 2; }\n"}`
	for _, c := range []struct{ method, rest string }{
		{"generate", `"options":"paths=source_relative"`},
		{"compile", `"options":""`},
		{"sample", `"type":"a.M"`},
		{"encode", `"type":"a.M","input":"{\"x\":1}"`},
		{"decode", `"type":"a.M","input":"0801"`},
		{"wireView", `"type":"a.M","input":"0801"`},
		{"check", `"limits":{"timeoutMs":60000}`},
		{"symbols", `"options":""`},
		{"module", `"options":""`},
	} {
		whole, werr := (&Workspace{}).Call(context.Background(), c.method, []byte(`{"files":`+filesJSON+`,`+c.rest+`}`))
		apart, aerr := (&Workspace{}).CallFiles(context.Background(), c.method, []byte(`{`+c.rest+`}`), maps.Clone(src))
		if (werr == nil) != (aerr == nil) {
			t.Fatalf("%s: error %v in the JSON, %v apart", c.method, werr, aerr)
		}
		if werr != nil {
			t.Fatalf("%s: %v", c.method, werr)
		}
		if c.method == "generate" || c.method == "compile" {
			// elapsedMs differs from call to call.
			whole, apart = dropElapsed(t, whole), dropElapsed(t, apart)
		}
		if string(whole) != string(apart) {
			t.Errorf("%s: the files apart answer\n%.300s\nthe files in the JSON\n%.300s", c.method, apart, whole)
		}
	}
	// Files given apart win over the JSON's.
	res, err := (&Workspace{}).CallFiles(context.Background(), "compile", []byte(`{"files":{"b.proto":"syntax = \"proto3\";"}}`), maps.Clone(src))
	if err != nil || !strings.Contains(string(res), `"a.M"`) {
		t.Errorf("files apart and in the JSON: %s %v, want a.proto's messages", res, err)
	}
	if _, err := (&Workspace{}).CallFiles(context.Background(), "decodeRaw", []byte(`{"input":"0801"}`), maps.Clone(src)); err != nil {
		t.Errorf("decodeRaw with files apart: %v", err)
	}
}

func dropElapsed(t *testing.T, b []byte) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "elapsedMs")
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestWorkspaceChangesAlternatingOptions edits a schema while two callers
// with different options (the page's Go pane and its Go interpreter, e.g.
// runtime=local) alternate on one workspace, each holding its own copies:
// each gets small changes against its own last output (the other's calls
// do not evict it), its copies stay byte-identical to a cold compile, and
// the generator cache reprints only the edited pieces. A fifth option
// set beyond maxOutSets evicts the least recently used one.
func TestWorkspaceChangesAlternatingOptions(t *testing.T) {
	var b strings.Builder
	b.WriteString("syntax = \"proto3\";\npackage alt;\noption go_package = \"example.com/alt\";\n")
	for i := range 30 {
		fmt.Fprintf(&b, "// M%d is message %d.\nmessage M%d { int32 a = 1; string s = 2; repeated M%d next = 3; map<string, int64> m = 4; oneof o { bytes x = 5; M0 y = 6; } }\n", i, i, i, i)
	}
	base := b.String()
	optionSets := []string{"", "runtime=local", "paths=source_relative"}
	w := &Workspace{}
	held := map[string]map[string]heldFile{}
	for step := range 8 {
		src := Sources{"alt.proto": strings.Replace(base, "is message 7.", fmt.Sprintf("is message 7, edit %d.", step), 1)}
		for _, opts := range optionSets {
			name := fmt.Sprintf("edit %d, options %q", step, opts)
			misses, linked := w.gen.Misses, w.link.Misses
			res, err := w.Generate(context.Background(), CompileRequest{Files: maps.Clone(src), Options: opts, Have: haveOf(held[opts])})
			if err != nil {
				t.Fatal(err)
			}
			if step > 0 {
				for _, c := range res.Changes {
					if c.Base == "" || len(c.Insert) > 200 {
						t.Errorf("%s: %s: a change of %d bytes (base %q), want a small change to the caller's copy", name, c.Name, len(c.Insert), c.Base)
					}
				}
				// One piece (M7's) is printed again; the other 29 are
				// reused although another option set ran in between.
				if m := w.gen.Misses - misses; m > 1 {
					t.Errorf("%s: %d pieces printed, want 1 (the cache lost the pieces of these options)", name, m)
				}
				if m := w.link.Misses - linked; m > 1 {
					t.Errorf("%s: %d files linked, want at most 1", name, m)
				}
			}
			held[opts] = applyChanges(t, name, held[opts], res.Changes)
			sameAsCold(t, name, held[opts], coldGenerate(t, src, opts))
		}
	}
	// maxOutSets option sets fit; one more evicts the least recently used
	// (""), whose caller then gets whole files again.
	src := Sources{"alt.proto": base}
	for _, opts := range []string{"enum_maps=true", "runtime=local", "paths=source_relative"} {
		if _, err := w.Generate(context.Background(), CompileRequest{Files: src, Options: opts, Have: map[string]string{}}); err != nil {
			t.Fatal(err)
		}
	}
	if len(w.outs) != maxOutSets {
		t.Fatalf("%d option sets kept, want %d", len(w.outs), maxOutSets)
	}
	res, err := w.Generate(context.Background(), CompileRequest{Files: src, Options: "", Have: haveOf(held[""])})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Changes {
		if c.Base == "" {
			t.Errorf("options \"\" after 3 others: %s came whole, want a change (4 sets are kept)", c.Name)
		}
	}
	if _, err := w.Generate(context.Background(), CompileRequest{Files: src, Options: "enum_maps=true,runtime=local", Have: map[string]string{}}); err != nil {
		t.Fatal(err)
	}
	res, err = w.Generate(context.Background(), CompileRequest{Files: src, Options: "enum_maps=true", Have: haveOf(held[""])})
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, o := range w.outs {
		kept = append(kept, o.options)
	}
	if want := []string{"enum_maps=true", "enum_maps=true,runtime=local", "", "paths=source_relative"}; !slices.Equal(kept, want) {
		t.Errorf("option sets kept, most recent first: %q, want %q", kept, want)
	}
	for _, c := range res.Changes {
		if c.Base != "" {
			t.Errorf("another option set's rev: %s is a change to %q, want the whole file", c.Name, c.Base)
		}
	}
}
