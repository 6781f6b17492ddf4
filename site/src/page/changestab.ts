// The Changes tab (./changes.ts): breaking changes against a baseline of
// the workspace, each going to its place in the editor.
import type { Diagnostic } from "../lib/api.gen";
import { spanOf } from "../lib/editor";
import { core } from "./boot";
import { ChangesPanel } from "./changes";
import { editor, files, selectFile } from "./workspace";

export const changes = new ChangesPanel(core, {
  goto(file, line, column) {
    const f = files.find((x) => x.name === file);
    if (!f) return;
    selectFile(f);
    selectFile(f, spanOf(editor.state.doc, { line, column } as Diagnostic).from);
  },
});
