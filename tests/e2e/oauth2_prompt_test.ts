/**
 * The password flow prompts for a missing password without echo on a terminal. The terminal
 * is a pseudo-terminal made by util-linux `script`.
 */
import assert from "node:assert/strict";
import { dialOnTerminal, hasScript, testHome } from "../_helpers.ts";
import { passwordGrant, startMockServer } from "./_oauth_servers.ts";

Deno.test({
  name: "oauth2: a missing password is prompted for without echo on a terminal",
  ignore: !hasScript,
  async fn() {
    await using mock = await startMockServer();
    const home = await Deno.makeTempDir({ dir: testHome() });
    const { code, screen: output } = await dialOnTerminal([
      "auth",
      "token",
      ...passwordGrant(mock.tokenUrl, null),
    ], {
      prompt: 'OAuth 2.0 password for "ann": ',
      type: "pw-typed-secret\r",
      env: { HOME: home },
    });
    assert.equal(code, 0, output);
    assert.equal(mock.tokenRequests[0]?.body.get("password"), "pw-typed-secret");
    assert.ok(!output.includes("pw-typed-secret"), `the password was echoed: ${output}`);
    assert.match(output, /OAuth 2\.0 password for "ann": \r?\n/);
    assert.match(output, /ey[\w-]+\.[\w-]+\.[\w-]+/);
  },
});
