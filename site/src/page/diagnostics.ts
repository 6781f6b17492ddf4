// The diagnostics of the last compile: in the editor (underlines) and in
// the list under it, each item going to its place.
import type { Diagnostic, Span } from "../lib/api.gen";
import type { Files } from "../lib/common";
import { showDiagnostics, spanOf } from "../lib/editor";
import { fixActions, fixButton, type FixHost } from "./fixes";
import { detailsList } from "./diagnotes";
import { byId, el } from "./ui";
import { type FileEntry, editor, files, selectFile } from "./workspace";

export function applyDiagnostics(f: FileEntry) {
  showDiagnostics(editor, f.diags, (d) => fixActions(d, fixHost));
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
      if (fileAt(d)) item.onclick = () => goTo(d);
      else item.disabled = true;
      const fix = fixButton(d, fixHost);
      const row = fix ? el("div", { class: "diag-row" }, item, fix) : item;
      // Its notes and help under it (diagnotes.ts).
      const details = detailsList(d, goTo);
      return details ? el("div", { class: "diag-entry" }, row, details) : row;
    }),
  );
  diagList.hidden = ds.length === 0;
}

// fileAt is the file of a place (a diagnostic's, or a span's) that the
// editor can show it in, if the place is known.
function fileAt(at: Diagnostic | Span): FileEntry | undefined {
  return at.line > 0 ? files.find((f) => f.name === at.file && f.binary === undefined) : undefined;
}

// goTo shows the place in the editor, opening its file.
function goTo(at: Diagnostic | Span) {
  const f = fileAt(at);
  if (!f) return;
  selectFile(f);
  selectFile(f, spanOf(editor.state.doc, at as Diagnostic).from);
}
