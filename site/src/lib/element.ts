// <protoplay-editor>: a .proto editor with its generated Go and, when
// asked, an encode panel (a message type's JSON -> bytes). Every element
// on a page shares the one Worker of ./index.
//
//   <protoplay-editor type="demo.Person" panels="go,encode" height="420px">
//     <script type="text/x-protobuf">
//       syntax = "proto3"; package demo; message Person { map<string, int64> n = 1; }
//     </script>
//   </protoplay-editor>
//
// The schema: the value property when set before the element starts, else
// src (a URL to fetch), else its <script type="text/x-protobuf"> children
// (one per file, named by data-filename; the first is the one the editor
// opens), else a <template> child's text, else the element's own text.
// Attributes: src, filename (default schema.proto), type (the message
// type the encode panel shows; default the first), readonly, theme
// (light, dark, auto), height (CSS length, or "auto" to fit the text;
// default 360px), panels (comma-separated: go, encode; default go),
// options (generator options, as the CLI's --opt), loading ("lazy", the
// default: start when first near the viewport; "eager": at once).
// Below 560 px wide the panes stack, each the element's height.
// Events (bubbling, composed): "protoplay-input" on every change of the
// schema ({value, filename}), "compiled" (the CompileResult),
// "protoplay-encoded" when the encode panel's bytes change ({type, json,
// result}), "protoplay-error" ({message, diagnostics}).
// The module can be imported where there is no DOM (Node, SSR): it then
// defines nothing. CodeMirror is loaded when the first element starts.
import type { CompileResult, Diagnostic } from "./api.gen";
import { compile, encode, formatDiagnostic, isReady, onLoadProgress, ProtoplayError, sample } from "./index";
import { Latest } from "./latest";
import { adoptStyles, dedent, shellHTML } from "./elementstyle";
import type { EncodedDetail, ErrorDetail, InputDetail, ProtoplayEditorAttributes, ProtoplayEditorElementEventMap, ProtoplayEditorEventMap } from "./elementtypes";

export type { CompileResult, Diagnostic } from "./api.gen";
export type { EncodeResult } from "./common";
export type { EncodedDetail, ErrorDetail, InputDetail, ProtoplayEditorAttributes, ProtoplayEditorElementEventMap, ProtoplayEditorEventMap } from "./elementtypes";

type Editor = typeof import("./editor");
type View = import("./editor").EditorView;

const debounceMs = 250;
// The width below which the panes stack.
const stackBelowPx = 560;

let editorModule: Promise<Editor> | undefined;
const loadEditor = () => (editorModule ??= import("./editor"));

// HTMLElement where there is a DOM; a stand-in elsewhere, so that the
// module loads in Node (the element is then never defined).
const Base: typeof HTMLElement = typeof HTMLElement === "function" ? HTMLElement : (class {} as unknown as typeof HTMLElement);

/** <protoplay-editor>: a .proto editor with its generated Go and, on request, an encode panel. */
export class ProtoplayEditor extends Base {
  static observedAttributes = ["src", "type", "readonly", "height", "panels", "options", "filename"];

