import assert from "node:assert/strict";
import { startUiServer, type UiServer } from "../../src/ui/server.ts";
import { makeCertificates } from "../e2e/_tls.ts";
import { serve } from "../_helpers.ts";
import { apiHeaders, sessionOf } from "./_session.ts";
import { unusedPort } from "../_ports.ts";

const ASSETS = { js: "/* app */", css: "/* css */" };
const certs = await makeCertificates();
/** dial's config directory of these servers: the workspace settings are kept there. */
const configDir = await Deno.makeTempDir({ prefix: "dial-ui-config-" });

/** The person's settings file of a workspace (the only one under the config directory). */
async function keptFile(): Promise<string> {
  const [file] = await Array.fromAsync(Deno.readDir(`${configDir}/workspaces`));
  return `${configDir}/workspaces/${file!.name}`;
}

async function call(server: UiServer, session: string, path: string, body: unknown) {
  const response = await fetch(new URL(path, server.url), {
    method: "POST",
    headers: apiHeaders(session),
    body: JSON.stringify(body),
  });
  const text = await response.text();
  // NDJSON (a send) is one line; other answers are JSON.
  return { status: response.status, json: JSON.parse(text.trim().split("\n").at(-1)!) };
}

/** `openssl s_server -Verify 1 -www`: a client certificate is required. */
async function mutualTls(): Promise<{ origin: string } & AsyncDisposable> {
  const port = unusedPort();
  const server = new Deno.Command("openssl", {
    args: ["s_server", "-accept", `127.0.0.1:${port}`, "-cert", certs.leaf, "-key", certs.leafKey]
      .concat(["-CAfile", certs.ca, "-Verify", "1", "-www"]),
    stdout: "piped",
    stderr: "null",
    stdin: "null",
  }).spawn();
  const lines = server.stdout.pipeThrough(new TextDecoderStream()).getReader();
  for (let seen = ""; !seen.includes("ACCEPT");) seen += (await lines.read()).value ?? "";
  return {
    origin: `https://localhost:${port}`,
    async [Symbol.asyncDispose]() {
      server.kill();
      await lines.cancel();
      await server.status;
    },
  };
}

