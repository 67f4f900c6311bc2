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

const COLLECTION = new URL("./fixtures/conduit/Conduit.postman_collection.json", import.meta.url)
  .pathname;

/** Headers each client adds by itself. */
const OWN = new Set([
  "user-agent",
  "accept",
  "accept-encoding",
  "accept-language",
  "connection",
  "host",
  "postman-token",
  "cache-control",
  "content-length",
]);

function seen(r: ConduitRequest) {
  return {
    request: `${r.method} ${r.target}`,
    headers: r.headers.filter(([n]) => !OWN.has(n)).map(([n, v]) => `${n}: ${v}`).sort(),
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
  await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--no-config",
      "--no-lock",
      "--quiet",
      "npm:newman@6.2.2",
      "run",
      COLLECTION,
      ...Object.entries(globals(forNewman.api)).flatMap(([k, v]) => ["--global-var", `${k}=${v}`]),
      "--reporters",
      "json",
      "--reporter-json-export",
      `${dir}/newman.json`,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const run = JSON.parse(await Deno.readTextFile(`${dir}/newman.json`)).run;
  const byNewman = run.executions.flatMap((e: {
    item: { name: string };
    assertions?: Array<{ assertion: string; error?: unknown }>;
  }) =>
    (e.assertions ?? []).map((a) =>
      `${e.item.name} › ${a.assertion}: ${a.error ? "failed" : "passed"}`
    )
  ).sort();
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
  const report = JSON.parse(ran.stdout);
  // dial also counts a request without tests by its status ("HTTP 200"): Newman has no such case.
  const byDial = report.cases.filter((c: { name: string }) => !/^HTTP \d+$/.test(c.name))
    .map((c: { request: string; name: string; outcome: string }) =>
      `${c.request} › ${c.name}: ${c.outcome}`
    )
    .sort();
  assert.deepEqual(byDial, byNewman);
  assert.deepEqual(forDial.requests.map(seen), forNewman.requests.map(seen));
});
