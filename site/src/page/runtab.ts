// The Run tab: main.go, interpreted against the generated code.
import example from "../../../testdata/example/example.proto";
import { EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type { Diagnostic } from "../lib/api.gen";
import type { Files } from "../lib/common";
import { goExtensions, showDiagnostics } from "../lib/editor";
import { TimeLimitError } from "./interp";
import { templateProgram } from "./template";
import { exampleProgram } from "./apilevel";
import { byId } from "./ui";
import { stats } from "./boot";
import { loadGenerated, loadedTypes, runLimitMs, runner } from "./interpreter";
import { firstGood, lastGood } from "./checks";
import { saveSoon } from "./sharelink";

// ---- The Run tab: main.go, interpreted against the generated code.

export let programTouched = false; // the editor holds the user's program
export function setProgramTouched(t: boolean) {
  programTouched = t;
}
export const runEditor = new EditorView({ parent: byId("run-editor"), state: EditorState.create({ doc: "", extensions: goExtensions(() => onProgramEdit()) }) });
let settingProgram = false;
function onProgramEdit() {
  if (settingProgram) return;
  programTouched = true;
  showDiagnostics(runEditor, []);
  saveSoon();
}

export function setProgram(text: string) {
  if (runEditor.state.doc.toString() === text) return;
  settingProgram = true;
  runEditor.dispatch({ changes: { from: 0, to: runEditor.state.doc.length, insert: text } });
  settingProgram = false;
}

// isExample tells the example schema, whose Run program is
// testdata/example/main.go (main_opaque.go for opaque code).
function isExample(src: Files): boolean {
  const names = Object.keys(src);
  return names.length === 1 && names[0] === "example.proto" && src["example.proto"] === example;
}

// defaultProgram is the Run program of a schema the user has written no
// program for.
function defaultProgram(): string {
  if (!lastGood) return "";
  return isExample(lastGood.src) ? exampleProgram(lastGood.result) : templateProgram(loadedTypes);
}

// refreshProgram shows the schema's starting program unless the user has
// written one.
export function refreshProgram() {
  if (!programTouched && lastGood) {
    if (isExample(lastGood.src)) setProgram(exampleProgram(lastGood.result));
    else if (loadedTypes.length) setProgram(templateProgram(loadedTypes));
  }
}

byId("run-reset").onclick = () => {
  programTouched = false;
  setProgram(defaultProgram());
  saveSoon();
};

const runOutput = byId("run-output");
const runStatus = byId("run-status");
const runError = byId("run-error");
let running = false;

// streamOutput shows a running program's output as it is written; the
// screen is updated once a frame, however often the program writes.
const streamed = { stdout: "", stderr: "", frame: 0 };
function streamOutput(stream: "stdout" | "stderr", text: string) {
  streamed[stream] += text;
  streamed.frame ||= requestAnimationFrame(() => {
    streamed.frame = 0;
    byId("run-stdout").textContent = streamed.stdout;
    byId("run-stderr").textContent = streamed.stderr;
    byId("run-stderr").hidden = !streamed.stderr;
  });
}

export async function runProgram() {
  if (running) return;
  running = true;
  if (!lastGood) {
    // Run pressed before the schema's first compile (and its checks)
    // came back: run as soon as it has.
    runOutput.dataset.state = "waiting";
    runStatus.textContent = "Waiting for the schema to compile…";
    await firstGood;
  }
  const good = lastGood!;
  byId<HTMLButtonElement>("run-program").disabled = true;
  runOutput.dataset.state = "running";
  runError.hidden = true;
  byId("run-stdout").textContent = "";
  byId("run-stderr").textContent = "";
  cancelAnimationFrame(streamed.frame);
  Object.assign(streamed, { stdout: "", stderr: "", frame: 0 });
  showDiagnostics(runEditor, []);
  if (!runner.started) stats.interpStartMs = performance.now();
  runStatus.textContent = runner.readyAt ? "Running…" : "Loading the Go interpreter…";
  try {
    const lr = await loadGenerated(good.src, good.options, good.result);
    refreshProgram();
    if (lr.error) throw new Error(`the generated Go could not be interpreted: ${lr.error.message}`);
    runStatus.textContent = "Running…";
    const t0 = performance.now();
    const r = await runner.run(runEditor.state.doc.toString(), runLimitMs, streamOutput);
    const wall = performance.now() - t0;
    cancelAnimationFrame(streamed.frame);
    streamed.frame = 0;
    byId("run-stdout").textContent = r.stdout;
    byId("run-stderr").textContent = r.stderr;
    byId("run-stderr").hidden = !r.stderr;
    if (r.error) {
      const where = (r.error.positions ?? []).map((p) => `${p.file}:${p.line}:${p.column}${p.func ? ` (in ${p.func})` : ""}`).join(", called from ");
      runError.textContent = r.panicked ? `${r.error.message}${where ? `
  at ${where}` : ""}` : r.error.message;
      runError.hidden = false;
      runError.dataset.kind = r.panicked ? "panic" : "compile";
      const marks: Diagnostic[] = (r.error.positions ?? [])
        .filter((p) => p.file === "main.go")
        .map((p) => ({ file: "main.go", line: p.line, column: p.column, severity: "error", message: r.error!.message }));
      showDiagnostics(runEditor, marks);
    }
    runOutput.dataset.state = r.error ? (r.panicked ? "panic" : "compile-error") : "done";
    runStatus.textContent = `${r.error ? (r.panicked ? "Panicked" : "Did not compile") : "Ran"} in ${r.elapsedMs.toFixed(0)} ms (${r.loadMs.toFixed(0)} ms loading the generated code; ${wall.toFixed(0)} ms in all)`;
    runStatus.dataset.ms = String(r.elapsedMs);
  } catch (e) {
    if (e instanceof TimeLimitError) {
      // What the program printed before it was stopped stays on screen.
      cancelAnimationFrame(streamed.frame);
      streamed.frame = 0;
      byId("run-stdout").textContent = streamed.stdout;
      byId("run-stderr").textContent = streamed.stderr;
      byId("run-stderr").hidden = !streamed.stderr;
      runOutput.dataset.state = "stopped";
      runStatus.textContent = `Stopped after ${runLimitMs / 1000} s.`;
      runError.textContent = `${e.message} The time limit is ${runLimitMs / 1000} s (?runlimit=MS in the address changes it).`;
      runError.dataset.kind = "limit";
    } else {
      runOutput.dataset.state = "error";
      runStatus.textContent = "Could not run.";
      runError.textContent = (e as Error).message;
      runError.dataset.kind = "error";
    }
    runError.hidden = false;
  } finally {
    running = false;
    byId<HTMLButtonElement>("run-program").disabled = false;
  }
}
byId("run-program").onclick = () => void runProgram();
