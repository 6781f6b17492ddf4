// The playground page. Everything that understands protobuf runs in the
// compiler Worker (../lib/client.ts, ../lib/worker.ts); this module keeps
// the session (files, options), drives the editors and renders results.
import "./style.css";
import example from "../../../testdata/example/example.proto";
import editionsExample from "../../../testdata/examples/editions.proto";
import fleetExample from "../../../testdata/examples/fleet.proto";
import proto2Example from "../../../testdata/examples/proto2.proto";
import serviceExample from "../../../testdata/examples/service.proto";
import { ChangeSet, EditorState, Prec, type StateEffect } from "@codemirror/state";
import { EditorView, keymap } from "@codemirror/view";
import type { CheckResult, CompileResult, Declaration, Diagnostic, FileChange, GeneratedFile, SymbolsResult, WireField } from "../lib/api.gen";
import type { Files } from "../lib/common";
import { CallError, compileWasm, Core, type HeldFile } from "../lib/client";
import { goExtensions, protoExtensions, showDiagnostics, spanOf, viewerExtensions } from "../lib/editor";
import { rangeOf, symbolHelp } from "../lib/symbols";
import { Latest } from "../lib/latest";
import type { FetchInfo } from "../lib/messages";
import { initAbout, setCoreVersion } from "./about";
import { GoRunner, interpFiles, interpOptions, optionValue, templateProgram, TimeLimitError, type GoCheckResult, type Probe, type TypeRef } from "./interp";
import { PayloadPanel } from "./payload";
import { ChangesPanel } from "./changes";
import { decodeState, encodeState, type SessionState } from "./share";
import { byId, copyText, debounce, el, notice, toast } from "./ui";
import { unzip, zip } from "./zip";
import { fromBase64, isDescriptorSetName, setFileNames, toBase64 } from "../lib/descset";

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
const callTimeoutMs = Number(params.get("timeout")) || 10_000;
// A compile stops itself a second before the Worker would be replaced, so
// that the core keeps what it printed (its caches) and the next compile
// continues from there (see compile).
const compileDeadlineMs = Math.max(callTimeoutMs - 1000, callTimeoutMs / 2);
const core = new Core({
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

// The interpreter, started after the first compile is on screen (see
// goChecks). ?breakcheck=TYPE breaks TYPE's generated Marshal before it is
// interpreted (a test hook: that type's check must turn red); ?runlimit=MS
// sets the Run tab's time limit.
const breakType = params.get("breakcheck") ?? "";
const runLimitMs = Number(params.get("runlimit")) || 10_000;
const runner = new GoRunner({
  url: new URL(__INTERP_WASM_URL__, import.meta.url),
  size: __INTERP_WASM_SIZE__,
  newWorker: () => new Worker(new URL(__WORKER_URL__, import.meta.url), { type: "module", name: "protoplay interpreter" }),
  onReady() {
    if (!stats.interpReadyMs) stats.interpReadyMs = performance.now();
  },
  onFatal(message) {
    goChecksNotRun(`the interpreter failed (${message})`);
  },
});

// ---- Session: files in tabs, generator options.

interface FileEntry {
  name: string;
  state: EditorState;
  diags: Diagnostic[];
  // binary is a descriptor set's bytes in base64 (a file named *.binpb,
  // *.pb, *.protoset or *.desc): read-only, its editor showing what it
  // holds, and the core sent the base64.
  binary?: string;
  // scroll is where the editor was scrolled when another file was shown:
  // coming back to the file shows the same place.
  scroll?: StateEffect<unknown>;
}

let files: FileEntry[] = [];
let active!: FileEntry;
let options = "";
const edits = new Latest(); // every change that needs a recompile begins one
let editAt = 0; // performance.now() of the oldest edit not yet compiled

const editor = new EditorView({ parent: byId("editor") });
const onEdit = () => {
  clearTimeout(staleTimer);
  edits.supersede();
  payload.invalidate();
  if (!editAt) editAt = performance.now();
  compileSoon();
  saveSoon();
};

// symbols are the last good compile's declarations and references, for
// the editor's hover and go-to-definition (../lib/symbols.ts).
let symbols: SymbolsResult | null = null;
const help = symbolHelp({
  file: () => active.name,
  symbols: () => symbols,
  goto: (d: Declaration) => gotoDeclaration(d),
  open: (name: string) => openImported(name),
});

// openImported shows the workspace's file an import names (F12 or
// Ctrl/⌘-click on the import's path), keeping the way back as go to
// definition does; false when the workspace has no such file.
function openImported(name: string): boolean {
  const f = files.find((f) => f.name === name);
  if (!f) {
    toast(`${name} is not a file of the workspace${/^google\//.test(name) ? " (a built-in file)" : ""}`);
    return false;
  }
  const from = active;
  back.push(here());
  forward.length = 0;
  selectFile(f, 0);
  if (f !== from) toast(`${isMac ? "⌃-" : "Alt+←"} goes back to ${from.name}`, { label: "Back", run: () => void goBack() });
  return true;
}

// Go to definition keeps where it left (back) and where Back left
// (forward): Alt+← (⌃- on a Mac) returns to the place before the jump, in
// its file, scrolled as it was; Alt+→ (⌃⇧- on a Mac) goes forward again.
// A place is its file and the cursor; a deleted file's places are skipped.
interface Place {
  file: FileEntry;
  pos: number;
  scroll: StateEffect<unknown>;
}
const back: Place[] = [];
const forward: Place[] = [];

function here(): Place {
  return { file: active, pos: editor.state.selection.main.head, scroll: editor.scrollSnapshot() };
}

function gotoDeclaration(d: Declaration) {
  const f = files.find((f) => f.name === d.file);
  if (!f || d.line < 1) {
    toast(`${d.name} is declared in ${d.file}, a built-in file`);
    return;
  }
  const from = active;
  back.push(here());
  forward.length = 0;
  selectFile(f);
  const pos = rangeOf(editor.state.doc, d).from;
  editor.dispatch({ selection: { anchor: pos }, effects: EditorView.scrollIntoView(pos, { y: "center" }) });
  editor.focus();
  if (f !== from) toast(`${d.name.slice(d.name.lastIndexOf(".") + 1)} is in ${f.name}; ${isMac ? "⌃-" : "Alt+←"} goes back to ${from.name}`, { label: "Back", run: () => void goBack() });
}

// goBack and goForward move through the places of go to definition;
// false when there is none (the key then does what it does in the editor).
function goBack(): boolean {
  return travel(back, forward);
}
function goForward(): boolean {
  return travel(forward, back);
}
function travel(from: Place[], to: Place[]): boolean {
  let p: Place | undefined;
  while ((p = from.pop()) && !files.includes(p.file));
  if (!p) return false;
  to.push(here());
  selectFile(p.file);
  const pos = Math.min(p.pos, editor.state.doc.length);
  editor.dispatch({ selection: { anchor: pos }, effects: p.scroll });
  editor.focus();
  return true;
}
const isMac = /Mac|iPhone|iPad/.test(navigator.platform);
const travelKeys = Prec.high(
  keymap.of([
    { key: "Alt-ArrowLeft", mac: "Ctrl--", run: goBack },
    { key: "Alt-ArrowRight", mac: "Ctrl-Shift--", run: goForward },
  ]),
);

function newFile(name: string, text: string): FileEntry {
  if (isDescriptorSetName(name)) return newSetFile(name, text);
  return { name, state: EditorState.create({ doc: text, extensions: [protoExtensions(onEdit), help, travelKeys] }), diags: [] };
}

// newSetFile is the entry of a descriptor set, b64 its bytes in base64:
// read-only, showing the files it holds.
function newSetFile(name: string, b64: string): FileEntry {
  const bytes = fromBase64(b64);
  const names = bytes && setFileNames(bytes);
  const doc =
    `// ${name}: a descriptor set (google.protobuf.FileDescriptorSet), ${bytes?.length ?? 0} bytes, read-only.\n` +
    (names
      ? `// Its ${names.length} file${names.length === 1 ? "" : "s"} join the schema: their message types are in Encode/decode's type picker,\n// and their Go is generated with the rest. A .proto file cannot import them.\n//\n${names.map((n) => `//   ${n}\n`).join("")}`
      : "// These bytes are not a FileDescriptorSet; the compiler says where.\n");
  const state = EditorState.create({ doc, extensions: [EditorState.readOnly.of(true), EditorView.editable.of(false), travelKeys] });
  return { name, state, diags: [], binary: b64 };
}

function sources(): Files {
  active.state = editor.state;
  const out: Files = {};
  for (const f of files) out[f.name] = f.binary ?? f.state.doc.toString();
  return out;
}

function selectFile(f: FileEntry, pos?: number) {
  if (active && active !== f) {
    active.state = editor.state;
    active.scroll = editor.scrollSnapshot();
  }
  if (active !== f) {
    active = f;
    editor.setState(f.state);
    if (f.scroll && pos === undefined) editor.dispatch({ effects: f.scroll });
    applyDiagnostics(f);
  }
  if (pos !== undefined) {
    editor.dispatch({ selection: { anchor: pos }, scrollIntoView: true });
    editor.focus();
  }
  renderFileTabs();
  tabOf.get(f)?.scrollIntoView({ block: "nearest", inline: "nearest" });
  saveSoon();
}

// The tabs are kept, one element per file, and updated in place: a
// re-render while a name is being typed (a compile returning) must not
// take the box away, and the first click of a double-click must not
// replace the tab the second click lands on.
const fileTabs = byId("file-tabs");
const tabOf = new Map<FileEntry, HTMLElement>();
let renaming: FileEntry | null = null;

function tabFor(f: FileEntry): HTMLElement {
  let tab = tabOf.get(f);
  if (!tab) {
    const close = el("span", { class: "close", role: "button", "data-testid": "close-file" }, "×");
    close.onclick = (e) => {
      e.stopPropagation();
      closeFile(f);
    };
    tab = el(
      "div",
      { role: "tab", tabindex: "0", "data-testid": "file-tab", class: "file-tab" },
      el("span", { class: "name" }),
      ...(f.binary !== undefined ? [el("span", { class: "readonly", "data-testid": "file-readonly", title: "A descriptor set: read-only" }, "read-only")] : []),
      el("span", { class: "badge bad", hidden: "" }),
      close,
    );
    tab.onclick = () => {
      if (renaming !== f) selectFile(f);
    };
    tab.ondblclick = (e) => {
      e.preventDefault();
      renameFile(f);
    };
    tab.onkeydown = (e) => {
      if (e.target !== tab) return;
      if (e.key === "Enter" || e.key === " ") selectFile(f);
      else if (e.key === "F2") renameFile(f);
      else if (e.key === "Delete" && files.length > 1) closeFile(f);
    };
    tab.oncontextmenu = (e) => {
      e.preventDefault();
      selectFile(f);
      openFilesMenu();
    };
    tabOf.set(f, tab);
  }
  tab.dataset.name = f.name;
  tab.setAttribute("aria-selected", String(f === active));
  tab.title = f.binary !== undefined ? `${f.name} — a descriptor set, read-only (double-click or F2 to rename)` : `${f.name} — double-click or F2 to rename`;
  if (renaming !== f) tab.querySelector(".name")!.textContent = f.name;
  const errs = f.diags.filter((d) => d.severity === "error").length;
  const badge = tab.querySelector<HTMLElement>(".badge")!;
  badge.textContent = String(errs);
  badge.hidden = errs === 0;
  const close = tab.querySelector<HTMLElement>(".close")!;
  close.hidden = files.length < 2;
  close.title = `Delete ${f.name}`;
  return tab;
}

function renderFileTabs() {
  for (const f of [...tabOf.keys()]) if (!files.includes(f)) tabOf.delete(f);
  const want = files.map(tabFor);
  const have = [...fileTabs.children];
  if (want.length !== have.length || want.some((t, i) => have[i] !== t)) fileTabs.replaceChildren(...want);
  byId("files-count").textContent = String(files.length);
  fileTabs.classList.toggle("overflow", fileTabs.scrollWidth > fileTabs.clientWidth + 1);
  if (menu && !menu.hidden) fillFilesMenu();
}

function closeFile(f: FileEntry) {
  const i = files.indexOf(f);
  if (i < 0 || files.length < 2) return;
  if (renaming === f) renaming = null;
  files.splice(i, 1);
  if (active === f) {
    active.state = editor.state;
    active = undefined as unknown as FileEntry;
    selectFile(files[Math.max(0, i - 1)]);
  }
  renderFileTabs();
  onEdit();
  toast(`Deleted ${f.name}`, {
    label: "Undo",
    run: () => {
      if (files.includes(f)) return;
      if (files.some((g) => g.name === f.name)) {
        toast(`There is already a file named ${f.name}`);
        return;
      }
      files.splice(Math.min(i, files.length), 0, f);
      selectFile(f);
      onEdit();
    },
  });
}

// renameFile puts a name box in f's tab. Enter (or leaving the box) keeps
// the new name, Escape the old one; a name taken by another file keeps
// the box open with the reason. Imports of the old name in every file
// are rewritten to the new one.
function renameFile(f: FileEntry) {
  if (renaming === f) return;
  if (!files.includes(f)) return;
  selectFile(f);
  const tab = tabFor(f);
  const nameEl = tab.querySelector<HTMLElement>(".name")!;
  const input = el("input", { class: "rename", value: f.name, "data-testid": "rename-file", spellcheck: "false", "aria-label": "File name" });
  renaming = f;
  nameEl.replaceChildren(input);
  tab.scrollIntoView({ block: "nearest", inline: "nearest" });
  input.focus();
  // Select the name without its extension, as editors do.
  const dot = f.name.lastIndexOf(".");
  input.setSelectionRange(f.name.lastIndexOf("/") + 1, dot > f.name.lastIndexOf("/") ? dot : f.name.length);
  const finish = (commit: boolean) => {
    if (renaming !== f) return;
    const name = input.value.trim().replace(/\\/g, "/").replace(/^\/+/, "");
    if (commit && name && name !== f.name) {
      if (files.some((g) => g !== f && g.name === name)) {
        toast(`There is already a file named ${name}`);
        input.setCustomValidity("taken");
        if (document.activeElement !== input) input.focus();
        return;
      }
      const old = f.name;
      f.name = name;
      rewriteImports(old, name);
      onEdit();
    }
    renaming = null;
    nameEl.textContent = f.name;
    renderFileTabs();
    if (document.activeElement === input || document.activeElement === document.body) editor.focus();
  };
  input.oninput = () => input.setCustomValidity("");
  input.onkeydown = (e) => {
    e.stopPropagation();
    if (e.key === "Enter") {
      e.preventDefault();
      finish(true);
    } else if (e.key === "Escape") {
      e.preventDefault();
      finish(false);
    }
  };
  input.onclick = (e) => e.stopPropagation();
  input.ondblclick = (e) => e.stopPropagation();
  input.onblur = () => finish(true);
}

// rewriteImports changes `import "old";` to `import "name";` in every file
// (the new-file template's own comment included).
function rewriteImports(old: string, name: string) {
  const re = new RegExp(`(\\bimport\\s+(?:public\\s+|weak\\s+)?")${old.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(")`, "g");
  for (const g of files) {
    const state = g === active ? editor.state : g.state;
    const text = state.doc.toString();
    const changes: { from: number; to: number; insert: string }[] = [];
    for (const m of text.matchAll(re)) {
      const from = m.index! + m[1].length;
      changes.push({ from, to: from + old.length, insert: name });
    }
    if (!changes.length) continue;
    if (g === active) editor.dispatch({ changes });
    else g.state = g.state.update({ changes }).state;
  }
}

// newFileName is the first fileN.proto not taken; the template's package
// and message are named after it, so that new files never clash.
function addFile() {
  let n = files.length + 1;
  while (files.some((f) => f.name === `file${n}.proto` || f.state.doc.toString().includes(`message File${n} `))) n++;
  const name = `file${n}.proto`;
  const base = (files[0]?.state.doc.toString().match(/^\s*package\s+([\w.]+)\s*;/m) ?? [])[1];
  const pkg = base ? `${base}.file${n}` : `file${n}`;
  const f = newFile(
    name,
    `syntax = "proto3";\n\npackage ${pkg};\n\n// Import it from another file with: import "${name}";\n// and use its message as ${pkg}.File${n}.\nmessage File${n} {\n  string note = 1;\n}\n`,
  );
  files.push(f);
  selectFile(f);
  renameFile(f);
  onEdit();
}
byId("add-file").onclick = addFile;

// placeByImports names uploaded files by the paths imports look for them
// under. A file picker gives bare names (query.proto) and a .zip of a
// repository has the repository's own folder first
// (googleapis-master/google/...), while the files import each other by
// their paths from the proto root (google/firestore/v1/query.proto): an
// uploaded file whose name is the end of an import path in the workspace
// or the upload (or whose name ends with one) takes that path, when only
// one import path fits; the other uploaded files of its folder move with
// it. workspace is the files there, name to text. Returns the list renamed and the files moved, old name to new.
function placeByImports(
  list: { name: string; content: string }[],
  workspace: Map<string, string>,
): { list: { name: string; content: string }[]; moved: [string, string][] } {
  const imports = new Set<string>();
  for (const text of [...workspace.values(), ...list.map((e) => e.content)]) {
    for (const m of text.matchAll(/\bimport\s+(?:public\s+|weak\s+)?"([^"]+)"/g)) imports.add(m[1]);
  }
  // Not the files every workspace can import (a bare status.proto is
  // not google/rpc/status.proto).
  const builtIn = /^google\/(protobuf|api|type|rpc|longrunning)\//;
  const dirOf = (n: string) => n.slice(0, n.lastIndexOf("/") + 1);
  // A move is: strip prefix `strip` from the name, then put `add` before it.
  const moves = new Map<string, { strip: string; add: string }>(); // by the folder it applies to
  for (const { name } of list) {
    if (imports.has(name)) continue;
    // A bare name goes under a folder only where no file is yet (an
    // unrelated common.proto must not replace google/.../common.proto); a
    // name that ends with a whole import path is that file.
    const fits = [...imports].filter((i) => !builtIn.test(i) && ((i.endsWith("/" + name) && !workspace.has(i)) || name.endsWith("/" + i)));
    if (fits.length !== 1) continue;
    const i = fits[0];
    const move = i.length > name.length ? { strip: "", add: i.slice(0, i.length - name.length) } : { strip: name.slice(0, name.length - i.length), add: "" };
    if (!moves.has(dirOf(name))) moves.set(dirOf(name), move);
  }
  const moved: [string, string][] = [];
  const out = list.map((e) => {
    let move = moves.get(dirOf(e.name));
    // A repository's folder stripped from one file is stripped from every
    // file under it.
    if (!move) for (const m of moves.values()) if (m.strip && e.name.startsWith(m.strip)) move = m;
    if (!move || imports.has(e.name)) return e;
    const name = move.add + e.name.slice(move.strip.length);
    if (name === e.name || !name) return e;
    moved.push([e.name, name]);
    return { name, content: e.content };
  });
  return { list: out, moved };
}

// addFiles puts uploaded or dropped files in the workspace, named by the
// paths imports look for them under (placeByImports): a file of the same
// name is replaced, others are added.
function addFiles(input: { name: string; content: string }[]) {
  if (!input.length) return;
  const { list, moved } = placeByImports(input, new Map(files.map((f) => [f.name, (f === active ? editor.state : f.state).doc.toString()])));
  let last: FileEntry | undefined;
  for (const { name, content } of list) {
    const old = files.find((f) => f.name === name);
    if (isDescriptorSetName(name)) {
      // A set is replaced whole (its entry is read-only).
      last = newSetFile(name, content);
      if (old) {
        files[files.indexOf(old)] = last;
        tabOf.get(old)?.remove();
        tabOf.delete(old);
        if (old === active) active = undefined as unknown as FileEntry;
      } else files.push(last);
      continue;
    }
    if (old) {
      if (old === active) editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: content } });
      else old.state = old.state.update({ changes: { from: 0, to: old.state.doc.length, insert: content } }).state;
      last = old;
    } else {
      last = newFile(name, content);
      files.push(last);
    }
  }
  selectFile(last!);
  onEdit();
  // Say where moved files went: one by its names, several by the folder
  // given or taken away.
  let where = "";
  if (moved.length === 1) where = ` as ${moved[0][1]}`;
  else if (moved.length) {
    const [from, to] = moved[0];
    const lost = from.endsWith(to) ? from.slice(0, from.length - to.length) : "";
    const got = to.endsWith(from) ? to.slice(0, to.length - from.length) : "";
    where = lost ? ` without their folder ${lost}` : got ? ` under ${got}` : ` at new paths`;
  }
  const what = list.length === 1 ? list[0].name : `${list.length} files`;
  toast(moved.length ? `Added ${moved.length === 1 ? moved[0][0] : what}${where}, where the imports look for ${moved.length === 1 ? "it" : "them"}` : `Added ${what}`);
}

