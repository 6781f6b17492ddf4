package site_test

// The npm package's two cores in Node: the native one (protoplay's
// binary for the platform, from the platform package make npm packs
// beside the main one, nativecore.ts) and the wasm one. The same calls
// give the same results on both, and the resolver falls back to the wasm
// where no platform package is installed.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// nodeCores are the cores the Node tests that run on each use.
var nodeCores = []string{"wasm", "native"}

// installCore installs the package for core and returns the project and
// the environment to run node in: "native" has the platform package
// installed and asks for the native core (PROTOPLAY_CORE=native, so a
// core that cannot be found fails rather than falls back), "wasm" has no
// platform package and asks for the wasm.
func installCore(t *testing.T, core string) (dir string, env []string) {
	t.Helper()
	dir = installPackageWith(t, core == "native")
	return dir, append(os.Environ(), "PROTOPLAY_CORE="+core)
}

// coresScript makes one of each call, and calls that fail, and prints
// every answer (elapsedMs left out: the time is the core's own) and
// every error's kind, message, detail and diagnostics, and the core's
// version.
const coresScript = `
import * as pp from "protoplay";
import { readFileSync } from "node:fs";
const [name, type] = process.argv.slice(2);
const files = { [name]: readFileSync(process.env.SCHEMA, "utf8") };
const out = { calls: {} };
const drop = (v) => JSON.parse(JSON.stringify(v, (k, x) => (k === "elapsedMs" ? undefined : x)));
async function call(label, f) {
  try {
    out.calls[label] = { ok: drop(await f()) };
  } catch (e) {
    out.calls[label] = { err: { is: e instanceof pp.ProtoplayError, kind: e.kind, message: e.message, detail: drop(e.detail ?? null), diagnostics: drop(e.diagnostics) } };
  }
}
await call("compile", () => pp.compile(files));
await call("compileOnly", () => pp.compile(files, { generate: false }));
await call("opaque", () => pp.compile(files, { options: { default_api_level: "API_OPAQUE" } }));
const sample = await pp.sample(files, type);
await call("sample", async () => sample);
await call("encode", async () => { const r = await pp.encode(files, type, JSON.parse(sample)); return { ...r, bytes: Array.from(r.bytes) }; });
const enc = await pp.encode(files, type, JSON.parse(sample));
await call("decode", () => pp.decode(files, type, enc.bytes));
await call("decodeText", () => pp.decode(files, type, enc.hex, { format: "text" }));
await call("wireView", () => pp.wireView(files, type, enc.bytes));
await call("decodeRaw", () => pp.decodeRaw(enc.bytes));
await call("check", () => pp.check(files));
await call("rankTypes", () => pp.rankTypes(files, enc.bytes));
await call("infer", () => pp.inferSchema([enc.bytes]));
await call("breaking", () => pp.breaking('syntax = "proto3"; message A { int32 x = 1; }', 'syntax = "proto3"; message A { string x = 1; }'));
await call("schemaError", () => pp.compile('syntax = "proto3";\nmessage A { int32 x = ; }\n'));
await call("payloadError", () => pp.decode(files, type, "0a05ff"));
await call("usageError", () => pp.compile(files, { options: { default_api_level: "API_CLOSED" } }));
await call("typeError", () => pp.sample(files, "no.Such"));
await call("jsonError", () => pp.encode(files, type, "{ nope"));
out.version = await pp.coreVersion();
console.log(JSON.stringify(out));
`

// TestNPMPackageNodeCoresAgree: the same calls on the wasm core and on the
// native one give the same results and the same errors (kind, message,
// detail, diagnostics), byte for byte in JSON; coreVersion says which
// core answered.
func TestNPMPackageNodeCoresAgree(t *testing.T) {
	t.Parallel()
	name, text, typ := testSchema(t)
	if typ == "" {
		typ = "example.Person"
	}
	type result struct {
		Calls   map[string]json.RawMessage
		Version string
	}
	got := map[string]result{}
	for _, core := range nodeCores {
		dir, env := installCore(t, core)
		writeFile(t, filepath.Join(dir, "schema.proto"), text)
		writeFile(t, filepath.Join(dir, "cores.mjs"), coresScript)
		var out result
		runNodeEnv(t, dir, append(env, "SCHEMA="+filepath.Join(dir, "schema.proto")), &out, "cores.mjs", name, typ)
		t.Logf("%s core: %s, %d calls", core, out.Version, len(out.Calls))
		got[core] = out
	}
	wasm, native := got["wasm"], got["native"]
	if strings.Contains(wasm.Version, " native ") || !strings.Contains(native.Version, " native ") {
		t.Errorf("coreVersion: wasm %q, native %q; want \" native \" in the native core's only", wasm.Version, native.Version)
	}
	if len(wasm.Calls) < 18 {
		t.Fatalf("the wasm core answered %d calls, want 18", len(wasm.Calls))
	}
	for label, w := range wasm.Calls {
		n := native.Calls[label]
		var wv, nv any
		json.Unmarshal(w, &wv)
		json.Unmarshal(n, &nv)
		if !reflect.DeepEqual(wv, nv) {
			t.Errorf("%s: the cores differ\nwasm:   %.600s\nnative: %.600s", label, w, n)
		}
	}
	// The failing calls failed, with the kinds the API documents.
	for label, kind := range map[string]string{"schemaError": "schema", "payloadError": "payload", "usageError": "usage", "typeError": "type", "jsonError": "json"} {
		var c struct {
			Err *struct{ Kind string }
		}
		json.Unmarshal(native.Calls[label], &c)
		if c.Err == nil || c.Err.Kind != kind {
			t.Errorf("%s on the native core: %s, want an error of kind %s", label, native.Calls[label], kind)
		}
	}
}

