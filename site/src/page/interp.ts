// The interpreter: a second wasm module (wasm/interp, yaegi with
// protoplay's runtime linked in) in a Worker of its own, which runs the
// generated Go the page shows. The page starts it only once the core's
// first compile is on screen, so it never competes with the core's
// download. Calls are load (the generated files), check (one message
// type against the reference codec's bytes) and run (a main.go). The
// Worker script is the core's (../lib/worker.ts): both modules install the
// same kind of globalThis.protoplay. A call that runs past its time limit
// (a runaway program) gets the Worker terminated and replaced; the
// replacement reloads the last generated files before its next call.
import { compileWasm } from "../lib/client";
import type { FromWorker } from "../lib/messages";

export interface GoFile {
  name: string;
  content: string;
}

// The shapes of package interp's Session (interp/session.go).
export interface TypeRef {
  name: string;
  importPath: string;
  goName: string;
  builder?: boolean; // it has the opaque accessors and a builder
  field?: FieldRef; // a field of a basic Go type a program can write and read
}
export interface FieldRef {
  name: string;
  type: string; // "string", "bool", "int32", …, "[]byte"
  pointer?: boolean; // the builder's field is a pointer (explicit presence)
}
export interface Position {
  file: string;
  line: number;
  column: number;
  func?: string;
}
export interface Problem {
  message: string;
  positions?: Position[];
}
export interface LoadResult {
  types: TypeRef[];
  error?: Problem;
  elapsedMs: number;
}
export interface Probe {
  name: string;
  hex: string;
  refError?: string;
}
export interface CheckRequest {
  type: string;
  hex: string;
  refError?: string;
  probes?: Probe[];
}
export interface Step {
  name: string;
  pass: boolean;
  message?: string;
}
export interface GoCheckResult {
  type: string;
  goType: string;
  pass: boolean;
  steps: Step[];
  reference: string;
  generated: string;
  offset: number;
  elapsedMs: number;
}
export interface RunResult {
  stdout: string;
  stderr: string;
  error?: Problem;
  panicked?: boolean;
  elapsedMs: number;
  loadMs: number;
}

// TimeLimitError is how a call that ran past its limit rejects (the
// Worker has been replaced by then).
export class TimeLimitError extends Error {
  constructor(
    message: string,
    readonly limitMs: number,
  ) {
    super(message);
  }
}

interface Pending {
  method: string;
  resolve(v: unknown): void;
  reject(e: Error): void;
  timer?: ReturnType<typeof setTimeout>;
}

export interface RunnerOptions {
  url: URL;
  size: number;
  newWorker(): Worker;
  onReady?(ms: number): void;
  onFatal?(message: string): void;
}

export class GoRunner {
  private module: Promise<WebAssembly.Module> | undefined;
  private worker: Worker | undefined;
  private ready!: Promise<void>;
  private markReady!: () => void;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private loadedKey = ""; // the files the current Worker holds
  private want: { key: string; files: GoFile[]; root: string; brk: string } | undefined;
  private lastLoad: Promise<LoadResult> | undefined;
  // onOutput receives the output of the program being run, write by
  // write (a "output" message of the Worker).
  private onOutput: ((stream: "stdout" | "stderr", text: string) => void) | undefined;
  restarts = 0;
  startedAt = 0; // performance.now() when the download began
  readyAt = 0; // when the first Worker was ready

  constructor(private opts: RunnerOptions) {}

  get started(): boolean {
    return !!this.module;
  }

  // start downloads and compiles the module and starts its Worker; later
  // calls do nothing.
  start() {
    if (this.module) return;
    this.startedAt = performance.now();
    this.module = compileWasm(this.opts.url, this.opts.size, () => {}, "Reload the page to load the interpreter again.");
    this.module.catch((e) => this.opts.onFatal?.(`loading the interpreter: ${e?.message ?? e}`));
    this.spawn();
  }

  private spawn() {
    this.ready = new Promise((r) => (this.markReady = r));
    const w = this.opts.newWorker();
    this.worker = w;
    this.loadedKey = "";
    w.onmessage = (e: MessageEvent<FromWorker>) => this.onMessage(e.data);
    w.onerror = (e) => this.opts.onFatal?.(e.message || "the interpreter's Worker failed to start");
    this.module!.then((module) => w.postMessage({ type: "init", module, env: {} }));
  }

  private onMessage(m: FromWorker) {
    switch (m.type) {
      case "ready":
        if (!this.readyAt) this.readyAt = performance.now();
        this.markReady();
        this.opts.onReady?.(m.ms);
        return;
      case "fatal":
        this.opts.onFatal?.(m.message);
        return;
      case "output":
        this.onOutput?.(m.stream, m.text);
        return;
    }
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    clearTimeout(p.timer);
    if (m.type === "result") p.resolve(m.result);
    else p.reject(new Error(m.message));
  }

