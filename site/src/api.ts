// The shapes that cross between the page, the Worker and the Go bridge
// (wasm/api.go). They mirror the json tags of compiler and
// compiler/payload types.

export type Files = Record<string, string>;

export interface Diagnostic {
  file: string;
  line: number; // 1-based; 0 when unknown
  column: number; // 1-based, in bytes
  endLine?: number;
  endColumn?: number; // exclusive
  severity: number; // 1 error, 2 warning
  message: string;
  // On an error from a limit, its name: "Deadline", "MaxMemoryBytes",
  // "MaxOutputBytes", "MaxSourceBytes", "MaxNesting" or "MaxFiles".
  limit?: string;
}

// CallLimits may ride along with any call's params (see wasm/api.go
// callLimits): the core stops with a diagnostic naming the limit.
export interface CallLimits {
  timeoutMs?: number;
  memoryBytes?: number;
}

export interface GeneratedFile {
  name: string;
  content: string;
}

export interface MessageInfo {
  name: string;
  file: string;
}

export interface CompileResult {
  diagnostics: Diagnostic[];
  messages: MessageInfo[];
  generated: GeneratedFile[];
  elapsedMs: number;
}

export interface BytesResult {
  hex: string;
  base64: string;
  size: number;
}

export interface DecodeResult extends BytesResult {
  value: string;
  encoding: string;
}

export interface PayloadError {
  kind: string;
  message: string;
  offset: number;
  path?: string;
  line?: number;
  column?: number;
}

export interface WireField {
  offset: number;
  length: number;
  tagLength: number;
  tag?: string;
  number: number;
  wireType: number;
  name?: string;
  type: string;
  unknown?: boolean;
  packed?: boolean;
  valueOffset: number;
  valueLength: number;
  value?: string;
  alternatives?: { as: string; value: string }[];
  children?: WireField[];
  note?: string;
}

export interface WireView {
  type?: string;
  size: number;
  fields: WireField[];
  error?: PayloadError;
}

export interface CheckResult {
  type: string;
  pass: boolean;
  step?: string;
  path?: string;
  message?: string;
  size: number;
}

// Methods of globalThis.protoplay in the Worker, by name.
export interface Methods {
  compile: [{ files: Files }, CompileResult];
  generate: [{ files: Files; options: string }, CompileResult];
  encode: [{ files: Files; type: string; input: string; in?: string }, BytesResult];
  decode: [{ files: Files; type: string; input: string; encoding?: string }, DecodeResult];
  wireView: [{ files: Files; type: string; input: string; encoding?: string }, WireView];
  decodeRaw: [{ input: string; encoding?: string }, WireView];
  sample: [{ files: Files; type: string }, { value: string }];
  check: [{ files: Files }, { results: CheckResult[] }];
}

export type Method = keyof Methods;

// Messages between the page and the Worker.
export type ToWorker =
  | { type: "init"; module: WebAssembly.Module; env: Record<string, string> }
  | { type: "call"; id: number; method: Method; params: unknown };

export type FromWorker =
  | { type: "ready"; ms: number; version: string }
  | { type: "fatal"; message: string }
  | { type: "result"; id: number; result: unknown; memory: number; ms: number }
  | { type: "error"; id: number; message: string; detail?: PayloadError; memory: number; ms: number };

// FetchInfo is the wasm download as the page's resource timing saw it.
export interface FetchInfo {
  transferSize: number; // bytes on the wire, headers included
  encodedBodySize: number; // compressed body
  decodedBodySize: number;
  ms: number; // request start to last byte
}
