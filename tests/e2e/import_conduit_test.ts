/**
 * A real collection, Newman as the oracle: the RealWorld project's Conduit collection (30
 * scripts in Postman's legacy API, a token saved by one request for the next) is run by Newman
 * and, imported with its globals, by `dial test`, each against a fresh in-memory Conduit API;
 * the requests (in order, JSON bodies compared as JSON) and every assertion's outcome agree.
 * @module
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { type ConduitRequest, conduitServer } from "./_conduit_server.ts";
import { dialOutcomes, newman, NEWMAN_HEADERS, otherHeaders, outcomeLines } from "./_newman.ts";

const COLLECTION = new URL("./fixtures/conduit/Conduit.postman_collection.json", import.meta.url)
  .pathname;

function seen(r: ConduitRequest) {
  return {
    request: `${r.method} ${r.target}`,
    headers: otherHeaders(r.headers, NEWMAN_HEADERS),
    body: r.body ? JSON.parse(r.body) : undefined,
  };
}

Deno.test("import: the RealWorld Conduit collection runs under dial test as under Newman", async () => {
  const dir = await Deno.makeTempDir();
  const globals = (api: string) => ({
    APIURL: api,
    USERNAME: "u1",
    EMAIL: "u1@mail.com",
    PASSWORD: "pw",
  });

  await using forNewman = conduitServer();
  const fromNewman = await newman([
    COLLECTION,
    ...Object.entries(globals(forNewman.api)).flatMap(([k, v]) => ["--global-var", `${k}=${v}`]),
  ], { report: true });
  const byNewman = outcomeLines(fromNewman.outcomes);
  assert.ok(byNewman.length > 300, String(byNewman.length));

  await using forDial = conduitServer();
  await Deno.writeTextFile(
    `${dir}/globals.json`,
    JSON.stringify({
      name: "globals",
      _postman_variable_scope: "globals",
      values: Object.entries(globals(forDial.api)).map(([key, value]) => ({
        key,
        value,
        enabled: true,
      })),
    }),
  );
  const imported = await dial(["import", COLLECTION, "globals.json", "--out", "api"], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
  assert.match(imported.stderr, /Carried: 32 of 32 requests, 30 of 30 scripts/);
  const ran = await dial(["test", "api", "--reporter", "json"], { cwd: dir });
  // dial also counts a request without tests by its status ("HTTP 200"): Newman has no such case.
  const byDial = outcomeLines(dialOutcomes(ran.stdout).filter((c) => !/^HTTP \d+$/.test(c.test)));
  assert.deepEqual(byDial, byNewman);
  assert.deepEqual(forDial.requests.map(seen), forNewman.requests.map(seen));
});
