// The npm package's API, the same in browsers and Node: each function
// turns its arguments into one call of the core's bridge (wasm/api.go,
// the shapes in ../api.ts) on a Backend, which the entry points supply
// (index.ts: a Worker in the browser; node.ts: the calling thread).
import type {
  BytesResult,
  CheckResult,
  CompileResult,
  DecodeResult,
  Diagnostic,
  Files,
  Method,
  Methods,
  PayloadError,
  WireView,
} from "../api";

export type {
  BytesResult,
  CheckResult,
  CompileResult,
  DecodeResult,
  Diagnostic,
  Files,
  GeneratedFile,
  MessageInfo,
  PayloadError,
  WireField,
  WireView,
} from "../api";

export interface InitializeOptions {
  // Where the core's .wasm is. Default: protoplay.wasm beside this module
  // (new URL("./protoplay.wasm", import.meta.url)). In Node a file: URL,
  // a path or an http(s) URL.
  wasmURL?: string | URL;
  // The core already compiled (WebAssembly.compile of protoplay.wasm);
  // wins over wasmURL.
  wasmModule?: WebAssembly.Module;
  // Browser: run the core in a Worker (default true) or on the calling
  // thread (false). Node: the core runs on the calling thread; true is
  // refused.
  worker?: boolean;
  // The time limit of one call, in milliseconds (default 60000). A Worker
  // that runs over it is terminated and replaced, and the call rejects;
  // on the calling thread (Node, worker: false) the core stops itself at
  // the limit, between its stages and after each generated message.
  timeoutMs?: number;
  // The memory limit of the core, in bytes of WebAssembly memory (default
  // 1 GiB). A Worker that grows past it after a call is replaced; on the
  // calling thread the core stops a compilation that passes it, and a core
  // that grew past it after a call is replaced before the next one.
  memoryLimit?: number;
}

// The defaults of InitializeOptions.timeoutMs and memoryLimit.
export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MEMORY_LIMIT = 1 << 30;

// The limits to use for options.
export function limitsOf(options: InitializeOptions): { timeoutMs: number; memoryLimit: number } {
  const pos = (v: number | undefined, d: number) => (typeof v === "number" && v > 0 ? v : d);
  return { timeoutMs: pos(options.timeoutMs, DEFAULT_TIMEOUT_MS), memoryLimit: pos(options.memoryLimit, DEFAULT_MEMORY_LIMIT) };
}

// Generator options as the CLI's --opt string ("paths=source_relative,
// unknown_fields=drop") or as an object of the same keys.
export type GeneratorOptions = string | Record<string, string | number | boolean>;

export interface CompileOptions {
  // Generator options (see the repository's README for the keys).
  options?: GeneratorOptions;
  // false: check the schema only, generate no Go (faster).
  generate?: boolean;
}

// A schema is a map from file name (as imports name it) to .proto text,
// or one file's text, which is then named "schema.proto".
export type Schema = Files | string;

export type Encoding = "auto" | "hex" | "base64";
export type ValueFormat = "json" | "text";

export interface EncodeOptions {
  // The form of value when it is a string (default JSON).
  format?: ValueFormat;
}

export interface EncodeResult extends BytesResult {
  bytes: Uint8Array;
}

export interface DecodeOptions {
  // How a string input is written (default: detected).
  encoding?: Encoding;
  // The form of the result's value (default JSON).
  format?: ValueFormat;
}

export type Payload = Uint8Array | string;

export type WireViewResult = WireView & { hex: string; base64: string };

// ProtoplayError is how every function rejects. diagnostics holds the
// schema's errors (file, 1-based line and column) when the schema is at
// fault; detail holds the position in the payload when the input is.
export class ProtoplayError extends Error {
  readonly diagnostics: Diagnostic[];
  readonly detail?: PayloadError;
  constructor(message: string, diagnostics: Diagnostic[] = [], detail?: PayloadError) {
    super(message);
    this.name = "ProtoplayError";
    this.diagnostics = diagnostics;
    this.detail = detail;
  }
}

export interface Backend {
  call<M extends Method>(method: M, params: Methods[M][0]): Promise<Methods[M][1]>;
  version: string;
  // Set by backends on the calling thread: the limits sent with every
  // call, for the core to enforce (nothing else can interrupt it there).
  limits?: { timeoutMs: number; memoryLimit: number };
}

// limitMessage explains an error diagnostic from a limit, naming the
// option that raises it; undefined for other diagnostics.
export function limitMessage(d: Diagnostic, limits?: { timeoutMs: number; memoryLimit: number }): string | undefined {
  switch (d.limit) {
    case "Deadline":
      return `protoplay: stopped: over the time limit of ${limits?.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms (timeoutMs; initialize({ timeoutMs }) raises it)`;
    case "MaxMemoryBytes":
      return `protoplay: stopped: memory over the limit of ${Math.round((limits?.memoryLimit ?? DEFAULT_MEMORY_LIMIT) / (1 << 20))} MiB (memoryLimit; initialize({ memoryLimit }) raises it)`;
    case undefined:
    case "":
      return undefined;
  }
  return `protoplay: ${formatDiagnostic(d)}`; // an input limit of the core, named in the message
}

