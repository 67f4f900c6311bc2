import assert from "node:assert/strict";
import { serve } from "../_helpers.ts";
import { startUiServer } from "../../src/ui/server.ts";
import { apiHeaders, sessionOf } from "./_session.ts";

Deno.test("ui references: Set a secret's @path in a subfolder is written relative to its env file and read when Send uses it", async () => {
  await using target = serve(async (request) => new Response(await request.text()));
  const dir = await Deno.makeTempDir({ prefix: "dial-ui-refs-" });
  try {
    await Deno.mkdir(`${dir}/secrets`);
    await Deno.mkdir(`${dir}/api`);
    await Deno.writeTextFile(`${dir}/secrets/token.txt`, "from-file\n");
    await Deno.writeTextFile(`${dir}/api/calls.http`, `POST ${target.origin}/\n\n{{token}}\n`);
    await using ui = await startUiServer({ assets: { js: "", css: "" }, workspace: dir });
    const session = await sessionOf(ui);
    const call = async (path: string, body: unknown) =>
      await fetch(new URL(path, ui.url), {
        method: "POST",
        headers: apiHeaders(session),
        body: JSON.stringify(body),
      });
    const saved = await call("/api/workspace/environments/secret", {
      file: "api/calls.http",
      environment: "dev",
      name: "token",
      path: "secrets/token.txt",
    });
    assert.equal(saved.status, 200, await saved.clone().text());
    await saved.body?.cancel();
    const written = JSON.parse(await Deno.readTextFile(`${dir}/api/http-client.private.env.json`));
    assert.deepEqual(written, { dev: { token: "@../secrets/token.txt" } });
    const sent = await call("/api/http", {
      method: "POST",
      url: target.origin,
      body: { kind: "text", text: "{{token}}" },
      file: "api/calls.http",
      environment: "dev",
    });
    const answer = await sent.text();
    assert.equal(target.requests.length, 1, answer);
    assert.equal(await target.requests[0]!.text(), "from-file");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
