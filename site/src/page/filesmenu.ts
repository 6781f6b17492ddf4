// Files in and out of the workspace: upload (a picker or a drop, .proto,
// .zip or a descriptor set), placed where imports look for them; the
// workspace as a .zip; the files menu.
import { byId, el, notice, toast } from "./ui";
import { zip } from "./zip";
import { isDescriptorSetName } from "../lib/descset";
import { UPLOAD_ACCEPT, readUploads } from "./readfiles";
import { type FileEntry, active, addFile, closeFile, editor, files, newFile, newSetFile, renameFile, selectFile, setActive, sources, tabOf } from "./workspace";
import { onEdit } from "./compile";

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
export function addFiles(input: { name: string; content: string }[]) {
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
        if (old === active) setActive(undefined as unknown as FileEntry);
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
  let out: { name: string; content: string }[] = [];
  try {
    out = await readUploads(list);
  } catch (e) {
    notice(`Could not read the dropped files: ${(e as Error).message}`);
  }
  addFiles(out);
}

const upload = el("input", { type: "file", multiple: "", accept: UPLOAD_ACCEPT, hidden: "", "data-testid": "upload-input" });
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

export async function downloadBlob(blob: Blob, name: string) {
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
export let menu: HTMLElement | undefined;
export function fillFilesMenu() {
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
export function openFilesMenu() {
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
