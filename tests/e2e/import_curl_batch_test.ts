/**
 * Pasted curl commands, curl as the oracle: a batch with one command dial cannot read imports
 * the others and reports that one; `-F name=@file` imports as a multipart body that sends the
 * file; shell variables (`$KEY`, `${KEY}`) become `{{$processEnv KEY}}`, read when the request
 * is sent, never a literal `$KEY`.
 * @module
 */
import assert from "node:assert/strict";
import { dial } from "../_helpers.ts";
import { headerValues, rawServer } from "./_raw_server.ts";

const decoder = new TextDecoder();

Deno.test("import: a batch of curl commands skips and reports the one it cannot read; -F @file and $VAR send what curl sends", async () => {
  await using server = rawServer();
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/photo.txt`, "file-bytes\n");
  const env = { PATH: Deno.env.get("PATH")!, API_KEY: "k-from-shell", ITEM: "7" };
  const upload =
    `curl -sS -o /dev/null -F 'file=@photo.txt;type=text/plain' -F 'name=x' ${server.origin}/up`;
  const shell =
    `curl -sS -o /dev/null -H "Authorization: Bearer $API_KEY" "${server.origin}/items/\${ITEM}?q=1"`;
  for (const command of [upload, shell]) {
    const out = await new Deno.Command("bash", { args: ["-c", command], cwd: dir, env }).output();
    assert.equal(out.code, 0, decoder.decode(out.stderr));
  }
  const byCurl = server.requests.splice(0);
  await Deno.writeTextFile(
    `${dir}/cmds.sh`,
    [upload, `curl --frobnicate ${server.origin}/never`, shell].join("\n"),
  );
  const imported = await dial(["import", "cmds.sh", "--out", "."], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
  assert.match(imported.stderr, /Imported 2 requests/);
  assert.match(imported.stderr, /command 2 of 3: not imported: .*--frobnicate/);
  const http = await Deno.readTextFile(`${dir}/curl.http`);
  assert.match(http, /Bearer \{\{\$processEnv API_KEY\}\}/);
  assert.match(http, /\/items\/\{\{\$processEnv ITEM\}\}\?q=1/);
  assert.ok(!http.includes("$API_KEY"), http);

  const ran = await dial(["run", "curl.http"], {
    cwd: dir,
    env: { API_KEY: "k-from-shell", ITEM: "7" },
  });
  assert.equal(ran.code, 0, ran.stderr);
  const byDial = server.requests.splice(0);
  assert.equal(byDial.length, 2);
  // The multipart body: the same parts (curl's boundary is its own).
  const parts = (r: typeof byDial[number]) => {
    const type = headerValues(r, "content-type")[0]!;
    const boundary = /boundary=(\S+)/.exec(type)![1]!;
    return decoder.decode(r.body).split(`--${boundary}`).map((p) => p.trim());
  };
  assert.equal(byDial[0]!.line, byCurl[0]!.line);
  assert.deepEqual(parts(byDial[0]!), parts(byCurl[0]!));
  assert.equal(byDial[1]!.line, byCurl[1]!.line);
  assert.deepEqual(headerValues(byDial[1]!, "authorization"), ["Bearer k-from-shell"]);
  assert.deepEqual(
    headerValues(byDial[1]!, "authorization"),
    headerValues(byCurl[1]!, "authorization"),
  );
});
