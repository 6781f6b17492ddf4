// The encode/decode panel: a message type, its value as JSON, the bytes as
// hex and base64, and the wire view linking the two. Editing the JSON
// encodes it; typing or pasting hex or base64 decodes it. With "raw" on,
// bytes are decoded with no schema at all.
import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type { BytesResult, CoreError, Fit, MessageInfo, StreamResult, ViewResult } from "../lib/api.gen";
import type { Files } from "../lib/common";
import { CallError, type Core } from "../lib/client";
import { jsonExtensions } from "../lib/editor";
import { toHex } from "../lib/hex";
import { Latest } from "../lib/latest";
import { byId, debounce, el, onFilesDropped } from "./ui";
import { renderWire } from "./wire";

// maxFileBytes is the largest payload file opened: the core's
// MaxInputBytes (compiler/payload), which it would refuse past.
const maxFileBytes = 8 << 20;

export class PayloadPanel {
  private json: EditorView;
  private picker = byId<HTMLSelectElement>("type-picker");
  private hex = byId<HTMLTextAreaElement>("hex-input");
  private b64 = byId<HTMLTextAreaElement>("base64-input");
  private raw = byId<HTMLInputElement>("raw-toggle");
  private errBox = byId("payload-error");
  // noteBox says which fields of decoded bytes the type does not declare:
  // ProtoJSON leaves them out of the JSON, the wire view marks them.
  private noteBox = byId("payload-note");
  private wire = byId("wire-view");
  private fitList = byId("fit-list");
  private streamList = byId("stream-list");
  private streamToggle = byId<HTMLInputElement>("stream-toggle");
  // stream is the last stream listed and sel the message shown of it.
  private stream: { r: StreamResult; typed: boolean; sel: number } | null = null;
  // pendingType is a type to pick once a compile lists it: the message
  // of a schema just inferred.
  pendingType: string | null = null;
  // onInfer is asked for a schema inferred from payloads (hex each).
  onInfer: (inputs: string[]) => void = () => {};
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
    this.streamToggle.onchange = () => {
      this.stream = null;
      this.streamList.hidden = true;
      if (this.hex.value.trim()) this.decode(this.hex.value, "hex");
    };
    byId("infer-schema").onclick = () => this.infer();
    // A payload file, picked or dropped on the panel, is decoded as the
    // bytes it holds.
    const pick = byId<HTMLInputElement>("open-bytes-input");
    byId("open-bytes").onclick = () => pick.click();
    pick.onchange = () => {
      const f = pick.files?.[0];
      pick.value = "";
      if (f) void this.openBytes(f);
    };
    onFilesDropped(byId("payload-panel"), (files) => {
      if (files[0]) void this.openBytes(files[0]);
    });
  }

  // openBytes decodes the bytes of file (a payload as a program wrote it,
  // not hex or base64 text): they go into the hex box as if pasted there.
  async openBytes(file: File) {
    if (file.size > maxFileBytes) {
      this.latest.next(); // answers still coming are not shown over this
      this.showError(`${file.name} is ${file.size} bytes: a payload is at most ${maxFileBytes} bytes (MaxInputBytes)`);
      return;
    }
    let b: Uint8Array;
    try {
      b = new Uint8Array(await file.arrayBuffer());
    } catch (e) {
      this.showError(`Could not read ${file.name}: ${(e as Error).message}`);
      return;
    }
    this.hex.value = toHex(b).replace(/(..)(?!$)/g, "$1 ");
    this.b64.value = "";
    this.lastInput = "hex";
    this.onStateChange();
    await this.decode(this.hex.value, "hex");
  }

  // infer asks for a schema inferred from the bytes on screen: each
  // message of a stream, or the one payload.
  private infer() {
    const hex = this.hex.value.replace(/\s+/g, "");
    if (!hex) {
      this.showError("Paste bytes (hex or base64) to infer a schema from.");
      return;
    }
    if (this.streamToggle.checked && this.stream) {
      const all = this.stream.r.hex.replace(/\s+/g, "");
      this.onInfer(this.stream.r.messages.map((m) => all.slice(2 * m.offset, 2 * (m.offset + m.size))));
    } else this.onInfer([hex]);
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
    let keep = this.picker.value;
    if (this.pendingType && messages.some((m) => m.name === this.pendingType)) {
      keep = this.pendingType;
      this.pendingType = null;
    }
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
    this.fitList.hidden = true;
    this.streamList.hidden = true;
    this.noteBox.hidden = true;
    this.stream = null;
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
    this.fitList.hidden = true; // until ranked for these bytes
    this.noteBox.hidden = true; // until these bytes decode with one
    try {
      if (!input.trim()) {
        (encoding === "hex" ? this.b64 : this.hex).value = "";
        this.fitList.hidden = true;
        this.streamList.hidden = true;
        this.showView({ size: 0, fields: [], hex: "", base64: "" }, "");
        return;
      }
      if (this.streamToggle.checked) {
        await this.decodeStream(input, encoding, fresh);
        return;
      }
      void this.rankFits(input, encoding, fresh);
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
      this.showNote(r.note);
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

  // rankFits lists the schema's message types the bytes fit best, each
  // with its score; a click picks one. Hidden without a schema, raw, or
  // for bytes that are no message at all.
  private async rankFits(input: string, encoding: "hex" | "base64", fresh: () => boolean) {
    if (this.raw.checked || !this.files) {
      this.fitList.hidden = true;
      return;
    }
    let fits: Fit[];
    try {
      fits = (await this.core.call("rankTypes", { files: this.files, input, encoding, count: 5 })).fits;
    } catch {
      if (fresh()) this.fitList.hidden = true;
      return;
    }
    if (!fresh()) return;
    this.fitList.replaceChildren(
      el("span", { class: "label" }, "Which type fits:"),
      ...fits.map((f) => {
        const b = el(
          "button",
          {
            "data-testid": "fit-item",
            "data-type": f.type,
            "data-rank": String(f.rank),
            "data-score": String(f.score),
            "aria-pressed": String(f.type === this.type),
            title: `rank ${f.rank}: ${f.known} known fields, ${f.unknown} unknown, ${f.mismatched} with another wire type, ${f.badStrings} bad strings; click to decode as ${f.type}`,
          },
          f.type,
          el("span", { class: "score" }, f.score.toFixed(3)),
        );
        b.onclick = () => this.pick(f.type);
        return b;
      }),
    );
    this.fitList.hidden = false;
  }

  // pick decodes the bytes on screen as type.
  private pick(type: string) {
    if (![...this.picker.options].some((o) => o.value === type)) return;
    this.picker.value = type;
    this.touched = true;
    this.onStateChange();
    const b64 = this.lastInput === "base64";
    this.decode(b64 ? this.b64.value : this.hex.value, b64 ? "base64" : "hex");
  }

  // decodeStream lists the messages of a length-delimited stream, each
  // with its offset, and shows the one selected.
  private async decodeStream(input: string, encoding: "hex" | "base64", fresh: () => boolean) {
    this.fitList.hidden = true;
    const typed = !this.raw.checked && !!this.files && !!this.type;
    const r = await this.core.call("stream", { files: typed ? this.files! : {}, type: typed ? this.type : "", input, encoding, out: "json" });
    if (!fresh()) return;
    this.fillOther(encoding, r);
    const sel = this.stream ? Math.min(this.stream.sel, Math.max(0, r.messages.length - 1)) : 0;
    this.stream = { r, typed, sel };
    this.renderStream();
    if (r.messages.length) await this.showStreamMessage(sel, fresh);
    else if (r.error) this.showError(r.error.message);
  }

  private renderStream() {
    const s = this.stream!;
    const items = s.r.messages.map((m, i) => {
      const b = el(
        "button",
        {
          "data-testid": "stream-item",
          "data-index": String(i),
          "data-offset": String(m.offset),
          "aria-pressed": String(i === s.sel),
          class: m.error ? "bad" : "",
          title: m.error ? m.error.message : `message ${i}: ${m.size} bytes from byte ${m.offset} (its length prefix at byte ${m.prefixOffset})`,
        },
        `#${i} at byte ${m.offset} (${m.size} B)`,
      );
      b.onclick = () => {
        s.sel = i;
        this.renderStream();
        void this.showStreamMessage(i, this.latest.next());
      };
      return b;
    });
    const tail = s.r.error ? [el("span", { class: "label", "data-testid": "stream-error" }, `stream broken: ${s.r.error.message}`)] : [];
    const more = s.r.unlisted ? [el("span", { class: "label" }, `and ${s.r.unlisted} more`)] : [];
    this.streamList.replaceChildren(el("span", { class: "label" }, `${s.r.messages.length} message${s.r.messages.length === 1 ? "" : "s"}:`), ...items, ...more, ...tail);
    this.streamList.hidden = false;
  }

  // showStreamMessage shows message i of the stream: its value and its
  // wire view (offsets within the message).
  private async showStreamMessage(i: number, fresh: () => boolean) {
    const s = this.stream!;
    const m = s.r.messages[i];
    const hex = s.r.hex.replace(/\s+/g, "").slice(2 * m.offset, 2 * (m.offset + m.size));
    if (m.value !== undefined && m.value !== "") this.setJSON(m.value);
    try {
      const v = s.typed
        ? await this.core.call("wireView", { files: this.files!, type: this.type, input: hex, encoding: "hex" })
        : await this.core.call("decodeRaw", { input: hex, encoding: "hex" });
      if (!fresh()) return;
      this.showView(v, `message ${i} of the stream: ${m.size} bytes from byte ${m.offset} (offsets below are within the message)`);
      if (m.error) this.showError(m.error.message);
    } catch (e) {
      if (fresh()) this.showError(e);
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

  // showNote shows the decode's note on fields the type does not declare,
  // pointing at the wire view where the CLI's points at text output.
  private showNote(note: string | undefined) {
    this.noteBox.textContent = (note ?? "").replace(/: text output keeps (it|them)$/, ": the wire view below shows $1");
    this.noteBox.hidden = !note;
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
