import assert from "node:assert/strict";
import { dial, dialEnv, firstLine, serve, waitFor } from "../_helpers.ts";
import { apiHeaders, tradeLaunch } from "./_session.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/** Starts `dial ui …` and reads stdout until the URL line arrives. */
async function startDialUi(args: string[], env: Record<string, string> = {}) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", MAIN, "ui", ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    clearEnv: true,
    env: dialEnv(env),
  }).spawn();
  const { line, cancel } = await firstLine(child.stdout);
  const stderrText = new Response(child.stderr).text();
  return {
    url: new URL(line.trim()),
    async stop() {
      child.kill("SIGINT");
      const status = await child.status;
      await cancel();
      return { code: status.code, stderr: await stderrText };
    },
  };
}

Deno.test("ui: dial ui --no-open prints a loopback launch URL that works once and serves the app until Ctrl-C", async () => {
  const app = await startDialUi(["--no-open"]);
  assert.equal(app.url.hostname, "127.0.0.1");
  assert.match(app.url.hash, /^#launch=[\w-]{43}$/);
  const trade = await tradeLaunch(app.url);
  assert.equal(trade.status, 200);
  const { session } = await trade.json();
  const again = await tradeLaunch(app.url);
  await again.body?.cancel();
  assert.equal(again.status, 401);
  const page = await fetch(new URL("/app.js", app.url));
  assert.equal(page.status, 200);
  assert.ok((await page.text()).length > 10_000);
  const call = await fetch(new URL("/api/auth/state", app.url), {
    method: "POST",
    headers: apiHeaders(session),
    body: JSON.stringify({ auth: { kind: "none" } }),
  });
  assert.equal(call.status, 400);
  assert.equal((await call.json()).error.message, "Auth is not OAuth 2.0");
  const { code, stderr } = await app.stop();
  assert.equal(code, 130);
  assert.match(stderr, /press Ctrl-C to stop/);
});

Deno.test("ui: dial ui DIR serves that folder as the workspace; a missing folder is a usage error", async () => {
  const dir = await Deno.makeTempDir({ prefix: "dial-ui-dir-" });
  try {
    await Deno.writeTextFile(`${dir}/api.http`, "GET http://127.0.0.1/\n");
    const app = await startDialUi(["--no-open", dir]);
    const { session } = await (await tradeLaunch(app.url)).json();
    const files = await fetch(new URL("/api/workspace/files", app.url), {
      method: "POST",
      headers: apiHeaders(session),
      body: "{}",
    });
    const listed = await files.json();
    assert.equal(listed.root, await Deno.realPath(dir));
    assert.deepEqual(listed.files.map((f: { path: string }) => f.path), ["api.http"]);
    await app.stop();
    const missing = await dial(["ui", "--no-open", `${dir}/nope`]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /Cannot use ".*\/nope" as the workspace: not a folder/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ui: Ctrl-C removes the response bodies dial ui kept for Save", async () => {
  await using target = serve(() => new Response("kept for Save"));
  const tmp = await Deno.makeTempDir();
  try {
    const app = await startDialUi(["--no-open"], { TMPDIR: tmp });
    const { session } = await (await tradeLaunch(app.url)).json();
    const sent = await fetch(new URL("/api/http", app.url), {
      method: "POST",
      headers: apiHeaders(session),
      body: JSON.stringify({ method: "GET", url: `${target.origin}/` }),
    });
    assert.match(await sent.text(), /"bodyId"/);
    const kept = async () =>
      (await Array.fromAsync(Deno.readDir(tmp))).filter((e) =>
        e.name.startsWith("dial-ui-bodies-")
      );
    assert.equal((await kept()).length, 1);
    assert.equal((await app.stop()).code, 130);
    assert.deepEqual(await kept(), []);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

/**
 * Runs `dial ui` with a recording browser and checks the handover: the browser's argv holds
 * a file URL and no secret, the file is private, its launch URL works once, and the file is
 * gone after use.
 */
async function checkHandover(env: (bin: string) => Record<string, string>, name: string) {
  const bin = await Deno.makeTempDir();
  const record = `${bin}/args.txt`;
  await Deno.writeTextFile(`${bin}/${name}`, `#!/bin/sh\necho "$@" > "${record}"\n`, {
    mode: 0o755,
  });
  const app = await startDialUi([], env(bin));
  try {
    const args = (await waitFor(() => Deno.readTextFile(record).catch(() => ""), {
      message: "the browser's arguments",
    })).trim();
    const printed = new URLSearchParams(app.url.hash.slice(1)).get("launch")!;
    assert.ok(!args.includes(printed), args);
    const file = new URL(args.replace(/^--app=/, ""));
    assert.equal(file.protocol, "file:");
    const path = decodeURI(file.pathname);
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
    assert.equal((await Deno.stat(path.replace(/\/[^/]+$/, ""))).mode! & 0o777, 0o700);
    const html = await Deno.readTextFile(path);
    const launch = new URL(/content="0;url=([^"]+)"/.exec(html)![1]!.replaceAll("&#38;", "&"));
    assert.equal(launch.origin, app.url.origin);
    assert.ok(!args.includes(launch.hash.slice("#launch=".length)));
    const first = await tradeLaunch(launch);
    await first.body?.cancel();
    assert.equal(first.status, 200);
    const second = await tradeLaunch(launch);
    await second.body?.cancel();
    assert.equal(second.status, 401);
    await assert.rejects(Deno.stat(path), Deno.errors.NotFound);
    return args;
  } finally {
    await app.stop();
    await Deno.remove(bin, { recursive: true });
  }
}

Deno.test("ui: dial ui opens an app window on a private handover file, never on the secret URL", async () => {
  const args = await checkHandover((bin) => ({ PATH: bin }), "chromium");
  assert.match(args, /^--app=file:\/\/\/.*\/dial-open-[^/]+\/open\.html$/);
});

Deno.test("ui: dial ui falls back to $BROWSER on the handover file when no app-window browser is installed", async () => {
  const args = await checkHandover(
    (bin) => ({ PATH: bin, BROWSER: `${bin}/mybrowser` }),
    "mybrowser",
  );
  assert.match(args, /^file:\/\/\/.*\/open\.html$/);
});

Deno.test("ui: --host beyond loopback needs saying and prints a warning", async () => {
  const app = await startDialUi(["--no-open", "--host", "0.0.0.0"]);
  const { stderr } = await app.stop();
  assert.match(stderr, /warning: Listening on 0\.0\.0\.0, not only on loopback/);
});

Deno.test("ui: --port must be a port number", async () => {
  const result = await dial(["ui", "--port", "http"]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /error: Invalid --port "http": expected a port from 1 to 65535/);
});

Deno.test("ui: a port already in use is a usage error", async () => {
  using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  const result = await dial(["ui", "--no-open", "--port", String(port)]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, new RegExp(`error: Port ${port} is already in use`));
});