async function readDropped(list: FileList | File[]) {
  const out: { name: string; content: string }[] = [];
  try {
    for (const file of list) {
      if (/\.zip$/i.test(file.name)) {
        const entries = await unzip(new Uint8Array(await file.arrayBuffer()), (n) => n.endsWith(".proto") && !n.startsWith("__MACOSX/"));
        if (!entries.length) toast(`${file.name} holds no .proto files`);
        out.push(...entries);
      } else if (file.size > 8 << 20) toast(`${file.name} is over 8 MiB; skipped`);
      else if (isDescriptorSetName(file.name)) out.push({ name: file.name, content: toBase64(new Uint8Array(await file.arrayBuffer())) });
      else out.push({ name: (file as File & { webkitRelativePath?: string }).webkitRelativePath || file.name, content: await file.text() });
    }
  } catch (e) {
    notice(`Could not read the dropped files: ${(e as Error).message}`);
  }
  addFiles(out);
}

const upload = el("input", { type: "file", multiple: "", accept: ".proto,.zip,.binpb,.pb,.protoset,.desc,text/plain,application/zip,application/octet-stream", hidden: "", "data-testid": "upload-input" });
document.body.append(upload);
upload.onchange = () => {
  if (upload.files) void readDropped([...upload.files]);
  upload.value = "";
};