  /** Listens for the element's events ("compiled" and the "protoplay-" ones) with their details typed. */
  addEventListener<K extends keyof ProtoplayEditorElementEventMap>(
    type: K,
    listener: (this: ProtoplayEditor, ev: ProtoplayEditorElementEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: any, options?: boolean | AddEventListenerOptions): void {
    super.addEventListener(type, listener, options);
  }

  /** result is the last successful compile. */
  result: CompileResult | undefined;
  private root!: ShadowRoot;
  private cm?: Editor;
  private editor?: View;
  private viewer?: View;
  private json?: View;
  private readonlyConf?: InstanceType<Editor["Compartment"]>;
  private goPane!: HTMLElement;
  private encodePane!: HTMLElement;
  private tabs!: HTMLElement;
  private fileTabs!: HTMLElement;
  private status!: HTMLElement;
  private diagList!: HTMLElement;
  private typeSelect!: HTMLSelectElement;
  private bytesOut!: HTMLElement;
  private activeFile = 0; // generated file on show
  // The schema's files, in order; the editor shows files[schemaFile].
  private files: [string, string][] = [];
  private schemaFile = 0;
  private pendingValue?: string; // set before the editor exists
  private pendingFiles?: Record<string, string>;
  private timer?: ReturnType<typeof setTimeout>;
  private jsonTimer?: ReturnType<typeof setTimeout>;
  private latest = new Latest(); // of compiles
  private shell = false;
  private started = false;
  private disposed = false;
  private stacked = false;
  private visibility?: IntersectionObserver;
  private resize?: ResizeObserver;
  private unprogress?: () => void;
  private lastEncoded = "";

  /**
   * value is the text of the schema's first file. Set before the element
   * starts, it replaces the schema the markup gives.
   */
  get value(): string {
    if (!this.editor) return this.pendingValue ?? this.pendingFiles?.[Object.keys(this.pendingFiles)[0]] ?? "";
    this.saveSchemaFile();
    return this.files[0]?.[1] ?? "";
  }
  set value(text: string) {
    text = String(text);
    if (!this.editor) {
      this.pendingValue = text;
      this.pendingFiles = undefined;
      return;
    }
    if (this.files.length === 0) this.files = [[this.filename(), text]];
    else this.files[0][1] = text;
    if (this.schemaFile === 0) this.setDoc(this.editor, text);
    else this.schedule(0);
  }

  /**
   * schema is every file of the schema, by name (as imports name them).
   * Set, it replaces them all; the editor opens the first.
   */
  get schema(): Record<string, string> {
    if (!this.editor) return this.pendingFiles ?? { [this.filename()]: this.value };
    this.saveSchemaFile();
    return Object.fromEntries(this.files);
  }
  set schema(files: Record<string, string>) {
    if (!this.editor) {
      this.pendingFiles = { ...files };
      this.pendingValue = undefined;
      return;
    }
    this.setFiles(Object.entries(files));
  }

  /** goText is the generated Go on show. */
  get goText(): string {
    return this.viewer?.state.doc.toString() ?? "";
  }

  connectedCallback() {
    if (this.disposed) return;
    if (!this.shell) this.renderShell();
    // Re-laid out in the next frame, and only when the width crosses
    // stackBelowPx: the layout changes the element's height, which a
    // ResizeObserver must not do in its own callback.
    this.resize ??= new ResizeObserver(() => {
      if (this.stacked !== this.shouldStack()) requestAnimationFrame(() => this.applyLayout());
    });
    this.resize.observe(this);
    if (this.started) return;
    if (this.getAttribute("loading") === "eager" || typeof IntersectionObserver !== "function") {
      this.start();
      return;
    }
    this.visibility ??= new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          this.visibility?.disconnect();
          this.start();
        }
      },
      { rootMargin: "200px" },
    );
    this.visibility.observe(this);
  }

  disconnectedCallback() {
    this.resize?.disconnect();
    this.visibility?.disconnect();
  }

  /**
   * dispose ends the element for good: its editors, observers, timers and
   * listeners; it shows nothing and starts no more calls.
   */
  dispose() {
    this.disposed = true;
    this.latest.supersede();
    clearTimeout(this.timer);
    clearTimeout(this.jsonTimer);
    this.resize?.disconnect();
    this.visibility?.disconnect();
    this.unprogress?.();
    for (const v of [this.editor, this.viewer, this.json]) v?.destroy();
    this.editor = this.viewer = this.json = undefined;
    if (this.shell) this.root.replaceChildren();
  }

  attributeChangedCallback(name: string, old: string | null, now: string | null) {
    if (!this.editor || old === now) return;
    switch (name) {
      case "src":
        this.load();
        break;
      case "readonly":
        this.editor.dispatch({ effects: this.readonlyConf!.reconfigure(this.readonlyExt(now !== null)) });
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
      case "filename":
        if (this.files.length === 1) this.files[0][0] = this.filename();
        this.schedule(0);
        break;
      default:
        this.schedule(0);
    }
  }

  // renderShell lays out the panes (no editors yet: CodeMirror comes with
  // start) with the loading state.
  private renderShell() {
    this.shell = true;
    this.root = this.shadowRoot ?? this.attachShadow({ mode: "open" });
    adoptStyles(this.root);
    const root = document.createElement("div");
    root.className = "root";
    root.setAttribute("part", "root");
    root.innerHTML = shellHTML;
    this.root.append(root);
    const q = <T extends HTMLElement>(s: string) => this.root.querySelector<T>(s)!;
    this.goPane = q(".go");
    this.encodePane = q(".encode");
    this.tabs = q(".go .tabs");
    this.fileTabs = q(".schema .bar");
    this.status = q(".go .status");
    this.diagList = q(".diags");
    this.typeSelect = q<HTMLSelectElement>(".encode select");
    this.bytesOut = q(".bytes");
    for (const b of this.root.querySelectorAll<HTMLButtonElement>("button.copy")) b.onclick = () => this.copy(b);
    this.typeSelect.onchange = () => this.showSample();
    this.showLoading();
    this.applyLayout();
  }

  private showLoading() {
    if (isReady()) {
      this.status.textContent = "Compiling…";
      return;
    }
    this.status.textContent = "Loading the compiler…";
    this.unprogress = onLoadProgress((loaded, total) => {
      if (this.result || this.goPane.dataset.state) return;
      const mb = (n: number) => (n / 1e6).toFixed(1);
      this.status.textContent =
        loaded >= total && total > 0
          ? "Starting the compiler…"
          : total > 0
            ? `Loading the compiler… ${Math.floor((100 * loaded) / total)}% (${mb(loaded)} of ${mb(total)} MB)`
            : `Loading the compiler… ${mb(loaded)} MB`;
    });
  }

  private async start() {
    if (this.started || this.disposed) return;
    this.started = true;
    const cm = (this.cm = await loadEditor());
    if (this.disposed) return;
    this.readonlyConf = new cm.Compartment();
    this.editor = new cm.EditorView({
      root: this.root,
      parent: this.root.querySelector<HTMLElement>(".schema .cm")!,
      state: cm.EditorState.create({
        doc: "",
        extensions: [
          cm.protoExtensions(() => this.edited()),
          this.readonlyConf.of(this.readonlyExt(this.hasAttribute("readonly"))),
        ],
      }),
    });
    this.viewer = new cm.EditorView({
      root: this.root,
      parent: this.root.querySelector<HTMLElement>(".go .cm")!,
      state: cm.EditorState.create({ extensions: cm.viewerExtensions() }),
    });
    this.applyLayout();
    /**
     * Upgraded before the parser reached the end of the element (a
     * classic script above it): its text comes with DOMContentLoaded.
     */
    if (document.readyState === "loading" && !this.hasAttribute("src") && this.pendingValue === undefined && !this.pendingFiles)
      document.addEventListener("DOMContentLoaded", () => this.load(), { once: true });
    else this.load();
  }

  private readonlyExt(on: boolean) {
    const { EditorState, EditorView } = this.cm!;
    return [EditorState.readOnly.of(on), EditorView.editable.of(!on)];
  }

  private shouldStack(): boolean {
    const width = this.getBoundingClientRect().width;
    return width > 0 && width < stackBelowPx;
  }

  private applyLayout() {
    if (!this.shell) return;
    const panels = (this.getAttribute("panels") ?? "go").split(/[\s,]+/);
    this.goPane.hidden = !panels.includes("go");
    this.encodePane.hidden = !panels.includes("encode");
    const height = this.getAttribute("height");
    const auto = height === "auto";
    this.stacked = this.shouldStack();
    const root = this.root.querySelector<HTMLElement>(".root")!;
    root.classList.toggle("stacked", this.stacked);
    root.classList.toggle("auto", auto);
    // Stacked or auto, the element is as tall as its panes; stacked,
    // each pane is as tall as the element would be.
    this.style.height = this.stacked || auto ? "auto" : (height ?? "");
    for (const p of root.querySelectorAll<HTMLElement>(".pane"))
      p.style.height = this.stacked && !auto ? (height ?? "360px") : "";
    if (!this.encodePane.hidden && !this.json && this.cm) {
      const cm = this.cm;
      this.json = new cm.EditorView({
        root: this.root,
        parent: this.encodePane.querySelector<HTMLElement>(".cm")!,
        state: cm.EditorState.create({
          extensions: cm.jsonExtensions(() => {
            clearTimeout(this.jsonTimer);
            this.jsonTimer = setTimeout(() => this.encodeJSON(), debounceMs);
          }),
        }),
      });
    }
  }

  // load reads the schema: value or schema set earlier, src, the
  // <script type="text/x-protobuf"> children, a <template>, the text.
  private async load() {
    if (this.pendingFiles || this.pendingValue !== undefined) {
      const files: [string, string][] = this.pendingFiles ? Object.entries(this.pendingFiles) : [[this.filename(), this.pendingValue!]];
      this.pendingFiles = this.pendingValue = undefined;
      this.setFiles(files);
      return;
    }
    const src = this.getAttribute("src");
    if (src) {
      try {
        const r = await fetch(new URL(src, document.baseURI));
        if (!r.ok) throw new Error(`HTTP ${r.status}`);
        this.setFiles([[this.filename(), await r.text()]]);
      } catch (e: any) {
        this.fail({ message: `fetching ${src}: ${e?.message ?? e}`, diagnostics: [] });
      }
      return;
    }
    const scripts = [...this.querySelectorAll<HTMLScriptElement>(":scope > script[type='text/x-protobuf']")];
    if (scripts.length > 0) {
      this.setFiles(scripts.map((s, i) => [s.dataset.filename || (i === 0 ? this.filename() : `file${i}.proto`), dedent(s.textContent ?? "")]));
      return;
    }
    const template = this.querySelector<HTMLTemplateElement>(":scope > template");
    const text = template ? template.content.textContent : this.textContent;
    this.setFiles([[this.filename(), dedent(text ?? "")]]);
  }

  private setFiles(files: [string, string][]) {
    if (files.length === 0) files = [[this.filename(), ""]];
    this.files = files.map(([n, t]) => [n, t]);
    this.schemaFile = 0;
    this.showFileTabs();
    this.setDoc(this.editor!, this.files[0][1], false);
    this.schedule(0);
  }

  // saveSchemaFile copies the editor's text into files.
  private saveSchemaFile() {
    if (this.editor && this.files[this.schemaFile]) this.files[this.schemaFile][1] = this.editor.state.doc.toString();
  }

  private showFileTabs() {
    if (this.files.length <= 1) {
      const s = document.createElement("span");
      s.className = "filename";
      s.textContent = this.files[0]?.[0] ?? this.filename();
      this.fileTabs.replaceChildren(s);
      return;
    }
    this.fileTabs.replaceChildren(
      ...this.files.map(([name], i) => {
        const b = document.createElement("button");
        b.textContent = name;
        b.setAttribute("role", "tab");
        b.setAttribute("aria-selected", String(i === this.schemaFile));
        b.onclick = () => {
          this.saveSchemaFile();
          this.schemaFile = i;
          this.showFileTabs();
          this.setDoc(this.editor!, this.files[i][1], false);
          this.showDiagnostics(this.diagnostics);
        };
        return b;
      }),
    );
  }

  private quiet = false; // a doc change that is not an edit
  private setDoc(v: View, text: string, edit = true) {
    if (v.state.doc.toString() === text) return;
    this.quiet = !edit;
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: text } });
    this.quiet = false;
  }

  private edited() {
    if (this.quiet) return;
    this.saveSchemaFile();
    const [filename, value] = this.files[this.schemaFile] ?? [this.filename(), ""];
    this.dispatchEvent(new CustomEvent<InputDetail>("protoplay-input", { detail: { value, filename }, bubbles: true, composed: true }));
    this.schedule(debounceMs);
  }

  private filename(): string {
    return this.getAttribute("filename") || "schema.proto";
  }

  private schedule(ms: number) {
    clearTimeout(this.timer);
    if (this.disposed) return;
    this.timer = setTimeout(() => this.run(), ms);
  }

  private diagnostics: Diagnostic[] = [];

  private async run() {
    if (this.files.length === 0) return; // the schema is still being fetched
    const fresh = this.latest.next();
    this.saveSchemaFile();
    const files = Object.fromEntries(this.files);
    const generate = !this.goPane.hidden;
    try {
      const r = await compile(files, { options: this.getAttribute("options") ?? "", generate });
      if (!fresh() || this.disposed) return;
      this.result = r;
      this.status.textContent = "";
      this.showDiagnostics(r.diagnostics);
      if (generate) this.showGo(r);
      this.refreshTypes();
      this.dispatchEvent(new CustomEvent<CompileResult>("compiled", { detail: r, bubbles: true, composed: true }));
    } catch (e: any) {
      if (!fresh() || this.disposed) return;
      this.status.textContent = "";
      const diagnostics: Diagnostic[] = e instanceof ProtoplayError ? e.diagnostics : [];
      this.showDiagnostics(diagnostics);
      if (diagnostics.length === 0) this.showMessage(String(e?.message ?? e));
      this.goPane.dataset.state = "stale";
      this.fail({ message: String(e?.message ?? e), diagnostics });
    }
  }

  private fail(detail: ErrorDetail) {
    this.dispatchEvent(new CustomEvent<ErrorDetail>("protoplay-error", { detail, bubbles: true, composed: true }));
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
    this.setDoc(this.viewer!, r.generated[this.activeFile]?.content ?? "");
  }

  private showDiagnostics(diags: Diagnostic[]) {
    this.diagnostics = diags;
    const view = this.editor!;
    const file = this.files[this.schemaFile]?.[0];
    this.cm!.showDiagnostics(
      view,
      diags.filter((d) => d.file === file || !d.file),
    );
    this.diagList.replaceChildren(
      ...diags.map((d) => {
        const e = document.createElement("div");
        e.className = d.severity === "error" ? "diag" : "diag warn";
        e.setAttribute("role", "listitem");
        e.textContent = formatDiagnostic(d);
        e.onclick = () => {
          if (d.line < 1) return;
          const i = this.files.findIndex(([n]) => n === d.file);
          if (i >= 0 && i !== this.schemaFile) (this.fileTabs.children[i] as HTMLElement | undefined)?.click();
          view.dispatch({ selection: { anchor: this.cm!.spanOf(view.state.doc, d).from }, scrollIntoView: true });
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
      const v = await sample(this.schema, type);
      const text = JSON.stringify(JSON.parse(v), null, 2);
      this.setDoc(this.json, text);
      this.encodeJSON();
    } catch (e: any) {
      this.showBytes(String(e?.message ?? e), true);
    }
  }

  private async encodeJSON() {
    const type = this.typeSelect.value;
    if (!type || !this.json || this.disposed) return;
    const json = this.json.state.doc.toString();
    try {
      const result = await encode(this.schema, type, json);
      this.showBytes(`${result.size} bytes\nhex ${result.hex}\nbase64 ${result.base64}`, false);
      const key = `${type}\n${result.hex}`;
      if (key !== this.lastEncoded) {
        this.lastEncoded = key;
        this.dispatchEvent(new CustomEvent<EncodedDetail>("protoplay-encoded", { detail: { type, json, result }, bubbles: true, composed: true }));
      }
    } catch (e: any) {
      this.showBytes(String(e?.message ?? e), true);
    }
  }

  private showBytes(text: string, bad: boolean) {
    this.bytesOut.textContent = text;
    this.bytesOut.classList.toggle("bad", bad);
  }

  private async copy(b: HTMLButtonElement) {
    const text = b.dataset.copy === "go" ? this.goText : (/^hex (.*)$/m.exec(this.bytesOut.textContent ?? "")?.[1] ?? "");
    const label = b.textContent;
    try {
      await navigator.clipboard.writeText(text);
      b.textContent = "Copied";
    } catch {
      b.textContent = "Copy failed";
    }
    setTimeout(() => (b.textContent = label), 1200);
  }
}

if (typeof customElements !== "undefined" && !customElements.get("protoplay-editor")) customElements.define("protoplay-editor", ProtoplayEditor);

declare global {
  interface HTMLElementTagNameMap {
    "protoplay-editor": ProtoplayEditor;
  }
  interface HTMLElementEventMap extends ProtoplayEditorEventMap {}
  interface DocumentEventMap extends ProtoplayEditorEventMap {}
  interface WindowEventMap extends ProtoplayEditorEventMap {}
  // JSX's intrinsic element, for a framework with the global JSX namespace.
  namespace JSX {
    interface IntrinsicElements {
      "protoplay-editor": ProtoplayEditorAttributes;
    }
  }
}
