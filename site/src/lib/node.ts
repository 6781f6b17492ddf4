// protoplay for Node 18 and later: the core runs in a child process (so a
// compile never blocks the caller's event loop; see nodethread.ts): the
// native core, protoplay's binary for the platform, when one is installed
// (nativecore.ts: the platform package or PROTOPLAY_BINARY_PATH), else
// protoplay.wasm beside this module; no option is needed
// (initialize({ core }) chooses). The child does not keep the process
// alive while no call is pending, so a script ends as soon as its work is
// done. initialize({ worker: false }) runs the wasm core on the calling
// thread instead.
//
// Importing it changes nothing in the process: Go's wasm_exec.js, which
// sets globalThis.Go, fs, path and process, is loaded only for worker:
// false (it runs in the core's process otherwise). The ES module and the
// CommonJS entry of one version share one core (and ProtoplayError).
import { readFile } from "node:fs/promises";
import { argumentError, limitsOf, ProtoplayError, sharedAPI, type Backend, type InitializeOptions, type Progress } from "./common";
import { findNative } from "./nativecore";
import { runInChild } from "./nodethread";
import { bindAPI } from "./public";
import { isWasm, wasmLoadError } from "./wasmload";

export * from "./exports";

// coreOf is the core initialize() asked for: options.core, else the
// PROTOPLAY_CORE environment variable, else "auto".
function coreOf(options: InitializeOptions): "auto" | "native" | "wasm" {
  const given = options.core ?? ((globalThis as any).process?.env?.PROTOPLAY_CORE || undefined);
  if (given === undefined) return "auto";
  if (given === "auto" || given === "native" || given === "wasm") return given;
  const from = options.core !== undefined ? "initialize: core" : "the PROTOPLAY_CORE environment variable";
  throw argumentError(`${from} must be "auto", "native" or "wasm"; got ${JSON.stringify(given)}`);
}

async function start(options: InitializeOptions, progress: Progress): Promise<Backend> {
  const limits = limitsOf(options);
  const core = coreOf(options);
  // "auto" runs the native core unless an option is for the wasm one.
  const forWasm = options.worker === false || options.wasmModule !== undefined || options.wasmURL !== undefined;
  if (core === "native" || (core === "auto" && !forWasm)) {
    const found = findNative(import.meta.url);
    if ("path" in found) {
      try {
        return await runInChild({ native: found.path, version: __PROTOPLAY_VERSION__ }, limits);
      } catch (e: any) {
        // "auto": a binary that does not start leaves the wasm core.
        if (core === "native") throw new ProtoplayError(`${e?.message ?? e} (the native core, ${found.path}, from ${found.source})`);
      }
    } else if (core === "native") {
      throw new ProtoplayError(`protoplay: core "native": ${found.missing}`);
    }
  }
  const where = options.wasmURL ?? new URL("./protoplay.wasm", import.meta.url);
  if (options.worker === false) {
    // On this thread: Go's globals (wasm_exec.js) are needed here.
    await import("./node-globals");
    const { runInThread } = await import("./inthread");
    return runInThread(options.wasmModule ?? (await loadWasm(where, progress, true)), limits);
  }
  if (options.wasmModule) return runInChild({ module: options.wasmModule }, limits);
  const bytes = await loadWasm(where, progress, false);
  try {
    return await runInChild({ bytes }, limits);
  } catch (e: any) {
    throw /compil/i.test(String(e?.message)) ? wasmLoadError({ url: String(where), bytes, cause: String(e?.message ?? e) }) : e;
  }
}

// loadWasm reads (a path or a file: URL) or fetches (http, https) the core
// and, when compile is set, compiles it; a failure says what was read and
// what came back.
async function loadWasm(where: string | URL, progress: Progress, compile: true): Promise<WebAssembly.Module>;
async function loadWasm(where: string | URL, progress: Progress, compile: false): Promise<Uint8Array>;
async function loadWasm(where: string | URL, progress: Progress, compile: boolean): Promise<WebAssembly.Module | Uint8Array> {
  const url = where instanceof URL ? where : /^[a-z][a-z0-9+.-]+:\/\//i.test(where) ? new URL(where) : undefined;
  const name = url ? url.href : String(where);
  let bytes: Uint8Array;
  let status: number | undefined, contentType: string | null | undefined;
  if (url && (url.protocol === "http:" || url.protocol === "https:")) {
    let r: Response;
    try {
      r = await fetch(url);
    } catch (e: any) {
      throw wasmLoadError({ url: name, cause: String(e?.cause?.message ?? e?.message ?? e) });
    }
    status = r.status;
    contentType = r.headers.get("content-type");
    bytes = new Uint8Array(await r.arrayBuffer());
    if (!r.ok) throw wasmLoadError({ url: name, status, contentType, bytes });
  } else {
    try {
      bytes = await readFile(url ?? (where as string));
    } catch (e: any) {
      throw wasmLoadError({ url: name, cause: String(e?.message ?? e) });
    }
  }
  if (!isWasm(bytes)) throw wasmLoadError({ url: name, status, contentType, bytes });
  progress(bytes.length, bytes.length);
  if (!compile) return bytes;
  try {
    return await WebAssembly.compile(bytes as BufferSource);
  } catch (e: any) {
    throw wasmLoadError({ url: name, status, contentType, bytes, cause: String(e?.message ?? e) });
  }
}

bindAPI(sharedAPI(Symbol.for(`protoplay.node ${__PROTOPLAY_VERSION__}`), start));
