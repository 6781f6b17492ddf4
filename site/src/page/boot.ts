// The page's start: the test and measurement knobs of the address
// (?timeout=MS, ?memlimit=MiB, ?gogc=N), the stats the browser tests read,
// the status line and the compiler core (its Worker, ../lib/client.ts).
import { compileWasm, Core } from "../lib/client";
import type { FetchInfo } from "../lib/messages";
import { initAbout, setCoreVersion } from "./about";
import { byId, notice } from "./ui";

// Test and measurement knobs: ?timeout=MS, ?memlimit=MiB and ?gogc=N.
export const params = new URLSearchParams(location.search);

// stats is read by the browser tests and the measurements in the README.
export const stats = {
  wasmReadyMs: 0, // Worker ready, since navigation start
  wasmStartMs: 0, // the Worker's own time from init to ready (instantiate, Go start)
  moduleReadyMs: 0, // wasm downloaded and compiled, since navigation start
  wasmFetch: undefined as FetchInfo | undefined,
  version: "",
  firstOutputMs: 0, // first generated Go on screen, since navigation start
  firstCompiledMs: 0, // first Go compiled in this browser, since navigation start
  prebuilt: false, // the first output was the example's, built ahead
  compiles: 0,
  progressEvents: 0, // download progress updates shown
  lastCompileMs: 0, // time in the core for the last compile
  latencies: [] as number[], // edit -> new output on screen, ms
  // The interpreter (./interp.ts), since navigation start: its download
  // began (never before the first compiled output), its Worker was ready,
  // and the checks of the generated code were first all done.
  interpStartMs: 0,
  interpReadyMs: 0,
  goChecksDoneMs: 0,
  goChecksRounds: 0, // rounds of generated-code checks completed
  goChecksLastMs: 0, // the last completed round, from its start
  goLoadMs: 0, // the interpreter's last load of the generated code
};

initAbout(byId("about"));

export const status = byId("status-text");
const progress = byId<HTMLProgressElement>("progress");
function onProgress(loaded: number, total: number) {
  stats.progressEvents++;
  progress.value = Math.min(1, loaded / total);
  status.textContent =
    loaded < total
      ? `Loading the compiler… ${(loaded / 1e6).toFixed(1)} / ${(total / 1e6).toFixed(1)} MB`
      : "Starting the compiler…";
}
export const callTimeoutMs = Number(params.get("timeout")) || 10_000;
// A compile stops itself a second before the Worker would be replaced, so
// that the core keeps what it printed (its caches) and the next compile
// continues from there (see compile).
export const compileDeadlineMs = Math.max(callTimeoutMs - 1000, callTimeoutMs / 2);
export const core = new Core({
  module: compileWasm(
    new URL(__WASM_URL__, import.meta.url),
    __WASM_SIZE__,
    onProgress,
    "Reload the page; if that does not help, this server does not serve the playground's files as built (make site, or protoplay serve).",
  ),
  newWorker: () => new Worker(new URL(__WORKER_URL__, import.meta.url), { type: "module", name: "protoplay core" }),
  timeoutMs: callTimeoutMs,
  memoryLimit: (Number(params.get("memlimit")) || 1024) * (1 << 20),
  raise: { timeout: "?timeout=MS in the address", memory: "?memlimit=MiB in the address" },
  // The core is built without the runtime's sources: runtime=local output
  // (and the .zip) fetches them from this asset when it first needs them
  // (wasm/runtime_lazy.go).
  env: { PROTOPLAY_RUNTIME_URL: new URL(__RUNTIME_URL__, import.meta.url).href, ...(params.get("gogc") ? { GOGC: params.get("gogc")! } : {}) },
  onReady(ms, version, fetch) {
    if (!stats.wasmReadyMs) {
      stats.wasmReadyMs = performance.now();
      stats.wasmStartMs = ms;
      stats.moduleReadyMs = core.moduleReadyMs;
      stats.wasmFetch = fetch;
      stats.version = version;
      byId("status").title = `protoplay core, built with ${version}`;
      setCoreVersion(version);
    }
    progress.hidden = true;
    // A replacement Worker's ready message must not hide why the last
    // compile failed (a restart that ended it, or its errors).
    if (byId("status").dataset.state !== "failed") status.textContent = `Compiler ready in ${Math.round(ms)} ms`;
  },
  onRestart(reason) {
    notice(reason);
    status.textContent = "Compiler restarted";
  },
  onFatal(message) {
    progress.hidden = true;
    status.textContent = "The compiler failed to load";
    notice(`The compiler failed: ${message}. Reload the page to try again.`);
  },
});
