// Core is the page's handle on the compiler Worker. Each call is a message
// with an id, answered by a result or an error. A call that runs past its
// time limit, or a Worker whose memory has grown past the limit, gets the
// Worker terminated and replaced by a fresh one (which reuses the compiled
// wasm module), and onRestart says why, so the page can tell the user.
// The page and the npm package's browser entry (index.ts) both use it.
import type { CompileRequest, CompileResult, CoreError, GeneratedFile, Method, Methods } from "./api.gen";
import type { FetchInfo, FromWorker } from "./messages";
import { isWasm, wasmLoadError } from "./wasmload";

export interface CoreOptions {
  // module is the compiled core; a replacement Worker reuses it.
  module: Promise<WebAssembly.Module>;
  // newWorker starts a Worker running worker.ts (the page's is a file
  // beside it, the npm package's a Blob of the same code).
  newWorker(): Worker;
  timeoutMs: number; // per call
  memoryLimit: number; // bytes of wasm memory
  // How the user raises each limit, said after the restart notice (the
  // page: "?timeout=MS"; the npm package: "initialize({ timeoutMs })").
  raise?: { timeout: string; memory: string };
  env: Record<string, string>; // the Go program's environment (GOGC, GODEBUG...)
  onReady(ms: number, version: string, fetch?: FetchInfo): void;
  onRestart(reason: string): void;
  onFatal(message: string): void;
}

// CallError is how a call rejects. detail is the core's error (its kind,
// and the diagnostics or the position in the input); a call ended by a
// restart has a detail of kind "limit" naming the limit ("Deadline" or
// "MaxMemoryBytes") and restarted set.
export class CallError extends Error {
  constructor(
    message: string,
    readonly detail?: CoreError,
    readonly restarted = false,
  ) {
    super(message);
  }
}

// HeldFile is generated Go as the last "generate" result gave it, with the
// rev the core named that content by (CompileRequest.have).
export type HeldFile = GeneratedFile & { rev?: string };

// HELD_OPTION_SETS is how many options strings' generated Go a Core holds
// for changes: the core (compiler.Workspace) keeps the last 4 too.
const HELD_OPTION_SETS = 4;

interface Pending {
  method: Method;
  resolve(v: unknown): void;
  reject(e: Error): void;
  timer?: ReturnType<typeof setTimeout>;
}

export class Core {
  private worker!: Worker;
  private module: Promise<WebAssembly.Module>;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private readyPromise!: Promise<void>;
  private markReady!: () => void;
  restarts = 0;
  private closed?: Error;
  moduleReadyMs = 0; // when the wasm was downloaded and compiled, since navigation start
  // held is the generated Go of the last "generate" result of each
  // options string (CompileRequest.options), by file name: the next call
  // with those options asks for changes to it (CompileRequest.have), so an
  // edit of a big schema sends only the Go it changed, not megabytes.
  // Calls with other options (the Go interpreter's) keep their own copies;
  // the last HELD_OPTION_SETS options strings are kept (as the core keeps
  // its outputs), least recently used first in the Map's order.
  private held = new Map<string, Map<string, HeldFile>>();

  constructor(private opts: CoreOptions) {
    this.module = opts.module;
    this.module.then(
      () => (this.moduleReadyMs = performance.now()),
      (e) => opts.onFatal(`loading the compiler: ${e?.message ?? e}`),
    );
    this.spawn();
  }

  // busy is the number of calls not yet answered.
  get busy(): number {
    return this.pending.size;
  }

  get ready(): Promise<void> {
    return this.readyPromise;
  }

  call<M extends Method>(method: M, params: Methods[M][0]): Promise<Methods[M][1]> {
    if (method === "generate" && (params as CompileRequest).have === undefined) {
      return this.generate(params as CompileRequest) as Promise<Methods[M][1]>;
    }
    return this.send(method, params);
  }