Deno.test("ui connection: a client certificate and key from the workspace answer openssl s_server -Verify 1", async () => {
  await using tls = await mutualTls();
  const dir = await Deno.makeTempDir({ prefix: "dial-ui-mtls-" });
  try {
    const copies: [string, string][] = [
      [certs.ca, "ca.pem"],
      [certs.client, "client.pem"],
      [certs.clientKey, "client.key"],
    ];
    for (const [from, to] of copies) await Deno.copyFile(from, `${dir}/${to}`);
    {
      await using server = await startUiServer({ assets: ASSETS, workspace: dir, configDir });
      const session = await sessionOf(server);
      const send = () =>
        call(server, session, "/api/http", { method: "GET", url: `${tls.origin}/` });
      await call(server, session, "/api/workspace/connection/save", {
        settings: { cacert: ["ca.pem"] },
      });
      const refused = await send();
      assert.equal(refused.json.type, "error");
      assert.match(refused.json.error.message, /requires a client certificate/);
      assert.equal(
        refused.json.error.hint,
        "set Client certificate and Client key in TLS and proxy settings",
      );
      const half = await call(server, session, "/api/workspace/connection/save", {
        settings: { cacert: ["ca.pem"], cert: "client.pem" },
      });
      assert.equal(half.status, 400);
      assert.equal(half.json.error.message, "Missing Client key for Client certificate");
      const saved = await call(server, session, "/api/workspace/connection/save", {
        settings: { cacert: ["ca.pem"], cert: "client.pem", key: "client.key" },
      });
      assert.deepEqual(saved.json.flags, [
        "--cacert",
        "ca.pem",
        "--cert",
        "client.pem",
        "--key",
        "client.key",
      ]);
      // Copy as curl carries the same flags (curl's names are dial's).
      const curl = await call(server, session, "/api/http/curl", {
        method: "GET",
        url: `${tls.origin}/`,
      });
      assert.match(curl.json.curl, / --cacert ca\.pem --cert client\.pem --key client\.key/);
      const run = await new Deno.Command("sh", {
        args: ["-c", curl.json.curl.replace(/^curl /, "curl -sS -o /dev/null -w %{http_code} ")],
        cwd: dir,
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(
        new TextDecoder().decode(run.stdout),
        "200",
        new TextDecoder().decode(run.stderr),
      );
      const answered = await send();
      assert.equal(answered.json.type, "response");
      assert.equal(answered.json.response.status, 200);
      assert.match(answered.json.response.body, /s_server/);
    }
    // Only the paths are kept, in the person's config (never the workspace); no key's text.
    const kept = await Deno.readTextFile(await keptFile());
    assert.ok(!kept.includes("PRIVATE KEY") && !kept.includes("CERTIFICATE"));
    assert.equal(JSON.parse(kept).folder, await Deno.realPath(dir));
    assert.equal(await Deno.lstat(`${dir}/.dial/connection.json`).catch(() => null), null);
    // A restart uses them; a key file gone since is said, and the flags alone apply.
    {
      await using server = await startUiServer({ assets: ASSETS, workspace: dir, configDir });
      const session = await sessionOf(server);
      const again = await call(server, session, "/api/http", {
        method: "GET",
        url: `${tls.origin}/`,
      });
      assert.equal(again.json.response.status, 200);
    }
    // A settings file that is not private (another user's, or loosened) is not used.
    await Deno.chmod(await keptFile(), 0o644);
    {
      await using server = await startUiServer({ assets: ASSETS, workspace: dir, configDir });
      const session = await sessionOf(server);
      const state = await call(server, session, "/api/workspace/connection", {});
      assert.match(state.json.error, /is not a private file of yours/);
      const refused = await call(server, session, "/api/http", {
        method: "GET",
        url: `${tls.origin}/`,
      });
      assert.equal(refused.json.type, "error");
    }
    await Deno.chmod(await keptFile(), 0o600);
    await Deno.remove(`${dir}/client.key`);
    {
      await using server = await startUiServer({ assets: ASSETS, workspace: dir, configDir });
      const session = await sessionOf(server);
      const state = await call(server, session, "/api/workspace/connection", {});
      assert.equal(state.json.error, 'Cannot read Client key "client.key": no such file');
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ui connection: a cloned .dial/connection.json (proxy and insecure, 0600) is never used", async () => {
  // The attack: a repository brings its own settings, written 0600 by git under umask 077.
  await using proxy = serve(() => new Response("proxied"));
  await using target = serve((request) =>
    Response.json({ auth: request.headers.get("authorization") })
  );
  const dir = await Deno.makeTempDir({ prefix: "dial-ui-cloned-" });
  try {
    await Deno.mkdir(`${dir}/.dial`, { mode: 0o700 });
    await Deno.writeTextFile(
      `${dir}/.dial/connection.json`,
      JSON.stringify({ version: 1, settings: { proxy: proxy.origin, insecure: true } }),
      { mode: 0o600 },
    );
    await using server = await startUiServer({ assets: ASSETS, workspace: dir, configDir });
    const session = await sessionOf(server);
    const state = await call(server, session, "/api/workspace/connection", {});
    assert.deepEqual(state.json.settings, {});
    assert.equal(state.json.insecure, false);
    assert.match(
      state.json.error,
      /\.dial\/connection\.json is not used: .* kept in your own config/,
    );
    const sent = await call(server, session, "/api/http", {
      method: "GET",
      url: `${target.origin}/`,
      headers: [{ name: "Authorization", value: "Bearer tok-of-the-user" }],
    });
    assert.equal(sent.json.response.status, 200);
    assert.equal(proxy.requests.length, 0, "the repository's proxy got the request");
    assert.equal(target.requests.length, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

globalThis.addEventListener("unload", () => {
  Deno.removeSync(certs.dir, { recursive: true });
  Deno.removeSync(configDir, { recursive: true });
});
