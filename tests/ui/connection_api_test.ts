import assert from "node:assert/strict";
import { startUiServer, type UiServer } from "../../src/ui/server.ts";
import { makeCertificates } from "../e2e/_tls.ts";
import { apiHeaders, sessionOf } from "./_session.ts";

const ASSETS = { js: "/* app */", css: "/* css */" };
const certs = await makeCertificates();

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
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = probe.addr.port;
  probe.close();
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
      await using server = await startUiServer({ assets: ASSETS, workspace: dir });
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
    // Only the paths are kept; the key's text is nowhere in .dial/.
    const kept = await Deno.readTextFile(`${dir}/.dial/connection.json`);
    assert.ok(!kept.includes("PRIVATE KEY") && !kept.includes("CERTIFICATE"));
    assert.equal(await Deno.readTextFile(`${dir}/.dial/.gitignore`), "*\n");
    // A restart uses them; a key file gone since is said, and the flags alone apply.
    {
      await using server = await startUiServer({ assets: ASSETS, workspace: dir });
      const session = await sessionOf(server);
      const again = await call(server, session, "/api/http", {
        method: "GET",
        url: `${tls.origin}/`,
      });
      assert.equal(again.json.response.status, 200);
    }
    // A settings file that is not private (as a cloned repository would bring it) is not used.
    await Deno.chmod(`${dir}/.dial/connection.json`, 0o644);
    {
      await using server = await startUiServer({ assets: ASSETS, workspace: dir });
      const session = await sessionOf(server);
      const state = await call(server, session, "/api/workspace/connection", {});
      assert.match(state.json.error, /is not a private file of yours/);
      const refused = await call(server, session, "/api/http", {
        method: "GET",
        url: `${tls.origin}/`,
      });
      assert.equal(refused.json.type, "error");
    }
    await Deno.chmod(`${dir}/.dial/connection.json`, 0o600);
    await Deno.remove(`${dir}/client.key`);
    {
      await using server = await startUiServer({ assets: ASSETS, workspace: dir });
      const session = await sessionOf(server);
      const state = await call(server, session, "/api/workspace/connection", {});
      assert.equal(state.json.error, 'Cannot read Client key "client.key": no such file');
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

globalThis.addEventListener("unload", () => Deno.removeSync(certs.dir, { recursive: true }));
