// Node's core off the calling thread: a child process running the
// core's script (node-worker.ts, inlined as a string), or a worker thread
// when the caller gives a compiled module (which only a thread can take),
// or the native core's process (nativecore.ts).
// Calls are messages, as with the browser's Worker (client.ts). The child
// is unref'd while no call is pending, so an idle core never keeps the
// process alive, and killed when the process exits (as esbuild-wasm does
// with its child). A child process rather than a worker thread by
// default: V8 goes on optimising the running wasm on background threads,
// and Node, exiting, waits for all of that work (seconds, after a compile)
// unless it belongs to another process.
// The core enforces the limits itself (they go with every call); a call
// that overruns the time limit by far (a stage the core cannot stop in)
// gets the process terminated, and the next call starts a fresh one. "By
// far" is counted in the CPU time the core was given, not only on the
// clock: on a busy machine a stage the core ends and checks after takes
// longer on the clock, and the core would otherwise be killed while it is
// on its way to stopping itself.
import { spawn } from "node:child_process";
import { Worker } from "node:worker_threads";
import type { CoreError, Method } from "./api.gen";
import { ProtoplayError, type Backend } from "./common";
import type { FromWorker } from "./messages";
import { nativeProcess } from "./nativecore";

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
  timer?: ReturnType<typeof setTimeout>;
}

// How long past the time limit a call may run before the core is
// terminated (the core stops itself between stages; this is for a stage
// that does not end): graceMs past it on the clock, and, by then, the
// time limit and graceMs of CPU time used by the core's process since the
// call reached it. A core that does not say how much CPU it used within
// graceMs of being asked (a stopped or hung process) is terminated.
const graceMs = 5_000;

// The CPU time, in ms, the core's process has used since call id
// reached it: what its process's main thread answers to a "cpu" request
// (node-worker.ts), which it can while the core's thread computes.
interface CPUAnswer {
  type: "cpu";
  id: number;
  ms?: number; // undefined: the call is no longer the core's
}

// cpuNow is this process's CPU time (user and system, every thread), in ms.
function cpuNow(): number {
  const u = proc.cpuUsage();
  return (u.user + u.system) / 1000;
}

class CallFailed extends Error {
  constructor(
    message: string,
    readonly detail?: CoreError,
  ) {
    super(message);
  }
}

// A Channel is the child process, the worker thread or the native core.
export interface Channel {
  send(m: unknown): void;
  on(event: "message", f: (m: FromWorker) => void): void;
  on(event: "error", f: (e: Error) => void): void;
  on(event: "exit", f: (code: number | null) => void): void;
  hold(on: boolean): void; // keep the process alive (a call is pending)
  kill(): void;
  // cpuMs is the CPU time (ms) the core's process has used since call id
  // was sent, or undefined when it does not answer within waitMs.
  cpuMs(id: number, waitMs: number): Promise<number | undefined>;
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
  // The "cpu" requests waiting for their answer, by call id.
  const asked = new Map<number, ((ms: number | undefined) => void)[]>();
  child.on("message", (m: FromWorker | CPUAnswer) => {
    if (m?.type !== "cpu") return;
    const waiting = asked.get(m.id) ?? [];
    asked.delete(m.id);
    for (const f of waiting) f(m.ms);
  });
  return {
    send: (m) => child.send(m),
    on: (event: any, f: any) => child.on(event, event === "message" ? (m: FromWorker | CPUAnswer) => m?.type !== "cpu" && f(m) : f),
    hold(on) {
      for (const h of [child, child.channel, child.stderr]) on ? h?.ref?.() : h?.unref?.();
    },
    kill,
    cpuMs(id, waitMs) {
      return new Promise((resolve) => {
        const timer: any = setTimeout(() => resolve(undefined), waitMs);
        timer.unref?.(); // a pending answer does not keep the process alive
        const waiting = asked.get(id) ?? [];
        waiting.push((ms) => {
          clearTimeout(timer);
          resolve(ms);
        });
        asked.set(id, waiting);
        try {
          child.send({ type: "cpu", id });
        } catch {
          // The channel is closed: the process is gone or going; no answer.
        }
      });
    },
  };
}

function workerThread(module: WebAssembly.Module, limits: { timeoutMs: number; memoryLimit: number }): Channel {
  const worker = new Worker(__PROTOPLAY_NODE_WORKER__, { eval: true, workerData: { module, limits }, name: "protoplay core" });
  // The thread's CPU time is not counted apart from this process's (Node
  // 18 and 20 have no per-thread count): the process's, by call, from
  // when it was sent until it is answered. It counts the caller's work
  // too, so the core is terminated no later than it would be by the
  // clock alone.
  const sent = new Map<number, number>();
  worker.on("message", (m: FromWorker) => {
    if (m.type === "result" || m.type === "error") sent.delete(m.id);
  });
  return {
    send(m: any) {
      if (m?.type === "call") sent.set(m.id, cpuNow());
      worker.postMessage(m);
    },
    on: (event: any, f: any) => worker.on(event, f),
    hold: (on) => (on ? worker.ref() : worker.unref()),
    kill: () => void worker.terminate(),
    cpuMs: async (id) => {
      const t0 = sent.get(id);
      return t0 === undefined ? undefined : cpuNow() - t0;
    },
  };
}

// runInChild starts the core in a child process from the .wasm's bytes,
// in a worker thread from a compiled module, or the native core's binary
// (native: its path; version: the package's, which it must have). Each
// core started has its own calls: a core killed for the time limit
// rejects those waiting on it (kind "limit"), and its exit, which comes
// later, is not the next core's.
export async function runInChild(core: { module?: WebAssembly.Module; bytes?: Uint8Array; native?: string; version?: string }, limits: { timeoutMs: number; memoryLimit: number }): Promise<Backend> {
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
    const ch = core.native ? nativeProcess(core.native, core.version!) : core.module ? workerThread(core.module, limits) : childProcess(core.bytes!, limits);
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
        // The core is terminated once the call is graceMs past the time
        // limit on the clock and its process has used as much CPU time
        // (or does not answer): a core that got less is still on its way
        // to the end of a stage, where it stops itself.
        const budgetMs = limits.timeoutMs + graceMs;
        const check = async () => {
          if (!t.pending.has(id)) return;
          const used = await t.ch.cpuMs(id, graceMs);
          if (!t.pending.has(id)) return;
          if (used !== undefined && used < budgetMs) {
            p.timer = setTimeout(check, Math.max(budgetMs - used, 250));
            return;
          }
          overrun();
        };
        const overrun = () => {
          const message = `stopped: over the time limit of ${limits.timeoutMs} ms (timeoutMs; initialize({ timeoutMs }) raises it); the core was restarted`;
          t.pending.delete(id);
          p.reject(new CallFailed(`protoplay: ${message}`, { kind: "limit", limit: "Deadline", message, offset: -1 }));
          // The calls behind it on this core end with it; the next call
          // starts a new core.
          const behind = `stopped: the core was restarted because another call ran over the time limit of ${limits.timeoutMs} ms (timeoutMs; initialize({ timeoutMs }) raises it)`;
          t.kill!(behind, { kind: "limit", limit: "Deadline", message: behind, offset: -1 });
        };
        t.ready.then(() => {
          if (!t.pending.has(id)) return;
          p.timer = setTimeout(check, budgetMs);
        }, () => {});
        t.ch.send({ type: "call", id, method, params });
      });
    },
  };
}
