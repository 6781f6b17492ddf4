// The Examples menu: each example replaces the workspace (Undo, and the
// menu's first item, bring it back).
import example from "../../../testdata/example/example.proto";
import editionsExample from "../../../testdata/examples/editions.proto";
import fleetExample from "../../../testdata/examples/fleet.proto";
import proto2Example from "../../../testdata/examples/proto2.proto";
import serviceExample from "../../../testdata/examples/service.proto";
import { byId, el, toast } from "./ui";
import { type FileEntry, active, editor, files, newFile, selectFile, setActive, setFiles } from "./workspace";
import { onEdit } from "./compile";

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
  setFiles(next);
  setActive(undefined as unknown as FileEntry);
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
