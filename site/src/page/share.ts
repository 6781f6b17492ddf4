// The session lives in the URL hash: the state as JSON, compressed with
// deflate-raw (CompressionStream) and written as base64url after "#s=".
// No server keeps anything; a link is the whole session.

export interface SessionState {
  files: { name: string; text: string }[];
  active: string; // the file shown in the editor
  options: string; // generator options, "k=v,k=v"
  type?: string; // the message type picked in the payload panel
  json?: string; // the payload panel's JSON, when the user wrote it
  program?: string; // the Run tab's main.go, when the user wrote it
}

const prefix = "#s=";

export async function encodeState(s: SessionState): Promise<string> {
  const data = new TextEncoder().encode(JSON.stringify(s));
  const packed = await pipe(data, new CompressionStream("deflate-raw"));
  return prefix + base64url(packed);
}

// decodeState reads a hash written by encodeState; null when the hash
// holds no session. A damaged one throws.
export async function decodeState(hash: string): Promise<SessionState | null> {
  if (!hash.startsWith(prefix)) return null;
  const packed = unbase64url(hash.slice(prefix.length));
  const data = await pipe(packed, new DecompressionStream("deflate-raw"));
  const s = JSON.parse(new TextDecoder().decode(data)) as SessionState;
  if (!Array.isArray(s.files) || s.files.some((f) => typeof f.name !== "string" || typeof f.text !== "string")) {
    throw new Error("the link holds no files");
  }
  s.options = typeof s.options === "string" ? s.options : "";
  if (typeof s.program !== "string") delete s.program;
  return s;
}

async function pipe(data: Uint8Array, t: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const out = new Response(new Blob([data as BlobPart]).stream().pipeThrough(t));
  return new Uint8Array(await out.arrayBuffer());
}

export function base64url(b: Uint8Array): string {
  let s = "";
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function unbase64url(s: string): Uint8Array {
  const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
  const b = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) b[i] = bin.charCodeAt(i);
  return b;
}
