// A diagnostic's notes and help in the problems list, under its message:
// "note: c.proto:1:10: this makes `five.C` an open enum", "help: open enums
// must define a zero value, ...", as the CLI prints them. A note about
// another place is a link to it.
import type { Diagnostic, Span } from "../lib/api.gen";
import { detailNode, detailsOf } from "../lib/diagdetails";
import { el } from "./ui";

// detailsList returns the list of d's notes and help (data-testid
// "diagnostic-note" or "diagnostic-help" on each), or null when it has
// none; goTo(span) shows the place a note is about.
export function detailsList(d: Diagnostic, goTo: (s: Span) => void): HTMLElement | null {
  const details = detailsOf(d);
  if (details.length === 0) return null;
  return el(
    "ul",
    { class: "diag-details" },
    ...details.map((x) => {
      const item = detailNode(x, "li");
      item.dataset.testid = `diagnostic-${x.kind}`;
      const span = x.span;
      if (span && span.line > 0) {
        item.classList.add("goto");
        item.tabIndex = 0;
        item.setAttribute("role", "link");
        item.onclick = () => goTo(span);
        item.onkeydown = (e) => {
          if (e.key === "Enter") goTo(span);
        };
      }
      return item;
    }),
  );
}
