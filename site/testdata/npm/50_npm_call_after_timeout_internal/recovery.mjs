// Case 50 (site/npm_fail_test.go runs it in a project with the packed
// package installed): a call that runs past timeoutMs until the core is
// killed must reject with kind "limit", and so must a call waiting behind
// it on the same core; the calls after it run on a new core.
//
// node recovery.mjs TIMEOUT_MS case: the case's input, a wire view of a
// 3 MB payload (field 4 of g.proto, packed, 3,000,000 varints of 1),
// which runs past a short limit (the core stops itself between stages,
// or is killed 5 s past the limit, on the clock and in CPU time, in the
// stage that does not end).
// node recovery.mjs TIMEOUT_MS stopped: the core's process is stopped
// (SIGSTOP) while a call waits on it, so it cannot answer (neither the
// call nor how much CPU time it used): the kill path, whatever the
// machine's speed.
import { initialize, wireView, decodeRaw } from "protoplay";
import fs from "node:fs";
const [timeoutMs, mode] = [Number(process.argv[2]), process.argv[3]];
await initialize({ timeoutMs });
const schema = { "g.proto": fs.readFileSync(new URL("./g.proto", import.meta.url), "utf8") };
const small = new Uint8Array([0x22, 0x02, 0x01, 0x02]);
const out = { calls: [] };
async function run(label, f) {
  const t0 = Date.now();
  const r = { label };
  try {
    const v = await f();
    r.ok = true;
    r.fields = v.fields?.length ?? v.generated?.length;
  } catch (e) {
    r.kind = e.kind;
    r.limit = e.detail?.limit;
    r.message = e.message;
  }
  r.ms = Date.now() - t0;
  out.calls.push(r);
}
// children are the pids of this process's child processes (Linux).
function children() {
  const pids = [];
  for (const d of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === process.pid) pids.push(Number(d));
    } catch {}
  }
  return pids;
}
let big;
if (mode === "stopped") {
  out.stopped = children();
  for (const pid of out.stopped) process.kill(pid, "SIGSTOP");
  big = () => decodeRaw(small);
} else {
  const n = 3_000_000;
  const len = [];
  for (let v = n; ; v >>>= 7) {
    if (v < 0x80) { len.push(v); break; }
    len.push((v & 0x7f) | 0x80);
  }
  const payload = new Uint8Array(1 + len.length + n).fill(1);
  payload.set([0x22, ...len], 0); // tag: field 4, LEN; then the length
  big = () => wireView(schema, "g.M", payload);
}
// The big call and one sent while it runs (it waits on the same core).
await Promise.all([run("big", big), run("behind", () => decodeRaw(small))]);
await run("after", () => decodeRaw(small));
await run("again", () => decodeRaw(small));
out.alive = (out.stopped ?? []).filter((pid) => fs.existsSync(`/proc/${pid}`) && !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8")));
console.log(JSON.stringify(out));
process.exit(0);