// fallbackScript starts the core as PROTOPLAY_CORE and the argument ask
// and prints its version, or the error.
const fallbackScript = `
import * as pp from "protoplay";
const core = process.argv[2];
const out = {};
try {
  await pp.initialize(core ? { core } : {});
  out.version = await pp.coreVersion();
  out.generated = (await pp.compile('syntax = "proto3";\nmessage A { int32 x = 1; }\n')).generated.length;
} catch (e) {
  out.kind = e.kind;
  out.message = e.message;
}
console.log(JSON.stringify(out));
`

// TestNPMPackageNodeNativeFallback: the resolver. With the platform
// package installed the default ("auto") runs the native core; without it
// the wasm, and core "native" rejects saying which package is missing;
// PROTOPLAY_BINARY_PATH names the binary (one that does not exist falls
// back to the wasm under "auto", and fails under "native"); a core that
// does not exist is an argument error.
func TestNPMPackageNodeNativeFallback(t *testing.T) {
	t.Parallel()
	with := installPackageWith(t, true)
	without := installPackage(t)
	for _, d := range []string{with, without} {
		writeFile(t, filepath.Join(d, "fallback.mjs"), fallbackScript)
	}
	matches, _ := filepath.Glob(filepath.Join(with, "node_modules", "@protoplay", "*", "bin", "protoplay"))
	if len(matches) != 1 {
		t.Fatalf("the platform package's binary in %s: %v, want one", with, matches)
	}
	binary := matches[0]
	noEnv := func(extra ...string) []string {
		var env []string
		for _, e := range os.Environ() {
			if !strings.HasPrefix(e, "PROTOPLAY_CORE=") && !strings.HasPrefix(e, "PROTOPLAY_BINARY_PATH=") {
				env = append(env, e)
			}
		}
		return append(env, extra...)
	}
	type outcome struct {
		Version, Kind, Message string
		Generated              int
	}
	for _, tc := range []struct {
		name, dir, core string
		env             []string
		native          bool   // the native core answers
		err             string // or the start fails, saying this
	}{
		{name: "installed, auto", dir: with, native: true},
		{name: "installed, wasm", dir: with, core: "wasm"},
		{name: "installed, PROTOPLAY_CORE=wasm", dir: with, env: []string{"PROTOPLAY_CORE=wasm"}},
		{name: "not installed, auto", dir: without},
		{name: "not installed, native", dir: without, core: "native", err: `protoplay: core "native": @protoplay/`},
		{name: "not installed, PROTOPLAY_BINARY_PATH", dir: without, core: "native", env: []string{"PROTOPLAY_BINARY_PATH=" + binary}, native: true},
		{name: "a missing binary, auto", dir: with, env: []string{"PROTOPLAY_BINARY_PATH=" + filepath.Join(without, "nope")}},
		{name: "a missing binary, native", dir: with, core: "native", env: []string{"PROTOPLAY_BINARY_PATH=" + filepath.Join(without, "nope")}, err: "ENOENT"},
		{name: "no such core", dir: with, core: "fast", err: `initialize: core must be "auto", "native" or "wasm"; got "fast"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out outcome
			runNodeEnv(t, tc.dir, noEnv(tc.env...), &out, "fallback.mjs", tc.core)
			t.Logf("%+v", out)
			if tc.err != "" {
				if !strings.Contains(out.Message, tc.err) {
					t.Errorf("start: %+v, want an error saying %q", out, tc.err)
				}
				return
			}
			if out.Message != "" || out.Generated != 1 {
				t.Fatalf("start: %+v, want a core that compiles", out)
			}
			if native := strings.Contains(out.Version, " native "); native != tc.native {
				t.Errorf("the core's version %q: native %v, want %v", out.Version, native, tc.native)
			}
		})
	}
}
