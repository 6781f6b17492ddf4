// <protoplay-editor>: a .proto editor with its generated Go and, when
// asked, an encode panel (a message type's JSON -> bytes). Every element
// on a page shares the one Worker of ./index.
//
//   <protoplay-editor type="demo.Person" panels="go,encode" height="420px">
//     syntax = "proto3"; package demo; message Person { string name = 1; }
//   </protoplay-editor>
//
// Attributes: src (fetch the schema from a URL instead of the text
// content), filename (default schema.proto), type (the message type the
// encode panel shows; default the first), readonly, theme (light, dark,
// auto), height (CSS length, default 360px), panels (comma-separated: go,
// encode; default go), options (generator options, as the CLI's --opt).
// Events (bubbling, composed): "compiled" with the CompileResult as
// detail, "error" with {message, diagnostics}.
import { Compartment, EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type { CompileResult, Diagnostic } from "./api.gen";
import { jsonExtensions, protoExtensions, showDiagnostics, spanOf, viewerExtensions } from "./editor";
import { compile, encode, formatDiagnostic, ProtoplayError, sample } from "./index";
import { Latest } from "./latest";
import palette from "./palette.css";

export type { CompileResult, Diagnostic } from "./api.gen";

// The detail of the "error" event.
export interface ErrorDetail {
  message: string;
  diagnostics: Diagnostic[];
}

const css = `
${themeCSS(palette)}
:host { display: block; height: 360px; border: 1px solid var(--border); border-radius: 6px; overflow: hidden;
  background: var(--panel); color: var(--fg); font: 13px var(--sans); color-scheme: light dark; }
:host([theme=light]) { color-scheme: light; }
:host([theme=dark]) { color-scheme: dark; }
:host([hidden]) { display: none; }
* { box-sizing: border-box; }
.root { display: flex; flex-wrap: wrap; height: 100%; }
.pane { flex: 1 1 280px; min-width: 0; height: 100%; display: flex; flex-direction: column; border-left: 1px solid var(--border); }
.pane:first-child { border-left: none; }
.pane[hidden] { display: none; }
.bar { display: flex; gap: 4px; align-items: center; padding: 3px 6px; border-bottom: 1px solid var(--border);
  font-size: 12px; color: var(--muted); min-height: 26px; overflow-x: auto; white-space: nowrap; }
.bar button, .bar select { font: inherit; color: var(--fg); background: none; border: 1px solid transparent; border-radius: 4px; padding: 1px 6px; cursor: pointer; }
.bar button[aria-selected=true] { border-color: var(--border); background: var(--editor-bg); }
.bar select { border-color: var(--border); background: var(--editor-bg); max-width: 100%; }
.cm { flex: 1; min-height: 0; overflow: hidden; }
.cm .cm-editor { height: 100%; }
.go[data-state=stale] .cm { opacity: .55; }
.diags { max-height: 35%; overflow: auto; border-top: 1px solid var(--border); font: 12px var(--mono); }
.diags:empty { display: none; }
.diag { padding: 2px 8px; color: var(--bad); cursor: pointer; white-space: pre-wrap; }
.diag.warn { color: var(--warn); }
.bytes { max-height: 40%; overflow: auto; border-top: 1px solid var(--border); padding: 4px 8px; font: 12px var(--mono); word-break: break-all; }
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

const debounceMs = 250;

export class ProtoplayEditor extends HTMLElement {
  static observedAttributes = ["src", "type", "readonly", "height", "panels", "options", "filename"];

  // result is the last successful compile.
  result: CompileResult | undefined;
  private root: ShadowRoot;
  private editor?: EditorView;
  private viewer?: EditorView;
  private json?: EditorView;
  private readonlyConf = new Compartment();
  private goPane!: HTMLElement;
  private encodePane!: HTMLElement;
  private tabs!: HTMLElement;
  private diagList!: HTMLElement;
  private typeSelect!: HTMLSelectElement;
  private bytesOut!: HTMLElement;
  private activeFile = 0;
  private timer?: ReturnType<typeof setTimeout>;
  private jsonTimer?: ReturnType<typeof setTimeout>;
  private latest = new Latest(); // of compiles
  private started = false;

  constructor() {
    super();
    this.root = this.attachShadow({ mode: "open" });
  }

  // value is the schema's text.
  get value(): string {
    return this.editor?.state.doc.toString() ?? "";
  }
  set value(text: string) {
    if (!this.editor) return;
    this.editor.dispatch({ changes: { from: 0, to: this.editor.state.doc.length, insert: text } });
  }

  // goText is the generated Go on show.
  get goText(): string {
    return this.viewer?.state.doc.toString() ?? "";
  }

  connectedCallback() {
    if (this.started) return;
    this.started = true;
    this.render();
    // Upgraded before the parser reached the end of the element (a
    // classic script above it): its text comes with DOMContentLoaded.
    if (document.readyState === "loading" && !this.hasAttribute("src"))
      document.addEventListener("DOMContentLoaded", () => this.load(), { once: true });
    else this.load();
  }

  attributeChangedCallback(name: string, old: string | null, now: string | null) {
    if (!this.started || old === now) return;
    switch (name) {
      case "src":
        this.load();
        break;
      case "readonly":
        this.editor?.dispatch({ effects: this.readonlyConf.reconfigure(readonlyExt(now !== null)) });
        break;
      case "height":
        this.applyLayout();
        break;
      case "panels":
        this.applyLayout();
        this.schedule(0);
        break;
      case "type":
        this.refreshTypes();
        break;
      default:
        this.schedule(0);
    }
  }

  private render() {
    this.root.innerHTML = `<style>${css}</style>
<div class="root" part="root">
  <div class="pane schema" part="schema"><div class="bar"><span class="filename"></span></div><div class="cm"></div><div class="diags" role="list"></div></div>
  <div class="pane go" part="go"><div class="bar" role="tablist"></div><div class="cm"></div></div>
  <div class="pane encode" part="encode"><div class="bar"><select aria-label="message type"></select></div><div class="cm"></div><div class="bytes" aria-live="polite"></div></div>
</div>`;
    const q = <T extends HTMLElement>(s: string) => this.root.querySelector<T>(s)!;
    this.goPane = q(".go");
    this.encodePane = q(".encode");
    this.tabs = q(".go .bar");
    this.diagList = q(".diags");
    this.typeSelect = q<HTMLSelectElement>(".encode select");
    this.bytesOut = q(".bytes");
    this.editor = new EditorView({
      root: this.root,
      parent: q(".schema .cm"),
      state: EditorState.create({
        doc: "",
        extensions: [protoExtensions(() => this.schedule(debounceMs)), this.readonlyConf.of(readonlyExt(this.hasAttribute("readonly")))],
      }),
    });
    this.viewer = new EditorView({ root: this.root, parent: q(".go .cm"), state: EditorState.create({ extensions: viewerExtensions() }) });
    this.typeSelect.onchange = () => this.showSample();
    this.applyLayout();
  }

  private applyLayout() {
    const panels = (this.getAttribute("panels") ?? "go").split(/[\s,]+/);
    this.goPane.hidden = !panels.includes("go");
    this.encodePane.hidden = !panels.includes("encode");
    this.style.height = this.getAttribute("height") ?? "";
    if (!this.encodePane.hidden && !this.json) {
      this.json = new EditorView({
        root: this.root,
        parent: this.encodePane.querySelector<HTMLElement>(".cm")!,
        state: EditorState.create({
          extensions: jsonExtensions(() => {
            clearTimeout(this.jsonTimer);
            this.jsonTimer = setTimeout(() => this.encodeJSON(), debounceMs);
          }),
        }),
      });
    }
  }

  private async load() {
    let text: string;
    const src = this.getAttribute("src");
    if (src) {
      try {
        const r = await fetch(new URL(src, document.baseURI));
        if (!r.ok) throw new Error(`HTTP ${r.status}`);
        text = await r.text();
      } catch (e: any) {
        this.fail({ message: `fetching ${src}: ${e?.message ?? e}`, diagnostics: [] });
        return;
      }
    } else text = dedent(this.textContent ?? "");
    this.editor!.dispatch({ changes: { from: 0, to: this.editor!.state.doc.length, insert: text } });
    this.schedule(0);
  }

  private filename(): string {
    return this.getAttribute("filename") || "schema.proto";
  }

  private schedule(ms: number) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), ms);
  }

  private async run() {
    const fresh = this.latest.next();
    const name = this.filename();
    this.root.querySelector(".filename")!.textContent = name;
    const files = { [name]: this.value };
    const generate = !this.goPane.hidden;
    try {
      const r = await compile(files, { options: this.getAttribute("options") ?? "", generate });
      if (!fresh()) return;
      this.result = r;
      this.showDiagnostics(r.diagnostics);
      if (generate) this.showGo(r);
      this.refreshTypes();
      this.dispatchEvent(new CustomEvent<CompileResult>("compiled", { detail: r, bubbles: true, composed: true }));
    } catch (e: any) {
      if (!fresh()) return;
      const diagnostics: Diagnostic[] = e instanceof ProtoplayError ? e.diagnostics : [];
      this.showDiagnostics(diagnostics);
      if (diagnostics.length === 0) this.showMessage(String(e?.message ?? e));
      this.goPane.dataset.state = "stale";
      this.fail({ message: String(e?.message ?? e), diagnostics });
    }
  }

  private fail(detail: ErrorDetail) {
    this.dispatchEvent(new CustomEvent<ErrorDetail>("error", { detail, bubbles: true, composed: true }));
  }

  private showGo(r: CompileResult) {
    this.goPane.dataset.state = "ok";
    if (this.activeFile >= r.generated.length) this.activeFile = 0;
    this.tabs.replaceChildren(
      ...r.generated.map((f, i) => {
        const b = document.createElement("button");
        b.textContent = f.name.split("/").pop()!;
        b.title = f.name;
        b.setAttribute("role", "tab");
        b.setAttribute("aria-selected", String(i === this.activeFile));
        b.onclick = () => {
          this.activeFile = i;
          this.showGo(r);
        };
        return b;
      }),
    );
    const text = r.generated[this.activeFile]?.content ?? "";
    const v = this.viewer!;
    if (v.state.doc.toString() !== text) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: text } });
  }

  private showDiagnostics(diags: Diagnostic[]) {
    const view = this.editor!;
    showDiagnostics(view, diags.filter((d) => d.file === this.filename() || !d.file));
    this.diagList.replaceChildren(
      ...diags.map((d) => {
        const e = document.createElement("div");
        e.className = d.severity === "error" ? "diag" : "diag warn";
        e.setAttribute("role", "listitem");
        e.textContent = formatDiagnostic(d);
        e.onclick = () => {
          if (d.line < 1) return;
          view.dispatch({ selection: { anchor: spanOf(view.state.doc, d).from }, scrollIntoView: true });
          view.focus();
        };
        return e;
      }),
    );
  }

  private showMessage(msg: string) {
    const e = document.createElement("div");
    e.className = "diag";
    e.textContent = msg;
    this.diagList.replaceChildren(e);
  }

  private refreshTypes() {
    if (this.encodePane.hidden || !this.result) return;
    const names = this.result.messages.map((m) => m.name);
    const want = this.getAttribute("type");
    const cur = want && names.includes(want) ? want : names.includes(this.typeSelect.value) ? this.typeSelect.value : names[0];
    const same = this.typeSelect.options.length === names.length && names.every((n, i) => this.typeSelect.options[i].value === n);
    if (!same) {
      this.typeSelect.replaceChildren(...names.map((n) => new Option(n, n)));
    }
    const changed = this.typeSelect.value !== cur || !same || !this.json?.state.doc.length;
    if (cur) this.typeSelect.value = cur;
    if (changed) this.showSample();
    else this.encodeJSON();
  }

  private async showSample() {
    const type = this.typeSelect.value;
    if (!type || !this.json) return;
    try {
      const v = await sample({ [this.filename()]: this.value }, type);
      const text = JSON.stringify(JSON.parse(v), null, 2);
      this.json.dispatch({ changes: { from: 0, to: this.json.state.doc.length, insert: text } });
      this.encodeJSON();
    } catch (e: any) {
      this.showBytes(String(e?.message ?? e), true);
    }
  }

  private async encodeJSON() {
    const type = this.typeSelect.value;
    if (!type || !this.json) return;
    try {
      const r = await encode({ [this.filename()]: this.value }, type, this.json.state.doc.toString());
      this.showBytes(`${r.size} bytes\nhex ${r.hex}\nbase64 ${r.base64}`, false);
    } catch (e: any) {
      this.showBytes(String(e?.message ?? e), true);
    }
  }

  private showBytes(text: string, bad: boolean) {
    this.bytesOut.textContent = text;
    this.bytesOut.style.whiteSpace = "pre-wrap";
    this.bytesOut.classList.toggle("bad", bad);
  }
}

function readonlyExt(on: boolean) {
  return [EditorState.readOnly.of(on), EditorView.editable.of(!on)];
}

// dedent removes the indentation an HTML author gives the element's text.
function dedent(s: string): string {
  const lines = s.replace(/^\s*\n/, "").replace(/\s+$/, "").split("\n");
  const indents = lines.filter((l) => l.trim()).map((l) => l.match(/^[ \t]*/)![0].length);
  const n = indents.length ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(n)).join("\n") + "\n";
}

if (!customElements.get("protoplay-editor")) customElements.define("protoplay-editor", ProtoplayEditor);

declare global {
  interface HTMLElementTagNameMap {
    "protoplay-editor": ProtoplayEditor;
  }
  interface HTMLElementEventMap {
    compiled: CustomEvent<CompileResult>;
  }
}
