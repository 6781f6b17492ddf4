// One-click fixes: a diagnostic's suggested edits (Diagnostic.fixes, the
// compiler's "consider inserting a `;`", "delete this `,`") as a "Fix"
// button beside it in the problems list, and as an action in the editor's
// lint tooltip on its mark. Clicking either applies the first
// fix's edits to the file's editor as one change (one Undo takes it back),
// which compiles again as any edit does.
import type { Diagnostic, Edit, Fix } from "../lib/api.gen";
import type { EditorView } from "@codemirror/view";
import type { Action } from "@codemirror/lint";
import type { Text } from "@codemirror/state";
import { byteColumnToOffset } from "../lib/editor";
import { el } from "./ui";

// FixHost is what a fix needs of the page: open(name) shows the file in
// the editor and returns the editor's view (null when there is no such
// file, or it is read-only); compiled(name) is the file's text as the
// compile that reported the diagnostic read it.
export interface FixHost {
  open(name: string): EditorView | null;
  compiled(name: string): string | undefined;
}

// fixOf returns the diagnostic's fix that the page can apply in one click:
// its first, when all its edits are in one file; undefined otherwise.
export function fixOf(d: Diagnostic): Fix | undefined {
  const f = d.fixes?.[0];
  if (!f || f.edits.length === 0) return undefined;
  const file = f.edits[0].file;
  return f.edits.every((e) => e.file === file) ? f : undefined;
}

// fixButton returns the "Fix" button for d, or null when it has no fix
// the page can apply.
export function fixButton(d: Diagnostic, host: FixHost): HTMLButtonElement | null {
  const fix = fixOf(d);
  if (!fix) return null;
  const b = el("button", { class: "fix", "data-testid": "diagnostic-fix", title: describe(fix), "aria-label": `Fix: ${fix.title}` }, "Fix");
  b.onclick = () => {
    if (!applyFix(fix, host)) {
      // The text moved since the compile that suggested it: the next
      // compile (already on its way after the edit) brings fresh fixes.
      b.disabled = true;
      b.title = "The file changed since this was suggested; the next compile suggests again";
    }
  };
  return b;
}

// fixActions returns the lint tooltip's action for d's fix (see fixOf),
// or undefined when it has none: "Fix: " and the fix's title, like the
// button's label. When the file changed since the compile, it does
// nothing: the compile on its way brings fresh marks and actions.
export function fixActions(d: Diagnostic, host: FixHost): Action[] | undefined {
  const fix = fixOf(d);
  if (!fix) return undefined;
  return [{ name: `Fix: ${fix.title}`, markClass: "pp-fix-action", apply: () => void applyFix(fix, host) }];
}

// applyFix applies fix's edits in the editor, as one transaction, when the
// file is still the text they were computed on; it reports whether it did.
export function applyFix(fix: Fix, host: FixHost): boolean {
  const name = fix.edits[0].file;
  const view = host.open(name);
  if (!view || view.state.doc.toString() !== host.compiled(name)) return false;
  const doc = view.state.doc;
  const specs = fix.edits.map((e) => ({ from: offsetOf(doc, e.line, e.column), to: offsetOf(doc, e.endLine, e.endColumn), insert: e.text }));
  const changes = view.state.changes(specs);
  // The cursor goes after the last edit's text.
  const anchor = changes.mapPos(Math.max(...specs.map((c) => c.to)), 1);
  view.dispatch({ changes, selection: { anchor }, userEvent: "input.fix", scrollIntoView: true });
  view.focus();
  return true;
}

// offsetOf is the document offset of a 1-based line and 1-based column in
// UTF-8 bytes (an Edit's position).
function offsetOf(doc: Text, line: number, column: number): number {
  const l = doc.line(Math.max(1, Math.min(line, doc.lines)));
  return l.from + byteColumnToOffset(l.text, column);
}

// describe says what the fix does, for the button's tooltip: its title and
// each edit.
function describe(fix: Fix): string {
  return [fix.title, ...fix.edits.map(editText)].join("\n");
}

function editText(e: Edit): string {
  const at = `${e.file}:${e.line}:${e.column}`;
  if (e.offset === e.endOffset) return `${at}: insert ${JSON.stringify(e.text)}`;
  if (e.text === "") return `${at}: delete ${e.endOffset - e.offset} bytes`;
  return `${at}: replace ${e.endOffset - e.offset} bytes with ${JSON.stringify(e.text)}`;
}