  // call sends one call; past limitMs after the Worker is ready, the
  // Worker is terminated and replaced, and the call rejects with a
  // TimeLimitError saying what.
  private call<T>(method: string, params: unknown, limitMs: number, what: string): Promise<T> {
    this.start();
    if (!this.worker) this.spawn();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const p: Pending = { method, resolve: resolve as (v: unknown) => void, reject };
      this.pending.set(id, p);
      this.ready.then(() => {
        if (!this.pending.has(id)) return;
        p.timer = setTimeout(() => this.restart(new TimeLimitError(`${what} ran longer than ${limitMs / 1000} s, so it was stopped: its Worker was ended and replaced by a fresh one.`, limitMs)), limitMs);
      });
      this.worker!.postMessage({ type: "call", id, method, params });
    });
  }

  // restart ends the Worker and every call waiting on it; a new Worker
  // starts at once, or (respawn false) with the next call.
  restart(reason: Error, respawn = true) {
    this.worker?.terminate();
    this.worker = undefined;
    this.loadedKey = "";
    this.restarts++;
    const failed = [...this.pending.values()];
    this.pending.clear();
    for (const p of failed) {
      clearTimeout(p.timer);
      p.reject(reason);
    }
    if (respawn) this.spawn();
  }

  // cancelLoad ends a load that is still running (its Worker is replaced),
  // so that it does not take the CPU from the core's next compile: the
  // schema it loads is being replaced. It returns whether it did.
  cancelLoad(): boolean {
    if (![...this.pending.values()].some((p) => p.method === "load")) return false;
    // The next Worker starts with the next call, not now: its start
    // (instantiating the module, starting Go) would compete too.
    this.restart(new Error("superseded by a newer schema"), false);
    this.restarts--; // not a limit: not counted
    this.cancels++;
    return true;
  }
  cancels = 0;

  // load makes files (the generated Go of the current schema) the code
  // the next checks and runs use; the same files again cost nothing.
  // brk names a message type whose Marshal is to be broken (a test hook).
  load(files: GoFile[], root: string, brk = ""): Promise<LoadResult> {
    const key = JSON.stringify([root, brk, files]);
    if (this.want?.key !== key) {
      this.want = { key, files, root, brk };
      this.lastLoad = undefined;
    }
    return this.ensureLoaded();
  }

  private ensureLoaded(): Promise<LoadResult> {
    const want = this.want;
    if (!want) return Promise.reject(new Error("no generated code to load"));
    if (this.lastLoad && this.loadedKey === want.key) return this.lastLoad;
    const worker = this.worker;
    this.loadedKey = want.key;
    this.lastLoad = this.call<LoadResult>("load", { files: want.files, root: want.root, break: want.brk || undefined }, 120_000, "Loading the generated code");
    this.lastLoad.catch(() => {
      if (this.worker === worker && this.loadedKey === want.key) this.loadedKey = "";
    });
    return this.lastLoad;
  }

  async check(req: CheckRequest): Promise<GoCheckResult> {
    await this.ensureLoaded();
    return this.call<GoCheckResult>("check", req, 60_000, `The check of ${req.type}`);
  }

  // run runs a program; onOutput gets its output as it is written, so
  // that what a program printed before it was stopped (a TimeLimitError)
  // can still be shown.
  async run(source: string, limitMs: number, onOutput?: (stream: "stdout" | "stderr", text: string) => void): Promise<RunResult> {
    const loaded = await this.ensureLoaded();
    if (loaded.error) throw new Error(`the generated code did not load: ${loaded.error.message}`);
    this.onOutput = onOutput;
    try {
      return await this.call<RunResult>("run", { source }, limitMs, "The program");
    } finally {
      this.onOutput = undefined;
    }
  }
}

// interpFiles is what the interpreter loads of the generated files: not
// the service files (gRPC's _grpc.pb.go, Connect's fooconnect/), whose
// imports it does not have.
export function interpFiles(files: GoFile[]): GoFile[] {
  return files.filter((f) => f.name.endsWith(".go") && !f.name.endsWith("_grpc.pb.go") && !f.name.endsWith(".connect.go"));
}

// optionValue is the value of generator option key in "k=v,k=v", or "".
export function optionValue(options: string, key: string): string {
  let v = "";
  for (const kv of options.split(",")) {
    const [k, val = ""] = kv.split(/=(.*)/s);
    if (k.trim() === key) v = val.trim();
  }
  return v;
}

// interpOptions are the generator options the interpreter needs the code
// generated with: paths=import (file names are import paths) and the
// runtime by its own import path (compiled into the interpreter). "" when
// options already give that.
export function interpOptions(options: string): string | null {
  const parts = options.split(",").filter((kv) => kv.trim());
  const keep = parts.filter((kv) => {
    const k = kv.split("=")[0].trim();
    return k !== "paths" && k !== "runtime";
  });
  return keep.length === parts.length ? null : keep.join(",");
}
