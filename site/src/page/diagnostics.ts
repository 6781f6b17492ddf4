// The diagnostics of the last compile: in the editor (underlines) and in
// the list under it, each item going to its place.
import type { Diagnostic } from "../lib/api.gen";
import type { Files } from "../lib/common";
import { showDiagnostics, spanOf } from "../lib/editor";
import { fixButton, type FixHost } from "./fixes";
import { byId, el } from "./ui";
import { type FileEntry, editor, files, selectFile } from "./workspace";

export function applyDiagnostics(f: FileEntry) {
  showDiagnostics(editor, f.diags);
}

const diagList = byId("diagnostics");
// A diagnostic's suggested edit is a Fix button beside it (fixes.ts): it
// applies to the file as the compile read it (diagSrc).
let diagSrc: Files = {};
const fixHost: FixHost = {
  open: (name) => {
    const f = files.find((f) => f.name === name && f.binary === undefined);
    if (f) selectFile(f);
    return f ? editor : null;
  },
  compiled: (name) => diagSrc[name],
};
export function renderDiagnostics(ds: Diagnostic[], src: Files) {
  diagSrc = src;
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
      const fix = fixButton(d, fixHost);
      return fix ? el("div", { class: "diag-row" }, item, fix) : item;
    }),
  );
  diagList.hidden = ds.length === 0;
}
