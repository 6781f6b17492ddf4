// The diagnostics of the last compile: in the editor (underlines) and in
// the list under it, each item going to its place.
import type { Diagnostic } from "../lib/api.gen";
import { showDiagnostics, spanOf } from "../lib/editor";
import { byId, el } from "./ui";
import { type FileEntry, editor, files, selectFile } from "./workspace";

export function applyDiagnostics(f: FileEntry) {
  showDiagnostics(editor, f.diags);
}

const diagList = byId("diagnostics");
export function renderDiagnostics(ds: Diagnostic[]) {
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