export interface API {
  initialize(options?: InitializeOptions): Promise<void>;
  compile(files: Schema, options?: CompileOptions): Promise<CompileResult>;
  encode(files: Schema, type: string, value: unknown, options?: EncodeOptions): Promise<EncodeResult>;
  decode(files: Schema, type: string, input: Payload, options?: DecodeOptions): Promise<DecodeResult>;
  decodeRaw(input: Payload, options?: { encoding?: Encoding }): Promise<WireViewResult>;
  wireView(files: Schema, type: string, input: Payload, options?: { encoding?: Encoding }): Promise<WireViewResult>;
  sample(files: Schema, type: string): Promise<string>;
  check(files: Schema): Promise<CheckResult[]>;
  coreVersion(): Promise<string>;
}

export const version: string = __PROTOPLAY_VERSION__;

export function createAPI(start: (options: InitializeOptions) => Promise<Backend>): API {
  let backend: Promise<Backend> | undefined;

  function initialize(options?: InitializeOptions): Promise<void> {
    if (backend) {
      if (options && Object.keys(options).length > 0)
        return Promise.reject(new Error("protoplay: initialize() was already called (options apply to the first call only)"));
      return backend.then(() => undefined);
    }
    backend = start(options ?? {});
    // A failed start can be retried.
    backend.catch(() => (backend = undefined));
    return backend.then(() => undefined);
  }

  async function call<M extends Method>(method: M, params: Methods[M][0]): Promise<Methods[M][1]> {
    if (!backend) initialize();
    const b = await backend!;
    if (b.limits) params = { ...(params as object), limits: { timeoutMs: b.limits.timeoutMs, memoryBytes: b.limits.memoryLimit } } as unknown as Methods[M][0];
    try {
      return await b.call(method, params);
    } catch (e: any) {
      const message = String(e?.message ?? e);
      let diags: Diagnostic[] = [];
      // The schema's compilation hit a limit: say which, and do not
      // compile it again to list the diagnostics.
      const limit = /\(time limit\)/.test(message) ? "Deadline" : /\(MaxMemoryBytes\)/.test(message) ? "MaxMemoryBytes" : "";
      if (limit && b.limits) throw new ProtoplayError(limitMessage({ limit } as Diagnostic, b.limits)!, [], e?.detail);
      // A payload call on a schema with errors: attach the schema's
      // diagnostics, as compile does.
      if (message.startsWith("the schema does not compile") && params && "files" in (params as object)) {
        try {
          diags = (await b.call("compile", { files: (params as { files: Files }).files })).diagnostics.filter((d) => d.severity === 1);
        } catch {
          // the message says it already
        }
      }
      throw new ProtoplayError(message, diags, e?.detail);
    }
  }

  return {
    initialize,
    async compile(files, options = {}) {
      const r = await call(options.generate === false ? "compile" : "generate", {
        files: filesOf(files),
        options: optionString(options.options),
      });
      const errors = r.diagnostics.filter((d) => d.severity === 1);
      const limited = errors.find((d) => d.limit);
      if (limited) throw new ProtoplayError(limitMessage(limited, (await backend!).limits)!, r.diagnostics);
      if (errors.length > 0) {
        const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : "";
        throw new ProtoplayError(formatDiagnostic(errors[0]) + more, r.diagnostics);
      }
      return r;
    },
    async encode(files, type, value, options = {}) {
      const input = typeof value === "string" ? value : JSON.stringify(value);
      const r = await call("encode", { files: filesOf(files), type, input, in: options.format ?? "json" });
      return { ...r, bytes: fromHex(r.hex) };
    },
    async decode(files, type, input, options = {}) {
      const [text, encoding] = payloadOf(input, options.encoding);
      return call("decode", { files: filesOf(files), type, input: text, encoding, out: options.format ?? "json" } as Methods["decode"][0]);
    },
    async decodeRaw(input, options = {}) {
      const [text, encoding] = payloadOf(input, options.encoding);
      return (await call("decodeRaw", { input: text, encoding })) as WireViewResult;
    },
    async wireView(files, type, input, options = {}) {
      const [text, encoding] = payloadOf(input, options.encoding);
      return (await call("wireView", { files: filesOf(files), type, input: text, encoding })) as WireViewResult;
    },
    async sample(files, type) {
      return (await call("sample", { files: filesOf(files), type })).value;
    },
    async check(files) {
      return (await call("check", { files: filesOf(files) })).results;
    },
    async coreVersion() {
      if (!backend) initialize();
      return (await backend!).version;
    },
  };
}

export function filesOf(s: Schema): Files {
  if (typeof s === "string") return { "schema.proto": s };
  if (!s || typeof s !== "object") throw new TypeError("protoplay: files must be an object of name -> .proto text, or a string");
  return s;
}

function optionString(o: GeneratorOptions | undefined): string {
  if (!o) return "";
  if (typeof o === "string") return o;
  return Object.entries(o)
    .map(([k, v]) => `${k}=${v}`)
    .join(",");
}

export function formatDiagnostic(d: Diagnostic): string {
  if (!d.file) return d.message;
  return d.line > 0 ? `${d.file}:${d.line}:${d.column}: ${d.message}` : `${d.file}: ${d.message}`;
}

function payloadOf(input: Payload, encoding: Encoding | undefined): [string, Encoding] {
  if (typeof input === "string") return [input, encoding ?? "auto"];
  if (!(input instanceof Uint8Array)) throw new TypeError("protoplay: a payload is a Uint8Array or hex/base64 text");
  return [toHex(input), "hex"];
}

function toHex(b: Uint8Array): string {
  let s = "";
  for (const x of b) s += x.toString(16).padStart(2, "0");
  return s;
}

function fromHex(h: string): Uint8Array {
  const clean = h.replace(/[^0-9a-fA-F]/g, "");
  const out = new Uint8Array(clean.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}
