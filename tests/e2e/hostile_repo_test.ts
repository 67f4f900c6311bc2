/**
 * The hostile repository (issue 34, docs/security.md): request and environment files written by
 * a stranger are data. Each test builds a repository in a temporary folder beside a "home" with
 * a secret and a victim file, runs `dial run` / `dial test` (and the UI's ▶ Run and Send) on it,
 * and checks that no command ran (marker files), that the recording server on 127.0.0.1 never
 * received the secret (or anything, for a refused run), and that files outside the folder are
 * unchanged; and that what JetBrains and REST Client files do inside their own folder still works.
 * @module
 */
import assert from "node:assert/strict";
import { dial, serve, type TestServer } from "../_helpers.ts";
import { runProgram } from "../_process.ts";
import { excludes, includes } from "../assert.ts";
import { startUiServer } from "../../src/ui/server.ts";
import { apiHeaders, sessionOf } from "../ui/_session.ts";
import { clientCredentialsAuth } from "./_files.ts";

const SECRET = "AKIA-HOSTILE-TEST-SECRET-9f3e";
const VICTIM = "the victim's own line\n";

/** A home with a secret and a victim file, and the repository folder inside it. */
interface Scene {
  home: string;
  repo: string;
  secret: string;
  victim: string;
  marker: string;
}

async function scene(files: (s: Omit<Scene, "repo">) => Record<string, string>): Promise<Scene> {
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "dial-hostile-" }));
  const base = {
    home,
    secret: `${home}/credentials`,
    victim: `${home}/.bashrc`,
    marker: `${home}/MARKER`,
  };
  await Deno.writeTextFile(base.secret, `${SECRET}\n`);
  await Deno.writeTextFile(base.victim, VICTIM);
  const repo = `${home}/repo`;
  for (const [name, text] of Object.entries(files(base))) {
    await Deno.mkdir(`${repo}/${name}`.replace(/\/[^/]*$/, ""), { recursive: true });
    if (text.startsWith("symlink:")) await Deno.symlink(text.slice(8), `${repo}/${name}`);
    else await Deno.writeTextFile(`${repo}/${name}`, text);
  }
  return { ...base, repo };
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

/** Nothing ran, nothing outside changed, and the server never saw the secret. */
async function untouched(s: Scene, server: TestServer): Promise<void> {
  assert.equal(await exists(s.marker), false, "a command of the repository ran");
  assert.equal(await Deno.readTextFile(s.victim), VICTIM, "a file outside the folder changed");
  for (const request of server.requests) {
    const text = `${request.url}\n${[...request.headers].join("\n")}\n${await request.text()}`;
    excludes(text, SECRET, "the secret reached the server");
  }
}

function recorder(): TestServer {
  return serve(async (request) => new Response(`got ${(await request.text()).length}`));
}

const env = (data: unknown) => JSON.stringify(data);

Deno.test("hostile repo: a shared @exec: runs nothing, unused or used, in $shared or the environment; nothing is sent", async () => {
  await using server = recorder();
  const s = await scene((b) => ({
    "http-client.env.json": env({
      $shared: { s: `@exec:/usr/bin/touch ${b.marker}` },
      dev: { host: "unused" },
    }),
    "api.http": `GET ${server.origin}/a\n`,
    "other/http-client.env.json": env({ dev: { k: `@exec:/usr/bin/touch ${b.marker}` } }),
    "other/api.http": `GET ${server.origin}/b?k={{k}}\n`,
    "auth/http-client.env.json": env({
      dev: {
        Security: {
          Auth: {
            app: clientCredentialsAuth(
              `${server.origin}/token`,
              "app",
              `@exec:/usr/bin/touch ${b.marker}`,
            ),
          },
        },
      },
    }),
    "auth/api.http": `GET ${server.origin}/c\nAuthorization: Bearer {{$auth.token("app")}}\n`,
  }));
  const run = await dial(["run", `${s.repo}/api.http`]);
  assert.equal(run.code, 2, run.stderr);
  includes(
    run.stderr,
    `Refused "s" in ${s.repo}/http-client.env.json: a shared file cannot run commands`,
  );
  includes(run.stderr, "http-client.private.env.json");
  for (const dir of ["other", "auth"]) {
    const used = await dial(["run", `${s.repo}/${dir}/api.http`, "--env", "dev"]);
    assert.equal(used.code, 2, used.stderr);
    includes(
      used.stderr,
      `in ${s.repo}/${dir}/http-client.env.json: a shared file cannot run commands`,
    );
  }
  const test = await dial(["test", s.repo, "--env", "dev"]);
  assert.notEqual(test.code, 0);
  includes(test.stderr, "a shared file cannot run commands");
  assert.equal(server.requests.length, 0);
  await untouched(s, server);
});

