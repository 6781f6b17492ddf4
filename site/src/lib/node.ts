// protoplay for Node 18 and later: the core runs on the calling thread,
// from protoplay.wasm beside this module; no option is needed.
import "./node-globals";
import { readFile } from "node:fs/promises";
import { createAPI, limitsOf, type Backend, type InitializeOptions } from "./common";
import { runInThread } from "./inthread";

export * from "./common";

async function start(options: InitializeOptions): Promise<Backend> {
  if (options.worker === true) throw new Error("protoplay: in Node the core runs on the calling thread (worker: true is not supported)");
  let module = options.wasmModule;
  if (!module) {
    const where = options.wasmURL ?? new URL("./protoplay.wasm", import.meta.url);
    const url = where instanceof URL ? where : /^[a-z][a-z0-9+.-]+:\/\//i.test(where) ? new URL(where) : undefined;
    let bytes: BufferSource;
    if (url && (url.protocol === "http:" || url.protocol === "https:")) {
      const r = await fetch(url);
      if (!r.ok) throw new Error(`protoplay: fetching ${url}: HTTP ${r.status}`);
      bytes = await r.arrayBuffer();
    } else {
      bytes = (await readFile(url ?? (where as string))) as BufferSource;
    }
    module = await WebAssembly.compile(bytes);
  }
  return runInThread(module, limitsOf(options));
}

const api = createAPI(start);
export const { initialize, compile, encode, decode, decodeRaw, wireView, sample, check, coreVersion } = api;
