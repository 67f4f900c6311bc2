import assert from "node:assert/strict";
import { ErrorCode } from "../../src/errors/mod.ts";

Deno.test("error codes: each is unique and the table of docs/cli.md lists every one", async () => {
  const values = Object.values(ErrorCode);
  assert.equal(new Set(values).size, values.length);
  const docs = await Deno.readTextFile(new URL("../../docs/cli.md", import.meta.url));
  const listed = [...docs.matchAll(/^\| `([a-z_]+)` +\| `(\w+)` +\|/gm)].map((m) => [m[2], m[1]]);
  assert.deepEqual(Object.fromEntries(listed), { ...ErrorCode });
});
