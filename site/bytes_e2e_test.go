package site_test

// The page with bytes someone was handed, at a person's pace: a descriptor
// set uploaded and decoded with, the message types ranked for pasted
// bytes and one picked with a click, a schema inferred from the bytes and
// decoded through, and a stream's messages listed and one selected.

import (
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

const (
	payloadError = `document.querySelector('[data-testid=payload-error]')`
	payloadNote  = `document.querySelector('[data-testid=payload-note]')`
	fitItems     = `[...document.querySelectorAll('[data-testid=fit-item]')]`
	streamItems  = `[...document.querySelectorAll('[data-testid=stream-item]')]`
	typePicked   = `document.querySelector('[data-testid=type-picker]').value`
	unknownRows  = `document.querySelectorAll('[data-testid=wire-field] .name.unknown').length`
	wireRows     = `document.querySelectorAll('[data-testid=wire-field]').length`
)

func TestBytesYouWereHanded(t *testing.T) {
	t.Parallel()
	protoc, err := exec.LookPath("protoc")
	if err != nil {
		skipOrFail(t, "no protoc on PATH (it writes the descriptor sets)")
	}
	root := needShared(t, "corpus/benchmarks")
	ctx := openExample(t)
	dir := t.TempDir()

	t.Run("a descriptor set built by protoc is uploaded and decodes", func(t *testing.T) {
		shop := filepath.Join(dir, "shop.proto")
		os.WriteFile(shop, []byte("syntax = \"proto3\";\npackage shop;\nimport \"google/protobuf/timestamp.proto\";\nmessage Order {\n  int64 id = 1;\n  string item = 2;\n  google.protobuf.Timestamp at = 3;\n}\n"), 0o644)
		set := filepath.Join(dir, "shop.binpb")
		if b, err := exec.Command(protoc, "-I", dir, "--include_imports", "--descriptor_set_out="+set, "shop.proto").CombinedOutput(); err != nil {
			t.Fatalf("protoc: %v\n%s", err, b)
		}
		n := eval[int](t, ctx, compiles)
		do(t, ctx, chromedp.SetUploadFiles(chromedp.CSS(`[data-testid=upload-input]`), []string{set}))
		settle(t, ctx, n)
		if got := eval[[]string](t, ctx, fileTabs); strings.Join(got, " ") != "example.proto shop.binpb" {
			t.Errorf("tabs %q", got)
		}
		if !eval[bool](t, ctx, `!!document.querySelector('[data-testid=file-tab][data-name="shop.binpb"] [data-testid=file-readonly]')`) {
			t.Error("the descriptor set's tab does not say it is read-only")
		}
		if doc := eval[string](t, ctx, `__protoplay.editor.state.doc.toString()`); !strings.Contains(doc, "shop.proto") || !strings.Contains(doc, "google/protobuf/timestamp.proto") {
			t.Errorf("the set's tab shows:\n%s", doc)
		}
		if !eval[bool](t, ctx, `__protoplay.editor.state.readOnly`) {
			t.Error("the descriptor set's editor is not read-only")
		}
		waitJS(t, ctx, "the set's Go", goText+`.includes("type Order struct") || [...document.querySelectorAll('[data-testid=go-file-tab]')].some(e => e.dataset.name.includes("shop"))`, 30*time.Second)
		selectTab(t, ctx, "tab-payload")
		pickType(t, ctx, "shop.Order")
		// A person reads the sample before pasting: the type's sample is
		// on show and the page idle, so that the sample's own encoding
		// cannot land after the paste (CI run 6, four tests at a time at
		// load 22: the sample's JSON stood where the order's belonged).
		waitJS(t, ctx, "shop.Order's sample", jsonText+`.includes('"item"') && !`+pageBusy, 30*time.Second)
		pasteInto(t, ctx, "hex-input", "08 07 12 03 74 65 61 1a 06 08 c0 dd c8 b1 06")
		waitJS(t, ctx, "the order decoded with the set", jsonText+`.includes('"item": "tea"') && `+jsonText+`.includes('"at": "2024-05-01T12:00:00Z"')`, 30*time.Second)
	})

	t.Run("bytes with a field the type does not declare: a note says the JSON leaves it out", func(t *testing.T) {
		// Order's id, then field 4 (varint 5), which Order does not declare.
		pasteInto(t, ctx, "hex-input", "08 07 20 05")
		waitJS(t, ctx, "the note on field 4", `!`+payloadNote+`.hidden`, 30*time.Second)
		want := "1 field of the payload is not in shop.Order (field 4 at byte 2) and is left out of the JSON: the wire view below shows it"
		if got := eval[string](t, ctx, payloadNote+`.textContent`); got != want {
			t.Errorf("note %q, want %q", got, want)
		}
		if got := eval[string](t, ctx, jsonText); !strings.Contains(got, `"id": "7"`) || strings.Contains(got, "5") {
			t.Errorf("JSON %s", got)
		}
		if u := eval[int](t, ctx, unknownRows); u != 1 {
			t.Errorf("%d unknown fields in the wire view, want 1", u)
		}
		// Bytes the type explains put the note away.
		pasteInto(t, ctx, "hex-input", "08 08")
		waitJS(t, ctx, "id 8 decoded", jsonText+`.includes('"id": "8"') && !`+pageBusy, 30*time.Second)
		if eval[bool](t, ctx, `!`+payloadNote+`.hidden`) {
			t.Errorf("the note stays: %s", eval[string](t, ctx, payloadNote+`.textContent`))
		}
	})

	t.Run("a payload file, picked or dropped, is decoded as the bytes it holds", func(t *testing.T) {
		order := filepath.Join(dir, "order.bin")
		os.WriteFile(order, []byte{0x08, 0x09, 0x12, 0x03, 't', 'e', 'a'}, 0o644)
		do(t, ctx, chromedp.SetUploadFiles(chromedp.CSS(`[data-testid=open-bytes-input]`), []string{order}))
		waitJS(t, ctx, "order.bin decoded", jsonText+`.includes('"id": "9"') && `+jsonText+`.includes('"item": "tea"') && !`+pageBusy, 30*time.Second)
		if got := eval[string](t, ctx, `document.querySelector('[data-testid=hex-input]').value`); got != "08 09 12 03 74 65 61" {
			t.Errorf("hex box %q", got)
		}
		if got := eval[string](t, ctx, `document.querySelector('[data-testid=base64-input]').value`); got != "CAkSA3RlYQ==" {
			t.Errorf("base64 box %q", got)
		}
		// Dropped on the panel: id 10.
		do(t, ctx, script(`(() => {
			const dt = new DataTransfer();
			dt.items.add(new File([new Uint8Array([8, 10])], "dropped.bin"));
			const panel = document.querySelector('[data-testid=payload-panel]');
			panel.dispatchEvent(new DragEvent("dragover", { dataTransfer: dt, bubbles: true, cancelable: true }));
			panel.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
		})()`))
		waitJS(t, ctx, "dropped.bin decoded", jsonText+`.includes('"id": "10"') && !`+pageBusy, 30*time.Second)
		// A file over the payload limit is refused by its name and size.
		big := filepath.Join(dir, "big.bin")
		os.WriteFile(big, make([]byte, 8<<20+1), 0o644)
		do(t, ctx, chromedp.SetUploadFiles(chromedp.CSS(`[data-testid=open-bytes-input]`), []string{big}))
		waitJS(t, ctx, "big.bin refused", `!`+payloadError+`.hidden && `+payloadError+`.textContent.includes("big.bin is 8388609 bytes: a payload is at most 8388608 bytes")`, 30*time.Second)
	})

	t.Run("GoogleMessage1's bytes rank GoogleMessage1 first among the benchmark types", func(t *testing.T) {
		set := filepath.Join(dir, "benchmarks.binpb")
		args := []string{"-I", root, "--include_imports", "--descriptor_set_out=" + set, "benchmarks.proto", "google_size.proto",
			"datasets/google_message1/proto2/benchmark_message1_proto2.proto", "datasets/google_message1/proto3/benchmark_message1_proto3.proto",
			"datasets/google_message2/benchmark_message2.proto", "datasets/google_message3/benchmark_message3.proto", "datasets/google_message4/benchmark_message4.proto"}
		if b, err := exec.Command(protoc, args...).CombinedOutput(); err != nil {
			t.Fatalf("protoc: %v\n%s", err, b)
		}
		n := eval[int](t, ctx, compiles)
		do(t, ctx, chromedp.SetUploadFiles(chromedp.CSS(`[data-testid=upload-input]`), []string{set}))
		settle(t, ctx, n)
		selectTab(t, ctx, "tab-payload")
		pickType(t, ctx, "benchmarks.proto3.GoogleMessage1")
		gm1 := googleMessage1Payload(t)
		pasteInto(t, ctx, "hex-input", spacedHex(gm1))
		waitJS(t, ctx, "the payload decoded", `document.querySelector('[data-testid=base64-input]').value === `+jsString(base64.StdEncoding.EncodeToString(gm1)), 30*time.Second)
		waitJS(t, ctx, "the ranking of these bytes", `!document.querySelector('[data-testid=fit-list]').hidden && `+fitItems+`.length >= 3`, 30*time.Second)
		fits := eval[[]map[string]string](t, ctx, fitItems+`.map(e => ({type: e.dataset.type, rank: e.dataset.rank, score: e.dataset.score}))`)
		t.Logf("ranking: %v", fits)
		first := false
		for _, f := range fits {
			if f["type"] == "benchmarks.proto2.GoogleMessage1" && f["rank"] == "1" && f["score"] == "1" {
				first = true
			}
			if f["rank"] == "1" && !strings.HasSuffix(f["type"], "GoogleMessage1") && f["type"] != "benchmarks.SizeMessage1" {
				t.Errorf("%s shares rank 1", f["type"])
			}
		}
		if !first {
			t.Fatalf("GoogleMessage1 not ranked first: %v", fits)
		}
		// One click picks it, and the bytes decode as it.
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=fit-item][data-type="benchmarks.proto2.GoogleMessage1"]`)))
		waitJS(t, ctx, "GoogleMessage1 picked and decoded", typePicked+` === "benchmarks.proto2.GoogleMessage1" && `+jsonText+`.includes('"field1"') && document.querySelector('[data-testid=fit-item][data-type="benchmarks.proto2.GoogleMessage1"]').getAttribute("aria-pressed") === "true"`, 30*time.Second)
	})

	t.Run("a schema inferred from the recorded payload decodes it with no unknown field", func(t *testing.T) {
		n := eval[int](t, ctx, compiles)
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=infer-schema]`)))
		settle(t, ctx, n)
		waitJS(t, ctx, "the inferred file", fileTabs+`.includes("inferred.proto")`, 30*time.Second)
		if src := eval[string](t, ctx, `__protoplay.sources()["inferred.proto"]`); !strings.Contains(src, "message Inferred {") || !strings.Contains(src, "// Seen as") {
			t.Errorf("inferred.proto:\n%s", src)
		}
		selectTab(t, ctx, "tab-payload")
		waitJS(t, ctx, "the bytes decoded as Inferred", typePicked+` === "Inferred" && `+jsonText+`.includes('"field1"') && `+wireRows+` >= 10`, 30*time.Second)
		if u := eval[int](t, ctx, unknownRows); u != 0 {
			t.Errorf("%d unknown fields in the wire view under the inferred schema", u)
		}
		if eval[bool](t, ctx, `!`+payloadError+`.hidden`) {
			t.Errorf("payload error: %s", eval[string](t, ctx, payloadError+`.innerText`))
		}
	})

	t.Run("a three-message stream lists its messages and shows the second", func(t *testing.T) {
		pickType(t, ctx, "shop.Order")
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=stream-toggle]`)))
		// id 1 | id 2, item "b" | id 3
		pasteInto(t, ctx, "hex-input", "02 08 01 05 08 02 12 01 62 02 08 03")
		// The toggle lists the bytes on show before the paste replaces
		// them (the recorded GoogleMessage1 payload read as a stream is
		// three messages too, at 1, 12 and 88): wait for the pasted
		// stream's list, whose offsets are those of its three messages.
		waitJS(t, ctx, "the pasted stream's three messages listed", streamItems+`.map(e => e.dataset.offset).join(",") === "1,4,10"`, 30*time.Second)
		time.Sleep(300 * time.Millisecond) // a person looks at the list
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid=stream-item][data-index="1"]`)))
		waitJS(t, ctx, "the second message shown", jsonText+`.includes('"item": "b"') && document.querySelector('[data-testid=wire-view]').dataset.summary.startsWith("message 1 ") && `+wireRows+` === 2`, 30*time.Second)
		if !eval[bool](t, ctx, `document.querySelector('[data-testid=stream-item][data-index="1"]').getAttribute("aria-pressed") === "true"`) {
			t.Error("the second message is not marked selected")
		}
	})
}
