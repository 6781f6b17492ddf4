// The npm package's API, the same in browsers and Node: each function
// turns its arguments into one call of the core's bridge (wasm/main.go;
// the requests and results are those of api.gen.ts, generated from the Go
// types) on a Backend, which the entry points supply (index.ts: a Worker
// in the browser; node.ts: the calling thread).
import type {
  BytesResult,
  CheckResult,
  CompileRequest,
  CompileResult,
  CoreError,
  DecodeResult,
  Diagnostic,
  Encoding as CoreEncoding,
  ErrorKind,
  Format,
  Method,
  Methods,
  ViewResult,
} from "./api.gen";
import { fromHex, toHex } from "./hex";

export type {
  Alternative,
  BytesResult,
  CheckResult,
  CompileResult,
  CoreError,
  DecodeResult,
  Diagnostic,
  ErrorKind,
  GeneratedFile,
  MessageInfo,
  Severity,
  ViewResult,
  WireField,
  WireView,
} from "./api.gen";

// Files maps a file name (as imports name it) to its .proto text.
export type Files = CompileRequest["files"];

// PayloadError is CoreError's former name.
export type PayloadError = CoreError;

export interface InitializeOptions {
  // Where the core's .wasm is. Default: protoplay.wasm beside this module
  // (new URL("./protoplay.wasm", import.meta.url)). In Node a file: URL,
  // a path or an http(s) URL.
  wasmURL?: string | URL;
  // The core already compiled (WebAssembly.compile of protoplay.wasm);
  // wins over wasmURL.
  wasmModule?: WebAssembly.Module;
  // Run the core in a Worker (browser) or a worker thread (Node), the
  // default, or on the calling thread (false), where a call blocks the
  // event loop while it runs.
  worker?: boolean;
  // The time limit of one call, in milliseconds (default 60000). A Worker
  // that runs over it is terminated and replaced, and the call rejects;
  // in Node's worker thread and on the calling thread (worker: false)
  // the core stops itself at the limit, between its stages and after each
  // generated message (and Node's thread is terminated if a call runs 5 s
  // past it).
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

// Encoding is how a string payload is written ("auto": detected).
export type Encoding = Exclude<CoreEncoding, "binary">;
export type ValueFormat = Format;

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

// WireViewResult is ViewResult's former name: a wire view with the bytes
// it describes, as hex and base64.
export type WireViewResult = ViewResult;

// ProtoplayError is how every function rejects. kind says what is at
// fault (detail.kind): "schema" when the schema does not compile, with
// diagnostics holding the schema's diagnostics (file, 1-based line and
// column; errors and warnings); "limit" when a limit stopped the call
// (detail.limit names it, and the diagnostic it stopped, if any, is in
// diagnostics); "payload", "encoding", "json", "text", "type", "value"
// when the input is, detail saying where (offset and path in the payload,
// line and column in JSON or text); "usage" for a bad argument and
// "internal" for a fault of protoplay itself (a core that failed to
// start, a recovered panic).
export class ProtoplayError extends Error {
  readonly kind: ErrorKind;
  readonly diagnostics: Diagnostic[];
  readonly detail?: CoreError;
  constructor(message: string, diagnostics: Diagnostic[] = [], detail?: CoreError) {
    super(message);
    this.name = "ProtoplayError";
    this.kind = detail?.kind ?? (diagnostics.some((d) => d.severity === "error") ? "schema" : "internal");
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

// limitMessage explains an error diagnostic (or a core error) from a
// limit, naming the option that raises it; undefined for others.
export function limitMessage(d: Diagnostic | CoreError, limits?: { timeoutMs: number; memoryLimit: number }): string | undefined {
  switch (d.limit) {
    case "Deadline":
      return `protoplay: stopped: over the time limit of ${limits?.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms (timeoutMs; initialize({ timeoutMs }) raises it)`;
    case "MaxMemoryBytes":
      return `protoplay: stopped: memory over the limit of ${Math.round((limits?.memoryLimit ?? DEFAULT_MEMORY_LIMIT) / (1 << 20))} MiB (memoryLimit; initialize({ memoryLimit }) raises it)`;
    case undefined:
    case "":
      return undefined;
  }
  // an input limit of the core, named in the message
  return `protoplay: ${"file" in d ? formatDiagnostic(d) : d.message}`;
}

export interface API {
  initialize(options?: InitializeOptions): Promise<void>;
  compile(files: Schema, options?: CompileOptions): Promise<CompileResult>;
  encode(files: Schema, type: string, value: unknown, options?: EncodeOptions): Promise<EncodeResult>;
  decode(files: Schema, type: string, input: Payload, options?: DecodeOptions): Promise<DecodeResult>;
  decodeRaw(input: Payload, options?: { encoding?: Encoding }): Promise<ViewResult>;
  wireView(files: Schema, type: string, input: Payload, options?: { encoding?: Encoding }): Promise<ViewResult>;
  sample(files: Schema, type: string): Promise<string>;
  check(files: Schema): Promise<CheckResult[]>;
  coreVersion(): Promise<string>;
  // onLoadProgress calls listener as the core downloads (bytes loaded,
  // total bytes; total 0 while unknown) and once with loaded === total
  // when it is in; it returns a function that removes the listener.
  onLoadProgress(listener: (loaded: number, total: number) => void): () => void;
  // ready is true once the core has started (a call no longer waits for
  // the download).
  readonly ready: boolean;
}

// Progress reports the core's download to onLoadProgress listeners.
export type Progress = (loaded: number, total: number) => void;

export const version: string = __PROTOPLAY_VERSION__;

export function createAPI(start: (options: InitializeOptions, progress: Progress) => Promise<Backend>): API {
  let backend: Promise<Backend> | undefined;
  let ready = false;
  const listeners = new Set<Progress>();
  const progress: Progress = (loaded, total) => {
    for (const l of listeners) l(loaded, total);
  };

  function initialize(options?: InitializeOptions): Promise<void> {
    if (backend) {
      if (options && Object.keys(options).length > 0)
        return Promise.reject(new Error("protoplay: initialize() was already called (options apply to the first call only)"));
      return backend.then(() => undefined);
    }
    const b = (backend = start(options ?? {}, progress));
    // A failed start can be retried.
    b.then(
      () => (ready = true),
      () => {
        if (backend === b) backend = undefined;
      },
    );
    return b.then(() => undefined);
  }

  // started is the backend, started with the defaults if need be. A
  // failed start rejects the call that asked (and only it: the promise
  // initialize() returns here is nobody's, so its rejection is handled).
  function started(): Promise<Backend> {
    if (!backend) initialize().catch(() => {});
    return backend!;
  }

  async function call<M extends Method>(method: M, params: Methods[M][0]): Promise<Methods[M][1]> {
    const b = await started();
    if (b.limits) params = { ...params, limits: { timeoutMs: b.limits.timeoutMs, memoryBytes: b.limits.memoryLimit } };
    try {
      return await b.call(method, params);
    } catch (e: any) {
      throw rejection(String(e?.message ?? e), e?.detail, b.limits);
    }
  }

  return {
    initialize,
    async compile(files, options = {}) {
      const r = await call(options.generate === false ? "compile" : "generate", {
        files: filesOf(files),
        options: optionString(options.options),
      });
      const errors = r.diagnostics.filter((d) => d.severity === "error");
      if (errors.length === 0) return r;
      // As the core rejects a payload call on this schema.
      const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : "";
      const e: CoreError = { kind: "schema", message: formatDiagnostic(errors[0]) + more, diagnostics: r.diagnostics, offset: -1 };
      throw rejection(e.message, e, (await started()).limits);
    },
    async encode(files, type, value, options = {}) {
      // An object is JSON; text format comes only as a string (stringified,
      // an object would be read as text and fail at its first "{").
      if (typeof value !== "string" && options.format === "text") {
        const message = 'protoplay: encode: format "text" needs the value as a string of text format (an object is encoded as JSON: leave format out)';
        throw new ProtoplayError(message, [], { kind: "usage", message, offset: -1 });
      }
      const input = typeof value === "string" ? value : JSON.stringify(value);
      const r = await call("encode", { files: filesOf(files), type, input, in: options.format ?? "json" });
      return { ...r, bytes: fromHex(r.hex) };
    },
    async decode(files, type, input, options = {}) {
      const [text, encoding] = payloadOf(input, options.encoding);
      return call("decode", { files: filesOf(files), type, input: text, encoding, out: options.format ?? "json" });
    },
    async decodeRaw(input, options = {}) {
      const [text, encoding] = payloadOf(input, options.encoding);
      return call("decodeRaw", { input: text, encoding });
    },
    async wireView(files, type, input, options = {}) {
      const [text, encoding] = payloadOf(input, options.encoding);
      return call("wireView", { files: filesOf(files), type, input: text, encoding });
    },
    async sample(files, type) {
      return (await call("sample", { files: filesOf(files), type })).value;
    },
    async check(files) {
      return (await call("check", { files: filesOf(files) })).results;
    },
    async coreVersion() {
      return (await started()).version;
    },
    onLoadProgress(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get ready() {
      return ready;
    },
  };
}

// rejection is the ProtoplayError of a failed call: message is the core's
// (or the Worker client's) text, detail the core's error. A schema whose
// compilation a limit stopped (an error diagnostic naming it) makes an
// error of kind "limit" whose message names the limit, and the option
// that raises it when the limits are the caller's (on the calling thread).
function rejection(message: string, detail: CoreError | undefined, limits?: { timeoutMs: number; memoryLimit: number }): ProtoplayError {
  const diagnostics = detail?.diagnostics ?? [];
  const stopped = detail?.kind === "schema" ? diagnostics.find((d) => d.severity === "error" && d.limit) : undefined;
  if (detail && stopped) {
    detail = { ...detail, kind: "limit", limit: stopped.limit };
    message = limitMessage(stopped, limits) ?? message;
  } else if (detail?.kind === "limit" && limits && (detail.limit === "Deadline" || detail.limit === "MaxMemoryBytes") && !message.startsWith("protoplay: stopped: ")) {
    message = limitMessage(detail, limits) ?? message;
  }
  return new ProtoplayError(message, diagnostics, detail);
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
