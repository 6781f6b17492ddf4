// Output tabs, the phone layout's pane switch and the notice.
import { byId } from "./ui";

// ---- Output tabs and the phone layout's pane switch.

for (const b of document.querySelectorAll<HTMLButtonElement>("[data-tab]")) {
  b.onclick = () => {
    for (const o of document.querySelectorAll<HTMLButtonElement>("[data-tab]")) o.setAttribute("aria-selected", String(o === b));
    for (const p of document.querySelectorAll<HTMLElement>("[data-panel]")) p.hidden = p.dataset.panel !== b.dataset.tab;
  };
}
for (const b of document.querySelectorAll<HTMLButtonElement>("[data-pane]")) {
  b.onclick = () => {
    document.body.dataset.pane = b.dataset.pane!;
    for (const o of document.querySelectorAll<HTMLButtonElement>("[data-pane]")) o.setAttribute("aria-pressed", String(o === b));
  };
}
byId("notice").querySelector("button")!.onclick = () => (byId("notice").hidden = true);
