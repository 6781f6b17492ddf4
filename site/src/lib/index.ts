// protoplay for browsers: the core runs in a Worker (one per page, shared
// by every caller and every <protoplay-editor>), loaded from
// protoplay.wasm beside this module unless initialize() says otherwise.
import { compileWasm, Core } from "./client";
import { createAPI, limitsOf, ProtoplayError, type Backend, type InitializeOptions, type Progress } from "./common";

export * from "./common";

let workerURL: string | undefined;

// The script this module came in, for a bundle that is a classic script
// (no import.meta.url): document.currentScript is only set while it runs.
const classicScript: string | undefined =
  typeof document === "undefined" ? undefined : ((document.currentScript as HTMLScriptElement | null)?.src || undefined);

// defaultWasmURL is protoplay.wasm beside this module. The expression
// new URL("./protoplay.wasm", import.meta.url) is the one webpack 5, Vite
// and Parcel recognise (they copy the file and rewrite the URL); a
// classic script looks beside itself.
function defaultWasmURL(): URL {
  if (import.meta.url) return new URL("./protoplay.wasm", import.meta.url);
  const base = classicScript ?? (globalThis as any).location?.href;
  if (!base)
    throw new ProtoplayError(
      "protoplay: cannot tell where protoplay.wasm is (this bundle is not an ES module and was not loaded by a <script>): call initialize({ wasmURL }) first",
    );
  return new URL("protoplay.wasm", base);
}

async function start(options: InitializeOptions, progress: Progress): Promise<Backend> {
  const base = (globalThis as any).location?.href as string | undefined;
  const module = options.wasmModule
    ? Promise.resolve(options.wasmModule)
    : compileWasm(
        options.wasmURL ? new URL(String(options.wasmURL), base) : defaultWasmURL(),
        options.wasmURL ? 0 : __PROTOPLAY_WASM_SIZE__,
        progress,
      );
  if (options.worker === false) {
    const { runInThread } = await import("./inthread");
    return runInThread(await module, limitsOf(options));
  }
  let fail!: (e: Error) => void;
  const failed = new Promise<never>((_, reject) => (fail = reject));
  let version = "";
  const core = new Core({
    module,
    newWorker() {
      // The Worker's code ships inside this module (a Blob), so neither a
      // bundler nor a server has to know about a second file.
      workerURL ??= URL.createObjectURL(new Blob([__PROTOPLAY_WORKER__], { type: "text/javascript" }));
      return new Worker(workerURL, { name: "protoplay core" });
    },
    ...limitsOf(options),
    raise: { timeout: "initialize({ timeoutMs })", memory: "initialize({ memoryLimit })" },
    env: {},
    onReady(_ms, v) {
      version = v;
    },
    onRestart() {},
    onFatal(message) {
      // A failed load is a wasmLoadError, which says all.
      fail(new ProtoplayError(message.replace(/^loading the compiler: (?=protoplay: )/, "").replace(/^(?!protoplay: )/, "protoplay: ")));
    },
  });
  await Promise.race([core.ready, failed]);
  return {
    call: (method, params) => core.call(method, params),
    get version() {
      return version;
    },
  } as Backend;
}

const api = createAPI(start);
export const { initialize, compile, encode, decode, decodeRaw, wireView, sample, check, coreVersion, onLoadProgress } = api;
// isReady is true once the core has started.
export const isReady = (): boolean => api.ready;
