// Node's core off the calling thread: a child process running the
// core's script (node-worker.ts, inlined as a string), or a worker thread
// when the caller gives a compiled module (which only a thread can take).
// Calls are messages, as with the browser's Worker (client.ts). The child
// is unref'd while no call is pending, so an idle core never keeps the
// process alive, and killed when the process exits (as esbuild-wasm does
// with its child). A child process rather than a worker thread by
// default: V8 goes on optimising the running wasm on background threads,
// and Node, exiting, waits for all of that work (seconds, after a compile)
// unless it belongs to another process.
// The core enforces the limits itself (they go with every call); a call
// that overruns the time limit by far (a stage the core cannot stop in)
// gets the process terminated, and the next call starts a fresh one.
import { spawn } from "node:child_process";
import { Worker } from "node:worker_threads";
import type { CoreError, Method } from "./api.gen";
import { ProtoplayError, type Backend } from "./common";
import type { FromWorker } from "./messages";

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
  timer?: ReturnType<typeof setTimeout>;
}

// How long past the time limit a call may run before the core is
// terminated (the core stops itself between stages; this is for a stage
// that does not end).
const graceMs = 5_000;

class CallFailed extends Error {
  constructor(
    message: string,
    readonly detail?: CoreError,
  ) {
    super(message);
  }
}

// A Channel is the child process or the worker thread.
interface Channel {
  send(m: unknown): void;
  on(event: "message", f: (m: FromWorker) => void): void;
  on(event: "error", f: (e: Error) => void): void;
  on(event: "exit", f: (code: number | null) => void): void;
  hold(on: boolean): void; // keep the process alive (a call is pending)
  kill(): void;
}

const proc = (globalThis as any).process;

function childProcess(bytes: Uint8Array, limits: { timeoutMs: number; memoryLimit: number }): Channel {
  const child = spawn(proc.execPath, ["--input-type=commonjs", "-e", __PROTOPLAY_NODE_WORKER__], {
    stdio: ["ignore", "ignore", "pipe", "ipc"],
    serialization: "advanced",
    windowsHide: true,
  });
  // The core's own complaints (a Go panic) go to this process's stderr.
  child.stderr?.on("data", (d: unknown) => proc.stderr.write(d));
  // SIGKILL: a core that does not answer may be stopped or stuck in a
  // stage that handles no signal.
  const kill = () => child.kill("SIGKILL");
  proc.on("exit", kill);
  child.on("exit", () => proc.off("exit", kill));
  // The code again, for the core's thread in the child (node-worker.ts).
  child.send({ type: "init", bytes, limits, code: __PROTOPLAY_NODE_WORKER__ });
  return {
    send: (m) => child.send(m),
    on: (event: any, f: any) => child.on(event, f),
    hold(on) {
      for (const h of [child, child.channel, child.stderr]) on ? h?.ref?.() : h?.unref?.();
    },
    kill,
  };
}

function workerThread(module: WebAssembly.Module, limits: { timeoutMs: number; memoryLimit: number }): Channel {
  const worker = new Worker(__PROTOPLAY_NODE_WORKER__, { eval: true, workerData: { module, limits }, name: "protoplay core" });
  return {
    send: (m) => worker.postMessage(m),
    on: (event: any, f: any) => worker.on(event, f),
    hold: (on) => (on ? worker.ref() : worker.unref()),
    kill: () => void worker.terminate(),
  };
}

// runInChild starts the core in a child process from the .wasm's bytes,
// or in a worker thread from a compiled module. Each core started has its
// own calls: a core killed for the time limit rejects those waiting on it
// (kind "limit"), and its exit, which comes later, is not the next core's.
export async function runInChild(core: { module?: WebAssembly.Module; bytes?: Uint8Array }, limits: { timeoutMs: number; memoryLimit: number }): Promise<Backend> {
  interface Instance {
    ch: Channel;
    ready: Promise<string>;
    pending: Map<number, Pending>;
    kill?(message: string, detail: CoreError): void;
  }
  let current: Instance | undefined;
  let nextId = 1;

  const hold = (t: Instance) => t.ch.hold(t.pending.size > 0);

  function start(): Instance {
    const ch = core.module ? workerThread(core.module, limits) : childProcess(core.bytes!, limits);
    let started!: (v: string) => void, failed!: (e: Error) => void;
    const ready = new Promise<string>((res, rej) => ((started = res), (failed = rej)));
    ready.catch(() => {}); // a restart's failure is its calls'
    const t: Instance = { ch, ready, pending: new Map() };
    // end rejects the calls still waiting on this core, with detail.
    const end = (message: string, detail: CoreError) => {
      if (current === t) current = undefined;
      failed(new ProtoplayError(`protoplay: ${message}`));
      for (const [id, p] of t.pending) {
        clearTimeout(p.timer);
        t.pending.delete(id);
        p.reject(new CallFailed(`protoplay: ${message}`, detail));
      }
    };
    const internal = (message: string): CoreError => ({ kind: "internal", message, offset: -1 });
    t.kill = (message: string, detail: CoreError) => {
      end(message, detail);
      ch.kill();
    };
    ch.on("message", (m: FromWorker) => {
      switch (m.type) {
        case "ready":
          started(m.version);
          hold(t);
          return;
        case "fatal":
          t.kill!(`the core failed to start: ${m.message}`, internal(m.message));
          return;
        case "output": // the interpreter's; the core sends none
          return;
      }
      const p = t.pending.get(m.id);
      if (!p) return;
      t.pending.delete(m.id);
      clearTimeout(p.timer);
      if (m.type === "result") p.resolve(m.result);
      else p.reject(new CallFailed(m.message, m.detail));
      hold(t);
    });
    ch.on("error", (e) => end(`the core's process failed: ${e?.message ?? e}`, internal(String(e?.message ?? e))));
    ch.on("exit", (code) => end(`the core's process exited (code ${code})`, internal(`exit code ${code}`)));
    return t;
  }

  current = start();
  const version = await current.ready;
  return {
    version,
    limits,
    call<M extends Method>(method: M, params: unknown): Promise<any> {
      current ??= start();
      const t = current;
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const p: Pending = { resolve, reject };
        t.pending.set(id, p);
        hold(t);
        // The clock starts when the core is ready: a new core's start
        // (compiling the wasm: seconds on a busy machine) is not the call's.
        t.ready.then(() => {
          if (!t.pending.has(id)) return;
          p.timer = setTimeout(() => {
            if (!t.pending.has(id)) return;
            const message = `stopped: over the time limit of ${limits.timeoutMs} ms (timeoutMs; initialize({ timeoutMs }) raises it); the core was restarted`;
            t.pending.delete(id);
            p.reject(new CallFailed(`protoplay: ${message}`, { kind: "limit", limit: "Deadline", message, offset: -1 }));
            // The calls behind it on this core end with it; the next call
            // starts a new core.
            const behind = `stopped: the core was restarted because another call ran over the time limit of ${limits.timeoutMs} ms (timeoutMs; initialize({ timeoutMs }) raises it)`;
            t.kill!(behind, { kind: "limit", limit: "Deadline", message: behind, offset: -1 });
          }, limits.timeoutMs + graceMs);
        }, () => {});
        t.ch.send({ type: "call", id, method, params });
      });
    },
  };
}
