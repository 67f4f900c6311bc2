import assert from "node:assert/strict";
import { ErrorCode } from "../../src/errors.ts";

Deno.test("error codes: each is unique and the README's table lists every one", async () => {
  const values = Object.values(ErrorCode);
  assert.equal(new Set(values).size, values.length);
  const readme = await Deno.readTextFile(new URL("../../README.md", import.meta.url));
  const listed = [...readme.matchAll(/^\| `([a-z_]+)` +\| `(\w+)` +\|/gm)].map((m) => [m[2], m[1]]);
  assert.deepEqual(Object.fromEntries(listed), { ...ErrorCode });
});
