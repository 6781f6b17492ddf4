// The Run tab's program for a schema other than the example: it makes a
// message of the first type, writes one of its fields and reads it back,
// marshals it, and prints the hex and the decoded value. It is written for
// the API the generated type has: a struct literal and field access for
// the open API; a builder, setter and getter for the opaque and hybrid
// ones (TypeRef.builder), whose fields are hidden.
import type { FieldRef, TypeRef } from "./interp";

// values are two values of each field type: the one the message is made
// with and the one it is then set to.
const values: Record<string, [string, string]> = {
  string: ['"example"', '"changed"'],
  bool: ["true", "false"],
  "[]byte": ['[]byte("example")', '[]byte("changed")'],
  float32: ["1.5", "2.5"],
  float64: ["1.5", "2.5"],
};

// printf is the verb that prints a value of type t.
const printf = (t: string) => (t === "string" || t === "[]byte" ? "%q" : "%v");

function makeOpen(alias: string, t: TypeRef, f?: FieldRef): string {
  if (!f) return `\tm := &${alias}.${t.goName}{}\n`;
  const [a, b] = values[f.type] ?? ["1", "2"];
  return `\t// ${t.goName} has the open API: its fields are exported.
\tm := &${alias}.${t.goName}{${f.name}: ${a}}
\tm.${f.name} = ${b}
\tfmt.Printf("${f.name}: ${printf(f.type)}\\n", m.${f.name})
`;
}

function makeOpaque(alias: string, t: TypeRef, f?: FieldRef): string {
  const head = `\t// ${t.goName} has the opaque API: a builder makes it, and Get, Set, Has
\t// and Clear methods reach its hidden fields.
`;
  if (!f) return `${head}\tm := ${alias}.${t.goName}_builder{}.Build()\n`;
  const [a, b] = values[f.type] ?? ["1", "2"];
  // An explicit-presence field is a pointer in the builder (nil: unset):
  // its setter sets it.
  const made = f.pointer ? `\tm := ${alias}.${t.goName}_builder{}.Build()\n\tm.Set${f.name}(${a})\n` : `\tm := ${alias}.${t.goName}_builder{${f.name}: ${a}}.Build()\n`;
  const has = f.pointer ? `\tfmt.Println("Has${f.name}:", m.Has${f.name}())\n` : "";
  return `${head}${made}\tm.Set${f.name}(${b})
\tfmt.Printf("${f.name}: ${printf(f.type)}\\n", m.Get${f.name}())
${has}`;
}

// templateProgram is the program for the first of types (the schema's
// first message type, as the core lists them).
export function templateProgram(types: TypeRef[]): string {
  const t = types[0];
  if (!t) return 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("The schema declares no message types.")\n}\n';
  const pkg = t.importPath.slice(t.importPath.lastIndexOf("/") + 1).replace(/[^A-Za-z0-9_]/g, "_");
  const alias = /^[A-Za-z_]/.test(pkg) ? pkg : `pb${pkg}`;
  const make = t.builder ? makeOpaque(alias, t, t.field) : makeOpen(alias, t, t.field);
  return `// Run interprets this program in your browser, against the generated code.
package main

import (
\t"fmt"

\t${alias} "${t.importPath}"
)

func main() {
${make}\tb, err := m.Marshal()
\tif err != nil {
\t\tpanic(err)
\t}
\tfmt.Printf("%d bytes: %x\\n", len(b), b)

\tvar back ${alias}.${t.goName}
\tif err := back.Unmarshal(b); err != nil {
\t\tpanic(err)
\t}
\tj, err := back.MarshalJSON()
\tif err != nil {
\t\tpanic(err)
\t}
\tfmt.Printf("decoded: %s\\n", j)
}
`;
}
