// The npm package's API, the same in browsers and Node: each function
// turns its arguments into one call of the core's bridge (wasm/main.go;
// the requests and results are those of api.gen.ts, generated from the Go
// types) on a Backend, which the entry points supply (index.ts: a Worker
// in the browser; node.ts: the calling thread).
import type {
  BreakingResult,
  BytesResult,
  CheckResult,
  CompileRequest,
  CompileResult,
  CoreError,
  DecodeResult,
  Diagnostic,
  Encoding as CoreEncoding,
  ErrorKind,
  Fit,
  Format,
  InferResult,
  Method,
  Methods,
  OldReaderResult,
  StreamResult,
  ViewResult,
} from "./api.gen";
import { fromHex } from "./hex";

import { filesOf, formatDiagnostic, optionsArg, optionString, payloadOf, stringsArg, typeArg, typeName } from "./args";

export { DESCRIPTOR_SET_EXTENSIONS } from "./descset";
export { filesOf, formatDiagnostic } from "./args";

export type {
  BreakingResult,
  Difference,
  Finding,
  OldReaderResult,
  Alternative,
  Fit,
  InferResult,
  StreamMessage,
  StreamResult,
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

/** Files maps a file name (as imports name it) to its .proto text. */
export type Files = CompileRequest["files"];

/** PayloadError is CoreError's former name. */
export type PayloadError = CoreError;

/** The options of initialize(): which core, where it is, where it runs, and its limits. */
export interface InitializeOptions {
  /**
   * Node only: which core runs the calls (default "auto", or the
   * PROTOPLAY_CORE environment variable). "native": protoplay's binary
   * for the platform, from the package @protoplay/<platform>-<arch> that
   * npm installs with this one (or the binary the PROTOPLAY_BINARY_PATH
   * environment variable names); seconds faster to start than the wasm.
   * "wasm": protoplay.wasm. "auto": the native core when it is installed
   * and no option below is for the wasm (wasmURL, wasmModule, worker:
   * false), else the wasm. Both answer every call alike, with the same
   * limits; browsers always run the wasm.
   */
  core?: "auto" | "native" | "wasm";
  /**
   * Where the core's .wasm is. Default: protoplay.wasm beside this module
   * (new URL("./protoplay.wasm", import.meta.url)). In Node a file: URL,
   * a path or an http(s) URL.
   */
  wasmURL?: string | URL;
  /**
   * The core already compiled (WebAssembly.compile of protoplay.wasm);
   * wins over wasmURL.
   */
  wasmModule?: WebAssembly.Module;
  /**
   * Run the core in a Worker (browser) or a worker thread (Node), the
   * default, or on the calling thread (false), where a call blocks the
   * event loop while it runs.
   */
  worker?: boolean;
  /**
   * The time limit of one call, in milliseconds (default 60000). A Worker
   * that runs over it is terminated and replaced, and the call rejects;
   * in Node (either core) and on the calling thread (worker: false) the
   * core stops itself at the limit, between its stages and after each
   * generated message (and Node's core process or thread is terminated,
   * and the next call starts a new one, if a call runs 5 s past it).
   */
  timeoutMs?: number;
  /**
   * The memory limit of the core, in bytes of WebAssembly memory (default
   * 1 GiB; for the native core, the memory its Go runtime holds). A
   * Worker that grows past it after a call is replaced; elsewhere the core
   * stops a compilation that passes it, and a core that grew past it
   * after a call is replaced before the next one (the native core hands
   * the memory back instead).
   */
  memoryLimit?: number;
}

/** The default of InitializeOptions.timeoutMs: 60 s. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** The default of InitializeOptions.memoryLimit: 1 GiB. */
export const DEFAULT_MEMORY_LIMIT = 1 << 30;

/** The limits to use for options. */
export function limitsOf(options: InitializeOptions): { timeoutMs: number; memoryLimit: number } {
  const pos = (v: number | undefined, d: number) => (typeof v === "number" && v > 0 ? v : d);
  return { timeoutMs: pos(options.timeoutMs, DEFAULT_TIMEOUT_MS), memoryLimit: pos(options.memoryLimit, DEFAULT_MEMORY_LIMIT) };
}

/**
 * Generator options as the CLI's --opt string ("paths=source_relative,
 * unknown_fields=drop") or as an object of the same keys. The Go API of
 * the messages is one of them: { default_api_level: "API_OPAQUE" } (or
 * "API_OPEN", "API_HYBRID") for the files that set no
 * features.(pb.go).api_level and whose edition has no default for it.
 */
export type GeneratorOptions = string | Record<string, string | number | boolean>;

/** The options of compile(). */
export interface CompileOptions {
  /** Generator options (see the repository's docs/options.md for the keys). */
  options?: GeneratorOptions;
  /** false: check the schema only, generate no Go (faster). */
  generate?: boolean;
}

/**
 * A schema is a map from file name (as imports name it) to .proto text,
 * or one file's text, which is then named "schema.proto". A file whose
 * name ends in .binpb, .pb, .protoset or .desc is a descriptor set (a
 * google.protobuf.FileDescriptorSet, as protoc --descriptor_set_out
 * --include_imports and buf build -o write it): its bytes as a
 * Uint8Array (or base64 text); its files join the schema, as if given as
 * .proto text.
 */
export type Schema = SchemaFiles | string;

/** SchemaFiles maps a file name to .proto text, or a descriptor set's name to its bytes. */
export type SchemaFiles = Record<string, string | Uint8Array>;

/** The options of rankTypes(). */
export interface RankOptions {
  /** How a string input is written (default: detected). */
  encoding?: Encoding;
  /** How many types to return (default 5, at most 20). */
  count?: number;
}

/** The options of breaking(). */
export interface BreakingOptions {
  /**
   * buf breaking's categories to check: "FILE" (the default, as buf's),
   * "PACKAGE", "WIRE_JSON", "WIRE".
   */
  categories?: string[];
  /** Rule IDs to check besides the categories' ("FIELD_SAME_TYPE" ...). */
  rules?: string[];
}

/** The options of inferSchema(). */
export interface InferOptions {
  /** How string inputs are written (default: detected for each). */
  encoding?: Encoding;
  /** The top-level message's name (default "Inferred"). */
  name?: string;
  /** The file's package (default none). */
  package?: string;
}

/** Encoding is how a string payload is written ("auto": detected). */
export type Encoding = Exclude<CoreEncoding, "binary">;
/** How a value is written: "json" or "text" (protobuf text format). */
export type ValueFormat = Format;

/** The options of encode(). */
export interface EncodeOptions {
  /** The form of value when it is a string (default JSON). */
  format?: ValueFormat;
}

/** What encode() gives: the bytes, and the same as hex and base64, with the size. */
export interface EncodeResult extends BytesResult {
  /** The encoded message. */
  bytes: Uint8Array;
}

/** The options of decode(). */
export interface DecodeOptions {
  /** How a string input is written (default: detected). */
  encoding?: Encoding;
  /** The form of the result's value (default JSON). */
  format?: ValueFormat;
}

/** A payload: the bytes, or hex or base64 text. */
export type Payload = Uint8Array | string;

/**
 * WireViewResult is ViewResult's former name: a wire view with the bytes
 * it describes, as hex and base64.
 */
export type WireViewResult = ViewResult;

/**
 * Kind is ProtoplayError.kind: the core's error kinds (ErrorKind), and
 * "argument" for an argument of the wrong type, found before any call.
 */
export type Kind = ErrorKind | "argument";

// brand marks a ProtoplayError of any copy of this module (the ES module
// and the CommonJS entry loaded in one process), for instanceof.
const brand = Symbol.for("protoplay.ProtoplayError");

/**
 * ProtoplayError is how every function rejects. kind says what is at
 * fault (detail.kind): "schema" when the schema does not compile, with
 * diagnostics holding the schema's diagnostics (file, 1-based line and
 * column; errors and warnings); "limit" when a limit stopped the call
 * (detail.limit names it, and the diagnostic it stopped, if any, is in
 * diagnostics); "payload", "encoding", "json", "text", "type", "value"
 * when the input is, detail saying where (offset and path in the payload,
 * line and column in JSON or text); "argument" for an argument of the
 * wrong type (a number for a schema...), "usage" for a request the core
 * refuses (an option value that does not exist) and "internal" for a
 * fault of protoplay itself (a core that failed to start, a recovered
 * panic). `e instanceof ProtoplayError` holds across copies of the
 * package in one process (import and require).
 */
export class ProtoplayError extends Error {
  readonly kind: Kind;
  readonly diagnostics: Diagnostic[];
  readonly detail?: CoreError;
  constructor(message: string, diagnostics: Diagnostic[] = [], detail?: CoreError, kind?: Kind) {
    super(message);
    this.name = "ProtoplayError";
    this.kind = kind ?? detail?.kind ?? (diagnostics.some((d) => d.severity === "error") ? "schema" : "internal");
    this.diagnostics = diagnostics;
    this.detail = detail;
  }
  static [Symbol.hasInstance](x: unknown): boolean {
    return typeof x === "object" && x !== null && (x as Record<symbol, unknown>)[brand] === true;
  }
}
Object.defineProperty(ProtoplayError.prototype, brand, { value: true });

/**
 * valueJSON writes encode's value, an object, as JSON. A BigInt (the
 * JavaScript type of a 64-bit integer) is written as a string of its
 * digits, and NaN, Infinity and -Infinity as those words in a string,
 * which is how ProtoJSON spells them (JSON.stringify would write null,
 * and the field would be left out); a value JSON cannot hold (a cycle, a
 * function, undefined, nesting deeper than the engine's stack) rejects
 * with kind "argument".
 */
function valueJSON(value: unknown): string {
  let out: string | undefined;
  try {
    out = JSON.stringify(value, (_key, v) => {
      if (typeof v === "bigint") return v.toString();
      if (typeof v === "number" && !Number.isFinite(v)) return String(v);
      return v;
    });
  } catch (err) {
    throw argumentError(`encode: the value cannot be written as JSON: ${(err as Error).message}`);
  }
  if (out === undefined) throw argumentError(`encode: the value is ${typeName(value)}, not a message (an object, or a string of JSON or text format)`);
  return out;
}

/**
 * argumentError is the ProtoplayError of kind "argument" for a bad
 * argument: message says which and what it must be.
 */
export function argumentError(message: string): ProtoplayError {
  return new ProtoplayError(`protoplay: ${message}`, [], undefined, "argument");
}

export interface Backend {
  call<M extends Method>(method: M, params: Methods[M][0]): Promise<Methods[M][1]>;
  version: string;
  /**
   * Set by backends on the calling thread: the limits sent with every
   * call, for the core to enforce (nothing else can interrupt it there).
   */
  limits?: { timeoutMs: number; memoryLimit: number };
}

/**
 * limitMessage explains an error diagnostic (or a core error) from a
 * limit, naming the option that raises it; undefined for others.
 */
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
  rankTypes(files: Schema, input: Payload, options?: RankOptions): Promise<Fit[]>;
  inferSchema(inputs: Payload[], options?: InferOptions): Promise<InferResult>;
  decodeStream(files: Schema | null, type: string | null, input: Payload, options?: DecodeOptions): Promise<StreamResult>;
  breaking(files: Schema, baseline: Schema, options?: BreakingOptions): Promise<BreakingResult>;
  oldReader(files: Schema, baseline: Schema, type: string, input: Payload, options?: { encoding?: Encoding }): Promise<OldReaderResult>;
  coreVersion(): Promise<string>;
  /**
   * onLoadProgress calls listener as the core downloads (bytes loaded,
   * total bytes; total 0 while unknown) and once with loaded === total
   * when it is in; it returns a function that removes the listener.
   */
  onLoadProgress(listener: (loaded: number, total: number) => void): () => void;
  /**
   * ready is true once the core has started (a call no longer waits for
   * the download).
   */
  readonly ready: boolean;
}

