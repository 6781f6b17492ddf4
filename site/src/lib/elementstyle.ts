// The styles and markup of <protoplay-editor> (./element.ts), and the
// text helper it reads its schema with.
import palette from "./palette.css";

const css = `
${themeCSS(palette)}
:host { display: block; height: 360px; border: 1px solid var(--border); border-radius: 6px; overflow: hidden;
  background: var(--panel); color: var(--fg); font: 13px var(--sans); color-scheme: light dark; }
:host([theme=light]) { color-scheme: light; }
:host([theme=dark]) { color-scheme: dark; }
:host([hidden]) { display: none; }
* { box-sizing: border-box; }
.root { display: flex; height: 100%; }
.root.stacked { flex-direction: column; height: auto; }
.pane { flex: 1 1 0; min-width: 0; height: 100%; display: flex; flex-direction: column; border-left: 1px solid var(--border); }
.stacked .pane { flex: none; width: 100%; border-left: none; border-top: 1px solid var(--border); }
.pane:first-child { border-left: none; border-top: none; }
.pane[hidden] { display: none; }
.bar { display: flex; gap: 4px; align-items: center; padding: 3px 6px; border-bottom: 1px solid var(--border);
  font-size: 12px; color: var(--muted); min-height: 26px; overflow-x: auto; white-space: nowrap; }
.bar .grow { flex: 1; }
.bar button, .bar select { font: inherit; color: var(--fg); background: none; border: 1px solid transparent; border-radius: 4px; padding: 1px 6px; cursor: pointer; }
.bar button[aria-selected=true] { border-color: var(--border); background: var(--editor-bg); }
.bar .copy { border-color: var(--border); }
.bar select { border-color: var(--border); background: var(--editor-bg); max-width: 100%; min-width: 0; }
.cm { flex: 1; min-height: 0; overflow: hidden; position: relative; }
.cm .cm-editor { height: 100%; }
.auto .cm { flex: none; }
.auto .cm .cm-editor { height: auto; min-height: 60px; }
.auto .pane { height: auto; }
.status { padding: 8px; color: var(--muted); font-size: 12px; }
.status:empty { display: none; }
.go[data-state=stale] .cm { opacity: .55; }
.diags { max-height: 35%; overflow: auto; border-top: 1px solid var(--border); font: 12px var(--mono); }
.diags:empty { display: none; }
.diag { padding: 2px 8px; color: var(--bad); cursor: pointer; white-space: pre-wrap; }
.diag.warn { color: var(--warn); }
.bytes { max-height: 40%; overflow: auto; border-top: 1px solid var(--border); padding: 4px 8px; font: 12px var(--mono); word-break: break-all; white-space: pre-wrap; }
.bytes:empty { display: none; }
.bytes.bad { color: var(--bad); }
`;

// themeCSS turns palette.css (:root light, then a dark media query) into
// rules for the element: the system's scheme unless theme says.
function themeCSS(p: string): string {
  const blocks = [...p.matchAll(/:root\s*{([^}]*)}/g)].map((m) => m[1]);
  const [light, dark] = [blocks[0] ?? "", blocks[1] ?? ""];
  return `:host { ${light} }
@media (prefers-color-scheme: dark) { :host(:not([theme=light])) { ${dark} } }
:host([theme=dark]) { ${dark} }`;
}

// The styles go in as a constructed stylesheet, which a Content-Security-
// Policy without 'unsafe-inline' in style-src allows (a <style> element
// would not be); one sheet for every element of the document.
let sheet: CSSStyleSheet | undefined;
export function adoptStyles(root: ShadowRoot) {
  if ("adoptedStyleSheets" in root && typeof CSSStyleSheet === "function" && "replaceSync" in CSSStyleSheet.prototype) {
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
    }
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  } else {
    const s = document.createElement("style");
    s.textContent = css;
    root.append(s);
  }
}

// dedent removes the indentation an HTML author gives the element's text.
export function dedent(s: string): string {
  const lines = s.replace(/^\s*\n/, "").replace(/\s+$/, "").split("\n");
  const indents = lines.filter((l) => l.trim()).map((l) => l.match(/^[ \t]*/)![0].length);
  const n = indents.length ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(n)).join("\n") + "\n";
}

// shellHTML is the element's panes (in its shadow root), before the
// editors are put in them.
export const shellHTML = `<div class="pane schema" part="schema"><div class="bar" role="tablist"><span class="filename"></span></div><div class="cm"></div><div class="diags" role="list"></div></div>
  <div class="pane go" part="go"><div class="bar"><span class="tabs" role="tablist"></span><span class="grow"></span><button class="copy" data-copy="go" title="Copy the Go on show">Copy</button></div><div class="status" role="status"></div><div class="cm"></div></div>
  <div class="pane encode" part="encode"><div class="bar"><select aria-label="message type"></select><span class="grow"></span><button class="copy" data-copy="hex" title="Copy the bytes as hex">Copy hex</button></div><div class="cm"></div><div class="bytes" aria-live="polite"></div></div>`;
