import assert from "node:assert/strict";
import { dial, dialEnv } from "../_helpers.ts";

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
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  while (!out.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) break;
    out += value;
  }
  const stderrText = new Response(child.stderr).text();
  return {
    url: new URL(out.trim()),
    async stop() {
      child.kill("SIGINT");
      const status = await child.status;
      await reader.cancel();
      return { code: status.code, stderr: await stderrText };
    },
  };
}

Deno.test("ui: dial ui --no-open prints a loopback URL with a secret and serves the app until Ctrl-C", async () => {
  const app = await startDialUi(["--no-open"]);
  assert.equal(app.url.hostname, "127.0.0.1");
  assert.ok(app.url.searchParams.get("secret"));
  const login = await fetch(app.url, { redirect: "manual" });
  await login.body?.cancel();
  const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
  const page = await fetch(new URL("/app.js", app.url), { headers: { Cookie: cookie } });
  assert.equal(page.status, 200);
  assert.ok((await page.text()).length > 10_000);
  const { code, stderr } = await app.stop();
  assert.equal(code, 130);
  assert.match(stderr, /press Ctrl-C to stop/);
});

Deno.test("ui: dial ui opens the URL as an app window when Chromium is on PATH", async () => {
  const bin = await Deno.makeTempDir();
  const record = `${bin}/args.txt`;
  await Deno.writeTextFile(`${bin}/chromium`, `#!/bin/sh\necho "$@" > "${record}"\n`, {
    mode: 0o755,
  });
  const app = await startDialUi([], { PATH: bin });
  let args = "";
  for (let i = 0; i < 100 && args === ""; i++) {
    args = await Deno.readTextFile(record).catch(() => "");
    if (args === "") await new Promise((r) => setTimeout(r, 50));
  }
  await app.stop();
  assert.equal(args.trim(), `--app=${app.url.href}`);
  await Deno.remove(bin, { recursive: true });
});

Deno.test("ui: dial ui falls back to $BROWSER when no app-window browser is installed", async () => {
  const bin = await Deno.makeTempDir();
  const record = `${bin}/args.txt`;
  await Deno.writeTextFile(`${bin}/mybrowser`, `#!/bin/sh\necho "$@" > "${record}"\n`, {
    mode: 0o755,
  });
  const app = await startDialUi([], { PATH: bin, BROWSER: `${bin}/mybrowser` });
  let args = "";
  for (let i = 0; i < 100 && args === ""; i++) {
    args = await Deno.readTextFile(record).catch(() => "");
    if (args === "") await new Promise((r) => setTimeout(r, 50));
  }
  await app.stop();
  assert.equal(args.trim(), app.url.href);
  await Deno.remove(bin, { recursive: true });
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