/** Progress reports the core's download to onLoadProgress listeners. */
export type Progress = (loaded: number, total: number) => void;

/** This package's version (semver). */
export const version: string = __PROTOPLAY_VERSION__;

export function createAPI(start: (options: InitializeOptions, progress: Progress) => Promise<Backend>): API {
  // backend is the core started or starting; options those of the last
  // initialize() call, kept for the start after a failed one.
  let backend: Promise<Backend> | undefined;
  let options: InitializeOptions = {};
  let ready = false;
  const listeners = new Set<Progress>();
  const report: Progress = (loaded, total) => {
    for (const l of listeners) l(loaded, total);
  };
  // The backend reports the download as it goes; "done" (loaded ===
  // total) is said here, once, when the core has started.
  let seen = 0;
  const progress: Progress = (loaded, total) => {
    seen = Math.max(seen, loaded);
    if (total > 0 && loaded >= total) return;
    report(loaded, total);
  };

  // begin starts the core with options; a failed start leaves nothing
  // behind (the backend cleans up), and the next call or initialize()
  // tries again with the options kept.
  function begin(): Promise<Backend> {
    seen = 0;
    const b = (backend = start(options, progress).catch((e: any) => {
      throw e instanceof ProtoplayError ? e : new ProtoplayError(String(e?.message ?? e));
    }));
    b.then(
      () => {
        ready = true;
        report(seen, seen);
      },
      () => {
        if (backend === b) backend = undefined;
      },
    );
    return b;
  }

  async function initialize(opts?: InitializeOptions): Promise<void> {
    const given = opts !== undefined && Object.keys(opts).length > 0;
    if (opts !== undefined && (typeof opts !== "object" || opts === null)) throw argumentError("initialize: options must be an object");
    for (const k of ["timeoutMs", "memoryLimit"] as const) {
      const v = opts?.[k];
      if (v !== undefined && !(typeof v === "number" && Number.isFinite(v) && v > 0))
        throw argumentError(`initialize: options.${k} must be a positive number (${k === "timeoutMs" ? "milliseconds" : "bytes"}); got ${typeof v === "number" ? String(v) : typeName(v)}`);
    }
    if (backend) {
      if (!given) {
        await backend;
        return;
      }
      // A start under way: these options are for the next one, if it fails.
      try {
        await backend;
      } catch {
        if (!backend) {
          options = { ...opts };
          await begin();
          return;
        }
      }
      if (ready) throw argumentError("initialize: the core has already started (options apply before the first call only)");
    }
    if (given) options = { ...opts };
    await begin();
  }

  // started is the backend, started with the options kept if need be.
  // A failed start rejects each call waiting on it (once each).
  function started(): Promise<Backend> {
    return backend ?? begin();
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
      options = optionsArg("compile", options);
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
      options = optionsArg("encode", options);
      /**
       * An object is JSON; text format comes only as a string (stringified,
       * an object would be read as text and fail at its first "{").
       */
      if (typeof value !== "string" && options.format === "text") {
        const message = 'protoplay: encode: format "text" needs the value as a string of text format (an object is encoded as JSON: leave format out)';
        throw new ProtoplayError(message, [], { kind: "usage", message, offset: -1 });
      }
      const input = typeof value === "string" ? value : valueJSON(value);
      const r = await call("encode", { files: filesOf(files), type: typeArg(type), input, in: options.format ?? "json" });
      return { ...r, bytes: fromHex(r.hex) };
    },
    async decode(files, type, input, options = {}) {
      options = optionsArg("decode", options);
      const [text, encoding] = payloadOf(input, options.encoding);
      const r = await call("decode", { files: filesOf(files), type: typeArg(type), input: text, encoding, out: options.format ?? "json" });
      // Bytes travel to the core as hex; they were given as binary.
      return input instanceof Uint8Array ? { ...r, encoding: "binary" } : r;
    },
    async decodeRaw(input, options = {}) {
      options = optionsArg("decodeRaw", options);
      const [text, encoding] = payloadOf(input, options.encoding);
      return call("decodeRaw", { input: text, encoding });
    },
    async wireView(files, type, input, options = {}) {
      options = optionsArg("wireView", options);
      const [text, encoding] = payloadOf(input, options.encoding);
      return call("wireView", { files: filesOf(files), type: typeArg(type), input: text, encoding });
    },
    async sample(files, type) {
      return (await call("sample", { files: filesOf(files), type: typeArg(type) })).value;
    },
    async check(files) {
      return (await call("check", { files: filesOf(files) })).results;
    },
    async rankTypes(files, input, options = {}) {
      options = optionsArg("rankTypes", options);
      const [text, encoding] = payloadOf(input, options.encoding);
      const count = options.count ?? 0;
      if (!Number.isInteger(count) || count < 0) throw argumentError(`rankTypes: options.count must be a whole number of types, 0 or more (0: all); got ${typeof count === "number" ? String(count) : typeName(count)}`);
      return (await call("rankTypes", { files: filesOf(files), input: text, encoding, count })).fits;
    },
    async inferSchema(inputs, options = {}) {
      options = optionsArg("inferSchema", options);
      if (!Array.isArray(inputs)) throw argumentError(`inferSchema: the payloads are an array; got ${typeName(inputs)}`);
      let encoding: Encoding = options.encoding ?? "auto";
      const texts = inputs.map((i) => {
        const [text, enc] = payloadOf(i, options.encoding);
        if (i instanceof Uint8Array) encoding = enc;
        return text;
      });
      if (inputs.some((i) => i instanceof Uint8Array) && inputs.some((i) => typeof i === "string") && options.encoding !== "hex")
        throw argumentError("inferSchema: give the payloads all as Uint8Arrays or all as text");
      return call("infer", { inputs: texts, encoding, name: options.name ?? "", package: options.package ?? "" });
    },
    async decodeStream(files, type, input, options = {}) {
      options = optionsArg("decodeStream", options);
      const [text, encoding] = payloadOf(input, options.encoding);
      const typed = type !== null && type !== undefined;
      return call("stream", {
        files: typed ? filesOf(files ?? {}) : {},
        type: typed ? typeArg(type) : "",
        input: text,
        encoding,
        out: options.format ?? "json",
      });
    },
    async breaking(files, baseline, options = {}) {
      options = optionsArg("breaking", options);
      return call("breaking", {
        files: filesOf(files),
        baseline: filesOf(baseline),
        categories: stringsArg("breaking", "categories", options.categories),
        rules: stringsArg("breaking", "rules", options.rules),
      });
    },
    async oldReader(files, baseline, type, input, options = {}) {
      options = optionsArg("oldReader", options);
      const [text, encoding] = payloadOf(input, options.encoding);
      return call("oldReader", { files: filesOf(files), baseline: filesOf(baseline), type: typeArg(type), input: text, encoding });
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

/**
 * sharedAPI is an API whose state (the core, its options, the progress
 * listeners) is the process's under key, made at the first use of any copy
 * of this module (an ES module and a CommonJS entry loaded together);
 * nothing is set on globalThis before.
 */
export function sharedAPI(key: symbol, start: (options: InitializeOptions, progress: Progress) => Promise<Backend>): API {
  const g = globalThis as unknown as Record<symbol, API | undefined>;
  const api = (): API => (g[key] ??= createAPI(start));
  return {
    initialize: (o) => api().initialize(o),
    compile: (f, o) => api().compile(f, o),
    encode: (f, t, v, o) => api().encode(f, t, v, o),
    decode: (f, t, i, o) => api().decode(f, t, i, o),
    decodeRaw: (i, o) => api().decodeRaw(i, o),
    wireView: (f, t, i, o) => api().wireView(f, t, i, o),
    sample: (f, t) => api().sample(f, t),
    check: (f) => api().check(f),
    rankTypes: (f, i, o) => api().rankTypes(f, i, o),
    inferSchema: (i, o) => api().inferSchema(i, o),
    decodeStream: (f, t, i, o) => api().decodeStream(f, t, i, o),
    breaking: (f, b, o) => api().breaking(f, b, o),
    oldReader: (f, b, t, i, o) => api().oldReader(f, b, t, i, o),
    coreVersion: () => api().coreVersion(),
    onLoadProgress: (l) => api().onLoadProgress(l),
    get ready() {
      return g[key]?.ready ?? false;
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
