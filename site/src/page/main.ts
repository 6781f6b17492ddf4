// The playground page. Everything that understands protobuf runs in the
// compiler Worker (../lib/client.ts, ../lib/worker.ts); the page's modules
// keep the session and render results, one module per part of the page:
//
//   boot.ts         the address's knobs, stats, the status line, the core
//   workspace.ts    the files in tabs, the schema editor, go to definition
//   filesmenu.ts    upload, drop, download and the files menu
//   compile.ts      edit -> compile -> result on screen
//   diagnostics.ts  the diagnostics list and the editor's marks
//   gopane.ts       the generated Go: tabs, copy, the .zip
//   checks.ts       after a good compile: the reference's and the generated Go's checks
//   interpreter.ts  the interpreter and the generated Go loaded into it
//   runtab.ts       the Run tab
//   payloadtab.ts   Encode/decode and its bytes through the generated Go
//   options.ts      the generator options panel
//   layout.ts       output tabs, the phone layout's pane switch
//   examples.ts     the Examples menu
//   sharelink.ts    the session in the URL hash (share links)
//
// This module wires the page's keys and buttons and starts it. The
// imports run in this order, boot first (the other modules' top-level code
// uses only boot's values and their own).
import "./style.css";
import { byId } from "./ui";
import { core, stats } from "./boot";
import { runner } from "./interpreter";
import { editor, sources, symbols } from "./workspace";
import "./filesmenu";
import { compiling, editAt, run } from "./compile";
import "./diagnostics";
import { viewer } from "./gopane";
import "./checks";
import { runEditor, runProgram } from "./runtab";
import { payload } from "./payloadtab";
import "./options";
import "./layout";
import "./examples";
import { load, savedState, share } from "./sharelink";

// ---- Keyboard: Ctrl/Cmd+Enter compiles now (runs main.go in the Run
// tab's editor), Ctrl/Cmd+S shares. Caught
// before the editors see them (CodeMirror binds Mod-Enter too).

addEventListener(
  "keydown",
  (e) => {
    if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
    if (e.key === "Enter") {
      e.preventDefault();
      e.stopPropagation();
      if (runEditor.hasFocus) void runProgram();
      else run();
    } else if (e.key === "s" || e.key === "S") {
      e.preventDefault();
      e.stopPropagation();
      share();
    }
  },
  true,
);

byId("run").onclick = run;
byId("share").onclick = () => share();

// For tests and measurements (site/e2e_test.go); not an API.
(globalThis as any).__protoplay = {
  stats,
  core,
  editor,
  viewer,
  sources: () => sources(),
  jsonText: () => payload.jsonText,
  idle: () => !compiling && !editAt, // no compile running or waiting to
  symbols: () => symbols,
  runner,
  runEditor,
  savedState: () => savedState,
};

load(location.hash);