Deno.test("hostile repo: the private env file's @exec: runs only when a request uses it; tracked by git or writable by others, it is shared", async () => {
  await using server = recorder();
  const s = await scene((b) => ({
    "http-client.env.json": env({ dev: { origin: server.origin } }),
    "http-client.private.env.json": env({
      dev: { token: "@exec:printf tok-from-helper", unused: `@exec:/usr/bin/touch ${b.marker}` },
    }),
    "api.http": "GET {{origin}}/me\nAuthorization: Bearer {{token}}\n",
    // A script that names a reference gets it read; one that does not, does not.
    "script.http":
      "GET {{origin}}/script\n\n> {% client.test('sees it', () => client.assert(request.environment.get('token') === 'tok-from-helper')); %}\n",
  }));
  const run = await dial(["run", `${s.repo}/api.http`, "--env", "dev"]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(server.requests.length, 1);
  assert.equal(server.requests[0]!.headers.get("authorization"), "Bearer tok-from-helper");
  assert.equal(await exists(s.marker), false, "an unused @exec: ran");
  const script = await dial(["test", `${s.repo}/script.http`, "--env", "dev"]);
  assert.equal(script.code, 0, script.stdout + script.stderr);
  includes(script.stdout, "sees it");
  assert.equal(await exists(s.marker), false, "an unused @exec: ran");
  // One anybody may write (a second local user) is not the person's own.
  await Deno.chmod(`${s.repo}/http-client.private.env.json`, 0o666);
  const writable = await dial(["run", `${s.repo}/api.http`, "--env", "dev"]);
  assert.equal(writable.code, 2, writable.stderr);
  includes(writable.stderr, "a shared file cannot run commands");
  await Deno.chmod(`${s.repo}/http-client.private.env.json`, 0o600);
  // The same file committed to the repository came with it: it is a shared file.
  const git = (...args: string[]) => runProgram("git", ["-C", s.repo, ...args]);
  assert.equal((await git("init", "-q")).code, 0);
  assert.equal((await git("add", "http-client.private.env.json")).code, 0);
  const tracked = await dial(["run", `${s.repo}/api.http`, "--env", "dev"]);
  assert.equal(tracked.code, 2, tracked.stderr);
  includes(
    tracked.stderr,
    `in ${s.repo}/http-client.private.env.json: a shared file cannot run commands`,
  );
  assert.equal(server.requests.length, 2);
  await untouched(s, server);
});

Deno.test("hostile repo: Visual Studio's http-client.env.json.user is the person's own only while git does not track it", async () => {
  await using server = recorder();
  const s = await scene((b) => ({
    "http-client.env.json": env({ dev: { origin: server.origin } }),
    "http-client.env.json.user": env({
      dev: { token: "@exec:printf tok-from-user-file", unused: `@exec:/usr/bin/touch ${b.marker}` },
    }),
    "api.http": "GET {{origin}}/me\nAuthorization: Bearer {{token}}\n",
  }));
  const own = await dial(["run", `${s.repo}/api.http`, "--env", "dev"]);
  assert.equal(own.code, 0, own.stderr);
  assert.equal(server.requests[0]!.headers.get("authorization"), "Bearer tok-from-user-file");
  assert.equal(await exists(s.marker), false, "an unused @exec: ran");
  const git = (...args: string[]) => runProgram("git", ["-C", s.repo, ...args]);
  assert.equal((await git("init", "-q")).code, 0);
  assert.equal((await git("add", "http-client.env.json.user")).code, 0);
  const tracked = await dial(["run", `${s.repo}/api.http`, "--env", "dev"]);
  assert.equal(tracked.code, 2, tracked.stderr);
  includes(
    tracked.stderr,
    `in ${s.repo}/http-client.env.json.user: a shared file cannot run commands`,
  );
  assert.equal(server.requests.length, 1);
  await untouched(s, server);
});

Deno.test("hostile repo: shared @path values, < includes and symlinks out of the folder send nothing", async () => {
  await using server = recorder();
  const s = await scene((b) => ({
    "http-client.env.json": env({
      abs: { k: `@${b.secret}` },
      up: { k: "@../credentials" },
      link: { k: "@./creds" },
    }),
    "creds": `symlink:${b.secret}`,
    "env.http": `POST ${server.origin}/env\n\n{{k}}\n`,
    "abs.http": `POST ${server.origin}/abs\n\n< ${b.secret}\n`,
    "up.http": `POST ${server.origin}/up\n\n< ../credentials\n`,
    "link.http": `POST ${server.origin}/link\n\n< ./creds\n`,
    "subst.http": `POST ${server.origin}/subst\n\n<@ ../credentials\n`,
    "multi.http":
      `POST ${server.origin}/multi\nContent-Type: multipart/form-data; boundary=X\n\n--X\nContent-Disposition: form-data; name="f"; filename="c"\n\n< ./creds\n--X--\n`,
  }));
  for (const name of ["abs", "up", "link"]) {
    const result = await dial(["run", `${s.repo}/env.http`, "--env", name]);
    assert.equal(result.code, 2, result.stderr);
    includes(result.stderr, `Refused "k" of ${s.repo}/http-client.env.json:`);
    includes(result.stderr, `is outside the run's folder (${s.repo})`);
    includes(result.stderr, `--allow-path ${s.home}`);
  }
  for (const name of ["abs", "up", "link", "subst", "multi"]) {
    const result = await dial(["run", `${s.repo}/${name}.http`]);
    assert.equal(result.code, 2, `${name}: ${result.stderr}`);
    includes(result.stderr, `Refused the body file of ${s.repo}/${name}.http:`);
    excludes(result.stderr, SECRET);
  }
  const test = await dial(["test", s.repo]);
  assert.notEqual(test.code, 0);
  assert.equal(server.requests.length, 0);
  await untouched(s, server);
});

Deno.test("hostile repo: an environment file or .env that links out of the folder is not read", async () => {
  await using server = recorder();
  const s = await scene((b) => ({
    "linked/http-client.env.json": `symlink:${b.home}/app.json`,
    "linked/api.http": `POST ${server.origin}/env\n\n{{token}}\n`,
    "dotenv/.env": `symlink:${b.secret}.ini`,
    "dotenv/api.http": `POST ${server.origin}/dotenv\n\n{{$dotenv aws_secret_access_key}}\n`,
  }));
  // Another application's settings, and credentials in the INI form .env files share.
  await Deno.writeTextFile(`${s.home}/app.json`, env({ $shared: { token: SECRET } }));
  await Deno.writeTextFile(`${s.secret}.ini`, `[default]\naws_secret_access_key = ${SECRET}\n`);
  const linked = await dial(["run", `${s.repo}/linked/api.http`]);
  assert.equal(linked.code, 2, linked.stderr);
  includes(
    linked.stderr,
    `Refused ${s.repo}/linked/http-client.env.json: it is a link out of its folder`,
  );
  const dotenv = await dial(["run", `${s.repo}/dotenv/api.http`]);
  assert.equal(dotenv.code, 2, dotenv.stderr);
  includes(dotenv.stderr, `Refused the .env file of ${s.repo}/dotenv/api.http: ".env" is outside`);
  assert.equal(server.requests.length, 0);
  await untouched(s, server);
});

Deno.test("hostile repo: >> and >>! outputs and handler scripts outside the folder are refused before sending", async () => {
  await using server = recorder();
  const s = await scene((b) => ({
    "abs.http": `GET ${server.origin}/abs\n\n>>! ${b.victim}\n`,
    "up.http": `GET ${server.origin}/up\n\n>>! ../.bashrc\n`,
    "new.http": `GET ${server.origin}/new\n\n>> ../planted.sh\n`,
    "rc": `symlink:${b.victim}`,
    "link.http": `GET ${server.origin}/link\n\n>>! ./rc\n`,
    "dangling": `symlink:${b.home}/not-yet`,
    "dangling.http": `GET ${server.origin}/dangling\n\n>>! ./dangling\n`,
    "script.http": `GET ${server.origin}/script\n\n> ../handler.js\n`,
    "creds.txt": `${SECRET}\n`,
    "notjs.http": `GET ${server.origin}/notjs\n\n> ./creds.txt\n`,
    // A harmless file beside them: `dial test .` checks every file first and sends nothing.
    "a-harmless.http": `GET ${server.origin}/harmless\n`,
  }));
  await Deno.writeTextFile(`${s.home}/handler.js`, "client.global.set('x', 1);\n");
  for (const name of ["abs", "up", "new", "link", "dangling", "script"]) {
    const result = await dial(["run", `${s.repo}/${name}.http`]);
    assert.equal(result.code, 2, `${name}: ${result.stderr}`);
    includes(result.stderr, `is outside the run's folder (${s.repo})`);
  }
  const notJs = await dial(["run", `${s.repo}/notjs.http`]);
  assert.equal(notJs.code, 2, notJs.stderr);
  includes(notJs.stderr, `The script file "./creds.txt" is not a JavaScript file (.js)`);
  excludes(notJs.stderr, SECRET);
  const test = await dial(["test", s.repo]);
  assert.notEqual(test.code, 0);
  excludes(test.stdout + test.stderr, SECRET);
  assert.equal(server.requests.length, 0);
  assert.equal(await exists(`${s.home}/planted.sh`), false);
  assert.equal(await exists(`${s.home}/not-yet`), false);
  await untouched(s, server);
});

Deno.test("hostile repo: what JetBrains and REST Client files do inside their folder still works; --allow-path widens it", async () => {
  await using server = serve(async (request) =>
    Response.json({
      path: new URL(request.url).pathname + new URL(request.url).search,
      body: await request.text(),
    })
  );
  const s = await scene(() => ({
    // A shared @path inside the folder, and a shared @env: (the CLI reads it, as every peer
    // reads {{$processEnv}}).
    "http-client.env.json": env({
      dev: { origin: server.origin, key: "@./keys/api.key", home: "@env:DIAL_HOSTILE_HOME" },
    }),
    "keys/api.key": "key-inside\n",
    "data/body.json": '{"a":1}',
    "data/link.json": "symlink:body.json",
    "scripts/after.js": "client.test('ok', () => client.assert(response.status === 200));\n",
    "api.http": [
      "POST {{origin}}/in",
      "X-Key: {{key}}",
      "",
      "< ./data/link.json",
      "",
      ">>! ./out/saved.json",
      "> ./scripts/after.js",
      "",
      "###",
      "GET {{origin}}/env?home={{home}}",
      "",
    ].join("\n"),
    "out/.keep": "",
    "sub/up.http": `POST ${server.origin}/up\n\n< ../data/body.json\n`,
    "sub/out.http": `GET ${server.origin}/out\n\n>>! ../../allowed/out.json\n`,
  }));
  await Deno.mkdir(`${s.home}/allowed`);
  const run = await dial(["run", `${s.repo}/api.http`, "--env", "dev"], {
    env: { DIAL_HOSTILE_HOME: "from-cli-env" },
  });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(server.requests[0]!.headers.get("x-key"), "key-inside");
  assert.equal(JSON.parse(await Deno.readTextFile(`${s.repo}/out/saved.json`)).body, '{"a":1}');
  includes(run.stdout, "/env?home=from-cli-env");
  // `dial test DIR`: the root is DIR, so sub/ may include ../data; `dial run sub/up.http` may not.
  const test = await dial(["test", `${s.repo}/sub/up.http`, s.repo, "--env", "dev"]);
  includes(test.stdout + test.stderr, `Refused the body file of ${s.repo}/sub/up.http:3`);
  const alone = await dial(["run", `${s.repo}/sub/up.http`]);
  assert.equal(alone.code, 2, alone.stderr);
  const allowed = await dial(["run", `${s.repo}/sub/up.http`, "--allow-path", s.repo]);
  assert.equal(allowed.code, 0, allowed.stderr);
  includes(allowed.stdout, '"body":"{\\"a\\":1}"');
  const out = await dial([
    "run",
    `${s.repo}/sub/out.http`,
    "--allow-path",
    `${s.home}/allowed`,
  ]);
  assert.equal(out.code, 0, out.stderr);
  assert.equal(JSON.parse(await Deno.readTextFile(`${s.home}/allowed/out.json`)).path, "/out");
  await untouched(s, server);
});

Deno.test("hostile repo: in the UI a shared @env: is refused, the private one read; ▶ Run confines outputs and includes", async () => {
  await using server = recorder();
  const s = await scene(() => ({
    "http-client.env.json": env({
      shared: { origin: server.origin, k: "@env:DIAL_HOSTILE_SECRET" },
      mine: { origin: server.origin },
    }),
    "http-client.private.env.json": env({ mine: { k: "@env:DIAL_HOSTILE_SECRET" } }),
    "send.http": "POST {{origin}}/send\n\n{{k}}\n",
    "out.http": `GET ${server.origin}/out\n\n>>! ../.bashrc\n`,
    "in.http": `POST ${server.origin}/in\n\n< ../credentials\n`,
  }));
  Deno.env.set("DIAL_HOSTILE_SECRET", SECRET);
  try {
    await using ui = await startUiServer({ assets: { js: "", css: "" }, workspace: s.repo });
    const session = await sessionOf(ui);
    const call = async (path: string, body: unknown) =>
      await (await fetch(new URL(path, ui.url), {
        method: "POST",
        headers: apiHeaders(session),
        body: JSON.stringify(body),
      })).text();
    const request = (environment: string) => ({
      method: "POST",
      url: "{{origin}}/send",
      body: { kind: "text", text: "{{k}}" },
      file: "send.http",
      environment,
    });
    const refused = await call("/api/http", request("shared"));
    includes(refused, "environment variables (@env:) are read only from the private env file here");
    assert.equal(server.requests.length, 0);
    const ran = await call("/api/workspace/run", { path: "send.http", environment: "shared" });
    includes(ran, "environment variables (@env:) are read only from the private env file here");
    for (const path of ["out.http", "in.http"]) {
      const answer = await call("/api/workspace/run", { path });
      includes(answer, "is outside the workspace");
      includes(answer, "allow that folder when you start dial ui");
    }
    assert.equal(server.requests.length, 0);
    await untouched(s, server);
    // The person's own file may read the environment: the value is sent, never shown.
    const mine = await call("/api/http", request("mine"));
    excludes(mine, SECRET);
    assert.equal(server.requests.length, 1);
    assert.equal(await server.requests[0]!.text(), SECRET);
  } finally {
    Deno.env.delete("DIAL_HOSTILE_SECRET");
  }
  // `dial ui --allow-path DIR` widens ▶ Run as it widens `dial test`.
  await Deno.mkdir(`${s.home}/shared-data`);
  await Deno.writeTextFile(`${s.home}/shared-data/body.txt`, "allowed body");
  await Deno.writeTextFile(
    `${s.repo}/allowed.http`,
    `POST ${server.origin}/allowed\n\n< ../shared-data/body.txt\n`,
  );
  await using wide = await startUiServer({
    assets: { js: "", css: "" },
    workspace: s.repo,
    allowPaths: [`${s.home}/shared-data`],
  });
  const answer = await (await fetch(new URL("/api/workspace/run", wide.url), {
    method: "POST",
    headers: apiHeaders(await sessionOf(wide)),
    body: JSON.stringify({ path: "allowed.http" }),
  })).text();
  includes(answer, '"passed":1');
  assert.equal(await server.requests.at(-1)!.text(), "allowed body");
});

Deno.test("hostile repo: an imported collection's @exec: and @path values stay literal, even in the private env file", async () => {
  await using server = recorder();
  const s = await scene((b) => ({
    "vendor/collection.json": JSON.stringify({
      info: {
        name: "vendor",
        schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
      },
      item: [{
        name: "me",
        request: {
          method: "POST",
          url: `${server.origin}/me`,
          header: [{ key: "Authorization", value: "Bearer {{api_token}}" }],
          body: { mode: "raw", raw: "{{host}}" },
        },
      }],
    }),
    "vendor/environment.json": JSON.stringify({
      name: "dev",
      _postman_variable_scope: "environment",
      values: [
        { key: "api_token", value: `@exec:/usr/bin/touch ${b.marker}`, type: "secret" },
        { key: "host", value: `@${b.secret}` },
      ],
    }),
  }));
  const imported = await dial([
    "import",
    `${s.repo}/vendor/collection.json`,
    `${s.repo}/vendor/environment.json`,
    "--out",
    `${s.repo}/api`,
  ]);
  assert.equal(imported.code, 0, imported.stderr);
  const run = await dial(["run", `${s.repo}/api/vendor.http`, "--env", "dev"]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(server.requests.length, 1);
  const [request] = server.requests;
  assert.equal(request!.headers.get("authorization"), `Bearer @exec:/usr/bin/touch ${s.marker}`);
  await untouched(s, server);
});
