import assert from "node:assert/strict";
import { dial, serve } from "../_helpers.ts";
import { excludes, includes } from "../assert.ts";

Deno.test("save: --save appends requests whose secrets live in the private env file, and dial run replays them", async () => {
  await using server = serve(async (request) => {
    const url = new URL(request.url);
    return Response.json({
      path: url.pathname + url.search,
      authorization: request.headers.get("authorization"),
      key: request.headers.get("x-api-key"),
      body: await request.text(),
    });
  });
  const dir = await Deno.makeTempDir({ prefix: "dial-save-" });
  const file = `${dir}/api.http`;
  const env = { TOKEN: "tok-FROM-ENV" };
  const saves = [
    ["POST", `${server.origin}/items`, "--json", '{"a":1}', "--save", file, "--name", "create"],
    [
      "GET",
      `${server.origin}/me`,
      "-B",
      "@env:TOKEN",
      "-K",
      "api_key=KEY-LITERAL",
      "-H",
      "X-Api-Key: HDR-SECRET",
      "--save",
      file,
      "--name",
      "me",
    ],
    ["GET", `${server.origin}/basic`, "-u", "ann:PW-SECRET", "--save", file],
  ];
  for (const args of saves) {
    const result = await dial(args, { env });
    assert.equal(result.code, 0, result.stderr);
    includes(result.stderr, `Saved the request to ${file}`);
  }
  const text = await Deno.readTextFile(file);
  for (const secret of ["tok-FROM-ENV", "@env:TOKEN", "KEY-LITERAL", "HDR-SECRET", "PW-SECRET"]) {
    excludes(text, secret);
  }
  // Without -L dial does not follow redirects; the saved request says so (dial run would).
  includes(
    text,
    "### me\n# @name me\n# @no-redirect\nGET " + `${server.origin}/me?api_key={{me_api_key}}`,
  );
  includes(text, "Authorization: Bearer {{me_token}}");
  includes(text, "Authorization: Basic ann {{password}}");
  const privateFile = `${dir}/http-client.private.env.json`;
  assert.equal((await Deno.stat(privateFile)).mode! & 0o777, 0o600);
  assert.deepEqual(JSON.parse(await Deno.readTextFile(privateFile)), {
    $shared: {
      me_token: "@env:TOKEN",
      me_x_api_key: "HDR-SECRET",
      me_api_key: "KEY-LITERAL",
      password: "PW-SECRET",
    },
  });
  const before = server.requests.length;
  const run = await dial(["run", file], { env });
  assert.equal(run.code, 0, run.stderr);
  const replayed = server.requests.slice(before);
  assert.deepEqual(replayed.map((r) => new URL(r.url).pathname + new URL(r.url).search), [
    "/items",
    "/me?api_key=KEY-LITERAL",
    "/basic",
  ]);
  assert.equal(replayed[1]!.headers.get("authorization"), "Bearer tok-FROM-ENV");
  assert.equal(replayed[1]!.headers.get("x-api-key"), "HDR-SECRET");
  assert.equal(replayed[2]!.headers.get("authorization"), `Basic ${btoa("ann:PW-SECRET")}`);
  assert.equal(await replayed[0]!.text(), '{"a":1}');
  const named = await dial(["GET", `${server.origin}/x`, "--name", "x"]);
  assert.equal(named.code, 2);
  includes(named.stderr, "--name needs --save FILE.http");
});
