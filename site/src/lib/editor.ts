// CodeMirror 6 set-ups for the kinds of editor of the page and the
// <protoplay-editor> element: the .proto editor, the read-only Go viewer,
// the Go editor (the Run program) and the JSON editor; and the schema's diagnostics as marks in the .proto
// editor. Colours are CSS variables (palette.css), so light and dark
// follow prefers-color-scheme without rebuilding any editor.
import { defaultKeymap, history, historyKeymap, indentWithTab, toggleComment } from "@codemirror/commands";
import {
  bracketMatching,
  foldGutter,
  foldKeymap,
  HighlightStyle,
  indentOnInput,
  indentUnit,
  StreamLanguage,
  syntaxHighlighting,
  type StringStream,
} from "@codemirror/language";
import { go } from "@codemirror/legacy-modes/mode/go";
import { json } from "@codemirror/legacy-modes/mode/javascript";
import { lintGutter, setDiagnostics, type Action, type Diagnostic as Mark } from "@codemirror/lint";
import { highlightSelectionMatches, searchKeymap } from "@codemirror/search";
import { EditorState, type Extension, type Text } from "@codemirror/state";
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
} from "@codemirror/view";
import { tags as t } from "@lezer/highlight";
import type { Diagnostic } from "./api.gen";
import { messageNode } from "./diagdetails";

// The protobuf language: proto2, proto3 and editions. The legacy mode in
// @codemirror/legacy-modes predates oneof, map, edition and block
// comments, so this one is written here.
const keywords = new Set(
  (
    "syntax edition package import public weak option message enum service rpc returns stream oneof map " +
    "extend extensions reserved to max group optional required repeated"
  ).split(" "),
);
const scalars = new Set(
  "double float int32 int64 uint32 uint64 sint32 sint64 fixed32 fixed64 sfixed32 sfixed64 bool string bytes".split(" "),
);
const constants = new Set("true false inf nan".split(" "));

interface ProtoState {
  depth: number; // open braces
  inComment: boolean;
  after: string; // the previous keyword, to tell declarations apart
}

export const protoLanguage = StreamLanguage.define<ProtoState>({
  name: "protobuf",
  startState: () => ({ depth: 0, inComment: false, after: "" }),
  copyState: (s) => ({ ...s }),
  token(stream: StringStream, s: ProtoState): string | null {
    if (s.inComment) {
      if (stream.skipTo("*/")) {
        stream.match("*/");
        s.inComment = false;
      } else stream.skipToEnd();
      return "blockComment";
    }
    if (stream.eatSpace()) return null;
    if (stream.match("//")) {
      stream.skipToEnd();
      return "lineComment";
    }
    if (stream.match("/*")) {
      s.inComment = true;
      return "blockComment";
    }
    if (stream.match(/^"(?:[^"\\]|\\.)*"?/) || stream.match(/^'(?:[^'\\]|\\.)*'?/)) return "string";
    if (stream.match(/^[-+]?(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)/)) return "number";
    const w = stream.match(/^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*/) as RegExpMatchArray | null;
    if (w) {
      const word = w[0];
      const prev = s.after;
      s.after = "";
      if (keywords.has(word)) {
        s.after = word;
        return "keyword";
      }
      if (scalars.has(word)) return "typeName";
      if (constants.has(word)) return "atom";
      if (prev === "message" || prev === "enum" || prev === "service" || prev === "oneof" || prev === "rpc")
        return "definition";
      if (stream.match(/^\s*=/, false)) return "propertyName";
      return /^[A-Z]/.test(word.slice(word.lastIndexOf(".") + 1)) || word.includes(".") ? "typeName" : "variableName";
    }
    if (stream.match(/^\.[A-Za-z_]/, false)) {
      stream.next();
      return null;
    }
    const c = stream.next();
    if (c === "{") s.depth++;
    else if (c === "}") s.depth = Math.max(0, s.depth - 1);
    s.after = "";
    return c === "{" || c === "}" ? "brace" : c === "=" ? "operator" : "punctuation";
  },
  indent(s: ProtoState, textAfter: string, cx) {
    const closing = /^\s*}/.test(textAfter) ? 1 : 0;
    return Math.max(0, s.depth - closing) * cx.unit;
  },
  languageData: { commentTokens: { line: "//", block: { open: "/*", close: "*/" } }, indentOnInput: /^\s*}$/ },
  tokenTable: {
    lineComment: t.lineComment,
    blockComment: t.blockComment,
    definition: t.definition(t.typeName),
    propertyName: t.propertyName,
    brace: t.brace,
  },
});