const inputPane = document.querySelector<HTMLElement>(".pane.input")!;
let dragDepth = 0;
const hasFiles = (e: DragEvent) => !!e.dataTransfer && [...e.dataTransfer.types].includes("Files");
inputPane.addEventListener("dragenter", (e) => {
  if (!hasFiles(e)) return;
  dragDepth++;
  inputPane.classList.add("dropping");
});
inputPane.addEventListener("dragleave", () => {
  if (--dragDepth <= 0) {
    dragDepth = 0;
    inputPane.classList.remove("dropping");
  }
});
inputPane.addEventListener(
  "dragover",
  (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    e.stopPropagation(); // not CodeMirror's own drop of text
    e.dataTransfer!.dropEffect = "copy";
  },
  true,
);
inputPane.addEventListener(
  "drop",
  (e) => {
    dragDepth = 0;
    inputPane.classList.remove("dropping");
    if (!hasFiles(e)) return;
    e.preventDefault();
    e.stopPropagation();
    void readDropped([...e.dataTransfer!.files]);
  },
  true,
);

async function downloadBlob(blob: Blob, name: string) {
  const a = el("a", { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

async function downloadWorkspace() {
  const src = sources();
  await downloadBlob(await zip(Object.entries(src).map(([name, content]) => ({ name, content }))), "protoplay-workspace.zip");
}

// The files menu: every file (the list to use when the tabs overflow) and
// what can be done with them.
let menu: HTMLElement | undefined;
function fillFilesMenu() {
  const item = (label: string, testid: string, run: () => void, disabled = false) => {
    const b = el("button", { role: "menuitem", "data-testid": testid }, label);
    b.disabled = disabled;
    b.onclick = () => {
      closeFilesMenu();
      run();
    };
    return b;
  };
  menu!.replaceChildren(
    ...files.map((f) => {
      const b = item(f.name, "files-menu-file", () => selectFile(f));
      b.dataset.name = f.name;
      b.setAttribute("aria-current", String(f === active));
      const errs = f.diags.filter((d) => d.severity === "error").length;
      if (errs) b.append(el("span", { class: "badge bad" }, String(errs)));
      return b;
    }),
    el("hr"),
    item("New file", "menu-new-file", addFile),
    item(`Rename ${active.name}…`, "menu-rename", () => renameFile(active)),
    item(`Delete ${active.name}`, "menu-delete", () => closeFile(active), files.length < 2),
    item("Upload .proto or .zip…", "menu-upload", () => upload.click()),
    item("Download workspace (.zip)", "menu-download-workspace", () => void downloadWorkspace()),
  );
}
function openFilesMenu() {
  if (!menu) {
    menu = el("div", { class: "menu", role: "menu", "data-testid": "files-menu", hidden: "" });
    byId("files-menu-button").after(menu);
    addEventListener("pointerdown", (e) => {
      if (menu && !menu.hidden && !menu.contains(e.target as Node) && !byId("files-menu-button").contains(e.target as Node)) closeFilesMenu();
    });
    menu.addEventListener("keydown", (e) => {
      if (e.key === "Escape") {
        closeFilesMenu();
        byId("files-menu-button").focus();
      }
    });
  }
  fillFilesMenu();
  menu.hidden = false;
  byId("files-menu-button").setAttribute("aria-expanded", "true");
  menu.querySelector<HTMLElement>("[aria-current=true]")?.focus();
}
function closeFilesMenu() {
  if (!menu) return;
  menu.hidden = true;
  byId("files-menu-button").setAttribute("aria-expanded", "false");
}
byId("files-menu-button").onclick = () => (menu && !menu.hidden ? closeFilesMenu() : openFilesMenu());
new ResizeObserver(() => fileTabs.classList.toggle("overflow", fileTabs.scrollWidth > fileTabs.clientWidth + 1)).observe(fileTabs);

// ---- Compiling: latest edit wins, one compile in flight at a time (the
// core cannot be interrupted: Go in the Worker runs to the end of a call),
// at most one waiting, and a result overtaken by an edit is not shown.

let compiling = false;
// continued counts the compiles in a row that the time limit stopped and
// that were started again at once (see compile).
let continued = 0;
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
  renderDiagnostics(r.diagnostics);
  renderFileTabs();
  const ok = !r.diagnostics.some((d) => d.severity === "error");
  showGenerated(ok ? r.generated : null, r.changes);
  if (ok) afterCompile(src, r);
  else {
    clearTimeout(followTimer);
    setStale(true);
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

// setStale says, on the panels that follow the last good schema (Checks,
// Encode/decode), whether the schema in the editor has since failed.
function setStale(stale: boolean) {
  byId("payload-stale").hidden = !stale;
  byId("checks-stale").hidden = !stale;
  document.querySelector<HTMLElement>(".tabpanel.payload")!.dataset.stale = String(stale);
  document.querySelector<HTMLElement>(".tabpanel.checks")!.dataset.stale = String(stale);
  checksBadge.classList.toggle("stale", stale);
  byId("tab-checks").title = stale ? "Checks of the last schema that compiled (the current one has errors)" : "";
  byId("tab-payload").title = stale ? "Uses the last schema that compiled (the current one has errors)" : "";
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

let generated: HeldFile[] = [];
let goShown = "";
// The rev of the Go on screen (HeldFile.rev; "" when it has none): a
// result's change to it (CompileResult.changes) updates the viewer in
// place, touching only the lines it changed. unshown composes the changes
// of results dropped since (superseded by an edit), which lead from
// viewerRev to unshownRev.
let viewerRev = "";
let unshown: ChangeSet | null = null;
let unshownRev = "";

// chainChange extends unshown by c, the core's change to the file on
// screen; false (and unshown dropped) when c does not follow it.
function chainChange(c: FileChange | undefined): boolean {
  const at = unshown ? unshownRev : viewerRev;
  if (!c?.base || !at || c.base !== at) {
    unshown = null;
    return false;
  }
  try {
    const len = unshown ? unshown.newLength : viewer.state.doc.length;
    const cs = ChangeSet.of(c.from === c.to && !c.insert ? [] : [{ from: c.from, to: c.to, insert: c.insert }], len);
    unshown = unshown ? unshown.compose(cs) : cs;
    unshownRev = c.rev;
    return true;
  } catch {
    unshown = null; // out of range: not the text on screen
    return false;
  }
}

// noteUnshown keeps the change of a dropped result to the file on screen.
function noteUnshown(changes: FileChange[] | undefined) {
  if (changes) chainChange(changes.find((c) => c.name === goShown));
}
const goOutput = byId("go-output");
const viewer = new EditorView({ parent: goOutput, state: EditorState.create({ extensions: viewerExtensions() }) });
const goTabs = byId("go-tabs");

// The Go pane is marked stale (dimmed) only when a failed compile is still
// the latest one after a pause with no edits (staleAfterMs): typing goes
// through broken schemas at nearly every keystroke, and the pane must not
// flash with each.
const staleAfterMs = 800;
let staleTimer: ReturnType<typeof setTimeout> | undefined;

function showGenerated(gen: HeldFile[] | null, changes?: FileChange[]) {
  clearTimeout(staleTimer);
  if (!gen) {
    if (!generated.length) goOutput.dataset.state = "empty";
    else
      staleTimer = setTimeout(function mark() {
        if (compiling || editAt) staleTimer = setTimeout(mark, staleAfterMs);
        else goOutput.dataset.state = "stale";
      }, staleAfterMs);
    return;
  }
  generated = gen;
  goOutput.dataset.state = gen.length ? "ok" : "empty";
  if (!gen.some((g) => g.name === goShown)) goShown = gen[0]?.name ?? "";
  renderGoTabs();
  showGoFile(goShown, true, changes?.find((c) => c.name === goShown));
}

// isServiceFile tells the files of the services= option: gRPC's
// foo_grpc.pb.go and Connect's fooconnect/foo.connect.go.
function isServiceFile(name: string): boolean {
  return name.endsWith("_grpc.pb.go") || name.endsWith(".connect.go");
}

// renderGoTabs shows one tab per generated file; with services= on, the
// service files follow the message files under a "Services" label.
function renderGoTabs() {
  const tab = (g: GeneratedFile, group: string) => {
    const b = el(
      "button",
      { role: "tab", "data-testid": "go-file-tab", "data-name": g.name, "data-group": group, "aria-selected": String(g.name === goShown), title: g.name },
      g.name.slice(g.name.lastIndexOf("/") + 1),
    );
    b.onclick = () => showGoFile(g.name, false);
    return b;
  };
  const services = generated.filter((g) => isServiceFile(g.name));
  const messages = generated.filter((g) => !isServiceFile(g.name));
  const out: HTMLElement[] = messages.map((g) => tab(g, "messages"));
  if (services.length) {
    out.unshift(el("span", { class: "group-label", "data-testid": "go-group", "data-group": "messages" }, "Messages"));
    out.push(el("span", { class: "group-label", "data-testid": "go-group", "data-group": "services", title: "gRPC and Connect code (the services option)" }, "Services"));
    out.push(...services.map((g) => tab(g, "services")));
  }
  goTabs.replaceChildren(...out);
}

// showGoFile shows the generated file name; with refresh, a new result
// of the file on screen, applying change (the core's, from the Go on
// screen to this result's) when it has one.
function showGoFile(name: string, refresh: boolean, change?: FileChange) {
  const g = generated.find((g) => g.name === name);
  const text = g?.content ?? "";
  if (name === goShown && refresh) {
    // Same file, new text: change in place so the scroll position stays
    // (and the editor re-parses only what changed).
    if (g?.rev && g.rev === viewerRev && !unshown) {
      // The same content.
    } else if (chainChange(change) && unshown!.newLength === text.length) {
      if (!unshown!.empty) viewer.dispatch({ changes: unshown! });
    } else if (viewer.state.doc.toString() !== text) viewer.dispatch({ changes: { from: 0, to: viewer.state.doc.length, insert: text } });
  } else {
    goShown = name;
    viewer.setState(EditorState.create({ doc: text, extensions: viewerExtensions() }));
    renderGoTabs();
  }
  unshown = null;
  // A rev only for text the viewer holds as it is (it would count a
  // "\r\n" as one).
  viewerRev = g?.rev && viewer.state.doc.length === text.length ? g.rev : "";
  goOutput.dataset.file = name;
}

byId("copy").onclick = async () => {
  const g = generated.find((g) => g.name === goShown);
  if (!g) return;
  await copyText(g.content);
  toast(`Copied ${g.name}`);
};

// The .zip is a Go module that builds anywhere, offline (the core's
// "module" call): go.mod, the generated files, the runtime they import
// (runtime=local) and a main.go that round-trips the type picked in
// Encode/decode (or the first one). When the packages cannot form one
// module (no shared import path prefix and no module= option), it holds
// the generated files only, and says why.
byId("download").onclick = async () => {
  if (!generated.length) return;
  const files = sources();
  let out: { name: string; content: string }[];
  try {
    out = (await core.call("module", { files, options, type: payload.type || undefined })).files;
  } catch {
    try {
      out = (await core.call("module", { files, options })).files;
    } catch (e2) {
      toast(`The .zip holds the generated files only: ${(e2 as Error).message}`);
      out = generated;
    }
  }
  // The user's Run program is the module's main.go.
  if (programTouched && out.some((f) => f.name === "main.go")) out = out.map((f) => (f.name === "main.go" ? { name: f.name, content: runEditor.state.doc.toString() } : f));
  await downloadBlob(await zip(out), "protoplay-go.zip");
};

// ---- After a good compile: checks and the payload panel, once the
// edits pause (200 ms), so a burst of typing is not slowed by them.

const payload = new PayloadPanel(core);
const changes = new ChangesPanel(core, {
  goto(file, line, column) {
    const f = files.find((x) => x.name === file);
    if (!f) return;
    selectFile(f);
    selectFile(f, spanOf(editor.state.doc, { line, column } as Diagnostic).from);
  },
});
payload.onStateChange = () => saveSoon();
// An inferred schema opens as a new file of the workspace, its message
// named apart from the types there, and is picked once it compiles.
payload.onInfer = async (inputs) => {
  const taken = new Set((lastGood?.result.messages ?? []).map((m) => m.name));
  let name = "Inferred";
  for (let i = 2; taken.has(name) || files.some((f) => f.name === snakeName(name) + ".proto"); i++) name = `Inferred${i}`;
  try {
    const r = await core.call("infer", { inputs, encoding: "hex", name });
    payload.pendingType = name;
    addFiles([{ name: r.file, content: r.content }]);
  } catch (e) {
    notice(`Could not infer a schema: ${(e as Error).message}`);
  }
};

function snakeName(s: string): string {
  return s.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}
let followTimer: ReturnType<typeof setTimeout> | undefined;
const checksList = byId("checks");
const checksBadge = byId("checks-badge");

function afterCompile(src: Files, r: CompileResult) {
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
      if (fresh()) symbols = sy;
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
function waitQuiet(): Promise<void> {
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
function goChecksNotRun(reason: string) {
  goNotRun = reason;
  goChecksStatus(`The generated Go could not be checked: ${reason}. The ✓ marks are the reference codec's (protobuf-go) only.`, "error");
  for (const li of checkRows.values()) if (li.dataset.go !== "pass" && li.dataset.go !== "fail") setGoMark(li, "error", `not run: ${reason}`);
  updateChecksBadge();
}

// ---- The generated Go, interpreted (./interp.ts): checks and the Run tab.

// lastGood is the last schema that compiled, with the options it compiled
// with.
let lastGood: { src: Files; options: string; result: CompileResult } | null = null;
let markGood!: () => void;
const firstGood = new Promise<void>((r) => (markGood = r));
let loadedTypes: TypeRef[] = [];
const goStatusEl = byId("go-checks-status");

function goChecksStatus(text: string, state: string) {
  goStatusEl.textContent = text;
  checksList.dataset.go = state;
}

// loadGenerated loads the generated Go of a compiled schema into the
// interpreter: the files on screen, unless the options place them where
// their names are not their import paths (paths=source_relative) or make
// them import a copy of the runtime (runtime=local): the core then
// generates them again for the interpreter, without those options.
// importsBundled reports whether a file of src imports a file src does
// not hold that is not a well-known type: a bundled googleapis file.
function importsBundled(src: Files): boolean {
  for (const text of Object.values(src)) {
    for (const m of text.matchAll(/^\s*import\s+(?:public\s+|weak\s+|option\s+)?"([^"]+)"/gm)) {
      if (!(m[1] in src) && !m[1].startsWith("google/protobuf/")) return true;
    }
  }
  return false;
}

async function loadGenerated(src: Files, opts: string, r: CompileResult) {
  let gen = r.generated;
  const io = interpOptions(opts);
  // The interpreter needs the Go of the bundled files the schema imports
  // (google/type/date.proto's, say) beside the schema's own.
  const imports = importsBundled(src);
  if (io !== null || imports) {
    const again = await core.call("generate", { files: src, options: io ?? opts, imports });
    gen = again.generated;
  }
  const lr = await runner.load(interpFiles(gen), optionValue(io ?? opts, "module"), breakType);
  stats.goLoadMs = lr.elapsedMs;
  const order = new Map(r.messages.map((m, i) => [m.name, i]));
  loadedTypes = [...lr.types].sort((a, b) => (order.get(a.name) ?? 1e9) - (order.get(b.name) ?? 1e9));
  return lr;
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
function bytesRow(label: string, hex: string, off: number) {
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

// ---- The Run tab: main.go, interpreted against the generated code.

let programTouched = false; // the editor holds the user's program
const runEditor = new EditorView({ parent: byId("run-editor"), state: EditorState.create({ doc: "", extensions: goExtensions(() => onProgramEdit()) }) });
let settingProgram = false;
function onProgramEdit() {
  if (settingProgram) return;
  programTouched = true;
  showDiagnostics(runEditor, []);
  saveSoon();
}

function setProgram(text: string) {
  if (runEditor.state.doc.toString() === text) return;
  settingProgram = true;
  runEditor.dispatch({ changes: { from: 0, to: runEditor.state.doc.length, insert: text } });
  settingProgram = false;
}

// isExample tells the example schema, whose Run program is
// testdata/example/main.go.
function isExample(src: Files): boolean {
  const names = Object.keys(src);
  return names.length === 1 && names[0] === "example.proto" && src["example.proto"] === example;
}

// defaultProgram is the Run program of a schema the user has written no
// program for.
function defaultProgram(): string {
  if (!lastGood) return "";
  return isExample(lastGood.src) ? __EXAMPLE_PROGRAM__ : templateProgram(loadedTypes);
}

// refreshProgram shows the schema's starting program unless the user has
// written one.
function refreshProgram() {
  if (!programTouched && lastGood) {
    if (isExample(lastGood.src)) setProgram(__EXAMPLE_PROGRAM__);
    else if (loadedTypes.length) setProgram(templateProgram(loadedTypes));
  }
}

byId("run-reset").onclick = () => {
  programTouched = false;
  setProgram(defaultProgram());
  saveSoon();
};

const runOutput = byId("run-output");
const runStatus = byId("run-status");
const runError = byId("run-error");
let running = false;

// streamOutput shows a running program's output as it is written; the
// screen is updated once a frame, however often the program writes.
const streamed = { stdout: "", stderr: "", frame: 0 };
function streamOutput(stream: "stdout" | "stderr", text: string) {
  streamed[stream] += text;
  streamed.frame ||= requestAnimationFrame(() => {
    streamed.frame = 0;
    byId("run-stdout").textContent = streamed.stdout;
    byId("run-stderr").textContent = streamed.stderr;
    byId("run-stderr").hidden = !streamed.stderr;
  });
}

async function runProgram() {
  if (running) return;
  running = true;
  if (!lastGood) {
    // Run pressed before the schema's first compile (and its checks)
    // came back: run as soon as it has.
    runOutput.dataset.state = "waiting";
    runStatus.textContent = "Waiting for the schema to compile…";
    await firstGood;
  }
  const good = lastGood!;
  byId<HTMLButtonElement>("run-program").disabled = true;
  runOutput.dataset.state = "running";
  runError.hidden = true;
  byId("run-stdout").textContent = "";
  byId("run-stderr").textContent = "";
  cancelAnimationFrame(streamed.frame);
  Object.assign(streamed, { stdout: "", stderr: "", frame: 0 });
  showDiagnostics(runEditor, []);
  if (!runner.started) stats.interpStartMs = performance.now();
  runStatus.textContent = runner.readyAt ? "Running…" : "Loading the Go interpreter…";
  try {
    const lr = await loadGenerated(good.src, good.options, good.result);
    refreshProgram();
    if (lr.error) throw new Error(`the generated Go could not be interpreted: ${lr.error.message}`);
    runStatus.textContent = "Running…";
    const t0 = performance.now();
    const r = await runner.run(runEditor.state.doc.toString(), runLimitMs, streamOutput);
    const wall = performance.now() - t0;
    cancelAnimationFrame(streamed.frame);
    streamed.frame = 0;
    byId("run-stdout").textContent = r.stdout;
    byId("run-stderr").textContent = r.stderr;
    byId("run-stderr").hidden = !r.stderr;
    if (r.error) {
      const where = (r.error.positions ?? []).map((p) => `${p.file}:${p.line}:${p.column}${p.func ? ` (in ${p.func})` : ""}`).join(", called from ");
      runError.textContent = r.panicked ? `${r.error.message}${where ? `
  at ${where}` : ""}` : r.error.message;
      runError.hidden = false;
      runError.dataset.kind = r.panicked ? "panic" : "compile";
      const marks: Diagnostic[] = (r.error.positions ?? [])
        .filter((p) => p.file === "main.go")
        .map((p) => ({ file: "main.go", line: p.line, column: p.column, severity: "error", message: r.error!.message }));
      showDiagnostics(runEditor, marks);
    }
    runOutput.dataset.state = r.error ? (r.panicked ? "panic" : "compile-error") : "done";
    runStatus.textContent = `${r.error ? (r.panicked ? "Panicked" : "Did not compile") : "Ran"} in ${r.elapsedMs.toFixed(0)} ms (${r.loadMs.toFixed(0)} ms loading the generated code; ${wall.toFixed(0)} ms in all)`;
    runStatus.dataset.ms = String(r.elapsedMs);
  } catch (e) {
    if (e instanceof TimeLimitError) {
      // What the program printed before it was stopped stays on screen.
      cancelAnimationFrame(streamed.frame);
      streamed.frame = 0;
      byId("run-stdout").textContent = streamed.stdout;
      byId("run-stderr").textContent = streamed.stderr;
      byId("run-stderr").hidden = !streamed.stderr;
      runOutput.dataset.state = "stopped";
      runStatus.textContent = `Stopped after ${runLimitMs / 1000} s.`;
      runError.textContent = `${e.message} The time limit is ${runLimitMs / 1000} s (?runlimit=MS in the address changes it).`;
      runError.dataset.kind = "limit";
    } else {
      runOutput.dataset.state = "error";
      runStatus.textContent = "Could not run.";
      runError.textContent = (e as Error).message;
      runError.dataset.kind = "error";
    }
    runError.hidden = false;
  } finally {
    running = false;
    byId<HTMLButtonElement>("run-program").disabled = false;
  }
}
byId("run-program").onclick = () => void runProgram();

// ---- Encode/decode: the bytes on screen, through the generated Go.

const payloadGo = byId("payload-go");
const payloadGoLatest = new Latest();
payload.onBytes = (type, canonical, typed) => void payloadGoCheck(type, canonical, typed);

// payloadGoCheck runs the checks of the generated Go on the value in the
// panel (its reference encoding: Unmarshal, Marshal to the same bytes,
// Size, Clone, Equal) and, for bytes the user typed, whether the
// generated Unmarshal accepts or refuses them as the reference did. Not
// before the first compiled output (the interpreter is not loaded then).
async function payloadGoCheck(type: string, canonical: string | null, typed: { hex: string; refError: string } | null) {
  const fresh = payloadGoLatest.next();
  const good = lastGood;
  if (!good || !stats.firstCompiledMs) {
    payloadGo.hidden = true;
    return;
  }
  const req: { type: string; hex: string; refError?: string; probes: Probe[] } = { type, hex: canonical ?? "", probes: [] };
  if (canonical === null) req.refError = "the reference refused the bytes";
  if (typed) req.probes.push({ name: "your bytes", hex: typed.hex, refError: typed.refError || undefined });
  payloadGo.hidden = false;
  payloadGo.dataset.state = "running";
  payloadGo.replaceChildren("Generated Go: checking these bytes…");
  try {
    await waitQuiet();
    if (!fresh() || lastGood !== good) return;
    const lr = await loadGenerated(good.src, good.options, good.result);
    if (!fresh()) return;
    if (lr.error || !lr.types.some((t) => t.name === type)) {
      payloadGo.hidden = true;
      return;
    }
    const r = await runner.check(req);
    if (!fresh()) return;
    payloadGo.dataset.state = r.pass ? "pass" : "fail";
    const size = (r.reference.length / 2) | 0;
    const did: string[] = [];
    if (canonical !== null) did.push(`decodes the value's ${size} bytes and re-encodes them byte for byte; Size, Clone and Equal agree`);
    if (typed) did.push(typed.refError ? "refuses your bytes, as the reference does" : "accepts your bytes, as the reference does");
    payloadGo.replaceChildren(
      el("span", { class: "mark" }, r.pass ? "✓ " : "✗ "),
      r.pass ? `The generated ${r.goType} ${did.join("; it ")}.` : `The generated ${r.goType} disagrees with the reference:`,
      ...r.steps.filter((st) => !st.pass).map((st) => el("div", { class: "go-step", "data-testid": "go-step", "data-step": st.name }, `${st.name}: ${st.message ?? "failed"}`)),
    );
    if (r.offset >= 0) payloadGo.append(el("div", { class: "diff" }, bytesRow("reference", r.reference, r.offset), bytesRow("generated", r.generated, r.offset)));
  } catch (e) {
    if (!fresh()) return;
    payloadGo.dataset.state = "error";
    payloadGo.replaceChildren(`Generated Go: ${(e as Error).message}`);
  }
}

// ---- Generator options.

const optionsPanel = byId("options");
const optControls = {
  paths: byId<HTMLSelectElement>("opt-paths"),
  unknown_fields: byId<HTMLSelectElement>("opt-unknown"),
  services: byId<HTMLSelectElement>("opt-services"),
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

// isDefault tells the values a control shows as its empty "(default)".
const isDefault = (k: string, v: string) => (k === "paths" && v === "import") || (k === "unknown_fields" && v === "keep") || (k === "services" && v === "none");

function controlsFromOptions(s: string) {
  const extra: string[] = [];
  for (const c of Object.values(optControls)) c.value = "";
  const services = new Set<string>();
  for (const kv of s.split(",")) {
    if (!kv) continue;
    const [k, v = ""] = kv.split(/=(.*)/s);
    const c = (optControls as Record<string, HTMLInputElement | HTMLSelectElement>)[k];
    if (k === "services") {
      // Repeated services= values add up, as the generator reads them.
      if (v === "none") services.clear();
      else for (const x of v.split("+")) services.add(x);
      c.value = ["grpc", "connect"].filter((x) => services.has(x)).join("+");
      if (c.value === "" && services.size) extra.push(kv); // a value the select has no entry for: keep it as written
    } else if (c && !isDefault(k, v)) c.value = v;
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

// ---- Examples: each replaces the workspace (Undo brings it back).

const examples: { title: string; name: string; text: string }[] = [
  { title: "Address book (proto3)", name: "example.proto", text: example },
  { title: "Search (proto2: groups, extensions, defaults)", name: "search.proto", text: proto2Example },
  { title: "Accounts (edition 2023: features)", name: "account.proto", text: editionsExample },
  { title: "Library API (gRPC service, google/api annotations)", name: "library/v1/library.proto", text: serviceExample },
  { title: "Fleet API (large, googleapis-style, 1,700 lines)", name: "fleet/v1/fleet.proto", text: fleetExample },
];

// An example replaces the workspace; the files it replaced are kept
// (yours) until another example replaces one's own files again, and the
// Examples menu's first item brings them back, long after the Undo of the
// toast is gone. Going back keeps the example in their place when it was
// edited (the same item swaps again).
let yours: { files: FileEntry[]; active: FileEntry } | null = null;

// isExampleAsOpened tells a workspace that is one example as the menu
// opened it (nothing to keep when another replaces it).
function isExampleAsOpened(): boolean {
  return files.length === 1 && examples.some((ex) => ex.name === files[0].name && ex.text === (files[0] === active ? editor.state : files[0].state).doc.toString());
}

function replaceWorkspace(next: FileEntry[], nextActive: FileEntry) {
  active.state = editor.state;
  active.scroll = editor.scrollSnapshot();
  if (!isExampleAsOpened()) yours = { files, active };
  files = next;
  active = undefined as unknown as FileEntry;
  selectFile(nextActive);
  onEdit();
}

function openExample(ex: (typeof examples)[number]) {
  const f = newFile(ex.name, ex.text);
  const kept = yours;
  const before = { files, active };
  replaceWorkspace([f], f);
  toast(`Opened the ${ex.title.replace(/ \(.*/, "")} example`, {
    label: "Undo",
    run: () => {
      replaceWorkspace(before.files, before.active);
      yours = kept;
    },
  });
}

function backToYours() {
  if (!yours) return;
  const { files: mine, active: mineActive } = yours;
  yours = null;
  replaceWorkspace(mine, mineActive);
}

function yoursLabel(): string {
  const names = yours!.files.map((f) => f.name.slice(f.name.lastIndexOf("/") + 1));
  return `← Back to your files (${names.length === 1 ? names[0] : `${names.length} files: ${names.slice(0, 2).join(", ")}${names.length > 2 ? ", …" : ""}`})`;
}

const examplesButton = byId("examples-button");
let examplesMenu: HTMLElement | undefined;
function closeExamples() {
  if (!examplesMenu) return;
  examplesMenu.hidden = true;
  examplesButton.setAttribute("aria-expanded", "false");
}
examplesButton.onclick = () => {
  if (!examplesMenu) {
    examplesMenu = el(
      "div",
      { class: "menu", role: "menu", "data-testid": "examples-menu", hidden: "" },
      ...examples.map((ex) => {
        const b = el("button", { role: "menuitem", "data-testid": "example-item", "data-name": ex.name }, ex.title);
        b.onclick = () => {
          closeExamples();
          openExample(ex);
        };
        return b;
      }),
    );
    examplesButton.after(examplesMenu);
    addEventListener("pointerdown", (e) => {
      if (examplesMenu && !examplesMenu.hidden && !examplesMenu.contains(e.target as Node) && e.target !== examplesButton) closeExamples();
    });
    examplesMenu.addEventListener("keydown", (e) => {
      if (e.key === "Escape") {
        closeExamples();
        examplesButton.focus();
      }
    });
  }
  if (!examplesMenu.hidden) return closeExamples();
  examplesMenu.querySelector("[data-testid=examples-yours]")?.remove();
  if (yours) {
    const b = el("button", { role: "menuitem", "data-testid": "examples-yours", title: yours.files.map((f) => f.name).join("\n") }, yoursLabel());
    b.onclick = () => {
      closeExamples();
      backToYours();
    };
    examplesMenu.prepend(b);
  }
  examplesMenu.hidden = false;
  examplesButton.setAttribute("aria-expanded", "true");
  examplesMenu.querySelector<HTMLElement>("button")?.focus();
};

// ---- Share links: the session in the URL hash.

let writtenHash = "";
async function save() {
  const s: SessionState = {
    files: files.map((f) => ({ name: f.name, text: f.binary ?? (f === active ? editor.state.doc.toString() : f.state.doc.toString()) })),
    active: active.name,
    options,
  };
  if (payload.type) s.type = payload.type;
  if (payload.touched) s.json = payload.jsonText;
  if (programTouched) s.program = runEditor.state.doc.toString();
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
  programTouched = s.program !== undefined;
  if (s.program !== undefined) setProgram(s.program);
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

// ---- Keyboard: Ctrl/Cmd+Enter compiles now (runs main.go in the Run
// tab's editor), Ctrl/Cmd+S shares. Caught
// before the editors see them (CodeMirror binds Mod-Enter too).

addEventListener(
  "keydown",
  (e) => {
    if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
    if (e.key === "Enter") {
      e.preventDefault();
      e.stopPropagation();
      if (runEditor.hasFocus) void runProgram();
      else run();
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
(globalThis as any).__protoplay = {
  stats,
  core,
  editor,
  viewer,
  sources: () => sources(),
  jsonText: () => payload.jsonText,
  idle: () => !compiling && !editAt, // no compile running or waiting to
  symbols: () => symbols,
  runner,
  runEditor,
};

load(location.hash);
