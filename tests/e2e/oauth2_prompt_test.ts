/**
 * The password flow prompts for a missing password without echo on a terminal. The terminal
 * is a pseudo-terminal made by util-linux `script`.
 */
import assert from "node:assert/strict";
import { testHome } from "../_helpers.ts";
import { startMockServer } from "./_oauth_servers.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const hasScript = (() => {
  try {
    return Deno.statSync("/usr/bin/script").isFile && Deno.build.os === "linux";
  } catch {
    return false;
  }
})();

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

Deno.test({
  name: "oauth2: a missing password is prompted for without echo on a terminal",
  ignore: !hasScript,
  async fn() {
    await using mock = await startMockServer();
    const home = await Deno.makeTempDir({ dir: testHome() });
    const command = [
      Deno.execPath(),
      "run",
      "-A",
      "--quiet",
      MAIN,
      "auth",
      "token",
      "--oauth2",
      `password:${mock.tokenUrl}:app`,
      "--oauth2-username",
      "ann",
    ].map(shellQuote).join(" ");
    const child = new Deno.Command("/usr/bin/script", {
      args: ["-qec", command, "/dev/null"],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      clearEnv: true,
      env: {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        HOME: home,
        XDG_CACHE_HOME: `${home}/.cache`,
        DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`,
        NO_COLOR: "1",
        TERM: "dumb",
      },
    }).spawn();
    const decoder = new TextDecoder();
    let output = "";
    const reader = child.stdout.getReader();
    // Type only once the prompt is up: the terminal is raw (no echo) from then on.
    while (!output.includes('OAuth 2.0 password for "ann": ')) {
      const { value, done } = await reader.read();
      if (done) break;
      output += decoder.decode(value);
    }
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode("pw-typed-secret\r"));
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      output += decoder.decode(value);
    }
    await writer.close().catch(() => {});
    const status = await child.status;
    await child.stderr.cancel();
    assert.equal(status.code, 0, output);
    assert.equal(mock.tokenRequests[0]?.body.get("password"), "pw-typed-secret");
    assert.ok(!output.includes("pw-typed-secret"), `the password was echoed: ${output}`);
    assert.match(output, /OAuth 2\.0 password for "ann": \r?\n/);
    assert.match(output, /ey[\w-]+\.[\w-]+\.[\w-]+/);
  },
});
