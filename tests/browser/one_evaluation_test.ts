import assert from "node:assert/strict";
import { dial, tempDir, waitFor } from "../_helpers.ts";
import { jsonAnswer, type RawRequest, rawServer } from "../e2e/_raw_server.ts";
import { fileBrowser, openApp, openRequest } from "./_browser.ts";

const browser = fileBrowser();

/** Every kind of variable `dial run` fills, in one request that refers to another. */
const FILE = `@host = {{base}}
@fileVar = from-file

### login
# @name login
POST {{host}}/login
Content-Type: application/json

{"user": "{{user}}", "password": "{{password}}"}

> {%
  client.global.set("gtoken", "g-" + response.body.token);
%}

### all
# @name all
< {%
  request.variables.set("rv", "req-var");
%}
POST {{host}}/all?shared={{sharedVar}}&env={{$processEnv DIAL_ONE_EVAL}}
Authorization: Bearer {{login.response.body.$.token}}
X-Global: {{gtoken}}
X-Req: {{rv}}
X-Dotenv: {{$dotenv DOTENV_KEY}}
X-Private: {{secretKey}}
Content-Type: application/json

{"file": "{{fileVar}}", "user": "{{user}}"}

> {%
  client.test("login's token was sent", () => {
    client.assert(response.body.token === "tok-1", "token " + response.body.token);
  });
  client.log("handled " + response.status);
%}
`;

/** A request's bytes with what may differ between two sends of the same request (the port). */
function bytesOf(request: RawRequest): string {
  return new TextDecoder().decode(request.head) + new TextDecoder().decode(request.body);
}

Deno.test(
  "browser: Send of a file's request puts on the wire what dial run puts, every variable kind",
  async () => {
    await using target = rawServer(jsonAnswer('{"token": "tok-1"}'));
    const workspace = await Deno.makeTempDir({ prefix: "dial-ui-one-eval-" });
    await Deno.writeTextFile(`${workspace}/api.http`, FILE);
    await Deno.writeTextFile(`${workspace}/.env`, "DOTENV_KEY=from-dotenv\n");
    await Deno.writeTextFile(
      `${workspace}/http-client.env.json`,
      JSON.stringify({ $shared: { sharedVar: "sh" }, dev: { base: target.origin, user: "ann" } }),
    );
    await Deno.writeTextFile(
      `${workspace}/http-client.private.env.json`,
      JSON.stringify({ dev: { password: "pw-1", secretKey: "sk-1" } }),
    );
    const processValue = "pe-value";
    try {
      // dial run: login runs first (all refers to it), then all.
      const run = await dial(["run", `${workspace}/api.http`, "all", "--env", "dev"], {
        env: { DIAL_ONE_EVAL: processValue },
      });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(target.requests.length, 2);
      const [cliLogin, cliAll] = target.requests.splice(0) as [RawRequest, RawRequest];
      const cliText = bytesOf(cliAll);
      for (
        const part of [
          "POST /all?shared=sh&env=pe-value HTTP/1.1",
          "Authorization: Bearer tok-1",
          "X-Global: g-tok-1",
          "X-Req: req-var",
          "X-Dotenv: from-dotenv",
          "X-Private: sk-1",
          '{"file": "from-file", "user": "ann"}',
        ]
      ) assert.ok(cliText.toLowerCase().includes(part.toLowerCase()), `${part} in ${cliText}`);

      await using app = await openApp(browser(), {
        workspace,
        transport: {
          env: (name) => name === "DIAL_ONE_EVAL" ? processValue : Deno.env.get(name),
        },
      });
      const { page } = app;
      const sidebar = await openRequest(page, "api.http", "POST all", "dev");
      await page.getByRole("button", { name: "Send", exact: true }).click();
      const tests = page.getByRole("region", { name: "Tests" });
      await tests.getByText("✓ login's token was sent").waitFor();
      await page.getByText("Ran first: login (200)").waitFor();
      assert.equal(target.requests.length, 2);
      const [uiLogin, uiAll] = target.requests.splice(0) as [RawRequest, RawRequest];
      assert.equal(bytesOf(uiLogin), bytesOf(cliLogin));
      assert.equal(bytesOf(uiAll), cliText);
      await page.getByText("Log (1)").click();
      await page.getByLabel("Script log").getByText("handled 200").waitFor();

      // The session goes on: login's result and the global stay; only all is sent again.
      const send = page.getByRole("button", { name: "Send", exact: true });
      await send.click();
      await waitFor(() => target.requests.length === 1, { message: "all sent again" });
      await send.and(page.locator(":enabled")).waitFor();
      assert.equal(bytesOf(target.requests[0]!), cliText);
      target.requests.splice(0);

      // ▶ Run shares the session; each step opens what it sent and got.
      await sidebar.getByRole("button", { name: "Run api.http" }).click();
      const runner = page.getByRole("region", { name: "Runner" });
      await runner.getByText("2 passed, 0 failed").waitFor();
      assert.equal(bytesOf(target.requests[1]!), cliText);
      target.requests.splice(0);
      await runner.getByRole("button", { name: "Open all" }).click();
      const step = runner.getByRole("group", { name: /^POST .*\/all\?shared=sh/ });
      await step.getByText("Request: POST").click();
      const sentHeaders = step.getByRole("table", { name: "Request headers" });
      await sentHeaders.getByRole("row", { name: "x-global g-tok-1" }).or(
        sentHeaders.getByRole("row", { name: "X-Global g-tok-1" }),
      ).waitFor();
      await sentHeaders.getByRole("row", { name: /authorization \(redacted\)/i }).waitFor();
      await step.getByLabel("Response body").getByText('"tok-1"').waitFor();

      // The tab's edits are overrides of the file's request, evaluated the same way.
      await page.getByLabel("Headers value 2", { exact: true }).fill("{{gtoken}}-edited");
      await page.getByRole("button", { name: "Send", exact: true }).click();
      await waitFor(() => target.requests.length === 1, { message: "the edited request sent" });
      assert.match(bytesOf(target.requests[0]!), /^x-global: g-tok-1-edited\r?$/im);
    } finally {
      await Deno.remove(workspace, { recursive: true });
    }
  },
);

