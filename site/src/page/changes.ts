// The Changes panel: a baseline of the workspace (its files as they were
// when "Set baseline" was pressed), the breaking changes from it to the
// current files by buf breaking's rules, each with its rule ID and place
// (a click goes there), and what a reader built with the baseline makes
// of the bytes in the Encode / decode panel: its wire view and the fields
// it reads differently.
import type { Finding, OldReaderResult } from "../lib/api.gen";
import type { Files } from "../lib/common";
import { CallError, type Core } from "../lib/client";
import { Latest } from "../lib/latest";
import { byId, el } from "./ui";
import { renderWire } from "./wire";

export interface ChangesHost {
  // goto shows file at line and column (1-based, column in bytes).
  goto(file: string, line: number, column: number): void;
}

export class ChangesPanel {
  private baseline: Files | null = null;
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
      if (!this.files) return;
      this.baseline = { ...this.files };
      this.clearBtn.hidden = false;
      void this.refresh();
    };
    this.clearBtn.onclick = () => {
      this.baseline = null;
      this.clearBtn.hidden = true;
      void this.refresh();
    };
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
        ? "No baseline yet: “Set baseline” keeps the current files as the version to compare with; then edit the schema."
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
