/**
 * Postman's libraries in `# @postman` scripts, Newman as the oracle: lodash 3 as `_` (functions
 * lodash 4 removed), lodash 4 and moment through `require`, no global `moment`, Node's `Buffer`
 * (and its missing base64url there), `pm.request.url.path` of a URL whose host is a variable, and
 * a failing expectation over a library's result reach under `dial test` the outcomes they reach
 * under Newman 6.2.2; the import reports none of them as missing.
 * @module
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { dialOutcomes, newman } from "./_newman.ts";
import { rawServer } from "./_raw_server.ts";

const TESTS = [
  "pm.test('lodash 3 as _', function () { pm.expect(_.VERSION).to.equal('3.10.2'); pm.expect(_.pluck([{a: 1}, {a: 2}], 'a')).to.eql([1, 2]); pm.expect(_.contains([1, 2], 2)).to.be.true; });",
  "pm.test('lodash 4 by require', function () { var l = require('lodash'); pm.expect(l.VERSION).to.equal('4.17.21'); pm.expect(l.get({a: {b: [5]}}, 'a.b[0]')).to.equal(5); pm.expect(l === _).to.be.false; });",
  "pm.test('moment by require', function () { var m = require('moment'); pm.expect(m.version).to.equal('2.30.1'); pm.expect(m.utc('2024-01-02T03:04:05Z').add(1, 'day').format('YYYY-MM-DD HH:mm')).to.equal('2024-01-03 03:04'); pm.expect(m.utc('2024-03-01').diff(m.utc('2024-02-01'), 'days')).to.equal(29); });",
  "pm.test('moment has no global', function () { pm.expect(typeof moment).to.equal('undefined'); });",
  "pm.test('a wrong expectation fails', function () { pm.expect(_.max([1, 9, 3])).to.equal(3); });",
  "pm.test('the body through lodash', function () { pm.expect(require('lodash').map(pm.response.json().items, 'id')).to.eql([1, 2]); });",
  "pm.test('Buffer to base64', function () { pm.expect(Buffer.from('id:sécret').toString('base64')).to.equal('aWQ6c8OpY3JldA=='); });",
  "pm.test('Buffer from base64 and hex', function () { pm.expect(Buffer.from('aWQ6c8OpY3JldA', 'base64').toString()).to.equal('id:sécret'); pm.expect(Buffer.from('6869', 'hex').toString()).to.equal('hi'); pm.expect(Buffer.from('hi').toString('hex')).to.equal('6869'); });",
  "pm.test('Buffer bytes', function () { var b = Buffer.from([104, 105]); pm.expect(b.length).to.equal(2); pm.expect(Buffer.isBuffer(b)).to.be.true; pm.expect(Buffer.byteLength('é')).to.equal(2); pm.expect(Buffer.concat([b, Buffer.from('!')]).toString()).to.equal('hi!'); pm.expect(JSON.stringify(Buffer.from('a'))).to.equal('{\"type\":\"Buffer\",\"data\":[97]}'); });",
  "pm.test('Buffer has no base64url there', function () { Buffer.from('??>').toString('base64url'); });",
  "pm.test('a URL whose host is a variable has its path', function () { pm.expect(pm.request.url.path).to.eql(['items']); });",
  "pm.test('a variable set to null reads back null', function () { pm.expect(pm.collectionVariables.get('gone')).to.be.null; });",
];

Deno.test("Postman's lodash 3, lodash 4, moment and Buffer give dial test Newman's outcomes", async () => {
  await using server = rawServer(() => ({
    headers: [["Content-Type", "application/json"]],
    body: '{"items":[{"id":1},{"id":2}]}',
  }));
  const dir = await Deno.makeTempDir({ prefix: "dial-libraries-" });
  await Deno.writeTextFile(
    `${dir}/c.json`,
    JSON.stringify({
      info: { name: "libs", schema: "https://schema.getpostman.com/json/collection/v2.1.0/" },
      item: [{
        name: "r",
        event: [
          // Postman sends a variable set to null as "null" (a token not obtained: "Bearer null").
          { listen: "prerequest", script: { exec: ["pm.collectionVariables.set('gone', null);"] } },
          { listen: "test", script: { exec: TESTS } },
        ],
        request: {
          method: "GET",
          url: "{{base}}/items",
          header: [{ key: "Authorization", value: "Bearer {{gone}}" }],
        },
      }],
    }),
  );
  const base = ["--env-var", `base=${server.origin}`];
  const { outcomes } = await newman(["c.json", ...base], { cwd: dir, report: true });
  const byNewman = outcomes.map((o) => `${o.test}: ${o.outcome}`);
  assert.equal(byNewman.length, TESTS.length);
  assert.ok(byNewman.includes("a wrong expectation fails: failed"), byNewman.join("\n"));
  assert.ok(byNewman.includes("Buffer has no base64url there: failed"), byNewman.join("\n"));
  const authorization = (i: number) =>
    server.requests[i]!.headers.find(([n]) => n.toLowerCase() === "authorization")?.[1];
  assert.equal(authorization(0), "Bearer null");

  const imported = await dial(["import", "c.json", "--out", "api"], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
  assert.doesNotMatch(imported.stderr, /require|lodash|moment/);
  const ran = await dial(["test", "api", "--var", `base=${server.origin}`, "--reporter", "json"], {
    cwd: dir,
  });
  // dial tells a test that threw (TypeError) apart as an error; Newman counts it failed.
  const byDial = dialOutcomes(ran.stdout).map((o) =>
    `${o.test}: ${o.outcome === "error" ? "failed" : o.outcome}`
  );
  assert.deepEqual(byDial, byNewman);
  assert.equal(authorization(1), "Bearer null");
});
