/**
 * Insomnia exports: a folder's environment applies to the requests below it (over the
 * workspace's), and `{% response %}` tags become request variables when their request runs
 * first in the same file (else they are reported); `dial test` of the import then sends each
 * request with the values Insomnia would, the chained token included.
 * @module
 */
import assert from "node:assert/strict";
import { insomnia, insomniaExport } from "../_insomnia.ts";
import { dial } from "../_helpers.ts";
import { headerValues, jsonAnswer, rawServer, requestPath } from "./_raw_server.ts";

function shop(origin: string) {
  return insomniaExport("Shop API", [
    insomnia("environment", "env_1", "wrk_1", { data: { host: origin } }),
    insomnia("environment", "env_2", "env_1", { name: "Prod", data: { region: "eu" } }),
    insomnia("request_group", "fld_1", "wrk_1", {
      name: "Orders",
      metaSortKey: -10,
      environment: { path: "/v2", region: "folder-wins" },
    }),
    insomnia("request", "req_me", "fld_1", {
      name: "Me",
      metaSortKey: 5,
      method: "GET",
      url: "{{ _.host }}{{ _.path }}/me?r={{ _.region }}",
      headers: [{
        name: "Authorization",
        value: "Bearer {% response 'body', 'req_login', 'b64::JC50b2tlbg==::46b', 'never', 60 %}",
      }],
    }),
    insomnia("request", "req_login", "fld_1", {
      name: "Log in",
      metaSortKey: 1,
      method: "POST",
      url: "{{ _.host }}{{ _.path }}/login",
      body: { mimeType: "application/json", text: '{"u":"a"}' },
      headers: [],
    }),
    insomnia("request", "req_other", "wrk_1", {
      name: "Other",
      metaSortKey: 0,
      method: "GET",
      url: "{{ _.host }}/other?r={{ _.region }}",
      headers: [{ name: "X-Id", value: "{% response 'body', 'req_login', '$.id' %}" }],
    }),
  ]);
}

Deno.test("import: Insomnia folder environments and response tags run as in Insomnia", async () => {
  await using server = rawServer(jsonAnswer('{"token":"srv-tok"}'));
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/ins.json`, JSON.stringify(shop(server.origin)));
  const imported = await dial(["import", "ins.json", "--out", "api"], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
  // The tag whose request runs in another file is reported, not silently copied.
  assert.match(imported.stderr, /Other: the tag \{% response 'body', 'req_login'/);
  const ran = await dial(["test", "api", "--env", "Prod"], { cwd: dir });
  assert.equal(ran.code, 0, ran.stdout + ran.stderr);
  const seen = server.requests.map((r) => ({
    target: `${r.line.split(" ")[0]} ${requestPath(r)}`,
    authorization: headerValues(r, "authorization").join(),
  }));
  // Insomnia's order (metaSortKey), the folder's variables over the environment's, the token
  // read from the login's response.
  assert.deepEqual(seen, [
    { target: "POST /v2/login", authorization: "" },
    { target: "GET /v2/me?r=folder-wins", authorization: "Bearer srv-tok" },
    { target: "GET /other?r=eu", authorization: "" },
  ]);
});