const goLanguage = StreamLanguage.define(go);
// The legacy JavaScript mode styles a JSON member name "string property";
// lezer's tags have no "property" (CodeMirror warned of it on every page),
// so it maps to propertyName.
const jsonLanguage = StreamLanguage.define({ ...json, tokenTable: { property: t.propertyName } });

const highlight = HighlightStyle.define([
  { tag: [t.keyword, t.modifier, t.controlKeyword, t.operatorKeyword, t.definitionKeyword], color: "var(--hl-keyword)" },
  { tag: [t.typeName, t.className, t.standard(t.typeName)], color: "var(--hl-type)" },
  { tag: [t.definition(t.typeName), t.definition(t.variableName), t.function(t.variableName)], color: "var(--hl-def)", fontWeight: "600" },
  { tag: [t.string, t.special(t.string)], color: "var(--hl-string)" },
  { tag: [t.number, t.atom, t.bool, t.null], color: "var(--hl-number)" },
  { tag: [t.comment, t.lineComment, t.blockComment], color: "var(--hl-comment)", fontStyle: "italic" },
  { tag: [t.propertyName], color: "var(--hl-property)" },
  { tag: [t.operator, t.punctuation, t.brace], color: "var(--hl-punct)" },
]);

const theme = EditorView.theme({
  "&": { height: "100%", fontSize: "13px", color: "var(--fg)", backgroundColor: "var(--editor-bg)" },
  ".cm-scroller": { fontFamily: "var(--mono)", lineHeight: "1.5" },
  ".cm-content": { caretColor: "var(--fg)" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--fg)" },
  "&.cm-focused": { outline: "none" },
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection":
    { backgroundColor: "var(--selection)" },
  ".cm-gutters": { backgroundColor: "var(--editor-bg)", color: "var(--muted)", border: "none" },
  ".cm-activeLine": { backgroundColor: "var(--active-line)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--active-line)" },
  ".cm-matchingBracket": { backgroundColor: "var(--selection)", outline: "none" },
  ".cm-tooltip": { backgroundColor: "var(--panel)", color: "var(--fg)", border: "1px solid var(--border)" },
  ".cm-panels": { backgroundColor: "var(--panel)", color: "var(--fg)" },
  ".cm-searchMatch": { backgroundColor: "var(--search-match)" },
  // A diagnostic's notes and help in its lint tooltip (diagdetails.ts).
  ".pp-detail": { whiteSpace: "pre-wrap", color: "var(--muted)", paddingLeft: "1em" },
  ".pp-detail-kind": { fontWeight: "600" },
});

const common: Extension = [theme, syntaxHighlighting(highlight), highlightSpecialChars(), drawSelection(), EditorState.tabSize.of(2)];

// protoExtensions is the .proto editor: editable, linted, with history.
export function protoExtensions(onChange: () => void): Extension {
  return [
    common,
    lineNumbers(),
    lintGutter(),
    foldGutter(),
    highlightActiveLine(),
    highlightActiveLineGutter(),
    history(),
    indentOnInput(),
    indentUnit.of("  "),
    bracketMatching(),
    highlightSelectionMatches(),
    protoLanguage,
    keymap.of([
      ...defaultKeymap,
      ...historyKeymap,
      ...searchKeymap,
      ...foldKeymap,
      indentWithTab,
      { key: "Mod-/", run: toggleComment },
    ]),
    EditorView.updateListener.of((u) => {
      if (u.docChanged) onChange();
    }),
    EditorView.contentAttributes.of({ "aria-label": ".proto source", autocapitalize: "off", autocorrect: "off" }),
  ];
}

// viewerExtensions is the read-only generated Go.
export function viewerExtensions(): Extension {
  return [
    common,
    lineNumbers(),
    foldGutter(),
    goLanguage,
    EditorState.readOnly.of(true),
    EditorView.editable.of(false),
    EditorView.contentAttributes.of({ tabindex: "0", "aria-label": "generated Go" }),
    keymap.of([...searchKeymap, ...foldKeymap, { key: "Mod-a", run: selectAllInView }]),
  ];
}

