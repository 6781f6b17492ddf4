// The core's process (or thread) of Node's entry: nodethread.ts starts it
// from this file's bundle, a string, as a child process (node -e) or, for
// a module compiled by the caller, a worker thread. It runs the core as
// inthread.ts does on the calling thread, with the limits sent with every
// call, after an "init" with the .wasm's bytes (or the compiled module),
// and answers each "call" with a "result" or an "error" of the same id
// (the envelopes of messages.ts).
//
// In a child process the core runs in a worker thread of it (started
// from the same code, which comes with the "init"), and the process's main
// thread only passes messages: it stays free to notice that its parent
// has gone (the IPC channel closes when the parent dies, by a signal too)
// and ends the process at once, even while the core is in the middle of
// a compile. A core on the main thread would go on to the end of it.
import "./node-globals";
import { parentPort, Worker, workerData } from "node:worker_threads";
import type { FromWorker } from "./messages";
import { runInThread } from "./inthread";
import type { Backend } from "./common";

interface Init {
  type: "init";
  module?: WebAssembly.Module;
  bytes?: Uint8Array;
  limits: { timeoutMs: number; memoryLimit: number };
  code?: string; // this script, for the core's thread of a child process
}
type In = Init | { type: "call"; id: number; method: string; params: unknown };
// A "cpu" request (nodethread.ts) asks the child process's main thread
// how much CPU time its process has used since call id reached it.
type CPURequest = { type: "cpu"; id: number };

const proc = (globalThis as any).process;

if (!parentPort) relay();
else serve();

// relay is the child process's main thread: it starts the core's thread
// on "init" and passes messages both ways, and answers "cpu" requests
// (the process's CPU time since the call reached it: the core's thread
// does the work, this thread only relays).
function relay() {
  // The parent is gone: end now (SIGKILL: exiting would wait for the
  // core's thread to stop and for V8's background compiles).
  proc.on("disconnect", () => proc.kill(proc.pid, "SIGKILL"));
  let core: Worker | undefined;
  const waiting: In[] = [];
  const cpuNow = () => {
    const u = proc.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const arrived = new Map<number, number>(); // call id → cpuNow() when it came
  proc.on("message", (m: In | CPURequest) => {
    if (m.type === "cpu") {
      const t0 = arrived.get(m.id);
      proc.send({ type: "cpu", id: m.id, ms: t0 === undefined ? undefined : cpuNow() - t0 });
      return;
    }
    if (m.type === "call") arrived.set(m.id, cpuNow());
    if (m.type !== "init") {
      if (core) core.postMessage(m);
      else waiting.push(m);
      return;
    }
    core = new Worker(m.code!, { eval: true, workerData: { bytes: m.bytes, limits: m.limits }, name: "protoplay core" });
    core.on("message", (r: FromWorker) => {
      if (r.type === "result" || r.type === "error") arrived.delete(r.id);
      proc.send(r);
    });
    core.on("error", (e: Error) => {
      proc.send({ type: "fatal", message: String(e?.stack ?? e) });
      proc.exit(70);
    });
    core.on("exit", (code: number) => proc.exit(code || 70));
    for (const w of waiting.splice(0)) core.postMessage(w);
  });
}

// serve runs the core on this thread: a worker thread, of the caller's
// process (a compiled module) or of the core's child process.
function serve() {
  const port = parentPort!;
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
}
