// Constants site/build defines for the npm package.
declare const __PROTOPLAY_VERSION__: string;
// The Worker's code (site/src/lib/worker.ts with wasm_exec.js), as a script.
declare const __PROTOPLAY_WORKER__: string;
// The widget reads the palette as text (the npm build loads .css as text).
declare module "*.css" {
  const text: string;
  export default text;
}

// Go's wasm_exec.js, inlined by the build from the toolchain that built
// the wasm. It defines globalThis.Go.
declare module "go:wasm_exec" {}

declare class Go {
  importObject: WebAssembly.Imports;
  run(instance: WebAssembly.Instance): Promise<void>;
  exit(code: number): void;
}

// What node.ts uses of Node (the package carries no @types/node).
declare module "node:fs/promises" {
  export function readFile(path: string | URL): Promise<Uint8Array>;
}
declare module "node:crypto" {
  export const webcrypto: unknown;
}
