import assert from "node:assert/strict";
import { staticModules } from "./_import_graph.ts";

const at = (path: string) => new URL(`../../${path}`, import.meta.url);

Deno.test("library: importing send from mod.ts loads no GraphQL, stream or npm library", async () => {
  const modules = await staticModules(at("mod.ts"));
  const heavy = modules.filter((m) =>
    m.startsWith("npm:") || /^src\/(graphql|stream|ui|cli)\//.test(m)
  );
  assert.deepEqual(heavy, [], `loaded by mod.ts: ${heavy.join(", ")}`);
});

Deno.test("library: each subpath export loads only its own area", async () => {
  const cases: [string, RegExp][] = [
    ["src/auth/oauth2/mod.ts", /^src\/(graphql|stream|ui|cli)\/|^npm:\/?(graphql|meros)/],
    ["src/stream/mod.ts", /^src\/(graphql|ui|cli)\/|^npm:\/?(graphql|meros)/],
    ["src/graphql/mod.ts", /^src\/(ui|cli)\//],
  ];
  for (const [entry, forbidden] of cases) {
    const wrong = (await staticModules(at(entry))).filter((m) => forbidden.test(m));
    assert.deepEqual(wrong, [], `${entry} loads ${wrong.join(", ")}`);
  }
});
