// After a good compile: the reference codec's checks (the core's) and the
// checks of the generated Go, interpreted, one row per message type.
import type { CheckResult, CompileResult, WireField } from "../lib/api.gen";
import type { Files } from "../lib/common";
import { CallError } from "../lib/client";
import { type GoCheckResult, type Probe } from "./interp";
import { byId, el } from "./ui";
import { core, stats } from "./boot";
import { loadGenerated, runner } from "./interpreter";
import { options, setSymbols } from "./workspace";
import { edits, plural, setStale } from "./compile";
import { refreshProgram } from "./runtab";
import { payload } from "./payloadtab";
import { changes } from "./changestab";

// ---- After a good compile: checks and the payload panel, once the
// edits pause (200 ms), so a burst of typing is not slowed by them.

export let followTimer: ReturnType<typeof setTimeout> | undefined;
const checksList = byId("checks");
export const checksBadge = byId("checks-badge");

export function afterCompile(src: Files, r: CompileResult) {
  clearTimeout(followTimer);
  const fresh = edits.current();
  followTimer = setTimeout(async () => {
    if (!fresh()) return;
    setStale(false);
    lastGood = { src, options, result: r };
    markGood();
    refreshProgram();
    payload.schemaChanged(src, r.messages);
    changes.schemaChanged(src);
    checksList.dataset.state = "running";
    try {
      const c = await core.call("check", { files: src });
      if (!fresh()) return;
      renderChecks(c.results);
      const sy = await core.call("symbols", { files: src });
      if (fresh()) setSymbols(sy);
    } catch (e) {
      if (!fresh()) return;
      checksList.replaceChildren(el("li", { class: "fail" }, (e as Error).message));
      checksList.dataset.state = "error";
      return;
    }
    scheduleGoChecks(src, options, r, fresh);
  }, 200);
}

// The interpreter is downloaded (after the first compiled output is on
// screen) and the generated Go loaded into it (seconds of CPU for a big
// schema, in its own Worker but on the same machine as the core's) only
// once the edits have paused for goQuietMs after a compile, so that typing
// never competes with them.
const goQuietMs = 1000;
let goTimer: ReturnType<typeof setTimeout> | undefined;
// quietFor is the compiled schema (lastGood) whose quiet period has
// passed; the payload panel's checks wait for it (waitQuiet).
let quietFor: object | null = null;
let quietWaiters: (() => void)[] = [];

function scheduleGoChecks(src: Files, opts: string, r: CompileResult, fresh: () => boolean) {
  clearTimeout(goTimer);
  const good = lastGood;
  goTimer = setTimeout(
    () => {
      if (!fresh()) return;
      quietFor = good;
      for (const w of quietWaiters.splice(0)) w();
      void goChecks(src, opts, r, fresh);
    },
    goQuietMs,
  );
}

// waitQuiet resolves once the current schema's quiet period has passed.
export function waitQuiet(): Promise<void> {
  if (quietFor && quietFor === lastGood) return Promise.resolve();
  return new Promise((r) => quietWaiters.push(r));
}

// renderChecks shows the reference codec's checks (the core's), one row
// per message type; data-status is theirs. The checks of the generated Go
// (goChecks) fill in each row's second mark (data-go) as they finish.
let refResults: CheckResult[] = [];
const checkRows = new Map<string, HTMLElement>();
let goFailed = new Set<string>();
// goNotRun, when set, says why the checks of the generated Go could not
// run for the results on screen (the interpreter could not load the code,
// or the round stopped): the badge then claims no pass.
let goNotRun = "";
function renderChecks(results: CheckResult[]) {
  refResults = results;
  checkRows.clear();
  goFailed = new Set();
  goNotRun = "";
  checksList.replaceChildren(
    ...results.map((r) => {
      const li = el(
        "li",
        { class: r.pass ? "pass" : "fail", "data-testid": "check-result", "data-status": r.pass ? "pass" : "fail", "data-type": r.type, "data-go": "pending" },
        el("span", { class: "mark", title: "the reference codec (protobuf-go)" }, r.pass ? "✓" : "✗"),
        el("span", { class: "mark go", "data-testid": "go-mark", title: "the generated Go, interpreted" }, "…"),
        el("span", { class: "type" }, r.type),
        el("span", { class: "detail" }, r.pass ? `${r.size} bytes` : `${r.step}${r.path ? ` at ${r.path}` : ""}: ${r.message}`),
      );
      checkRows.set(r.type, li);
      return li;
    }),
  );
  checksList.dataset.state = "done";
  updateChecksBadge();
}

