import assert from "node:assert/strict";
import { dial, dialOnTerminal, hasScript, serve } from "../_helpers.ts";
import { CHAIN, loginServer, project } from "./_files.ts";

Deno.test(
  "run: on a terminal each response shows its status line and headers under its request's name",
  {
    ignore: !hasScript,
  },
  async () => {
    await using server = loginServer();
    const dir = await project({ "api.http": CHAIN });
    const result = await dialOnTerminal([
      "run",
      `${dir}/api.http`,
      "--var",
      `origin=${server.origin}`,
      "--var",
      "user=ann",
    ]);
    assert.equal(result.code, 0, result.screen);
    const screen = result.screen.replace(/\r/g, "");
    assert.match(screen, /### login\nHTTP\/1\.1 200 OK\n(?:.*\n)*?\{\n {2}"token": "tok-ann"\n\}/);
    assert.match(screen, /### me\nHTTP\/1\.1 200 OK\n/);
  },
);

Deno.test("run: >> saves a response body beside the file (a new name when it exists), >>! replaces", async () => {
  await using server = serve(() => Response.json({ n: 1 }));
  const dir = await project({
    "out.http":
      `GET ${server.origin}/a\n\n>> ./saved/body.json\n\n###\nGET ${server.origin}/b\n\n>> ./saved/body.json\n>>! ./saved/last.json\n`,
  });
  await Deno.mkdir(`${dir}/saved`);
  await Deno.writeTextFile(`${dir}/saved/last.json`, "old");
  const result = await dial(["run", `${dir}/out.http`]);
  assert.equal(result.code, 0, result.stderr);
  const names = [...Deno.readDirSync(`${dir}/saved`)].map((e) => e.name).sort();
  assert.deepEqual(names, ["body.json", "body_1.json", "last.json"]);
  assert.equal(await Deno.readTextFile(`${dir}/saved/last.json`), '{"n":1}');
  assert.equal(await Deno.readTextFile(`${dir}/saved/body_1.json`), '{"n":1}');
});

Deno.test("run: httpyac's # @ref runs the named request first", async () => {
  await using server = loginServer();
  const dir = await project({
    "ref.http":
      `### login\n# @name login\nPOST ${server.origin}/login\nContent-Type: application/json\n\n{"user": "ann"}\n\n### me\n# @ref login\nGET ${server.origin}/me\n`,
  });
  const result = await dial(["run", `${dir}/ref.http`, "me"]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(server.requests.map((r) => new URL(r.url).pathname), ["/login", "/me"]);
});

Deno.test("run: a body nothing reads later streams through, as dial GET streams it", async () => {
  const size = 5 * 1024 * 1024;
  await using server = serve(() =>
    new Response(new Uint8Array(size).fill(0x61), {
      headers: { "Content-Type": "application/octet-stream" },
    })
  );
  const dir = await project({ "big.http": `GET ${server.origin}/big\n` });
  const result = await dial(["run", `${dir}/big.http`]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdoutBytes.byteLength, size);
});
