// Editor help from the schema's symbols (the core's "symbols" call): a
// hover on a type name or a declaration shows its full name, what it is
// (for a field: number, type, wire type, tag bytes, Go name) and its
// comment; F12 or Ctrl/⌘-click on a name goes to its declaration, in
// whichever file it is; completion offers the message and enum types in
// scope (relative to the file's package, and by full name) and the
// language's keywords and scalar types.
import { autocompletion, type Completion, type CompletionContext, type CompletionResult } from "@codemirror/autocomplete";
import type { Extension, Text } from "@codemirror/state";
import { EditorView, hoverTooltip, keymap } from "@codemirror/view";
import type { Declaration, Diagnostic, SymbolsResult } from "./api.gen";
import { spanOf } from "./editor";

export interface SymbolSource {
  // file is the name of the file in the view.
  file(): string;
  // symbols are the last ones the core gave, or null.
  symbols(): SymbolsResult | null;
  // goto shows a declaration (in its file, the cursor on its name).
  goto(d: Declaration): void;
  // open shows the file an import names, when the workspace has it; false
  // when it does not (a built-in file, a missing one).
  open?(name: string): boolean;
}

// importAt is the path of the import statement's string at pos, or null.
export function importAt(doc: Text, pos: number): string | null {
  const line = doc.lineAt(pos);
  const m = /^\s*import\s+(?:public\s+|weak\s+)?"([^"]*)"/.exec(line.text);
  if (!m) return null;
  const from = line.from + m[0].length - m[1].length - 1;
  return pos >= from && pos <= from + m[1].length + 1 ? m[1] : null;
}

type Pos = { line: number; column: number; endLine: number; endColumn: number };

// rangeOf is a declaration's or reference's span in doc.
export function rangeOf(doc: Text, p: Pos): { from: number; to: number } {
  return spanOf(doc, { ...p, file: "", severity: "error", message: "" } as Diagnostic);
}

// symbolAt finds the declaration named at pos of file: a reference's
// target, or the declaration whose name is there.
export function symbolAt(doc: Text, file: string, pos: number, res: SymbolsResult): { from: number; to: number; decl: Declaration } | null {
  const byName = (n: string) => res.symbols.find((s) => s.name === n);
  for (const r of res.references) {
    if (r.file !== file || r.line > doc.lines) continue;
    const { from, to } = rangeOf(doc, r);
    if (pos >= from && pos <= to) {
      const decl = byName(r.target);
      if (decl) return { from, to, decl };
    }
  }
  for (const d of res.symbols) {
    if (d.file !== file || d.line < 1 || d.line > doc.lines) continue;
    const { from, to } = rangeOf(doc, d);
    if (pos >= from && pos <= to) return { from, to, decl: d };
  }
  return null;
}

const kindNames: Record<string, string> = { enumValue: "enum value" };

function hoverDOM(d: Declaration): HTMLElement {
  const div = document.createElement("div");
  div.className = "pp-hover";
  div.dataset.testid = "hover";
  const head = document.createElement("div");
  head.className = "pp-hover-head";
  const kind = document.createElement("b");
  kind.textContent = kindNames[d.kind] ?? d.kind;
  head.append(kind, " ", d.name);
  const detail = document.createElement("div");
  detail.className = "pp-hover-detail";
  detail.textContent = d.detail;
  div.append(head, detail);
  if (d.doc) {
    const doc = document.createElement("div");
    doc.className = "pp-hover-doc";
    doc.textContent = d.doc;
    div.append(doc);
  }
  const where = document.createElement("div");
  where.className = "pp-hover-where";
  where.textContent = d.line > 0 ? `${d.file}:${d.line} · F12 or Ctrl/⌘-click to go there` : `in ${d.file} (built in)`;
  div.append(where);
  return div;
}

const keywords = (
  "syntax edition package import public weak option message enum service rpc returns stream oneof map " +
  "extend extensions reserved to max group optional required repeated true false"
).split(" ");
const scalars = "double float int32 int64 uint32 uint64 sint32 sint64 fixed32 fixed64 sfixed32 sfixed64 bool string bytes".split(" ");

