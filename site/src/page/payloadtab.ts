// Encode/decode (./payload.ts): the panel, its inferred schemas, and the
// bytes on screen checked through the generated Go.
import { Latest } from "../lib/latest";
import { type Probe } from "./interp";
import { PayloadPanel } from "./payload";
import { byId, el, notice } from "./ui";
import { core, stats } from "./boot";
import { loadGenerated, runner } from "./interpreter";
import { files } from "./workspace";
import { addFiles } from "./filesmenu";
import { bytesRow, lastGood, waitQuiet } from "./checks";
import { saveSoon } from "./sharelink";

export const payload = new PayloadPanel(core);
payload.onStateChange = () => saveSoon();
// An inferred schema opens as a new file of the workspace, its message
// named apart from the types there, and is picked once it compiles.
payload.onInfer = async (inputs) => {
  const taken = new Set((lastGood?.result.messages ?? []).map((m) => m.name));
  let name = "Inferred";
  for (let i = 2; taken.has(name) || files.some((f) => f.name === snakeName(name) + ".proto"); i++) name = `Inferred${i}`;
  try {
    const r = await core.call("infer", { inputs, encoding: "hex", name });
    payload.pendingType = name;
    addFiles([{ name: r.file, content: r.content }]);
  } catch (e) {
    notice(`Could not infer a schema: ${(e as Error).message}`);
  }
};

function snakeName(s: string): string {
  return s.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

// ---- Encode/decode: the bytes on screen, through the generated Go.

const payloadGo = byId("payload-go");
const payloadGoLatest = new Latest();
payload.onBytes = (type, canonical, typed) => void payloadGoCheck(type, canonical, typed);

// payloadGoCheck runs the checks of the generated Go on the value in the
// panel (its reference encoding: Unmarshal, Marshal to the same bytes,
// Size, Clone, Equal) and, for bytes the user typed, whether the
// generated Unmarshal accepts or refuses them as the reference did. Not
// before the first compiled output (the interpreter is not loaded then).
async function payloadGoCheck(type: string, canonical: string | null, typed: { hex: string; refError: string } | null) {
  const fresh = payloadGoLatest.next();
  const good = lastGood;
  if (!good || !stats.firstCompiledMs) {
    payloadGo.hidden = true;
    return;
  }
  const req: { type: string; hex: string; refError?: string; probes: Probe[] } = { type, hex: canonical ?? "", probes: [] };
  if (canonical === null) req.refError = "the reference refused the bytes";
  if (typed) req.probes.push({ name: "your bytes", hex: typed.hex, refError: typed.refError || undefined });
  payloadGo.hidden = false;
  payloadGo.dataset.state = "running";
  payloadGo.replaceChildren("Generated Go: checking these bytes…");
  try {
    await waitQuiet();
    if (!fresh() || lastGood !== good) return;
    const lr = await loadGenerated(good.src, good.options, good.result);
    if (!fresh()) return;
    if (lr.error || !lr.types.some((t) => t.name === type)) {
      payloadGo.hidden = true;
      return;
    }
    const r = await runner.check(req);
    if (!fresh()) return;
    payloadGo.dataset.state = r.pass ? "pass" : "fail";
    const size = (r.reference.length / 2) | 0;
    const did: string[] = [];
    if (canonical !== null) did.push(`decodes the value's ${size} bytes and re-encodes them byte for byte; Size, Clone and Equal agree`);
    if (typed) did.push(typed.refError ? "refuses your bytes, as the reference does" : "accepts your bytes, as the reference does");
    payloadGo.replaceChildren(
      el("span", { class: "mark" }, r.pass ? "✓ " : "✗ "),
      r.pass ? `The generated ${r.goType} ${did.join("; it ")}.` : `The generated ${r.goType} disagrees with the reference:`,
      ...r.steps.filter((st) => !st.pass).map((st) => el("div", { class: "go-step", "data-testid": "go-step", "data-step": st.name }, `${st.name}: ${st.message ?? "failed"}`)),
    );
    if (r.offset >= 0) payloadGo.append(el("div", { class: "diff" }, bytesRow("reference", r.reference, r.offset), bytesRow("generated", r.generated, r.offset)));
  } catch (e) {
    if (!fresh()) return;
    payloadGo.dataset.state = "error";
    payloadGo.replaceChildren(`Generated Go: ${(e as Error).message}`);
  }
}
