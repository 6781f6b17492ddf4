// wasm_exec.js needs globalThis.crypto (getRandomValues), which Node 18
// has only as node:crypto's webcrypto. Imported before it.
import { webcrypto } from "node:crypto";

const g = globalThis as any;
if (!g.crypto) g.crypto = webcrypto;
