// The session's files in tabs, the schema editor and its go to
// definition (back and forward), renaming, new and deleted files.
import { EditorState, Prec, type StateEffect } from "@codemirror/state";
import { EditorView, keymap } from "@codemirror/view";
import type { Declaration, Diagnostic, SymbolsResult } from "../lib/api.gen";
import type { Files } from "../lib/common";
import { protoExtensions } from "../lib/editor";
import { rangeOf, symbolHelp } from "../lib/symbols";
import { byId, el, toast } from "./ui";
import { fromBase64, isDescriptorSetName, setFileNames } from "../lib/descset";
import { fillFilesMenu, menu, openFilesMenu } from "./filesmenu";
import { onEdit } from "./compile";
import { applyDiagnostics } from "./diagnostics";
import { saveSoon } from "./sharelink";

// ---- Session: files in tabs, generator options.

export interface FileEntry {
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

export let files: FileEntry[] = [];
export let active!: FileEntry;
export let options = "";

// The other modules change the session through these (an imported
// binding cannot be assigned).
export function setFiles(f: FileEntry[]) {
  files = f;
}
export function setActive(f: FileEntry) {
  active = f;
}
export function setOptions(s: string) {
  options = s;
}

export const editor = new EditorView({ parent: byId("editor") });

// symbols are the last good compile's declarations and references, for
// the editor's hover and go-to-definition (../lib/symbols.ts).
export let symbols: SymbolsResult | null = null;
export function setSymbols(s: SymbolsResult | null) {
  symbols = s;
}
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

export function newFile(name: string, text: string): FileEntry {
  if (isDescriptorSetName(name)) return newSetFile(name, text);
  return { name, state: EditorState.create({ doc: text, extensions: [protoExtensions(onEdit), help, travelKeys] }), diags: [] };
}

// newSetFile is the entry of a descriptor set, b64 its bytes in base64:
// read-only, showing the files it holds.
export function newSetFile(name: string, b64: string): FileEntry {
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

export function sources(): Files {
  active.state = editor.state;
  const out: Files = {};
  for (const f of files) out[f.name] = f.binary ?? f.state.doc.toString();
  return out;
}

export function selectFile(f: FileEntry, pos?: number) {
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
export const tabOf = new Map<FileEntry, HTMLElement>();
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

export function renderFileTabs() {
  for (const f of [...tabOf.keys()]) if (!files.includes(f)) tabOf.delete(f);
  const want = files.map(tabFor);
  const have = [...fileTabs.children];
  if (want.length !== have.length || want.some((t, i) => have[i] !== t)) fileTabs.replaceChildren(...want);
  byId("files-count").textContent = String(files.length);
  fileTabs.classList.toggle("overflow", fileTabs.scrollWidth > fileTabs.clientWidth + 1);
  if (menu && !menu.hidden) fillFilesMenu();
}

export function closeFile(f: FileEntry) {
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
export function renameFile(f: FileEntry) {
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
export function addFile() {
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

new ResizeObserver(() => fileTabs.classList.toggle("overflow", fileTabs.scrollWidth > fileTabs.clientWidth + 1)).observe(fileTabs);
