// The Changes panel: a baseline of the workspace (its files as they were
// when "Set baseline" was pressed, or files picked or dropped on the panel
// (./readfiles.ts), or the files of a share link (./share.ts)), the
// breaking changes from it to the current files by buf breaking's rules,
// each with its rule ID and place
// (a click goes there), and what a reader built with the baseline makes
// of the bytes in the Encode / decode panel: its wire view and the fields
// it reads differently.
import type { Finding, OldReaderResult } from "../lib/api.gen";
import type { Files } from "../lib/common";
import { CallError, type Core } from "../lib/client";
import { Latest } from "../lib/latest";
import { UPLOAD_ACCEPT, readUploads } from "./readfiles";
import { decodeState } from "./share";
import { byId, el, onFilesDropped } from "./ui";
import { renderWire } from "./wire";

export interface ChangesHost {
  // goto shows file at line and column (1-based, column in bytes).
  goto(file: string, line: number, column: number): void;
}

export class ChangesPanel {
  private baseline: Files | null = null;
  private source = byId("baseline-source"); // where the baseline came from
  private files: Files | null = null;
  private latest = new Latest();
  private readerLatest = new Latest();
  private setBtn = byId<HTMLButtonElement>("baseline-set");
  private clearBtn = byId<HTMLButtonElement>("baseline-clear");
  private category = byId<HTMLSelectElement>("changes-category");
  private status = byId("changes-status");
  private list = byId("changes-list");
  private badge = byId("changes-badge");
  private readerStatus = byId("old-reader-status");
  private diffs = byId("old-reader-diffs");
  private view = byId("old-reader-view");

  constructor(
    private core: Core,
    private host: ChangesHost,
  ) {
    this.setBtn.onclick = () => {
      if (this.files) this.setBaseline({ ...this.files }, `the current files at ${new Date().toLocaleTimeString()}`);
    };
    this.clearBtn.onclick = () => this.setBaseline(null, "");
    this.initUpload();
    this.initLink();
    this.category.onchange = () => void this.refresh();
    // The bytes of the Encode / decode panel change whenever its wire
    // view is redrawn: read them again then.
    new MutationObserver(() => void this.readOld()).observe(byId("wire-view"), { childList: true });
    byId<HTMLSelectElement>("type-picker").addEventListener("change", () => void this.readOld());
    this.render([], null);
  }

  // schemaChanged takes the files of a schema that compiled.
  schemaChanged(files: Files) {
    this.files = files;
    void this.refresh();
  }

  // setBaseline compares with files from now on (null: no baseline); from
  // says where they came from.
  private setBaseline(files: Files | null, from: string) {
    this.baseline = files;
    this.clearBtn.hidden = !files;
    this.source.hidden = !files;
    this.source.textContent = files ? `Baseline: ${from}.` : "";
    void this.refresh();
  }

  // Baseline from files: picked, or dropped on the panel. A bare name (a
  // picker gives no folders) takes the path of the one current file it
  // ends, so query.proto is compared with google/.../query.proto.
  private initUpload() {
    const input = byId<HTMLInputElement>("baseline-upload-input");
    input.accept = UPLOAD_ACCEPT;
    byId("baseline-upload").onclick = () => input.click();
    const use = async (list: File[]) => {
      let read: { name: string; content: string }[];
      try {
        read = await readUploads(list);
      } catch (e) {
        this.render([], `Could not read the baseline files: ${(e as Error).message}`);
        return;
      }
      if (!read.length) return;
      const now = Object.keys(this.files ?? {});
      const files: Files = {};
      for (const { name, content } of read) {
        const like = name.includes("/") || now.includes(name) ? [] : now.filter((n) => n.endsWith("/" + name));
        files[like.length === 1 ? like[0] : name] = content;
      }
      const names = read.map((f) => f.name);
      this.setBaseline(files, `uploaded ${names.length > 3 ? `${names.slice(0, 3).join(", ")} and ${names.length - 3} more` : names.join(", ")}`);
    };
    input.onchange = () => {
      if (input.files) void use([...input.files]);
      input.value = "";
    };
    onFilesDropped(document.querySelector<HTMLElement>(".tabpanel.changes")!, (files) => void use(files));
  }

  // Baseline from a share link: the files of a pasted "#s=" link (the
  // whole address or its hash).
  private initLink() {
    const open = byId<HTMLButtonElement>("baseline-link");
    const form = byId<HTMLFormElement>("baseline-link-form");
    const input = byId<HTMLInputElement>("baseline-link-input");
    const error = byId("baseline-link-error");
    const show = (on: boolean) => {
      form.hidden = !on;
      open.setAttribute("aria-expanded", String(on));
      error.textContent = "";
      if (on) input.focus();
      else input.value = "";
    };
    open.onclick = () => show(form.hidden);
    byId("baseline-link-cancel").onclick = () => show(false);
    form.onkeydown = (e) => {
      if (e.key === "Escape") show(false);
    };
    form.onsubmit = async (e) => {
      e.preventDefault();
      const link = input.value.trim();
      const at = link.indexOf("#s=");
      let files: Files | null = null;
      try {
        if (at < 0) throw new Error("it has no #s= part; copy it with Share");
        const s = await decodeState(link.slice(at));
        if (!s?.files.length) throw new Error("the link holds no files");
        files = Object.fromEntries(s.files.map((f) => [f.name, f.text]));
      } catch (err) {
        error.textContent = `Not a protoplay share link: ${(err as Error).message}`;
        return;
      }
      const n = Object.keys(files).length;
      show(false);
      this.setBaseline(files, `the ${n === 1 ? "file" : `${n} files`} of a share link (${Object.keys(files).join(", ")})`);
    };
  }

