// The wire view: the payload's bytes as a hex grid beside the tree of
// fields they encode. Hovering a field highlights its bytes (tag bytes
// apart from value bytes); hovering a byte highlights the innermost field
// that holds it, and its bytes.
import type { ViewResult, WireField } from "../lib/api.gen";
import { fromHex } from "../lib/hex";

// Bytes shown in the grid; a larger payload's rest is summarised, so a
// multi-megabyte paste cannot stall the page with DOM nodes.
const maxGridBytes = 16 << 10;

interface Row {
  f: WireField;
  el: HTMLElement;
}

// renderWire draws view, with its bytes (view.hex), into host.
export function renderWire(host: HTMLElement, view: ViewResult) {
  const bytes = fromHex(view.hex);
  host.replaceChildren();
  host.classList.toggle("empty", view.fields.length === 0 && !view.error);
  const grid = el("div", "bytes");
  grid.dataset.testid = "wire-bytes";
  const tree = el("div", "fields");
  tree.dataset.testid = "wire-fields";
  host.append(grid, tree);

  const shown = Math.min(bytes.length, maxGridBytes);
  const cells: HTMLElement[] = [];
  const frag = document.createDocumentFragment();
  for (let i = 0; i < shown; i++) {
    const c = el("span", "b", hex2(bytes[i]));
    c.dataset.i = String(i);
    cells.push(c);
    frag.append(c);
  }
  grid.append(frag);
  if (bytes.length > shown) grid.append(el("span", "more", `… ${bytes.length - shown} more bytes`));

  // owner[i] is the innermost row whose field covers byte i.
  const rows: Row[] = [];
  const owner = new Int32Array(shown).fill(-1);
  const add = (fields: WireField[], parent: HTMLElement, depth: number) => {
    for (const f of fields) {
      const r = el("div", "field");
      r.style.setProperty("--depth", String(depth));
      r.dataset.testid = "wire-field";
      r.dataset.row = String(rows.length);
      const head = el("div", "head");
      head.append(el("span", "num", `#${f.number}`));
      head.append(el("span", f.unknown ? "name unknown" : "name", f.name || (f.unknown ? "unknown" : "")));
      head.append(el("span", "type", f.packed ? `packed ${f.type}` : f.type));
      if (f.value !== undefined && f.value !== "") head.append(el("span", "value", f.value));
      head.append(el("span", "range", `@${f.offset}+${f.length}`));
      if (f.note) head.append(el("span", "note", f.note));
      if (f.alternatives?.length) {
        head.title = f.alternatives.map((a) => `${a.as}: ${a.value}`).join("\n");
      }
      r.append(head);
      const idx = rows.length;
      rows.push({ f, el: r });
      for (let i = f.offset; i < Math.min(f.offset + f.length, shown); i++) owner[i] = idx;
      parent.append(r);
      if (f.children?.length) add(f.children, r, depth + 1);
    }
  };
  add(view.fields, tree, 0);
  if (view.unlisted) {
    // The core lists the first MaxViewFields fields; the rest were checked.
    tree.append(el("div", "field more", `… ${view.unlisted} more fields from byte ${view.unlistedFrom ?? 0} on, checked but not listed`));
  }
  if (view.error) {
    const e = el("div", "field error", `✗ ${view.error.message}${view.error.offset >= 0 ? ` (at byte ${view.error.offset})` : ""}`);
    tree.append(e);
    if (view.error.offset >= 0 && view.error.offset < shown) cells[view.error.offset].classList.add("bad");
  }

  let lit: { row?: HTMLElement; cells: HTMLElement[] } = { cells: [] };
  const clear = () => {
    lit.row?.classList.remove("lit");
    for (const c of lit.cells) c.classList.remove("lit", "tag");
    lit = { cells: [] };
  };
  const light = (idx: number) => {
    clear();
    if (idx < 0) return;
    const { f, el: row } = rows[idx];
    row.classList.add("lit");
    lit.row = row;
    for (let i = f.offset; i < Math.min(f.offset + f.length, shown); i++) {
      cells[i].classList.add(i < f.offset + f.tagLength ? "tag" : "lit");
      lit.cells.push(cells[i]);
    }
  };
  tree.addEventListener("mouseover", (e) => {
    const r = (e.target as HTMLElement).closest<HTMLElement>(".field[data-row]");
    if (r) light(Number(r.dataset.row));
  });
  grid.addEventListener("mouseover", (e) => {
    const c = (e.target as HTMLElement).closest<HTMLElement>(".b");
    if (!c) return;
    const idx = owner[Number(c.dataset.i)];
    light(idx);
    if (idx >= 0) rows[idx].el.scrollIntoView({ block: "nearest" });
  });
  host.onmouseleave = clear;
}

const hex2 = (n: number) => n.toString(16).padStart(2, "0");

function el(tag: string, cls: string, text?: string): HTMLElement {
  const e = document.createElement(tag);
  e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
