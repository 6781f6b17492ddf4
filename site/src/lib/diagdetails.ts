// What a diagnostic says besides its message: the other places it points
// at (Diagnostic.spans: "previously used here"), its notes and its help,
// in the order the CLI prints them (compiler/diag's Details). The editor's
// lint tooltip (editor.ts) and the page's problems list show them.
import type { Diagnostic, Span } from "./api.gen";

// Detail is one line of a diagnostic's explanation: a note (with the span
// it is about, when it names another place) or a piece of help.
export interface Detail {
  kind: "note" | "help";
  text: string;
  span?: Span;
}

// detailsOf returns d's details: its spans' notes, then its notes, then
// its help; empty when it has none.
export function detailsOf(d: Diagnostic): Detail[] {
  const out: Detail[] = [];
  for (const span of d.spans ?? []) out.push({ kind: "note", text: (span.message ?? "").replace(/^note: /, ""), span });
  for (const text of d.notes ?? []) out.push({ kind: "note", text });
  for (const text of d.help ?? []) out.push({ kind: "help", text });
  return out;
}

// whereOf is a span's place as the CLI prints it, "file:line:col".
export function whereOf(s: Span): string {
  return `${s.file}:${s.line}:${s.column}`;
}

// detailNode renders one detail as an element of the tag given:
// "note: [file:line:col: ]text" (the kind in a span of class
// "pp-detail-kind"), its class "pp-detail note" or "pp-detail help". A
// note wrapped on several lines keeps its line breaks (CSS pre-wrap).
export function detailNode(x: Detail, tag = "div"): HTMLElement {
  const e = document.createElement(tag);
  e.className = `pp-detail ${x.kind}`;
  const kind = document.createElement("span");
  kind.className = "pp-detail-kind";
  kind.textContent = `${x.kind}: `;
  e.append(kind, (x.span ? `${whereOf(x.span)}: ` : "") + x.text);
  return e;
}

// messageNode renders a diagnostic for the editor's lint tooltip: its
// message, then each detail on a line of its own; undefined when it has no
// details (the tooltip then shows the message as text).
export function messageNode(d: Diagnostic): HTMLElement | undefined {
  const details = detailsOf(d);
  if (details.length === 0) return undefined;
  const e = document.createElement("div");
  e.className = "pp-diag-message";
  const msg = document.createElement("div");
  msg.textContent = d.message;
  e.append(msg, ...details.map((x) => detailNode(x)));
  return e;
}
