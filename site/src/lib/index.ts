// protoplay for browsers: the core runs in a Worker (one per page, shared
// by every caller and every <protoplay-editor>), loaded from
// protoplay.wasm beside this module unless initialize() says otherwise.
import { compileWasm, Core } from "./client";
import { bindAPI } from "./public";
import { createAPI, limitsOf, ProtoplayError, type Backend, type InitializeOptions, type Progress } from "./common";

export * from "./exports";

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
  // The module first: a core that cannot load starts no Worker.
  const module = options.wasmModule
    ? options.wasmModule
    : await compileWasm(
        options.wasmURL ? new URL(String(options.wasmURL), base) : defaultWasmURL(),
        options.wasmURL ? 0 : __PROTOPLAY_WASM_SIZE__,
        progress,
      ).catch((e: any) => {
        throw e instanceof ProtoplayError ? e : new ProtoplayError(String(e?.message ?? e));
      });
  if (options.worker === false) {
    const { runInThread } = await import("./inthread");
    return runInThread(module, limitsOf(options));
  }
  let fail!: (e: Error) => void;
  const failed = new Promise<never>((_, reject) => (fail = reject));
  let version = "";
  const core = new Core({
    module: Promise.resolve(module),
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
      fail(new ProtoplayError(message.replace(/^(?!protoplay: )/, "protoplay: ")));
    },
  });
  try {
    await Promise.race([core.ready, failed]);
  } catch (e) {
    // A core that failed to start leaves no Worker behind.
    core.close(e as Error);
    throw e;
  }
  failed.catch(() => {});
  return {
    call: (method, params) => core.call(method, params),
    get version() {
      return version;
    },
  } as Backend;
}

bindAPI(createAPI(start));
