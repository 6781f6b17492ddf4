// Compiling: every edit begins a compile (the latest edit wins) and the
// result is shown: diagnostics, the file tabs' badges, the Go pane, then
// the checks (./checks.ts).
import type { CompileResult, Diagnostic } from "../lib/api.gen";
import type { Files } from "../lib/common";
import { CallError } from "../lib/client";
import { Latest } from "../lib/latest";
import { byId, debounce } from "./ui";
import { callTimeoutMs, compileDeadlineMs, core, stats, status } from "./boot";
import { runner } from "./interpreter";
import { active, files, options, renderFileTabs, sources } from "./workspace";
import { applyDiagnostics, renderDiagnostics } from "./diagnostics";
import { noteUnshown, showGenerated, staleTimer } from "./gopane";
import { afterCompile, checksBadge, followTimer } from "./checks";
import { payload } from "./payloadtab";
import { saveSoon } from "./sharelink";

export const edits = new Latest(); // every change that needs a recompile begins one
export let editAt = 0; // performance.now() of the oldest edit not yet compiled

export const onEdit = () => {
  clearTimeout(staleTimer);
  edits.supersede();
  payload.invalidate();
  if (!editAt) editAt = performance.now();
  compileSoon();
  saveSoon();
};

// ---- Compiling: latest edit wins, one compile in flight at a time (the
// core cannot be interrupted: Go in the Worker runs to the end of a call),
// at most one waiting, and a result overtaken by an edit is not shown.

export let compiling = false;
// continued counts the compiles in a row that the time limit stopped and
// that were started again at once (see compile).
let continued = 0;
// No delay: when idle, an edit compiles at once; edits made while a compile
// runs are taken together by the next one (see compile).
const compileSoon = debounce(() => compile(), 0);

export async function compile() {
  if (compiling) return; // the running compile starts another when it ends
  compiling = true;
  const fresh = edits.current();
  const since = editAt;
  editAt = 0;
  const src = sources();
  // The interpreter's load of the previous schema's code (seconds, for a
  // big one) would compete with this compile for the CPU: end it.
  runner.cancelLoad();
  status.textContent = continued ? "Compiling… (continuing where the time limit stopped the last try)" : "Compiling…";
  let again = false;
  try {
    const r = await core.call("generate", { files: src, options, limits: { timeoutMs: compileDeadlineMs } });
    // An edit came while it ran: its compile (started below) supersedes
    // this result, which is dropped rather than shown and replaced (its
    // change to the Go on screen is kept, for the next result's to follow).
    if (!fresh()) {
      noteUnshown(r.changes);
      return;
    }
    // The time limit stopped it: the core kept the Go it printed and the
    // files it linked, so a few more tries finish a big schema's first
    // compile; after that the notice says how to raise the limit.
    const stopped = r.diagnostics.find((d) => d.limit === "Deadline");
    if (stopped && continued < 4) {
      continued++;
      again = true;
      editAt = editAt || since;
      return;
    }
    continued = 0;
    if (stopped) stopped.message += ` (${callTimeoutMs / 1000} s; ?timeout=MS in the address raises the limit)`;
    showResult(r, src);
    stats.compiles++;
    stats.lastCompileMs = r.elapsedMs;
    if (since) stats.latencies.push(performance.now() - since);
    if (!stats.firstCompiledMs && r.generated.length) stats.firstCompiledMs = performance.now();
    if (!stats.firstOutputMs && r.generated.length) stats.firstOutputMs = stats.firstCompiledMs;
    const errs = r.diagnostics.filter((d) => d.severity === "error").length;
    const warns = r.diagnostics.filter((d) => d.severity === "warning").length;
    const ms = `${r.elapsedMs.toFixed(0)} ms`;
    const w = warns ? `, ${plural(warns, "warning")}` : "";
    status.textContent = errs ? `Compile failed: ${plural(errs, "error")}${w} (${ms})` : `Compiled in ${ms}${w}`;
    byId("status").dataset.state = errs ? "failed" : "ok";
  } catch (e) {
    const err = e as CallError;
    byId("status").dataset.state = "failed";
    if (err.restarted) {
      // The page's call limit (or memory limit) ended the Worker during
      // this compile: there is no result for the schema in the editor, so
      // it fails like a compile error (its reason as the diagnostic; the
      // Go pane and the panels marked stale). It is not tried again at
      // once: the new Worker has none of the caches that let the core's
      // own deadline continue a compile, so a retry would redo the same
      // work under the same limit. The next edit (or Ctrl/⌘+Enter)
      // compiles again.
      continued = 0;
      // The reason (the notice's) says which limit and how to raise it.
      status.textContent = `Compile failed: ${err.message.charAt(0).toLowerCase()}${err.message.slice(1)}`;
      if (fresh()) showResult({ diagnostics: [{ file: "", line: 0, column: 0, severity: "error", message: err.message, limit: err.detail?.limit }], messages: [], generated: [], elapsedMs: 0 }, src);
    } else {
      // The core rejected the request itself (bad generator options, an
      // internal error): its diagnostics, or its message as one.
      const diagnostics: Diagnostic[] = err.detail?.diagnostics ?? [{ file: "", line: 0, column: 0, severity: "error", message: err.message }];
      showResult({ diagnostics, messages: [], generated: [], elapsedMs: 0 }, src);
    }
  } finally {
    compiling = false;
    if (!fresh() || again) compile();
  }
}

function showResult(r: CompileResult, src: Files) {
  for (const f of files) f.diags = r.diagnostics.filter((d) => d.file === f.name);
  applyDiagnostics(active);
  renderDiagnostics(r.diagnostics, src);
  renderFileTabs();
  const ok = !r.diagnostics.some((d) => d.severity === "error");
  showGenerated(ok ? r.generated : null, r.changes);
  if (ok) afterCompile(src, r);
  else {
    clearTimeout(followTimer);
    setStale(true);
  }
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

// setStale says, on the panels that follow the last good schema (Checks,
// Encode/decode), whether the schema in the editor has since failed.
export function setStale(stale: boolean) {
  byId("payload-stale").hidden = !stale;
  byId("checks-stale").hidden = !stale;
  document.querySelector<HTMLElement>(".tabpanel.payload")!.dataset.stale = String(stale);
  document.querySelector<HTMLElement>(".tabpanel.checks")!.dataset.stale = String(stale);
  checksBadge.classList.toggle("stale", stale);
  byId("tab-checks").title = stale ? "Checks of the last schema that compiled (the current one has errors)" : "";
  byId("tab-payload").title = stale ? "Uses the last schema that compiled (the current one has errors)" : "";
}

export function isPrebuiltExample(): boolean {
  return options === "" && files.length === 1 && files[0].name === "example.proto" && files[0].state.doc.toString() === __PREBUILT_EXAMPLE__.source;
}

export function run() {
  compileSoon.cancel();
  edits.supersede();
  if (!editAt) editAt = performance.now();
  compile();
}