// completions lists what may be typed at the cursor: keywords, scalar
// types and the type names the last symbols know.
export function completions(res: SymbolsResult | null, text: string): Completion[] {
  const out: Completion[] = [
    ...keywords.map((k) => ({ label: k, type: "keyword" })),
    ...scalars.map((k) => ({ label: k, type: "type" })),
  ];
  if (!res) return out;
  const pkg = (text.match(/^\s*package\s+([\w.]+)\s*;/m) ?? [])[1];
  const seen = new Set<string>();
  for (const d of res.symbols) {
    if (d.kind !== "message" && d.kind !== "enum") continue;
    const detail = d.kind;
    const info = d.detail;
    if (pkg && d.name.startsWith(pkg + ".")) {
      const rel = d.name.slice(pkg.length + 1);
      if (!seen.has(rel)) out.push({ label: rel, type: "class", detail, info, boost: 2 });
      seen.add(rel);
    }
    if (!seen.has(d.name)) out.push({ label: d.name, type: "class", detail, info });
    seen.add(d.name);
  }
  return out;
}

function completionSource(src: SymbolSource) {
  return (cx: CompletionContext): CompletionResult | null => {
    const word = cx.matchBefore(/[\w.]+/);
    if (!word && !cx.explicit) return null;
    // Not inside comments or strings.
    const line = cx.state.doc.lineAt(cx.pos);
    const before = line.text.slice(0, cx.pos - line.from);
    if (/\/\//.test(before) || (before.match(/"/g) ?? []).length % 2 === 1) return null;
    return {
      from: word ? word.from : cx.pos,
      options: completions(src.symbols(), cx.state.doc.toString()),
      validFor: /^[\w.]*$/,
    };
  };
}

// symbolHelp is the hover, go-to-definition and completion of a .proto
// editor.
export function symbolHelp(src: SymbolSource): Extension {
  // gotoAt goes to what is named at pos; with click, the cursor is put at
  // pos first (a Ctrl/⌘-click: the way back returns there).
  const gotoAt = (view: EditorView, pos: number, click = false): boolean => {
    const res = src.symbols() ?? { symbols: [], references: [] };
    const hit = symbolAt(view.state.doc, src.file(), pos, res);
    // On an import's path: that file.
    const name = hit ? null : importAt(view.state.doc, pos);
    if (!hit && name === null) return false;
    const before = view.state.selection;
    if (click) view.dispatch({ selection: { anchor: pos } });
    if (hit) src.goto(hit.decl);
    else if (!src.open?.(name!)) {
      if (click) view.dispatch({ selection: before });
      return false;
    }
    return true;
  };
  return [
    autocompletion({ override: [completionSource(src)], activateOnTyping: true }),
    hoverTooltip((view, pos) => {
      const res = src.symbols();
      if (!res) return null;
      const hit = symbolAt(view.state.doc, src.file(), pos, res);
      if (!hit) return null;
      return { pos: hit.from, end: hit.to, above: true, create: () => ({ dom: hoverDOM(hit.decl) }) };
    }),
    keymap.of([{ key: "F12", run: (view) => gotoAt(view, view.state.selection.main.head) }]),
    EditorView.domEventHandlers({
      mousedown(e, view) {
        if (!(e.ctrlKey || e.metaKey) || e.button !== 0) return false;
        const pos = view.posAtCoords({ x: e.clientX, y: e.clientY });
        if (pos === null || !gotoAt(view, pos, true)) return false;
        e.preventDefault();
        return true;
      },
    }),
    EditorView.theme({
      ".pp-hover": { padding: "6px 10px", maxWidth: "36em", font: "12px/1.5 var(--mono)" },
      ".pp-hover-detail": { color: "var(--muted)" },
      ".pp-hover-doc": { marginTop: "4px", whiteSpace: "pre-wrap", fontFamily: "var(--sans, sans-serif)" },
      ".pp-hover-where": { marginTop: "4px", color: "var(--muted)", fontSize: "11px" },
    }),
  ];
}
