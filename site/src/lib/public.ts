// The package's public API, the same from every entry (index.ts for
// browsers, node.ts for Node): the functions, documented once here, call
// the API the entry binds (bindAPI), and the types are re-exported from
// common.ts and api.gen.ts. Only what is listed here is public; the
// entries export nothing else.
import type {
  CheckResult,
  CompileOptions,
  CompileResult,
  DecodeOptions,
  DecodeResult,
  EncodeOptions,
  EncodeResult,
  Encoding,
  Fit,
  InferOptions,
  InferResult,
  InitializeOptions,
  Payload,
  RankOptions,
  Schema,
  StreamResult,
  ViewResult,
  API,
  BreakingOptions,
  BreakingResult,
  OldReaderResult,
} from "./common";

export { DEFAULT_MEMORY_LIMIT, DEFAULT_TIMEOUT_MS, DESCRIPTOR_SET_EXTENSIONS, formatDiagnostic, ProtoplayError, version } from "./common";
export type {
  BreakingOptions,
  BreakingResult,
  Difference,
  Finding,
  OldReaderResult,
  Alternative,
  BytesResult,
  CheckResult,
  CompileOptions,
  CompileResult,
  CoreError,
  DecodeOptions,
  DecodeResult,
  Diagnostic,
  EncodeOptions,
  EncodeResult,
  Encoding,
  ErrorKind,
  Files,
  Fit,
  InferOptions,
  InferResult,
  RankOptions,
  SchemaFiles,
  StreamMessage,
  StreamResult,
  GeneratedFile,
  GeneratorOptions,
  InitializeOptions,
  Kind,
  MessageInfo,
  Payload,
  PayloadError,
  Schema,
  Severity,
  ValueFormat,
  ViewResult,
  WireField,
  WireView,
  WireViewResult,
} from "./common";

let api: API;

// bindAPI gives the functions below the entry's API (once, as the entry
// loads). Internal: the entries do not export it.
export function bindAPI(a: API): void {
  api = a;
}

/**
 * Starts the core with options, before the first call (which otherwise
 * starts it with the defaults). It resolves when the core is ready. A
 * failed start (protoplay.wasm not found...) rejects with a ProtoplayError
 * saying what was fetched and what came back; initialize() may then be
 * called again, and the options given are kept for the next start. Once
 * the core has started, options reject with kind "argument".
 */
export function initialize(options?: InitializeOptions): Promise<void> {
  return api.initialize(options);
}

/**
 * Compiles a schema to Go: the generated files, the diagnostics (warnings)
 * and every message type. A schema that does not compile rejects with a
 * ProtoplayError of kind "schema" whose diagnostics say where (file,
 * 1-based line and column).
 * @param files - file name to .proto text, or one file's text ("schema.proto")
 * @param options - generator options (as the CLI's --opt), or generate: false to check only
 */
export function compile(files: Schema, options?: CompileOptions): Promise<CompileResult> {
  return api.compile(files, options);
}

/**
 * Encodes a value of a message type to the protobuf binary format.
 * @param files - the schema
 * @param type - the message type's full name ("pkg.Message")
 * @param value - an object (as JSON; a BigInt is written as a string of its digits, as ProtoJSON
 *   takes 64-bit integers), or a string of JSON or, with format "text", of text format
 * @returns the bytes, and the same as hex and base64, with the size
 */
export function encode(files: Schema, type: string, value: unknown, options?: EncodeOptions): Promise<EncodeResult> {
  return api.encode(files, type, value, options);
}

/**
 * Decodes a payload of a message type to JSON (or text format). A
 * malformed payload rejects with kind "payload", detail.offset the byte
 * at fault.
 * @param input - the bytes, or hex or base64 text
 */
export function decode(files: Schema, type: string, input: Payload, options?: DecodeOptions): Promise<DecodeResult> {
  return api.decode(files, type, input, options);
}