// goExtensions is an editable Go file (the page's Run program).
export function goExtensions(onChange: () => void): Extension {
  return [
    common,
    lineNumbers(),
    lintGutter(),
    foldGutter(),
    highlightActiveLine(),
    highlightActiveLineGutter(),
    history(),
    indentOnInput(),
    indentUnit.of("\t"),
    bracketMatching(),
    goLanguage,
    keymap.of([...defaultKeymap, ...historyKeymap, ...searchKeymap, ...foldKeymap, indentWithTab, { key: "Mod-/", run: toggleComment }]),
    EditorView.updateListener.of((u) => {
      if (u.docChanged) onChange();
    }),
    EditorView.contentAttributes.of({ "aria-label": "main.go", autocapitalize: "off", autocorrect: "off" }),
  ];
}

// jsonExtensions is the payload panel's JSON editor.
export function jsonExtensions(onChange: () => void): Extension {
  return [
    common,
    lineNumbers(),
    history(),
    bracketMatching(),
    indentOnInput(),
    jsonLanguage,
    keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
    EditorView.updateListener.of((u) => {
      if (u.docChanged && u.transactions.some((tr) => tr.isUserEvent("input") || tr.isUserEvent("delete") || tr.isUserEvent("undo") || tr.isUserEvent("redo")))
        onChange();
    }),
    EditorView.contentAttributes.of({ "aria-label": "message as JSON", autocapitalize: "off", autocorrect: "off" }),
  ];
}

function selectAllInView(v: EditorView): boolean {
  v.dispatch({ selection: { anchor: 0, head: v.state.doc.length } });
  return true;
}

export function languageFor(name: string): Extension {
  return name.endsWith(".go") ? goLanguage : protoLanguage;
}

// showDiagnostics marks diagnostics (those of the file in view, whose
// line is known) in view; an empty list clears the marks. A mark's
// tooltip shows the diagnostic's message, then its notes and help
// (diagdetails.ts); actions, when given, returns the buttons its tooltip
// offers (the page's suggested edits).
export function showDiagnostics(view: EditorView, diagnostics: Diagnostic[], actions?: (d: Diagnostic) => Action[] | undefined) {
  const doc = view.state.doc;
  const marks: Mark[] = [];
  for (const d of diagnostics) {
    if (d.line < 1) continue;
    // A note (where a missing ';' belongs) is CodeMirror's "info".
    const mark: Mark = { ...spanOf(doc, d), severity: d.severity === "note" ? "info" : d.severity, message: d.message, source: "protoplay" };
    if (messageNode(d)) mark.renderMessage = () => messageNode(d)!;
    const acts = actions?.(d);
    if (acts?.length) mark.actions = acts;
    marks.push(mark);
  }
  view.dispatch(setDiagnostics(view.state, marks));
}

// spanOf turns a diagnostic's byte-based line:column (and end, when
// known) into document offsets; with no end, it marks the word at the
// position, or the character before the end of the line. A line past the
// end of doc is taken as its last line.
export function spanOf(doc: Text, d: Diagnostic): { from: number; to: number } {
  const line = doc.line(Math.max(1, Math.min(d.line, doc.lines)));
  const from = line.from + byteColumnToOffset(line.text, d.column || 1);
  let to = from;
  if (d.endLine && d.endLine <= doc.lines) {
    const end = doc.line(d.endLine);
    to = end.from + byteColumnToOffset(end.text, d.endColumn || 1);
  }
  if (to <= from) {
    const rest = line.text.slice(from - line.from);
    const m = rest.match(/^(\w+|\S)/);
    to = from + (m ? m[0].length : 0);
    if (to === from && from > line.from) return { from: from - 1, to: from };
  }
  return { from, to };
}

// byteColumnToOffset converts a 1-based column counted in UTF-8 bytes, as
// the compiler reports it, to a 0-based UTF-16 offset into line.
export function byteColumnToOffset(line: string, col: number): number {
  let bytes = 0;
  let i = 0;
  while (i < line.length && bytes < col - 1) {
    const cp = line.codePointAt(i)!;
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    i += cp > 0xffff ? 2 : 1;
  }
  return i;
}

// What the element (element.ts) needs of CodeMirror besides the set-ups
// above: it imports this module only when it first shows, so CodeMirror
// loads lazily.
export { Compartment, EditorState } from "@codemirror/state";
export { EditorView } from "@codemirror/view";
