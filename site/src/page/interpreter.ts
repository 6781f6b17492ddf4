// The interpreter (./interp.ts) and the generated Go loaded into it, for
// the checks of the generated code (./checks.ts), the Run tab
// (./runtab.ts) and Encode/decode (./payloadtab.ts).
import type { CompileResult } from "../lib/api.gen";
import type { Files } from "../lib/common";
import { GoRunner, interpFiles, interpOptions, optionValue, type TypeRef } from "./interp";
import { core, params, stats } from "./boot";
import { goChecksNotRun } from "./checks";

// The interpreter, started after the first compile is on screen (see
// goChecks). ?breakcheck=TYPE breaks TYPE's generated Marshal before it is
// interpreted (a test hook: that type's check must turn red); ?runlimit=MS
// sets the Run tab's time limit.
const breakType = params.get("breakcheck") ?? "";
export const runLimitMs = Number(params.get("runlimit")) || 10_000;
export const runner = new GoRunner({
  url: new URL(__INTERP_WASM_URL__, import.meta.url),
  size: __INTERP_WASM_SIZE__,
  newWorker: () => new Worker(new URL(__WORKER_URL__, import.meta.url), { type: "module", name: "protoplay interpreter" }),
  onReady() {
    if (!stats.interpReadyMs) stats.interpReadyMs = performance.now();
  },
  onFatal(message) {
    goChecksNotRun(`the interpreter failed (${message})`);
  },
});

export let loadedTypes: TypeRef[] = [];

// loadGenerated loads the generated Go of a compiled schema into the
// interpreter: the files on screen, unless the options place them where
// their names are not their import paths (paths=source_relative) or make
// them import a copy of the runtime (runtime=local): the core then
// generates them again for the interpreter, without those options.
// importsBundled reports whether a file of src imports a file src does
// not hold that is not a well-known type: a bundled googleapis file.
function importsBundled(src: Files): boolean {
  for (const text of Object.values(src)) {
    for (const m of text.matchAll(/^\s*import\s+(?:public\s+|weak\s+|option\s+)?"([^"]+)"/gm)) {
      if (!(m[1] in src) && !m[1].startsWith("google/protobuf/")) return true;
    }
  }
  return false;
}

export async function loadGenerated(src: Files, opts: string, r: CompileResult) {
  let gen = r.generated;
  const io = interpOptions(opts);
  // The interpreter needs the Go of the bundled files the schema imports
  // (google/type/date.proto's, say) beside the schema's own.
  const imports = importsBundled(src);
  if (io !== null || imports) {
    const again = await core.call("generate", { files: src, options: io ?? opts, imports });
    gen = again.generated;
  }
  const lr = await runner.load(interpFiles(gen), optionValue(io ?? opts, "module"), breakType);
  stats.goLoadMs = lr.elapsedMs;
  const order = new Map(r.messages.map((m, i) => [m.name, i]));
  loadedTypes = [...lr.types].sort((a, b) => (order.get(a.name) ?? 1e9) - (order.get(b.name) ?? 1e9));
  return lr;
}
