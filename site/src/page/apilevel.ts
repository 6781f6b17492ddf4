// The API-level control over the Go pane: the Go API the messages are
// generated with, as the generator option default_api_level= (see
// docs/options.md); "as the file says" leaves the option out. It is part
// of the options string, so a share link keeps it. The Run tab's program
// for the example follows the API the code has (./template.ts does the
// same for other schemas).
import type { CompileResult } from "../lib/api.gen";
import { byId } from "./ui";
import { optionValue } from "./interp";

export const apiLevel = byId<HTMLSelectElement>("api-level");

const key = "default_api_level";

// withAPILevel returns the options opts ("k=v,k=v") with default_api_level
// set to level, or without it when level is "".
export function withAPILevel(opts: string, level: string): string {
  const parts = opts.split(",").filter((kv) => kv.trim() && kv.split("=")[0].trim() !== key);
  if (level) parts.push(`${key}=${level}`);
  return parts.join(",");
}

// showAPILevel sets the control from the options opts. A value it has no
// entry for (a typo, refused by the core) shows as "as the file says".
export function showAPILevel(opts: string) {
  const v = optionValue(opts, key);
  apiLevel.value = [...apiLevel.options].some((o) => o.value === v) ? v : "";
}

// exampleProgram is the Run tab's program for the example schema: the one
// written with the builder, setters and getters when the generated Person
// has them (the opaque and hybrid API levels), else the one with a struct
// literal.
export function exampleProgram(r: CompileResult): string {
  const opaque = r.generated.some((f) => f.content.includes("\ntype Person_builder struct {"));
  return opaque ? __EXAMPLE_PROGRAM_OPAQUE__ : __EXAMPLE_PROGRAM__;
}
