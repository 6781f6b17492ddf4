// The core's process (or thread) of Node's entry: nodethread.ts starts it
// from this file's bundle, a string, as a child process (node -e) or, for
// a module compiled by the caller, a worker thread. It runs the core as
// inthread.ts does on the calling thread, with the limits sent with every
// call, after an "init" with the .wasm's bytes (or the compiled module),
// and answers each "call" with a "result" or an "error" of the same id
// (the envelopes of messages.ts).
import "./node-globals";
import { parentPort, workerData } from "node:worker_threads";
import type { FromWorker } from "./messages";
import { runInThread } from "./inthread";
import type { Backend } from "./common";

interface Init {
  type: "init";
  module?: WebAssembly.Module;
  bytes?: Uint8Array;
  limits: { timeoutMs: number; memoryLimit: number };
}
type In = Init | { type: "call"; id: number; method: string; params: unknown };

const proc = (globalThis as any).process;
const port = parentPort ?? {
  postMessage: (m: unknown) => proc.send(m),
  on: (_: "message", f: (m: any) => void) => proc.on("message", f),
};
// A child process ends with its parent (whose exit closes the channel).
if (!parentPort) proc.on("disconnect", () => proc.exit(0));

const post = (m: FromWorker) => port.postMessage(m);
let init!: (m: Init) => void;
const backend: Promise<Backend> = new Promise<Init>((r) => (init = r)).then(async ({ module, bytes, limits }) =>
  runInThread(module ?? (await WebAssembly.compile(bytes as BufferSource)), limits),
);
backend.then(
  (b) => post({ type: "ready", ms: 0, version: b.version }),
  (e) => post({ type: "fatal", message: String(e?.message ?? e) }),
);
if (workerData) init({ type: "init", ...workerData });
port.on("message", async (m: In) => {
  if (m.type === "init") {
    init(m);
    return;
  }
  try {
    const result = await (await backend).call(m.method as never, m.params as never);
    post({ type: "result", id: m.id, result, memory: 0, ms: 0 });
  } catch (err: any) {
    post({ type: "error", id: m.id, message: String(err?.message ?? err), detail: err?.detail, memory: 0, ms: 0 });
  }
});
