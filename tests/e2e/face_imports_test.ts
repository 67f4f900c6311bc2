import assert from "node:assert/strict";
import { sourceFiles } from "../_sources.ts";
import { importEdges } from "./_import_graph.ts";

const ROOT = new URL("../../", import.meta.url);

/**
 * The faces of dial and the core they share. The core (src/http, src/auth, src/graphql,
 * src/stream, src/output, src/*.ts) is the library and the printer both faces use: it never
 * imports a face. The UI (src/ui) never imports the CLI (src/cli). The CLI reaches the UI only
 * through one lazy entry: `lazy.ui()` in src/cli/lazy.ts loads src/ui/run.ts through a
 * computed specifier and names its type with `typeof import`.
 */
function layer(path: string): "cli" | "ui" | "core" | "outside" {
  if (path.startsWith("src/cli/")) return "cli";
  if (path.startsWith("src/ui/")) return "ui";
  if (path.startsWith("src/")) return "core";
  return "outside";
}

Deno.test("faces: core never imports a face, the UI never imports the CLI, src/ never imports scripts/", async () => {
  const files = await sourceFiles("src");
  for (const file of ["src/cli/request.ts", "src/ui/server.ts", "src/http/client.ts"]) {
    assert.ok(files.includes(file), `${file} not found among ${files.length} files`);
  }
  const edges = await importEdges(files.map((f) => new URL(f, ROOT)));
  assert.ok(edges.some((e) => e.from === "src/ui/api/spec_json.ts"), "the UI's imports were read");
  const wrong = edges.filter(({ from, to }) => {
    if (!from.startsWith("src/")) return false;
    if (to.startsWith("scripts/")) return true;
    const [a, b] = [layer(from), layer(to)];
    if (a === "core") return b === "cli" || b === "ui";
    if (a === "ui") return b === "cli";
    return false;
  });
  assert.deepEqual(wrong.map((e) => `${e.from} -> ${e.to} (${e.kind})`), []);
});

Deno.test("faces: the CLI reaches the UI only through the lazy entry of dial ui", async () => {
  const files = (await sourceFiles("src")).filter((f) => layer(f) === "cli");
  const edges = await importEdges(files.map((f) => new URL(f, ROOT)));
  const toUi = edges.filter((e) => layer(e.from) === "cli" && layer(e.to) === "ui");
  // The one allowed edge: the type of the module `lazy.ui()` returns.
  assert.deepEqual(toUi, [{ from: "src/cli/lazy.ts", to: "src/ui/run.ts", kind: "type" }]);
  const naming: string[] = [];
  for (const file of files) {
    const text = await Deno.readTextFile(new URL(file, ROOT));
    if (/["'`](\.\.\/)*(src\/)?ui\//.test(text)) naming.push(file);
  }
  assert.deepEqual(naming.sort(), ["src/cli/lazy.ts"]);
});
