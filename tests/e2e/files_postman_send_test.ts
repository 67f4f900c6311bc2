/**
 * `pm.sendRequest` in `# @postman` scripts, Newman as the oracle: a collection whose scripts
 * fetch a token (urlencoded body, Basic header), chain a second request from a callback (raw
 * JSON body, header list) and meet a closed port sends under `dial test` the requests Newman
 * sends, in order, with the same assertion outcomes; the collection's own auth is not added to
 * a script's request. Where a script may send is the command line's: an origin none of the
 * run's requests goes to is refused (nothing arrives there) until `--script-origin` names it,
 * and a redirect cannot take a script's request there either.
 * @module
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { dialOutcomes, newman, NEWMAN_HEADERS, otherHeaders, outcomeLines } from "./_newman.ts";
import { type RawRequest, rawServer, requestPath } from "./_raw_server.ts";

const decoder = new TextDecoder();

function seen(r: RawRequest) {
  return {
    line: `${r.line.split(" ")[0]} ${requestPath(r)}`,
    headers: otherHeaders(r.headers, NEWMAN_HEADERS),
    body: decoder.decode(r.body),
  };
}

const TOKEN_SCRIPT = [
  "pm.sendRequest({ url: pm.environment.get('base') + '/token', method: 'POST',",
  "  header: { Authorization: 'Basic ' + btoa('id:secret') },",
  "  body: { mode: 'urlencoded', urlencoded: [{ key: 'grant_type', value: 'client_credentials' }, { key: 'scope', value: 'a b' }] } },",
  "  function (err, res) {",
  "    pm.collectionVariables.set('tok', res.json().token);",
  "    pm.test('token call answered', function () { pm.expect(res.code).to.equal(200); pm.expect(res.headers.get('Content-Type')).to.include('json'); });",
  "  });",
];

const TEST_SCRIPT = [
  "pm.sendRequest(pm.environment.get('base') + '/echo?x=1', function (err, res) {",
  "  pm.test('echo status', function () { pm.expect(res.code).to.equal(200); });",
  "  pm.sendRequest({ url: pm.environment.get('base') + '/nested', method: 'PUT', header: [{ key: 'X-A', value: '1' }],",
  "    body: { mode: 'raw', raw: '{\"a\":1}', options: { raw: { language: 'json' } } } }, function (e2, r2) {",
  "    pm.test('nested answered from the callback', function () { pm.expect(r2.json().id).to.equal(7); });",
  "  });",
  "});",
  "pm.sendRequest('http://127.0.0.1:9/closed', function (err, res) {",
  "  pm.test('a closed port is an error', function () { pm.expect(err).to.be.ok; pm.expect(res).to.not.be.ok; });",
  "});",
];

function collection(extra: string[] = []) {
  return {
    info: { name: "send", schema: "https://schema.getpostman.com/json/collection/v2.1.0/" },
    auth: { type: "bearer", bearer: [{ key: "token", value: "{{tok}}" }] },
    item: [{
      name: "Items",
      event: [
        { listen: "prerequest", script: { exec: TOKEN_SCRIPT } },
        { listen: "test", script: { exec: [...TEST_SCRIPT, ...extra] } },
      ],
      request: { method: "GET", url: "{{base}}/items" },
    }],
  };
}

async function fixture(origin: string, extra: string[] = []): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "dial-send-" });
  await Deno.writeTextFile(`${dir}/c.json`, JSON.stringify(collection(extra)));
  await Deno.writeTextFile(
    `${dir}/e.json`,
    JSON.stringify({ name: "local", values: [{ key: "base", value: origin, enabled: true }] }),
  );
  return dir;
}

const answer = () => ({
  headers: [["Content-Type", "application/json"]] as [string, string][],
  body: '{"token":"tk-9","id":7}',
});

Deno.test("pm.sendRequest: dial test sends what newman run sends, with the same outcomes", async () => {
  await using server = rawServer(answer);
  const dir = await fixture(server.origin);
  const fromNewman = await newman(["c.json", "-e", "e.json"], { cwd: dir, report: true });
  const byNewman = outcomeLines(fromNewman.outcomes);
  const sentByNewman = server.requests.splice(0).map(seen);
  assert.deepEqual(sentByNewman.map((r) => r.line), [
    "POST /token",
    "GET /items",
    "GET /echo?x=1",
    "PUT /nested",
  ]);
  assert.equal(byNewman.length, 4);

  const ran = await dial(["test", "c.json", "-e", "e.json", "--reporter", "json"], { cwd: dir });
  assert.equal(ran.code, 0, ran.stdout + ran.stderr);
  assert.deepEqual(server.requests.map(seen), sentByNewman);
  const byDial = outcomeLines(dialOutcomes(ran.stdout));
  assert.deepEqual(byDial, byNewman);
  // The collection's bearer auth went with the request, not with the scripts' own ones.
  assert.deepEqual(server.requests.map((r) => seen(r).headers.find((h) => /^auth/.test(h))), [
    "authorization: Basic aWQ6c2VjcmV0",
    "authorization: Bearer tk-9",
    undefined,
    undefined,
  ]);
});

Deno.test("pm.sendRequest: an origin the run does not go to is refused until --script-origin names it, redirects included", async () => {
  await using other = rawServer();
  await using server = rawServer((r) =>
    requestPath(r) === "/hop"
      ? { status: "302 Found", headers: [["Location", `${other.origin}/landed`]] }
      : answer()
  );
  const dir = await fixture(server.origin, [
    `pm.sendRequest({ url: '${other.origin}/third', header: { Authorization: 'Bearer x' } }, function (err, res) {`,
    "  pm.test('third party', function () { if (err) throw err; pm.expect(res.code).to.equal(200); });",
    "});",
    `pm.sendRequest({ url: pm.environment.get('base') + '/hop', header: { Authorization: 'Bearer x' } }, function (err, res) {`,
    "  pm.test('redirected', function () { if (err) throw err; pm.expect(res.code).to.equal(200); });",
    "});",
  ]);
  const refused = await dial(["test", "c.json", "-e", "e.json"], { cwd: dir });
  assert.equal(refused.code, 11, refused.stdout + refused.stderr);
  assert.match(
    refused.stdout,
    new RegExp(
      `third party: Error: pm.sendRequest to ${other.origin} is refused: a script reaches only the origins of the run's requests and the script origins the run allows`,
    ),
  );
  assert.match(
    refused.stdout,
    new RegExp(
      `redirected: Error: .*a redirect to ${other.origin} is refused: not an origin the script may reach`,
    ),
  );
  assert.equal(other.requests.length, 0);

  const allowed = await dial(["test", "c.json", "-e", "e.json", "--script-origin", other.origin], {
    cwd: dir,
  });
  assert.equal(allowed.code, 0, allowed.stdout + allowed.stderr);
  // The script's own Authorization reached the origin it named, not the one it was sent on to.
  assert.deepEqual(other.requests.map((r) => [seen(r).line, seen(r).headers]), [
    ["GET /third", ["authorization: Bearer x"]],
    ["GET /landed", []],
  ]);

  const bad = await dial(["test", "c.json", "-e", "e.json", "--script-origin", "ftp://x"], {
    cwd: dir,
  });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /Invalid --script-origin "ftp:\/\/x"/);
});
