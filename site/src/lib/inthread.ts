// The core on the calling thread: Node, or a browser page that asked for
// no Worker. Go's wasm_exec.js (bundled from the toolchain that built the
// wasm) defines globalThis.Go; the core installs globalThis.protoplay.
//
// Nothing can interrupt the core on this thread, so the limits go to it
// with every call (common.ts adds them) and it stops itself: at the time
// limit and when its memory passes the memory limit, checked between its
// stages and after each generated message. A core whose WebAssembly memory
// (which never shrinks) has grown past the memory limit after a call is
// replaced by a fresh one before the next call.
import "go:wasm_exec";
import type { Method } from "./api.gen";
import type { Backend } from "./common";

interface Core {
  api: any;
  memory: WebAssembly.Memory;
}

async function startCore(module: WebAssembly.Module): Promise<Core> {
  const g = globalThis as any;
  const go = new Go();
  const ready = new Promise<void>((resolve) => (g.protoplayReady = resolve));
  const instance = await WebAssembly.instantiate(module, go.importObject);
  let exited!: (e: Error) => void;
  const exit = new Promise<never>((_, reject) => (exited = reject));
  go.run(instance).then(() => exited(new Error("protoplay: the core exited")));
  await Promise.race([ready, exit]);
  return { api: g.protoplay, memory: instance.exports.mem as WebAssembly.Memory };
}

// One core per realm, shared by every copy of this module (and restarted
// for all of them).
const shared = Symbol.for("protoplay.inthread");

export async function runInThread(module: WebAssembly.Module, limits: { timeoutMs: number; memoryLimit: number }): Promise<Backend> {
  const g = globalThis as any;
  g[shared] ??= startCore(module);
  const core = async (): Promise<Core> => {
    let c: Core = await g[shared];
    if (c.memory.buffer.byteLength > limits.memoryLimit) {
      // Go's heap never hands memory back to WebAssembly: start afresh.
      g[shared] = startCore(module);
      c = await g[shared];
    }
    return c;
  };
  const first = await core();
  return {
    call: async (method: Method, params: unknown) => (await core()).api[method](params),
    version: String(first.api.version),
    limits,
  } as Backend;
}
