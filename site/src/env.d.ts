// Constants the build program (site/build) defines.
declare const __WASM_URL__: string;
declare const __WASM_SIZE__: number;
declare const __WORKER_URL__: string;

// Go's wasm_exec.js, inlined by the build from the toolchain that built
// the wasm. It defines globalThis.Go.
declare module "go:wasm_exec" {}

declare class Go {
  importObject: WebAssembly.Imports;
  run(instance: WebAssembly.Instance): Promise<void>;
  exit(code: number): void;
}

declare module "*.proto" {
  const text: string;
  export default text;
}
