/**
 * The built CLI (`deno task build`, what `deno task install` installs): two files at start-up,
 * every lazily loaded part working from its chunk, one instance of each shared module.
 */
import assert from "node:assert/strict";
import { includes } from "../assert.ts";
import { dial, dialEnv, firstLine, serve } from "../_helpers.ts";
import { buildCli } from "../../scripts/build_cli.ts";
import { deferServer } from "./_graphql_servers.ts";
import { startMockServer } from "./_oauth_servers.ts";

let built: Promise<string> | undefined;

/** Builds once per test process, into a temporary directory. */
function builtCli(): Promise<string> {
  return built ??= (async () => {
    const dir = await Deno.makeTempDir({ prefix: "dial-built-" });
    await buildCli(`${dir}/`);
    return `${dir}/dial.js`;
  })();
}

async function startUpGraph(file: string): Promise<string[]> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--no-config", file],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
  const info = JSON.parse(new TextDecoder().decode(output.stdout));
  return info.modules.map((m: { specifier: string }) => m.specifier);
}

Deno.test("built CLI: dial GET starts from two files and Deno's graph resolves no npm package", async () => {
  const file = await builtCli();
  const modules = await startUpGraph(file);
  assert.equal(modules.length, 2, modules.join("\n"));
  assert.ok(modules.every((m) => m.startsWith("file://")), modules.join("\n"));
});

Deno.test("built CLI: requests, -v and usage errors behave as from source", async () => {
  const file = await builtCli();
  await using server = serve((request) =>
    Response.json({ method: request.method, auth: request.headers.get("authorization") })
  );
  const get = await dial(["GET", `${server.origin}/x`, "-v", "-B", "tok"], { built: file });
  assert.equal(get.code, 0, get.stderr);
  assert.deepEqual(JSON.parse(get.stdout), { method: "GET", auth: "Bearer tok" });
  includes(get.stderr, "\nauthorization: (redacted)\n");
  const post = await dial(["POST", `${server.origin}/x`, "--json", '{"a":1}'], { built: file });
  assert.equal(JSON.parse(post.stdout).method, "POST");
  const usage = await dial(["GET", `${server.origin}/x`, "--bogus"], { built: file });
  assert.equal(usage.code, 2);
  includes(usage.stderr, "--bogus");
  assert.equal((await dial(["--version"], { built: file })).code, 0);
});

Deno.test("built CLI: GraphQL (npm chunk) and its errors keep their exit codes", async () => {
  const file = await builtCli();
  await using server = await deferServer({ kind: "none" });
  const ok = await dial(["graphql", `${server.origin}/graphql`, "-q", "{ __typename }"], {
    built: file,
  });
  assert.equal(ok.code, 0, ok.stderr);
  includes(ok.stdout, "__typename");
  await using plain = serve(() => Response.json({ nothing: true }));
  const notGraphQL = await dial(["graphql", `${plain.origin}/`, "-q", "{ a }"], { built: file });
  assert.equal(notGraphQL.code, 1, notGraphQL.stderr);
  includes(notGraphQL.stderr, "error: Not a GraphQL response");
});

Deno.test("built CLI: an OAuth 2.0 grant (oauth4webapi chunk) and an auth failure's exit 9", async () => {
  const file = await builtCli();
  await using oauth = await startMockServer();
  await using api = serve((request) => new Response(request.headers.get("authorization") ?? ""));
  const home = await Deno.makeTempDir();
  const grant = `client_credentials:${oauth.tokenUrl}:app:secret`;
  const ok = await dial(["GET", api.origin, "--oauth2", grant], {
    built: file,
    env: { HOME: home },
  });
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /^Bearer ey/);
  await using refusing = serve(() => Response.json({ error: "invalid_client" }, { status: 401 }));
  const bad = `client_credentials:${refusing.origin}/token:app:secret`;
  const failed = await dial(["GET", api.origin, "--oauth2", bad, "--oauth2-no-cache"], {
    built: file,
  });
  assert.equal(failed.code, 9, failed.stderr);
  includes(failed.stderr, "invalid_client");
});

Deno.test("built CLI: dial ui serves the app from the sources' web/dist", async () => {
  const file = await builtCli();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", "--no-config", file, "ui", "--no-open"],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    clearEnv: true,
    env: dialEnv(),
  }).spawn();
  const { line, cancel } = await firstLine(child.stdout);
  try {
    const launch = new URL(line.trim());
    const page = await fetch(launch);
    assert.equal(page.status, 200, await page.clone().text());
    includes(await page.text(), "<script");
  } finally {
    child.kill("SIGINT");
    await child.status;
    await cancel();
    await child.stderr.cancel();
  }
});

Deno.test("built CLI: completions load from their chunk", async () => {
  const result = await dial(["completions", "bash"], { built: await builtCli() });
  assert.equal(result.code, 0, result.stderr);
  includes(result.stdout, "complete -o default -F _dial dial");
});

Deno.test("built CLI: a file upload goes out sized, through its node:http chunk", async () => {
  const file = await builtCli();
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/note.txt`, "hello");
  await using server = serve(async (request) =>
    new Response(`${request.headers.get("content-length")} ${await request.text()}`)
  );
  const result = await dial(["PUT", `${server.origin}/up`, "-d", `@${dir}/note.txt`], {
    built: file,
  });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "5 hello");
});
