// The playground page. Everything that understands protobuf runs in the
// compiler Worker (../lib/client.ts, ../lib/worker.ts); this module keeps
// the session (files, options), drives the editors and renders results.
import "./style.css";
import example from "../../../testdata/example/example.proto";
import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type { CheckResult, CompileResult, Diagnostic, GeneratedFile } from "../lib/api.gen";
import type { Files } from "../lib/common";
import { CallError, compileWasm, Core } from "../lib/client";
import { protoExtensions, showDiagnostics, spanOf, viewerExtensions } from "../lib/editor";
import { Latest } from "../lib/latest";
import type { FetchInfo } from "../lib/messages";
import { initAbout, setCoreVersion } from "./about";
import { PayloadPanel } from "./payload";
import { decodeState, encodeState, type SessionState } from "./share";
import { byId, copyText, debounce, el, notice, toast } from "./ui";
import { zip } from "./zip";

// Test and measurement knobs: ?timeout=MS, ?memlimit=MiB and ?gogc=N.
const params = new URLSearchParams(location.search);

// stats is read by the browser tests and the measurements in the README.
const stats = {
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
};

initAbout(byId("about"));

const status = byId("status-text");
const progress = byId<HTMLProgressElement>("progress");
function onProgress(loaded: number, total: number) {
  stats.progressEvents++;
  progress.value = Math.min(1, loaded / total);
  status.textContent =
    loaded < total
      ? `Loading the compiler… ${(loaded / 1e6).toFixed(1)} / ${(total / 1e6).toFixed(1)} MB`
      : "Starting the compiler…";
}
const core = new Core({
  module: compileWasm(
    new URL(__WASM_URL__, import.meta.url),
    __WASM_SIZE__,
    onProgress,
    "Reload the page; if that does not help, this server does not serve the playground's files as built (make site, or protoplay serve).",
  ),
  newWorker: () => new Worker(new URL(__WORKER_URL__, import.meta.url), { type: "module", name: "protoplay core" }),
  timeoutMs: Number(params.get("timeout")) || 10_000,
  memoryLimit: (Number(params.get("memlimit")) || 1024) * (1 << 20),
  raise: { timeout: "?timeout=MS in the address", memory: "?memlimit=MiB in the address" },
  env: params.get("gogc") ? { GOGC: params.get("gogc")! } : {},
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
    status.textContent = `Compiler ready in ${Math.round(ms)} ms`;
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

// ---- Session: files in tabs, generator options.

interface FileEntry {
  name: string;
  state: EditorState;
  diags: Diagnostic[];
}

let files: FileEntry[] = [];
let active!: FileEntry;
let options = "";
const edits = new Latest(); // every change that needs a recompile begins one
let editAt = 0; // performance.now() of the oldest edit not yet compiled

const editor = new EditorView({ parent: byId("editor") });
const onEdit = () => {
  edits.supersede();
  payload.invalidate();
  if (!editAt) editAt = performance.now();
  compileSoon();
  saveSoon();
};

function newFile(name: string, text: string): FileEntry {
  return { name, state: EditorState.create({ doc: text, extensions: protoExtensions(onEdit) }), diags: [] };
}

function sources(): Files {
  active.state = editor.state;
  const out: Files = {};
  for (const f of files) out[f.name] = f.state.doc.toString();
  return out;
}

function selectFile(f: FileEntry, pos?: number) {
  if (active && active !== f) active.state = editor.state;
  if (active !== f) {
    active = f;
    editor.setState(f.state);
    applyDiagnostics(f);
  }
  if (pos !== undefined) {
    editor.dispatch({ selection: { anchor: pos }, scrollIntoView: true });
    editor.focus();
  }
  renderFileTabs();
  saveSoon();
}

const fileTabs = byId("file-tabs");
function renderFileTabs() {
  const add = byId("add-file");
  fileTabs.replaceChildren(
    ...files.map((f) => {
      const errs = f.diags.filter((d) => d.severity === "error").length;
      const tab = el(
        "button",
        {
          role: "tab",
          "data-testid": "file-tab",
          "data-name": f.name,
          "aria-selected": String(f === active),
          title: `${f.name} — double-click to rename`,
        },
        el("span", { class: "name" }, f.name),
      );
      if (errs) tab.append(el("span", { class: "badge bad" }, String(errs)));
      if (files.length > 1) {
        const close = el("span", { class: "close", title: `Close ${f.name}`, "data-testid": "close-file" }, "×");
        close.onclick = (e) => {
          e.stopPropagation();
          closeFile(f);
        };
        tab.append(close);
      }
      tab.onclick = () => selectFile(f);
      tab.ondblclick = () => renameFile(f, tab);
      return tab;
    }),
    add,
  );
}

function closeFile(f: FileEntry) {
  const i = files.indexOf(f);
  files.splice(i, 1);
  if (active === f) {
    active = undefined as unknown as FileEntry;
    selectFile(files[Math.max(0, i - 1)]);
  }
  renderFileTabs();
  onEdit();
}

function renameFile(f: FileEntry, tab: HTMLElement) {
  const input = el("input", { class: "rename", value: f.name, "data-testid": "rename-file", spellcheck: "false" });
  tab.replaceChildren(input);
  input.focus();
  input.select();
  let done = false;
  const finish = (commit: boolean) => {
    if (done) return;
    done = true;
    const name = input.value.trim().replace(/^\/+/, "");
    if (commit && name && name !== f.name) {
      if (files.some((g) => g.name === name)) toast(`There is already a file named ${name}`);
      else {
        f.name = name;
        onEdit();
      }
    }
    renderFileTabs();
  };
  input.onkeydown = (e) => {
    if (e.key === "Enter") finish(true);
    if (e.key === "Escape") finish(false);
  };
  input.onblur = () => finish(true);
}

byId("add-file").onclick = () => {
  let n = files.length + 1;
  while (files.some((f) => f.name === `file${n}.proto`)) n++;
  const name = `file${n}.proto`;
  const pkg = (files[0]?.state.doc.toString().match(/^\s*package\s+([\w.]+)\s*;/m) ?? [])[1] ?? "example";
  const f = newFile(name, `syntax = "proto3";\n\npackage ${pkg};\n\n// Import it from another file with: import "${name}";\nmessage Extra {\n  string note = 1;\n}\n`);
  files.push(f);
  selectFile(f);
  renameFile(f, fileTabs.querySelector<HTMLElement>(`[data-name="${CSS.escape(name)}"]`)!);
  onEdit();
};

// ---- Compiling: latest edit wins, one compile in flight at a time.

let compiling = false;
// No delay: when idle, an edit compiles at once; edits made while a compile
// runs are taken together by the next one (see compile).
const compileSoon = debounce(() => compile(), 0);

async function compile() {
  if (compiling) return; // the running compile starts another when it ends
  compiling = true;
  const fresh = edits.current();
  const since = editAt;
  editAt = 0;
  const src = sources();
  status.textContent = "Compiling…";
  try {
    const r = await core.call("generate", { files: src, options });
    showResult(r, src);
    stats.compiles++;
    stats.lastCompileMs = r.elapsedMs;
    if (since) stats.latencies.push(performance.now() - since);
    if (!stats.firstCompiledMs && r.generated.length) stats.firstCompiledMs = performance.now();
    if (!stats.firstOutputMs && r.generated.length) stats.firstOutputMs = stats.firstCompiledMs;
    status.textContent = `Compiled in ${r.elapsedMs.toFixed(0)} ms`;
  } catch (e) {
    const err = e as CallError;
    status.textContent = err.restarted ? "Compiler restarted" : "Compile failed";
    if (!err.restarted) {
      // The core rejected the request itself (bad generator options, an
      // internal error): its diagnostics, or its message as one.
      const diagnostics: Diagnostic[] = err.detail?.diagnostics ?? [{ file: "", line: 0, column: 0, severity: "error", message: err.message }];
      showResult({ diagnostics, messages: [], generated: [], elapsedMs: 0 }, src);
    }
  } finally {
    compiling = false;
    if (!fresh()) compile();
  }
}

function showResult(r: CompileResult, src: Files) {
  for (const f of files) f.diags = r.diagnostics.filter((d) => d.file === f.name);
  applyDiagnostics(active);
  renderDiagnostics(r.diagnostics);
  renderFileTabs();
  const ok = !r.diagnostics.some((d) => d.severity === "error");
  showGenerated(ok ? r.generated : null);
  if (ok) afterCompile(src, r);
}

function isPrebuiltExample(): boolean {
  return options === "" && files.length === 1 && files[0].name === "example.proto" && files[0].state.doc.toString() === __PREBUILT_EXAMPLE__.source;
}

function applyDiagnostics(f: FileEntry) {
  showDiagnostics(editor, f.diags);
}

const diagList = byId("diagnostics");
function renderDiagnostics(ds: Diagnostic[]) {
  diagList.replaceChildren(
    ...ds.map((d) => {
      const where = d.file ? `${d.file}${d.line ? `:${d.line}:${d.column}` : ""}` : "";
      const item = el(
        "button",
        { class: `diag ${d.severity}`, "data-testid": "diagnostic", "data-line": String(d.line), "data-file": d.file },
        el("span", { class: "where" }, where),
        el("span", { class: "msg" }, d.message),
      );
      const f = files.find((f) => f.name === d.file);
      if (f && d.line > 0) {
        item.onclick = () => {
          selectFile(f);
          selectFile(f, spanOf(editor.state.doc, d).from);
        };
      } else item.disabled = true;
      return item;
    }),
  );
  diagList.hidden = ds.length === 0;
}

// ---- Generated Go: one tab per file, copy, download as zip.

let generated: GeneratedFile[] = [];
let goShown = "";
const goOutput = byId("go-output");
const viewer = new EditorView({ parent: goOutput, state: EditorState.create({ extensions: viewerExtensions() }) });
const goTabs = byId("go-tabs");

function showGenerated(gen: GeneratedFile[] | null) {
  if (!gen) {
    goOutput.dataset.state = generated.length ? "stale" : "empty";
    return;
  }
  generated = gen;
  goOutput.dataset.state = gen.length ? "ok" : "empty";
  if (!gen.some((g) => g.name === goShown)) goShown = gen[0]?.name ?? "";
  renderGoTabs();
  showGoFile(goShown, true);
}

function renderGoTabs() {
  goTabs.replaceChildren(
    ...generated.map((g) => {
      const b = el(
        "button",
        { role: "tab", "data-testid": "go-file-tab", "data-name": g.name, "aria-selected": String(g.name === goShown), title: g.name },
        g.name.slice(g.name.lastIndexOf("/") + 1),
      );
      b.onclick = () => showGoFile(g.name, false);
      return b;
    }),
  );
}

function showGoFile(name: string, refresh: boolean) {
  const g = generated.find((g) => g.name === name);
  const text = g?.content ?? "";
  if (name === goShown && refresh) {
    // Same file, new text: replace in place so the scroll position stays.
    if (viewer.state.doc.toString() !== text) viewer.dispatch({ changes: { from: 0, to: viewer.state.doc.length, insert: text } });
  } else {
    goShown = name;
    viewer.setState(EditorState.create({ doc: text, extensions: viewerExtensions() }));
    renderGoTabs();
  }
  goOutput.dataset.file = name;
}

byId("copy").onclick = async () => {
  const g = generated.find((g) => g.name === goShown);
  if (!g) return;
  await copyText(g.content);
  toast(`Copied ${g.name}`);
};

byId("download").onclick = async () => {
  if (!generated.length) return;
  const blob = await zip(generated);
  const a = el("a", { href: URL.createObjectURL(blob), download: "protoplay-go.zip" });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
};

// ---- After a good compile: checks and the payload panel, once the
// edits pause (200 ms), so a burst of typing is not slowed by them.

const payload = new PayloadPanel(core);
payload.onStateChange = () => saveSoon();
let followTimer: ReturnType<typeof setTimeout> | undefined;
const checksList = byId("checks");
const checksBadge = byId("checks-badge");

function afterCompile(src: Files, r: CompileResult) {
  clearTimeout(followTimer);
  const fresh = edits.current();
  followTimer = setTimeout(async () => {
    if (!fresh()) return;
    payload.schemaChanged(src, r.messages);
    checksList.dataset.state = "running";
    try {
      const c = await core.call("check", { files: src });
      if (!fresh()) return;
      renderChecks(c.results);
    } catch (e) {
      if (!fresh()) return;
      checksList.replaceChildren(el("li", { class: "fail" }, (e as Error).message));
      checksList.dataset.state = "error";
    }
  }, 200);
}

function renderChecks(results: CheckResult[]) {
  const failed = results.filter((r) => !r.pass).length;
  checksList.replaceChildren(
    ...results.map((r) =>
      el(
        "li",
        { class: r.pass ? "pass" : "fail", "data-testid": "check-result", "data-status": r.pass ? "pass" : "fail", "data-type": r.type },
        el("span", { class: "mark" }, r.pass ? "✓" : "✗"),
        el("span", { class: "type" }, r.type),
        el("span", { class: "detail" }, r.pass ? `${r.size} bytes` : `${r.step}${r.path ? ` at ${r.path}` : ""}: ${r.message}`),
      ),
    ),
  );
  checksList.dataset.state = "done";
  checksBadge.textContent = results.length ? (failed ? `✗ ${failed}` : `✓ ${results.length}`) : "";
  checksBadge.className = failed ? "badge bad" : "badge good";
}

// ---- Generator options.

const optionsPanel = byId("options");
const optControls = {
  paths: byId<HTMLSelectElement>("opt-paths"),
  unknown_fields: byId<HTMLSelectElement>("opt-unknown"),
  module: byId<HTMLInputElement>("opt-module"),
  default_import_prefix: byId<HTMLInputElement>("opt-prefix"),
};
const optExtra = byId<HTMLInputElement>("opt-extra");

function optionsFromControls(): string {
  const parts: string[] = [];
  for (const [k, c] of Object.entries(optControls)) if (c.value.trim()) parts.push(`${k}=${c.value.trim()}`);
  for (const p of optExtra.value.split(",")) if (p.trim()) parts.push(p.trim());
  return parts.join(",");
}

function controlsFromOptions(s: string) {
  const extra: string[] = [];
  for (const c of Object.values(optControls)) c.value = "";
  for (const kv of s.split(",")) {
    if (!kv) continue;
    const [k, v = ""] = kv.split(/=(.*)/s);
    const c = (optControls as Record<string, HTMLInputElement | HTMLSelectElement>)[k];
    if (c && !(k === "paths" && v === "import") && !(k === "unknown_fields" && v === "keep")) c.value = v;
    else if (!c) extra.push(kv);
  }
  optExtra.value = extra.join(",");
  byId("opt-string").textContent = s || "(defaults)";
}

optionsPanel.addEventListener("input", () => {
  options = optionsFromControls();
  byId("opt-string").textContent = options || "(defaults)";
  onEdit();
});

byId("options-toggle").onclick = () => {
  optionsPanel.hidden = !optionsPanel.hidden;
  byId("options-toggle").setAttribute("aria-expanded", String(!optionsPanel.hidden));
};

// ---- Output tabs and the phone layout's pane switch.

for (const b of document.querySelectorAll<HTMLButtonElement>("[data-tab]")) {
  b.onclick = () => {
    for (const o of document.querySelectorAll<HTMLButtonElement>("[data-tab]")) o.setAttribute("aria-selected", String(o === b));
    for (const p of document.querySelectorAll<HTMLElement>("[data-panel]")) p.hidden = p.dataset.panel !== b.dataset.tab;
  };
}
for (const b of document.querySelectorAll<HTMLButtonElement>("[data-pane]")) {
  b.onclick = () => {
    document.body.dataset.pane = b.dataset.pane!;
    for (const o of document.querySelectorAll<HTMLButtonElement>("[data-pane]")) o.setAttribute("aria-pressed", String(o === b));
  };
}
byId("notice").querySelector("button")!.onclick = () => (byId("notice").hidden = true);

// ---- Share links: the session in the URL hash.

let writtenHash = "";
async function save() {
  const s: SessionState = {
    files: files.map((f) => ({ name: f.name, text: f === active ? editor.state.doc.toString() : f.state.doc.toString() })),
    active: active.name,
    options,
  };
  if (payload.type) s.type = payload.type;
  if (payload.touched) s.json = payload.jsonText;
  writtenHash = await encodeState(s);
  if (location.hash !== writtenHash) history.replaceState(null, "", writtenHash);
}
const saveSoon = debounce(() => void save(), 400);

async function share() {
  saveSoon.cancel();
  await save();
  await copyText(location.href);
  toast(`Link copied (${location.href.length} characters)`);
}

async function load(hash: string) {
  let s: SessionState | null = null;
  try {
    s = await decodeState(hash);
  } catch (e) {
    notice(`This link could not be read (${(e as Error).message}); showing the example instead.`);
  }
  if (!s || !s.files.length) s = { files: [{ name: "example.proto", text: example }], active: "example.proto", options: "" };
  files = s.files.map((f) => newFile(f.name, f.text));
  options = s.options;
  controlsFromOptions(options);
  active = undefined as unknown as FileEntry;
  selectFile(files.find((f) => f.name === s.active) ?? files[0]);
  payload.restore(s.type, s.json);
  if (!stats.firstOutputMs && isPrebuiltExample()) {
    // First visit: show the example's output, generated by the same core
    // at build time, while the compiler loads; the browser's own compile
    // replaces it (with the same bytes) as soon as it is ready.
    showGenerated(__PREBUILT_EXAMPLE__.generated);
    goOutput.dataset.state = "prebuilt";
    stats.firstOutputMs = performance.now();
    stats.prebuilt = true;
  }
  edits.supersede();
  compile();
}

addEventListener("hashchange", () => {
  if (location.hash !== writtenHash) load(location.hash);
});

// ---- Keyboard: Ctrl/Cmd+Enter compiles now, Ctrl/Cmd+S shares. Caught
// before the editors see them (CodeMirror binds Mod-Enter too).

addEventListener(
  "keydown",
  (e) => {
    if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
    if (e.key === "Enter") {
      e.preventDefault();
      e.stopPropagation();
      run();
    } else if (e.key === "s" || e.key === "S") {
      e.preventDefault();
      e.stopPropagation();
      share();
    }
  },
  true,
);

function run() {
  compileSoon.cancel();
  edits.supersede();
  if (!editAt) editAt = performance.now();
  compile();
}
byId("run").onclick = run;
byId("share").onclick = () => share();

// For tests and measurements (site/e2e_test.go); not an API.
(globalThis as any).__protoplay = { stats, core, editor, viewer, sources: () => sources(), jsonText: () => payload.jsonText };

load(location.hash);
