// Constants site/build defines for the npm package.
declare const __PROTOPLAY_VERSION__: string;
// The Worker's code (site/src/lib/worker.ts with wasm_exec.js), as a script.
declare const __PROTOPLAY_WORKER__: string;
// The widget reads the palette as text (the npm build loads .css as text).
declare module "*.css" {
  const text: string;
  export default text;
}

// Go's wasm_exec.js, inlined by the build from the toolchain that built
// the wasm. It defines globalThis.Go.
declare module "go:wasm_exec" {}

declare class Go {
  importObject: WebAssembly.Imports;
  run(instance: WebAssembly.Instance): Promise<void>;
  exit(code: number): void;
}

// What node.ts uses of Node (the package carries no @types/node).
declare module "node:fs/promises" {
  export function readFile(path: string | URL): Promise<Uint8Array>;
}
declare module "node:crypto" {
  export const webcrypto: unknown;
}
// The size of protoplay.wasm in bytes (the download's total for progress).
declare const __PROTOPLAY_WASM_SIZE__: number;
// The Node worker thread's code (site/src/lib/node-worker.ts), a script
// run with new Worker(code, { eval: true }).
declare const __PROTOPLAY_NODE_WORKER__: string;

declare module "node:worker_threads" {
  export class Worker {
    constructor(code: string, options?: { eval?: boolean; workerData?: unknown; name?: string; transferList?: unknown[] });
    postMessage(m: unknown): void;
    on(event: "message", f: (m: any) => void): this;
    on(event: "error", f: (e: Error) => void): this;
    on(event: "exit", f: (code: number) => void): this;
    ref(): void;
    unref(): void;
    terminate(): Promise<number>;
  }
  export const parentPort: { postMessage(m: unknown): void; on(event: "message", f: (m: any) => void): void } | null;
  export const workerData: any;
}
declare module "node:child_process" {
  export function spawn(
    command: string,
    args: string[],
    options: { stdio: unknown[]; serialization: "advanced"; windowsHide: boolean },
  ): {
    send(m: unknown): boolean;
    on(event: string, f: (...a: any[]) => void): void;
    kill(signal?: "SIGKILL" | "SIGTERM"): boolean;
    channel?: { ref(): void; unref(): void };
    stderr: { on(event: "data", f: (d: unknown) => void): void; ref?(): void; unref?(): void } | null;
    ref(): void;
    unref(): void;
  };
  // The native core's process (nativecore.ts): frames on its pipes.
  export function spawn(
    command: string,
    args: string[],
    options: { stdio: ["pipe", "pipe", "pipe"]; windowsHide: boolean },
  ): {
    on(event: string, f: (...a: any[]) => void): void;
    kill(signal?: "SIGKILL" | "SIGTERM"): boolean;
    stdin: { write(b: Uint8Array): boolean; on(event: "error", f: (e: Error) => void): void; ref?(): void; unref?(): void } | null;
    stdout: { on(event: "data", f: (d: Uint8Array) => void): void; ref?(): void; unref?(): void } | null;
    stderr: { on(event: "data", f: (d: unknown) => void): void; ref?(): void; unref?(): void } | null;
    ref(): void;
    unref(): void;
  };
}
declare module "node:module" {
  export function createRequire(from: string): { resolve(id: string): string };
}
