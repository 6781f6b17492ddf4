// The Worker that runs protoplay's core (Go compiled to WebAssembly). The
// page talks to it only by messages (see api.ts): an "init", then "call"s,
// each answered by a "result" or an "error" with the same id. Calls run in
// the order they arrive; the Go side never blocks the event loop, so the
// Worker keeps receiving while it works.
import "go:wasm_exec";
import type { FromWorker, Method, ToWorker } from "./api";

type API = Record<Method, (params: unknown) => Promise<unknown>>;

const post = (m: FromWorker) => (self as unknown as Worker).postMessage(m);
let memory: WebAssembly.Memory | undefined;
let api: Promise<API> | undefined;

async function start(module?: WebAssembly.Module): Promise<API> {
  const t0 = performance.now();
  const go = new Go();
  const ready = new Promise<void>((resolve) => {
    (globalThis as any).protoplayReady = resolve;
  });
  let instance: WebAssembly.Instance;
  if (module) {
    // A replacement Worker: the page hands over the module the first
    // Worker compiled, so nothing is downloaded or compiled again.
    instance = await WebAssembly.instantiate(module, go.importObject);
  } else {
    const r = await instantiateWithProgress(go);
    instance = r.instance;
    module = r.module;
  }
  memory = instance.exports.mem as WebAssembly.Memory;
  go.run(instance).then(() => post({ type: "fatal", message: "the Go program exited" }));
  await ready;
  const protoplay = (globalThis as any).protoplay;
  post({ type: "ready", ms: performance.now() - t0, module, version: String(protoplay.version) });
  return protoplay as API;
}

// instantiateWithProgress streams the wasm into the compiler while counting
// bytes for the page's progress bar. The total is the uncompressed size the
// build recorded: Content-Length counts compressed bytes.
async function instantiateWithProgress(go: Go): Promise<WebAssembly.WebAssemblyInstantiatedSource> {
  const url = new URL(__WASM_URL__, import.meta.url);
  const resp = await fetch(url);
  if (!resp.ok || !resp.body) throw new Error(`fetching ${url.pathname}: HTTP ${resp.status}`);
  const total = __WASM_SIZE__;
  let loaded = 0;
  let last = 0;
  const counted = resp.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, ctl) {
        loaded += chunk.byteLength;
        const now = performance.now();
        if (now - last > 50 || loaded >= total) {
          last = now;
          post({ type: "progress", loaded, total });
        }
        ctl.enqueue(chunk);
      },
    }),
  );
  const streamed = new Response(counted, { headers: { "Content-Type": "application/wasm" } });
  return WebAssembly.instantiateStreaming(streamed, go.importObject);
}

self.onmessage = async (e: MessageEvent<ToWorker>) => {
  const m = e.data;
  if (m.type === "init") {
    api = start(m.module);
    api.catch((err) => post({ type: "fatal", message: String(err?.message ?? err) }));
    return;
  }
  if (!api) {
    post({ type: "error", id: m.id, message: "worker not initialised", memory: 0, ms: 0 });
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
