// Core is the page's handle on the compiler Worker. Each call is a message
// with an id, answered by a result or an error. A call that runs past its
// time limit, or a Worker whose memory has grown past the limit, gets the
// Worker terminated and replaced by a fresh one (which reuses the compiled
// wasm module), and onRestart says why, so the page can tell the user.
import type { FromWorker, Method, Methods, PayloadError } from "./api";

export interface CoreOptions {
  timeoutMs: number; // per call
  memoryLimit: number; // bytes of wasm memory
  onProgress(loaded: number, total: number): void;
  onReady(ms: number, version: string): void;
  onRestart(reason: string): void;
  onFatal(message: string): void;
}

export class CallError extends Error {
  constructor(
    message: string,
    readonly detail?: PayloadError,
    readonly restarted = false,
  ) {
    super(message);
  }
}

interface Pending {
  method: Method;
  resolve(v: unknown): void;
  reject(e: Error): void;
  timer?: ReturnType<typeof setTimeout>;
}

export class Core {
  private worker!: Worker;
  private module?: WebAssembly.Module;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private readyPromise!: Promise<void>;
  private markReady!: () => void;
  restarts = 0;

  constructor(private opts: CoreOptions) {
    this.spawn();
  }

  get ready(): Promise<void> {
    return this.readyPromise;
  }

  call<M extends Method>(method: M, params: Methods[M][0]): Promise<Methods[M][1]> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const p: Pending = { method, resolve: resolve as (v: unknown) => void, reject };
      // The clock starts when the Worker is ready, so a slow download is
      // not mistaken for a runaway call.
      this.pending.set(id, p);
      this.readyPromise.then(() => {
        if (!this.pending.has(id)) return;
        p.timer = setTimeout(() => this.timeout(id), this.opts.timeoutMs);
      });
      this.worker.postMessage({ type: "call", id, method, params });
    });
  }

  private spawn() {
    this.readyPromise = new Promise((r) => (this.markReady = r));
    this.worker = new Worker(new URL(__WORKER_URL__, import.meta.url), { type: "module", name: "protoplay core" });
    this.worker.onmessage = (e: MessageEvent<FromWorker>) => this.onMessage(e.data);
    this.worker.onerror = (e) => this.opts.onFatal(e.message || "the compiler Worker failed to start");
    this.worker.postMessage({ type: "init", module: this.module });
  }

  private onMessage(m: FromWorker) {
    switch (m.type) {
      case "progress":
        this.opts.onProgress(m.loaded, m.total);
        return;
      case "ready":
        this.module = m.module;
        this.markReady();
        this.opts.onReady(m.ms, m.version);
        return;
      case "fatal":
        this.opts.onFatal(m.message);
        return;
    }
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    clearTimeout(p.timer);
    if (m.type === "result") p.resolve(m.result);
    else p.reject(new CallError(m.message, m.detail));
    if (m.memory > this.opts.memoryLimit) {
      this.restart(
        `The compiler's memory grew to ${mib(m.memory)} (limit ${mib(this.opts.memoryLimit)}), so it was restarted.`,
      );
    }
  }

  private timeout(id: number) {
    const p = this.pending.get(id);
    if (!p) return;
    this.restart(`The compiler took longer than ${this.opts.timeoutMs / 1000} s on “${p.method}”, so it was stopped and restarted.`);
  }

  // restart ends the Worker and every call still waiting on it.
  restart(reason: string) {
    this.worker.terminate();
    this.restarts++;
    const failed = [...this.pending.values()];
    this.pending.clear();
    for (const p of failed) {
      clearTimeout(p.timer);
      p.reject(new CallError(reason, undefined, true));
    }
    this.spawn();
    this.opts.onRestart(reason);
  }
}

const mib = (n: number) => `${Math.round(n / (1 << 20))} MiB`;