  private async refresh() {
    const fresh = this.latest.next();
    if (!this.baseline || !this.files) {
      this.render([], null);
      void this.readOld();
      return;
    }
    const categories = [this.category.value];
    try {
      const r = await this.core.call("breaking", { files: this.files, baseline: this.baseline, categories });
      if (!fresh()) return;
      if (r.baselineDiagnostics.length > 0) {
        this.render([], `The baseline does not compile: ${r.baselineDiagnostics[0].message}`);
      } else this.render(r.changes, null);
    } catch (e) {
      if (fresh()) this.render([], e instanceof Error ? e.message : String(e));
    }
    void this.readOld();
  }

  private render(changes: Finding[], error: string | null) {
    this.list.replaceChildren(
      ...changes.map((c) => {
        const where = c.line ? `${c.file}:${c.line}:${c.column}` : c.file;
        const item = el(
          "button",
          { class: "change", "data-testid": "change", "data-rule": c.rule, "data-file": c.file, "data-line": String(c.line) },
          el("span", { class: "where" }, where),
          el("span", { class: "rule" }, c.rule),
          el("span", { class: "msg" }, c.message),
        );
        if (c.line > 0 && this.files && c.file in this.files) item.onclick = () => this.host.goto(c.file, c.line, c.column);
        else item.disabled = true;
        return el("li", {}, item);
      }),
    );
    const n = changes.length;
    this.badge.textContent = this.baseline && !error ? String(n) : "";
    this.badge.className = n > 0 ? "badge bad" : "badge good";
    this.status.dataset.state = error ? "error" : this.baseline ? (n > 0 ? "breaking" : "clean") : "none";
    this.status.textContent = error
      ? error
      : !this.baseline
        ? "No baseline yet: “Set baseline” keeps the current files as the version to compare with (then edit the schema), or take it from files or a share link."
        : n === 0
          ? `No breaking change from the baseline (${this.category.value} rules).`
          : `${n} breaking change${n === 1 ? "" : "s"} from the baseline (${this.category.value} rules):`;
  }

  // readOld shows what the baseline makes of the Encode / decode panel's
  // bytes, for its message type.
  private async readOld() {
    const fresh = this.readerLatest.next();
    const hex = byId<HTMLTextAreaElement>("hex-input").value.trim();
    const type = byId<HTMLSelectElement>("type-picker").value;
    if (!this.baseline || !this.files || !hex || !type) {
      this.diffs.replaceChildren();
      this.view.replaceChildren();
      this.readerStatus.dataset.state = "none";
      this.readerStatus.textContent = this.baseline
        ? "Encode a value in the Encode / decode tab: its bytes are read here as the baseline reads them."
        : "With a baseline, the bytes of the Encode / decode tab are read here as the baseline reads them.";
      return;
    }
    let r: OldReaderResult;
    try {
      r = await this.core.call("oldReader", { files: this.files, baseline: this.baseline, type, input: hex, encoding: "hex" });
    } catch (e) {
      if (!fresh()) return;
      this.diffs.replaceChildren();
      this.view.replaceChildren();
      this.readerStatus.dataset.state = "error";
      this.readerStatus.textContent = e instanceof CallError || e instanceof Error ? e.message : String(e);
      return;
    }
    if (!fresh()) return;
    const n = r.differences.length;
    this.readerStatus.dataset.state = r.decodeError ? "error" : n > 0 ? "differs" : "same";
    this.readerStatus.textContent = r.decodeError
      ? `A reader with the baseline rejects these bytes: ${r.decodeError}`
      : n === 0
        ? `A reader with the baseline reads these ${type} bytes as the current schema does.`
        : `A reader with the baseline reads ${n} field${n === 1 ? "" : "s"} of these ${type} bytes differently:`;
    this.diffs.replaceChildren(
      ...r.differences.map((d) =>
        el(
          "li",
          { class: `old-diff ${d.kind}`, "data-testid": "old-reader-diff", "data-kind": d.kind, "data-path": d.path },
          el("span", { class: "path" }, d.path),
          el("span", { class: "kind" }, d.kind),
          el("span", { class: "now" }, `now: ${d.current}`),
          el("span", { class: "then" }, `old reader: ${d.baseline}`),
          el("span", { class: "msg" }, d.message),
        ),
      ),
    );
    if (r.view) renderWire(this.view, { ...r.view, hex: r.hex, base64: r.base64 });
  }
}
