// The native core for Node: protoplay's CLI binary for the platform,
// `protoplay core --stdio`, which serves the same requests as the wasm
// core through the same Go dispatcher (compiler.Workspace.CallFiles;
// internal/corestdio has the protocol), without the seconds it takes V8
// to compile and optimise the wasm. Where the binary is, as esbuild finds
// its own: the PROTOPLAY_BINARY_PATH environment variable, else the
// platform's package, @protoplay/<platform>-<arch>, one of the main
// package's optionalDependencies (npm installs the one whose "os" and
// "cpu" match), found with require.resolve from this module. node.ts
// falls back to the wasm core when there is none.
//
// A Channel (nodethread.ts) over the binary's standard input and output:
// frames of a 4-byte little-endian length and a JSON message, the
// envelopes of messages.ts, so that runInChild's calls, time limit and
// restart are the wasm child's.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import type { Channel } from "./nodethread";
import type { FromWorker } from "./messages";

const proc = (globalThis as any).process;

/** The platform packages, by `${process.platform} ${process.arch}`. */
export const platformPackages: Record<string, string> = {
  "linux x64": "@protoplay/linux-x64",
  "linux arm64": "@protoplay/linux-arm64",
  "darwin x64": "@protoplay/darwin-x64",
  "darwin arm64": "@protoplay/darwin-arm64",
  "win32 x64": "@protoplay/win32-x64",
};

// The binary's path inside its platform package.
const binaryPath = (platform: string) => (platform === "win32" ? "protoplay.exe" : "bin/protoplay");

/** The environment variable that names a native core's binary (it wins over the platform package). */
export const BINARY_ENV = "PROTOPLAY_BINARY_PATH";

// findNative is the native core's binary, and where it was found (the
// variable or the package), or why there is none.
export function findNative(from: string): { path: string; source: string } | { missing: string } {
  const env = proc.env[BINARY_ENV];
  if (env) return { path: env, source: BINARY_ENV };
  const key = `${proc.platform} ${proc.arch}`;
  const pkg = platformPackages[key];
  if (!pkg) return { missing: `no native core is built for ${key} (there are for ${Object.keys(platformPackages).join(", ")})` };
  try {
    return { path: createRequire(from).resolve(`${pkg}/${binaryPath(proc.platform)}`), source: pkg };
  } catch {
    return {
      missing: `${pkg} is not installed (npm installs it with protoplay, an optional dependency, unless optional dependencies are left out: --omit=optional, --no-optional); set ${BINARY_ENV} to a protoplay binary of this version instead`,
    };
  }
}

// A "cpu" answer of the native core (see nodethread.ts's CPUAnswer).
interface CPUAnswer {
  type: "cpu";
  id: number;
  ms?: number;
}

// nativeProcess starts the binary at path as a core. Its "ready" must
// name this package's version; a binary of another version is a "fatal"
// (a failed start).
export function nativeProcess(path: string, version: string): Channel {
  const child = spawn(path, ["core", "--stdio"], { stdio: ["pipe", "pipe", "pipe"], windowsHide: true });
  // The core's own complaints (a Go panic) go to this process's stderr.
  child.stderr?.on("data", (d: unknown) => proc.stderr.write(d));
  const kill = () => child.kill("SIGKILL");
  proc.on("exit", kill);
  child.on("exit", () => proc.off("exit", kill));
  // A write to a core that is gone fails; its exit says so.
  child.stdin?.on("error", () => {});

  const listeners: ((m: FromWorker) => void)[] = [];
  const emit = (m: FromWorker) => {
    for (const f of listeners) f(m);
  };
  const asked = new Map<number, ((ms: number | undefined) => void)[]>();
  const receive = (m: any) => {
    if (m?.type === "cpu") {
      const a = m as CPUAnswer;
      const waiting = asked.get(a.id) ?? [];
      asked.delete(a.id);
      for (const f of waiting) f(a.ms);
      return;
    }
    if (m?.type === "ready") {
      if (m.package !== version) {
        emit({ type: "fatal", message: `the native core at ${path} is protoplay ${m.package}, this package is ${version}: install the platform package of the same version, or leave out ${BINARY_ENV}` });
        return;
      }
      emit({ type: "ready", ms: 0, version: String(m.version) });
      return;
    }
    emit(m as FromWorker);
  };

  // The frames read so far: chunks, have bytes in all, the next frame's
  // length once read (need).
  const chunks: Uint8Array[] = [];
  let have = 0;
  let need = -1;
  const take = (n: number): Uint8Array => {
    const out = new Uint8Array(n);
    let off = 0;
    while (off < n) {
      const c = chunks[0];
      const k = Math.min(c.length, n - off);
      out.set(c.subarray(0, k), off);
      off += k;
      if (k === c.length) chunks.shift();
      else chunks[0] = c.subarray(k);
    }
    have -= n;
    return out;
  };
  const decoder = new TextDecoder();
  child.stdout?.on("data", (d: Uint8Array) => {
    chunks.push(d);
    have += d.length;
    for (;;) {
      if (need < 0) {
        if (have < 4) return;
        const h = take(4);
        need = h[0] | (h[1] << 8) | (h[2] << 16) | (h[3] * 2 ** 24);
      }
      if (have < need) return;
      const body = take(need);
      need = -1;
      let m: unknown;
      try {
        m = JSON.parse(decoder.decode(body));
      } catch (e: any) {
        emit({ type: "fatal", message: `the native core sent a frame that is not JSON: ${e?.message ?? e}` });
        return;
      }
      receive(m);
    }
  });

  const send = (m: unknown) => {
    const body = new TextEncoder().encode(JSON.stringify(m));
    const head = new Uint8Array(4);
    new DataView(head.buffer).setUint32(0, body.length, true);
    child.stdin?.write(head);
    child.stdin?.write(body);
  };
  return {
    send,
    on(event: any, f: any) {
      if (event === "message") listeners.push(f);
      else child.on(event, f);
    },
    hold(on) {
      for (const h of [child, child.stdin, child.stdout, child.stderr] as any[]) on ? h?.ref?.() : h?.unref?.();
    },
    kill,
    cpuMs(id, waitMs) {
      return new Promise((resolve) => {
        const timer: any = setTimeout(() => resolve(undefined), waitMs);
        timer.unref?.();
        const waiting = asked.get(id) ?? [];
        waiting.push((ms) => {
          clearTimeout(timer);
          resolve(ms);
        });
        asked.set(id, waiting);
        send({ type: "cpu", id });
      });
    },
  };
}
