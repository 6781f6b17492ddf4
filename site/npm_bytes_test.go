package site_test

// The npm package's operations on bytes someone was handed: a descriptor
// set as schema, which message type the bytes fit, a schema inferred from
// bytes, and a length-delimited stream's messages.

import (
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/protoplay/protoplay/internal/gentest"
)

const bytesScript = `
import * as pp from "protoplay";
import { readFileSync } from "node:fs";
const data = JSON.parse(readFileSync("data.json", "utf8"));
const out = {};
// A descriptor set written by protoc, as bytes.
const set = new Uint8Array(readFileSync("shop.binpb"));
const enc = await pp.encode({ "shop.binpb": set }, "shop.Order", { id: 7, item: "tea" });
out.setDecoded = (await pp.decode({ "shop.binpb": set }, "shop.Order", enc.bytes)).value;
try { await pp.decode({ "bad.binpb": new Uint8Array([10, 9, 1]) }, "shop.Order", "0801"); } catch (e) { out.badSet = e.kind + ": " + e.message; }
try { await pp.decode({ "a.proto": new Uint8Array([1]) }, "shop.Order", "0801"); } catch (e) { out.bytesProto = e.kind; }
// Which type fits GoogleMessage1's bytes.
out.fits = await pp.rankTypes(data.files, data.gm1, { count: 4 });
try { await pp.rankTypes(data.files, "0a0901"); } catch (e) { out.rankError = { kind: e.kind, offset: e.detail.offset }; }
// A schema inferred from two payloads, then used to decode them.
const inferred = await pp.inferSchema([data.gm1, "0a0161"], { name: "Guess" });
out.inferredFile = inferred.file;
const view = await pp.wireView({ [inferred.file]: inferred.content }, "Guess", data.gm1);
const unknown = (fs) => fs.reduce((n, f) => n + (f.unknown ? 1 : 0) + unknown(f.children ?? []), 0);
out.inferredFields = view.fields.length;
out.inferredUnknown = unknown(view.fields);
try { await pp.inferSchema(["0801", "0a05"]); } catch (e) { out.inferError = { kind: e.kind, record: e.detail.record, offset: e.detail.offset }; }
// A three-message stream.
const stream = await pp.decodeStream('syntax = "proto3"; package s; message M { int64 id = 1; }', "s.M", new Uint8Array([2, 8, 1, 2, 8, 2, 2, 8, 3]));
out.stream = stream.messages.map((m) => [m.offset, m.size, JSON.parse(m.value).id]);
out.rawStream = (await pp.decodeStream(null, null, "020801 0208")).messages.length;
console.log(JSON.stringify(out));
`

// TestNPMPackageBytes: descriptor sets, rankTypes, inferSchema and
// decodeStream from Node.
func TestNPMPackageBytes(t *testing.T) {
	t.Parallel()
	protoc, err := exec.LookPath("protoc")
	if err != nil {
		skipOrFail(t, "no protoc on PATH (it writes the descriptor set)")
	}
	shared, ok := gentest.SharedDir()
	if !ok {
		skipOrFail(t, "../shared is absent (set PROTOPLAY_SHARED)")
	}
	dir := installPackage(t)
	writeFile(t, filepath.Join(dir, "shop.proto"), "syntax = \"proto3\";\npackage shop;\nmessage Order { int64 id = 1; string item = 2; }\n")
	cmd := exec.Command(protoc, "-I", dir, "--include_imports", "--descriptor_set_out="+filepath.Join(dir, "shop.binpb"), "shop.proto")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("protoc: %v\n%s", err, b)
	}
	root := filepath.Join(shared, "corpus", "benchmarks")
	files := map[string]string{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".proto") {
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(root, p)
			files[filepath.ToSlash(rel)] = string(b)
		}
		return nil
	})
	ds, err := os.ReadFile(filepath.Join(root, "datasets/google_message1/proto2/dataset.google_message1_proto2.pb"))
	if err != nil {
		skipOrFail(t, err.Error())
	}
	var gm1 []byte
	for b := ds; len(b) > 0 && gm1 == nil; {
		num, typ, n := protowire.ConsumeTag(b)
		b = b[n:]
		if num == 3 {
			gm1, _ = protowire.ConsumeBytes(b)
		}
		b = b[protowire.ConsumeFieldValue(num, typ, b):]
	}
	data, _ := json.Marshal(map[string]any{"files": files, "gm1": hex.EncodeToString(gm1)})
	writeFile(t, filepath.Join(dir, "data.json"), string(data))
	writeFile(t, filepath.Join(dir, "bytes.mjs"), bytesScript)
	var out struct {
		SetDecoded, BadSet, BytesProto string
		Fits                           []struct {
			Type  string
			Score float64
			Rank  int
		}
		RankError, InferError struct {
			Kind           string
			Offset, Record int
		}
		InferredFile                    string
		InferredFields, InferredUnknown int
		Stream                          [][]any
		RawStream                       int
	}
	runNode(t, dir, &out, "bytes.mjs")
	if !strings.Contains(out.SetDecoded, `"item": "tea"`) {
		t.Errorf("decoded with the descriptor set: %q", out.SetDecoded)
	}
	if !strings.HasPrefix(out.BadSet, "schema: ") || !strings.Contains(out.BadSet, "bad.binpb: not a FileDescriptorSet: at byte 1") {
		t.Errorf("a bad set: %q", out.BadSet)
	}
	if out.BytesProto != "argument" {
		t.Errorf("bytes for a .proto file: %q", out.BytesProto)
	}
	first := false
	for _, f := range out.Fits {
		first = first || f.Rank == 1 && f.Type == "benchmarks.proto2.GoogleMessage1" && f.Score == 1
	}
	if !first || len(out.Fits) != 4 || out.Fits[3].Rank == 1 {
		t.Errorf("fits %+v: want benchmarks.proto2.GoogleMessage1 ranked 1 with score 1", out.Fits)
	}
	if out.RankError.Kind != "payload" || out.RankError.Offset != 1 {
		t.Errorf("rankTypes of a bad payload: %+v", out.RankError)
	}
	if out.InferredFile != "guess.proto" || out.InferredFields == 0 || out.InferredUnknown != 0 {
		t.Errorf("inferred %s: %d fields, %d unknown", out.InferredFile, out.InferredFields, out.InferredUnknown)
	}
	if out.InferError.Kind != "payload" || out.InferError.Record != 1 || out.InferError.Offset != 1 {
		t.Errorf("inferSchema of a bad payload: %+v", out.InferError)
	}
	if got, _ := json.Marshal(out.Stream); string(got) != `[[1,2,"1"],[4,2,"2"],[7,2,"3"]]` || out.RawStream != 1 {
		t.Errorf("stream %s, raw %d", got, out.RawStream)
	}
}
