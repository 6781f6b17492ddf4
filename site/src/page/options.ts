// The generator options panel: its controls and the options string.
import { byId } from "./ui";
import { options, setOptions } from "./workspace";
import { onEdit } from "./compile";
import { apiLevel, showAPILevel, withAPILevel } from "./apilevel";

// ---- Generator options.

const optionsPanel = byId("options");
const optControls = {
  paths: byId<HTMLSelectElement>("opt-paths"),
  unknown_fields: byId<HTMLSelectElement>("opt-unknown"),
  services: byId<HTMLSelectElement>("opt-services"),
  module: byId<HTMLInputElement>("opt-module"),
  default_import_prefix: byId<HTMLInputElement>("opt-prefix"),
};
const optExtra = byId<HTMLInputElement>("opt-extra");

function optionsFromControls(): string {
  const parts: string[] = [];
  for (const [k, c] of Object.entries(optControls)) if (c.value.trim()) parts.push(`${k}=${c.value.trim()}`);
  for (const p of optExtra.value.split(",")) if (p.trim()) parts.push(p.trim());
  return parts.join(",");
}

// isDefault tells the values a control shows as its empty "(default)".
const isDefault = (k: string, v: string) => (k === "paths" && v === "import") || (k === "unknown_fields" && v === "keep") || (k === "services" && v === "none");

export function controlsFromOptions(s: string) {
  const extra: string[] = [];
  for (const c of Object.values(optControls)) c.value = "";
  const services = new Set<string>();
  for (const kv of s.split(",")) {
    if (!kv) continue;
    const [k, v = ""] = kv.split(/=(.*)/s);
    const c = (optControls as Record<string, HTMLInputElement | HTMLSelectElement>)[k];
    if (k === "services") {
      // Repeated services= values add up, as the generator reads them.
      if (v === "none") services.clear();
      else for (const x of v.split("+")) services.add(x);
      c.value = ["grpc", "connect"].filter((x) => services.has(x)).join("+");
      if (c.value === "" && services.size) extra.push(kv); // a value the select has no entry for: keep it as written
    } else if (c && !isDefault(k, v)) c.value = v;
    else if (!c) extra.push(kv);
  }
  optExtra.value = extra.join(",");
  byId("opt-string").textContent = s || "(defaults)";
  showAPILevel(s);
}

optionsPanel.addEventListener("input", () => {
  setOptions(optionsFromControls());
  byId("opt-string").textContent = options || "(defaults)";
  showAPILevel(options);
  onEdit();
});

// The API-level control (over the Go pane) edits default_api_level= of
// the same options string; the panel shows it among the "more" options.
apiLevel.onchange = () => {
  setOptions(withAPILevel(options, apiLevel.value));
  controlsFromOptions(options);
  onEdit();
};

byId("options-toggle").onclick = () => {
  optionsPanel.hidden = !optionsPanel.hidden;
  byId("options-toggle").setAttribute("aria-expanded", String(!optionsPanel.hidden));
};
