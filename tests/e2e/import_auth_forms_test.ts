/**
 * What an import carries beyond plain requests, run as a user would: Postman OAuth 2.0 auth
 * becomes `Security.Auth`, and `dial run` gets its tokens from oauth2-mock-server; an Insomnia
 * multipart body becomes a `.http` multipart body that reaches the server with the fields curl
 * -F sends.
 * @module
 */
import assert from "node:assert/strict";
import { postmanCollection } from "./_newman.ts";
import { insomnia, insomniaExport } from "../_insomnia.ts";
import { dial, serve } from "../_helpers.ts";
import { startMockServer } from "./_oauth_servers.ts";

Deno.test("import: Postman OAuth 2.0 (client credentials, password) runs through dial's OAuth 2.0 step", async () => {
  await using op = await startMockServer();
  const seen: string[] = [];
  await using api = serve((request) => {
    const url = new URL(request.url);
    seen.push(
      `${url.pathname} ${request.headers.get("authorization") ?? ""}${
        url.searchParams.get("access_token") ?? ""
      }`,
    );
    return Response.json({ ok: true });
  });
  const param = (entries: Record<string, string>) =>
    Object.entries(entries).map(([key, value]) => ({ key, value, type: "string" }));
  const collection = postmanCollection("Tokens", {
    auth: {
      type: "oauth2",
      oauth2: param({
        grant_type: "client_credentials",
        accessTokenUrl: op.tokenUrl,
        clientId: "svc",
        clientSecret: "svc-s3cret",
        scope: "read",
        client_authentication: "body",
      }),
    },
    item: [
      { name: "Machine", request: { method: "GET", url: `${api.origin}/machine` } },
      {
        name: "Person",
        request: {
          method: "GET",
          url: `${api.origin}/person`,
          auth: {
            type: "oauth2",
            oauth2: param({
              grant_type: "password_credentials",
              accessTokenUrl: op.tokenUrl,
              clientId: "app",
              username: "ann",
              password: "ann-pw",
              addTokenTo: "queryParams",
            }),
          },
        },
      },
    ],
  });
  const dir = await Deno.makeTempDir({ prefix: "dial-import-oauth-" });
  await Deno.writeTextFile(`${dir}/c.json`, JSON.stringify(collection));
  const imported = await dial(["import", `${dir}/c.json`, "--out", `${dir}/api`]);
  assert.equal(imported.code, 0, imported.stderr);
  const files = [
    `${dir}/api/tokens.http`,
    `${dir}/api/http-client.env.json`,
  ].map((p) => Deno.readTextFileSync(p)).join("\n");
  assert.ok(!/svc-s3cret|ann-pw/.test(files), "no secret in the public files");
  const ran = await dial(["run", `${dir}/api/tokens.http`, "--env", "imported"]);
  assert.equal(ran.code, 0, ran.stderr);
  const [machine, person] = op.tokenRequests;
  assert.equal(machine?.body.get("grant_type"), "client_credentials");
  assert.equal(machine?.body.get("client_id"), "svc");
  assert.equal(machine?.body.get("client_secret"), "svc-s3cret", "client_authentication body");
  assert.equal(machine?.body.get("scope"), "read");
  assert.equal(person?.body.get("grant_type"), "password");
  assert.equal(person?.body.get("username"), "ann");
  assert.equal(person?.body.get("password"), "ann-pw");
  assert.match(seen[0]!, /^\/machine Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
  assert.match(seen[1]!, /^\/person [\w-]+\.[\w-]+\.[\w-]+$/, "the token in access_token");
});

Deno.test("import: an Insomnia multipart body reaches the server with the fields curl -F sends", async () => {
  const forms: Array<Array<[string, string]>> = [];
  await using server = serve(async (request) => {
    const form = await request.formData();
    const fields: Array<[string, string]> = [];
    for (const [name, value] of form) {
      fields.push([
        name,
        typeof value === "string" ? value : `${value.name}:${await value.text()}`,
      ]);
    }
    forms.push(fields);
    return new Response("ok");
  });
  const dir = await Deno.makeTempDir({ prefix: "dial-import-form-" });
  await Deno.writeTextFile(`${dir}/notes.txt`, "line one\nline two\n");
  const v4 = insomniaExport("Uploads", [
    insomnia("environment", "env_1", "wrk_1", {
      name: "Base",
      data: { base: server.origin, title: "Q3 report" },
    }),
    insomnia("request", "req_1", "wrk_1", {
      name: "Upload",
      method: "POST",
      url: "{{ _.base }}/upload",
      body: {
        mimeType: "multipart/form-data",
        params: [
          { name: "title", value: "{{ _.title }}" },
          { name: "file", type: "file", fileName: `${dir}/notes.txt` },
        ],
      },
    }),
  ]);
  await Deno.writeTextFile(`${dir}/insomnia.json`, JSON.stringify(v4));
  const curl = await new Deno.Command("curl", {
    args: [
      "-sS",
      "-F",
      "title=Q3 report",
      "-F",
      `file=@${dir}/notes.txt`,
      `${server.origin}/upload`,
    ],
  }).output();
  assert.equal(curl.code, 0, new TextDecoder().decode(curl.stderr));
  const imported = await dial(["import", `${dir}/insomnia.json`, "--out", `${dir}/api`]);
  assert.equal(imported.code, 0, imported.stderr);
  assert.doesNotMatch(imported.stderr, /Not carried/);
  // The export names the file by its absolute path, outside the folder the .http file is in:
  // a shared file reaches it only when the person allows that folder (docs/security.md).
  const refused = await dial(["run", `${dir}/api/uploads.http`]);
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(refused.stderr, /notes\.txt" is outside the run's folder/);
  assert.equal(forms.length, 1);
  const ran = await dial(["run", `${dir}/api/uploads.http`, "--allow-path", dir]);
  assert.equal(ran.code, 0, ran.stderr);
  assert.equal(forms.length, 2);
  assert.deepEqual(forms[1], forms[0]);
  assert.deepEqual(forms[0], [["title", "Q3 report"], ["file", "notes.txt:line one\nline two\n"]]);
});
