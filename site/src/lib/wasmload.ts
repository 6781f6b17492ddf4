// What to say when protoplay.wasm cannot be loaded: what was fetched (or
// read), what came back (HTTP status, content type, the first bytes), and
// what to do about it for the setup that most likely caused it. Shared by
// the browser entry (client.ts) and Node's (node.ts).

// The first bytes of every WebAssembly module: "\0asm".
export const wasmMagic = [0x00, 0x61, 0x73, 0x6d];

export function isWasm(bytes: Uint8Array): boolean {
  return wasmMagic.every((b, i) => bytes[i] === b);
}

export interface LoadFailure {
  url: string; // what was fetched or read
  status?: number; // HTTP status, when fetched
  contentType?: string | null;
  bytes?: Uint8Array; // the start of what came back
  cause?: string; // a network, file or compile error
  advice?: string; // what to do, instead of wasmAdvice's guess
}

// wasmLoadError is the Error for a failed load of the core:
//
//	protoplay: could not load protoplay.wasm from URL: HTTP 200, text/html,
//	1234 bytes starting 3c 21 64 6f 63 ("<!doc"), not WebAssembly. ADVICE
export function wasmLoadError(f: LoadFailure): Error {
  const got: string[] = [];
  if (f.status !== undefined) got.push(`HTTP ${f.status}`);
  if (f.status !== undefined) got.push(f.contentType ? `Content-Type ${f.contentType}` : "no Content-Type");
  if (f.bytes) {
    const head = f.bytes.subarray(0, 8);
    const hex = [...head].map((b) => b.toString(16).padStart(2, "0")).join(" ");
    const text = String.fromCharCode(...head).replace(/[^\x20-\x7e]/g, ".");
    got.push(f.bytes.length === 0 ? "an empty body" : `body starting ${hex} ("${text}")${isWasm(f.bytes) ? "" : ", not WebAssembly (00 61 73 6d)"}`);
  }
  if (f.cause) got.push(f.cause);
  return new Error(`protoplay: could not load protoplay.wasm from ${f.url}: ${got.join(", ")}. ${f.advice ?? wasmAdvice(f)}`);
}

// wasmAdvice says what to do, by what the failure looks like.
export function wasmAdvice(f: LoadFailure): string {
  const html = f.bytes && f.bytes.length > 0 && f.bytes[0] === 0x3c; // "<"
  if (/\/\.vite\/deps\//.test(f.url))
    return 'Vite\'s dev server pre-bundled protoplay away from its .wasm: add optimizeDeps: { exclude: ["protoplay"] } to vite.config.';
  if (/^file:|^\//.test(f.url))
    return "Pass the file's location as initialize({ wasmURL }) (a path or a file: URL) before the first call, or reinstall the package (protoplay.wasm belongs beside node.js).";
  // A page with a success status is a missing file behind a fallback to
  // index.html; any 404 (with a page or not) is a file that is not there.
  const ok = f.status !== undefined && f.status >= 200 && f.status < 300;
  const where =
    f.status === 404
      ? "The server has no file at that URL: it is not where the bundle expects it. "
      : html && ok
        ? "The server answered with a page, not the file (a missing file behind a fallback to index.html). "
        : html
          ? "The server answered with an error page, not the file. "
          : "";
  return (
    where +
    "protoplay.wasm must be served beside the script that imports protoplay, as application/wasm; " +
    'webpack 5, Vite and Parcel copy it for you. With esbuild: import wasmURL from "protoplay/protoplay.wasm" with the file loader ' +
    '(--loader:.wasm=file) and call initialize({ wasmURL }) before the first call. Otherwise copy node_modules/protoplay/protoplay.wasm ' +
    "into your site and pass its URL as initialize({ wasmURL })."
  );
}
