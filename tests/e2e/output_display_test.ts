import assert from "node:assert/strict";
import { dial, dialOnTerminal, hasScript, serve } from "../_helpers.ts";

const ESC = "\x1b";
const SGR = new RegExp(`${ESC}\\[[\\d;]*m`, "g");

const BODY = String.raw`{"name":"caf\u00e9 \ud83d\ude00","esc":"\u001b]52;c;x\u0007","list":[1,2]}`;

function jsonAs(type: string, body = BODY) {
  return serve(() => new Response(body, { headers: { "content-type": type } }));
}

Deno.test({
  name: "display: on a terminal JSON escapes show as characters, controls stay escaped",
  ignore: !hasScript,
  async fn() {
    await using server = jsonAs("application/json");
    const { code, screen } = await dialOnTerminal([server.origin]);
    assert.equal(code, 0, screen);
    assert.match(screen, /"name": "café 😀"/);
    assert.match(screen, /"esc": "\\u001b\]52;c;x\\u0007"/);
    assert.ok(!screen.includes("\x1b]52"), screen);
    // Piped, the body is the server's bytes.
    const piped = await dial([server.origin]);
    assert.equal(piped.stdout, BODY);
  },
});

Deno.test({
  name: "display: JSON served as text/plain, text/json or +json is pretty-printed on a terminal",
  ignore: !hasScript,
  async fn() {
    for (const type of ["text/plain; charset=utf-8", "text/json", "application/vnd.api+json"]) {
      await using server = jsonAs(type);
      const { screen } = await dialOnTerminal([server.origin, "-s"]);
      assert.match(screen, /^\{\r?\n {2}"name": "café 😀",\r?\n/m, type);
    }
    // Text that is not JSON is shown as it is, with no complaint.
    await using text = jsonAs("text/plain", "{not json}");
    const { screen } = await dialOnTerminal([text.origin, "-s"]);
    assert.match(screen, /^\{not json\}\r?$/m);
    assert.doesNotMatch(screen, /not valid JSON/);
  },
});

Deno.test("display: --pretty all, format, colors and none through a pipe", async () => {
  await using server = jsonAs("application/json", '{"a": [1, "\\u00e9"]}');
  const all = await dial([server.origin, "--pretty", "all"]);
  assert.equal(all.code, 0, all.stderr);
  // Colours even with NO_COLOR (asked for by name), indented, escapes kept (not a terminal).
  assert.ok(
    all.stdout.startsWith(`{\n  ${ESC}[34;1m"a"${ESC}[0m: [\n    ${ESC}[36m1${ESC}[0m,`),
    all.stdout,
  );
  assert.match(all.stdout, /"\\u00e9"/);
  const format = await dial([server.origin, "--pretty", "format"]);
  assert.equal(format.stdout, '{\n  "a": [\n    1,\n    "\\u00e9"\n  ]\n}\n');
  const colors = await dial([server.origin, "--pretty", "colors"]);
  assert.equal(colors.stdout.replace(SGR, ""), '{"a": [1, "\\u00e9"]}\n');
  assert.ok(colors.stdout.includes(`${ESC}[34;1m"a"`), colors.stdout);
  const none = await dial([server.origin, "--pretty", "none"]);
  assert.equal(none.stdout, '{"a": [1, "\\u00e9"]}');
});

Deno.test("display: --pretty all escapes server control characters for the pager", async () => {
  await using server = jsonAs("text/html", "<b>\x1b]52;c;eA==\x07</b>");
  const result = await dial([server.origin, "--pretty", "all"]);
  assert.equal(result.stdout, "<b>\\x1b]52;c;eA==\\x07</b>\n");
});

Deno.test("headers: -H 'Accept-Language;' replaces the default; --json keeps a given Accept", async () => {
  await using server = serve((request) => Response.json(Object.fromEntries(request.headers)));
  const empty = await dial([server.origin, "-H", "Accept-Language;"]);
  assert.equal(JSON.parse(empty.stdout)["accept-language"], "");
  const plain = await dial([server.origin]);
  assert.equal(JSON.parse(plain.stdout)["accept-language"], "*");
  const json = await dial([server.origin, "--json", "{}", "-H", "Accept: application/x-mine"]);
  assert.equal(JSON.parse(json.stdout)["accept"], "application/x-mine");
  const item = await dial([server.origin, "a=1", "Accept:text/csv"]);
  assert.equal(JSON.parse(item.stdout)["accept"], "text/csv");
  const implied = await dial([server.origin, "--json", "{}"]);
  assert.equal(JSON.parse(implied.stdout)["accept"], "application/json, */*;q=0.5");
});
