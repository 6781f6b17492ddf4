// The messages between a page (client.ts) and the Worker that runs the
// core (worker.ts): an "init", then "call"s, each answered by a "result"
// or an "error" with the same id. The params and results are the shapes
// of the generated contract (api.gen.ts); these envelopes exist on the
// TypeScript side only.
import type { CoreError, Method } from "./api.gen";

export type ToWorker =
  | { type: "init"; module: WebAssembly.Module; env: Record<string, string> }
  | { type: "call"; id: number; method: Method; params: unknown };

export type FromWorker =
  | { type: "ready"; ms: number; version: string }
  | { type: "fatal"; message: string }
  | { type: "result"; id: number; result: unknown; memory: number; ms: number }
  // message is the Go error's text, detail the compiler.Error as JSON.
  | { type: "error"; id: number; message: string; detail?: CoreError; memory: number; ms: number }
  // A write of the program the interpreter runs (its run call), as it
  // happens (interp.Session.Output); the core never sends it.
  | { type: "output"; stream: "stdout" | "stderr"; text: string };

// FetchInfo is the wasm download as the page's resource timing saw it.
export interface FetchInfo {
  transferSize: number; // bytes on the wire, headers included
  encodedBodySize: number; // compressed body
  decodedBodySize: number;
  ms: number; // request start to last byte
}
