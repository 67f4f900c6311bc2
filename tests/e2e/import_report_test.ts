/**
 * The migration report: `dial import --report-file` writes, per collection, the requests,
 * scripts and assertions found and carried, the secrets moved and every loss with its reason,
 * and the import's output says the same in one line; a Postman globals file becomes `$shared`.
 * @module
 */
import assert from "node:assert/strict";
import { postmanCollection } from "./_newman.ts";
import { dial } from "../_helpers.ts";

Deno.test("import: --report-file writes the migration report; Postman globals become $shared", async () => {
  const dir = await Deno.makeTempDir();
  const collection = postmanCollection("Shop", {
    event: [{ listen: "prerequest", script: { exec: ["pm.variables.set('a', 1);"] } }],
    item: [
      {
        name: "List",
        event: [{
          listen: "test",
          script: {
            exec: [
              "pm.test('ok', () => pm.response.to.have.status(200));",
              "pm.test('json', () => pm.response.json());",
              'tests["fast"] = responseTime < 200;',
            ],
          },
        }],
        request: {
          method: "GET",
          header: [{ key: "X-Api-Key", value: "k-123" }],
          url: "{{base}}/items",
          auth: { type: "hawk", hawk: [] },
        },
      },
      { name: "Get", request: { method: "GET", url: "{{base}}/items/1" } },
    ],
  });
  const globals = {
    name: "My Workspace Globals",
    _postman_variable_scope: "globals",
    values: [{ key: "base", value: "http://127.0.0.1:9", enabled: true }],
  };
  await Deno.writeTextFile(`${dir}/c.json`, JSON.stringify(collection));
  await Deno.writeTextFile(`${dir}/g.json`, JSON.stringify(globals));
  const imported = await dial(
    ["import", "c.json", "g.json", "--out", "api", "--report-file", "report.json"],
    { cwd: dir },
  );
  assert.equal(imported.code, 0, imported.stderr);
  assert.match(
    imported.stderr,
    /Carried: 2 of 2 requests, 2 of 2 scripts, 3 of 3 assertions; 1 not carried/,
  );
  const report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
  assert.equal(report.format, "postman");
  assert.equal(report.collection, "Shop");
  assert.deepEqual(report.requests, { found: 2, carried: 2 });
  assert.deepEqual(report.scripts, { found: 2, carried: 2 });
  assert.deepEqual(report.assertions, { found: 3, carried: 3 });
  assert.deepEqual(report.secretsMoved, [
    { where: "List", what: 'header "X-Api-Key"', variable: "x_api_key" },
  ]);
  assert.deepEqual(report.losses.map((l: { where: string }) => l.where), ["List"]);
  assert.ok(report.losses.some((l: { what: string }) => /auth type "hawk"/.test(l.what)));
  assert.ok(report.files.includes("shop.http"), report.files.join());
  const env = JSON.parse(await Deno.readTextFile(`${dir}/api/http-client.env.json`));
  assert.deepEqual(env.$shared, { base: "http://127.0.0.1:9" });
  // No environment to choose: the globals and the moved key apply without --env.
  const priv = JSON.parse(await Deno.readTextFile(`${dir}/api/http-client.private.env.json`));
  assert.deepEqual(priv, { $shared: { x_api_key: "k-123" } });
});
