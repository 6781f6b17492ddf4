// The public types of <protoplay-editor> (./element.ts): its events'
// details and maps, and its attributes for JSX.
import type { CompileResult, Diagnostic } from "./api.gen";
import type { EncodeResult } from "./common";

/** The detail of the "protoplay-error" event. */
export interface ErrorDetail {
  message: string;
  diagnostics: Diagnostic[];
}

/** The detail of the "protoplay-input" event: the schema file edited. */
export interface InputDetail {
  value: string;
  filename: string;
}

/** The detail of the "protoplay-encoded" event. */
export interface EncodedDetail {
  type: string; // the message type's full name
  json: string; // the JSON encoded
  result: EncodeResult;
}

/**
 * The element's events that bubble to the document, each named with the
 * prefix "protoplay-" (typed on every element, the document and the window).
 */
export interface ProtoplayEditorEventMap {
  /** The schema changed (each edit): the file's text and name. */
  "protoplay-input": CustomEvent<InputDetail>;
  /** The encode panel's bytes changed. */
  "protoplay-encoded": CustomEvent<EncodedDetail>;
  /** The schema does not compile, or the core could not start. */
  "protoplay-error": CustomEvent<ErrorDetail>;
}

/** The events of a ProtoplayEditor: the bubbling ones, and "compiled" (the CompileResult), typed on the element only. */
export interface ProtoplayEditorElementEventMap extends HTMLElementEventMap, ProtoplayEditorEventMap {
  /** The schema compiled: the generated Go, its diagnostics and messages. */
  compiled: CustomEvent<CompileResult>;
}

/** The attributes of <protoplay-editor>, for JSX (React, Preact, Solid...). */
export interface ProtoplayEditorAttributes {
  /** The message type the encode panel shows (default: the first). */
  type?: string;
  /** The panels shown, comma-separated: "go", "encode". */
  panels?: string;
  /** The element's height, as CSS ("420px"). */
  height?: string;
  /** A URL to load the schema from, instead of the element's text. */
  src?: string;
  /** The schema's file name (default "schema.proto"). */
  filename?: string;
  /** Generator options, as the CLI's --opt ("paths=source_relative"). */
  options?: string;
  /** Present: the schema cannot be edited. */
  readonly?: boolean | "";
  /** "light" or "dark"; default: the page's color scheme. */
  theme?: "light" | "dark";
  id?: string;
  class?: string;
  className?: string;
  style?: unknown;
  slot?: string;
  children?: unknown;
  key?: string | number;
  ref?: unknown;
}
