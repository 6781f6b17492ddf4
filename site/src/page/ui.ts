// Small DOM helpers shared by the page's modules.

// byId finds an element by its data-testid, the page's stable handle
// (tests use the same attributes).
export function byId<T extends HTMLElement = HTMLElement>(id: string, root: ParentNode = document): T {
  const e = root.querySelector<T>(`[data-testid="${id}"]`);
  if (!e) throw new Error(`no element [data-testid=${id}]`);
  return e;
}

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k.startsWith("data-")) e.setAttribute(k, v);
    else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}

let toastTimer: ReturnType<typeof setTimeout> | undefined;

// toast shows a short message for a few seconds; with an action (Undo),
// a button for it and a few seconds more.
export function toast(msg: string, action?: { label: string; run: () => void }) {
  const t = byId("toast");
  t.replaceChildren(msg);
  if (action) {
    const b = el("button", { "data-testid": "toast-action" }, action.label);
    b.onclick = () => {
      t.hidden = true;
      action.run();
    };
    t.append(" ", b);
  }
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (t.hidden = true), action ? 8000 : 2500);
}

// notice shows a message that stays until dismissed (a restarted Worker,
// a link that could not be read).
export function notice(msg: string) {
  const n = byId("notice");
  n.querySelector("span")!.textContent = msg;
  n.hidden = false;
}

export function debounce(fn: () => void, ms: number): { (): void; cancel(): void; now(): void } {
  let t: ReturnType<typeof setTimeout> | undefined;
  const f = () => {
    clearTimeout(t);
    t = setTimeout(fn, ms);
  };
  f.cancel = () => clearTimeout(t);
  f.now = () => {
    clearTimeout(t);
    fn();
  };
  return f;
}

export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Older or locked-down browsers: the selection route still works.
    const ta = el("textarea", {}, text);
    document.body.append(ta);
    ta.select();
    document.execCommand("copy");
    ta.remove();
  }
}

// onFilesDropped calls use with the files dropped on panel, which is
// marked "dropping" while files are dragged over it.
export function onFilesDropped(panel: HTMLElement, use: (files: File[]) => void) {
  const hasFiles = (e: DragEvent) => !!e.dataTransfer && [...e.dataTransfer.types].includes("Files");
  panel.addEventListener("dragover", (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer!.dropEffect = "copy";
    panel.classList.add("dropping");
  });
  panel.addEventListener("dragleave", (e) => {
    if (!panel.contains(e.relatedTarget as Node | null)) panel.classList.remove("dropping");
  });
  panel.addEventListener("drop", (e) => {
    panel.classList.remove("dropping");
    if (!hasFiles(e)) return;
    e.preventDefault();
    use([...e.dataTransfer!.files]);
  });
}
