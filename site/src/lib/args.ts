// The npm API's arguments, checked and turned into the core's requests:
// a schema into files, generator options into their string, a payload
// into text with its encoding. A bad argument is an argumentError.
import type { Diagnostic } from "./api.gen";
import { argumentError, type Encoding, type Files, type GeneratorOptions, type Payload, type Schema } from "./common";
import { DESCRIPTOR_SET_EXTENSIONS, isDescriptorSetName, toBase64 } from "./descset";
import { toHex } from "./hex";

export function filesOf(s: Schema): Files {
  if (typeof s === "string") return { "schema.proto": s };
  if (!s || typeof s !== "object" || Array.isArray(s)) throw argumentError(`a schema is an object of file name -> .proto text, or one file's text; got ${typeName(s)}`);
  let out: Files | undefined;
  for (const [name, text] of Object.entries(s)) {
    if (typeof text === "string") continue;
    if (text instanceof Uint8Array && isDescriptorSetName(name)) {
      // The core reads a descriptor set's bytes as base64 text.
      (out ??= { ...(s as Files) })[name] = toBase64(text);
      continue;
    }
    if (text instanceof Uint8Array)
      throw argumentError(`the schema's file ${JSON.stringify(name)} is bytes: only a descriptor set (a name ending in ${DESCRIPTOR_SET_EXTENSIONS.join(", ")}) may be`);
    throw argumentError(`the schema's file ${JSON.stringify(name)} is ${typeName(text)}, not .proto text (a string)`);
  }
  return out ?? (s as Files);
}

export function optionString(o: GeneratorOptions | undefined): string {
  if (o === undefined || o === null || o === "") return "";
  if (typeof o === "string") return o;
  if (typeof o !== "object" || Array.isArray(o)) throw argumentError(`compile: options.options must be a string ("k=v,k=v") or an object of option names to values; got ${typeName(o)}`);
  return Object.entries(o)
    .map(([k, v]) => {
      if (!["string", "number", "boolean"].includes(typeof v)) throw argumentError(`compile: the generator option ${k} must be a string, number or boolean; got ${typeName(v)}`);
      return `${k}=${v}`;
    })
    .join(",");
}

/** A diagnostic as one line: "file:line:column: message" (or the message alone, with no file). */
export function formatDiagnostic(d: Diagnostic): string {
  if (!d.file) return d.message;
  return d.line > 0 ? `${d.file}:${d.line}:${d.column}: ${d.message}` : `${d.file}: ${d.message}`;
}

export function payloadOf(input: Payload, encoding: Encoding | undefined): [string, Encoding] {
  if (typeof input === "string") return [input, encoding ?? "auto"];
  if (!(input instanceof Uint8Array)) throw argumentError(`a payload is a Uint8Array or hex/base64 text; got ${typeName(input)}`);
  return [toHex(input), "hex"];
}

// typeName says what a bad argument is, for its error.
export function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return `an object (${Object.prototype.toString.call(v).slice(8, -1)})`;
  return typeof v === "string" ? "a string" : `${typeof v === "undefined" ? "" : "a "}${typeof v}`;
}

// typeArg checks a message type's full name.
export function typeArg(type: unknown): string {
  if (typeof type !== "string" || type === "") throw argumentError(`a message type is its full name as a string ("pkg.Message"); got ${typeName(type)}`);
  return type;
}

// stringsArg checks an optional list of strings of fn's options.
export function stringsArg(fn: string, name: string, v: unknown): string[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) throw argumentError(`${fn}: options.${name} must be an array of strings; got ${typeName(v)}`);
  return v as string[];
}

// optionsArg checks an options argument: undefined or an object.
export function optionsArg<T extends object>(fn: string, o: T | undefined): T {
  if (o === undefined) return {} as T;
  if (typeof o !== "object" || o === null || Array.isArray(o)) throw argumentError(`${fn}: options must be an object; got ${typeName(o)}`);
  return o;
}