// updateChecksBadge: red with the number of types that failed a check
// (the reference's or the generated Go's); otherwise amber ("⚠") when the
// generated Go could not be checked, since only the reference's checks
// passed; otherwise green. data-state says which: fail, unchecked, pass.
function updateChecksBadge() {
  const failed = refResults.filter((r) => !r.pass || goFailed.has(r.type)).length;
  const unchecked = !failed && goNotRun !== "";
  checksBadge.textContent = refResults.length ? (failed ? `✗ ${failed}` : unchecked ? `⚠ ${refResults.length}` : `✓ ${refResults.length}`) : "";
  checksBadge.className = failed ? "badge bad" : unchecked ? "badge warn" : "badge good";
  checksBadge.dataset.state = refResults.length ? (failed ? "fail" : unchecked ? "unchecked" : "pass") : "";
  checksBadge.title = unchecked
    ? `The reference codec's checks passed for ${plural(refResults.length, "message type")}, but the generated Go could not be checked: ${goNotRun}`
    : "";
  checksBadge.classList.toggle("stale", byId("checks-stale").hidden === false);
}

// goChecksNotRun marks the checks of the generated Go as not run, for
// reason: every row's second mark, the status line (which says that the
// first marks are the reference codec's only) and the badge.
export function goChecksNotRun(reason: string) {
  goNotRun = reason;
  goChecksStatus(`The generated Go could not be checked: ${reason}. The ✓ marks are the reference codec's (protobuf-go) only.`, "error");
  for (const li of checkRows.values()) if (li.dataset.go !== "pass" && li.dataset.go !== "fail") setGoMark(li, "error", `not run: ${reason}`);
  updateChecksBadge();
}

// ---- The generated Go, interpreted (./interp.ts): checks and the Run tab.

// lastGood is the last schema that compiled, with the options it compiled
// with.
export let lastGood: { src: Files; options: string; result: CompileResult } | null = null;
let markGood!: () => void;
export const firstGood = new Promise<void>((r) => (markGood = r));

const goStatusEl = byId("go-checks-status");

function goChecksStatus(text: string, state: string) {
  goStatusEl.textContent = text;
  checksList.dataset.go = state;
}

// goChecks runs the checks of the generated Go, per message type, once
// the reference's are on screen: the core gives the sample's reference
// bytes (sample, encode) and its verdicts on two probes (the empty
// payload; the sample with invalid UTF-8 in its first string field), and
// the interpreter runs the generated code on them (interp.Session.Check).
// A new edit stops the round between two types.
async function goChecks(src: Files, opts: string, r: CompileResult, fresh: () => boolean) {
  if (!stats.firstCompiledMs) return; // never before the first compiled output is on screen
  if (!runner.started) {
    stats.interpStartMs = performance.now();
    runner.start();
  }
  const t0 = performance.now();
  goChecksStatus(runner.readyAt ? "Checking the generated Go…" : "Loading the Go interpreter…", "running");
  // The two Workers work side by side: the core prepares the next type's
  // reference bytes while the interpreter checks the current one (and
  // while it loads the code).
  const todo = r.messages.filter((m) => checkRows.has(m.name));
  const prefetch = (i: number) => {
    if (i >= todo.length) return undefined;
    const p = referenceFor(src, todo[i].name);
    p.catch(() => {}); // awaited below unless a newer edit ends the round first
    return p;
  };
  try {
    let next = prefetch(0);
    const lr = await loadGenerated(src, opts, r);
    if (!fresh()) return;
    refreshProgram();
    if (lr.error) {
      goChecksNotRun(`the interpreter could not load it (${lr.error.message})`);
      return;
    }
    const have = new Set(lr.types.map((t) => t.name));
    let done = 0;
    for (let i = 0; i < todo.length; i++) {
      const req = await next!;
      next = prefetch(i + 1);
      if (!fresh()) return;
      const li = checkRows.get(todo[i].name)!;
      if (!have.has(todo[i].name)) continue;
      goChecksStatus(`Checking the generated Go: ${todo[i].name} (${++done} of ${todo.length})…`, "running");
      const res = await runner.check(req);
      if (!fresh()) return;
      await showGoCheck(li, res, src);
    }
    if (!fresh()) return;
    stats.goChecksRounds++;
    stats.goChecksLastMs = performance.now() - t0;
    if (!stats.goChecksDoneMs) stats.goChecksDoneMs = performance.now();
    const failed = goFailed.size;
    goChecksStatus(
      failed
        ? `The generated Go failed ${failed} of ${done} checks.`
        : `The generated Go passed every check (${done} message types, ${Math.round(stats.goChecksLastMs)} ms, interpreted in this browser).`,
      "done",
    );
  } catch (e) {
    if (!fresh()) return;
    goChecksNotRun(`the checks stopped (${(e as Error).message})`);
  }
}