/**
 * Decodes a payload with no schema: every field by number and wire type,
 * with its byte offsets, and the possible readings of each LEN field.
 */
export function decodeRaw(input: Payload, options?: { encoding?: Encoding }): Promise<ViewResult> {
  return api.decodeRaw(input, options);
}

/**
 * The wire view of a payload of a message type: every field, named by the
 * schema, with its tag, wire type and byte offsets.
 */
export function wireView(files: Schema, type: string, input: Payload, options?: { encoding?: Encoding }): Promise<ViewResult> {
  return api.wireView(files, type, input, options);
}

/** A filled-in value of a message type, as JSON. */
export function sample(files: Schema, type: string): Promise<string> {
  return api.sample(files, type);
}

/** Round-trips a sample of each message type of the schema through encode and decode. */
export function check(files: Schema): Promise<CheckResult[]> {
  return api.check(files);
}

/**
 * Ranks the schema's message types by how well a payload parses as each
 * (every tag known, wire types matching, lengths consumed, UTF-8 where
 * strings are, no unknown fields): the best few, best first, each with a
 * score from 0 to 1 (the share of the payload's bytes the type explains)
 * and a rank that types fitting the bytes equally share. A malformed
 * payload rejects with kind "payload", detail.offset the byte at fault.
 */
export function rankTypes(files: Schema, input: Payload, options?: RankOptions): Promise<Fit[]> {
  return api.rankTypes(files, input, options);
}

/**
 * Infers a .proto file (edition 2023) from payloads of one message type,
 * under which they all decode with no unknown field: field numbers as
 * seen, types from the wire types and values, nested messages named
 * FieldNMessage, a comment per field saying what was seen. A malformed
 * payload rejects with kind "payload", detail.record its index and
 * detail.offset the byte at fault.
 * @returns the file's suggested name and its text
 */
export function inferSchema(inputs: Payload[], options?: InferOptions): Promise<InferResult> {
  return api.inferSchema(inputs, options);
}

/**
 * Lists the messages of a length-delimited stream (each message preceded
 * by its length as a varint), each with its byte offsets, decoded as type
 * when files and type are given (null: listed only). A bad length prefix
 * ends the list with result.error; a message that does not decode has its
 * own error.
 */
export function decodeStream(files: Schema | null, type: string | null, input: Payload, options?: DecodeOptions): Promise<StreamResult> {
  return api.decodeStream(files, type, input, options);
}

/**
 * Lists the breaking changes from baseline (an earlier version of the
 * schema) to files, by buf breaking's rules: each with its rule ID, the
 * file, line and column in files (or in baseline, for a deleted file),
 * and buf's message. Sources that do not compile give their diagnostics
 * (result.diagnostics, result.baselineDiagnostics) and no changes.
 */
export function breaking(files: Schema, baseline: Schema, options?: BreakingOptions): Promise<BreakingResult> {
  return api.breaking(files, baseline, options);
}

/**
 * What a reader built with baseline makes of a payload written with
 * files: its wire view and value, beside the current ones, and each field
 * the two read differently (kind "unknown": a field the old reader keeps
 * as unknown; "enum": a value its enum lacks; "value": a type change that
 * alters the value; "name": a renamed field).
 */
export function oldReader(files: Schema, baseline: Schema, type: string, input: Payload, options?: { encoding?: Encoding }): Promise<OldReaderResult> {
  return api.oldReader(files, baseline, type, input, options);
}

/** The core's build: the Go version and revision it was built from. */
export function coreVersion(): Promise<string> {
  return api.coreVersion();
}

/**
 * Calls listener as the core downloads (bytes loaded, total bytes; total
 * 0 while unknown) and once with loaded === total when the core has
 * started (never on a failed load).
 * @returns a function that removes the listener
 */
export function onLoadProgress(listener: (loaded: number, total: number) => void): () => void {
  return api.onLoadProgress(listener);
}

/** Whether the core has started (a call no longer waits for the download). */
export function isReady(): boolean {
  return api.ready;
}
