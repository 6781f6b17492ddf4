// The encode/decode panel: a message type, its value as JSON, the bytes as
// hex and base64, and the wire view linking the two. Editing the JSON
// encodes it; typing or pasting hex or base64 decodes it. With "raw" on,
// bytes are decoded with no schema at all.
import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type { BytesResult, CoreError, MessageInfo, ViewResult } from "../lib/api.gen";
import type { Files } from "../lib/common";
import { CallError, type Core } from "../lib/client";
import { jsonExtensions } from "../lib/editor";
import { Latest } from "../lib/latest";
import { byId, debounce } from "./ui";
import { renderWire } from "./wire";

export class PayloadPanel {
  private json: EditorView;
  private picker = byId<HTMLSelectElement>("type-picker");
  private hex = byId<HTMLTextAreaElement>("hex-input");
  private b64 = byId<HTMLTextAreaElement>("base64-input");
  private raw = byId<HTMLInputElement>("raw-toggle");
  private errBox = byId("payload-error");
  private wire = byId("wire-view");
  private files: Files | null = null; // the last schema that compiled
  private filesKey = "";
  // lastInput is where the user last typed: a new schema re-reads that
  // (re-decodes pasted bytes, or re-encodes written JSON).
  private lastInput: "json" | "hex" | "base64" = "json";
  // touched is set once the JSON holds the user's value rather than a
  // sample, so a recompile re-encodes it instead of replacing it.
  touched = false;
  private latest = new Latest(); // older answers are dropped
  onStateChange: () => void = () => {};
  // onBytes is told the bytes on screen for the type picked, after each
  // encode or decode against the schema: their reference encoding (hex of
  // the value, as the reference codec writes it), and when the user typed
  // bytes, those bytes and the reference's error decoding them ("" when
  // it decoded them). The page checks the generated Go on them.
  onBytes: (type: string, canonical: string | null, typed: { hex: string; refError: string } | null) => void = () => {};

  constructor(private core: Core) {
    this.json = new EditorView({
      parent: byId("json-editor"),
      state: EditorState.create({ doc: "", extensions: jsonExtensions(() => this.jsonEdited()) }),
    });
    const encodeSoon = debounce(() => this.encode(), 250);
    this.jsonEdited = () => {
      this.touched = true;
      this.lastInput = "json";
      this.onStateChange();
      encodeSoon();
    };
    // A new type, or the reset button: the type's sample, encoded.
    this.picker.onchange = byId("sample-reset").onclick = () => {
      this.touched = false;
      this.lastInput = "json";
      this.onStateChange();
      this.loadSample();
    };
    byId("encode").onclick = () => {
      this.lastInput = "json";
      this.encode();
    };
    const fromHex = debounce(() => this.decode(this.hex.value, "hex"), 150);
    const fromB64 = debounce(() => this.decode(this.b64.value, "base64"), 150);
    this.hex.oninput = () => {
      this.lastInput = "hex";
      fromHex();
    };
    this.b64.oninput = () => {
      this.lastInput = "base64";
      fromB64();
    };
    this.raw.onchange = () => {
      this.json.dom.classList.toggle("disabled", this.raw.checked);
      if (this.hex.value.trim()) this.decode(this.hex.value, "hex");
      else if (!this.raw.checked) this.encode();
    };
  }

  private jsonEdited: () => void;

  get type(): string {
    return this.picker.value;
  }

  get jsonText(): string {
    return this.json.state.doc.toString();
  }

  // restore puts a shared session's type and JSON back before the first
  // compile; schemaChanged then encodes them.
  restore(type?: string, json?: string) {
    if (type) {
      this.picker.replaceChildren(new Option(type, type));
      this.picker.value = type;
    }
    if (json !== undefined) {
      this.setJSON(json);
      this.touched = true;
    }
  }

  // invalidate drops the answers of requests in flight and stops their
  // follow-ups: the schema they were for is being edited.
  invalidate() {
    this.latest.supersede();
  }

  // schemaChanged is called after each successful compile.
  schemaChanged(files: Files, messages: MessageInfo[]) {
    const key = JSON.stringify(files);
    if (key === this.filesKey) return; // recompiled, not changed
    this.filesKey = key;
    this.files = files;
    const keep = this.picker.value;
    this.picker.replaceChildren(...messages.map((m) => new Option(m.name, m.name)));
    if (messages.some((m) => m.name === keep)) this.picker.value = keep;
    else {
      this.touched = false;
      this.lastInput = "json";
    }
    if (!messages.length) {
      this.setJSON("");
      this.showError("No message types in the schema.");
      return;
    }
    if (this.raw.checked) return;
    if (this.lastInput === "hex" && this.hex.value.trim()) this.decode(this.hex.value, "hex");
    else if (this.lastInput === "base64" && this.b64.value.trim()) this.decode(this.b64.value, "base64");
    else if (this.touched) this.encode();
    else this.loadSample();
  }