  // generate asks for the Go as changes to the files held and answers
  // with whole files (each with its rev) as a plain "generate" does;
  // result.changes stays, for a viewer that applies them itself. A
  // change to a copy it does not hold (which the core never sends) gets
  // the whole result asked for again.
  private async generate(params: CompileRequest): Promise<CompileResult> {
    const key = params.options ?? "";
    const mine = this.held.get(key) ?? new Map<string, HeldFile>();
    const have: Record<string, string> = {};
    for (const [name, f] of mine) if (f.rev) have[name] = f.rev;
    const r = await this.send("generate", { ...params, have });
    if (!r.changes) return r; // errors: no Go, the held files stay
    const base = this.held.get(key) ?? new Map<string, HeldFile>();
    const held = new Map<string, HeldFile>();
    for (const c of r.changes) {
      let content = c.insert;
      if (c.base) {
        const old = base.get(c.name);
        if (!old || old.rev !== c.base) {
          this.held.delete(key);
          return this.send("generate", params);
        }
        content = c.from === c.to && !c.insert ? old.content : old.content.slice(0, c.from) + c.insert + old.content.slice(c.to);
      }
      held.set(c.name, { name: c.name, content, rev: c.rev });
    }
    this.held.delete(key);
    this.held.set(key, held);
    for (const k of this.held.keys()) {
      if (this.held.size <= HELD_OPTION_SETS) break;
      this.held.delete(k);
    }
    return { ...r, generated: [...held.values()] };
  }

  private send<M extends Method>(method: M, params: Methods[M][0]): Promise<Methods[M][1]> {
    if (this.closed) return Promise.reject(this.closed);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const p: Pending = { method, resolve: resolve as (v: unknown) => void, reject };
      this.pending.set(id, p);
      // The clock starts when the Worker is ready, so a slow download is
      // not mistaken for a runaway call.
      this.readyPromise.then(() => {
        if (!this.pending.has(id)) return;
        p.timer = setTimeout(() => this.timeout(id), this.opts.timeoutMs);
      });
      this.worker.postMessage({ type: "call", id, method, params });
    });
  }

  private spawn() {
    this.readyPromise = new Promise((r) => (this.markReady = r));
    const w = this.opts.newWorker();
    this.worker = w;
    w.onmessage = (e: MessageEvent<FromWorker>) => this.onMessage(e.data);
    w.onerror = (e) => this.opts.onFatal(e.message || "the compiler Worker failed to start");
    this.module.then(
      (module) => w.postMessage({ type: "init", module, env: this.opts.env }),
      () => {}, // said by onFatal
    );
  }

  // close ends the Worker for good: the calls waiting on it reject with
  // err, and later calls too.
  close(err: Error) {
    this.closed = err;
    this.worker.terminate();
    const failed = [...this.pending.values()];
    this.pending.clear();
    for (const p of failed) {
      clearTimeout(p.timer);
      p.reject(err);
    }
  }

  private onMessage(m: FromWorker) {
    switch (m.type) {
      case "ready":
        this.markReady();
        this.opts.onReady(m.ms, m.version, wasmFetchInfo());
        return;
      case "fatal":
        this.opts.onFatal(m.message);
        return;
      case "output": // the interpreter's; the core sends none
        return;
    }
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    clearTimeout(p.timer);
    if (m.type === "result") p.resolve(m.result);
    else p.reject(new CallError(m.message, m.detail));
    if (m.memory > this.opts.memoryLimit) {
      const raise = this.opts.raise ? ` (${this.opts.raise.memory} raises the limit)` : "";
      this.restart(
        `The compiler's memory grew to ${mib(m.memory)} (limit ${mib(this.opts.memoryLimit)}), so it was restarted${raise}.`,
        "MaxMemoryBytes",
      );
    }
  }

  private timeout(id: number) {
    const p = this.pending.get(id);
    if (!p) return;
    const raise = this.opts.raise ? ` (${this.opts.raise.timeout} raises the limit)` : "";
    this.restart(`The compiler took longer than ${this.opts.timeoutMs / 1000} s on “${p.method}”, so it was stopped and restarted${raise}.`, "Deadline");
  }

  // restart ends the Worker and every call still waiting on it; limit
  // names the limit that caused it.
  restart(reason: string, limit: "Deadline" | "MaxMemoryBytes") {
    this.worker.terminate();
    this.held.clear(); // the new Worker's core knows none of their revs
    this.restarts++;
    const failed = [...this.pending.values()];
    this.pending.clear();
    for (const p of failed) {
      clearTimeout(p.timer);
      p.reject(new CallError(reason, { kind: "limit", message: reason, limit, offset: -1 }, true));
    }
    this.spawn();
    this.opts.onRestart(reason);
  }
}

