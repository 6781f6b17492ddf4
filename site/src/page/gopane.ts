// The Go pane: the generated files in tabs, updated in place, copy and
// the .zip download.
import { ChangeSet, EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type { FileChange, GeneratedFile } from "../lib/api.gen";
import { type HeldFile } from "../lib/client";
import { viewerExtensions } from "../lib/editor";
import { byId, copyText, el, toast } from "./ui";
import { zip } from "./zip";
import { core } from "./boot";
import { options, sources } from "./workspace";
import { downloadBlob } from "./filesmenu";
import { compiling, editAt } from "./compile";
import { programTouched, runEditor } from "./runtab";
import { payload } from "./payloadtab";

// ---- Generated Go: one tab per file, copy, download as zip.

let generated: HeldFile[] = [];
let goShown = "";
// The rev of the Go on screen (HeldFile.rev; "" when it has none): a
// result's change to it (CompileResult.changes) updates the viewer in
// place, touching only the lines it changed. unshown composes the changes
// of results dropped since (superseded by an edit), which lead from
// viewerRev to unshownRev.
let viewerRev = "";
let unshown: ChangeSet | null = null;
let unshownRev = "";

// chainChange extends unshown by c, the core's change to the file on
// screen; false (and unshown dropped) when c does not follow it.
function chainChange(c: FileChange | undefined): boolean {
  const at = unshown ? unshownRev : viewerRev;
  if (!c?.base || !at || c.base !== at) {
    unshown = null;
    return false;
  }
  try {
    const len = unshown ? unshown.newLength : viewer.state.doc.length;
    const cs = ChangeSet.of(c.from === c.to && !c.insert ? [] : [{ from: c.from, to: c.to, insert: c.insert }], len);
    unshown = unshown ? unshown.compose(cs) : cs;
    unshownRev = c.rev;
    return true;
  } catch {
    unshown = null; // out of range: not the text on screen
    return false;
  }
}

// noteUnshown keeps the change of a dropped result to the file on screen.
export function noteUnshown(changes: FileChange[] | undefined) {
  if (changes) chainChange(changes.find((c) => c.name === goShown));
}
export const goOutput = byId("go-output");
export const viewer = new EditorView({ parent: goOutput, state: EditorState.create({ extensions: viewerExtensions() }) });
const goTabs = byId("go-tabs");

// The Go pane is marked stale (dimmed) only when a failed compile is still
// the latest one after a pause with no edits (staleAfterMs): typing goes
// through broken schemas at nearly every keystroke, and the pane must not
// flash with each.
const staleAfterMs = 800;
export let staleTimer: ReturnType<typeof setTimeout> | undefined;

export function showGenerated(gen: HeldFile[] | null, changes?: FileChange[]) {
  clearTimeout(staleTimer);
  if (!gen) {
    if (!generated.length) goOutput.dataset.state = "empty";
    else
      staleTimer = setTimeout(function mark() {
        if (compiling || editAt) staleTimer = setTimeout(mark, staleAfterMs);
        else goOutput.dataset.state = "stale";
      }, staleAfterMs);
    return;
  }
  generated = gen;
  goOutput.dataset.state = gen.length ? "ok" : "empty";
  if (!gen.some((g) => g.name === goShown)) goShown = gen[0]?.name ?? "";
  renderGoTabs();
  showGoFile(goShown, true, changes?.find((c) => c.name === goShown));
}

// isServiceFile tells the files of the services= option: gRPC's
// foo_grpc.pb.go and Connect's fooconnect/foo.connect.go.
function isServiceFile(name: string): boolean {
  return name.endsWith("_grpc.pb.go") || name.endsWith(".connect.go");
}

// renderGoTabs shows one tab per generated file; with services= on, the
// service files follow the message files under a "Services" label.
function renderGoTabs() {
  const tab = (g: GeneratedFile, group: string) => {
    const b = el(
      "button",
      { role: "tab", "data-testid": "go-file-tab", "data-name": g.name, "data-group": group, "aria-selected": String(g.name === goShown), title: g.name },
      g.name.slice(g.name.lastIndexOf("/") + 1),
    );
    b.onclick = () => showGoFile(g.name, false);
    return b;
  };
  const services = generated.filter((g) => isServiceFile(g.name));
  const messages = generated.filter((g) => !isServiceFile(g.name));
  const out: HTMLElement[] = messages.map((g) => tab(g, "messages"));
  if (services.length) {
    out.unshift(el("span", { class: "group-label", "data-testid": "go-group", "data-group": "messages" }, "Messages"));
    out.push(el("span", { class: "group-label", "data-testid": "go-group", "data-group": "services", title: "gRPC and Connect code (the services option)" }, "Services"));
    out.push(...services.map((g) => tab(g, "services")));
  }
  goTabs.replaceChildren(...out);
}

// showGoFile shows the generated file name; with refresh, a new result
// of the file on screen, applying change (the core's, from the Go on
// screen to this result's) when it has one.
function showGoFile(name: string, refresh: boolean, change?: FileChange) {
  const g = generated.find((g) => g.name === name);
  const text = g?.content ?? "";
  if (name === goShown && refresh) {
    // Same file, new text: change in place so the scroll position stays
    // (and the editor re-parses only what changed).
    if (g?.rev && g.rev === viewerRev && !unshown) {
      // The same content.
    } else if (chainChange(change) && unshown!.newLength === text.length) {
      if (!unshown!.empty) viewer.dispatch({ changes: unshown! });
    } else if (viewer.state.doc.toString() !== text) viewer.dispatch({ changes: { from: 0, to: viewer.state.doc.length, insert: text } });
  } else {
    goShown = name;
    viewer.setState(EditorState.create({ doc: text, extensions: viewerExtensions() }));
    renderGoTabs();
  }
  unshown = null;
  // A rev only for text the viewer holds as it is (it would count a
  // "\r\n" as one).
  viewerRev = g?.rev && viewer.state.doc.length === text.length ? g.rev : "";
  goOutput.dataset.file = name;
}

byId("copy").onclick = async () => {
  const g = generated.find((g) => g.name === goShown);
  if (!g) return;
  await copyText(g.content);
  toast(`Copied ${g.name}`);
};

// The .zip is a Go module that builds anywhere, offline (the core's
// "module" call): go.mod, the generated files, the runtime they import
// (runtime=local) and a main.go that round-trips the type picked in
// Encode/decode (or the first one). When the packages cannot form one
// module (no shared import path prefix and no module= option), it holds
// the generated files only, and says why.
byId("download").onclick = async () => {
  if (!generated.length) return;
  const files = sources();
  let out: { name: string; content: string }[];
  try {
    out = (await core.call("module", { files, options, type: payload.type || undefined })).files;
  } catch {
    try {
      out = (await core.call("module", { files, options })).files;
    } catch (e2) {
      toast(`The .zip holds the generated files only: ${(e2 as Error).message}`);
      out = generated;
    }
  }
  // The user's Run program is the module's main.go.
  if (programTouched && out.some((f) => f.name === "main.go")) out = out.map((f) => (f.name === "main.go" ? { name: f.name, content: runEditor.state.doc.toString() } : f));
  await downloadBlob(await zip(out), "protoplay-go.zip");
};
