// The core on the calling thread: Node, or a browser page that asked for
// no Worker. Go's wasm_exec.js (bundled from the toolchain that built the
// wasm) defines globalThis.Go; the core installs globalThis.protoplay.
import "go:wasm_exec";
import type { Method } from "../api";
import type { Backend } from "./common";

export async function runInThread(module: WebAssembly.Module): Promise<Backend> {
  const g = globalThis as any;
  if (g.protoplay?.version) return backendOf(g.protoplay); // another copy started it
  const go = new Go();
  const ready = new Promise<void>((resolve) => (g.protoplayReady = resolve));
  const instance = await WebAssembly.instantiate(module, go.importObject);
  let exited!: (e: Error) => void;
  const exit = new Promise<never>((_, reject) => (exited = reject));
  go.run(instance).then(() => exited(new Error("protoplay: the core exited")));
  await Promise.race([ready, exit]);
  return backendOf(g.protoplay);
}

function backendOf(api: any): Backend {
  return {
    call: (method: Method, params: unknown) => api[method](params),
    version: String(api.version),
  } as Backend;
}
