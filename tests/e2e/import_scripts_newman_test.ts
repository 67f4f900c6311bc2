/**
 * Postman scripts carried by the import run under dial's `pm` API with Newman's outcomes: one
 * collection with collection, folder and request scripts (a token a test script saves for the
 * next request, legacy `tests[…]`, a failing assertion) is run by Newman and, imported, by
 * `dial test` against one recording server; the requests and every assertion's outcome agree.
 * @module
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { dialOutcomes, newman, outcomeLines, postmanCollection, seenRequest } from "./_newman.ts";
import { jsonAnswer, rawServer } from "./_raw_server.ts";

const script = (listen: string, ...exec: string[]) => ({ listen, script: { exec } });

function collection(base: string) {
  return postmanCollection("Scripts", {
    event: [
      script("prerequest", "pm.collectionVariables.set('stamp', 'st-1');"),
      script(
        "test",
        "pm.test('collection: not 5xx', () => pm.expect(pm.response.code).to.be.below(500));",
      ),
    ],
    variable: [{ key: "base", value: base }, { key: "token", value: "" }],
    item: [{
      name: "Auth",
      event: [script("prerequest", "pm.variables.set('folder', 'f');")],
      item: [
        {
          name: "Login",
          event: [script(
            "test",
            "const j = pm.response.json();",
            "pm.collectionVariables.set('token', j.token);",
            "pm.test('has token', function () { pm.expect(j).to.have.property('token'); });",
            "tests['status 200'] = responseCode.code === 200;",
          )],
          request: {
            method: "POST",
            url: "{{base}}/login",
            header: [{ key: "X-Stamp", value: "{{stamp}}" }],
          },
        },
        {
          name: "Me",
          event: [script(
            "test",
            "pm.test('id is 7', () => pm.expect(pm.response.json().id).to.eql(7));",
            "pm.test('name is ann', () => pm.expect(pm.response.json().name).to.equal('bob'));",
          )],
          request: {
            method: "GET",
            url: "{{base}}/me",
            header: [
              { key: "Authorization", value: "Bearer {{token}}" },
              { key: "X-Folder", value: "{{folder}}" },
            ],
          },
        },
      ],
    }],
  });
}

Deno.test("import: carried Postman scripts reach Newman's assertion outcomes and requests under dial test", async () => {
  await using server = rawServer(jsonAnswer('{"token":"tk-9","id":7,"name":"ann"}'));
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/c.json`, JSON.stringify(collection(server.origin)));
  const fromNewman = await newman([`${dir}/c.json`], { report: true });
  const byNewman = server.requests.splice(0).map(seenRequest);
  const newmanLines = outcomeLines(fromNewman.outcomes);
  assert.equal(newmanLines.length, 6);

  const imported = await dial(["import", "c.json", "--out", "api"], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
  assert.match(imported.stderr, /Carried: 2 of 2 requests, 5 of 5 scripts, 5 of 5 assertions/);
  const ran = await dial(["test", "api", "--reporter", "json"], { cwd: dir });
  assert.equal(ran.code, 11, ran.stderr);
  assert.deepEqual(outcomeLines(dialOutcomes(ran.stdout)), newmanLines);
  assert.deepEqual(server.requests.map(seenRequest), byNewman);
});