// compileWasm downloads and compiles the core while reporting progress
// (total 0: unknown, the bytes counted so far stand for it). It
// hands compileStreaming the fetch's own Response, which lets the browser
// compile as bytes arrive and cache the machine code for the next visit;
// a clone of the body is only counted (the clone does not stop Chromium's
// code cache; a <link rel="preload"> of the same URL, which this fetch
// would be served from, does: see site/index.html). The total is the uncompressed size
// the build recorded: Content-Length counts compressed bytes. A failed
// load rejects with wasmLoadError: what was fetched, what came back and
// what to do (advice, or the npm package's guess by the symptoms).
export async function compileWasm(
  url: URL,
  total: number,
  onProgress: (loaded: number, total: number) => void,
  advice?: string,
): Promise<WebAssembly.Module> {
  let resp: Response;
  try {
    resp = await fetch(url);
  } catch (e: any) {
    throw wasmLoadError({ url: url.href, advice, cause: String(e?.message ?? e) });
  }
  const contentType = resp.headers.get("content-type");
  const failure = async (cause?: string) =>
    wasmLoadError({ url: url.href, advice, status: resp.status, contentType, bytes: await head(resp), cause });
  if (!resp.ok) throw await failure();
  const counted = resp.clone().body;
  if (counted) {
    (async () => {
      const r = counted.getReader();
      let loaded = 0;
      let last = 0;
      for (;;) {
        const { done, value } = await r.read();
        if (done) break;
        loaded += value.byteLength;
        const now = performance.now();
        if (now - last > 50) {
          last = now;
          onProgress(loaded, total);
        }
      }
      onProgress(total || loaded, total || loaded);
    })().catch(() => {});
  }
  if (!/^application\/wasm\b/i.test(contentType ?? "")) {
    // compileStreaming insists on application/wasm: read the bytes and
    // look at them.
    const bytes = new Uint8Array(await resp.arrayBuffer());
    if (!isWasm(bytes)) throw wasmLoadError({ url: url.href, advice, status: resp.status, contentType, bytes });
    try {
      return await WebAssembly.compile(bytes);
    } catch (e: any) {
      throw wasmLoadError({ url: url.href, advice, status: resp.status, contentType, bytes, cause: String(e?.message ?? e) });
    }
  }
  try {
    return await WebAssembly.compileStreaming(resp);
  } catch (e: any) {
    // Look at what came back (a second fetch, usually from the cache).
    let again: Response | undefined;
    try {
      again = await fetch(url);
    } catch {}
    throw wasmLoadError({ url: url.href, advice, status: resp.status, contentType, bytes: again && (await head(again)), cause: String(e?.message ?? e) });
  }
}

// head is the first bytes of a response's body (empty when unreadable).
async function head(r: Response): Promise<Uint8Array> {
  try {
    return new Uint8Array((await r.arrayBuffer()).slice(0, 16));
  } catch {
    return new Uint8Array(0);
  }
}

function wasmFetchInfo(): FetchInfo | undefined {
  const e = performance.getEntriesByType("resource").find((e) => e.name.endsWith(".wasm")) as PerformanceResourceTiming | undefined;
  return (
    e && {
      transferSize: e.transferSize,
      encodedBodySize: e.encodedBodySize,
      decodedBodySize: e.decodedBodySize,
      ms: e.responseEnd - e.startTime,
    }
  );
}

const mib = (n: number) => `${Math.round(n / (1 << 20))} MiB`;
