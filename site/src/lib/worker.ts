// The Worker that runs protoplay's core (Go compiled to WebAssembly), for
// the page and the npm package alike. The page talks to it only by
// messages (messages.ts; client.ts sends them): an "init", then "call"s,
// each answered by a "result" or an "error" with the same id. Calls run in
// the order they arrive; the Go side never blocks the event loop, so the
// Worker keeps receiving while it works.
import "go:wasm_exec";
import type { Method } from "./api.gen";
import type { FromWorker, ToWorker } from "./messages";

type API = Record<Method, (params: unknown) => Promise<unknown>>;

const post = (m: FromWorker) => (self as unknown as Worker).postMessage(m);
let memory: WebAssembly.Memory | undefined;
// Calls may arrive before the page has the module to send: they wait for
// "init".
let init!: (m: { module: WebAssembly.Module; env: Record<string, string> }) => void;
const api: Promise<API> = new Promise<{ module: WebAssembly.Module; env: Record<string, string> }>((r) => (init = r)).then(start);
api.catch((err) => post({ type: "fatal", message: String(err?.message ?? err) }));

async function start({ module, env }: { module: WebAssembly.Module; env: Record<string, string> }): Promise<API> {
  const t0 = performance.now();
  const go = new Go();
  (go as unknown as { env: Record<string, string> }).env = env;
  const ready = new Promise<void>((resolve) => {
    (globalThis as any).protoplayReady = resolve;
  });
  // The interpreter's module hands a running program's output here as it
  // is written.
  (globalThis as any).protoplayOutput = (stream: "stdout" | "stderr", text: string) => post({ type: "output", stream, text });
  // The page compiled the module (compileStreaming, so the browser can
  // cache the machine code); instantiating it here costs little, and a
  // replacement Worker reuses the same module.
  const instance = await WebAssembly.instantiate(module, go.importObject);
  memory = instance.exports.mem as WebAssembly.Memory;
  go.run(instance).then(() => post({ type: "fatal", message: "the Go program exited" }));
  await ready;
  const protoplay = (globalThis as any).protoplay;
  post({ type: "ready", ms: performance.now() - t0, version: String(protoplay.version) });
  return protoplay as API;
}

self.onmessage = async (e: MessageEvent<ToWorker>) => {
  const m = e.data;
  if (m.type === "init") {
    init(m);
    return;
  }
  const t0 = performance.now();
  try {
    const result = await (await api)[m.method](m.params);
    post({ type: "result", id: m.id, result, memory: memBytes(), ms: performance.now() - t0 });
  } catch (err: any) {
    post({
      type: "error",
      id: m.id,
      message: String(err?.message ?? err),
      detail: err?.detail,
      memory: memBytes(),
      ms: performance.now() - t0,
    });
  }
};

// memBytes is the wasm linear memory's size. Go's heap never gives memory
// back to it, so this is the high-water mark the page watches.
const memBytes = () => memory?.buffer.byteLength ?? 0;
