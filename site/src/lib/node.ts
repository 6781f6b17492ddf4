// protoplay for Node 18 and later: the core runs in a child process (so a
// compile never blocks the caller's event loop; see nodethread.ts), from
// protoplay.wasm beside this module; no option is needed. The child does
// not keep the process alive while no call is pending, so a script ends
// as soon as its work is done. initialize({ worker: false }) runs the
// core on the calling thread instead.
//
// Importing it changes nothing in the process: Go's wasm_exec.js, which
// sets globalThis.Go, fs, path and process, is loaded only for worker:
// false (it runs in the core's process otherwise). The ES module and the
// CommonJS entry of one version share one core (and ProtoplayError).
import { readFile } from "node:fs/promises";
import { limitsOf, sharedAPI, type Backend, type InitializeOptions, type Progress } from "./common";
import { runInChild } from "./nodethread";
import { bindAPI } from "./public";
import { isWasm, wasmLoadError } from "./wasmload";

export * from "./exports";

async function start(options: InitializeOptions, progress: Progress): Promise<Backend> {
  const limits = limitsOf(options);
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