// referenceFor asks the core for a type's reference bytes and probes.
async function referenceFor(src: Files, type: string) {
  const req: { type: string; hex: string; refError?: string; probes: Probe[] } = { type, hex: "", probes: [{ name: "the empty payload", hex: "" }] };
  try {
    const sample = await core.call("sample", { files: src, type });
    req.hex = (await core.call("encode", { files: src, type, input: sample.value })).hex;
  } catch (e) {
    if ((e as CallError).restarted) throw e;
    req.refError = (e as Error).message;
  }
  if (!req.refError) {
    const view = await core.call("wireView", { files: src, type, input: req.hex, encoding: "hex" });
    const f = view.fields.find((f) => f.type === "string" && !f.unknown);
    if (f) {
      const tag = varintHex(f.number * 8 + 2);
      req.probes.push({ name: `invalid UTF-8 in ${f.name ?? `field ${f.number}`}`, hex: `${req.hex} ${tag} 03 61 ff 62` });
    }
  }
  for (const p of req.probes) {
    try {
      // Text, not JSON: JSON cannot write invalid UTF-8 where the schema
      // allows it (proto2 strings), which is not a decoding error.
      await core.call("decode", { files: src, type, input: p.hex, encoding: "hex", out: "text" });
    } catch (e) {
      if ((e as CallError).restarted) throw e;
      p.refError = (e as Error).message;
    }
  }
  return req;
}

function varintHex(n: number): string {
  const out: string[] = [];
  while (n >= 0x80) {
    out.push(((n % 0x80) | 0x80).toString(16).padStart(2, "0"));
    n = Math.floor(n / 0x80);
  }
  out.push(n.toString(16).padStart(2, "0"));
  return out.join(" ");
}

function setGoMark(li: HTMLElement, state: string, title: string) {
  li.dataset.go = state;
  const mark = li.querySelector<HTMLElement>(".mark.go")!;
  mark.textContent = state === "pass" ? "✓" : state === "fail" ? "✗" : "–";
  mark.title = `the generated Go, interpreted: ${title}`;
}

// showGoCheck marks a row with the generated code's result; a failure
// opens below it: the failed steps, and the bytes around the first
// difference, reference and generated side by side.
async function showGoCheck(li: HTMLElement, res: GoCheckResult, src: Files) {
  li.nextElementSibling?.matches("[data-testid=go-check-detail]") && li.nextElementSibling.remove();
  const steps = res.steps.map((s) => s.name).join(", ");
  setGoMark(li, res.pass ? "pass" : "fail", res.pass ? `${steps}: passed (${res.goType})` : "failed");
  if (res.pass) {
    goFailed.delete(res.type);
    updateChecksBadge();
    return;
  }
  goFailed.add(res.type);
  updateChecksBadge();
  li.classList.add("go-fail");
  const detail = el("li", { class: "go-detail", "data-testid": "go-check-detail", "data-type": res.type });
  detail.append(
    el("div", { class: "go-title" }, `The generated ${res.goType}:`),
    ...res.steps.filter((s) => !s.pass).map((s) => el("div", { class: "go-step", "data-testid": "go-step", "data-step": s.name }, `${s.name}: ${s.message ?? "failed"}`)),
  );
  if (res.offset >= 0) {
    let where = "";
    try {
      const view = await core.call("wireView", { files: src, type: res.type, input: res.reference, encoding: "hex" });
      const f = fieldAt(view.fields, res.offset);
      if (f) where = ` (in field ${f.name ?? f.number}, number ${f.number}, which starts at byte ${f.offset})`;
    } catch {}
    detail.append(
      el("div", { class: "go-where", "data-testid": "diff-offset", "data-offset": String(res.offset) }, `First differing byte: ${res.offset}${where}`),
      el("div", { class: "diff" }, bytesRow("reference", res.reference, res.offset), bytesRow("generated", res.generated, res.offset)),
    );
  }
  li.after(detail);
}

// fieldAt is the innermost field of the wire view that holds byte off.
function fieldAt(fields: WireField[], off: number): WireField | undefined {
  for (const f of fields) {
    if (off >= f.offset && off < f.offset + f.length) return (f.children && fieldAt(f.children, off)) || f;
  }
  return undefined;
}

// bytesRow shows the bytes of hex around offset off (16 either side), the
// byte at off marked.
export function bytesRow(label: string, hex: string, off: number) {
  const bytes = hex.match(/../g) ?? [];
  const from = Math.max(0, off - 16);
  const to = Math.min(bytes.length, off + 17);
  const cells: (HTMLElement | string)[] = [];
  if (from > 0) cells.push(el("span", { class: "more" }, `…${from} bytes `));
  for (let i = from; i < to; i++) {
    const b = el("span", { class: i === off ? "b diff-byte" : "b" }, bytes[i]);
    if (i === off) {
      b.dataset.testid = "diff-byte";
      b.dataset.offset = String(i);
    }
    cells.push(b);
  }
  if (off >= bytes.length) cells.push(el("span", { class: "b diff-byte end", "data-testid": "diff-byte", "data-offset": String(off) }, "end"));
  if (to < bytes.length) cells.push(el("span", { class: "more" }, ` …${bytes.length - to} more`));
  return el("div", { class: "bytes-row", "data-testid": `diff-${label}` }, el("span", { class: "label" }, `${label} (${bytes.length} bytes)`), el("span", { class: "hexes" }, ...cells));
}