  private async loadSample() {
    if (!this.files || !this.type) return;
    const fresh = this.latest.next();
    try {
      const s = await this.core.call("sample", { files: this.files, type: this.type });
      if (!fresh()) return;
      this.setJSON(s.value);
      await this.encode();
    } catch (e) {
      if (fresh()) this.showError(e);
    }
  }

  async encode() {
    if (!this.files || !this.type || this.raw.checked) return;
    const fresh = this.latest.next();
    try {
      const files = this.files;
      const r = await this.core.call("encode", { files, type: this.type, input: this.jsonText });
      if (!fresh()) return;
      this.hex.value = r.hex;
      this.b64.value = r.base64;
      await this.showWireView(files, r, fresh);
      if (fresh()) this.onBytes(this.type, r.hex, null);
    } catch (e) {
      if (fresh()) this.showError(e);
    }
  }

  async decode(input: string, encoding: "hex" | "base64") {
    const fresh = this.latest.next();
    try {
      if (!input.trim()) {
        (encoding === "hex" ? this.b64 : this.hex).value = "";
        this.showView({ size: 0, fields: [], hex: "", base64: "" }, "");
        return;
      }
      if (this.raw.checked || !this.files || !this.type) {
        const v = await this.core.call("decodeRaw", { input, encoding });
        if (!fresh()) return;
        this.fillOther(encoding, v);
        this.showView(v, `${v.size} bytes, decoded without a schema`);
        return;
      }
      const files = this.files;
      const r = await this.core.call("decode", { files, type: this.type, input, encoding });
      if (!fresh()) return;
      this.fillOther(encoding, r);
      this.setJSON(r.value);
      this.touched = true;
      this.onStateChange();
      await this.showWireView(files, r, fresh);
      if (!fresh()) return;
      // The value's reference encoding (the bytes typed may be written
      // otherwise: another field order, unknown fields).
      let canonical: string | null = null;
      try {
        canonical = (await this.core.call("encode", { files, type: this.type, input: r.value })).hex;
      } catch {}
      if (fresh()) this.onBytes(this.type, canonical, { hex: r.hex, refError: "" });
    } catch (e) {
      if (!fresh()) return;
      this.showError(e);
      if (!this.raw.checked && this.files && this.type && e instanceof CallError && !e.restarted && (e.detail?.kind === "payload" || e.detail?.kind === "value")) {
        try {
          const b = await this.core.call("decodeRaw", { input, encoding });
          if (fresh()) this.onBytes(this.type, null, { hex: b.hex, refError: e.message });
        } catch {}
      }
      // Show how far the bytes parse, to point at the fault.
      try {
        const v = await this.core.call("decodeRaw", { input, encoding });
        if (fresh()) renderWire(this.wire, v);
      } catch {
        this.wire.replaceChildren();
      }
    }
  }

  // fillOther writes the bytes into the box of the encoding not typed in.
  private fillOther(typed: "hex" | "base64", b: BytesResult) {
    if (typed === "hex") this.b64.value = b.base64;
    else this.hex.value = b.hex;
  }

  // showWireView shows the wire view of the bytes of b against the type,
  // unless a newer request began meanwhile.
  private async showWireView(files: Files, b: BytesResult, fresh: () => boolean) {
    const v = await this.core.call("wireView", { files, type: this.type, input: b.hex, encoding: "hex" });
    if (fresh()) this.showView(v, `${b.size} bytes`);
  }

  private setJSON(text: string) {
    this.json.dispatch({ changes: { from: 0, to: this.json.state.doc.length, insert: text } });
  }

  private showView(v: ViewResult, summary: string) {
    this.errBox.hidden = true;
    this.wire.dataset.summary = summary;
    renderWire(this.wire, v);
  }

  private showError(e: unknown) {
    let msg = e instanceof Error ? e.message : String(e);
    const d: CoreError | undefined = e instanceof CallError ? e.detail : undefined;
    if (d?.kind === "json" && d.line) msg = `JSON ${msg}`;
    this.errBox.textContent = msg;
    this.errBox.hidden = false;
    if (d?.kind === "json" && d.line && d.line <= this.json.state.doc.lines) {
      const line = this.json.state.doc.line(d.line);
      this.json.dispatch({ selection: { anchor: Math.min(line.from + Math.max(0, (d.column ?? 1) - 1), line.to) } });
    }
  }
}