/** A request typed in a new tab, and the same request in a file at the workspace's top. */
const TOP = `### login
# @name login
POST {{base}}/login
Content-Type: application/json

{"user": "{{user}}", "password": "{{password}}"}

> {%
  client.global.set("gtoken", "g-" + response.body.token);
%}

### tab
# @name tab
GET {{base}}/tab?env={{$processEnv DIAL_ONE_EVAL}}
Authorization: Bearer {{login.response.body.$.token}}
X-Global: {{gtoken}}
X-Dotenv: {{$dotenv DOTENV_KEY}}
X-Private: {{secretKey}}
`;

Deno.test(
  "browser: a tab in no file has a file's scope (globals, named results, $processEnv, $dotenv): the bytes of dial run",
  async () => {
    await using target = rawServer(jsonAnswer('{"token": "tok-1"}'));
    await using dir = await tempDir("dial-ui-nofile-scope-", {
      "top.http": TOP,
      ".env": "DOTENV_KEY=from-dotenv\n",
      "http-client.env.json": JSON.stringify({ dev: { base: target.origin, user: "ann" } }),
      "http-client.private.env.json": JSON.stringify({
        dev: { password: "pw", secretKey: "sk-1" },
      }),
    });
    await using outside = await tempDir("dial-ui-nofile-outside-", { ".env": "DOTENV_KEY=leak\n" });
    const processValue = "pe-value";
    // dial run: login runs first (tab refers to it), then tab.
    const run = await dial(["run", `${dir.path}/top.http`, "tab", "--env", "dev"], {
      env: { DIAL_ONE_EVAL: processValue },
    });
    assert.equal(run.code, 0, run.stderr);
    const cliTab = bytesOf(target.requests.splice(0)[1]!);
    assert.match(cliTab, /^GET \/tab\?env=pe-value HTTP\/1\.1\r\n/);
    for (
      const line of [
        "authorization: Bearer tok-1",
        "x-global: g-tok-1",
        "x-dotenv: from-dotenv",
        "x-private: sk-1",
      ]
    ) assert.ok(cliTab.toLowerCase().includes(line.toLowerCase()), `${line} in ${cliTab}`);

    await using app = await openApp(browser(), {
      workspace: dir.path,
      transport: { env: (name) => name === "DIAL_ONE_EVAL" ? processValue : Deno.env.get(name) },
    });
    const { page } = app;
    const sidebar = page.getByRole("navigation", { name: "Workspace" });
    await sidebar.getByLabel("Environment").selectOption("dev");
    // The first tab is in no file: the text of top.http's `tab`.
    await page.getByLabel("URL", { exact: true }).fill(
      "{{base}}/tab?env={{$processEnv DIAL_ONE_EVAL}}",
    );
    const rows = [
      ["Authorization", "Bearer {{login.response.body.$.token}}"],
      ["X-Global", "{{gtoken}}"],
      ["X-Dotenv", "{{$dotenv DOTENV_KEY}}"],
      ["X-Private", "{{secretKey}}"],
    ];
    for (const [i, [name, value]] of rows.entries()) {
      await page.getByLabel(`Headers name ${i + 1}`, { exact: true }).fill(name!);
      await page.getByLabel(`Headers value ${i + 1}`, { exact: true }).fill(value!);
    }
    // Before login ran in the session: nothing is sent, and the hint says what to run.
    const send = page.getByRole("button", { name: "Send", exact: true });
    await send.click();
    await page.getByRole("alert").filter({
      hasText: 'Request "login" of "top.http" has not run in this dial ui session',
    }).filter({ hasText: "Send or ▶ Run login in top.http first" }).waitFor();
    assert.equal(target.requests.length, 0);
    // The variables line says which file's login the tab reads.
    const line = page.locator("p.variables-line:visible");
    await line.getByText("{{login.response.body.$.token}} (the result of login in top.http)")
      .waitFor();

    // ▶ Run of top.http: login's handler sets the global, its result is the session's.
    await sidebar.getByRole("button", { name: "Run top.http" }).click();
    const runner = page.getByRole("region", { name: "Runner" });
    await runner.getByText(/2 passed, 0 failed/).waitFor();
    assert.equal(target.requests.splice(0).length, 2);

    // The variables line resolves from Send's scope: the global is defined, nothing undefined.
    await line.getByText("{{gtoken}} = (set by a script) (a global of this session)").waitFor();
    assert.equal(await line.getByRole("alert").count(), 0, await line.innerText());
    assert.equal(
      await page.getByLabel("Headers value 2", { exact: true }).getAttribute("aria-invalid"),
      null,
    );
    await send.click();
    await waitFor(() => target.requests.length === 1, { message: "the tab's request sent" });
    assert.equal(bytesOf(target.requests.splice(0)[0]!), cliTab);

    // Another file names a request login too: the tab's reference is ambiguous. Send says so,
    // naming both files, and sends nothing (dial run reads a file's own requests).
    await Deno.writeTextFile(
      `${dir.path}/other.http`,
      "### login\n# @name login\nGET {{base}}/x\n",
    );
    // The variables line follows the workspace: it says so before Send.
    await line.getByRole("alert").filter({
      hasText: "login is named in other.http and top.http",
    }).waitFor();
    await send.click();
    await page.getByRole("alert").filter({
      hasText: 'Request "login" is ambiguous: it is named in "other.http" and "top.http"',
    }).waitFor();
    assert.equal(target.requests.length, 0, "nothing sent");
    await Deno.remove(`${dir.path}/other.http`);

    // The .env of a tab in no file is confined as a file's is: linked out, it is not read.
    await Deno.remove(`${dir.path}/.env`);
    await Deno.symlink(`${outside.path}/.env`, `${dir.path}/.env`);
    const refused = await dial(["run", `${dir.path}/top.http`, "tab", "--env", "dev"]);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /\.env/);
    await send.click();
    await page.getByRole("alert").filter({ hasText: "the .env file of the workspace" }).waitFor();
    assert.equal(target.requests.length, 0, "nothing sent");
  },
);

Deno.test("browser: ▶ Run from the GraphQL tab shows its results: the runner's HTTP tab comes to the front", async () => {
  await using target = rawServer(jsonAnswer('{"data": {"ok": 1}}'));
  await using dir = await tempDir("dial-ui-run-front-", {
    "api.http": `### q\n# @name q\nGRAPHQL ${target.origin}/graphql\n\n{ ok }\n`,
  });
  await using app = await openApp(browser(), { workspace: dir.path });
  const { page } = app;
  const sidebar = await openRequest(page, "api.http", "GRAPHQL q");
  await page.getByRole("tab", { name: "GraphQL", selected: true }).waitFor();
  await sidebar.getByRole("button", { name: "Run api.http" }).click();
  await page.getByRole("tab", { name: "HTTP", selected: true }).waitFor();
  const runner = page.getByRole("region", { name: "Runner" });
  await runner.getByText("1 passed, 0 failed").waitFor();
  assert.equal(target.requests.length, 1);
});
